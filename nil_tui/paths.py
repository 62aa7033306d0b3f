"""Where the app finds its shipped files (rules text, art), installed or from a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def assets_dir() -> Path:
    """``nil_tui/assets`` inside an installed wheel, else ``assets/`` of a source checkout."""
    for candidate in (_PACKAGE / "assets", _PACKAGE.parent / "assets"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the game's assets folder is missing: reinstall nil-tui")


def asset_text(name: str) -> str:
    return (assets_dir() / name).read_text(encoding="utf-8")
