"""The Screen model the table shows: built from the table's state (appliance.table.Table), never kept."""

from __future__ import annotations

from appliance import advice_view
from appliance.game_views import game_views
from appliance.games.catalog import GAME_NAMES, STARTS_BY_ROLL_OFF
from appliance.games.ranking import first_placed, winners_sentence
from appliance.screen_model import CheckedDie, ChoiceView, DieView, Hint, Screen
from appliance.table_words import HOST_LISTS, HOST_PROMPTS, LIST_PROMPTS, column_name

# The button of each decision a game offers without dice (TableGame.decisions; banking: _decision_hints)
DECISION_HINTS = {
    "accept": Hint("OK", "accept"),
    "reroll": Hint("NEXT", "roll them again"),
    "start_salvage": Hint("OK", "try the salvage"),
    "decline_salvage": Hint("BACK", "end the turn"),
}


def screen(table) -> Screen:
    """What the table shows now: a function of its state (appliance.table.Table)."""
    base = dict(message=table.message, level=table.level, camera=table.camera_note, tray=table.tray_note)
    if table.mode == "choose-game" and table.choosing:
        return Screen(
            "choose-game",
            HOST_LISTS[table.choosing],
            HOST_PROMPTS[table.choosing],
            choices=tuple(table.chooser.choices),
            cursor=table.chooser.cursor,
            hints=(Hint("PREV/NEXT", "up/down"), Hint("OK", "choose"), Hint("BACK", "back")),
            **base,
        )
    if table.mode == "choose-game":
        return Screen(
            "choose-game",
            "Choose a game",
            "PREV/NEXT to choose, OK to start",
            choices=tuple(table.chooser.choices),
            cursor=table.chooser.cursor,
            hints=(Hint("PREV/NEXT", "game"), Hint("OK", "choose")),
            **base,
        )
    if table.mode == "names":
        return table.entry.screen(**base)
    if table.mode == "choose-players":
        names = table.chosen_players()
        roll_off = STARTS_BY_ROLL_OFF[table.setup_game]
        starts = ("a roll-off decides who starts" if table.count > 1 else "") if roll_off else f"{names[0]} starts"
        order = () if roll_off else (Hint("hold PREV/NEXT", "who starts"),)
        return Screen(
            "choose-players",
            f"{GAME_NAMES[table.setup_game]}: players",
            f"{table.count} player{'s' if table.count > 1 else ''}" + (f", {starts}" if starts else ""),
            choices=tuple(ChoiceView(n) for n in names),
            hints=(Hint("PREV/NEXT", "fewer/more"),)
            + order
            + (Hint("OK", "start"), Hint("hold OK", "names"), Hint("BACK", "games")),
            **base,
        )
    game_base = dict(base, game_id=table.record.game)
    if table.mode == "game-over":
        hints = (Hint("OK", "new game"),) + (
            (Hint("hold BACK", "correct the last entry"),) if table.correctable else ()
        )
        ranking = table.game.ranking
        return Screen(
            "game-over",
            "Game over",
            winners_sentence(first_placed(ranking)),
            ranking=ranking,
            hints=hints,
            **game_views(table.game, **table.game_review()),
            **game_base,
        )
    return _play_screen(table, game_base)


def _play_screen(table, base: dict) -> Screen:
    title = f"{GAME_NAMES[table.record.game]}: {table.whose_turn()}"
    extra = {"sheet_player": _sheet_shown(table)} if table.game.holds_in_tray else {"acting": table.acting()}
    if table.choosing:
        highlight = (table.chooser.chosen.key,) if table.choosing in ("field", "correct") else ()
        back = () if table.choosing == table.forced_list else (Hint("BACK", "back"),)
        hints = {"end": (Hint("OK", "end the game"), Hint("BACK", "keep playing"))}.get(
            table.choosing, (Hint("PREV/NEXT", "up/down"), Hint("OK", "choose")) + back
        )
        if table.choosing in ("field", "set-aside"):
            extra.update(_advice(table, current=table.chooser.chosen.key))
            hints += (Hint("hold NEXT", "advice"),) if table.advice == "ask" else ()
        return Screen(
            "play",
            title,
            LIST_PROMPTS[table.choosing],
            choices=tuple(table.chooser.choices),
            cursor=table.chooser.cursor,
            dice=_dice_views(table),
            hints=hints,
            **game_views(table.game, table.chooser.choices, highlight, table.choosing, **extra),
            **base,
        )
    if table.review is not None:
        return Screen(
            "play",
            title,
            "check the dice",
            dice=_review_views(table),
            hints=(
                Hint("PREV/NEXT", "select a die"),
                Hint("hold PREV/NEXT", "change its value"),
                Hint("OK", "confirm"),
                Hint("BACK", "drop"),
            ),
            **game_views(
                table.game,
                **extra,
                checked=tuple(
                    CheckedDie(tuple(d.box), v, ok)
                    for d, v, ok in zip(table.review.dice, table.review.values, table.review.confirmed)
                ),
            ),
            **base,
        )
    prompt, hints = (_sheet_prompt if table.game.holds_in_tray else _roll_prompt)(table)
    highlight = ()
    if table.throw:
        extra.update(_best_now(table))
    elif table.correctable and extra["sheet_player"] == table.game.last_entry.player:  # the entry just made
        last = table.game.last_entry
        highlight = ((last.column, last.field),)
    extra.update(_advice(table))
    return Screen(
        "play",
        title,
        prompt,
        dice=_dice_views(table),
        hints=hints + (Hint("hold BACK", "menu"),),
        **game_views(table.game, highlight=highlight, **extra),
        **base,
    )


