"""`dicetable record OUT_DIR`: the table as usual, and everything it sees saved as a recorded game."""
from __future__ import annotations

import argparse
from pathlib import Path

HELP = ("Play at the table while saving the camera stream; every reading the player confirms becomes the "
        "labels of its frame (a recorded-throw folder, docs/RECORDINGS.md)")


def configure(parser: argparse.ArgumentParser) -> None:
    from appliance.commands import recording_folder, run, user_path

    parser.add_argument("record", type=recording_folder, metavar="OUT_DIR",
                        help="the folder to create, or one without a recording in it (labels.json, calibration.toml, frames)")
    parser.add_argument("--settings", type=Path, metavar="FILE", help="the settings file (default: searched)")
    parser.add_argument("--log", type=user_path, metavar="FILE", help=run.LOG_HELP)


def run(args: argparse.Namespace) -> int:
    from appliance.commands import run as table

    return table.run(args)
