"""Counted nouns as a person writes them: "1 column", "2 columns", "1 entry", "3 entries"."""
from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"
