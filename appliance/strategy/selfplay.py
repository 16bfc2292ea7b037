"""Solitaire games played by the advisor or by a greedy baseline, through the rules themselves
(SheetGame), with random dice: what `dicetable bench strategy` measures and how the kubus field
values and their progress are learnt.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter

import numpy as np

from appliance.games.sheet import Sheet, SheetRules
from appliance.games.sheet_game import SheetGame, Throw
from appliance.games.tables import sheet_rules

from .dice import kept_indices
from .kubus import FIELD_VALUES, KubusValues, paced, shipped_values
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
    return {"mean": values.mean.round(3).tolist(), "var": values.var.round(3).tolist()}


def progress_samples(values: KubusValues, sheet: Sheet) -> tuple[np.ndarray, np.ndarray]:
    """From one finished game, per state it passed (the empty sheet, then after each entry, in the order
    made): [state, column] open fields, and [state, column] what the column still added beyond its
    estimate (its open fields' yields and expected bonuses)."""
    made = list(sheet.entries.items())
    columns = range(len(sheet.rules.columns))
    final = np.array([sheet.column_total(c) for c in columns], dtype=float)
    left, surplus, entered = [], [], np.zeros(len(columns))
    for k in range(len(made) + 1):
        if k:  # the entries so far, kept as they are made
            (c, _), score = made[k - 1]
            entered[c] += score.total
        state = Sheet(sheet.rules, dict(made[:k]))
        left.append(values.open_per_column(state))
        surplus.append(final - entered - values.column_estimates(state))
    return np.array(left), np.array(surplus)


def _blur(width: int, sigma: float) -> np.ndarray:
    steps = np.arange(width)
    return np.exp(-((steps[:, None] - steps[None, :]) ** 2) / (2 * sigma**2))


def fit_progress(left: np.ndarray, surplus: np.ndarray, prior: np.ndarray, sigma=(1.0, 2.0), weight=20.0) -> np.ndarray:
    """[column, open fields, all open fields]: the mean surplus of the states with that many open fields,
    smoothed by a Gaussian over both (`sigma`) and drawn to `prior` as if it were `weight` more states
    (where few games went, the prior stays: no unvisited corner looks better than what was seen)."""
    throws = left.sum(axis=1)
    table = prior.copy()
    blur_open, blur_throws = (_blur(n, s) for n, s in zip(prior.shape[1:], sigma))
    for c in range(prior.shape[0]):
        sums, counts = np.zeros(prior.shape[1:]), np.zeros(prior.shape[1:])
        np.add.at(sums, (left[:, c], throws), surplus[:, c])
        np.add.at(counts, (left[:, c], throws), 1)
        sums, counts = blur_open @ sums @ blur_throws, blur_open @ counts @ blur_throws
        table[c] = (sums + weight * prior[c]) / (counts + weight)
    table[:, 0] = 0  # a column with no open field adds nothing beyond its entries (the blur would leak into it)
    return table


def learn_progress(rules: SheetRules, rounds: int, games: int, seed: int = 0, log=print) -> np.ndarray:
    """Each round plays `games` games with the current values; then the ordered columns' progress is fitted
    (fit_progress, drawn to the values' own progress) to every state that all rounds so far passed, and the
    next round plays with it (approximate policy iteration: the states the new play reaches are then seen
    too). The free column keeps its progress. Returns the last table."""
    learnt = shipped_values()[rules.id]  # the rule learning starts from, not a progress table shipped before
    prior = paced(rules, learnt.get("reserve", 0), learnt.get("pace", 0))
    values, ordered = KubusValues(rules, progress=prior), np.array([kind != "free" for kind in rules.columns])
    rng = random.Random(seed)
    left, surplus = [], []
    for r in range(rounds):
        start, totals = time.perf_counter(), []
        for _ in range(games):
            sheet = play(rules, advisor(values), rng)
            totals.append(sheet.total)
            x, y = progress_samples(values, sheet)
            left.append(x)
            surplus.append(y)
        log(f"round {r + 1}: mean {np.mean(totals):.1f} over {games} games ({time.perf_counter() - start:.0f} s)")
        table = fit_progress(np.concatenate(left), np.concatenate(surplus), prior)
        values = KubusValues(rules, progress=np.where(ordered[:, None, None], table, prior))
    return values.progress


def ship_progress(game: str, rounds: int, games: int, seed: int, log=print) -> None:
    """Learns the progress table (learn_progress) and writes it to kubus_fields.json, two decimals."""
    table = learn_progress(sheet_rules(game), rounds, games, seed, log)
    learnt = json.loads(FIELD_VALUES.read_text())
    learnt[game]["progress"] = table.round(2).tolist()
    FIELD_VALUES.write_text(json.dumps(learnt))
