"""The addresses and ports of ``nil-tui host`` and ``nil-tui join`` are checked before anything
opens: a bad one is one line and exit status 2, never a traceback from the resolver, never a
table listening on every address with an invite nobody can use."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from procs import command, env_for

from nil_tui.net import keys

SECRET = "abcdefghijklmnopqrstuvwxyz"
LONG = "a" * 100_000


def refused(args: list[str], home: Path) -> str:
    """Run the command; it must end at once with status 2 and one line, no traceback."""
    done = subprocess.run(command(*args), env=env_for(home), timeout=60, capture_output=True,
                          text=True, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, (args[:4], done.stdout[-500:], done.stderr[-500:])
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr[-1000:]
    assert "Traceback" not in done.stderr and len(done.stderr) < 400, done.stderr[-1000:]
    return done.stderr


@pytest.mark.parametrize("bind", ["\u202e5", LONG, "", "bad host", "-x-", "a..b", "h\u00e9"],
                         ids=["bidi", "long", "empty", "space", "dashes", "dots", "accent"])
def test_a_bad_bind_address_is_one_line_and_status_2(bind: str, tmp_path: Path) -> None:
    said = refused(["host", "--text", "--no-seat", "--port", "0", f"--bind={bind}"], tmp_path)
    assert "--bind" in said and "\u202e" not in said


@pytest.mark.parametrize("port", ["4_711", "+4711", "\u0664\u0667", "65536", "9" * 5000])
def test_a_bad_port_is_one_line_and_status_2(port: str, tmp_path: Path) -> None:
    said = refused(["host", "--text", "--no-seat", f"--port={port}"], tmp_path)
    assert "--port" in said


@pytest.mark.parametrize("invite", [f"nil://\u202e5:4711/{SECRET}", f"nil://{LONG}:1/{SECRET}",
                                    f"nil://:47999/{SECRET}", f"nil://h:4_711/{SECRET}",
                                    f"nil://h:\u0664\u0667/{SECRET}", f"nil://h:0/{SECRET}"],
                         ids=["bidi", "long", "no-host", "underscore", "digits", "zero"])
def test_join_refuses_an_invite_with_a_bad_address_in_one_line(invite: str,
                                                              tmp_path: Path) -> None:
    said = refused(["join", invite, "--text"], tmp_path)
    assert "invite" in said and "\u202e" not in said


@pytest.mark.parametrize("text", ["127.0.0.1", "::1", "[::1]", "localhost", "table-1.example",
                                  "0.0.0.0", "::"])
def test_good_addresses_are_kept(text: str) -> None:
    assert keys.host_address(text) == text.strip("[]")
    assert keys.parse_invite(f"nil://{text}:80/{SECRET}").port == 80
