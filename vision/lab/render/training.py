"""Rendered training and test material in the labeled-image format (../shared/datasets/README.md):
still frames of random scenes with dice of every look, d6 and/or d10, some touching, some cocked,
a hand now and then; no restriction on contrast with the felt."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from . import dice_d6, dice_d10, layout
from .camera import Camera
from .frame import DieState, render_frame
from .hand import SKINS, Hand
from .scene import Scene


def render_scene(seed: int, kinds: Sequence[str] = ("d6", "d10"), size=(960, 720)) -> tuple[np.ndarray, list[dict]]:
    """A random still: (frame, labels of the dice that show)."""
    _, image, labels = render_random(seed, kinds, size)
    return image, labels


def render_random(
    seed: int,
    kinds: Sequence[str] = ("d6", "d10"),
    size=(960, 720),
    lean_share: float = 0.05,
    lean_deg: tuple[float, float] = (20.0, 35.0),
    touch_share: float = 0.2,
    hand_share: float = 0.1,
    elevation_deg: float | None = None,
):
    """(scene, frame, labels) of a random still: 1..7 dice of one kind, `lean_share` of them leaning by
    `lean_deg`, `touch_share` of the flat ones touching the last die placed, a hand in `hand_share` of frames.
    `elevation_deg`: the camera looks at the tray from that angle above the felt (90: straight down), as a phone
    held beside a table does, from a side drawn at random."""
    rng = np.random.default_rng(seed)
    scene = Scene.random(seed, size=size)
    if elevation_deg is not None:
        scene = scene.with_(camera=seen_from(scene.camera, elevation_deg, float(rng.uniform(0, 2 * np.pi))))
    kind = str(rng.choice(list(kinds)))
    looks, make = (dice_d6.LOOKS, dice_d6.make_d6) if kind == "d6" else (dice_d10.LOOKS, dice_d10.make_d10)
    dice, taken = [], []
    for i in range(int(rng.integers(1, 8))):
        solid = make(looks[int(rng.integers(len(looks)))], scene.die_mm, seed=i)
        value = int(rng.integers(1, 7 if kind == "d6" else 11))
        lean = float(rng.uniform(*lean_deg)) if rng.random() < lean_share else 0.0
        yaw = layout.yaw_for(rng)
        rotation = layout.resting_rotation(solid, value, yaw, lean, yaw)
        zone = "keep" if rng.random() < 0.25 else "roll"
        if taken and rng.random() < touch_share and not lean:
            spot = layout.touching(solid, taken[-1], yaw, rng)
        else:
            try:
                spot = layout.free_spot(scene, solid, taken, rng, zone)
            except ValueError:
                continue
        taken.append(spot)
        dice.append(DieState(solid, rotation, (spot[0], spot[1], -solid.lowest(rotation)), id=i))
    hand = None
    if rng.random() < hand_share:
        hand = Hand(
            (float(rng.uniform(-120, 120)), float(rng.uniform(-80, 80))),
            side=str(rng.choice(["bottom", "left", "right"])),
            skin=SKINS[int(rng.integers(len(SKINS)))],
        )
    image, labels = render_frame(scene, dice, hand, noise_seed=seed)
    return scene, image, [lab.to_json() for lab in labels if lab.visible]


def seen_from(camera: Camera, elevation_deg: float, azimuth: float) -> Camera:
    """The camera moved, at the same distance from what it looks at, to `elevation_deg` above the felt."""
    target = np.asarray(camera.target, np.float64)
    distance = float(np.linalg.norm(np.subtract(camera.position, target)))
    e = np.radians(elevation_deg)
    offset = distance * np.array([np.cos(e) * np.cos(azimuth), np.cos(e) * np.sin(azimuth), -np.sin(e)])
    return replace(camera, position=tuple(float(v) for v in target + offset))


def render_training_set(
    out_dir: str | Path, n: int, kinds: Sequence[str] = ("d6", "d10"), seed: int = 0, size=(960, 720), quality: int = 90
) -> Path:
    """n rendered frames + labels.json under out_dir. Same seed, same set."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    images = []
    for i in range(n):
        image, dice = render_scene(seed * 1_000_003 + i, kinds, size)
        name = f"render_{seed}_{i:05d}.jpg"
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        images.append({"file": name, "width": size[0], "height": size[1], "dice": dice})
    (out / "labels.json").write_text(json.dumps({"images": images}, indent=1) + "\n")
    return out
