"""Timing for `dicetable bench vision` (d10): the median time to read a rendered 1280x960 frame with
six ten-sided dice, on one thread."""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ..bench import median_ms
from ..render import dice_d10, layout
from ..render.frame import DieState, render_frame
from ..render.scene import Scene
from .reader import D10Reader

BENCH_SEED = 4242


@lru_cache(maxsize=2)
def six_d10_frame(width: int = 1280, height: int = 960, seed: int = BENCH_SEED) -> tuple[np.ndarray, tuple[int, ...]]:
    """A rendered tray with six flat d10s of several looks (frame, their values)."""
    rng = np.random.default_rng(seed)
    scene = Scene.random(seed, size=(width, height))
    dice, taken = [], []
    for i in range(6):
        solid = dice_d10.make_d10(dice_d10.LOOKS[i % len(dice_d10.LOOKS)], scene.die_mm, seed=i)
        value = int(rng.integers(1, 11))
        yaw = layout.yaw_for(rng)
        spot = layout.free_spot(scene, solid, taken, rng)
        taken.append(spot)
        rotation = layout.resting_rotation(solid, value, yaw)
        dice.append(DieState(solid, rotation, (spot[0], spot[1], -solid.lowest(rotation)), id=i))
    frame, labels = render_frame(scene, dice, noise_seed=seed)
    return frame, tuple(label.value for label in labels)


def read_ms(repeats: int = 30) -> float:
    """Median milliseconds for D10Reader.read on the six-d10 frame, one OpenCV thread."""
    cv2.setNumThreads(1)
    frame, _ = six_d10_frame()
    reader = D10Reader()
    return median_ms(lambda: reader.read(frame), repeats)
