"""The secrets of a table: its invite's and each seat's key, from :mod:`secrets`, compared
in constant time.

A secret is 130 random bits written in 26 lowercase base32 letters, which players may also
read out in groups (``abcd-efgh-...``: dashes and case do not matter). A seat key is given to
the person who takes a seat, so that the same key brings them back to the same seat.
"""

from __future__ import annotations

from collections.abc import Sequence

SECRET_BYTES = 17  # 136 bits, 26 base32 letters after the last partial group is cut: 130 bits
SECRET_LETTERS = 26


def new_secret() -> str:
    """A fresh secret of 130 bits, as 26 lowercase base32 letters."""
    import base64  # (here, as hmac below: a game played here never needs them)
    import secrets

    raw = base64.b32encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")
    return raw[:SECRET_LETTERS].lower()


def normal_secret(text: str) -> str:
    """A secret as typed or read out: dashes, spaces and case do not matter."""
    return "".join(ch for ch in text.lower() if ch not in "- ")


def same_secret(given: str, expected: str) -> bool:
    """Whether two secrets match, in time that does not depend on where they differ. An
    empty secret matches nothing (a game played here has none: nobody is invited there)."""
    import hmac

    return hmac.compare_digest(normal_secret(given).encode("utf-8"),
                               expected.encode("utf-8")) and bool(expected)


def find_key(given: str, keys: Sequence[str | None]) -> int | None:
    """The seat whose key this is, comparing with every seat's key in constant time (a wrong
    key takes as long as a right one, whichever seat it is near)."""
    found = None
    for seat, key in enumerate(keys):
        if same_secret(given, key or "-" * SECRET_LETTERS) and key:
            found = seat
    return found


__all__ = ["SECRET_BYTES", "SECRET_LETTERS", "find_key", "new_secret", "normal_secret",
           "same_secret"]
