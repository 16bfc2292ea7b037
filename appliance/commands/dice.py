"""`dicetable dice [--settings FILE] [--profile FILE] [--forget] [--json]`: the dice the table has learnt with its
calibration profile (appliance.learning), and forgetting them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = (
    "List the dice the table has learnt from confirmed readings with its calibration profile, per kind and "
    "value; --forget deletes them (the table then reads as it came)"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--settings", type=Path, metavar="FILE", help="the settings file (default: searched)")
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="the calibration profile (default: calibration.profile of the settings)",
    )
    parser.add_argument("--forget", action="store_true", help="delete the learnt dice of this profile")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from appliance.assemble import load_tray_profile
    from appliance.learning import LearntDice, folder_for
    from appliance.settings import load_settings

    settings, _ = load_settings(args.settings)
    path = args.profile or settings.calibration_profile
    profile, problem = load_tray_profile(path)
    if problem:  # the dice are learnt per profile: without one there are none to show
        print(
            f"dicetable dice: {problem}; dice are learnt per calibration profile (`dicetable calibrate`)",
            file=sys.stderr,
        )
        return 1
    folder = folder_for(path, profile.created)
    learnt = LearntDice(folder)
    for note in learnt.problems:
        print(f"dicetable dice: {note}", file=sys.stderr)
    counts, total = learnt.learnt.counts(), learnt.count()
    short = {kind: learnt.learnt.to_learn(kind) for kind in counts}  # a die likeliest one of these keeps its reading
    try:
        if args.forget:
            learnt.forget()
    except OSError as error:
        print(f"dicetable dice: cannot delete the learnt dice in {folder}: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(
            json.dumps(
                {
                    "profile": str(path),
                    "folder": str(folder),
                    "dice": total,
                    "forgotten": args.forget,
                    "learnt": {kind: {str(v): n for v, n in values.items()} for kind, values in counts.items()},
                    "too_few": short,
                }
            )
        )
        return 0
    made = f" (made {profile.created})" if profile.created else ""
    print(f"{total} dice learnt with the calibration profile {path}{made}, kept in {folder}")
    for kind, values in counts.items():
        few = f" (seen too few times to read by yet: {', '.join(map(str, short[kind]))})" if short[kind] else ""
        print(f"  {kind}: " + ", ".join(f"{v}×{n}" for v, n in values.items()) + few)
    if args.forget:
        print("forgotten: the table reads as it came" if total else "nothing to forget")
    return 0
