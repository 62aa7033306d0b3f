"""README stays short and says what a newcomer needs first; the documentation's command line
reference and CHANGELOG follow the program itself."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nil_tui
from nil_tui.commands.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands() -> list[str]:
    import argparse

    for action in build_parser(with_simulate=False)._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    raise AssertionError("no commands")


def sh_block(heading: str) -> tuple[int, list[str]]:
    """The line number (from 1) and lines of the first sh block under ``heading``, as .ci/run
    reads them."""
    lines = README.splitlines()
    start = lines.index(heading)
    opening = lines.index("```sh", start)
    closing = lines.index("```", opening + 1)
    return opening + 1, lines[opening + 1:closing]


def test_readme_is_short() -> None:
    assert len(README.encode("utf-8")) <= 10 * 1024


def test_readme_commands_are_one_line_each_and_the_tests_on_the_first_screen() -> None:
    _, play = sh_block("## Install and play")
    at, tests = sh_block("## Run the tests")
    assert len(play) == 1 and play[0].startswith("python3 -m venv .venv && ")
    assert play[0].endswith("nil-tui")
    assert len(tests) == 1 and "pytest" in tests[0]
    assert "pip install ." not in README.split("## Install and play")[0]
    assert at <= 40, f"the test command is on line {at}, past the first screen"


def test_readme_names_every_command() -> None:
    named = set(re.findall(r"^\| `nil-tui (\w+)", README, flags=re.MULTILINE))
    named |= set(re.findall(r"^\| `nil-tui \w+[^|]*` / `(\w+)", README, flags=re.MULTILINE))
    assert named == set(commands())


def test_command_line_reference_is_the_parsers() -> None:
    spec = importlib.util.spec_from_file_location(
        "cli_reference", ROOT / "docs" / "hooks" / "cli_reference.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = hook.on_page_markdown("# Command line\n\n<!-- nil-tui:commands -->\n", page=None)
    for name in commands():
        assert f"\n## nil-tui {name}\n" in page
        assert f"usage: nil-tui {name} [-h]" in page
    assert "--scoring {classic,pool}" in page  # a flag of play, as its parser words it
    assert "<!-- nil-tui:commands -->" not in page


def test_changelog_names_this_version_first() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## (\S+)", changelog, flags=re.MULTILINE)
    assert first is not None and first.group(1) == nil_tui.__version__
