"""The rules of the four games: pure data and functions, no I/O.

Game identifiers are the same everywhere (command line, settings, logs, JSON).
"""

GAME_IDS = ("dice-poker", "pentakubus", "hexakubus", "train-wreck")
MAX_PLAYERS = 8  # RULINGS.md, all games: 1 to 8 players
