"""Combination helpers shared by the sheet games: what a roll holds, as choices of dice.

A rule looks at the values of a roll and yields every way the roll can be rated: a Choice names the
dice that take part (as a multiset of values) and the points they make. The field then adds its
bonus, checks the slam and keeps the best choice. Values are plain ints; a roll is a tuple of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

Roll = tuple[int, ...]


@dataclass(frozen=True)
class Choice:
    used: Roll  # the values of the dice taking part, sorted
    points: int


Rule = Callable[[Roll], Iterable[Choice]]


def choice(used: Iterable[int], points: int | None = None) -> Choice:
    used = tuple(sorted(used))
    return Choice(used, sum(used) if points is None else points)


def faces(wanted: Iterable[int]) -> Rule:
    """The dice showing one of `wanted` (no choice at all when none does)."""
    wanted = frozenset(wanted)

    def rule(roll: Roll) -> Iterator[Choice]:
        used = [v for v in roll if v in wanted]
        if used:
            yield choice(used)

    return rule


def all_within(*groups: Iterable[int]) -> Rule:
    """All dice inside one of the groups."""
    groups = tuple(frozenset(g) for g in groups)

    def rule(roll: Roll) -> Iterator[Choice]:
        if any(set(roll) <= group for group in groups):
            yield choice(roll)

    return rule


def total_in(totals: Iterable[int]) -> Rule:
    """The sum of all dice is one of `totals`."""
    totals = frozenset(totals)

    def rule(roll: Roll) -> Iterator[Choice]:
        if sum(roll) in totals:
            yield choice(roll)

    return rule


def run_windows(length: int, faces_count: int, wrap: bool) -> list[Roll]:
    """Every run of `length` consecutive face values; with wrap, also runs over the top (9-10-1)."""
    starts = range(1, faces_count + 1) if wrap else range(1, faces_count - length + 2)
    return [tuple((s + i - 1) % faces_count + 1 for i in range(length)) for s in starts]


def run_points(run: Roll, faces_count: int, wrap: bool) -> int:
    """A run's points. In a wrapped run without the face below the top one, the top face counts 0
    (Hexakubus: 10-1-2 is worth 0+1+2, 9-10-1 is worth 20)."""
    if wrap and faces_count in run and faces_count - 1 not in run:
        return sum(run) - faces_count
    return sum(run)


def runs(length: int, faces_count: int, wrap: bool = False) -> Rule:
    """`length` consecutive values present: one die of each value takes part."""
    windows = run_windows(length, faces_count, wrap)

    def rule(roll: Roll) -> Iterator[Choice]:
        present = set(roll)
        for window in windows:
            if present.issuperset(window):
                yield choice(window, run_points(window, faces_count, wrap))

    return rule


def two_runs(length: int, faces_count: int, wrap: bool = False) -> Rule:
    """All dice split into two runs of `length` (Hexakubus double short straight)."""
    windows = run_windows(length, faces_count, wrap)
    counts = [Counter(w) for w in windows]
    index = {tuple(sorted(w)): j for j, w in enumerate(windows)}

    def rule(roll: Roll) -> Iterator[Choice]:
        have = Counter(roll)
        for i, first in enumerate(windows):
            if counts[i] - have:
                continue  # the first run is not in the roll
            j = index.get(tuple(sorted((have - counts[i]).elements())), -1)
            if j >= i:  # each pair of runs once
                points = run_points(first, faces_count, wrap) + run_points(windows[j], faces_count, wrap)
                yield choice(roll, points)

    return rule


def kinds(*sizes: int, distinct: bool = False) -> Rule:
    """Groups of equal dice of the given sizes, e.g. kinds(3, 2) for a full house.

    Two groups may come from the same value (four 6s are two pairs) unless `distinct` says they
    must not (Dice Poker: five of a kind is not a full house).
    """

    def rule(roll: Roll) -> Iterator[Choice]:
        yield from _assign(sizes, Counter(roll), (), distinct)

    return rule


def _assign(sizes: tuple[int, ...], left: Counter, used: Roll, distinct: bool) -> Iterator[Choice]:
    if not sizes:
        yield choice(used)
        return
    size, rest = sizes[0], sizes[1:]
    for value, count in left.items():
        if count >= size and not (distinct and value in used):
            yield from _assign(rest, left - Counter({value: size}), used + (value,) * size, distinct)


def cross(faces_count: int) -> Rule:
    """A run of three or more consecutive values (no wrap) and a value shown twice or more.

    Every die in the run or in a chosen multiple takes part, each die once: the run gives one die
    of each of its values, a multiple all dice of its value.
    """

    def rule(roll: Roll) -> Iterator[Choice]:
        have = Counter(roll)
        multiples = [v for v, n in have.items() if n >= 2]
        if not multiples:
            return
        for length in range(3, faces_count + 1):
            for window in run_windows(length, faces_count, wrap=False):
                if not set(window) <= have.keys():
                    continue
                for k in range(1, len(multiples) + 1):
                    for chosen in combinations(multiples, k):
                        used = [v for v in window if v not in chosen]
                        used += [v for v in chosen for _ in range(have[v])]
                        yield choice(used)

    return rule
