"""A game in play as the table keeps it: which game, who plays, and the rules state from its events."""
from __future__ import annotations

from typing import Any, Mapping, Sequence, Union

from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules
from appliance.games.train_wreck import TrainWreckGame
from appliance.games.variants import resolve

GameState = Union[SheetGame, TrainWreckGame]

# Which dice a game is played with: the reader is told, and a die of the other kind is reported.
DICE_KIND = {"dice-poker": "d6", "pentakubus": "d6", "hexakubus": "d10", "train-wreck": "d6"}


def new_game(game: str, players: Sequence[str], variants: Mapping[str, Any] | None = None) -> GameState:
    chosen = resolve(game, variants)
    if game == "train-wreck":
        return TrainWreckGame.new(players, goal=chosen["goal"])
    return SheetGame.new(sheet_rules(game, chosen), players)
