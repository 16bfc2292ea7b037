"""A game's final sheet as JSON: {"game", "players": [{"name", "entries", "bonuses", "total"}]}.

Sheet games: entries {"FIELD": points} for one column, {"COLUMN:FIELD": points} with the column's
name (left, middle, right) for three. Train Wreck has no fields: entries stay empty, "turns" lists
what each turn counted, and the sheet says whose turn it is and in which phase.
"""

from __future__ import annotations

from appliance.games.sheet_game import SheetGame
from appliance.session import GameState


def final_sheet(game_id: str, game: GameState) -> dict:
    if isinstance(game, SheetGame):
        rules = game.rules
        players = []
        for name, sheet in zip(game.players, game.sheets):

            def key(column: int, number: int) -> str:
                return str(number) if len(rules.columns) == 1 else f"{rules.column_label(column)}:{number}"

            entries = {key(c, n): score.total for (c, n), score in sorted(sheet.entries.items())}
            players.append({"name": name, "entries": entries, "bonuses": sheet.bonuses, "total": sheet.total})
        return {"game": game_id, "players": players}
    turns = {i: [] for i in range(len(game.players))}
    for result in game.history:
        turns[result.player].append(result.counted)
    return {
        "game": game_id,
        "phase": str(game.phase),
        "current": game.players[game.current],
        "players": [
            {"name": name, "entries": {}, "turns": turns[i], "bonuses": 0, "total": game.scores[i]}
            for i, name in enumerate(game.players)
        ],
    }
