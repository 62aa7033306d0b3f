"""One bot per seat for one game, asked for cards without risk to the game.

:func:`open_player` builds a :class:`BotPlayer` from a spec. The built-in levels run in the
calling thread, with nothing in between but a check of their answer. Any other bot (a plugin)
runs in a process of its own (see :mod:`nil_tui.bots.host`) that receives a copy of the view
and nothing else; a plugin that hangs is stopped at the time cap and a fresh process answers
the next decision. Whatever a bot does, ``decide`` returns a legal card, and says why when the
card was played for the bot.
"""

from __future__ import annotations

import atexit
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..engine import DECK, Card, Deal, PlayerView
from . import (
    HIDDEN,
    LEVELS,
    BotMissing,
    BotSpecError,
    clean_spec,
    make_bot,
    plugin_entry_points,
    plugin_wire,
    pluginlog,
)
from .safety import (
    DEFAULT,
    Choice,
    _by_value,
    _Default,
    _incident,
    default_time_cap,
    fallback_card,
)

START_TIMEOUT = 10.0  # seconds a plugin's process may take to start and build its bot
NOTICE_AFTER = 2.0  # seconds of loading a plugin before "starting plugin X..." is shown
IDLE_TIMEOUT = 2.0  # seconds a plugin's process may take to finish a game it was told to end
LOG_NAME = "plugins.log"  # in the data folder: what plugin bots write to stderr
LOG_LIMIT = pluginlog.LIMIT  # past this the log starts afresh (the old one kept as .1)
MAX_RESTARTS = 5  # fresh processes a plugin gets in one game; after that it is out of it
SHORT_CAP = 1.0  # seconds per decision for the rest of a game after a plugin's first hang


class BotPlayer:
    """The bot of one seat for one game. ``decide`` never raises and always returns one of
    the view's legal cards; ``close`` ends the bot (and a plugin's process)."""

    spec: str
    name: str
    builtin: bool

    def decide(self, view: PlayerView, perfect: Callable[[], Deal] | None = None) -> Choice:
        """The card to play for ``view``, a position where it is this seat's turn (ValueError
        otherwise). ``perfect`` gives a copy of the whole deal: only a built-in level that
        plays with every hand visible (the oracle) is offered it."""
        raise NotImplementedError

    def close(self) -> None:
        """End the bot; closing twice is harmless."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r} name={self.name!r}>"


# The answer of a bot that played its own card, one per card (a Choice never changes).
_CLEAN: tuple[Choice, ...] = tuple(Choice(card) for card in DECK)


def _cap_text(cap: float | None) -> str:
    return "no cap" if cap is None else f"{cap:g} s"


# --- built-in levels --------------------------------------------------------------------------
class _BuiltinPlayer(BotPlayer):
    builtin = True

    def __init__(self, spec: str, bot: Any, time_cap: float | None) -> None:
        self.spec = spec
        self.name = plugin_wire.safe_name(getattr(bot, "name", None), spec)
        self._bot = bot
        self._cap = time_cap
        self._perfect = callable(getattr(bot, "choose_perfect", None))
        self._capped = hasattr(bot, "cap_fired")
        if hasattr(bot, "safety_cap"):
            bot.safety_cap = time_cap

    def decide(self, view: PlayerView, perfect: Callable[[], Deal] | None = None) -> Choice:
        legal = view.legal  # the caller's tuple, kept before the bot sees the view
        if not legal:
            raise ValueError(f"it is not seat {view.seat}'s turn: it has no card to play")
        bot = self._bot
        try:
            if perfect is not None and self._perfect:
                answer = bot.choose_perfect(view, perfect())
            else:
                answer = bot.choose(view)
        except Exception as exc:  # noqa: BLE001 - any failure of a bot is contained
            card = fallback_card(view, legal)
            return Choice(card, _incident(f"{self.name} failed "
                                          f"({plugin_wire.describe_error(exc)}); {card} was "
                                          "played for it"))
        card_or_none = _by_value(answer, legal)
        if card_or_none is None:
            card = fallback_card(view, legal)
            return Choice(card, _incident(f"{self.name} chose {plugin_wire.describe_plain(answer)}, "
                                          f"which is not a legal card; {card} was played "
                                          "for it"))
        if self._capped and getattr(bot, "cap_fired", False) is True:
            return Choice(card_or_none, _incident(
                f"{self.name} reached its safety cap of {_cap_text(self._cap)}; its best card "
                f"so far ({card_or_none}) was played"))
        return _CLEAN[card_or_none.index]


# --- plugins: a process per seat ---------------------------------------------------------------
class _Gone(Exception):
    """The plugin's process stopped answering (it ended, broke the protocol, or hung)."""


