"""Solitaire games played by the advisor or by a greedy baseline, through the rules themselves
(SheetGame), with random dice: what `dicetable bench strategy` measures and how the kubus field
values and their progress are learnt.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import time
from collections import Counter

import numpy as np

from appliance.games.sheet import Sheet, SheetRules
from appliance.games.sheet_game import SheetGame, Throw
from appliance.games.tables import sheet_rules

from .dice import kept_indices
from .kubus import FIELD_VALUES, KubusValues, paced, shipped_values
from .lookahead import OneThrowAhead
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


def free_columns(rules: SheetRules) -> np.ndarray:
    """Per column: whether its fields may be filled in any order."""
    return np.array([kind == "free" for kind in rules.columns])


def progress_samples(values: KubusValues, sheet: Sheet) -> tuple[np.ndarray, np.ndarray]:
    """From one finished game, per state it passed (the empty sheet, then after each entry, in the order
    made): [state, column, field index] whether the field is open, and [state, column] what the column still
    added beyond its estimate (its open fields' yields and expected bonuses)."""
    made = list(sheet.entries.items())
    columns = range(len(sheet.rules.columns))
    final = np.array([sheet.column_total(c) for c in columns], dtype=float)
    is_open, surplus, entered = [], [], np.zeros(len(columns))
    for k in range(len(made) + 1):
        if k:  # the entries so far, kept as they are made
            (c, _), score = made[k - 1]
            entered[c] += score.total
        state = Sheet(sheet.rules, dict(made[:k]))
        is_open.append(values.open_fields(state))
        surplus.append(final - entered - values.column_estimates(state))
    return np.array(is_open), np.array(surplus)


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
    values, ordered = KubusValues(rules, progress=prior), ~free_columns(rules)
    rng = random.Random(seed)
    left, surplus = [], []
    for r in range(rounds):
        start, totals = time.perf_counter(), []
        for _ in range(games):
            sheet = play(rules, advisor(values), rng)
            totals.append(sheet.total)
            x, y = progress_samples(values, sheet)
            left.append(x.sum(axis=2))
            surplus.append(y)
        log(f"round {r + 1}: mean {np.mean(totals):.1f} over {games} games ({time.perf_counter() - start:.0f} s)")
        table = fit_progress(np.concatenate(left), np.concatenate(surplus), prior)
        values = KubusValues(rules, progress=np.where(ordered[:, None, None], table, prior))
    return values.progress


def fit_together(is_open, surplus, prior, each, sigma=(1.0, 2.0), weight=60.0, ridge=200.0, band=6, sweeps=4):
    """The estimate's pacing fitted to whole games: (progress [column, open fields, all open fields], open_worth
    [column, field index, all open fields]) such that at each state their sum is what the whole game still
    added beyond the columns' estimates (`surplus` summed over the columns). A column's own surplus cannot say
    what its open fields are worth to the others (the free column's take the throws that would cancel an
    ordered column's field), so the parts are fitted in turn to what the others leave unexplained
    (backfitting): each column's progress (fit_progress, drawn to `prior`), then the open fields of the
    columns in `each` one by one, as their order does not say which are open (per band of `band` throws
    to come, a ridge regression drawn to 0 by `ridge`; a band of fewer than 50 states stays 0)."""
    left = is_open.sum(axis=2)
    throws, total = left.sum(axis=1), surplus.sum(axis=1)
    columns, fields, states = prior.shape[0], is_open.shape[2], len(total)
    table, worth = prior.copy(), np.zeros((columns, fields, prior.shape[2]))
    x = is_open[:, each].reshape(states, -1).astype(float)

    def explained(skip: int | None = None) -> np.ndarray:
        progress = sum(table[c, left[:, c], throws] for c in range(columns) if c != skip)
        return progress + (is_open * worth[:, :, throws].transpose(2, 0, 1)).sum(axis=(1, 2))

    for _ in range(sweeps):
        for c in range(columns):
            rest = np.zeros_like(surplus, dtype=float)
            rest[:, c] = total - explained(skip=c)
            table[c] = fit_progress(left, rest, prior, sigma, weight)[c]  # its throws to come are all columns'
        worth[:] = 0
        rest = total - explained()
        for start in range(0, prior.shape[2], band):
            at = (throws >= start) & (throws < start + band)
            if at.sum() >= 50:
                solved = np.linalg.solve(x[at].T @ x[at] + ridge * np.eye(x.shape[1]), x[at].T @ rest[at])
                worth[each, :, start : start + band] = solved.reshape(-1, fields, 1)
    return table, worth


def _game_looking_ahead(job: tuple) -> tuple[KubusValues, Sheet]:
    """One game of the advisor looking one throw ahead with this pacing."""
    game, progress, open_worth, seed = job
    values = KubusValues(sheet_rules(game), progress=progress, open_worth=open_worth)
    return values, play(values.rules, advisor(OneThrowAhead(values)), random.Random(seed))


def _samples_looking_ahead(job: tuple) -> tuple[np.ndarray, np.ndarray, float]:
    values, sheet = _game_looking_ahead(job)
    return (*progress_samples(values, sheet), sheet.total)


def _entries_looking_ahead(job: tuple) -> list:
    """The game's entries in the order made (a sheet's rules do not travel between processes)."""
    return list(_game_looking_ahead(job)[1].entries.items())


def _games(game: str, pacings: list, games: int, seed: int, round_: int, worker, workers: int) -> list:
    """`worker` over `games` games, game g played with pacing g % len(pacings); game g of round r draws its dice
    from seed * 1,000,003 + r * 10,007 + g."""
    jobs = [(game, *pacings[g % len(pacings)], seed * 1_000_003 + round_ * 10_007 + g) for g in range(games)]
    return _map(worker, jobs, workers)


def _map(worker, jobs: list, workers: int, chunksize: int = 1, hold: tuple = ()) -> list:
    """`worker` over `jobs` in `workers` processes, each first holding `_hold(*hold)` where given; one worker maps
    here. The processes start afresh (spawn): a forked one inherits the locks of the caller's threads (OpenCV's,
    BLAS's) as they were, and a lock held then is held in it forever (a test run once hung so)."""
    if workers == 1:
        if hold:
            _hold(*hold)
        return list(map(worker, jobs))
    with multiprocessing.get_context("spawn").Pool(workers, _hold if hold else None, hold) as pool:
        return pool.map(worker, jobs, chunksize=chunksize)


def learn_together(game: str, rounds: int, games: int, seed: int = 0, workers: int = 1, log=print, after_round=None):
    """Approximate policy iteration on whole games, from the shipped progress: each round the advisor, looking
    one throw ahead (as Pentakubus plays at the table), plays `games` games with the current pacing; then it is
    fitted anew (fit_together: all columns' progress drawn to the shipped one, the free columns' open fields one
    by one) to every state all rounds so far passed, and `after_round(progress, open_worth)` is told. Game g of
    round r draws its dice from seed * 1,000,003 + r * 10,007 + g, so `workers` processes learn what one does,
    and a round learns the same however many rounds follow. Returns (progress, open_worth)."""
    values = KubusValues(sheet_rules(game))
    free = free_columns(values.rules)
    pacing, is_open, surplus = (values.progress, values.open_worth), [], []
    for r in range(rounds):
        start = time.perf_counter()
        played = _games(game, [pacing], games, seed, r, _samples_looking_ahead, workers)
        is_open += [x for x, _, _ in played]
        surplus += [y for _, y, _ in played]
        log(
            f"round {r + 1}: mean {np.mean([t for *_, t in played]):.1f} over {games} games "
            f"({time.perf_counter() - start:.0f} s)"
        )
        pacing = fit_together(np.concatenate(is_open), np.concatenate(surplus), values.progress, free)
        if after_round is not None:
            after_round(*pacing)
    return pacing


_held: dict = {}


def _hold(game: str, progress: np.ndarray, open_worth: np.ndarray) -> None:
    """A worker's estimate, one throw ahead, built once (not per state)."""
    _held["ahead"] = OneThrowAhead(KubusValues(sheet_rules(game), progress=progress, open_worth=open_worth))


def _backed_up(entries: list) -> tuple[np.ndarray, float]:
    """A state's open fields, and what the next throw, played exactly against the estimate, expects beyond the
    entries and the columns' estimates (the pacing that state should have, one throw deep)."""
    ahead = _held["ahead"]
    values = ahead.estimate
    sheet = Sheet(values.rules, dict(entries))
    entered = sum(score.total for score in sheet.entries.values())
    return values.open_fields(sheet), ahead.expected_final(sheet) - entered - values.column_estimates(sheet).sum()


# The players whose games give the backup its states, as changes to the shipped pacing: fitted to the shipped
# player's states alone, two runs disagreed by more than their gain; the states of a player that keeps other
# middle fields open teach the estimate what those sheets are worth too. By default game g is played by the
# (g % 2)-th: the order the shipped table was learnt with (README.md beside this module).
PLAYERS = {
    "middle fields without their own worth": lambda progress, worth: (progress, 0 * worth),
    "shipped": lambda progress, worth: (progress, worth),
}


def backup_games(game: str, games: int, seed: int = 0, workers: int = 1, players=tuple(PLAYERS)) -> list:
    """learn_backup's games: game g played looking one throw ahead by `players`[g % len(players)] (PLAYERS), its
    dice as in learn_together's first round. Per game its entries in the order made."""
    values = KubusValues(sheet_rules(game))
    pacings = [PLAYERS[name](values.progress, values.open_worth) for name in players]
    return _games(game, pacings, games, seed, 0, _entries_looking_ahead, workers)


def fit_backup(game: str, played: list, workers: int = 1, every: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """One step of fitted value iteration from the shipped pacing: at every `every`-th state the `played` games
    passed, the pacing is fitted (fit_together, drawn to the shipped progress) to the estimate one throw later,
    the next throw solved exactly over its dice. Learnt from whole games (learn_together), the pacing of a state
    carries the noise of all the throws after it; one throw deep, only that of the estimate.
    Returns (progress, open_worth)."""
    values = KubusValues(sheet_rules(game))
    states = [made[:k] for made in played for k in range(0, len(made), every)]
    backed = _map(_backed_up, states, workers, 64, (game, values.progress, values.open_worth))
    surplus = np.zeros((len(states), len(values.rules.columns)))
    surplus[:, 0] = [y for _, y in backed]  # fit_together fits the whole: how it is split among columns is moot
    free = free_columns(values.rules)
    return fit_together(np.array([x for x, _ in backed]), surplus, values.progress, free)


def learn_backup(
    game: str, games: int, seed: int = 0, workers: int = 1, every: int = 3, players=tuple(PLAYERS), log=print
) -> tuple[np.ndarray, np.ndarray]:
    """backup_games, then fit_backup on them. Returns (progress, open_worth)."""
    start = time.perf_counter()
    played = backup_games(game, games, seed, workers, players)
    log(f"{games} games played ({time.perf_counter() - start:.0f} s)")
    pacing = fit_backup(game, played, workers, every)
    log(f"one state in {every} backed up ({time.perf_counter() - start:.0f} s)")
    return pacing


def _write_pacing(game: str, progress: np.ndarray, open_worth: np.ndarray | None = None) -> None:
    learnt = json.loads(FIELD_VALUES.read_text())
    learnt[game]["progress"] = progress.round(2).tolist()
    learnt[game].pop("open_worth", None)
    if open_worth is not None:
        learnt[game]["open_worth"] = open_worth.round(2).tolist()
    FIELD_VALUES.write_text(json.dumps(learnt))


def ship_progress(game: str, rounds: int, games: int, seed: int, log=print) -> None:
    """Learns the ordered columns' progress (learn_progress) and writes it to kubus_fields.json, two decimals
    (no open_worth)."""
    _write_pacing(game, learn_progress(sheet_rules(game), rounds, games, seed, log))


def ship_together(game: str, rounds: int, games: int, seed: int, workers: int = 1, log=print) -> None:
    """Learns the pacing of whole games from the shipped progress (learn_together) and writes it to
    kubus_fields.json, two decimals, after every round (a run stopped early keeps the rounds it finished)."""
    learn_together(game, rounds, games, seed, workers, log, after_round=lambda *pacing: _write_pacing(game, *pacing))


def ship_backup(
    game: str, games: int, seed: int, workers: int = 1, every: int = 3, players=tuple(PLAYERS), log=print
) -> None:
    """Learns the pacing one throw deep (learn_backup) and writes it to kubus_fields.json, two decimals."""
    _write_pacing(game, *learn_backup(game, games, seed, workers, every, players, log))
