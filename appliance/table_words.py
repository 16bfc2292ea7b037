"""What the table says: its messages, prompts and list titles, and the small phrasings they share."""

from __future__ import annotations

from appliance.games.catalog import DICE_KIND, GAME_NAMES
from appliance.screen_model import INFO, WARN
from appliance.words import count
from vision.types import OUTSIDE

UNCHANGED = "nothing was changed, try again"  # what a write the log refused means, mostly
# The decisions a roll has to wait for (TableGame.awaited), by the first of them: a reading before it is not taken
DECIDE_FIRST = {
    "accept": "first accept the dice (OK) or choose to roll the {game.turn.combo_value}s again (NEXT): "
    "a roll is not taken before that",
    "start_salvage": "first choose: try the salvage (OK) or end the turn (BACK): a roll is not taken before that",
}
# The lists the game forces, by what they choose: a reading before the choice is not taken either
CHOOSE_FIRST = {
    "field": "first choose the field for this throw (OK): a throw is not taken before that",
    "set-aside": "first choose the dice to set aside (OK): a roll is not taken before that",
}
# What the review of a reading says, by what happened (Review.ok's answers; the table's "check", "unsure", "doubted",
# "dropped")
REVIEW_SAYS = {
    "check": ("check the reading: OK confirms", INFO),
    "unsure": ("the highlighted die is hard to read: fix it with a long PREV/NEXT, then OK", WARN),
    "doubted": ("is the highlighted die the missing one? fix it and OK, or throw again", WARN),
    "next": ("confirm the highlighted die too", INFO),
    "done": ("OK confirms the reading", INFO),
    "first": ("confirm the highlighted die first", WARN),
    "dropped": ("reading dropped: throw the dice again", INFO),
}
# The host's lists, in the menu and below the games: their titles and prompts
HOST_LISTS = {"night": "Tonight's games", "shutdown": "Shut down the table?", "game-settings": "Game settings"}
HOST_PROMPTS = {
    "night": "the games finished tonight, newest first",
    "shutdown": "OK shuts the table down, BACK goes back",
    "game-settings": "OK turns the setting under the cursor, for the games started from now on",
}
# The prompt over each list in a game, by what it is for
LIST_PROMPTS = {
    "field": "choose the field",
    "correct": "move the last entry to",
    "menu": "menu",
    "set-aside": "set aside",
    "end": "end this game? OK ends it, BACK keeps playing",
    **HOST_PROMPTS,
}


def values(dice) -> str:
    """Dice (or their values) as a player reads them: "6 6 3"."""
    return " ".join(str(getattr(d, "value", d)) for d in dice)


def column_name(rules, column: int) -> str:
    label = rules.column_label(column)
    return "" if label == "sheet" else f"({label})"


def field_label(rules, option) -> str:
    """A field in a list: "M 21 triplet", the column's initial (left, middle, right) first when there are three."""
    column = rules.column_label(option.column)[0].upper() + " " if len(rules.columns) > 1 else ""
    return f"{column}{option.field} {rules.field(option.field).name}"


def reading_problem(reading, game: str) -> str:
    """What keeps a reading from being taken in `game` whatever the game's state ("" for nothing)."""
    kind = DICE_KIND[game]
    cocked = [d for d in reading.dice if d.cocked]
    outside = [d for d in reading.dice if d.zone == OUTSIDE and not d.cocked]
    other = [d for d in reading.dice if d.kind != kind]
    if cocked:
        return (
            f"{count(len(cocked), 'die does', 'dice do')} not lie flat"
            f": throw {'it' if len(cocked) == 1 else 'them'} again"
        )
    if outside:
        return (
            f"{count(len(outside), 'die is', 'dice are')} outside the tray"
            f": throw {'it' if len(outside) == 1 else 'them'} again"
        )
    if other:
        return (
            f"{GAME_NAMES[game]} is played with {kind}s"
            f", and I see {count(len(other), other[0].kind, other[0].kind + 's')}"
        )
    return ""
