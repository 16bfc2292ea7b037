"""What the table says: its messages, prompts and list titles, and the small phrasings they share."""
from __future__ import annotations

from appliance.games.train_wreck import Phase
from appliance.words import count

UNCHANGED = "nothing was changed, try again"  # what a write the log refused means, mostly
ROLL_OFF_GAMES = ("train-wreck",)  # its rulebook: a roll-off decides who starts, not the players screen
# Train Wreck: the decision a roll has to wait for, by phase (a reading before it is not taken)
DECIDE_FIRST = {Phase.QUADRUPLE_CHOICE: "first accept the dice (OK) or choose to roll the {v}s again (NEXT): "
                                        "a roll is not taken before that",
                Phase.TRAIN_WRECK: "first choose: try the salvage (OK) or end the turn (BACK): "
                                   "a roll is not taken before that"}
# The lists the game forces, by what they choose: a reading before the choice is not taken either
CHOOSE_FIRST = {"field": "first choose the field for this throw (OK): a throw is not taken before that",
                "set-aside": "first choose the dice to set aside (OK): a roll is not taken before that"}
# The host's lists, in the menu and below the games: their titles and prompts
HOST_LISTS = {"night": "Tonight's games", "shutdown": "Shut down the table?", "game-settings": "Game settings"}
HOST_PROMPTS = {"night": "the games finished tonight, newest first", "shutdown": "OK shuts the table down, BACK goes back",
                "game-settings": "OK turns the setting under the cursor, for the games started from now on"}


def values(dice) -> str:
    """Dice (or their values) as a player reads them: "6 6 3"."""
    return " ".join(str(getattr(d, "value", d)) for d in dice)


def column_name(rules, column: int) -> str:
    label = rules.column_label(column)
    return "" if label == "sheet" else f"({label})"
