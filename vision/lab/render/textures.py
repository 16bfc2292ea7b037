"""Surface textures drawn flat (felt, wood, table) from seeded noise: cheap, with no image files."""

from __future__ import annotations

import cv2
import numpy as np


def noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Smooth noise scaled to about -1..1 at feature size `sigma` px."""
    small = max(1.0, sigma / 2)  # draw at a lower resolution, then enlarge: same look, far cheaper
    h, w = max(2, int(shape[0] / small)), max(2, int(shape[1] / small))
    n = rng.standard_normal((h, w)).astype(np.float32)
    if sigma > 2:
        n = cv2.GaussianBlur(n, (0, 0), 2.0)
    n = cv2.resize(n, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return n / (float(n.std()) + 1e-6) / 3


def felt(rng: np.random.Generator, shape: tuple[int, int], colour, grain: float = 7.0) -> np.ndarray:
    """Felt: fine fibres, a soft mottle and a slight nap; float32 BGR."""
    fibres = rng.standard_normal(shape).astype(np.float32)
    fibres = cv2.GaussianBlur(fibres, (0, 0), 0.8) * 1.6
    streaks = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), sigmaX=4.0, sigmaY=0.7)
    mottle = noise(rng, shape, 18)
    level = 1 + 0.045 * mottle + 0.02 * streaks / (streaks.std() + 1e-6)
    tex = np.empty(shape + (3,), np.float32)
    tex[:] = colour
    return tex * level[..., None] + fibres[..., None] * grain * 0.5


def wood(rng: np.random.Generator, shape: tuple[int, int], colour, along_x: bool = True) -> np.ndarray:
    """Wood: grain lines along one direction with slow wobble; float32 BGR."""
    h, w = shape
    wobble = noise(rng, shape, 40) * 6
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = (yy if along_x else xx) + wobble
    rings = np.sin(across * 0.9 + noise(rng, shape, 60) * 4) * 0.5 + 0.5
    level = 0.88 + 0.12 * rings**3 + 0.03 * noise(rng, shape, 3)
    tex = np.empty(shape + (3,), np.float32)
    tex[:] = colour
    return tex * level[..., None]


def plain(rng: np.random.Generator, shape: tuple[int, int], colour, grain: float = 4.0) -> np.ndarray:
    tex = np.empty(shape + (3,), np.float32)
    tex[:] = colour
    return tex * (1 + 0.04 * noise(rng, shape, 25))[..., None] + rng.normal(0, grain, shape + (1,)).astype(np.float32)
