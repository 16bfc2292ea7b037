"""A game in play as the table keeps it: which game, who plays, and the rules state from its events."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules
from appliance.games.train_wreck import TrainWreckGame
from appliance.games.variants import resolve

GameState = SheetGame | TrainWreckGame


def new_game(game: str, players: Sequence[str], variants: Mapping[str, Any] | None = None) -> GameState:
    chosen = resolve(game, variants)
    if game == "train-wreck":
        return TrainWreckGame.new(players, goal=chosen["goal"])
    return SheetGame.new(sheet_rules(game, chosen), players)


def replayed(
    game: str, players: Sequence[str], variants: Mapping[str, Any] | None, events: Iterable[tuple[str, list]]
) -> tuple[GameState, tuple[int, ...] | None]:
    """A game rebuilt from its logged events, with the holds they left waiting for the next attempt (or None)."""
    state, held = new_game(game, players, variants), None
    for action, args in events:
        state, held = applied(state, held, action, args)
    return state, held


def applied(game: GameState, held: tuple[int, ...] | None, action: str, args: list):
    """One logged event on (game, held): the rules' actions, and the table's own ("hold", "release"). RuleError if
    the rules refuse it."""
    if action == "hold":
        return game, tuple(args[0])
    if action == "release":
        return game, None
    return game.apply(action, *args), None