class _Host:
    """A plugin's host process (python -m nil_tui.bots.host) and the lines it writes."""

    def __init__(self, target: str, log: Path | None, label: str = "") -> None:
        from ..util.processes import not_dumpable

        not_dumpable()  # no process of this user reads this one's memory
        stderr = _open_log(log)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _HOST_START, "" if log is None else str(log),
                 _PACKAGE_ROOT], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=stderr, start_new_session=os.name == "posix",
                bufsize=0)
        except OSError as exc:
            raise BotSpecError(f"its process could not be started ({exc})") from None
        finally:
            if not isinstance(stderr, int):
                stderr.close()  # the process has its own copy
        self.busy = False  # a game runs in it (or it was told to end one)
        self._buffer = b""
        self._stdin = self.proc.stdin.fileno() if self.proc.stdin is not None else -1
        self._stdout = self.proc.stdout.fileno() if self.proc.stdout is not None else -1
        self._chunks: queue.SimpleQueue[bytes] | None = None
        if not _SELECT_PIPES:  # no select() on pipes here: a thread reads them
            self._chunks = queue.SimpleQueue()
            threading.Thread(target=self._read, name="bot-host-reader", daemon=True).start()
        _LIVE.add(self)
        try:
            self.send(plugin_wire.dump(plugin_wire.HELLO, {"target": target, "path": list(sys.path)}))
            reply = self._loaded(label or target)
        except BaseException:
            self.kill()
            raise
        _say_sandbox(plugin_wire.load(reply).get("sandbox"), log)
        if reply[:1] != plugin_wire.LOADED:
            self.kill()
            why = plugin_wire.clip(str(plugin_wire.load(reply).get("why", "")), 200)
            raise (BotMissing if reply[:1] == plugin_wire.MISSING else BotSpecError)(why)

    def _loaded(self, label: str) -> bytes:
        """The host's answer to "hello" (the plugin imported, or why not), within
        START_TIMEOUT; the start notice is given if it takes longer than NOTICE_AFTER."""
        kinds = {plugin_wire.LOADED, plugin_wire.MISSING, plugin_wire.BROKEN}
        notice: Callable[[str], object] | None = getattr(_notices, "notice", None)
        if notice is None:
            return self.receive(START_TIMEOUT, kinds)
        try:
            return self.receive(NOTICE_AFTER, kinds)
        except _Gone as exc:
            if str(exc) != "timeout":
                raise
        try:
            notice(f"starting plugin {plugin_wire.clip(label, 60)}...")
        except Exception:  # noqa: BLE001, S110 - a notice that fails changes nothing
            pass
        return self.receive(START_TIMEOUT - NOTICE_AFTER, kinds)

    def _read(self) -> None:
        chunks = self._chunks
        assert chunks is not None
        try:
            while True:
                chunk = os.read(self._stdout, 1 << 16)
                if not chunk:
                    break
                chunks.put(chunk)
        except (OSError, ValueError):
            pass
        chunks.put(b"")

    def _next(self, deadline: float | None) -> bytes | None:
        """The next message the process wrote (None at its end, or when what it wrote is not
        a message); queue.Empty at the deadline."""
        while True:
            try:
                body, self._buffer = plugin_wire.split(self._buffer)
            except ValueError:
                return None
            if body is not None:
                return body
            wait = None if deadline is None else max(0.0, deadline - _now())
            if self._chunks is not None:
                chunk = self._chunks.get(timeout=wait)
            else:
                fd = self._stdout
                ready, _, _ = select.select([fd], [], [], wait)
                if not ready:
                    raise queue.Empty
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    chunk = b""
            if not chunk:
                return None
            self._buffer += chunk

    def send(self, data: bytes) -> None:
        try:
            done = os.write(self._stdin, data)
            if done < len(data):  # a long message: the rest as the pipe takes it
                view = memoryview(data)[done:]
                while view:
                    view = view[os.write(self._stdin, view):]
        except (OSError, ValueError) as exc:
            raise _Gone("its process has ended") from exc

    def answer(self, timeout: float | None, n: int) -> tuple[bytes, int | str]:
        """The answer to decision ``n``: (its kind, the card's index or why); _Gone as
        ``receive``. The usual answer, a card in one piece, takes one select and one read."""
        if not self._buffer and self._chunks is None:
            fd = self._stdout
            if timeout is not None and not select.select([fd], [], [], timeout)[0]:
                raise _Gone("timeout")
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                raise _Gone("its process has ended")
            if len(chunk) == plugin_wire.CARD_SIZE and chunk.startswith(plugin_wire.CARD_HEAD):
                kind, number, what = plugin_wire.read_answer(chunk[4:])
                if number == n:
                    return kind, what
            self._buffer = chunk
        kind, _number, what = plugin_wire.read_answer(self.receive(timeout, _ANSWERS, n))
        return kind, what

    def receive(self, timeout: float | None, kinds: set[bytes], n: int | None = None) -> bytes:
        """The next message of one of these kinds (answers to earlier questions are skipped);
        _Gone when the process ends, writes garbage or says nothing within ``timeout``."""
        deadline = None if timeout is None else _now() + timeout
        while True:
            try:
                body = self._next(deadline)
            except queue.Empty:
                raise _Gone("timeout") from None
            if body is None:
                raise _Gone("its process has ended")
            kind = body[:1]
            if kind == plugin_wire.IDLE and plugin_wire.IDLE not in kinds:
                self.busy = False
                raise _Gone("its process has ended")
            if kind in kinds:
                if n is None:
                    return body
                try:
                    if plugin_wire.read_answer(body)[1] == n:
                        return body
                except ValueError:
                    raise _Gone("it wrote something that is not an answer") from None
            elif kind not in _KINDS:
                raise _Gone("it wrote something that is not an answer")

    def start_game(self, seed: int) -> str:
        """Start a game's process; the bot's name, or BotSpecError."""
        self.busy = True
        self.send(plugin_wire.dump(plugin_wire.NEW, {"seed": seed}))
        reply = self.receive(START_TIMEOUT, {plugin_wire.READY, plugin_wire.BROKEN})
        message = plugin_wire.load(reply)
        if reply[:1] != plugin_wire.READY:
            raise BotSpecError(plugin_wire.clip(str(message.get("why", "")), 200))
        return str(message.get("name", ""))

    def end_game(self) -> None:
        """Tell the game's process to end (the next one's "idle" is read when the host is next
        used)."""
        self.send(_END)

    def wait_idle(self) -> None:
        if self.busy:
            self.receive(IDLE_TIMEOUT, {plugin_wire.IDLE})
            self.busy = False

    def kill(self) -> None:
        """End the host and every process below it. Its first process (which runs none of
        the plugin's code) is asked first: it ends the others, those that left its process
        group too; whatever is left of the group a second later is killed."""
        _LIVE.discard(self)
        proc = self.proc
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            if proc.poll() is None:
                if os.name != "posix":
                    proc.kill()
                else:
                    os.kill(proc.pid, signal.SIGTERM)
                    try:
                        proc.wait(1.0)
                    except subprocess.TimeoutExpired:
                        os.killpg(proc.pid, signal.SIGKILL)  # its process group is its own
        except OSError:
            pass
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass


