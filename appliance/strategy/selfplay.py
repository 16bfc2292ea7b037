"""Solitaire games played by the advisor or by a greedy baseline, through the rules themselves
(SheetGame), with random dice: what `dicetable bench strategy` measures and how the kubus field
values are learnt.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import numpy as np

from appliance.games.sheet import Sheet, SheetRules
from appliance.games.sheet_game import SheetGame, Throw

from .dice import kept_indices
from .kubus import KubusValues
from .sheet_advice import Choice, advise_throw


def greedy(rules: SheetRules, sheet: Sheet, throw: Throw) -> Choice:
    """The baseline: keep the most common value (the higher on a tie) while attempts are left and the
    dice differ, then take the field that scores most now."""
    counts = Counter(throw.dice)
    value, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    if throw.attempt < rules.attempts and n < len(throw.dice):
        return Choice(0.0, keep=(value,) * n)
    options = SheetGame(rules, ("solo",), (sheet,), throw=throw).options()
    return Choice(0.0, column=options[0].column, field=options[0].field, score=options[0].score.total)


def advisor(values=None):
    def choose(rules: SheetRules, sheet: Sheet, throw: Throw) -> Choice:
        return advise_throw(rules, sheet, throw, values).best

    return choose


def thrown_again(dice, keep) -> list[int]:
    """The indices of the dice that are not kept."""
    kept = kept_indices(dice, keep)
    return [i for i in range(len(dice)) if i not in kept]


def play(rules: SheetRules, policy, rng: random.Random) -> Sheet:
    """One solitaire game; returns the full sheet."""
    game = SheetGame.new(rules, ["solo"])
    roll = lambda n: [rng.randint(1, rules.faces) for _ in range(n)]  # noqa: E731
    while not game.is_over:
        game = game.start_throw(roll(rules.dice))
        while True:
            choice = policy(rules, game.sheets[0], game.throw)
            if choice.keep is None:
                game = game.enter(choice.column, choice.field)
                break
            again = thrown_again(game.throw.dice, choice.keep)
            game = game.rethrow(again, roll(len(again)))
    return game.sheets[0]


def measure(rules: SheetRules, policy, games: int, seed: int) -> dict:
    """Mean final score, its standard error and seconds per game."""
    rng = random.Random(seed)
    start = time.perf_counter()
    totals = np.array([play(rules, policy, rng).total for _ in range(games)], dtype=float)
    seconds = time.perf_counter() - start
    se = totals.std(ddof=1) / np.sqrt(games) if games > 1 else float("nan")
    return {
        "mean": round(float(totals.mean()), 2),
        "se": round(float(se), 2),
        "seconds_per_game": round(seconds / games, 4),
    }


def learn_field_values(rules: SheetRules, rounds: int, games: int, seed: int = 0, step: float = 0.5, log=print) -> dict:
    """Each round plays `games` games with the current field values and moves them `step` of the way
    to the mean and variance of what the advisor entered in each column and field (all the way, the
    values swing: a field worth much is kept for good throws, then yields more, ...)."""
    columns, fields = len(rules.columns), len(rules.fields)
    values = KubusValues(rules)
    rng = random.Random(seed)
    for r in range(rounds):
        entered, totals = np.zeros((games, columns, fields)), []
        for g in range(games):
            sheet = play(rules, advisor(values), rng)
            totals.append(sheet.total)
            for (c, n), score in sheet.entries.items():
                entered[g, c, n - 1] = score.total
        log(f"round {r + 1}: mean {np.mean(totals):.1f} over {games} games")
        mean = values.mean + step * (entered.mean(axis=0) - values.mean)
        values = KubusValues(rules, mean, values.var + step * (entered.var(axis=0) - values.var))
    learnt = {"mean": values.mean.round(3).tolist(), "var": values.var.round(3).tolist()}
    return learnt | {"reserve": values.reserve, "pace": values.pace}
