"""A person's blind read of a labeled photo set: what a careful person reads in the same photos, beside which
the reader is judged (issue 41: on sources whose dice a person reads, the reader within 2 points of it).

    python -m vision.lab.blind draw ../shared/datasets/aibox-whitebox-d6 /tmp/blind --split heldout --count 60
        /tmp/blind/photos/00.png ...: photos drawn at random, renamed; give the person this folder alone.
        /tmp/blind/labels.json: the same photos as a labeled set (the answers: keep it from the person);
        `dicetable evaluate /tmp/blind` scores the reader on them.
    python -m vision.lab.blind score /tmp/blind reads.json
        reads.json, what the person wrote: {"00": {"values": [3], "sure": true}, ...}, the values read in
        each photo (any order) and whether the person is sure of them. Prints the share of labeled dice the
        person was sure of and read right, and each photo where person and label differ (a label can slip).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

import cv2

from ..labels import load_labeled_set
from .splits import in_split


def draw(set_dir, out, split: str = "all", count: int = 60, seed: int = 41) -> int:
    """Draw `count` photos of the set's split (its augmented copies left out) into `out` (above). Returns how many."""
    out = Path(out)
    if (out / "photos").exists() and any((out / "photos").iterdir()):
        raise ValueError(f"{out / 'photos'} already holds photos: draw into a new folder")
    images = [image for image in load_labeled_set(set_dir) if in_split(image, split) and not image.augmented]
    if not images:
        raise ValueError(f"no photos in {set_dir} (split {split}) to draw")
    (out / "photos").mkdir(parents=True, exist_ok=True)
    rows = []
    for n, image in enumerate(random.Random(seed).sample(images, min(count, len(images)))):
        frame = cv2.imread(str(image.path))
        if frame is None:
            raise FileNotFoundError(f"cannot read image {image.path}")
        name = f"photos/{n:02d}.png"
        cv2.imwrite(str(out / name), frame)
        dice = [
            {"kind": d.kind, "value": d.value, "box": d.box and list(d.box), "legible": d.legible} for d in image.dice
        ]
        rows.append({"file": name, "width": image.width, "height": image.height, "dice": dice, "from": image.path.name})
    (out / "labels.json").write_text(json.dumps({"images": rows}, indent=1), encoding="utf-8")
    return len(rows)


def score(out, reads: dict) -> tuple[int, int, list[str]]:
    """(dice the person was sure of and read right, labeled dice, the photos where person and label differ)."""
    if not isinstance(reads, dict):
        raise ValueError('the reads are {"00": {"values": [3], "sure": true}, ...}')
    right, labeled, differ = 0, 0, []
    for image in load_labeled_set(out):
        said = reads.get(image.path.stem)
        if said is None:
            raise ValueError(f"no read for photo {image.path.stem}: the person reads every photo drawn")
        said = said if isinstance(said, dict) else {}
        values, sure = said.get("values"), said.get("sure")
        if not isinstance(values, list) or not isinstance(sure, bool):
            raise ValueError(
                f'photo {image.path.stem}: a read is {{"values": [3], "sure": true}}, not {reads[image.path.stem]!r}'
            )
        truth, seen = Counter(d.value for d in image.dice), Counter(values)
        labeled += sum(truth.values())
        right += sum((truth & seen).values()) if sure else 0
        if truth != seen:
            differ.append(f"{image.path.stem}: labeled {sorted(truth.elements())}, read {sorted(seen.elements())}")
    return right, labeled, differ


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.lab.blind", description=__doc__.split("\n\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)
    drawing = steps.add_parser("draw", help="draw photos for a person to read")
    drawing.add_argument("set_dir", help="a labeled photo set")
    drawing.add_argument("out", help="folder for the photos and their labels (made if missing)")
    drawing.add_argument("--split", choices=["all", "train", "heldout"], default="all")
    drawing.add_argument("--count", type=int, default=60)
    drawing.add_argument("--seed", type=int, default=41)
    scoring = steps.add_parser("score", help="score what the person read")
    scoring.add_argument("out", help="the folder `draw` wrote")
    scoring.add_argument("reads", help="the person's reads (JSON, above)")
    args = parser.parse_args(argv)
    if args.step == "draw":
        if args.count < 1:
            parser.error("--count is at least 1")
        try:
            drawn = draw(args.set_dir, args.out, args.split, args.count, args.seed)
        except (OSError, ValueError) as error:
            parser.exit(2, f"blind: {error}\n")
        print(f"{drawn} photos in {Path(args.out) / 'photos'}: give the person that folder alone")
        return 0
    try:
        reads = json.loads(Path(args.reads).read_text(encoding="utf-8"))
        right, labeled, differ = score(args.out, reads)
    except (OSError, ValueError) as error:
        parser.exit(2, f"blind: {error}\n")
    print(f"a person, sure and right: {right} of {labeled} labeled dice ({right / max(labeled, 1):.1%})")
    for line in differ:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
