"""`dicetable record OUT_DIR`: the table as usual, and everything it sees saved as a recorded game."""

from __future__ import annotations

import argparse

from appliance.commands import add_table_options, recording_folder

HELP = (
    "Play at the table while saving the camera stream; every reading the player confirms becomes the "
    "labels of its frame (a recorded-throw folder, docs/RECORDINGS.md)"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record",
        type=recording_folder,
        metavar="OUT_DIR",
        help="the folder to create, or one without a recording in it (labels.json, calibration.toml, frames)",
    )
    add_table_options(parser)


def run(args: argparse.Namespace) -> int:
    from appliance.run_table import run_table

    return run_table(args.settings, args.log, args.record)
