"""The layers: the engine imports only the standard library, and the engine, the bots and the
simulator never load the screen libraries. Each probe runs in a fresh interpreter, and each is
also run on the app, where it must find what it looks for, so a probe that cannot fail is
caught."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

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
