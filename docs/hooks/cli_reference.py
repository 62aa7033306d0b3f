"""MkDocs hook: the command line's reference, written from the program's own parsers.

A page that holds the line ``<!-- nil-tui:commands -->`` gets, in its place, a table of every
command and then each command's description and its ``--help``, exactly as
``nil_tui.commands.cli.build_parser`` builds them, so that the page cannot say anything the program
does not accept. A command the page names in no table fails the build.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

MARKER = "<!-- nil-tui:commands -->"
WIDTH = "88"  # argparse wraps help to $COLUMNS: the same width on every machine


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise RuntimeError("nil-tui's parser has no commands")


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {}


def _help(parser: argparse.ArgumentParser) -> str:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        return parser.format_help().rstrip()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def reference() -> str:
    from nil_tui.commands.cli import build_parser

    parser = build_parser(with_simulate=True)
    commands = _commands(parser)
    summaries = _summaries(parser)
    lines = ["| command | what it does |", "|---|---|",
             "| `nil-tui` | open the setup screen |"]
    lines += [f"| [`nil-tui {name}`](#nil-tui-{name}) | {summaries.get(name, '')} |"
              for name in commands]
    lines += ["", "## nil-tui", "", "```text", _help(parser), "```", ""]
    for name, sub in commands.items():
        lines += [f"## nil-tui {name}", ""]
        summary = summaries.get(name, "")
        if summary:
            lines += [summary[0].upper() + summary[1:] + ".", ""]
        lines += ["```text", _help(sub), "```", ""]
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, reference())
