"""Invites and seat keys: enough random bits, read back however they are typed, compared in
constant time, kept only by their owner."""

from __future__ import annotations

import math
import stat
from pathlib import Path

import pytest

from nil_tui.net import keys


def test_secrets_carry_at_least_128_random_bits_and_differ() -> None:
    made = {keys.new_secret() for _ in range(2000)}
    assert len(made) == 2000
    for secret in made:
        assert len(secret) == 26 and set(secret) <= set("abcdefghijklmnopqrstuvwxyz234567")
    assert 26 * math.log2(32) >= 128


@pytest.mark.parametrize("text", [
    "nil://127.0.0.1:4711/{s}", "  nil://127.0.0.1:4711/{g}/ ", "127.0.0.1:4711/{u}",
    "NIL://127.0.0.1:4711/{s}"])
def test_an_invite_reads_back_however_it_is_typed(text: str) -> None:
    secret = keys.new_secret()
    typed = text.format(s=secret, g=keys.grouped(secret), u=secret.upper())
    invite = keys.parse_invite(typed)
    assert invite == keys.Invite("127.0.0.1", 4711, secret, False)
    assert keys.parse_invite(str(invite)) == invite


def test_tls_and_ipv6_invites() -> None:
    secret = keys.new_secret()
    invite = keys.parse_invite(f"nils://[::1]:5000/{secret}")
    assert invite == keys.Invite("::1", 5000, secret, True)
    assert invite.url == "wss://[::1]:5000/" and str(invite).startswith("nils://[::1]:5000/")


@pytest.mark.parametrize("bad", ["http://x:1/abc", "nil://x:1", "nil://x:99999/" + "a" * 26,
                                 "nil://x:port/" + "a" * 26, "nil://:1/" + "a" * 26,
                                 "nil://x:1/" + "a" * 25, "nil://x:1/" + "1" * 26])
def test_a_bad_invite_is_refused_in_words(bad: str) -> None:
    with pytest.raises(keys.InviteError):
        keys.parse_invite(bad)


def test_a_seat_key_finds_only_its_own_seat() -> None:
    seat_keys = [keys.new_secret(), None, keys.new_secret(), keys.new_secret()]
    for seat, key in enumerate(seat_keys):
        if key is not None:
            assert keys.find_key(key, seat_keys) == seat
            assert keys.find_key(keys.grouped(key).upper(), seat_keys) == seat
            assert keys.find_key(key[:-1], seat_keys) is None
    assert keys.find_key("", seat_keys) is None
    assert keys.find_key("-" * 26, seat_keys) is None  # an empty seat's stand-in opens nothing
    assert not keys.same_secret(keys.new_secret(), seat_keys[0] or "")


def test_an_empty_secret_lets_nobody_in() -> None:
    """A game played here is a table without an invite: its empty secret opens nothing."""
    assert not keys.same_secret("", "")
    assert not keys.same_secret("-", "")


def test_a_players_seat_keys_are_kept_for_them_alone(tmp_path: Path) -> None:
    invite = keys.parse_invite("nil://10.0.0.1:4711/" + keys.new_secret())
    assert keys.kept_key(tmp_path, invite) is None
    keys.keep_key(tmp_path, invite, "k" * 26, 2)
    assert keys.kept_key(tmp_path, invite) == ("k" * 26, 2)
    path = tmp_path / keys.KEYS_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert invite.secret not in path.read_text()  # the invite's secret is not written down
    for _ in range(25):
        keys.keep_key(tmp_path, keys.parse_invite("nil://h:1/" + keys.new_secret()), "x", 0)
    assert keys.kept_key(tmp_path, invite) is None  # the newest 20 tables are kept


@pytest.mark.parametrize("host", ["::1", "fe80::1", "192.0.2.7", "table.example"])
def test_the_invite_read_out_brackets_an_ipv6_address_and_reads_back(host: str) -> None:
    invite = keys.Invite(host, 7777, keys.new_secret())
    spoken = invite.spoken
    assert spoken.startswith(f"[{host}]:7777/" if ":" in host else f"{host}:7777/")
    assert keys.parse_invite(spoken) == invite
    assert keys.parse_invite(str(invite)) == invite
