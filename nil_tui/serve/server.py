"""The server of ``nil-tui serve`` (aiohttp, with textual-serve's page scripts and its app
process service).

* Each tab's websocket runs ``nil-tui`` (the setup screen: play, resume, challenge,
  history...) in a process of its own under Textual's web driver. When the tab closes or
  reloads, or its connection is lost, the process is told to quit: it saves the game and
  ends (:mod:`nil_tui.tui.browser`); one that has not ended after :data:`STOP_WAIT` seconds
  is killed. A new tab's process starts only once the closing ones have ended, so a reloaded
  page finds the game saved (and the store free) and offers Resume.
* Bound to an address other than loopback, the link carries an access token (192 random
  bits); the page and the websocket check it before anything is started, and a request
  without it gets a plain refusal page. Without a token, only a loopback Host is served (a
  page of another site cannot reach the server through a name that points here).
* At most ``max_sessions`` tabs at once: one more gets a page that says so, with its place in
  line; the page asks again by itself, and a table that comes free goes to the tab that has
  waited longest. A page that is let in has its table kept for it until its websocket comes
  (:data:`HOLD`), so a tab never shows a page whose table another took meanwhile.
* The page is this module's own: its only resources are the server's (textual-serve's
  script and style, and its Roboto Mono font), so it works with no internet and makes no
  request off the machine (its Content-Security-Policy says so to the browser too).
"""

from __future__ import annotations

import asyncio
import html
import ipaddress
import json
import secrets
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

STOP_WAIT = 3.0  # seconds a closing tab's process may take (its own watchdog ends it in 1.5)
SETTLE_WAIT = 4.0  # seconds a new tab waits for closing tabs' processes to end
TOKEN_BYTES = 24  # 192 bits
RETRY = 3  # seconds before a page turned away for want of a free table asks again
LINE_KEPT = 4 * RETRY
"""Seconds a waiting tab keeps its place in line without asking again (else it was closed)."""
HOLD = 20.0
"""Seconds a table is kept for a page let in, until its websocket comes."""
HEARTBEAT = 5.0
"""Seconds of quiet before a tab's websocket is pinged; with no pong HEARTBEAT / 2 later the
tab counts as closed (aiohttp's ``heartbeat``): a link that died without a word (a cable
pulled, a laptop asleep) is noticed within about 8.5 s, and its app saves and ends as for a
closed tab. textual-serve's own server fixes 15 s (about 23 s); this server makes its own
``WebSocketResponse`` (:meth:`BrowserServer.websocket`), so it is set here."""
EXIT_USAGE = 2
LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")

CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "font-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "worker-src 'self' blob:; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<script src="/static/js/textual.js"></script>
<style>
@font-face {{
  font-family: "Roboto Mono";
  src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
  font-weight: 100 700;
}}
html, body {{ margin: 0; height: 100%; background: #0c181f; overflow: hidden; }}
.textual-terminal {{ width: 100vw; height: 100vh; opacity: 0; }}
body.-first-byte .textual-terminal {{ opacity: 1; }}
.dialog {{ position: absolute; inset: 0; display: flex; align-items: center;
  justify-content: center; z-index: 10; font: 16px "Roboto Mono", monospace;
  color: rgba(255, 255, 255, 0.95); text-align: center; }}
.dialog div {{ background: #12232d; padding: 32px 48px; }}
.dialog a {{ color: #ac5af4; }}
body.-first-byte .intro, .closed, .refused {{ display: none; }}
body.-closed.-first-byte .closed {{ display: flex; }}
body.-closed:not(.-first-byte) .refused {{ display: flex; }}
body.-closed .intro {{ display: none; }}
</style>
</head>
<body>
<div class="dialog intro"><div>{title}</div></div>
<div class="dialog closed"><div>This table is closed.
<p><a href="">Open it again</a>: a game left unfinished that it could save is offered there
to resume.</p></div></div>
<div class="dialog refused"><div>No table could be opened for this tab; nothing was started.
<p><a href="">Try again</a></p></div></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{websocket}"
 data-font-size="{font_size}"></div>
</body>
</html>
"""

NOTICE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8">{refresh}<title>{title}</title></head>
<body style="font-family: monospace; margin: 3em">
<h1>{title}</h1>
<p>{text}</p>
</body>
</html>
"""


def static_folder() -> Path:
    """textual-serve's page scripts, style and fonts."""
    import textual_serve

    return Path(textual_serve.__file__).parent / "static"


def is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_of(netloc: str) -> str:
    """``example.org`` of ``example.org:8000`` (and ``::1`` of ``[::1]:8000``)."""
    return urlsplit(f"//{netloc}").hostname or ""


def tab_command() -> list[str]:
    """What each tab runs: the whole app, from its setup screen."""
    return [sys.executable, "-m", "nil_tui"]


def notice(status: int, title: str, text: str, retry: int | None = None,
           again: str | None = None) -> Any:
    """A plain page; ``retry``: the browser asks again after that many seconds (at the
    address ``again``, default the same)."""
    from aiohttp import web

    where = "" if again is None else f";url={again}"
    refresh = "" if retry is None else \
        f'<meta http-equiv="refresh" content="{html.escape(f"{retry}{where}", quote=True)}">'
    body = NOTICE.format(title=html.escape(title), text=html.escape(text), refresh=refresh)
    return web.Response(status=status, text=body, content_type="text/html",
                        headers={"Content-Security-Policy": "default-src 'none'",
                                 "Cache-Control": "no-store"})


def tab_process_class() -> type[Any]:
    """textual-serve's app service, running the app without a shell, and draining (then
    dropping) the app's output once its tab is gone, so that the app never blocks on a full
    pipe before it has saved."""
    from textual_serve.app_service import AppService

    class TabProcess(AppService):
        def __init__(self, argv: list[str], **kwargs: Any) -> None:
            super().__init__(" ".join(argv), **kwargs)
            self.argv = argv
            self.drawn = False  # the app has started drawing (and reading its input)

        async def _open_app_process(self, width: int = 80,
                                    height: int = 24) -> asyncio.subprocess.Process:
            environment = self._build_environment(width=width, height=height)
            self._process = process = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=environment)
            self._stdin = process.stdin
            return process

        async def on_data(self, payload: bytes) -> None:
            self.drawn = True
            try:
                await self.remote_write_bytes(payload)
            except (ConnectionError, RuntimeError):
                pass  # the tab is gone: what it would have shown is dropped

        async def on_meta(self, data: bytes) -> None:
            try:
                await super().on_meta(data)
            except (ConnectionError, RuntimeError):
                pass

        @property
        def process(self) -> asyncio.subprocess.Process | None:
            process: asyncio.subprocess.Process | None = self._process
            return process

    return TabProcess


class BrowserServer:
    """The tabs of one ``nil-tui serve``: see the module's docstring."""

    def __init__(self, bind: str, port: int, public_url: str | None, max_sessions: int,
                 command: list[str] | None = None, token: str | None = None) -> None:
        self.bind = bind
        self.port = port
        self.public_url = public_url
        self.max_sessions = max_sessions
        self.command = command or tab_command()
        beyond = not is_loopback(bind) or (
            public_url is not None and not is_loopback(urlsplit(public_url).hostname or ""))
        if token is None and beyond:  # reachable from elsewhere (a proxy too): a token
            token = secrets.token_urlsafe(TOKEN_BYTES)
        self.token = token
        self.live: set[Any] = set()  # the tabs' app services, while their tab is open
        self.closing: set[asyncio.Task[None]] = set()  # tabs' processes being ended
        self.line: dict[str, float] = {}
        """The tabs waiting for a table, first come first: their ticket and when they last
        asked."""
        self.held: dict[str, float] = {}
        """Tables kept for pages let in, until their websocket comes: ticket, until when."""
        self._tab_process = tab_process_class()
        from textual_serve.download_manager import DownloadManager

        self._downloads = DownloadManager()

    # --- who may come in ------------------------------------------------------------------
    def _token_ok(self, given: str | None) -> bool:
        if self.token is None:
            return True
        return given is not None and secrets.compare_digest(given.encode("utf-8", "replace"),
                                                            self.token.encode())

    def _host_ok(self, request: Any) -> bool:
        """Without a token, only a loopback Host (no page of another site reaching this
        server through a name of its own)."""
        return self.token is not None or is_loopback(host_of(request.host))

    def _origin_ok(self, request: Any) -> bool:
        """A websocket only from this server's own page."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser: the token (or loopback) is the check
        netloc = urlsplit(origin).netloc
        allowed = {request.host}
        if self.public_url:
            allowed.add(urlsplit(self.public_url).netloc)
        return netloc in allowed

    # --- pages ----------------------------------------------------------------------------
    async def index(self, request: Any) -> Any:
        from aiohttp import web

        if not self._token_ok(request.query.get("token")) or not self._host_ok(request):
            return notice(403, "Not without the link",
                          "This nil-tui table needs the link with its access token: ask "
                          "whoever started nil-tui serve for it. Nothing was started.")
        let_in, ticket = self.take_place(request.query.get("wait"))
        if not let_in:
            # (Also what a reloaded tab gets when the server is full, its old connection
            # still open until this answer comes: the page asks again a moment later.)
            ahead = list(self.line).index(ticket)
            again = "/?" + urlencode({**request.query, "wait": ticket})
            return notice(503, "Every table is in use",
                          f"Every table of this server is in use (at most "
                          f"{self.max_sessions} at once): close one of them, and this page "
                          f"tries again by itself ({ahead} tab{'s' if ahead != 1 else ''} "
                          "waiting before this one). Nothing was started.", retry=RETRY,
                          again=again)
        secure = request.secure or (self.public_url or "").startswith("https:")
        path = f"/ws/{self.token or '-'}/{ticket}"
        websocket = f"{'wss' if secure else 'ws'}://{request.host}{path}"
        try:
            font_size = min(max(int(request.query.get("fontsize", "16")), 8), 48)
        except ValueError:
            font_size = 16
        body = PAGE.format(title="nil-tui", websocket=html.escape(websocket, quote=True),
                           font_size=font_size)
        return web.Response(text=body, content_type="text/html",
                            headers={"Content-Security-Policy": CSP,
                                     "Cache-Control": "no-store",
                                     "Referrer-Policy": "no-referrer"})

    def take_place(self, ticket: str | None) -> tuple[bool, str]:
        """Whether a page may open a table now, and its ticket: the table kept for it (let
        in), or its place in line (first come, first served; a tab keeps its place by asking
        again with its ticket)."""
        now = asyncio.get_running_loop().time()
        self.line = {t: seen for t, seen in self.line.items() if now - seen <= LINE_KEPT}
        self.held = {t: until for t, until in self.held.items() if until > now}
        if ticket not in self.line:
            ticket = None
        place = list(self.line).index(ticket) if ticket is not None else len(self.line)
        free = self.max_sessions - len(self.live) - len(self.held)
        if place < free:
            if ticket is not None:
                del self.line[ticket]
            ticket = secrets.token_urlsafe(12)
            self.held[ticket] = now + HOLD
            return True, ticket
        if ticket is None:
            ticket = secrets.token_urlsafe(12)
        self.line[ticket] = now
        return False, ticket

    async def no_icon(self, request: Any) -> Any:
        from aiohttp import web

        return web.Response(status=204)

    async def websocket(self, request: Any) -> Any:
        from aiohttp import WSMsgType, web

        token = request.match_info.get("token")
        if (not self._token_ok(None if token == "-" and self.token is None else token)
                or not self._host_ok(request) or not self._origin_ok(request)):
            return notice(403, "Not without the link", "Nothing was started.")
        await self.settle()
        kept = self.held.pop(request.match_info.get("ticket", ""), None) is not None
        if not kept and len(self.live) + len(self.held) >= self.max_sessions:
            # refused before the websocket opens: the page says no table could be opened
            # (not that one was closed)
            return notice(503, "Every table is in use", "Nothing was started.")
        socket_ = web.WebSocketResponse(heartbeat=HEARTBEAT)
        width = _size(request.query.get("width"), 80)
        height = _size(request.query.get("height"), 24)
        tab = self._tab_process(self.command, write_bytes=socket_.send_bytes,
                                write_str=socket_.send_str, close=socket_.close,
                                download_manager=self._downloads)
        self.live.add(tab)  # its table is taken from now on
        try:
            await socket_.prepare(request)
            await tab.start(width, height)
            async for message in socket_:
                if message.type != WSMsgType.TEXT:
                    continue
                await self._from_page(socket_, tab, message.data)
        except (asyncio.CancelledError, ConnectionError):
            pass
        finally:
            if tab in self.live:  # (else the server's stop is ending it already)
                self.live.discard(tab)
                self._close(tab)
        return socket_

    async def _from_page(self, socket_: Any, tab: Any, text: str) -> None:
        try:
            envelope = json.loads(text)
        except ValueError:
            return
        if not isinstance(envelope, list) or not envelope:
            return
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        if kind == "stdin" and isinstance(data, str):
            await tab.send_bytes(data.encode("utf-8", "replace"))
        elif kind == "resize" and isinstance(data, dict):
            await tab.set_terminal_size(_size(data.get("width"), 80),
                                        _size(data.get("height"), 24))
        elif kind == "ping" and isinstance(data, str):
            await socket_.send_json(["pong", data[:40]])
        elif kind == "blur":
            await tab.blur()
        elif kind == "focus":
            await tab.focus()

    # --- tabs' processes ------------------------------------------------------------------
    def _close(self, tab: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._end(tab))
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)

    async def _end(self, tab: Any) -> None:
        """Tell the tab's app to quit: it saves its game and ends (its own watchdog makes
        sure within 1.5 s). An app that has drawn nothing yet reads no input either: it gets
        SIGTERM instead (no game is loaded in it yet). One still there after STOP_WAIT is
        killed."""
        process = tab.process
        stopping = asyncio.ensure_future(tab.stop())
        try:
            if process is not None:
                if not tab.drawn:
                    process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(process.wait(), STOP_WAIT)
            await asyncio.wait_for(stopping, STOP_WAIT)
        except (asyncio.TimeoutError, ConnectionError, ProcessLookupError, RuntimeError):
            pass
        if process is not None and process.returncode is None:
            try:
                process.kill()
                await asyncio.wait_for(process.wait(), STOP_WAIT)
            except (ProcessLookupError, asyncio.TimeoutError):
                pass
        if not stopping.done():
            stopping.cancel()

    async def settle(self) -> None:
        """Until the tabs being closed have ended (their games saved), or SETTLE_WAIT."""
        if self.closing:
            await asyncio.wait(set(self.closing), timeout=SETTLE_WAIT)

    async def stop_all(self) -> None:
        for tab in list(self.live):
            self.live.discard(tab)
            self._close(tab)
        await self.settle()

    # --- the server -----------------------------------------------------------------------
    def application(self) -> Any:
        from aiohttp import web

        app = web.Application()
        app.add_routes([
            web.get("/", self.index),
            web.get("/ws", self.websocket),
            web.get("/ws/{token}", self.websocket),
            web.get("/ws/{token}/{ticket}", self.websocket),
            web.get("/favicon.ico", self.no_icon),
            web.static("/static", static_folder(), show_index=False),
        ])
        return app

    def link(self, port: int) -> str:
        if self.public_url:
            base = self.public_url
        else:
            host = self.bind
            if host in ("0.0.0.0", "::"):  # every address: the link names this machine
                host = socket.gethostname()
            elif ":" in host:
                host = f"[{host}]"
            base = f"http://{host}:{port}"
        return f"{base}/" + (f"?token={self.token}" if self.token else "")


def _size(value: object, default: int) -> int:
    try:
        number = int(str(value))
    except ValueError:
        return default
    return min(max(number, 10), 1000)


def say(line: str) -> None:
    try:
        print(line, flush=True)
    except (OSError, ValueError):
        pass


def serve(bind: str, port: int, public_url: str | None, max_sessions: int,
          ready: Callable[[str], None] | None = None) -> int:
    """Serve until SIGINT, SIGTERM or SIGHUP; then every tab's game is saved and its
    process ended. The exit status: 0, or 2 when the address cannot be listened on."""
    from importlib.util import find_spec

    missing = [name for name in ("aiohttp", "textual_serve") if find_spec(name) is None]
    if missing:
        print(f"nil-tui serve: needs textual-serve (pip install textual-serve); missing: "
              f"{', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    server = BrowserServer(bind, port, public_url, max_sessions)
    return asyncio.run(_serve(server, ready or say))


async def _serve(server: BrowserServer, ready: Callable[[str], None]) -> int:
    from aiohttp import web

    runner = web.AppRunner(server.application(), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, server.bind, server.port, shutdown_timeout=1.0)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        print(f"nil-tui serve: cannot listen on {server.bind} port {server.port} "
              f"({exc.strerror or exc})", file=sys.stderr)
        return EXIT_USAGE
    port = runner.addresses[0][1] if runner.addresses else server.port
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            try:
                loop.add_signal_handler(number, stop.set)
            except (NotImplementedError, RuntimeError, ValueError):
                pass
    ready(f"nil-tui serve: open {server.link(port)} in a browser "
          f"(at most {server.max_sessions} tabs; Ctrl+C stops, each tab's game is saved)")
    try:
        await stop.wait()
    finally:
        await server.stop_all()
        await runner.cleanup()
    return 0
