"""`dicetable demo`: the whole appliance without hardware, on recorded games with scripted presses."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import output_folder

HELP = (
    "Play the recorded demo games through the camera replay, vision, rules and screens, then show every other "
    "kind of screen (names, menus, field lists, Train Wreck, game over); Escape or closing the window ends it."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--headless", type=output_folder, metavar="DIR", help="no window: write every screen as a PNG into DIR"
    )
    parser.add_argument(
        "--recording",
        type=Path,
        action="append",
        metavar="DIR",
        help="a recorded game to play (default: the project's demo games)",
    )
    parser.add_argument("--fast", action="store_true", help="as fast as possible instead of the recorded pace")


def run(args: argparse.Namespace) -> int:
    from appliance.demo import play_demo

    return play_demo(args.recording, args.headless, args.fast)
