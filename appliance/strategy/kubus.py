"""Pentakubus and Hexakubus: an estimate of what a sheet will end with.

Exact play is out of reach (72 and 120 fields), so each open field is worth what it yields on
average when the advisor itself plays (its mean and variance, learnt by self-play and shipped in
kubus_fields.json, per column and field), and each section bonus is worth its points times the
chance that the section's entries plus its open fields' yields reach the threshold (a normal
approximation). Minor and major bound each other: once one is entered, the other keeps the share of
its yield that a throw played for it alone keeps under that bound.
A column's open fields are worth more or less than their yields as the game goes (`progress`, per
column, by its open fields and all open fields, the throws to come). An ordered column is a sequence:
only its next fields can take a throw, so with many throws to come each can wait for a good one, and
a column left behind fills its last fields with whatever throw comes (late in the game, cancelled).
Pentakubus ships its ordered columns' progress learnt by self-play (selfplay.learn_progress: what
each column still added beyond its yields in every state its games passed); its free column, and
all of Hexakubus, follow a rule (`paced`): each open field of the free column is worth a `reserve`
(late in the game it takes the throw that would otherwise cancel a field of an ordered column;
self-play chose 4 points for Pentakubus over 0, 2, 6 and 10, and 10 for Hexakubus over 0 and 20),
an ordered column costs `pace` * its open fields * its share of the throws to come (Pentakubus 10
over 0, 5 and 20, where learning starts; Hexakubus 0).
The throw itself is then played exactly against that estimate (appliance.strategy.dice).
The shipped values came from selfplay.learn_field_values, starting from first_guess: Pentakubus 15
rounds of 50 or 60 games, then with `pace` 10 another 8 rounds of 40 (seed 100); Hexakubus 5 rounds
of 16 (the later rounds kept, more did not help). Pentakubus's progress from
selfplay.ship_progress("pentakubus", rounds=8, games=300, seed=100): 2,400 games, 10 to 20 minutes
here; 3 x 25 x 73 numbers, 40 KB of kubus_fields.json.
"""

from __future__ import annotations

import json
import math
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from appliance.games.fields import Score
from appliance.games.sheet import Sheet, SheetRules

from .dice import solve_throw
from .scores import tables_for

FIELD_VALUES = Path(__file__).with_name("kubus_fields.json")
_erfc = np.frompyfunc(math.erfc, 1, 1)


@cache
def shipped_values() -> dict:
    return json.loads(FIELD_VALUES.read_text()) if FIELD_VALUES.exists() else {}


def reach_chance(entered, mean: float, var: float, threshold: int):
    """P(entered + a normal(mean, var) yield >= threshold); `entered` may be an array."""
    short = threshold - 0.5 - (np.asarray(entered, dtype=float) + mean)
    if var <= 0:
        return (short <= 0).astype(float)
    return 0.5 * np.asarray(_erfc(short / math.sqrt(2 * var)), dtype=float)


def first_guess(rules: SheetRules) -> dict:
    """Before any self-play: each field worth half its best score, with a wide spread; no pacing."""
    best = tables_for(rules).roll.max(axis=0).astype(float)
    mean = np.tile(best / 2, (len(rules.columns), 1))
    return {"mean": mean, "var": mean**2 / 4}


def paced(rules: SheetRules, reserve: float, pace: float) -> np.ndarray:
    """[column, its open fields, all open fields]: the progress of the rule (module docstring): `reserve` per
    open field of the free column, less `pace` * an ordered column's open fields * its share of them all."""
    fields, columns = len(rules.fields), len(rules.columns)
    open_ = np.arange(fields + 1, dtype=float)[:, None]
    left = np.maximum(np.arange(columns * fields + 1, dtype=float), 1)[None, :]
    free = np.broadcast_to(reserve * open_, (fields + 1, left.shape[1]))  # the same whatever the throws to come
    return np.array([free if kind == "free" else -pace * open_**2 / left for kind in rules.columns])


