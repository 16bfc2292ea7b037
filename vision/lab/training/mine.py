"""Collect the reader's mistakes on TRAIN-split photos, for the face reader to learn from.

    .venv/bin/python -m vision.lab.training.mine --datasets ../shared/datasets --out hard.json

Writes phantoms (a find whose centre lies in no labeled box: class 0) and misread dice (class = the
true value), each with the crop the reader used. Held-out photos are never mined.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from ...frame_reader import MODELS
from ...labels import load_labeled_set
from ...preprocess import FACE_CONTEXT
from ...reader import DiceReader
from ...types import Die
from ..scoring import match
from ..splits import in_split
from .train import REAL_SETS, SETS


def _near_a_die(die: Die, labeled, size: float) -> bool:
    x, y = die.centre
    for lab in labeled:
        if lab.box is None:
            return True
        dx = max(lab.box[0] - x, 0.0, x - lab.box[2])
        dy = max(lab.box[1] - y, 0.0, y - lab.box[3])
        if (dx * dx + dy * dy) ** 0.5 < 0.5 * size:
            return True
    return False


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--models",
        type=Path,
        default=MODELS,
        help="folder with the finders and faces.onnx (faces_second.onnx too if there; default: the packaged models)",
    )
    parser.add_argument(
        "--sets",
        nargs="+",
        default=SETS,
        help=f"the labeled sets to mine (default: {SETS}; every real one: {REAL_SETS})",
    )
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    reader = DiceReader(args.models)
    examples = []
    for name in args.sets:
        for image in load_labeled_set(args.datasets / name):
            if not in_split(image, "train"):
                continue
            frame = cv2.imread(str(image.path))
            finds = reader.find(frame)
            probs = reader.classify(frame, finds)
            dice = [
                Die(
                    "d6",
                    int(p[1:].argmax()) + 1,
                    (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
                    "roll",
                    float(p.max()),
                )
                for (cx, cy, w, h, _), p in zip(finds, probs)
            ]
            sides = {id(d): max(f[2], f[3]) * FACE_CONTEXT for d, f in zip(dice, finds)}
            rejected = {id(d) for d, p in zip(dice, probs) if p[0] >= 0.5}
            pairs, phantoms, _ = match(dice, image.dice)
            for d in phantoms:
                if _near_a_die(d, image.dice, sides[id(d)] / FACE_CONTEXT):
                    continue  # a die found slightly off its labeled box: the finder's error, not "no die"
                examples.append(
                    {
                        "photo": f"{name}/{image.path.name}",
                        "cx": d.centre[0],
                        "cy": d.centre[1],
                        "side": sides[id(d)],
                        "label": 0,
                        "was": "kept" if id(d) not in rejected else "rejected",
                    }
                )
            for d, lab in pairs:
                if d.value != lab.value or id(d) in rejected:
                    examples.append(
                        {
                            "photo": f"{name}/{image.path.name}",
                            "cx": d.centre[0],
                            "cy": d.centre[1],
                            "side": sides[id(d)],
                            "label": lab.value,
                            "was": d.value,
                        }
                    )
    args.out.write_text(json.dumps(examples))
    print(f"{len(examples)} hard examples: {sum(e['label'] == 0 for e in examples)} phantoms")


if __name__ == "__main__":
    main()
