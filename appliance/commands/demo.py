"""`dicetable demo`: the whole appliance without hardware, on recorded games with scripted presses."""
from __future__ import annotations

import argparse
import sys
import tempfile
from functools import partial
from pathlib import Path

from . import output_folder

HELP = "Play the recorded demo games through the camera replay, vision, rules and screens."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--headless", type=output_folder, metavar="DIR", help="no window: write every screen as a PNG into DIR")
    parser.add_argument("--recording", type=Path, action="append", metavar="DIR",
                        help="a recorded game to play (default: the project's demo games)")
    parser.add_argument("--fast", action="store_true", help="as fast as possible instead of the recorded pace")


def run(args: argparse.Namespace) -> int:
    from appliance.assemble import demo_recordings, open_output, window_open
    from appliance.replay_game import ReplayError, replay_game
    from appliance.settings import load_settings

    recordings = args.recording or demo_recordings()
    if not recordings:
        print("dicetable demo: no recorded games found (tests/fixtures/throws in the repository)", file=sys.stderr)
        return 2
    settings, warnings = load_settings()
    notes: list[str] = []
    output = open_output(settings, args.headless, notes)
    for note in warnings + notes:
        print(note)
    # until the window is closed or Escape pressed (polled every frame, which keeps the window answering)
    playing = partial(window_open, escape_closes=True) if output.flip else (lambda: True)
    failed = 0
    for folder in recordings:
        try:
            with tempfile.TemporaryDirectory(prefix="dicetable-demo-") as scratch:   # the demo keeps no history
                sheet, table = replay_game(folder, Path(scratch) / "games.sqlite", output=output,
                                           realtime=not (args.fast or args.headless), keep_going=playing)
                table.log.close()
        except ReplayError as error:   # said, and the other recordings still play
            print(f"dicetable demo: {error}", file=sys.stderr)
            failed += 1
            continue
        totals = ", ".join(f"{p['name']} {p['total']}" for p in sheet["players"])
        print(f"{folder.name}: {sheet['game']}: {totals}")
        if not playing():
            break
    if output.png_dir:
        print(f"{len(output.saved)} screens written to {output.png_dir}")
    return 2 if failed else 1 if output.write_error else 0
