"""A game in play as the table keeps it: which game, who plays, and the rules state from its events."""
from __future__ import annotations

from typing import Any, Mapping, Sequence, Union

from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules
from appliance.games.train_wreck import TrainWreckGame
from appliance.games.variants import resolve

GameState = Union[SheetGame, TrainWreckGame]


def new_game(game: str, players: Sequence[str], variants: Mapping[str, Any] | None = None) -> GameState:
    chosen = resolve(game, variants)
    if game == "train-wreck":
        return TrainWreckGame.new(players, goal=chosen["goal"])
    return SheetGame.new(sheet_rules(game, chosen), players)
