"""Where the app finds its shipped files (rules text, art), installed or from a checkout,
and where it keeps yours (light: the app asks it before its first frame)."""

from __future__ import annotations

import os
from pathlib import Path

DB_NAME = "nil-tui.db"  # the store's file in the data folder

_PACKAGE = Path(__file__).resolve().parent.parent  # nil_tui (this is nil_tui/util/paths.py)


def assets_dir() -> Path:
    """``nil_tui/assets`` inside an installed wheel, else ``assets/`` of a source checkout."""
    for candidate in (_PACKAGE / "assets", _PACKAGE.parent / "assets"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the game's assets folder is missing: reinstall nil-tui")


def asset_text(name: str) -> str:
    return (assets_dir() / name).read_text(encoding="utf-8")


def default_home() -> Path:
    """The data folder: ``$NIL_TUI_HOME`` when set, else the platform's user data
    directory."""
    env = os.environ.get("NIL_TUI_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("nil-tui", appauthor=False))
