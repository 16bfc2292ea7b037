"""`dicetable run`: the appliance itself, as the kiosk service starts it."""

from __future__ import annotations

import argparse

from appliance.commands import add_table_options, recording_folder

HELP = "Run the table: camera, buttons and screen from the settings (the kiosk service runs this)."


def configure(parser: argparse.ArgumentParser) -> None:
    add_table_options(parser)
    parser.add_argument(
        "--record",
        type=recording_folder,
        metavar="DIR",
        help="also save the camera stream in DIR, each reading the player confirms as its labels",
    )


def run(args: argparse.Namespace) -> int:
    from appliance.run_table import run_table

    return run_table(args.settings, args.log, args.record)