class KubusValues:
    """Expected final scores estimated from field yields; `mean`/`var` are [column][field index]."""

    exact = False

    def __init__(self, rules: SheetRules, mean=None, var=None, progress=None):
        learnt = shipped_values().get(rules.id) or first_guess(rules)
        if progress is None:
            progress = learnt.get("progress") or paced(rules, learnt.get("reserve", 0), learnt.get("pace", 0))
        self.progress = np.array(progress, dtype=float)
        self.rules = rules
        self.top = tables_for(rules).top
        self.mean = np.array(mean if mean is not None else learnt["mean"], dtype=float)
        self.var = np.array(var if var is not None else learnt["var"], dtype=float)

    @cached_property
    def bounded_share(self) -> dict[int, np.ndarray]:
        """Minor and major: per field, [the other's entry] -> the share of its free yield left when it must
        stay at most (minor) or at least (major) that entry, from one throw played for the field alone."""
        space = tables_for(self.rules).space
        sums = np.array([sum(r) for r in space.roll_dice])[space.pair_roll]
        bounds = range(self.rules.dice * self.rules.faces + 1)
        play = lambda scores: solve_throw(space, scores, self.rules.attempts).value  # noqa: E731
        cap = np.array([play(np.where(sums <= b, sums, 0)) for b in bounds])  # one bound at a time:
        floor = np.array([play(np.where(sums >= b, sums, 0)) for b in bounds])  # Hexakubus has 177,100 pairs
        minor, major = self.rules.minor_major
        return {minor: cap / cap[-1], major: floor / floor[0]}

    def _partner(self, number: int) -> int | None:
        pair = self.rules.minor_major
        return pair[1 - pair.index(number)] if pair and number in pair else None

    def _means(self, sheet: Sheet) -> np.ndarray:
        """The open fields' yields on this sheet: minor or major less when the other holds a bound."""
        means = self.mean.copy()
        for n in self.rules.minor_major or ():
            for c in range(len(self.rules.columns)):
                other = sheet.entries.get((c, self._partner(n)))
                if other is not None:
                    means[c, n - 1] *= self.bounded_share[n][other.total]
        return means

    def _section_parts(self, sheet: Sheet, means, column: int, section, skip: int = 0):
        filled = sheet.filled(column)
        entered = sum(sheet.entries[(column, n)].total for n in section.fields if n in filled)
        open_ = [n - 1 for n in section.fields if n not in filled and n != skip]
        return entered, means[column, open_].sum(), self.var[column, open_].sum()

    def _bonus(self, sheet: Sheet, means, column: int, section, entered, skip: int = 0):
        if section.threshold is None or not section.bonus:
            return 0.0
        base, mean, var = self._section_parts(sheet, means, column, section, skip)
        return section.bonus * reach_chance(base + entered, mean, var, section.threshold)

    def expected_final(self, sheet: Sheet) -> float:
        return self._expected_final(sheet, self._means(sheet))

    def _expected_final(self, sheet: Sheet, means) -> float:
        entries = sum(score.total for score in sheet.entries.values())
        open_yield, bonus = self._estimate(sheet, means, range(len(self.rules.columns)))
        return entries + open_yield + bonus + self._pacing(self.open_per_column(sheet))

    def _estimate(self, sheet: Sheet, means, columns) -> tuple[float, float]:
        """What these columns' open fields and section bonuses add, before pacing."""
        open_yield = sum(means[c, n - 1] for c in columns for n in self.rules.numbers if (c, n) not in sheet.entries)
        return open_yield, sum(float(self._bonus(sheet, means, c, s, 0)) for c in columns for s in self.rules.sections)

    def column_estimates(self, sheet: Sheet) -> np.ndarray:
        """Per column: what its open fields and section bonuses add, before pacing (what pacing is learnt on)."""
        means = self._means(sheet)
        return np.array([sum(self._estimate(sheet, means, [c])) for c in range(len(self.rules.columns))])

    def open_per_column(self, sheet: Sheet) -> np.ndarray:
        """Per column: its open fields."""
        return np.array([len(self.rules.numbers) - len(sheet.filled(c)) for c in range(len(self.rules.columns))])

    def _pacing(self, left: np.ndarray) -> float:
        """What the columns' open fields are worth beyond their yields and bonuses: `progress`[column, its open
        fields, all open fields (the throws to come)]."""
        throws = int(left.sum())
        return float(sum(self.progress[c, open_, throws] for c, open_ in enumerate(left)))

    def entry_values(self, sheet: Sheet) -> list[tuple[int, int, np.ndarray]]:
        """Per open field: (column, field, [score] -> expected final score after entering that score)."""
        means = self._means(sheet)
        now = self._expected_final(sheet, means)
        section_of = {n: s for s in self.rules.sections for n in s.fields}
        scores = np.arange(self.top + 1)
        left = self.open_per_column(sheet)
        pacing = self._pacing(left)
        values = []
        for c, n in sheet.open_fields():
            entered, partner = scores, self._partner(n)
            if partner is not None:
                entered = np.array([sheet.limit(c, n, Score(int(s))).total for s in scores])
                if (c, partner) not in sheet.entries:  # the entry bounds its partner, whose yield shrinks
                    share = self.bounded_share[partner]
                    entered = entered - means[c, partner - 1] * (1 - share[np.minimum(entered, len(share) - 1)])
            section = section_of[n]  # minor and major share theirs: `entered` is what the section gains
            change = (
                entered
                - means[c, n - 1]
                + (self._pacing(left - np.eye(len(left), dtype=int)[c]) - pacing)
                + self._bonus(sheet, means, c, section, entered, skip=n)
                - self._bonus(sheet, means, c, section, 0)
            )
            values.append((c, n, now + change))
        return values
