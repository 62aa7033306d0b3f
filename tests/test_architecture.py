"""The layers: the engine imports only the standard library, and the engine, the bots and the
simulator never load the screen libraries. Each probe runs in a fresh interpreter, and each is
also run on the app, where it must find what it looks for, so a probe that cannot fail is
caught."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# The modules a fresh interpreter has loaded after ``setup``, as JSON: the outside packages
# (neither the standard library nor nil_tui) and the nil_tui modules.
PROBE = """
import json, sys
before = set(sys.modules)
{setup}
new = set(sys.modules) - before
stdlib = set(sys.stdlib_module_names)
outside = sorted({{m.split(".")[0] for m in new}} - stdlib - {{"nil_tui"}})
ours = sorted(m for m in new if m == "nil_tui" or m.startswith("nil_tui."))
print(json.dumps({{"outside": outside, "ours": ours}}))
"""

ENGINE = "import nil_tui.engine"
HEADLESS = """
import nil_tui.engine
import nil_tui.bots
import nil_tui.sim
from nil_tui.bots import LEVELS, make_bot
for spec in LEVELS:
    make_bot(spec, seed=1)
nil_tui.sim.run_match(["easy", "easy", "easy", "easy"], 1, 1, 1, time_cap=None)
"""
APP = "import nil_tui.tui.app"


def loaded(setup: str) -> dict[str, list[str]]:
    code = PROBE.format(setup=textwrap.dedent(setup))
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.skipif(sys.version_info < (3, 10), reason="needs sys.stdlib_module_names")
def test_the_engine_imports_only_the_standard_library() -> None:
    found = loaded(ENGINE)
    assert found["outside"] == []
    assert all(m == "nil_tui" or m.startswith("nil_tui.engine") for m in found["ours"]), \
        found["ours"]
    assert "nil_tui.engine" in found["ours"]


def test_the_engine_bots_and_simulator_do_not_load_textual_or_rich() -> None:
    found = loaded(HEADLESS)
    assert not {"textual", "rich"} & set(found["outside"]), found["outside"]
    assert not [m for m in found["ours"] if m.startswith("nil_tui.tui")]
    assert "nil_tui.bots" in found["ours"] and "nil_tui.sim" in found["ours"]


def test_the_probes_see_the_app_load_textual() -> None:
    """The same probe on the app: it finds Textual, and modules outside the engine."""
    found = loaded(APP)
    assert {"textual", "rich"} <= set(found["outside"])
    assert "nil_tui.tui.app" in found["ours"]
    assert not all(m == "nil_tui" or m.startswith("nil_tui.engine") for m in found["ours"])


# --- the import graph, read from the source ------------------------------------------------
PACKAGE = Path(__file__).resolve().parent.parent / "nil_tui"


def imports_of(path: Path) -> set[str]:
    """The nil_tui modules a file imports (anywhere in it: lazy imports count too)."""
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    if path.name == "__init__.py":
        name = package
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("nil_tui"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.startswith("nil_tui"):
                found.add(module)
    return found


def modules_under(folder: str) -> dict[str, set[str]]:
    root = PACKAGE / folder
    return {str(p.relative_to(PACKAGE)): imports_of(p) for p in sorted(root.rglob("*.py"))}


def test_the_session_layer_never_imports_the_screens() -> None:
    """The session is what every front end shows (the table, a network table, a browser):
    it imports nothing of ``tui``, Textual or Rich, so there is no circle with the screens."""
    for path, found in modules_under("session").items():
        assert not [m for m in found if m.startswith("nil_tui.tui")], (path, found)
        text = (PACKAGE / path).read_text(encoding="utf-8")
        assert "import textual" not in text and "from textual" not in text, path
        assert "from rich" not in text and "import rich" not in text, path


def test_the_session_layer_loads_without_the_screen_libraries() -> None:
    found = loaded("import nil_tui.session.game_session, nil_tui.session.messages, "
                   "nil_tui.session.saving, nil_tui.session.reference")
    assert not {"textual", "rich"} & set(found["outside"]), found["outside"]
    assert not [m for m in found["ours"] if m.startswith("nil_tui.tui")]


def test_the_screens_never_build_a_driver() -> None:
    """A game is run by its session: the screens and the app hold one, never a driver of
    their own."""
    for path in sorted((PACKAGE / "tui").rglob("*.py")):
        assert "GameDriver(" not in path.read_text(encoding="utf-8"), path


def test_the_table_screen_is_a_view() -> None:
    """The table draws the session's values and sends actions: it carries out the session's
    effects but holds no pace of its own (no timers of a trick or a bot card)."""
    text = (PACKAGE / "tui" / "screens" / "table.py").read_text(encoding="utf-8")
    for flag in ("_holding =", "_held", "_hold_waits", "_draining", "_auto_turn",
                 "PAUSES", "time.sleep"):
        assert flag not in text, flag


def class_sizes(path: Path) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name: (n.end_lineno or n.lineno) - n.lineno + 1
            for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}


def test_the_session_and_the_table_stay_small() -> None:
    """The compass for the next maintainer: the table screen at most 450 lines, and no class
    of the session layer or of the table over 400 (the app: see below)."""
    table = PACKAGE / "tui" / "screens" / "table.py"
    assert len(table.read_text(encoding="utf-8").splitlines()) <= 450
    for path in [table, *sorted((PACKAGE / "session").glob("*.py"))]:
        for name, size in class_sizes(path).items():
            assert size <= 400, (path.name, name, size)


# --- the layers of docs/ARCHITECTURE.md, read from the imports ------------------------------
LAYERS: dict[str, int] = {
    # 0: small shared helpers (the version, where files go, safe text, processes)
    "nil_tui": 0, "paths": 0, "textsafe": 0, "argtypes": 0, "processes": 0,
    "engine": 1,  # the rules
    "bots": 2,  # levels, plugins, advice: they see a PlayerView
    # 3: the game: its driver, the challenge, analysis, the store, options, records, simulate
    "driver": 3, "challenge": 3, "analysis": 3, "store": 3, "options": 3, "recordfile": 3,
    "sim": 3,
    "session": 4,  # a game from its start to its record, without a screen
    # 5: the front ends
    "tui": 5, "net": 5, "serve": 5, "lines": 5, "cli": 5, "analysis_cli": 5, "__main__": 5,
}
"""The layer of each part of nil_tui: a module imports its own layer or those under it."""


def layer_of(module: str) -> int:
    parts = module.split(".")
    part = parts[1] if len(parts) > 1 else parts[0]
    assert part in LAYERS, f"{module}: place it in a layer (LAYERS, docs/ARCHITECTURE.md)"
    return LAYERS[part]


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return name.removesuffix(".__init__")


def test_each_layer_imports_only_its_own_and_those_under_it() -> None:
    assert layer_of("nil_tui.tui.app") > layer_of("nil_tui.session.home") > layer_of(
        "nil_tui.driver") > layer_of("nil_tui.bots") > layer_of("nil_tui.engine.game")
    crossed = [(module_name(path), found) for path in sorted(PACKAGE.rglob("*.py"))
               for found in sorted(imports_of(path))
               if layer_of(found) > layer_of(module_name(path))]
    assert crossed == []


def test_the_engine_imports_nothing_of_the_other_layers() -> None:
    for path, found in modules_under("engine").items():
        assert all(m == "nil_tui" or m.startswith("nil_tui.engine") for m in found), (path, found)


NET_ENTRY = "net/commands.py"
"""The network layer's command-line entry: the one module of ``net`` that opens a screen (the
join screen, ``tui/remote_table.py``)."""


def test_the_network_layer_reaches_the_screens_only_through_its_entry() -> None:
    modules = modules_under("net")
    assert NET_ENTRY in modules
    for path, found in modules.items():
        text = (PACKAGE / path).read_text(encoding="utf-8")
        assert "import textual" not in text and "from textual" not in text, path
        if path != NET_ENTRY:
            assert not [m for m in found if m.startswith("nil_tui.tui")], (path, found)


def test_the_app_and_every_class_stay_small() -> None:
    """The app at most 400 lines, and no class of nil_tui over 400."""
    app = PACKAGE / "tui" / "app.py"
    assert len(app.read_text(encoding="utf-8").splitlines()) <= 400
    big = {(str(path.relative_to(PACKAGE)), name)
           for path in sorted(PACKAGE.rglob("*.py"))
           for name, size in class_sizes(path).items() if size > 400}
    assert not big, big
