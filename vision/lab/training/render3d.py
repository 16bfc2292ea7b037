"""Face-reader examples from the 3D renderer (vision.lab.render): flat dice seen in perspective, with side
faces and shadows, and dice leaning (cocked), each cropped where the finder puts it, as at inference.

    .venv/bin/python -m vision.lab.training.render3d --out /tmp/r3d --scenes 600 --seed 500000

Writes <out>/<seed>.jpg and <out>/examples.json: [{"photo", "cx", "cy", "side", "label"}], label
0 = no die (a find on no die), 1..6 = a flat die's value, 7 = COCKED (the die under the crop leans).
Seeds 500000 and up: far from the seeds the committed recordings (appliance/rendered_games) use.
More dice lean here (--lean) than in vision.lab.render.training.render_scene, so the class is not rare.
--oblique: a share of scenes seen from the side (OBLIQUE_DEG above the felt), as photos taken beside a table are;
a flat die there still shows its top face's value, with side faces as large beside it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from ...frame_reader import MODELS
from ...preprocess import FACE_CONTEXT
from ...reader import DiceReader
from ..render.training import render_random
from .nets import COCKED

OBLIQUE_DEG = (30.0, 65.0)  # --oblique: the camera's angle above the felt


def scene_d6(seed: int, lean_share: float, size=(960, 720), lean_min: float = 10.0, elevation: float | None = None):
    """A random tray scene with 1..7 d6, `lean_share` of them leaning lean_min..40 degrees, seen from straight
    above or from `elevation` degrees above the felt: (image, labels, die_px)."""
    scene, image, labels = render_random(
        seed,
        ("d6",),
        size,
        lean_share=lean_share,
        lean_deg=(lean_min, 40.0),
        touch_share=0.25,
        hand_share=0.0,
        elevation_deg=elevation,
    )
    return image, labels, scene.die_px()


def examples_of(reader: DiceReader, image, labels, die_px, name: str) -> list[dict]:
    finds = reader.find(image, die_px)
    boxes = np.float32([d["box"] for d in labels]).reshape(-1, 4)
    out, used = [], set()
    for cx, cy, w, h, _ in finds:
        inside = np.nonzero((boxes[:, 0] <= cx) & (cx <= boxes[:, 2]) & (boxes[:, 1] <= cy) & (cy <= boxes[:, 3]))[0]
        if len(inside):
            centres = (boxes[inside, :2] + boxes[inside, 2:]) / 2
            j = int(inside[np.argmin(np.hypot(centres[:, 0] - cx, centres[:, 1] - cy))])
            if j in used:
                continue
            used.add(j)
            label = COCKED if labels[j]["cocked"] else int(labels[j]["value"])
        else:
            label = 0
        out.append(
            {"photo": name, "cx": float(cx), "cy": float(cy), "side": float(max(w, h) * FACE_CONTEXT), "label": label}
        )
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenes", type=int, default=600)
    parser.add_argument("--seed", type=int, default=500000)
    parser.add_argument("--lean", type=float, default=0.3, help="share of dice that lean")
    parser.add_argument("--lean-min", type=float, default=10.0, help="least lean, degrees (up to 40)")
    parser.add_argument(
        "--oblique",
        type=float,
        default=0.0,
        help=f"share of scenes seen from the side, {OBLIQUE_DEG[0]:g}..{OBLIQUE_DEG[1]:g} degrees above the felt "
        "(photos taken beside a table; the appliance looks straight down)",
    )
    parser.add_argument(
        "--oblique-deg", type=float, nargs=2, default=OBLIQUE_DEG, help="the side views' angles above the felt"
    )
    parser.add_argument(
        "--side-asks",
        action="store_true",
        help="label every die of a side view cocked (asked): seen so low, which face is up is a matter of which "
        "way the picture is held, and the reader learns any rotation",
    )
    parser.add_argument(
        "--models",
        type=Path,
        default=MODELS,
        help="folder with the finders and faces.onnx (faces_second.onnx too if there; default: the packaged models)",
    )
    args = parser.parse_args(argv)
    assert args.seed >= 500000, "seeds below 500000 may be the committed recordings' own"
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    reader = DiceReader(args.models)
    rng = np.random.default_rng(args.seed)
    examples = []
    for k in range(args.scenes):
        seed = args.seed + k
        size = (800, 600) if rng.random() < 0.5 else (960, 720)
        elevation = float(rng.uniform(*args.oblique_deg)) if args.oblique and rng.random() < args.oblique else None
        image, labels, die_px = scene_d6(seed, args.lean, size, args.lean_min, elevation)
        if elevation is not None and args.side_asks:
            labels = [dict(label, cocked=True) for label in labels]
        name = f"{seed}.jpg"
        cv2.imwrite(str(args.out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        # the appliance finds dice at the calibrated size; photo sets are read without one
        examples += examples_of(reader, image, labels, die_px if rng.random() < 0.75 else None, name)
        if k % 50 == 49:
            (args.out / "examples.json").write_text(json.dumps(examples))
            counts = np.bincount([e["label"] for e in examples], minlength=COCKED + 1)
            print(f"{k + 1} scenes, examples by class {counts.tolist()}", flush=True)
    (args.out / "examples.json").write_text(json.dumps(examples))
    print(f"{len(examples)} examples", flush=True)


if __name__ == "__main__":
    main()
