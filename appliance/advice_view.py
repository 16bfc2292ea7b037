"""What the table shows of the advisor (setting `game.advice`): the best choice for the moment and
what it is worth, beside what the player is about to do. Advice never enters anything."""

from __future__ import annotations

from appliance.games.sheet_game import SheetGame
from appliance.games.train_wreck import Phase, TrainWreckGame
from appliance.strategy import advise
from appliance.strategy.dice import kept_indices
from appliance.strategy.review import review
from appliance.strategy.sheet_advice import describe

MODES = ("off", "ask", "show")
TRAIN_WRECK_PHASES = (Phase.ROLL, Phase.SET_ASIDE, Phase.QUADRUPLE_CHOICE, Phase.TRAIN_WRECK, Phase.SALVAGE_SET_ASIDE)


def advisable(game) -> bool:
    """Whether there is a choice to advise on now."""
    if isinstance(game, SheetGame):
        return game.throw is not None and not game.is_over
    return (
        isinstance(game, TrainWreckGame)
        and game.phase in TRAIN_WRECK_PHASES
        and (game.phase != Phase.ROLL or game.can_bank)
    )


def advice_extra(game, keep_view=(), current=None) -> dict:
    """The advice as keyword arguments of game_views: "best" (the line under the dice), "focus" (the advised
    field) and "advised_keep" (the dice to keep, by index). The player's current choice: `current`, the key
    under a list's cursor ((column, field) or a set-aside's dice), else the dice in the keep zone (`keep_view`)."""
    if not advisable(game):
        return {}
    if isinstance(game, TrainWreckGame):
        advice = advise(game)
        mine = dict(advice.choices).get(tuple(current or ()))
        yours = f"; yours {mine:.0f}" if mine is not None and tuple(current) != advice.dice else ""
        return {"best": _train_wreck_line(game, advice) + yours}
    advice = advise(game)
    best, throw = advice.best, game.throw
    worth = "expected" if advice.exact else "estimated"
    extra = {"best": f"advice: {describe(game.rules, best)}, {worth} {best.expected:.0f}"}
    if best.keep is not None:
        extra["advised_keep"] = tuple(kept_indices(throw.dice, best.keep))
    else:
        extra["focus"] = (best.column, best.field)
    mine = _current(advice, throw, keep_view, current)
    if mine is not None and mine is not best:
        extra["best"] += f"; yours {mine.expected:.0f}"
    return extra


def _current(advice, throw, keep_view, field):
    """The player's current choice among the advice's: the field under the cursor, else the dice kept."""
    for choice in advice.choices:
        if field is not None and (choice.column, choice.field) == field:
            return choice
        if field is None and keep_view and choice.keep == tuple(sorted(throw.dice[i] for i in keep_view)):
            return choice
    return None


def review_lines(start, actions, worst: int = 1) -> tuple[str, ...]:
    """Per player: the expected points their choices left on the table, and the worst of them."""
    lines = []
    for name, player in zip(start.players, review(start, actions)):
        worst_ones = "; ".join(f"{lapse.what} -{lapse.loss:.1f}" for lapse in player.lapses[:worst])
        lines.append(f"{name}: {player.lost:.1f} points left on the table" + (f" ({worst_ones})" if worst_ones else ""))
    return tuple(lines)


def _train_wreck_line(game, advice) -> str:
    what = {
        "set_aside": f"set aside {_show(advice.dice)}",
        "start_salvage": "try the salvage",
        "reroll": "roll them again",
    }.get(advice.action, advice.action)
    worth = f", turn worth {advice.expected:.0f}" if advice.expected else ""
    other = f" (else {advice.other:.0f})" if advice.other is not None else ""
    return f"advice: {what}{worth}{other}" + (f": {advice.why}" if advice.why else "")


def _show(dice) -> str:
    return "-".join(map(str, dice))
