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
The free column's fields can be filled in any order, so how many are open does not say which: each open
field of it is worth something of its own too (`open_worth`, per field and throws to come; its
quintuplet, say, is worth less than its yield late in the game, when it will likely be cancelled).
Pentakubus ships both learnt by self-play: first the ordered columns' progress, each column by what it
still added beyond its yields in every state its games passed (selfplay.learn_progress); then all of it
together, by what the whole game still added (selfplay.learn_together), as a column's own surplus cannot
say what its open fields are worth to the others (late in the game a free field takes the throw that would
otherwise cancel an ordered column's field); then all of it one throw deep, by what the next throw, solved
exactly, expects (selfplay.learn_backup). Hexakubus follows a rule (`paced`): each open field of the
free column is worth a `reserve` (self-play chose 10 over 0 and 20), an ordered column costs `pace` *
its open fields * its share of the throws to come (0; Pentakubus's rule, where its learning starts:
reserve 4 over 0, 2, 6 and 10, pace 10 over 0, 5 and 20).
The throw itself is then played exactly against that estimate (appliance.strategy.dice); Pentakubus
looks one throw further ahead (appliance.strategy.lookahead).
The shipped values, the commands that made them and what each added: README.md beside this module.
"""

from __future__ import annotations

import json
import math
from functools import cache, cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np

from appliance.games.fields import Score
from appliance.games.sheet import Section, Sheet, SheetRules

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


class BonusSection(NamedTuple):
    """A section that pays a bonus, as it stands on a sheet."""

    column: int
    section: Section
    entered: int  # its entries' total
    open: list[int]  # its open fields' indices
    worth: float = 0.0  # what its bonus is worth now


class KubusValues:
    """Expected final scores estimated from field yields; `mean`/`var` are [column][field index]."""

    exact = False

    def __init__(self, rules: SheetRules, mean=None, var=None, progress=None, open_worth=None):
        """`progress` and `open_worth` (module docstring): the shipped ones, or where `progress` is given, no
        open field worth anything of its own unless `open_worth` says so."""
        learnt = shipped_values().get(rules.id) or first_guess(rules)
        if progress is None:
            progress = learnt.get("progress") or paced(rules, learnt.get("reserve", 0), learnt.get("pace", 0))
            open_worth = learnt.get("open_worth") if open_worth is None else open_worth
        self.progress = np.array(progress, dtype=float)
        if open_worth is None:
            open_worth = np.zeros((len(rules.columns), len(rules.fields), self.progress.shape[2]))
        self.open_worth = np.array(open_worth, dtype=float)
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

    def _bonus_sections(self, sheet: Sheet, means) -> list[BonusSection]:
        """The sections that pay a bonus, as they stand on this sheet."""
        parts = []
        for c in range(len(self.rules.columns)):
            filled = sheet.filled(c)
            for s in self.rules.sections:
                if s.threshold is not None and s.bonus:
                    entered = sum(sheet.entries[(c, n)].total for n in s.fields if n in filled)
                    part = BonusSection(c, s, entered, [n - 1 for n in s.fields if n not in filled])
                    parts.append(part._replace(worth=float(self._bonus(part, means))))
        return parts

    def _bonus(self, part: BonusSection, means, entered=0, skip: int | None = None):
        """What a section's bonus is worth with `entered` more points in it and field index `skip` filled."""
        open_ = [i for i in part.open if i != skip]
        mean, var = means[part.column, open_].sum(), self.var[part.column, open_].sum()
        return part.section.bonus * reach_chance(part.entered + entered, mean, var, part.section.threshold)

    def expected_final(self, sheet: Sheet) -> float:
        means = self._means(sheet)
        return self._expected_final(sheet, means, self._bonus_sections(sheet, means), self.open_fields(sheet))

    def _expected_final(self, sheet: Sheet, means, parts, is_open) -> float:
        entries = sum(score.total for score in sheet.entries.values())
        open_yield, bonus = self._estimate(sheet, means, parts, range(len(self.rules.columns)))
        return entries + open_yield + bonus + self._pacing(is_open.sum(axis=1)) + self._worth(is_open)

    def _estimate(self, sheet: Sheet, means, parts, columns) -> tuple[float, float]:
        """What these columns' open fields and section bonuses add, before pacing."""
        open_yield = sum(means[c, n - 1] for c in columns for n in self.rules.numbers if (c, n) not in sheet.entries)
        return open_yield, sum(part.worth for part in parts if part.column in columns)

    def column_estimates(self, sheet: Sheet) -> np.ndarray:
        """Per column: what its open fields and section bonuses add, before pacing (what pacing is learnt on)."""
        means = self._means(sheet)
        parts = self._bonus_sections(sheet, means)
        return np.array([sum(self._estimate(sheet, means, parts, [c])) for c in range(len(self.rules.columns))])

    def open_fields(self, sheet: Sheet) -> np.ndarray:
        """[column, field index]: whether the field is open."""
        is_open = np.ones((len(self.rules.columns), len(self.rules.fields)), dtype=bool)
        for c, n in sheet.entries:
            is_open[c, n - 1] = False
        return is_open

    def _worth(self, is_open: np.ndarray, throws: int | None = None) -> float:
        """What the open fields are worth one by one beyond their yields (`open_worth`[column, field, all open
        fields]), with that many throws to come (by default: as many as open fields)."""
        throws = int(is_open.sum()) if throws is None else throws
        return float(self.open_worth[:, :, throws][is_open].sum())

    def _pacing(self, left: np.ndarray) -> float:
        """What the columns' open fields are worth beyond their yields and bonuses: `progress`[column, its open
        fields, all open fields (the throws to come)]."""
        throws = int(left.sum())
        return float(sum(self.progress[c, open_, throws] for c, open_ in enumerate(left)))

    def entry_values(self, sheet: Sheet) -> list[tuple[int, int, np.ndarray]]:
        """Per open field: (column, field, [score] -> expected final score after entering that score)."""
        return self.estimate_and_entries(sheet)[1]

    def estimate_and_entries(self, sheet: Sheet) -> tuple[float, list[tuple[int, int, np.ndarray]]]:
        """expected_final and entry_values at once (they share most of the work)."""
        means = self._means(sheet)
        parts = self._bonus_sections(sheet, means)
        is_open = self.open_fields(sheet)
        now = self._expected_final(sheet, means, parts, is_open)
        part_of = {(part.column, n): part for part in parts for n in part.section.fields}
        scores = np.arange(self.top + 1)
        left, throws = is_open.sum(axis=1), int(is_open.sum())
        one_less = np.eye(len(left), dtype=int)
        pacing = [self._pacing(left - one_less[c]) - self._pacing(left) for c in range(len(left))]
        worth_next = self._worth(is_open, throws - 1) - self._worth(is_open)  # each field then loses its own
        values = []
        for c, n in sheet.open_fields():
            entered, partner = scores, self._partner(n)
            if partner is not None:
                entered = np.array([sheet.limit(c, n, Score(int(s))).total for s in scores])
                if (c, partner) not in sheet.entries:  # the entry bounds its partner, whose yield shrinks
                    share = self.bounded_share[partner]
                    entered = entered - means[c, partner - 1] * (1 - share[np.minimum(entered, len(share) - 1)])
            change = entered - means[c, n - 1] + pacing[c] + worth_next - self.open_worth[c, n - 1, throws - 1]
            part = part_of.get((c, n))  # minor and major share theirs: `entered` is what the section gains
            if part is not None:
                change = change + self._bonus(part, means, entered, skip=n - 1) - part.worth
            values.append((c, n, now + change))
        return now, values