def _sheet_shown(table) -> int:
    """Sheet games: whose sheet is shown: the last entry's player's in a correction, else the one looked at."""
    game = table.game
    if table.choosing == "correct" or table.correctable and game.throw is None and table.viewing == 0:
        return game.last_entry.player  # the entry just made stays in view until the next throw starts
    return (game.current + table.viewing) % len(game.players)


def _best_now(table) -> dict:
    """Sheet games: the best field for the throw, to mark on the sheet and name under the dice."""
    rules, best = table.game.rules, table.game.options()[0]
    return {
        "focus": (best.column, best.field),
        "best": f"best now: {best.field} {rules.field(best.field).name} "
        f"{column_name(rules, best.column)} {best.score.total}".replace("  ", " "),
    }


def _sheet_prompt(table) -> tuple[str, tuple[Hint, ...]]:
    game = table.game
    throw = game.throw
    browse = len(game.players) > 1 and len(game.rules.columns) > 1  # the other players' sheets
    others = (Hint("hold PREV/NEXT", "other sheets"),) if browse else ()
    if throw is not None and table.advice == "ask":  # hold NEXT asks the advisor during a throw
        others = ((Hint("hold PREV", "other sheets"),) if browse else ()) + (Hint("hold NEXT", "advice"),)
    if throw is None:
        hints = (Hint("BACK", "correct the last entry"),) if table.correctable else ()
        return f"throw all {game.rules.dice} dice", hints + others
    if table.held is not None:
        kept = len(table.held)
        return (
            f"attempt {throw.attempt + 1}: throw the {game.rules.dice - kept} other dice",
            (Hint("BACK", "change the holds"),),
        )
    if len(table.keep_view) == game.rules.dice:  # the rulebooks let all dice stand
        return "all dice kept: choose the field", (Hint("OK/NEXT", "choose a field"),) + others
    return (
        f"attempt {throw.attempt} of {game.rules.attempts}: push the dice you keep into the keep zone",
        (Hint("OK", "hold and throw again"), Hint("NEXT", "choose a field")) + others,
    )


def _roll_prompt(table) -> tuple[str, tuple[Hint, ...]]:
    """A game that sets dice aside (Train Wreck): its own prompt, and the decisions it offers without dice."""
    game = table.game
    if game.roll_action == "roll_off":
        return f"to choose who starts: {table.whose_turn()}, roll one die", ()
    reason = f" ({game.must_roll_reason})" if game.must_roll_reason else ""
    return game.prompt + reason, _decision_hints(game)


def _decision_hints(game) -> tuple[Hint, ...]:
    """Banking only while the rules allow it, with what it would score."""
    scores = "" if game.bank_counts else ", scores 0"
    bank = (Hint("hold OK", f"bank {game.turn.points}{scores}"),) if game.can_bank else ()
    return sum((bank if action == "bank" else (DECISION_HINTS[action],) for action in game.decisions), ())


def _dice_views(table) -> tuple[DieView, ...]:
    """The dice on the table: a sheet game's throw (those held or in the keep zone marked), else the dice lying loose
    and those set aside."""
    game, throw = table.game, table.throw
    if throw:
        held = table.held if table.held is not None else table.keep_view
        return tuple(DieView(v, held=i in held, fresh=f) for i, (v, f) in enumerate(zip(throw.dice, throw.fresh)))
    return tuple(DieView(v) for v in game.loose_dice) + tuple(DieView(v, held=True) for v in game.set_aside_dice)


def _review_views(table) -> tuple[DieView, ...]:
    review = table.review
    held = ()
    if review.action == "rethrow":
        held = tuple(DieView(table.game.throw.dice[i], held=True, fresh=False) for i in review.held)
    return held + tuple(
        DieView(v, uncertain=d.uncertain, confirmed=ok, selected=i == review.cursor)
        for i, (d, v, ok) in enumerate(zip(review.dice, review.values, review.confirmed))
    )


def _advice(table, current=None) -> dict:
    """The advice to show now, if the setting and the player ask for it (see advice_view)."""
    if table.advice == "show" or table.asked and table.advice == "ask":
        return advice_view.advice_extra(table.game, table.keep_view, current)
    return {}
