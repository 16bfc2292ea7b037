"""Train Wreck: which set-aside to take and whether to bank, by the expected points of the turn.

A dynamic program over the turn's states (turn points, dice left to roll, whether the roll is
forced), from high turn points down: every scoring step adds points, so each state only looks at
states with more points. Rolls and set-asides use the rules' own set_aside_options. Chance parts
with at most trivial choices are folded into distributions first: a triple's or quadruple's
confirmation (the quadruple's dice showing its value are accepted when they score as singles, 1s
and 5s, and thrown again otherwise) and the sequential salvage (each die set aside for the largest
expected reward). Near the end of a game, the chance to win overrides the expected points: a player
who can become the leader banks, a player behind a leader at the goal rolls on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement

from appliance.games.train_wreck import (
    ENTRY,
    MAX_CONFIRMATION_ROLLS,
    SALVAGE_TARGETS,
    SINGLES,
    Phase,
    TrainWreckGame,
    salvage_needs,
    set_aside_options,
    singles_score,
)

from .dice import _ways

STEP = 5  # every score in the game is a multiple of five
CAP = 3000  # above this many turn points the advisor banks (the table's values stop here)


def _outcomes(n: int) -> list[tuple[tuple[int, ...], float]]:
    return [(o, _ways(o) / 6**n) for o in combinations_with_replacement(range(1, 7), n)]


@cache
def confirmation(value: int, dice: int, quadruple: bool) -> tuple[tuple[float, str, int, int], ...]:
    """How confirming a triple or quadruple of `value` with `dice` dice ends: (probability, how,
    single points, scoring dice). how: "ok" (those dice are set aside), "wreck", "failed" (ten rolls
    used up: the turn scores 0) or "exception" (a triple's two dice both show the value again)."""
    ends: Counter = Counter()

    def walk(p: float, rolls: int, left: int, points: int, scoring: int) -> None:
        for outcome, q in _outcomes(left):
            showing = outcome.count(value)
            stay = [v for v in outcome if v != value]
            pts, cnt = points + singles_score(stay), scoring + sum(v in SINGLES for v in stay)
            if not quadruple and rolls == 0 and left == 2 and showing == 2:
                ends[("exception", 0, 0)] += p * q
            elif showing == 0 or (quadruple and value in SINGLES):
                accepted = showing * SINGLES.get(value, 0)
                ends[_finished(pts + accepted, cnt + (showing if accepted else 0))] += p * q
            elif rolls + 1 >= MAX_CONFIRMATION_ROLLS:
                ends[_finished(pts, cnt) if quadruple else ("failed", 0, 0)] += p * q
            else:
                walk(p * q, rolls + 1, showing, pts, cnt)

    walk(1.0, 0, dice, 0, 0)
    return tuple((p, *end) for end, p in ends.items())


def _finished(points: int, scoring: int) -> tuple[str, int, int]:
    return ("ok", points, scoring) if scoring else ("wreck", 0, 0)


@cache
def salvage_reward(held: tuple[int, ...] = ()) -> tuple[float, dict]:
    """(expected reward, {reward: probability}) of a salvage with `held` set aside, each die chosen
    for the largest expected reward."""
    if len(held) == 5:
        points = next(p for target, p, _ in SALVAGE_TARGETS if target == held)
        return float(points), {points: 1.0}
    mean, spread = 0.0, Counter()
    for outcome, q in _outcomes(5 - len(held)):
        needed = [v for v in salvage_needs(held) if v in outcome]
        if needed:
            best = max(needed, key=lambda v: salvage_reward(held + (v,))[0])
            m, dist = salvage_reward(held + (best,))
            mean += q * m
            for points, r in dist.items():
                spread[points] += q * r
    return mean, dict(spread)


def salvage_choice(held: tuple[int, ...], roll) -> int:
    return max((v for v in salvage_needs(held) if v in roll), key=lambda v: salvage_reward(held + (v,))[0])


@dataclass(frozen=True)
class TurnValues:
    """Expected turn points: rolling[n][i] of rolling n dice at turn points i*STEP (playing on as
    advised), salvage[i] of the salvage after a train wreck there."""

    on_board: bool
    rolling: dict
    salvage: list

    def bank(self, points: int) -> float:
        return points if self.on_board or points >= ENTRY else 0

    def after(self, points: int, dice: int) -> float:
        """The value of points in the turn with `dice` left to roll (0: all five scored)."""
        i = points // STEP
        if i >= len(self.salvage):
            return float(points)
        if dice == 0:  # all five scored: they must be rolled again
            return self.rolling[5][i]
        return max(self.bank(points), self.rolling[dice][i])

    def option_value(self, points: int, dice: int, option) -> float:
        """Taking `option` from a roll of `dice` dice at `points` turn points."""
        left = dice - len(option.dice)
        if option.combo in ("triple", "quadruple") and dice > 3:
            total = 0.0
            for p, how, extra, scoring in confirmation(option.dice[0], dice - 3, option.combo == "quadruple"):
                if how == "ok":
                    total += p * self.after(points + option.points + extra, dice - 3 - scoring)
                elif how == "wreck":
                    total += p * self.salvage[points // STEP]
                elif how == "exception":
                    value = option.dice[0]
                    total += p * (
                        self.after(points + option.points + 2 * SINGLES[value], 0)
                        if value in SINGLES
                        else self.after(points + option.points, 5)
                    )  # may bank or roll all five
            return total
        return self.after(points + option.points, left)

    def roll_value(self, points: int, dice: int) -> float:
        total = 0.0
        for outcome, q in _outcomes(dice):
            options = set_aside_options(outcome)
            total += q * (
                max(self.option_value(points, dice, o) for o in options) if options else self.salvage[points // STEP]
            )
        return total


@lru_cache(maxsize=2)
def turn_values(on_board: bool) -> TurnValues:
    steps = CAP // STEP + 1
    values = TurnValues(on_board, {n: [0.0] * steps for n in range(1, 6)}, [0.0] * steps)
    _, rewards = salvage_reward()
    for i in range(steps - 1, -1, -1):
        points = i * STEP
        values.salvage[i] = sum(p * values.after(points + r, 0) for r, p in rewards.items())
        for n in range(1, 6):
            values.rolling[n][i] = values.roll_value(points, n)
    return values


@dataclass(frozen=True)
class TurnAdvice:
    action: str  # "roll", "bank", "set_aside", "accept", "reroll", "start_salvage"
    dice: tuple[int, ...] = ()  # for set_aside
    expected: float = 0.0  # expected points of the turn after the advised action
    other: float | None = None  # ... and after the other choice (banking or rolling on), when there is one
    why: str = ""
    choices: tuple[tuple[tuple[int, ...], float], ...] = ()  # set-asides with their expected points, best first


def advise(game: TrainWreckGame) -> TurnAdvice:
    """The advised action in the game's current state."""
    t, me = game.turn, game.current
    values = turn_values(game.on_scoreboard[me])
    phase = game.phase
    if phase == Phase.SET_ASIDE:
        ranked = sorted(
            ((o.dice, values.option_value(t.points, len(t.roll), o)) for o in game.options), key=lambda c: -c[1]
        )
        return TurnAdvice("set_aside", ranked[0][0], ranked[0][1], choices=tuple(ranked))
    if phase == Phase.SALVAGE_SET_ASIDE:
        return TurnAdvice("set_aside", (salvage_choice(t.held, t.roll),), why="the salvage's best chance")
    if phase == Phase.QUADRUPLE_CHOICE:
        scores = t.combo_value in SINGLES
        return TurnAdvice(
            "accept" if scores else "reroll", why="they score as singles" if scores else "they score nothing"
        )
    if phase == Phase.TRAIN_WRECK:
        return TurnAdvice("start_salvage", expected=values.salvage[t.points // STEP], other=0.0)
    if not game.can_bank:
        return TurnAdvice("roll", why=game.must_roll_reason)
    bank = values.bank(t.points)
    roll = values.rolling[t.to_roll][t.points // STEP] if t.points < CAP else 0.0
    end = _end_game(game, bank)
    if end:
        return TurnAdvice(
            end[0], expected=bank if end[0] == "bank" else roll, other=roll if end[0] == "bank" else bank, why=end[1]
        )
    if bank >= roll:
        return TurnAdvice("bank", expected=bank, other=roll)
    return TurnAdvice("roll", expected=roll, other=bank)


def _end_game(game: TrainWreckGame, bank: float) -> tuple[str, str] | None:
    """Near the goal the chance to win decides, not the expected points."""
    me, scores = game.current, game.scores
    others = [s for i, s in enumerate(scores) if i != me]
    top = max(others, default=0)
    mine = scores[me] + bank
    if game.leader is not None and game.leader != me:
        if mine > top:
            return "bank", "banking passes the leader"
        return "roll", f"the leader has {top}: only passing them wins"
    if mine >= game.goal and mine > top:
        return "bank", "banking reaches the goal in the lead"
    return None


# ---------------------------------------------------------------- self-play


def banker(threshold: int = 300):
    """The baseline: takes the set-aside worth most, banks once the turn holds `threshold` points."""

    def choose(game: TrainWreckGame) -> TurnAdvice:
        t = game.turn
        match game.phase:
            case Phase.SET_ASIDE | Phase.SALVAGE_SET_ASIDE:
                return TurnAdvice("set_aside", game.options[0].dice)
            case Phase.QUADRUPLE_CHOICE:
                return TurnAdvice("accept")
            case Phase.TRAIN_WRECK:
                return TurnAdvice("start_salvage")
        return TurnAdvice("bank" if game.can_bank and t.points >= threshold else "roll")

    return choose


def play_game(policies, rng, goal: int = 1000) -> TrainWreckGame:
    """A whole game, player i choosing by policies[i], with random dice, through the rules."""
    game = TrainWreckGame.new([f"player {i + 1}" for i in range(len(policies))], goal)
    dice = lambda n: [rng.randint(1, 6) for _ in range(n)]  # noqa: E731
    while not game.is_over:
        if game.phase == Phase.ROLL_OFF:
            game = game.roll_off(dice(game.expected_dice))
            continue
        if game.expected_dice and game.must_roll:
            game = game.roll(dice(game.expected_dice))
            continue
        advice = policies[game.current](game)
        if advice.action == "roll":
            game = game.roll(dice(game.expected_dice))
        elif advice.action == "set_aside":
            game = game.set_aside(advice.dice)
        else:
            game = getattr(game, advice.action)()
    return game
