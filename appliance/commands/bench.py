"""`dicetable bench TARGET [--json]`: median timings on one thread. Targets: vision; faults (not a timing: the
table killed and its log damaged, `--kills N --damaged M`, see appliance/fault_soak.py)."""
from __future__ import annotations

from . import print_figures

HELP = "time a part of the appliance on one thread (targets: vision), or inject faults (faults)"


def _vision(repeats: int) -> dict:
    import vision.bench
    import vision.d10.bench

    figures = vision.bench.run(repeats)
    figures["read_d10_ms"] = vision.d10.bench.read_ms(repeats)  # a 1280x960 frame with six d10s
    return figures


TARGETS = {"vision": _vision}
TARGETS["faults"] = None   # its own options and figures: see run()


def configure(parser) -> None:
    parser.add_argument("target", choices=sorted(TARGETS), help="what to time")
    parser.add_argument("--repeats", type=_at_least_one, default=30, help="timed runs per figure")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--kills", type=_count, default=500, metavar="N", help="faults: games stopped and started again")
    parser.add_argument("--damaged", type=_count, default=200, metavar="M", help="faults: damaged logs started on")
    parser.add_argument("--seed", type=_count, default=0, help="faults: the seed of where the faults go")


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

    if args.target == "faults":
        from appliance.fault_soak import soak

        print_figures(soak(args.kills, args.damaged, args.seed), args.json)
        return 0

    cv2.setNumThreads(1)
    print_figures(TARGETS[args.target](args.repeats), args.json)
    return 0
