"""Close-ups cut from a labeled photo set: each die with a rim of its surroundings, blown up as if photographed
from close by, written as a labeled set of its own that `dicetable evaluate` scores like any other:

    python -m vision.lab.closeups ../shared/datasets/tray-d6-photos /tmp/tray-close --split heldout --die-share 0.8
    dicetable evaluate /tmp/tray-close --json

A close-up should read as well as the same die small in the wide photo (issue 41): a crop of one die (die share
0.8 and more) is what a phone held over a die, or another reader's crop, gives. Another die wholly in the picture
is labeled too; a close-up that cuts another die in part is left out (that die could be neither read nor missed).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from ..labels import load_labeled_set
from .splits import in_split


def close_up(frame, box, die_share: float, side: int):
    """The die in `box` with its surroundings, cut out (within the frame) and blown up so that it spans
    `die_share` of the picture's side (`side` px). Returns the picture and how a box moves into it (`moved`)."""
    x0, y0, x1, y1 = box
    cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) / die_share / 2
    left, top = int(max(0, cx - half)), int(max(0, cy - half))
    cut = frame[top : int(cy + half), left : int(cx + half)]
    k = side / max(cut.shape[:2])
    return cv2.resize(cut, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC), (left, top, k)


def moved(box, move) -> tuple[float, float, float, float]:
    """A box of the photo in its close-up (`close_up`'s move)."""
    left, top, k = move
    return (box[0] - left) * k, (box[1] - top) * k, (box[2] - left) * k, (box[3] - top) * k


def _inside(box, width: int, height: int) -> bool | None:
    """True: wholly in the picture; False: wholly outside; None: cut by its edge."""
    if box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height:
        return True
    return None if box[0] < width and box[1] < height and box[2] > 0 and box[3] > 0 else False


def write_close_ups(set_dir, out, split: str = "all", die_share: float = 0.8, side: int = 224) -> tuple[int, int]:
    """Every boxed die of the set's split (the set's augmented copies left out) as a close-up in `out`, with its
    labels.json. Returns (close-ups written, left out because they cut another die)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows, cut = [], 0
    for image in load_labeled_set(set_dir):
        if not in_split(image, split) or image.augmented:
            continue
        frame = cv2.imread(str(image.path))
        if frame is None:
            raise FileNotFoundError(f"cannot read image {image.path}")
        for n, die in enumerate(image.dice):
            if die.box is None:
                continue
            picture, move = close_up(frame, die.box, die_share, side)
            height, width = picture.shape[:2]
            others = [(other, moved(other.box, move)) for other in image.dice if other.box and other is not die]
            if any(_inside(box, width, height) is None for _, box in others):
                cut += 1
                continue
            dice = [(die, moved(die.box, move))] + [(o, box) for o, box in others if _inside(box, width, height)]
            name = f"{image.path.stem}_{n}.png"
            cv2.imwrite(str(out / name), picture)
            rows.append(
                {
                    "file": name,
                    "width": width,
                    "height": height,
                    "dice": [
                        {"kind": d.kind, "value": d.value, "box": [round(v, 1) for v in box], "legible": d.legible}
                        for d, box in dice
                    ],
                }
            )
    (out / "labels.json").write_text(json.dumps({"images": rows}, indent=1), encoding="utf-8")
    return len(rows), cut


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.lab.closeups", description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir", help="a labeled photo set (labels.json with boxes)")
    parser.add_argument("out", help="folder for the close-ups and their labels.json (made if missing)")
    parser.add_argument("--split", choices=["all", "train", "heldout"], default="all")
    parser.add_argument("--die-share", type=float, default=0.8, help="the die's share of the picture's side")
    parser.add_argument("--side", type=int, default=224, help="the picture's longer side, px")
    args = parser.parse_args(argv)
    if not 0 < args.die_share <= 1 or args.side < 32:
        parser.error("--die-share lies in (0, 1] and --side is at least 32 px")
    written, cut = write_close_ups(args.set_dir, args.out, args.split, args.die_share, args.side)
    print(f"{written} close-ups in {args.out} ({cut} left out: they cut another die)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