def _now() -> float:
    return time.monotonic()


_notices = threading.local()
_sandbox_said = False


def set_start_notice(notice: Callable[[str], object] | None) -> None:
    """For the players this thread opens: have ``notice("starting plugin X...")`` called
    (in this thread) when a plugin's new process takes longer than NOTICE_AFTER seconds to
    import it (it is given up after START_TIMEOUT). None: no notice. ``simulate`` and
    ``play`` print it on stderr; the app can show it while the table waits (set it in the
    thread that opens the plugins, and back to None after)."""
    _notices.notice = notice


def _say_sandbox(why: object, log: Path | None) -> None:
    """Once per program: write to the plugins' log that the system refused their processes
    a namespace of their own (they run with today's isolation, and can see the game's
    processes), and why."""
    global _sandbox_said
    if why is None or _sandbox_said:
        return
    _sandbox_said = True
    text = plugin_wire.clip(str(why), 200)
    line = (f"{time.strftime('%Y-%m-%d %H:%M:%S')} nil-tui: plugins run without a user and PID "
            f"namespace of their own here ({text}): each still runs in a process of its own "
            "with only its view, but it can see the game's processes.\n")
    if log is not None:
        writer = pluginlog.Log(str(log))
        writer.append(line.encode("utf-8", "replace"))
        writer.close()


