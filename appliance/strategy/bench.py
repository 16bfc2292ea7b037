"""`dicetable bench strategy`: the advisor and a baseline play complete games; their scores, the
seconds per game and the slowest advice."""

from __future__ import annotations

import random
import time

from appliance.games.tables import sheet_rules

from . import dice_poker, selfplay, train_wreck
from .sheet_advice import advise_throw


def run(game: str, games: int, seed: int = 1) -> dict:
    if game == "train-wreck":
        return _train_wreck(games, seed)
    rules = sheet_rules(game)
    start = time.perf_counter()
    selfplay.play(rules, selfplay.advisor(), random.Random(-1))  # builds the tables first: not timed below
    figures = {"game": game, "games": games, "first_game_s": round(time.perf_counter() - start, 2)}
    if game == "dice-poker":  # the exact solution's value from an empty sheet, which self-play should come near
        figures["solution_expected"] = round(float(dice_poker.future_table()[0]), 4)
    timed = _timed(lambda r, s, t: advise_throw(r, s, t).best)
    for name, policy in (("advisor", timed), ("greedy", selfplay.greedy)):
        figures |= {f"{name}_{k}": v for k, v in selfplay.measure(rules, policy, games, seed).items()}
    return figures | _slowest(timed)


def _train_wreck(games: int, seed: int) -> dict:
    start = time.perf_counter()
    train_wreck.turn_values(True), train_wreck.turn_values(False)
    build = time.perf_counter() - start
    rng, wins = random.Random(seed), 0.0
    timed = _timed(train_wreck.advise)
    players = (timed, train_wreck.banker(300))
    start = time.perf_counter()
    for g in range(games):
        seats = players if g % 2 == 0 else players[::-1]  # the roll-off decides who starts; seats alternate too
        winners = train_wreck.play_game(seats, rng).winners
        advisor_seat = f"player {1 + seats.index(timed)}"
        wins += (advisor_seat in winners) / len(winners)
    rate = wins / games
    return {
        "game": "train-wreck",
        "games": games,
        "opponent": "banks at 300 or more, takes the set-aside worth most",
        "advisor_win_rate": round(rate, 4),
        "win_rate_se": round((rate * (1 - rate) / games) ** 0.5, 4),
        "seconds_per_game": round((time.perf_counter() - start) / games, 4),
        "table_build_s": round(build, 2),
    } | _slowest(timed)


def _timed(advise):
    """`advise`, remembering how long each call took."""

    def call(*args):
        start = time.perf_counter()
        try:
            return advise(*args)
        finally:
            call.times.append(time.perf_counter() - start)

    call.times = []
    return call


def _slowest(timed) -> dict:
    times = sorted(timed.times)
    return {"advice_ms_median": round(1000 * times[len(times) // 2], 2), "advice_ms_max": round(1000 * times[-1], 2)}
