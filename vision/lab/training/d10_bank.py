"""Draw dice into bank files for the reader's training (see samples.BANK_SIZE):

    .venv/bin/python -m vision.lab.training.d10_bank /tmp/d10/bank --seed 1 --chunks 20
    .venv/bin/python -m vision.lab.training.d10_bank /tmp/d10/bank3 --seed 3 --chunks 20 --view handheld

Each chunk is an .npz of 1000 crops with their classes; the trainer picks up whatever chunks exist.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from . import d10_samples as samples
from . import d10_sprites as sprites


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument("--per-chunk", type=int, default=1000)
    parser.add_argument("--marbled", type=float, default=sprites.MARBLED, help="share of random looks with swirls")
    parser.add_argument("--view", choices=sorted(sprites.VIEWS), default="overhead", help="where the camera stands")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    for c in range(args.chunks):
        pool = sprites.solid_pool(rng, 40, 6, args.marbled)  # fresh random looks for every chunk
        items = [samples.bank_item(pool, rng, sprites.VIEWS[args.view]) for _ in range(args.per_chunk)]
        tmp = args.out / f"partial_{args.seed}_{c:03d}.npz"
        np.savez(tmp, crops=np.stack([i[0] for i in items]), labels=np.int64([i[1] for i in items]))
        tmp.rename(args.out / f"chunk_{args.seed}_{c:03d}.npz")
        print(f"chunk {c} written", flush=True)


if __name__ == "__main__":
    main()
