"""Figures over every possible roll: how often each combination comes up, and the best scores.

All faces**dice rolls are enumerated with numpy and folded into the distinct sorted rolls with
their counts (5,005 for six d10s), so the scoring code the table uses rates each distinct roll
once: the rulebooks' probability tables check that very code.
"""

from __future__ import annotations

import numpy as np

from .sheet import SheetRules


def distinct_rolls(dice: int, faces: int) -> list[tuple[tuple[int, ...], int]]:
    """Each distinct roll (values sorted) with the number of ordered rolls that show it."""
    rolls = np.indices((faces,) * dice, dtype=np.int8).reshape(dice, -1).T + 1
    rolls.sort(axis=1)
    keys = rolls.astype(np.int64) @ (faces + 1) ** np.arange(dice, dtype=np.int64)
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    return [(tuple(int(v) for v in rolls[i]), int(n)) for i, n in zip(first, counts)]


def frequencies(rules: SheetRules) -> dict[int, int]:
    """For every combination field: how many of all possible rolls qualify."""
    rolls = distinct_rolls(rules.dice, rules.faces)
    return {f.number: sum(n for roll, n in rolls if f.qualifies(roll)) for f in rules.fields if f.combination}


def field_optima(rules: SheetRules) -> dict[int, int]:
    """The best total (points + bonus + slam) each field can hold, all dice thrown in one attempt."""
    rolls = [roll for roll, _ in distinct_rolls(rules.dice, rules.faces)]
    return {f.number: max(f.score(roll).total for roll in rolls) for f in rules.fields}


def optimum(rules: SheetRules) -> dict:
    """The best possible score per section (its bonus included when reachable) and per column."""
    best = field_optima(rules)
    sections = {}
    for section in rules.sections:
        total = sum(best[n] for n in section.fields)
        sections[section.name] = total + section.bonus_for(total)
    column = sum(sections.values())
    return {
        "fields": best,
        "sections": sections,
        "column": column,
        "columns": len(rules.columns),
        "total": column * len(rules.columns),
    }
