"""Train the dice finder or the face reader and export it to ONNX for cv2.dnn.

    .venv/bin/python -m vision.lab.training.train finder --datasets ../shared/datasets --minutes 12
    .venv/bin/python -m vision.lab.training.train faces  --datasets ../shared/datasets --minutes 8

Trained on the TRAIN split (vision.lab.splits) of tray-d6-photos and wood-webcam-d6 (or --sets) plus rendered scenes
(vision.lab.training.data.render_scene); the held-out photos are never seen, so their figure is honest. Photos are
drawn as often as the dice they hold (`by_die`).
Needs the `train` extra (torch, onnx); one or two CPU threads are enough.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from ...frame_reader import MODELS
from ...preprocess import FACE_SIZE
from ...reader import DiceReader
from . import data, nets, packing

SETS = ["tray-d6-photos", "wood-webcam-d6"]  # what the packaged models learned from
# Every real six-sided set whose dice the finder can place (aibox-whitebox-d6's low view boxes side faces as often
# as the top face its labels name, so it is only measured on): vision.lab.training.cross_source leaves each out in turn.
REAL_SETS = SETS + ["epanemu-dice3", "tomitomi3-gray-d6"]


class Stream(torch.utils.data.IterableDataset):
    """Endless augmented batches, from photos and a pool of rendered scenes."""

    def __init__(self, make_batch, material, seed):
        self.make_batch, self.material, self.seed = make_batch, material, seed

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng(self.seed + (info.id if info else 0))
        while True:
            yield self.make_batch(rng, **self.material)


def pick(photos, renders, rng, render_share, weights=None):
    """A rendered scene (a share `render_share`) or a photo; photos by `weights` (cumulative), default alike."""
    if rng.random() < render_share:
        return renders[int(rng.integers(0, len(renders)))]
    if weights is None:
        return photos[int(rng.integers(0, len(photos)))]
    return photos[int(np.searchsorted(weights, rng.uniform(0, weights[-1]), side="right"))]


def by_die(photos, weigh: dict[str, float] | None = None) -> np.ndarray:
    """Cumulative weights for `pick`: each photo as likely as the dice it holds (plus one for its background), so
    that a set of thousands of one-die crops weighs as its dice, not as its photos; times its set's `weigh`."""
    weigh = weigh or {}
    return np.cumsum([(len(p.boxes) + 1) * weigh.get(p.source, 1.0) for p in photos], dtype=np.float64)


def weighing(pairs: list[str]) -> dict[str, float]:
    """--weigh SET=W ... as {set: W}."""
    try:
        return {name: float(w) for name, w in (pair.split("=") for pair in pairs)}
    except ValueError:
        raise SystemExit(f"--weigh takes SET=WEIGHT pairs, not {' '.join(pairs)}") from None


def training_photos(args) -> tuple[list, list[dict]]:
    """The photos of args.sets in args.split, from the datasets or from a pack (vision.lab.training.packing), and
    the hard examples (--hard) that point into them."""
    hard = json.loads(args.hard.read_text()) if args.hard else []
    if args.pack:
        packed = [
            k for k in packing.unpack(args.pack) if k.source in args.sets and (args.split == "all" or not k.held_out)
        ]
        return [k.photo for k in packed], packing.rescaled(hard, packed)
    photos = data.load_photos(args.datasets, args.sets, args.split, data.lone_die_box(DiceReader()))
    names = {p.name for p in photos}
    return photos, [h for h in hard if h["photo"] in names]


def finder_batch(rng, photos, renders, hard, n=None, wide=0.0, turn=0.0, weights=None):
    n = n or 16
    items = [data.finder_sample(pick(photos, renders, rng, 0.35, weights), rng, wide=wide, turn=turn) for _ in range(n)]
    img = np.stack([i[0] for i in items]).transpose(0, 3, 1, 2).astype(np.float32) / 255
    return tuple(torch.from_numpy(np.stack(x) if k else img) for k, x in enumerate(zip(*items)))


