"""Taking a seat at a shared table by its invite, as every front end does it: the seat's key
kept from before is tried first, and the key the table gives is kept for coming back."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from .client import TableClient


async def connect(client: TableClient, home: Path | None, kept: bool) -> str | None:
    """Connect (once); None when seated, else why not."""
    from .client import JoinError
    from .keys import keep_key

    try:
        await client.connect()
    except JoinError as exc:
        if exc.code == "unknown_key" and kept:
            client.key = None  # the seat was given up before the game started
            return await connect(client, home, False)
        return exc.reason
    if home is not None and client.key is not None and client.seat is not None:
        keep_key(home, client.invite, client.key, client.seat)
    return None


__all__ = ["connect"]