_SELECT_PIPES = os.name == "posix"
# The host is python -m nil_tui.bots.host, with the folder this nil_tui comes from as a last
# resort on the path, in case it was found through a path set up in this process only.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
_HOST_START = ("import sys; sys.path.append(sys.argv.pop()); "
               "from nil_tui.bots.host import main; main(sys.argv.pop() or None)")
_LIVE: set[_Host] = set()
_END = plugin_wire.dump(plugin_wire.END)
_KINDS = {plugin_wire.LOADED, plugin_wire.MISSING, plugin_wire.BROKEN, plugin_wire.READY, plugin_wire.IDLE,
          plugin_wire.CARD, plugin_wire.BAD, plugin_wire.ERROR}
_IDLE: dict[tuple[object, ...], list[_Host]] = {}
_POOL_LOCK = threading.Lock()
_POOL_LIMIT = 8


def _pool_key(target: str, log: str) -> tuple[object, ...]:
    return (target, tuple(sys.path), log, hash(frozenset(os.environ.items())))


def _acquire(key: tuple[object, ...], target: str, log: Path | None, label: str = "") -> _Host:
    while True:
        with _POOL_LOCK:
            hosts = _IDLE.get(key)
            host = hosts.pop() if hosts else None
        if host is None:
            return _Host(target, log, label)
        try:
            host.wait_idle()
            return host
        except _Gone:
            host.kill()


def _release(key: tuple[object, ...], host: _Host) -> None:
    """Keep a host for the next game of the same plugin (at most _POOL_LIMIT in all, the
    ones used longest ago are stopped)."""
    stop = [host]
    with _POOL_LOCK:
        if host.proc.poll() is None:
            stop = []
            _IDLE.setdefault(key, []).append(host)
            while sum(map(len, _IDLE.values())) > _POOL_LIMIT:
                oldest = next(k for k, hosts in _IDLE.items() if hosts)
                stop.append(_IDLE[oldest].pop(0))
                if not _IDLE[oldest]:
                    del _IDLE[oldest]
        elif not _IDLE.get(key, True):
            del _IDLE[key]
    for old in stop:
        old.kill()


def shutdown(grace: float = 1.0) -> None:
    """Stop every plugin process (those of open players too). Called at exit. Idle ones are
    asked to finish first (their input closed) and given ``grace`` seconds in all."""
    with _POOL_LOCK:
        idle = [host for hosts in _IDLE.values() for host in hosts]
        _IDLE.clear()
    for host in idle:
        try:
            if host.proc.stdin is not None:
                host.proc.stdin.close()
        except OSError:
            pass
    deadline = _now() + grace
    for host in idle:
        try:
            host.proc.wait(max(0.0, deadline - _now()))
        except subprocess.TimeoutExpired:
            pass
    for host in list(_LIVE):
        host.kill()


def _forget_hosts() -> None:
    """In a process forked from this one (a simulate job): the hosts are the parent's, and
    so is the notice."""
    global _POOL_LOCK
    _notices.notice = None
    _IDLE.clear()
    _LIVE.clear()
    _POOL_LOCK = threading.Lock()


atexit.register(shutdown)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_hosts)


