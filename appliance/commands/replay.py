"""`dicetable replay FOLDER`: a recorded game through vision, the table and the rules, headless."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from appliance.words import count

from . import output_folder

HELP = "Play a recorded game (frames and scripted presses) headless and print its final sheet."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", type=Path, help="a recorded game: labels.json with frames, game and presses")
    parser.add_argument("--json", action="store_true", help="print the final sheet as JSON")
    parser.add_argument(
        "--screens", type=output_folder, metavar="DIR", help="also write every screen as a PNG into DIR"
    )


def run(args: argparse.Namespace) -> int:
    from appliance.replay_game import replay_game

    with tempfile.TemporaryDirectory(prefix="dicetable-replay-") as scratch:  # a replay keeps no history
        sheet, table = replay_game(args.folder, Path(scratch) / "games.sqlite", screens=args.screens)
        table.log.close()
    if args.json:
        print(json.dumps(sheet))
    else:
        for player in sheet["players"]:
            print(
                f"{player['name']}: {player['total']} ({count(len(player['entries']), 'entry', 'entries')}"
                f", bonuses {player['bonuses']})"
            )
        if table.message:
            print(f"last message: {table.message}")
    return 0
