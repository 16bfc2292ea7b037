"""The dice of a throw as numbers: every multiset of dice, what keeping some and throwing the rest
can give, and the dynamic program over a throw's attempts.

A multiset is a sorted tuple of values. A "keep" is a multiset of up to `dice` dice; a "roll" is a
keep of all the dice. A pair (keep, outcome) is one way the thrown dice can fall, with its
probability; the outcome's dice are the ones thrown in that attempt (the only ones a slam may use).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial

import numpy as np

Dice = tuple[int, ...]


def kept_indices(dice, keep) -> list[int]:
    """Which of the dice (by index, the first ones of each value) make up the multiset `keep`."""
    left = {v: keep.count(v) for v in set(keep)}
    chosen = []
    for i, v in enumerate(dice):
        if left.get(v):
            left[v] -= 1
            chosen.append(i)
    return chosen


def _ways(outcome: Dice) -> int:
    """Ordered throws that show this multiset."""
    ways = factorial(len(outcome))
    for v in set(outcome):
        ways //= factorial(outcome.count(v))
    return ways


@dataclass(frozen=True, eq=False)
class DiceSpace:
    dice: int
    faces: int
    keeps: tuple[Dice, ...]  # every multiset of 0..dice dice; keeps[0] is ()
    index: dict  # multiset -> its place in keeps
    rolls: np.ndarray  # keep indices of the full rolls, in the order of `roll_dice`
    roll_dice: tuple[Dice, ...]
    roll_of: dict  # full roll -> its row (0..len(rolls)-1)
    pair_keep: np.ndarray  # per pair: the keep index (pairs are sorted by keep)
    pair_roll: np.ndarray  # per pair: the row of the roll it makes
    pair_prob: np.ndarray
    pair_fresh: tuple[Dice, ...]  # per pair: the dice thrown in that attempt
    keep_starts: np.ndarray  # where each keep's pairs begin (for np.add.reduceat)
    sub_keeps: np.ndarray  # per roll row: the keeps that throw at least one die again (padded)

    def roll_row(self, dice) -> int:
        return self.roll_of[tuple(sorted(dice))]


@cache
def dice_space(dice: int, faces: int) -> DiceSpace:
    values = range(1, faces + 1)
    keeps = tuple(k for size in range(dice + 1) for k in combinations_with_replacement(values, size))
    index = {k: i for i, k in enumerate(keeps)}
    roll_dice = tuple(k for k in keeps if len(k) == dice)
    roll_of = {r: row for row, r in enumerate(roll_dice)}
    outcomes = {
        m: [(o, _ways(o) / faces**m) for o in combinations_with_replacement(values, m)] for m in range(dice + 1)
    }
    pair_keep, pair_roll, pair_prob, pair_fresh, starts = [], [], [], [], []
    for i, keep in enumerate(keeps):
        starts.append(len(pair_keep))
        for outcome, p in outcomes[dice - len(keep)]:
            pair_keep.append(i)
            pair_roll.append(roll_of[tuple(sorted(keep + outcome))])
            pair_prob.append(p)
            pair_fresh.append(outcome)
    subs = []
    for roll in roll_dice:
        found = {
            index[tuple(roll[j] for j in chosen)] for size in range(dice) for chosen in combinations(range(dice), size)
        }
        subs.append(sorted(found))
    width = max(map(len, subs))
    sub_keeps = np.array([s + [s[0]] * (width - len(s)) for s in subs])
    return DiceSpace(
        dice,
        faces,
        keeps,
        index,
        np.array([index[r] for r in roll_dice]),
        roll_dice,
        roll_of,
        np.array(pair_keep),
        np.array(pair_roll),
        np.array(pair_prob),
        tuple(pair_fresh),
        np.array(starts),
        sub_keeps,
    )


@dataclass(frozen=True)
class ThrowPlan:
    """The solved throw: keep_value[a][..., k] is the expected value of keeping k and throwing the
    rest for attempt a + 2 (a = 0: the second attempt); `value` is the throw's worth before the first
    attempt. Values are whatever the stop values measure (points to come, or an estimate)."""

    keep_value: tuple[np.ndarray, ...]
    value: np.ndarray | float


def solve_throw(space: DiceSpace, stop_pair: np.ndarray, attempts: int = 3) -> ThrowPlan:
    """Backward over the attempts. stop_pair[..., pair]: the value of stopping right after the attempt
    that made that pair (its roll, with its thrown dice fresh). Leading axes are separate states."""
    w = stop_pair
    keep_values = []
    for attempt in range(attempts, 0, -1):
        expected = np.add.reduceat(w * space.pair_prob, space.keep_starts, axis=-1)
        if attempt == 1:
            return ThrowPlan(tuple(reversed(keep_values)), expected[..., 0])
        keep_values.append(expected)
        go_on = expected[..., space.sub_keeps].max(axis=-1)  # the best keep of each roll
        w = np.maximum(stop_pair, go_on[..., space.pair_roll])
    raise ValueError("a throw has at least one attempt")