def plugin_log() -> Path | None:
    """Where plugin bots' stderr goes: ``plugins.log`` in the data folder (None: nowhere)."""
    try:
        from ..util.paths import default_home

        return Path(default_home()) / LOG_NAME
    except Exception:  # noqa: BLE001 - no data folder: the output is discarded
        return None


def _open_log(path: Path | None) -> IO[bytes] | int:
    """The host's own standard error: the log, started afresh first if it is full (the old
    one kept as .1). The host copies its plugin's output there within the log's limit
    (:mod:`.pluginlog`); where there is no ``os.fork`` the plugin writes to it directly,
    and only this start keeps the log's size in hand."""
    if path is None:
        return subprocess.DEVNULL
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and pluginlog.is_full(path.stat().st_size):
            path.replace(path.with_name(path.name + pluginlog.OLD_SUFFIX))
        return open(path, "ab")
    except OSError:
        return subprocess.DEVNULL


class _PluginPlayer(BotPlayer):
    builtin = False

    def __init__(self, spec: str, target: str, seed: int, time_cap: float | None,
                 log: Path | None) -> None:
        self.spec = spec
        self._target = target
        self._seed = seed
        self._cap = time_cap
        self._log = log
        self._key = _pool_key(target, "" if log is None else str(log))
        self._closed = False
        self._deciding = False  # a decision is on its way (close() may come from elsewhere)
        self._n = 0
        self._restarts = 0
        self._hangs = 0  # decisions it took too long over in this game
        self._out: str | None = None  # why it is out of the rest of the game
        self._encoder = plugin_wire.Encoder()
        default = target.partition(":")[2].rpartition(".")[2] or spec
        self.name = plugin_wire.safe_name(default, "Bot")
        self._host: _Host | None = None
        try:
            self._host = _acquire(self._key, target, log, spec)
            ready = self._host.start_game(seed)
        except _Gone as exc:
            self._abandon()
            why = f"it did not answer within {START_TIMEOUT:g} s" if str(exc) == "timeout" \
                else str(exc)
            raise BotSpecError(f"bot {spec!r} could not be started ({why})") from None
        except BotMissing as exc:
            self._abandon()
            raise BotMissing(f"bot {spec!r} is not installed here ({exc})") from None
        except BotSpecError as exc:
            self._abandon()
            raise BotSpecError(f"bot {spec!r}: {exc}") from None
        self.name = plugin_wire.safe_name(ready, self.name)

    def _abandon(self) -> None:
        host, self._host = self._host, None
        if host is not None:
            host.kill()

    def _restart(self) -> _Host:
        if self._restarts >= MAX_RESTARTS:
            raise BotSpecError(f"it stopped {MAX_RESTARTS + 1} times in this game")
        self._restarts += 1
        host = _acquire(self._key, self._target, self._log, self.spec)
        self._host = host
        host.start_game(self._seed)
        return host

    def decide(self, view: PlayerView, perfect: Callable[[], Deal] | None = None) -> Choice:
        legal = view.legal
        if not legal:
            raise ValueError(f"it is not seat {view.seat}'s turn: it has no card to play")
        if self._closed:
            card = fallback_card(view, legal)
            return Choice(card, _incident(f"{self.name} has left the game; {card} was played "
                                          "for it"))
        if self._out is not None:
            card = fallback_card(view, legal)
            return Choice(card, _incident(f"{self.name} is out of this game ({self._out}); "
                                          f"{card} was played for it"))
        host = self._host
        if host is None:
            try:
                host = self._restart()
            except (_Gone, BotSpecError) as exc:
                self._abandon()
                card = fallback_card(view, legal)
                why = "it did not answer in time" if str(exc) == "timeout" else str(exc)
                return Choice(card, _incident(f"{self.name} could not be started again ({why}); "
                                              f"{card} was played for it"))
        self._n = n = (self._n + 1) & 0xFFFFFFFF
        self._deciding = True
        try:
            host.send(self._encoder.decide(n, view))
            kind, what = host.answer(self._cap, n)
        except (_Gone, OSError, ValueError) as exc:
            self._abandon()
            card = fallback_card(view, legal)
            if str(exc) == "timeout":
                return Choice(card, _incident(self._hung(card)))
            return Choice(card, _incident(f"{self.name} stopped answering ({exc}); {card} "
                                          "was played for it"))
        finally:
            self._deciding = False
        if kind == plugin_wire.CARD and type(what) is int:
            for chosen in legal:  # the usual way out
                if chosen.index == what:
                    return _CLEAN[what]
            card = fallback_card(view, legal)
            return Choice(card, _incident(f"{self.name} chose {_card_text(what)}, which is not "
                                          f"a legal card; {card} was played for it"))
        card = fallback_card(view, legal)
        why = plugin_wire.clip(str(what), plugin_wire.WHY_LIMIT)
        if kind == plugin_wire.ERROR:
            return Choice(card, _incident(f"{self.name} failed ({why}); {card} was played "
                                          "for it"))
        return Choice(card, _incident(f"{self.name} chose {why}, which is not a legal card; "
                                      f"{card} was played for it"))

    def _hung(self, card: Card) -> str:
        """What a hang costs (the incident's text): after its first one in a game, a plugin
        has SHORT_CAP seconds per decision for the rest of the game; after a second, it is
        out of the game (its lowest legal card is played for it), so that a bot that hangs
        again and again cannot hold a game up for long."""
        self._hangs += 1
        cap = _cap_text(self._cap)
        if self._hangs == 1 and (self._cap is None or self._cap > SHORT_CAP):
            self._cap = SHORT_CAP
            return (f"{self.name} took longer than {cap} and was stopped; {card} was played "
                    f"for it; it has {SHORT_CAP:g} s per card for the rest of this game")
        if self._hangs == 1:
            return f"{self.name} took longer than {cap} and was stopped; {card} was played for it"
        self._out = f"it took longer than {cap} twice"
        return (f"{self.name} took longer than {cap} again and was stopped; {card} was played "
                "for it, and its lowest legal card will be for the rest of this game")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        host, self._host = self._host, None
        if host is not None and self._deciding:  # closed from another thread mid-decision
            host.kill()
        elif host is not None:
            try:
                host.end_game()
                _release(self._key, host)
            except _Gone:
                host.kill()


