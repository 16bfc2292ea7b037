"""Train the d10 finder or value reader and export it to ONNX for cv2.dnn.

    .venv/bin/python -m vision.lab.training.d10_bank /tmp/d10/bank --chunks 40            # dice for the reader
    .venv/bin/python -c "from vision.lab.render.training import render_training_set as r
        r('/tmp/d10/pool/a', 150, ('d10',), seed=101)"
    .venv/bin/python -m vision.lab.training.d10_train finder --renders /tmp/d10/pool/a --minutes 12
    .venv/bin/python -m vision.lab.training.d10_train reader --bank /tmp/d10/bank --renders /tmp/d10/pool/a --minutes 14
    (reader: --closeups 400 --hard 0.08 adds "no die" crops of one numeral of a big sharp die and of heaps of dice)
    (--bank takes several folders; --widths with --init grows a trained reader; README-d10.md lists the runs
    behind the packaged weights)

Trained on rendered material only (vision.lab.render's d10 and d6 solids: its 9 looks and 6 fonts plus
random colours, fonts, stroke weights and 6/9 marks; tray scenes from vision.lab.render.training). No
photograph is trained on: ../shared/datasets/cloth-d10-photos stays a test. The finder starts from
the six-sided finder's weights (vision/models/finder.pt) and learns the d10's outline.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from ...d10.crops import READ_SIZE
from ...frame_reader import MODELS
from . import d10_samples as samples
from . import d10_sprites as sprites
from . import data
from . import nets as d6_nets
from .d10_nets import WIDTHS, D10Reader, load_reader
from .train import finder_loss, fit, in_workers

SIX_SIDED_SETS = ("tray-d6-photos", "wood-webcam-d6")  # real dice for the "six-sided die" class


class FinderStream(torch.utils.data.IterableDataset):
    def __init__(self, renders, seed, batch):
        self.renders, self.seed, self.batch = renders, seed, batch

    def __iter__(self):
        rng = np.random.default_rng(self.seed)
        pool = sprites.solid_pool(rng, 30, 8)
        while True:
            items = [samples.finder_sample(pool, self.renders, rng) for _ in range(self.batch)]
            img = np.stack([i[0] for i in items]).transpose(0, 3, 1, 2).astype(np.float32) / 255
            yield tuple(torch.from_numpy(np.stack(x) if k else img) for k, x in enumerate(zip(*items)))


class ReaderBatches(torch.utils.data.IterableDataset):
    """Batches re-cut from the bank (re-read as new chunks appear) and from rendered tray scenes."""

    def __init__(
        self,
        banks: list[Path],
        renders,
        seed,
        batch,
        closeups: int = 0,
        hard: float = 0.0,
        photos=(),
        photo_share: float = 0.0,
    ):
        self.banks, self.renders, self.batch, self.hard = banks, renders, batch, hard
        self.photos, self.photo_share = list(photos), photo_share
        self.rng = np.random.default_rng(seed)
        self.loaded, self.crops, self.labels = set(), [], []
        # big sharp dice for numeral-sized "no die" crops (drawn once: ~0.1 s each)
        pool = sprites.solid_pool(self.rng, 40, 4) if closeups else []
        self.closeups = [samples.closeup_item(pool, self.rng) for _ in range(closeups)]
        self.heaps = [p for p in renders if len(p.boxes) >= 2]
        self.drawn = 0

    def __iter__(self):
        return self

    def refresh(self):
        new = sorted(f for bank in self.banks for f in bank.glob("chunk_*.npz") if f not in self.loaded)
        for f in new:
            z = np.load(f)
            self.crops.append(z["crops"])
            self.labels.append(z["labels"])
            self.loaded.add(f)
        if new:
            self.all_crops, self.all_labels = np.concatenate(self.crops), np.concatenate(self.labels)
            print(f"bank: {len(self.all_labels)} dice", flush=True)

    def __next__(self):
        if self.drawn % 100 == 0:  # the bank may be growing beside the training
            self.refresh()
        self.drawn += 1
        rng, items = self.rng, []
        for _ in range(self.batch):
            u = rng.random() / max(self.hard, 1e-9)
            if self.closeups and u < 0.5:  # hard negatives: a close-up of one numeral, a heap of dice
                img, box = self.closeups[int(rng.integers(len(self.closeups)))]
                items.append(samples.numeral_crop(img, box, rng))
                continue
            if self.heaps and u < 1:
                photo = self.heaps[int(rng.integers(len(self.heaps)))]
                item = samples.heap_crop(photo.image, photo.boxes, rng)
                if item is not None:
                    items.append(item)
                    continue
            if self.photos and rng.random() < self.photo_share:  # real six-sided dice, real surfaces
                items.append(samples.photo_item(self.photos[int(rng.integers(len(self.photos)))], rng))
                continue
            if self.renders and rng.random() < 0.25:
                photo = self.renders[int(rng.integers(len(self.renders)))]
                if rng.random() < 0.1 or not len(photo.boxes):
                    items.append(samples.negative_crop(photo.image, photo.boxes, rng))
                else:
                    i = int(rng.integers(len(photo.boxes)))
                    items.append(samples.crop_around(photo.image, photo.boxes[i], rng, int(photo.values[i])))
            else:
                i = int(rng.integers(len(self.all_labels)))
                items.append(samples.from_bank(self.all_crops[i], int(self.all_labels[i]), rng))
        img = np.stack([i[0] for i in items]).transpose(0, 3, 1, 2).astype(np.float32) / 255
        return torch.from_numpy(img), torch.from_numpy(np.int64([i[1] for i in items]))


def reader_loss(out, labels):
    return torch.nn.functional.cross_entropy(out, labels, label_smoothing=0.05)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task", choices=["finder", "reader"])
    parser.add_argument("--renders", type=Path, nargs="*", default=[], help="rendered scene folders (labels.json)")
    parser.add_argument("--bank", type=Path, nargs="*", default=[], help="banks of drawn dice (reader)")
    parser.add_argument("--minutes", type=float, default=12.0)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--batch", type=int)
    parser.add_argument("--init", type=Path, help="start from these weights (.pt)")
    parser.add_argument(
        "--widths",
        type=int,
        nargs=5,
        help=f"reader: channels per stage (default {WIDTHS}, or "
        "--init's; wider than --init's grows that reader, which starts out reading as it did)",
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--closeups", type=int, default=0, help="reader: big dice drawn for numeral close-up negatives")
    parser.add_argument(
        "--photos",
        type=Path,
        help="reader: the folder of the labeled six-sided photo sets; their "
        "TRAIN split's dice teach the six-sided class (and their surfaces 'no die')",
    )
    parser.add_argument("--photo-share", type=float, default=0.2, help="reader: share of --photos crops in a batch")
    parser.add_argument(
        "--hard",
        type=float,
        default=0.0,
        help="reader: share of hard no-die crops (half numeral close-ups, half heaps of dice)",
    )
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    renders = samples.load_renders([r for r in args.renders if (r / "labels.json").exists()])
    print(f"{len(renders)} rendered scenes", flush=True)
    if args.task == "finder":
        net = d6_nets.DiceFinder()
        net.load_state_dict(torch.load(args.init or MODELS / "finder.pt"))
        batches = in_workers(FinderStream(renders, args.seed + 1, args.batch or 16))
        loss_fn, shape, dynamic, out = finder_loss, (1, 3, 320, 320), True, args.out or MODELS / "d10_finder.onnx"
    else:
        net = load_reader(args.init, args.widths) if args.init else D10Reader(args.widths or WIDTHS)
        photos = data.load_photos(args.photos, list(SIX_SIDED_SETS), "train") if args.photos else []
        print(f"{len(photos)} six-sided photos", flush=True)
        stream = ReaderBatches(
            args.bank, renders, args.seed + 1, args.batch or 64, args.closeups, args.hard, photos, args.photo_share
        )
        print(f"{len(stream.closeups)} close-up dice, {len(stream.heaps)} scenes with neighbouring dice", flush=True)
        batches = in_workers(stream)
        loss_fn, shape, dynamic, out = (
            reader_loss,
            (1, 3, READ_SIZE, READ_SIZE),
            False,
            args.out or MODELS / "d10_reader.onnx",
        )
    fit(net, batches, loss_fn, args.lr, args.minutes, out, shape, dynamic)


if __name__ == "__main__":
    main()
