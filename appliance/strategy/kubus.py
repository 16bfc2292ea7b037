"""Pentakubus and Hexakubus: an estimate of what a sheet will end with.

Exact play is out of reach (72 and 120 fields), so each open field is worth what it yields on
average when the advisor itself plays (its mean and variance, learnt by self-play and shipped in
kubus_fields.json, per column and field), and each section bonus is worth its points times the
chance that the section's entries plus its open fields' yields reach the threshold (a normal
approximation). The throw itself is then played exactly against that estimate (appliance.strategy.dice).
The shipped values came from selfplay.learn_field_values, starting from first_guess: Pentakubus 15
rounds of 50 or 60 games, Hexakubus 5 rounds of 16 (the later rounds kept, more did not help).
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from appliance.games.fields import Score
from appliance.games.sheet import Sheet, SheetRules

from .scores import tables_for

FIELD_VALUES = Path(__file__).with_name("kubus_fields.json")
_erfc = np.frompyfunc(math.erfc, 1, 1)


@lru_cache(maxsize=None)
def shipped_values() -> dict:
    return json.loads(FIELD_VALUES.read_text()) if FIELD_VALUES.exists() else {}


def reach_chance(entered, mean: float, var: float, threshold: int):
    """P(entered + a normal(mean, var) yield >= threshold); `entered` may be an array."""
    short = threshold - 0.5 - (np.asarray(entered, dtype=float) + mean)
    if var <= 0:
        return (short <= 0).astype(float)
    return 0.5 * np.asarray(_erfc(short / math.sqrt(2 * var)), dtype=float)


def first_guess(rules: SheetRules) -> dict:
    """Before any self-play: each field worth half its best score, with a wide spread."""
    best = tables_for(rules).roll.max(axis=0).astype(float)
    mean = np.tile(best / 2, (len(rules.columns), 1))
    return {"mean": mean, "var": mean ** 2 / 4}


class KubusValues:
    """Expected final scores estimated from field yields; `mean`/`var` are [column][field index]."""

    exact = False

    def __init__(self, rules: SheetRules, mean=None, var=None):
        learnt = shipped_values().get(rules.id) or first_guess(rules)
        self.rules = rules
        self.top = tables_for(rules).top
        self.mean = np.array(mean if mean is not None else learnt["mean"], dtype=float)
        self.var = np.array(var if var is not None else learnt["var"], dtype=float)

    def _section_parts(self, sheet: Sheet, column: int, section, skip: int = 0):
        filled = sheet.filled(column)
        entered = sum(sheet.entries[(column, n)].total for n in section.fields if n in filled)
        open_ = [n - 1 for n in section.fields if n not in filled and n != skip]
        return entered, self.mean[column, open_].sum(), self.var[column, open_].sum()

    def _bonus(self, sheet: Sheet, column: int, section, entered, skip: int = 0):
        if section.threshold is None or not section.bonus:
            return 0.0
        base, mean, var = self._section_parts(sheet, column, section, skip)
        return section.bonus * reach_chance(base + entered, mean, var, section.threshold)

    def expected_final(self, sheet: Sheet) -> float:
        columns = range(len(self.rules.columns))
        entries = sum(score.total for score in sheet.entries.values())
        open_yield = sum(self.mean[c, n - 1] for c in columns for n in self.rules.numbers if (c, n) not in sheet.entries)
        bonus = sum(float(self._bonus(sheet, c, s, 0)) for c in columns for s in self.rules.sections)
        return entries + open_yield + bonus

    def entry_values(self, sheet: Sheet) -> list[tuple[int, int, np.ndarray]]:
        """Per open field: (column, field, [score] -> expected final score after entering that score)."""
        now = self.expected_final(sheet)
        section_of = {n: s for s in self.rules.sections for n in s.fields}
        scores = np.arange(self.top + 1)
        values = []
        for c, n in sheet.open_fields():
            entered = np.array([sheet.limit(c, n, Score(int(s))).total for s in scores]) \
                if self.rules.minor_major and n in self.rules.minor_major else scores
            section = section_of[n]
            change = entered - self.mean[c, n - 1] \
                + self._bonus(sheet, c, section, entered, skip=n) - self._bonus(sheet, c, section, 0)
            values.append((c, n, now + change))
        return values
