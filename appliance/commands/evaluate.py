"""`dicetable evaluate SET_DIR [--kind d6|d10] [--die-px PX] [--split all|train|heldout] [--stream] [--adapt N
[--careless P]] [--json]`: score the reader on a labeled set, or (--stream) replay recorded throws through rest
detection and the reader, or (--adapt) play a night in which the reader learns the dice confirmed."""

from __future__ import annotations

import json
import sys

from . import add_reader_options, photo_reader, print_figures, read_image, trust_line

HELP = (
    "score the dice reader on a labeled photo set: a folder with its photos and labels.json "
    '({"images": [{"file", "width", "height", "dice": [{"kind", "value", "box": [x0, y0, x1, y1]}]}]})'
)


def configure(parser) -> None:
    parser.add_argument("set_dir", metavar="SET_DIR", help="folder with labels.json and its images")
    parser.add_argument(
        "--split",
        default="all",
        choices=["all", "train", "heldout"],
        help="which photos: all, or the models' train / held-out split (vision.lab.splits)",
    )
    add_reader_options(parser, "the dice in the photos: which reader (default: the kind the labels name)", None)
    parser.add_argument(
        "--stream",
        action="store_true",
        help="SET_DIR holds recorded throws (docs/RECORDINGS.md): rest latency, readings while "
        "moving, missed rests, zones and values, as the appliance would see them",
    )
    parser.add_argument("--no-reader", action="store_true", help="with --stream: rest detection and zones only")
    parser.add_argument(
        "--adapt",
        type=_count,
        metavar="N",
        help="play a night (vision.lab.night): in a seeded order the first photos' dice, up to N, "
        "are confirmed with their labels and the reader learns them; the rest are scored with "
        "nothing learnt, after N and along the way (augmented copies are left out)",
    )
    parser.add_argument(
        "--careless",
        type=_share,
        default=0.0,
        metavar="P",
        help="with --adapt: this share of the confirmations is wrong (a misread accepted)",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.set_defaults(usage_error=parser.error)  # for what argparse cannot check alone: see run()


def _count(text: str) -> int:
    import argparse

    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of dice: give 0 or more")
    return int(text)


def _share(text: str) -> float:
    import argparse

    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0 <= share <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share: give a number from 0 to 1, e.g. 0.03")
    return share


def _fail(message: str) -> int:
    """An error, as the other commands report theirs: on stderr, named by the command; exit 2 (bad input)."""
    print(f"dicetable evaluate: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    if args.no_reader and not args.stream:  # a photo set is always scored by a reader
        args.usage_error(
            "--no-reader needs --stream: it measures recorded throws without a reader "
            "(a labeled photo set is always scored by one)"
        )
    photo_options = [
        name
        for name, given in (("--split", args.split != "all"), ("--kind", args.kind), ("--die-px", args.die_px))
        if given
    ]
    if args.careless and args.adapt is None:
        args.usage_error("--careless needs --adapt: it makes a share of a night's confirmations wrong")
    if args.stream and args.adapt is not None:
        args.usage_error("--adapt: for labeled photo sets, not with --stream")
    if args.stream and photo_options:  # a recording names its dice and carries its calibration
        args.usage_error(
            f"{', '.join(photo_options)}: for labeled photo sets, not with --stream (a recording's "
            "labels name its dice and its calibration gives their size)"
        )
    import cv2

    from vision.lab.scoring import evaluate
    from vision.lab.splits import in_split
    from vision.labels import load_labeled_set

    cv2.setNumThreads(1)
    if args.stream:
        return _stream(args)
    try:
        images = load_labeled_set(args.set_dir)
    except OSError as error:
        return _fail(f"no labeled set at {args.set_dir}: {error}")
    except ValueError as error:
        return _fail(str(error))
    if args.kind is None:  # a set labeled all d10 is read by the ten-sided reader
        kinds = {die.kind for image in images for die in image.dice}
        args.kind = "d10" if kinds == {"d10"} else "d6"
    images = [image for image in images if in_split(image, args.split)]
    if not images:  # "0/0 read correctly" would pass for a score
        split = "" if args.split == "all" else f" in the {args.split} split"
        return _fail(f"nothing to score: {args.set_dir}/labels.json lists no images{split}")
    if args.adapt is not None:
        return _night(args, images)
    try:
        scored = evaluate(images, photo_reader(args), lambda path: read_image(path)[0])
    except (OSError, ValueError) as error:  # an image missing or unreadable, or too small for --die-px
        return _fail(f"cannot score {args.set_dir}: {error}")
    score = scored.to_json()
    if args.json:
        print(json.dumps(score))
        return 0
    print(trust_line(score, score["labeled"]))
    print(
        f"{score['correct']}/{score['labeled']} dice read correctly ({score['accuracy']:.1%}), "
        f"{score['phantoms']} phantoms, {score['missed']} missed, {score['ms_per_image']} ms per image"
    )
    for true_value, row in score["confusion"].items():
        print(f"  {true_value}: " + ", ".join(f"{read}×{n}" for read, n in row.items()))
    return 0


def _night(args, images) -> int:
    from vision.lab.night import night, training_copies

    copies = training_copies(args.set_dir)
    images = [image for image in images if image.path.name not in copies]
    try:
        out = night(images, photo_reader(args), lambda path: read_image(path)[0], args.kind, args.adapt, args.careless)
    except (OSError, ValueError) as error:  # an image missing or unreadable, or too small for --die-px
        return _fail(f"cannot score {args.set_dir}: {error}")
    if args.json:
        print(json.dumps(out))
        return 0
    careless = f", {args.careless:.0%} of them wrong" if args.careless else ""
    print(
        f"a night of {len(images)} photos: {out['confirmed']} dice confirmed in the first {out['photos_confirmed']}"
        f"{careless}; the other {out['photos_scored']} photos scored"
    )
    for point in out["curve"]:
        print(f"after {point['adapt']} dice: " + trust_line(point, point["labeled"]))
    return 0


def _stream(args) -> int:
    from pathlib import Path

    from appliance.stream_measure import RecordingProblem, measure, packaged_reader

    if not Path(args.set_dir).is_dir():
        return _fail(f"no recorded throws at {args.set_dir}: no such folder")
    try:
        figures = measure(args.set_dir, None if args.no_reader else packaged_reader())
    except RecordingProblem as error:  # a recording that cannot be measured: its labels, frames or calibration
        return _fail(f"cannot measure {error.folder}: {error.problem}")
    if not figures.folders:  # "folders: 0" would pass for a measurement
        return _fail(
            f"nothing to measure: no recorded throws in {args.set_dir} (folders whose labels.json lists frames)"
        )
    out = figures.to_json()
    if not args.json and not args.no_reader:
        print(trust_line(out, out["labeled_dice"]))
    print_figures(out, args.json)
    return 0
