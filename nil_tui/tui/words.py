"""Small pieces of wording shared by the screens."""

from __future__ import annotations


def count(n: int, noun: str) -> str:
    """"1 trick", "2 tricks", "0 games"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