_ANSWERS = {plugin_wire.CARD, plugin_wire.BAD, plugin_wire.ERROR}


def _card_text(index: object) -> str:
    if type(index) is int and 0 <= index < 52:
        return str(DECK[index])
    return "something that is not a card"


# --- opening a player --------------------------------------------------------------------------
def plugin_target(spec: str) -> str:
    """The "module:Name" of a plugin spec (an installed plugin's name or module:Name);
    BotMissing when no installed plugin has that name."""
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        if not module_name.strip() or not attr.strip():
            raise BotSpecError(f"bot spec {spec!r}: expected 'package.module:Name'")
        return spec
    plugins = plugin_entry_points()
    if spec not in plugins:
        known = ", ".join([*LEVELS, *plugins])
        raise BotMissing(f"unknown bot {spec!r}: no installed plugin has that name (known: "
                         f"{known}; or use package.module:Name)")
    return plugins[spec]


def open_player(spec: str, seed: int, *, time_cap: float | None | _Default = DEFAULT,
                log: Path | None | _Default = DEFAULT) -> BotPlayer:
    """The bot of one seat for one game. ``time_cap``: seconds per decision (default: the
    configured cap; None: no cap). ``log``: where a plugin's stderr goes (default: the data
    folder's plugins.log; None: discarded).

    BotSpecError (one line) when the spec names no bot that can be built here; BotMissing
    when it names a plugin that is not installed (the app can offer a built-in level)."""
    spec = clean_spec(spec)
    cap = default_time_cap() if isinstance(time_cap, _Default) else time_cap
    if spec in LEVELS or spec in HIDDEN:
        return _BuiltinPlayer(spec, make_bot(spec, seed=seed), cap)
    target = plugin_target(spec)
    return _PluginPlayer(spec, target, seed, cap,
                         plugin_log() if isinstance(log, _Default) else log)


__all__ = ["BotPlayer", "Choice", "open_player", "plugin_log", "plugin_target", "shutdown"]
