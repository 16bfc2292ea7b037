"""A finished game looked back on: for each player, the expected points their choices left on the
table, worst decisions first. Each decision is valued as the advisor values it at that moment:
expected final score for the sheet games, expected turn points for Train Wreck (its end-game
choices, made for the chance to win, are not counted)."""

from __future__ import annotations

from dataclasses import dataclass, field

from appliance.games.sheet_game import SheetGame
from appliance.games.train_wreck import Phase, TrainWreckGame

from . import sheet_advice, train_wreck

SMALL = 0.05  # losses below this are rounding, not a decision


@dataclass(frozen=True)
class Lapse:
    loss: float
    what: str  # "throw 5: keep 6-6 (best: keep 6-6-6)"


@dataclass
class PlayerReview:
    lost: float = 0.0
    lapses: list[Lapse] = field(default_factory=list)

    def add(self, loss: float, what: str) -> None:
        if loss > SMALL:
            self.lost += loss
            self.lapses.append(Lapse(loss, what))
            self.lapses.sort(key=lambda lapse: -lapse.loss)


def review(game, actions) -> list[PlayerReview]:
    """`game`: the game as it started; `actions`: the rules' (action, args) in order, as logged."""
    reviews = [PlayerReview() for _ in game.players]
    turns = [0] * len(game.players)
    judge = _sheet_decision if isinstance(game, SheetGame) else _train_wreck_decision
    for action, args in actions:
        turns[game.current] += action == "start_throw" or action == "roll" and _turn_starts(game)
        judged = judge(game, action, args)
        if judged:
            reviews[game.current].add(
                judged[0], f"{'throw' if isinstance(game, SheetGame) else 'turn'} {turns[game.current]}: {judged[1]}"
            )
        game = game.apply(action, *args)
    return reviews


def _turn_starts(game) -> bool:
    return isinstance(game, TrainWreckGame) and game.phase == Phase.ROLL and not game.turn.points


def _sheet_decision(game: SheetGame, action: str, args) -> tuple[float, str] | None:
    if action not in ("rethrow", "enter"):
        return None
    advice = sheet_advice.advise(game)
    if action == "rethrow":
        again = set(args[0])
        keep = tuple(sorted(v for i, v in enumerate(game.throw.dice) if i not in again))
        chosen = next(c for c in advice.choices if c.keep == keep)
    else:
        chosen = next(c for c in advice.choices if (c.column, c.field) == tuple(args))
    said = sheet_advice.describe
    return advice.best.expected - chosen.expected, f"{said(game.rules, chosen)} (best: {said(game.rules, advice.best)})"


def _train_wreck_decision(game: TrainWreckGame, action: str, args) -> tuple[float, str] | None:
    t = game.turn
    values = train_wreck.turn_values(game.on_scoreboard[game.current])
    if game.phase == Phase.SET_ASIDE and action == "set_aside":
        worth = {o.dice: values.option_value(t.points, len(t.roll), o) for o in game.options}
        best = max(worth, key=worth.get)
        chosen = tuple(sorted(args[0]))
        return worth[best] - worth[chosen], f"set aside {_dice(chosen)} (best: {_dice(best)})"
    if game.phase == Phase.ROLL and game.can_bank and action in ("roll", "bank") and t.points < train_wreck.CAP:
        worth = {"bank": values.bank(t.points), "roll": values.rolling[t.to_roll][t.points // train_wreck.STEP]}
        best = max(worth, key=worth.get)
        return worth[best] - worth[action], f"{action} at {t.points} (best: {best})"
    return None


def _dice(dice) -> str:
    return "-".join(map(str, dice))
