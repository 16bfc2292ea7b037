"""The end of any game: places by total, equal totals sharing a place, and who won."""

from __future__ import annotations

from collections.abc import Sequence

Ranking = tuple[tuple[int, str, int], ...]  # (place, player, total), best first


def ranked(players: Sequence[str], totals: Sequence[int]) -> Ranking:
    """Best first, ties in the players' order; a place is 1 + how many did better (1, 1, 3)."""
    order = sorted(range(len(players)), key=lambda i: -totals[i])
    return tuple((1 + sum(t > totals[i] for t in totals), players[i], totals[i]) for i in order)


def first_placed(ranking: Ranking) -> tuple[str, ...]:
    return tuple(name for place, name, _ in ranking if place == 1)


def winners_sentence(names: Sequence[str]) -> str:
    """ "Ann wins", "Ann and Bob win"."""
    return f"{' and '.join(names)} {'wins' if len(names) == 1 else 'win'}"
