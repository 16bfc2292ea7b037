"""One throw ahead: the kubus estimate corrected by the next throw, played exactly.

The estimate (kubus.KubusValues) values a sheet field by field, so it cannot see how the fields left
open work together: which of them the next throw can still go to (an outer column offers only its next
two fields; a full middle column leaves the last throws no choice). So each open field's entry values are
corrected by what the next throw, solved exactly over its attempts against the estimate, adds to the
estimate once that field is entered. The field is entered at the score it yields on average: the
correction is about the fields left open, hardly about the score.
Self-play (`dicetable bench strategy --game pentakubus --games 300`): 2,042 -> 2,095 points. It costs one
solved throw per open field: about 1 ms each here for five six-sided dice (32 ms for an empty sheet), but
10 ms for six ten-sided ones with up to 44 open fields, and a piece of advice may take 250 ms. So Hexakubus
looks ahead only over its last 12 fields (`within`); the same 100 games gained 22, 37 and 39 points looking
ahead over the last 6, 12 and 16. What else was tried and not kept: README, "Advice".
"""

from __future__ import annotations

import numpy as np

from appliance.games.fields import Score
from appliance.games.sheet import Sheet

from .dice import solve_throw
from .kubus import KubusValues
from .scores import stop_values, tables_for


class OneThrowAhead:
    """A kubus sheet's values, one throw ahead of its estimate (the module docstring)."""

    exact = False

    def __init__(self, estimate: KubusValues, within: int | None = None):
        """`within`: look ahead only once at most this many fields are open (None: always)."""
        self.estimate = estimate
        self.rules = estimate.rules
        self.within = within
        self._last: tuple = (None, None)  # a throw asks for its sheet's values up to three times

    def expected_final(self, sheet: Sheet) -> float:
        """The estimate after the next throw, played exactly against it; a full sheet's own total."""
        return self._both(sheet)[1]

    def _both(self, sheet: Sheet) -> tuple[float, float]:
        """The estimate of a sheet, and the same after the next throw; a full sheet's own total, twice."""
        if sheet.full:
            return float(sheet.total), float(sheet.total)
        now, entries = self.estimate.estimate_and_entries(sheet)
        tables = tables_for(self.rules)
        return now, float(solve_throw(tables.space, stop_values(tables, entries), self.rules.attempts).value)

    def entry_values(self, sheet: Sheet) -> list[tuple[int, int, np.ndarray]]:
        """Per open field: (column, field, [score] -> expected final score after entering that score)."""
        fields = len(self.rules.columns) * len(self.rules.fields)
        if self.within is not None and fields - len(sheet.entries) > self.within:
            return self.estimate.entry_values(sheet)
        key = tuple(sorted((k, v.total) for k, v in sheet.entries.items()))
        if self._last[0] != key:
            entries = self.estimate.entry_values(sheet)
            self._last = (key, [(c, n, lut + self._ahead(sheet, c, n)) for c, n, lut in entries])
        return self._last[1]

    def _ahead(self, sheet: Sheet, column: int, number: int) -> float:
        """What the next throw adds to the estimate once this field holds its average score."""
        typical = Score(int(round(self.estimate.mean[column, number - 1])))
        after = sheet.with_entry(column, number, sheet.limit(column, number, typical))
        now, ahead = self._both(after)
        return ahead - now
