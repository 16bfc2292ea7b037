"""Write the held-out rendered d10 set committed as tests/fixtures/d10-heldout (labeled-image format):

    .venv/bin/python -m vision.lab.training.d10_heldout tests/fixtures/d10-heldout --frames 60

Seeds 7_000_000 and up: no training run draws these scenes. Frames with a cocked die are skipped, so
every labeled die lies flat and has one true upper face. Dice mostly covered by the hand or by another die
are not labeled (vision.lab.render.frame: MIN_SHOWING). The committed labels mark by hand, `"legible": false`, the
four dice no person can read in the frames (a marbled swirl over the numeral, a finger over the face: listed in
vision/models/README-d10.md); a fresh write leaves that to be done again.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from ..render.training import render_scene

SEED0 = 7_000_000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--quality", type=int, default=80)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    images, seed = [], SEED0
    while len(images) < args.frames:
        image, dice = render_scene(seed, ("d10",), size=(800, 600))
        seed += 1
        if not dice or any(d["cocked"] for d in dice):
            continue
        name = f"heldout_{seed - 1}.jpg"
        cv2.imwrite(str(args.out / name), image, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        images.append({"file": name, "width": 800, "height": 600, "dice": dice})
    (args.out / "labels.json").write_text(json.dumps({"images": images}, indent=1) + "\n")


if __name__ == "__main__":
    main()
