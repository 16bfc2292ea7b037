"""`dicetable advise GAME --dice 6,6,3,2,1`: the best dice to keep, field to fill or set-aside to take."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from appliance.base.errors import DiceTableError
from appliance.commands import user_path
from appliance.games import GAME_IDS

HELP = "Advise a throw: the dice to keep or the field to fill (Train Wreck: the set-aside, bank or roll)."
SHOWN = 5  # choices listed


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=GAME_IDS)
    parser.add_argument(
        "--dice",
        type=_dice,
        metavar="V,V,...",
        help="the dice as they lie, e.g. 6,6,3,2,1 (without --log: needed; with it: the open game's own throw)",
    )
    parser.add_argument(
        "--attempt",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="which attempt of the throw the dice come from (all of them thrown in it)",
    )
    parser.add_argument(
        "--log",
        type=user_path,
        metavar="FILE",
        help="advise the current player of the open game in this game log instead of an empty sheet",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _dice(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a list of dice: give the values with commas, as 6,6,3,2,1"
        ) from None


def run(args: argparse.Namespace) -> int:
    from appliance.strategy import advise

    game = _open_game(args) if args.log else _new_game(args)
    advice = advise(game)
    report = (_train_wreck_report if args.game == "train-wreck" else _sheet_report)(game, advice)
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(report["lines"]))
    return 0


class AdviseError(DiceTableError):  # no ValueError: _open_game's handler of ValueError would rewrap it
    """Input the advice cannot be given for: said in one line, exit status 2."""


def _new_game(args):
    from appliance.session import new_game

    if args.dice is None:
        raise AdviseError("give the dice with --dice (or a game log with --log)")
    return _with_dice(new_game(args.game, ["you"]), args.dice, args.attempt)


def _with_dice(game, dice, attempt):
    """The game with these dice thrown: a sheet game's throw at `attempt`, a Train Wreck roll."""
    from appliance.games.train_wreck import TrainWreckGame

    if isinstance(game, TrainWreckGame):
        if not game.expected_dice:
            raise AdviseError(f"the game waits for a decision, not a roll: {game.prompt}")
        return game.roll(dice)
    game = replace(game, throw=None).start_throw(dice)
    for _ in range(attempt - 1):  # every die thrown again: all of them fresh in this attempt
        game = game.rethrow(range(len(dice)), dice)
    return game


def _open_game(args):
    from appliance.event_log import EventLog, LogError
    from appliance.games.variants import VariantError
    from appliance.session import replayed

    if not args.log.is_file():
        raise AdviseError(f"no game log at {args.log}")
    try:
        log = EventLog(args.log, read_only=True)
        record = log.open_game()
        if record is None:
            raise AdviseError(f"{args.log} holds no open game")
        if record.game != args.game:
            raise AdviseError(f"the open game in {args.log} is {record.game}, not {args.game}")
        game, _ = replayed(record.game, record.players, record.variants, log.events(record.id))
    except (LogError, VariantError, ValueError, TypeError, KeyError, IndexError) as error:
        raise AdviseError(f"cannot replay the open game in {args.log}: {error}") from None
    if game.is_over:
        raise AdviseError(f"the game in {args.log} is over")
    if args.dice is not None:
        return _with_dice(game, args.dice, args.attempt)
    if args.game != "train-wreck" and game.throw is None:
        raise AdviseError("the open game has no throw yet: give the dice with --dice")
    return game


def _sheet_report(game, advice) -> dict:
    from appliance.strategy.sheet_advice import describe

    rules, throw = game.rules, game.throw
    kind = "expected final score, optimal play" if advice.exact else "estimated final score"
    lines = [
        f"{rules.name}, {game.players[game.current]}: dice {_show(throw.dice)}"
        f", attempt {throw.attempt} of {rules.attempts} ({kind})"
    ]
    choices = []
    for choice in advice.choices[:SHOWN]:
        what = describe(rules, choice)
        if choice.keep is not None:
            what += f", throw {len(throw.dice) - len(choice.keep)} again"
            row = {"keep": list(choice.keep)}
        else:
            row = {
                "column": rules.column_label(choice.column),
                "field": choice.field,
                "name": rules.field(choice.field).name,
                "score": choice.score,
            }
        lines.append(f"  {choice.expected:8.2f}  {what}")
        choices.append(row | {"expected": round(choice.expected, 3)})
    return {
        "game": rules.id,
        "dice": list(throw.dice),
        "attempt": throw.attempt,
        "exact": advice.exact,
        "choices": choices,
        "lines": lines,
    }


def _train_wreck_report(game, advice) -> dict:
    t = game.turn
    lines = [
        f"Train Wreck, {game.players[game.current]}: {game.prompt} (turn points {t.points})",
        f"  advice: {advice.action.replace('_', ' ')}"
        + (f" {_show(advice.dice)}" if advice.dice else "")
        + (f" ({advice.why})" if advice.why else ""),
    ]
    for dice, expected in advice.choices[:SHOWN]:
        lines.append(f"  {expected:8.2f}  set aside {_show(dice)}")
    if advice.other is not None:
        lines.append(f"  expected turn points: {advice.expected:.2f}, the other way {advice.other:.2f}")
    return {
        "game": "train-wreck",
        "phase": str(game.phase),
        "roll": list(t.roll),
        "turn_points": t.points,
        "action": advice.action,
        "dice": list(advice.dice),
        "expected": round(advice.expected, 3),
        "other": None if advice.other is None else round(advice.other, 3),
        "why": advice.why,
        "choices": [{"dice": list(d), "expected": round(e, 3)} for d, e in advice.choices],
        "lines": lines,
    }


def _show(dice) -> str:
    return "-".join(map(str, dice))
