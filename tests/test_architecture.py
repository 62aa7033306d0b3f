"""The layers: import-linter's contracts (``[tool.importlinter]`` in pyproject.toml) on the
import graph, every import counted; and probes in fresh interpreters that the engine imports
only the standard library, and the engine, the bots, the simulator and the session never load
the screen libraries. Each probe is also run on the app, where it must find what it looks
for, so a probe that cannot fail is caught."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, ClassVar

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
import nil_tui.game.sim
from nil_tui.bots import LEVELS, make_bot
for spec in LEVELS:
    make_bot(spec, seed=1)
nil_tui.game.sim.run_match(["easy", "easy", "easy", "easy"], 1, 1, 1, time_cap=None)
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
    assert "nil_tui.bots" in found["ours"] and "nil_tui.game.sim" in found["ours"]


def test_the_probes_see_the_app_load_textual() -> None:
    """The same probe on the app: it finds Textual, and modules outside the engine."""
    found = loaded(APP)
    assert {"textual", "rich"} <= set(found["outside"])
    assert "nil_tui.tui.app" in found["ours"]
    assert not all(m == "nil_tui" or m.startswith("nil_tui.engine") for m in found["ours"])


# --- the source ------------------------------------------------------------------------------
PACKAGE = Path(__file__).resolve().parent.parent / "nil_tui"


def graph() -> Any:
    """nil_tui's import graph as import-linter reads it (grimp), every import counted."""
    import grimp

    return grimp.build_graph("nil_tui", include_external_packages=True, cache_dir=None)


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


# --- the layers of docs/ARCHITECTURE.md: import-linter's contracts (pyproject.toml) -----------
def test_the_import_contracts_hold() -> None:
    """``lint-imports``: each layer imports only those under it, the store, the simulator and
    the analysis stay apart, and Textual and Rich stay out of the engine, the bots and the
    session. Every import counts (inside functions and under TYPE_CHECKING too), so no
    circle runs between packages."""
    from importlinter.cli import lint_imports

    root = PACKAGE.parent
    assert lint_imports(config_filename=str(root / "pyproject.toml"), no_cache=True,
                        no_logo=True) == 0


def test_the_contracts_see_the_imports_made_inside_functions() -> None:
    """The graph the contracts are checked on holds the lazy imports (the command line opens
    the screens from inside a function), so a contract cannot pass for want of an edge."""
    imports = graph()
    assert "nil_tui.tui.table_apps" in imports.find_modules_directly_imported_by(
        "nil_tui.commands.table")
    assert imports.find_shortest_chain("nil_tui.commands.cli", "nil_tui.tui.app") is not None
    assert imports.find_shortest_chain("nil_tui.session.table.table", "nil_tui.tui.app") is None


def circles_across_packages(imports: Any) -> list[list[str]]:
    """The import circles (strongly connected modules) that hold modules of more than one
    package."""
    modules = sorted(m for m in imports.modules if m.startswith("nil_tui"))
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in imports.find_modules_directly_imported_by(module):
            if not other.startswith("nil_tui"):
                continue
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            circle = stack[stack.index(module):]
            del stack[stack.index(module):]
            packages = {m if imports.find_children(m) else m.rsplit(".", 1)[0] for m in circle}
            if len(packages) > 1:
                found.append(sorted(circle))

    for module in modules:
        if module not in order:
            visit(module)
    return found


def test_no_import_circle_runs_between_packages() -> None:
    """Counting every import (inside functions, under TYPE_CHECKING): the screens reach the
    app only through its face (tui/face.py), the command line is reached by nothing."""
    assert circles_across_packages(graph()) == []


def test_a_circle_between_packages_would_be_found() -> None:
    class Imports:
        modules = frozenset({"nil_tui.a.x", "nil_tui.b.y", "nil_tui.a.z"})
        edges: ClassVar[dict[str, set[str]]] = {
            "nil_tui.a.x": {"nil_tui.b.y"}, "nil_tui.b.y": {"nil_tui.a.x"},
            "nil_tui.a.z": {"nil_tui.a.x"}}

        def find_modules_directly_imported_by(self, module: str) -> set[str]:
            return self.edges[module]

        def find_children(self, module: str) -> set[str]:
            return set()

    assert circles_across_packages(Imports()) == [["nil_tui.a.x", "nil_tui.b.y"]]


def test_nothing_imports_the_command_layer() -> None:
    importers = {m for m in graph().find_downstream_modules("nil_tui.commands", as_package=True)
                 if not m.startswith("nil_tui.commands")}
    assert importers == {"nil_tui.__main__"}, importers


def test_the_network_layer_opens_no_screen() -> None:
    """``net`` is the server, the client and the protocol: no Textual, nothing of ``tui``
    (``nil-tui host`` and ``join`` open their screens from the command layer)."""
    imports = graph()
    for module in sorted(imports.find_children("nil_tui.net")):
        reached = imports.find_upstream_modules(module)
        assert not [m for m in reached if m.startswith(("nil_tui.tui", "textual"))], module


def test_the_app_and_every_class_stay_small() -> None:
    """The app at most 400 lines, and no class of nil_tui over 400."""
    app = PACKAGE / "tui" / "app.py"
    assert len(app.read_text(encoding="utf-8").splitlines()) <= 400
    big = {(str(path.relative_to(PACKAGE)), name)
           for path in sorted(PACKAGE.rglob("*.py"))
           for name, size in class_sizes(path).items() if size > 400}
    assert not big, big