def faces_batch(rng, photos, renders, hard, n=None, scenes3d=None, share3d=0.0, weights=None):
    n = n or 48
    by_name = {p.name: p for p in photos}

    def one():
        if scenes3d and rng.random() < share3d:  # 3D-rendered dice in perspective, flat or cocked
            patch, example = scenes3d[int(rng.integers(0, len(scenes3d)))]
            return data.hard_sample(patch, example, rng)
        if hard and rng.random() < 0.2:  # where the reader went wrong before
            example = hard[int(rng.integers(0, len(hard)))]
            return data.hard_sample(by_name[example["photo"]], example, rng)
        return data.face_sample(pick(photos, renders, rng, 0.2, weights), rng, rng.random() < 0.2)

    items = [one() for _ in range(n)]
    img = np.stack([i[0] for i in items]).transpose(0, 3, 1, 2).astype(np.float32) / 255
    return torch.from_numpy(img), torch.from_numpy(np.int64([i[1] for i in items]))


def finder_loss(out, heat, size, offset, mask):
    pred = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    # CenterNet's focal loss: negatives near a centre count less
    loss_pos = -(pos * (1 - pred) ** 2 * torch.log(pred)).sum()
    loss_neg = -((1 - pos) * (1 - heat) ** 4 * pred**2 * torch.log(1 - pred)).sum()
    n = pos.sum().clamp(min=1)
    m = mask.unsqueeze(1)
    loss_size = (F.l1_loss(out[:, 1:3], size, reduction="none") * m).sum() / n
    loss_off = (F.l1_loss(out[:, 3:5], offset, reduction="none") * m).sum() / n
    return (loss_pos + loss_neg) / n + 0.5 * loss_size + loss_off


def faces_loss(out, labels):
    return F.cross_entropy(out, labels, label_smoothing=0.05)


TASKS = {
    "finder": (finder_batch, finder_loss, (1, 3, 320, 320), True, "finder.onnx"),
    "faces": (faces_batch, faces_loss, (1, 3, FACE_SIZE, FACE_SIZE), False, "faces.onnx"),
}


def export(net, shape, dynamic_hw, path):
    net.eval()
    axes = {0: "n", 2: "h", 3: "w"} if dynamic_hw else {0: "n"}
    torch.onnx.export(
        net,
        torch.zeros(shape),
        str(path),
        input_names=["input"],
        output_names=["output"],
        opset_version=17,
        dynamic_axes={"input": axes},
        dynamo=False,
    )


def in_workers(stream: torch.utils.data.IterableDataset, workers: int = 1):
    """The stream's batches, cut in `workers` other processes while this one trains (0: in this one)."""
    return torch.utils.data.DataLoader(
        stream, batch_size=None, num_workers=workers, prefetch_factor=4 if workers else None
    )


