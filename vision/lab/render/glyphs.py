"""Numerals in a TrueType sans-serif face for the d10 renderer, drawn from a shipped glyph atlas.

Most real d10s carry sans-serif numerals (a 1 with a flag, an open 4, a flat-topped 5), which OpenCV's
stroke fonts do not draw. glyphs.npz holds the ink of each digit, upright and italic, in FreeSans Bold (GNU
FreeFont) rasterised at GLYPH_PX by pygame 2.6.1 from the copy pygame ships: the same on every machine, and
vision needs no pygame. `python -m vision.lab.render.glyphs` makes it again (that alone needs pygame).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

GLYPH_PX = 96  # rasterised once at this size, then scaled
ATLAS = Path(__file__).with_name("glyphs.npz")


def _key(text: str, italic: bool) -> str:
    return f"{text}-italic" if italic else text


@lru_cache(maxsize=1)
def _atlas() -> dict[str, np.ndarray]:
    with np.load(ATLAS) as atlas:
        return {key: atlas[key] for key in atlas.files}


@lru_cache(maxsize=64)
def glyph(text: str, italic: bool = False) -> np.ndarray:
    """The ink of `text` (a digit) as a float32 mask (0..1), cut to its bounding box."""
    return _atlas()[_key(text, italic)].astype(np.float32) / 255


def draw(
    ink: np.ndarray, text: str, centre, height: float, weight: float, italic: bool = False
) -> tuple[int, int, int, int]:
    """Paint `text` (white, 0..255) into the uint8 `ink` image, `height` pixels tall, centred on `centre`;
    `weight` thickens (> 1) or thins (< 1) the strokes. Returns the numeral's box x0, y0, x1, y1."""
    g = glyph(text, italic)
    scale = height / g.shape[0]
    w, h = max(1, int(round(g.shape[1] * scale))), max(1, int(round(height)))
    big = cv2.resize(g, (w * 4, h * 4), interpolation=cv2.INTER_LINEAR)  # weight is applied at 4x for finer steps
    r = int(round(abs(weight - 1) * height * 0.12 * 4 / 2))
    if r:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        big = (cv2.dilate if weight > 1 else cv2.erode)(big, kernel)
    small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    x0, y0 = int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))
    H, W = ink.shape
    sx0, sy0, sx1, sy1 = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if sx1 > sx0 and sy1 > sy0:
        patch = (small[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0] * 255).astype(np.uint8)
        np.maximum(ink[sy0:sy1, sx0:sx1], patch, out=ink[sy0:sy1, sx0:sx1])
    return x0, y0, x0 + w, y0 + h


def make_atlas(path: Path = ATLAS) -> None:
    """Rasterise the digits with pygame's FreeSans Bold into `path` (the ink's alpha, cut to its bounding box)."""
    import pygame.font
    import pygame.surfarray

    pygame.font.init()
    inks = {}
    for italic in (False, True):
        font = pygame.font.Font(str(Path(pygame.font.__file__).with_name("freesansbold.ttf")), GLYPH_PX)
        font.set_italic(italic)
        for digit in "0123456789":
            alpha = pygame.surfarray.array_alpha(font.render(digit, True, (255, 255, 255))).T
            ys, xs = np.nonzero(alpha.astype(np.float32) / 255 > 0.05)
            inks[_key(digit, italic)] = alpha[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    np.savez_compressed(path, **inks)


if __name__ == "__main__":
    make_atlas()
