"""`dicetable bench TARGET [--json]`: median timings on one thread (vision), the advisor's self-play (strategy), or the
table killed and its log damaged (faults, `--kills N --damaged M`, see appliance/fault_soak.py)."""

from __future__ import annotations

from appliance.games import GAME_IDS

from . import print_figures

HELP = "time a part of the appliance on one thread (vision), play the advisor (strategy), or inject faults (faults)"


def _vision(args) -> dict:
    from vision.lab import bench

    figures = bench.run(args.repeats)
    figures["read_d10_ms"] = bench.read_d10_ms(args.repeats)  # a 1280x960 frame with six d10s
    return figures


def _strategy(args) -> dict:
    from appliance.strategy.bench import run

    return run(args.game, args.games, args.seed)


def _faults(args) -> dict:
    from appliance.fault_soak import soak

    return soak(args.kills, args.damaged, args.seed)


TARGETS = {"vision": _vision, "strategy": _strategy, "faults": _faults}


def configure(parser) -> None:
    parser.add_argument("target", choices=sorted(TARGETS), help="what to time")
    parser.add_argument("--repeats", type=_at_least_one, default=30, help="timed runs per figure")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--game", choices=GAME_IDS, default="dice-poker", help="strategy: the game the advisor plays")
    parser.add_argument("--games", type=_at_least_one, default=100, help="strategy: complete games per player")
    parser.add_argument(
        "--kills", type=_count, default=500, metavar="N", help="faults: games stopped and started again"
    )
    parser.add_argument("--damaged", type=_count, default=200, metavar="M", help="faults: damaged logs started on")
    parser.add_argument(
        "--seed", type=_count, default=1, help="strategy, faults: the seed of the dice and of the faults"
    )


def _at_least_one(text: str) -> int:
    import argparse

    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of runs: give 1 or more")
    return int(text)


def _count(text: str) -> int:
    import argparse

    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a count: give 0 or more")
    return int(text)


def run(args) -> int:
    import cv2

    cv2.setNumThreads(1)
    print_figures(TARGETS[args.target](args), args.json)
    return 0