def fit(
    net, batches, loss_fn, lr0: float, minutes: float, out: Path, shape, dynamic_hw: bool, device: str = "cpu"
) -> None:
    """AdamW for `minutes` (warm-up, then a cosine fall of the learning rate over the time budget), then
    the weights to out.pt and the network to out (ONNX). `device`: where torch trains ("cuda" where one is)."""
    net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=lr0, weight_decay=1e-4)
    budget, start, step, running = minutes * 60, time.time(), 0, None
    net.train()
    for batch in batches:
        done = (time.time() - start) / budget
        if done >= 1:
            break
        lr = lr0 * min(1.0, (step + 1) / 100) * 0.5 * (1 + np.cos(np.pi * done))
        for g in opt.param_groups:
            g["lr"] = lr
        batch = [t.to(device, non_blocking=True) for t in batch]
        loss = loss_fn(net(batch[0]), *batch[1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        step += 1
        if step % 50 == 0:
            print(f"step {step} {done:.0%} lr {lr:.5f} loss {running:.4f}", flush=True)
    net.cpu()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), out.with_suffix(".pt"))
    export(net, shape, dynamic_hw, out)
    print(f"wrote {out} after {step} steps", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task", choices=TASKS)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--datasets", type=Path, help="folder holding the labeled sets")
    where.add_argument("--pack", type=Path, help="or the sets packed in one file (vision.lab.training.packing)")
    parser.add_argument("--minutes", type=float, default=10.0, help="training time budget")
    parser.add_argument("--split", default="train", help="which photos to train on (train | all)")
    parser.add_argument(
        "--sets",
        nargs="+",
        default=SETS,
        help=f"the labeled sets to learn from (default: {SETS}; every real one: {REAL_SETS})",
    )
    parser.add_argument("--renders", type=int, default=300, help="rendered scenes in the pool")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes making batches")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--batch", type=int, help="samples per step (default: 16 finder, 48 faces)")
    parser.add_argument("--init", type=Path, help="start from these weights (.pt)")
    parser.add_argument(
        "--widths",
        type=int,
        nargs=5,
        help=f"faces: channels per convolution (default "
        f"{nets.FACE_WIDTHS}, or --init's; wider than --init's grows that reader, which starts out "
        "reading as it did)",
    )
    parser.add_argument(
        "--net",
        choices=["faces", "lite0"],
        default="faces",
        help="faces: the face reader's design (nets.FaceReader: the packaged one, --widths) or lite0 "
        "(nets.LiteFaceReader: EfficientNet-Lite0's first stages, from ImageNet weights)",
    )
    parser.add_argument("--hard", type=Path, help="hard examples from vision.lab.training.mine (faces only)")
    parser.add_argument(
        "--scenes3d", type=Path, nargs="+", help="folders from vision.lab.training.render3d (faces only)"
    )
    parser.add_argument(
        "--flat3d",
        type=Path,
        nargs="+",
        default=[],
        help="more such folders, of which only the examples that are not cocked are used",
    )
    parser.add_argument(
        "--cocked2d",
        type=float,
        default=0.1,
        help="faces: share of the drawn (2D) scenes' dice drawn leaning, class cocked",
    )
    parser.add_argument("--share3d", type=float, default=0.2, help="share of samples from --scenes3d")
    parser.add_argument(
        "--wide",
        type=float,
        default=0.0,
        help="finder: share of samples with dice of any size in data.WIDE_DIE_PX (bare photos of any scale)",
    )
    parser.add_argument(
        "--turn",
        type=float,
        default=0.0,
        help="finder: share of samples turned by any angle (besides quarter turns and flips)",
    )
    parser.add_argument(
        "--weigh", nargs="+", default=[], metavar="SET=W", help="draw a set's photos W times as often (default 1)"
    )
    parser.add_argument(
        "--device",
        default="cuda" if torch.cuda.is_available() else "cpu",
        help="where torch trains (default: cuda where torch sees one)",
    )
    parser.add_argument("--out", type=Path, help="ONNX file to write (default: vision/models/<task>.onnx)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    make_batch, loss_fn, shape, dynamic_hw, name = TASKS[args.task]
    out_path = args.out or MODELS / name
    photos, hard = training_photos(args)
    rng = np.random.default_rng(args.seed)
    cocked_share = args.cocked2d if args.task == "faces" else 0.0
    renders = [data.render_scene(rng, cocked_share=cocked_share) for _ in range(args.renders)]
    print(f"{len(photos)} photos, {len(hard)} hard examples, {len(renders)} renders, on {args.device}", flush=True)

    state = torch.load(args.init) if args.init else None
    if args.task == "faces" and args.net == "lite0":  # from --init's weights, else from ImageNet's
        net = nets.LiteFaceReader() if state else nets.pretrained_lite_reader()
    elif args.task == "faces":
        net = nets.FaceReader(args.widths or (nets.face_widths_of(state) if state else nets.FACE_WIDTHS))
    else:
        net = nets.DiceFinder()
    if state:
        nets.grow_into(net, state)
    weights = by_die(photos, weighing(args.weigh))
    material = {"photos": photos, "renders": renders, "hard": hard, "n": args.batch, "weights": weights}
    if args.task == "finder":
        material["wide"], material["turn"] = args.wide, args.turn
    if args.scenes3d:
        material["scenes3d"] = [e for folder in args.scenes3d for e in data.load_scene_examples(folder)]
        material["scenes3d"] += [
            e for folder in args.flat3d for e in data.load_scene_examples(folder) if e[1]["label"] != nets.COCKED
        ]
        material["share3d"] = args.share3d
        counts = np.bincount([e["label"] for _, e in material["scenes3d"]], minlength=nets.FACE_CLASSES)
        print(f"{len(material['scenes3d'])} rendered 3D examples by class {counts.tolist()}", flush=True)
    fit(
        net,
        in_workers(Stream(make_batch, material, args.seed + 1), args.workers),
        loss_fn,
        args.lr,
        args.minutes,
        out_path,
        shape,
        dynamic_hw,
        args.device,
    )


if __name__ == "__main__":
    main()
