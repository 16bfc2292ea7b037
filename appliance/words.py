"""Counted nouns as a person writes them: "1 column", "2 columns", "1 entry", "3 entries"."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def plainly(error: BaseException) -> str:
    """An error in words, without Python's: "no such file or directory: /x/labels.json", not
    "FileNotFoundError: [Errno 2] No such file or directory: '/x/labels.json'"."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[:1].lower() + error.strerror[1:] + (f": {error.filename}" if error.filename else "")
    if isinstance(error, RecursionError):
        return "nested too deeply"
    if isinstance(error, KeyError):
        return f"{error.args[0]!r} is missing" if error.args else "a key is missing"
    return str(error) or type(error).__name__
