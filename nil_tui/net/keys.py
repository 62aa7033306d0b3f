"""Invites and seat keys: secrets (made and compared by :mod:`nil_tui.session.table.seat_keys`).

An invite is ``nil://HOST:PORT/SECRET`` (``nils://`` when the table speaks TLS); the secret
is 130 random bits written in 26 lowercase base32 letters, which players may also read out in
groups (``abcd-efgh-...``: dashes and case do not matter). A seat key is another such secret,
given to the person who takes a seat and kept in their data folder, so the same ``join``
brings them back to the same seat.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..session.table.seat_keys import (
    SECRET_BYTES,
    SECRET_LETTERS,
    find_key,
    new_secret,
    normal_secret,
    same_secret,
)

SCHEMES = {"nil": False, "nils": True}
DEFAULT_PORT = 4711


def grouped(secret: str) -> str:
    """The secret in groups of four letters, to read out."""
    return "-".join(secret[i:i + 4] for i in range(0, len(secret), 4))


class Invite(NamedTuple):
    host: str
    port: int
    secret: str
    tls: bool = False

    def __str__(self) -> str:
        return f"{'nils' if self.tls else 'nil'}://{self.address}/{self.secret}"

    @property
    def address(self) -> str:
        """HOST:PORT, an IPv6 address in brackets."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @property
    def url(self) -> str:
        return f"{'wss' if self.tls else 'ws'}://{self.address}/"

    @property
    def spoken(self) -> str:
        """The invite to read out: the address and the secret in groups of four (a plain
        invite: ``nil-tui join`` reads it back)."""
        return f"{self.address}/{grouped(self.secret)}"

    @property
    def label(self) -> str:
        """Where the table's seat key is kept: the address and a hash of the secret (the
        secret itself is not written down with the key)."""
        digest = hashlib.sha256(self.secret.encode("utf-8")).hexdigest()[:16]
        return f"{self.host}:{self.port}/{digest}"


class InviteError(ValueError):
    pass


MAX_HOST = 253  # the longest host name DNS allows


def _quoted(text: str) -> str:
    """``text`` quoted for a one-line message, cut short when it is long."""
    return repr(text[:40]) + (f"... ({len(text)} characters)" if len(text) > 40 else "")


def host_address(text: str) -> str:
    """An IP address (IPv6 with or without brackets) or a host name in plain ASCII letters,
    digits and dashes, as a table listens on it or an invite names it; ValueError with one
    line otherwise (an empty one, a name that is not ASCII or too long: the resolver would
    fail later, with a traceback)."""
    import ipaddress

    name = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    labels = name.split(".")
    if not name or len(name) > MAX_HOST or not all(
            0 < len(label) <= 63 and label.isascii() and label.replace("-", "").isalnum()
            and not label.startswith("-") and not label.endswith("-") for label in labels):
        raise ValueError(f"{_quoted(text)} is not an IP address or a host name (ASCII "
                         "letters, digits and dashes)")
    return name


def port_number(text: str, low: int = 0) -> int:
    """A port written in ASCII digits, ``low`` to 65535; ValueError with one line."""
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or \
            not low <= int(text) <= 65535:
        raise ValueError(f"the port {_quoted(text)} is not a number {low}-65535")
    return int(text)


def parse_invite(text: str) -> Invite:
    """``nil://HOST:PORT/SECRET``, ``nils://...``, or ``HOST:PORT/SECRET`` (plain)."""
    text = text.strip()
    tls = False
    if "://" in text:
        scheme, _, text = text.partition("://")
        if scheme.lower() not in SCHEMES:
            raise InviteError(f"an invite starts with nil:// or nils://, not {scheme}://")
        tls = SCHEMES[scheme.lower()]
    address, slash, secret = text.partition("/")
    if not slash or not secret:
        raise InviteError("an invite ends with /SECRET (nil://HOST:PORT/SECRET)")
    secret = normal_secret(secret.rstrip("/"))
    if len(secret) != SECRET_LETTERS or not all(ch in "abcdefghijklmnopqrstuvwxyz234567"
                                                 for ch in secret):
        raise InviteError(f"the invite's secret is {SECRET_LETTERS} letters and digits 2-7")
    if address.startswith("["):
        host, _, rest = address[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port_text = address.rpartition(":") if ":" in address else (address, "", "")
    if not host:
        raise InviteError("the invite names no host")
    try:
        host = host_address(host)
        port = port_number(port_text, 1) if port_text else DEFAULT_PORT
    except ValueError as exc:
        raise InviteError(f"in the invite, {exc}") from None
    return Invite(host, port, secret, tls)


# --- the keys a player keeps -------------------------------------------------------------------
KEYS_FILE = "tables.json"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_private(path: Path, data: dict[str, Any]) -> None:
    """Write a JSON file only its owner may read, whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=1) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def kept_key(home: Path, invite: Invite) -> tuple[str, int] | None:
    """The seat key and seat kept for this table, if this player has sat at it."""
    entry = _load(home / KEYS_FILE).get(invite.label)
    if isinstance(entry, dict) and isinstance(entry.get("key"), str) \
            and isinstance(entry.get("seat"), int):
        return entry["key"], entry["seat"]
    return None


def keep_key(home: Path, invite: Invite, key: str, seat: int) -> None:
    """Remember the seat key of this table (the newest 20 tables are kept); the help noted
    for that seat stays with it."""
    path = home / KEYS_FILE
    data = _load(path)
    before = data.pop(invite.label, None)
    entry: dict[str, Any] = {"key": key, "seat": seat}
    if isinstance(before, dict) and before.get("key") == key and before.get("seat") == seat:
        entry["assists"] = _assists(before)
    data[invite.label] = entry
    while len(data) > 20:
        data.pop(next(iter(data)))
    write_private(path, data)


def _assists(entry: dict[str, Any]) -> list[str]:
    value = entry.get("assists")
    return [a for a in value if a in ("hint", "meter")] if isinstance(value, list) else []


def kept_assists(home: Path, invite: Invite) -> list[str]:
    """The help this player has used at this table's game so far (hints, the meter), kept
    with the seat key, so that a player who comes back still has their game assisted."""
    entry = _load(home / KEYS_FILE).get(invite.label)
    return _assists(entry) if isinstance(entry, dict) else []


def keep_assists(home: Path, invite: Invite, assists: Sequence[str]) -> None:
    """Note the help used at this table's game, with its seat key (kept only there; a data
    folder that cannot be written keeps it for this run only)."""
    path = home / KEYS_FILE
    data = _load(path)
    entry = data.get(invite.label)
    if isinstance(entry, dict):
        entry["assists"] = list(assists)
        try:
            write_private(path, data)
        except OSError:
            pass


__all__ = ["DEFAULT_PORT", "SECRET_BYTES", "SECRET_LETTERS", "Invite", "InviteError",
           "find_key", "grouped", "host_address", "keep_assists", "keep_key", "kept_assists",
           "kept_key", "new_secret", "normal_secret", "parse_invite", "port_number",
           "same_secret"]
