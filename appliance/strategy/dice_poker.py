"""Dice Poker solved exactly: the expected points still to come for every set of filled fields.

With no upper bonus and no joker, what is left of a game depends only on which fields are filled,
so 2**13 = 8,192 numbers hold the whole solution. They are computed by dynamic programming over the
throw's attempts (appliance.strategy.dice), all sheets with the same number of filled fields at
once, from the full sheet back to the empty one (about three seconds here), and shipped beside this
module (dice_poker_future.npy, 64 KiB; a test checks it against a fresh build).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from appliance.games.sheet import Sheet
from appliance.games.tables import sheet_rules

from .dice import solve_throw
from .scores import tables_for

FIELDS = 13
SHIPPED = Path(__file__).with_name("dice_poker_future.npy")


def mask_of(numbers) -> int:
    return sum(1 << (n - 1) for n in numbers)


@cache
def future_table() -> np.ndarray:
    """future[mask]: expected points still to come with the fields in `mask` filled, played optimally."""
    return np.load(SHIPPED) if SHIPPED.exists() else solve()


def solve() -> np.ndarray:
    """The table computed afresh."""
    tables = tables_for(sheet_rules("dice-poker"))
    masks = np.arange(1 << FIELDS)
    filled_count = np.array([bin(m).count("1") for m in masks])
    bits = 1 << np.arange(FIELDS)
    future = np.zeros(1 << FIELDS)
    for filled in range(FIELDS - 1, -1, -1):
        states = masks[filled_count == filled]
        is_open = (states[:, None] & bits) == 0
        after = np.where(is_open, future[states[:, None] | bits], -np.inf)  # [state, field]
        stop = (tables.roll[None, :, :] + after[:, None, :]).max(axis=2)  # [state, roll]
        future[states] = solve_throw(tables.space, stop[:, tables.space.pair_roll]).value
    return future


class DicePokerValues:
    """Expected final scores from the exact solution."""

    exact = True

    def __init__(self, rules):
        self.top = tables_for(rules).top

    def entry_values(self, sheet: Sheet) -> list[tuple[int, int, np.ndarray]]:
        """Per open field: (column, field, [score] -> expected final score after entering that score)."""
        future, mask = future_table(), mask_of(sheet.filled(0))
        points = sheet.total + np.arange(self.top + 1, dtype=float)
        return [(c, n, points + future[mask | 1 << (n - 1)]) for c, n in sheet.open_fields()]
