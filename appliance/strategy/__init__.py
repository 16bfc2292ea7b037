"""Advice on the rules: which dice to keep, which field to fill, whether to bank, and what it is worth.

Pure like the rules it sits on (no camera, no screen, no I/O but the shipped field values): the
table and `dicetable advise` only ask. Imports appliance.games and numpy, nothing else of the table.
"""

from __future__ import annotations

from appliance.games.sheet_game import SheetGame
from appliance.games.train_wreck import TrainWreckGame

from . import sheet_advice, train_wreck


def advise(game: SheetGame | TrainWreckGame):
    """SheetAdvice for a sheet game's throw, TurnAdvice for Train Wreck."""
    if isinstance(game, TrainWreckGame):
        return train_wreck.advise(game)
    return sheet_advice.advise(game)
