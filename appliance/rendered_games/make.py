"""`python -m appliance.rendered_games.make OUT_DIR [--only ID ...]`: render the committed fixture set.

One folder per script of appliance.rendered_games.scripts (the scenarios, then the complete games) and a small
held-out rendered still set (`stills-d10`, `stills-d6`) in the labeled-image format. Prints each
folder's size; the whole set must stay under 30 MB.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from vision.lab.render.training import render_training_set

from .play import play_script
from .scripts import GAMES, SCENARIOS

BUDGET_MB = 30.0
QUALITY = {"scenario": 75, "game": 72}
STILLS = {"stills-d6": ("d6",), "stills-d10": ("d10",)}
STILL_COUNT = 12


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--only", nargs="*", help="script ids to render (default: all)")
    args = parser.parse_args(argv)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(s, QUALITY["scenario"]) for s in SCENARIOS] + [(s, QUALITY["game"]) for s in GAMES]
    for script, quality in jobs:
        if args.only and script["id"] not in args.only:
            continue
        folder = out / script["id"]
        shutil.rmtree(folder, ignore_errors=True)
        result = play_script(script, folder, quality)
        print(
            f"{script['id']}: {len(result['record']['frames'])} frames, {len(result['record']['images'])} rests, "
            f"{folder_mb(folder):.1f} MB",
            flush=True,
        )
    for name, kinds in STILLS.items():
        if args.only and name not in args.only:
            continue
        folder = out / name
        shutil.rmtree(folder, ignore_errors=True)
        render_training_set(folder, STILL_COUNT, kinds, seed=900 + len(name), size=(800, 600), quality=80)
        print(f"{name}: {STILL_COUNT} stills, {folder_mb(folder):.1f} MB", flush=True)
    total = folder_mb(out)
    print(f"total {total:.1f} MB (budget {BUDGET_MB:.0f} MB)")
    return 0 if total <= BUDGET_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
