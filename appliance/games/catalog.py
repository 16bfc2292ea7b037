"""The games as the table lists them: each one's name, dice and how its start is chosen, taken from its own rules."""

from __future__ import annotations

from . import train_wreck
from .sheet_game import SheetGame
from .tables import BUILDERS

_SHEETS = {game: build() for game, build in BUILDERS.items()}  # the variants change neither name nor dice
GAME_NAMES = {**{game: rules.name for game, rules in _SHEETS.items()}, "train-wreck": train_wreck.NAME}
DICE_FACES = {**{game: rules.faces for game, rules in _SHEETS.items()}, "train-wreck": train_wreck.FACES}
# Which dice a game is played with: the reader is told, and a die of the other kind is reported.
DICE_KIND = {game: f"d{faces}" for game, faces in DICE_FACES.items()}
# Whether a roll-off decides who starts, not the order the players screen shows
STARTS_BY_ROLL_OFF = {
    **{game: SheetGame.starts_by_roll_off for game in _SHEETS},
    "train-wreck": train_wreck.TrainWreckGame.starts_by_roll_off,
}
