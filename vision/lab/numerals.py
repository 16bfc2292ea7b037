"""Six-sided dice that carry numerals instead of pips (or, the look `skull`, pips but a skull on the 1 and a crest
on the 6), drawn flat on felt: a labeled set that `dicetable evaluate` scores like any other. Such dice are what
the readers were never taught, and what the table must learn from the players' confirmations (issue 39):

    python -m vision.lab.numerals /tmp/numerals --photos 120 --look white
    dicetable evaluate /tmp/numerals --adapt 30 --json

The photos are 800 x 600, with two to five dice apart from each other, each a twelfth of the width give or take a
quarter, turned any way, on felt of a random colour.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from .render import flat
from .render.dice_d6 import Look

LOOKS = {
    "white": Look("white-numerals", (235, 235, 235), (20, 20, 20), pip_style="numeral"),
    "black": Look("black-numerals", (30, 30, 30), (240, 240, 240), pip_style="numeral"),
    "red": Look("red-numerals", (40, 40, 200), (245, 245, 245), pip_style="numeral"),
    "skull": Look("skull-symbols", (200, 228, 240), (25, 25, 25), pip_style="symbols"),  # ivory: pips, a skull, a crest
}
WIDTH, HEIGHT = 800, 600
COLUMNS, ROWS = 4, 3  # a die to a cell at most: the dice lie apart


def numeral_photo(rng: np.random.Generator, look: Look) -> tuple[np.ndarray, list[dict]]:
    """A photo and its labeled dice (labels.json's entries)."""
    felt = tuple(int(c) for c in rng.integers(30, 120, 3))
    frame = flat.surface(HEIGHT, WIDTH, colour=felt, seed=int(rng.integers(1 << 16)))
    size = WIDTH * flat.DIE_SHARE * rng.uniform(0.75, 1.25)
    dice = []
    for cell in rng.permutation(COLUMNS * ROWS)[: rng.integers(2, 6)]:
        column, row = divmod(int(cell), ROWS)
        centre = (
            WIDTH * (column + 0.5) / COLUMNS + rng.uniform(-0.1, 0.1) * WIDTH / COLUMNS,
            HEIGHT * (row + 0.5) / ROWS + rng.uniform(-0.1, 0.1) * HEIGHT / ROWS,
        )
        value = int(rng.integers(1, 7))
        box = flat.die(frame, centre, size, value, float(rng.uniform(0, 360)), look, rng)
        dice.append({"kind": "d6", "value": value, "box": [round(v, 1) for v in box], "zone": "roll", "cocked": False})
    return frame, dice


def write_numeral_set(folder: str | Path, photos: int = 120, look: str = "white", seed: int = 0) -> Path:
    """Writes numeral_NNNN.png and labels.json under `folder`; returns it."""
    if look not in LOOKS:
        raise ValueError(f"no look {look!r}: the looks are {', '.join(LOOKS)}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    images = []
    for i in range(photos):
        frame, dice = numeral_photo(rng, LOOKS[look])
        name = f"numeral_{i:04d}.png"
        cv2.imwrite(str(folder / name), frame)
        images.append({"file": name, "width": WIDTH, "height": HEIGHT, "dice": dice})
    (folder / "labels.json").write_text(json.dumps({"images": images}, indent=1), encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.lab.numerals", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the folder to write (photos and labels.json)")
    parser.add_argument("--photos", type=_count, default=120, help="how many photos (default 120)")
    parser.add_argument("--look", choices=sorted(LOOKS), default="white")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    folder = write_numeral_set(args.out, args.photos, args.look, args.seed)
    print(f"{args.photos} photos of {args.look} dice ({LOOKS[args.look].name}) in {folder}")
    return 0


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a number of photos, 1 or more, not {text!r}")
    return int(text)


if __name__ == "__main__":
    raise SystemExit(main())
