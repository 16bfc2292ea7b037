"""`dicetable bench TARGET [--json]`: median timings on one thread. Targets: vision, strategy."""
from __future__ import annotations

from appliance.games import GAME_IDS

from . import print_figures

HELP = "time a part of the appliance on one thread (targets: vision, strategy)"


def _vision(args) -> dict:
    import vision.bench
    import vision.d10.bench

    figures = vision.bench.run(args.repeats)
    figures["read_d10_ms"] = vision.d10.bench.read_ms(args.repeats)  # a 1280x960 frame with six d10s
    return figures


def _strategy(args) -> dict:
    from appliance.strategy.bench import run

    return run(args.game, args.games, args.seed)


TARGETS = {"vision": _vision, "strategy": _strategy}


def configure(parser) -> None:
    parser.add_argument("target", choices=sorted(TARGETS), help="what to time")
    parser.add_argument("--repeats", type=_at_least_one, default=30, help="timed runs per figure")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--game", choices=GAME_IDS, default="dice-poker", help="strategy: the game the advisor plays")
    parser.add_argument("--games", type=_at_least_one, default=100, help="strategy: complete games per player")
    parser.add_argument("--seed", type=int, default=1, help="strategy: the dice's random seed")


def _at_least_one(text: str) -> int:
    import argparse

    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of runs: give 1 or more")
    return int(text)


def run(args) -> int:
    import cv2

    cv2.setNumThreads(1)
    print_figures(TARGETS[args.target](args), args.json)
    return 0
