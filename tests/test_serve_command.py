"""``nil-tui serve``'s command line and its server's checks, without a browser (the browser
tests are in tests/browser): bad options are one line and status 2, a port in use too, the
server is loaded by this command only, and a request is refused before anything starts."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))
from harness import Served, until

WAIT = 60.0


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NIL_TUI_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "nil_tui", "serve", *args],
                          capture_output=True, text=True, env=env, timeout=WAIT, check=False)


@pytest.mark.parametrize("args", [
    ["--port", "70000"], ["--port", "http"], ["--port", "8_000"], ["--port", " 80"],
    ["--bind", "no such host!"], ["--bind", ""],
    ["--max-sessions", "0"], ["--max-sessions", "1000"], ["--public-url", "ftp://x"],
    ["--public-url", "http://"], ["--public-url", "http://a.example/?q=1"], ["--nonsense"],
])
def test_a_bad_option_is_one_line_and_status_2(tmp_path: Path, args: list[str]) -> None:
    result = run(tmp_path, *args)
    assert result.returncode == 2, result
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert re.match(r"nil-tui( serve)?: error: ", result.stderr), result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert not (tmp_path / "nil-tui.db").exists()


def test_a_port_in_use_is_one_line_and_status_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run(tmp_path, "--port", str(port))
    assert result.returncode == 2, result
    assert re.fullmatch(rf"nil-tui serve: cannot listen on 127\.0\.0\.1 port {port} \(.+\)\n",
                        result.stderr), result.stderr
    assert result.stdout == ""


def test_the_server_is_loaded_by_serve_only() -> None:
    code = ("import sys; from nil_tui.commands import cli; cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('aiohttp', 'textual_serve') or m.startswith('nil_tui.serve.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=WAIT, check=True)
    assert done.stdout.strip() == "[]"


def test_a_request_with_a_wrong_token_starts_nothing(tmp_path: Path) -> None:
    """Bound beyond loopback (here every address), the printed link has a token; without
    it, or with another, the page and the websocket are refused and no process starts."""
    server = Served(tmp_path, "--bind", "0.0.0.0", "--max-sessions", "2")
    try:
        found = re.search(r":(\d+)/\?token=([A-Za-z0-9_-]{32,})$", server.url)
        assert found is not None, server.url
        port, token = found.groups()
        base = f"http://127.0.0.1:{port}"
        for path in ("/", "/?token=", f"/?token={token[:-1]}", "/ws", f"/ws/{token}x"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + path, timeout=20)
            assert refused.value.code == 403, path
            assert "Nothing was started" in refused.value.read().decode()
        with urllib.request.urlopen(f"{base}/?token={token}", timeout=20) as page:
            text = page.read().decode()
            assert f"/ws/{token}" in text
            assert "googleapis" not in text and "https://" not in text
            assert "default-src 'none'" in page.headers["Content-Security-Policy"]
        assert server.tabs() == []
    finally:
        assert server.stop() == 0


def test_behind_a_public_address_the_link_has_a_token_too(tmp_path: Path) -> None:
    """Bound to loopback behind a proxy (--public-url): reachable from elsewhere, so the
    link carries a token, and the proxy's host name is served with it."""
    server = Served(tmp_path, "--public-url", "https://cards.example.org")
    try:
        assert re.fullmatch(r"https://cards\.example\.org/\?token=[A-Za-z0-9_-]{32,}",
                            server.url), server.url
        token = server.url.split("token=")[1]
        listening = _listening_port(server.proc.pid)  # the link names the proxy, not it
        request = urllib.request.Request(f"http://127.0.0.1:{listening}/?token={token}",
                                         headers={"Host": "cards.example.org"})
        with urllib.request.urlopen(request, timeout=20) as page:
            assert "wss://cards.example.org/ws/" in page.read().decode()
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{listening}/", timeout=20)
        assert refused.value.code == 403
    finally:
        server.stop()


def _listening_port(pid: int) -> int:
    """The TCP port process ``pid`` listens on (from /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                return int(fields[1].rsplit(":", 1)[1], 16)
    raise AssertionError("the server listens on no port")


def _page(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as page:
            return page.status, page.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def test_a_table_that_comes_free_goes_to_the_tab_that_waited_longest(tmp_path: Path) -> None:
    """--max-sessions 1: two tabs wait in line; when the open one closes, the later one asking
    first is still turned away and so is a new one, while the first in line gets the table,
    kept for it until its websocket comes; a websocket with no table kept for it is refused
    before it opens (its page says no table could be opened, not that one was closed)."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    server = Served(tmp_path, "--max-sessions", "1")
    try:
        def socket_of(text: str) -> str:
            found = re.search(r'data-session-websocket-url="(ws://[^"]+)"', text)
            assert found is not None, text
            return found.group(1) + "?width=80&height=24"

        def ticket(text: str) -> str:
            found = re.search(r"wait=([A-Za-z0-9_-]+)", text)
            assert found is not None, text
            return found.group(1)

        status, text = _page(server.url)
        assert status == 200
        with connect(socket_of(text), open_timeout=20):
            until(lambda: len(server.tabs()) == 1, "the first tab's app")
            status, text = _page(server.url)
            assert status == 503 and "0 tabs waiting before this one" in text
            second = ticket(text)
            status, text = _page(server.url)
            assert status == 503 and "1 tab waiting before this one" in text
            third = ticket(text)
            with pytest.raises(InvalidStatus) as refused:
                connect(server.url.replace("http://", "ws://").rstrip("/") + "/ws",
                        open_timeout=20)
            assert refused.value.response.status_code == 503
        until(lambda: server.tabs() == [], "the first tab's app to end")
        status, text = _page(f"{server.url}?wait={third}")
        assert status == 503 and "1 tab waiting before this one" in text
        assert _page(server.url)[0] == 503  # a new tab waits behind them
        status, text = _page(f"{server.url}?wait={second}")
        assert status == 200
        assert _page(f"{server.url}?wait={third}")[0] == 503  # the table is kept for it
        with connect(socket_of(text), open_timeout=20):
            until(lambda: len(server.tabs()) == 1, "the second tab's app")
    finally:
        server.stop()


def test_the_page_of_a_closed_tab_claims_no_save_it_cannot_know() -> None:
    """A tab's page cannot know whether its game was saved (a full disk, say, keeps it from
    being): the app says so on its own screen before it closes; the page only offers to
    open the table again, where a saved game is offered to resume."""
    from nil_tui.serve.server import PAGE

    closed = re.search(r'<div class="dialog closed">(.*?)</div></div>', PAGE, re.DOTALL)
    assert closed is not None
    text = re.sub(r"<[^>]+>", " ", closed.group(1))
    assert "closed" in text and "Open it again" in text
    assert "is saved" not in text and "was saved" not in text
