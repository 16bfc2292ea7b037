"""Numerals in a TrueType sans-serif face for the d10 renderer.

Most real d10s carry sans-serif numerals (a 1 with a flag, an open 4, a flat-topped 5), which OpenCV's
stroke fonts do not draw. The face is FreeSans Bold, the font that ships inside pygame, so rendering needs
no system font and draws the same on every machine. Only the renderer uses it: reading needs no pygame.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

GLYPH_PX = 96   # rasterised once at this size, then scaled


@lru_cache(maxsize=2)
def _font(italic: bool):
    import pygame.font   # imported here: the rest of vision.render needs only OpenCV
    pygame.font.init()
    font = pygame.font.Font(str(Path(pygame.font.__file__).with_name("freesansbold.ttf")), GLYPH_PX)
    font.set_italic(italic)
    return font


@lru_cache(maxsize=64)
def glyph(text: str, italic: bool = False) -> np.ndarray:
    """The ink of `text` as a float32 mask (0..1), cut to its bounding box."""
    import pygame.surfarray
    ink = pygame.surfarray.array_alpha(_font(italic).render(text, True, (255, 255, 255))).T.astype(np.float32) / 255
    ys, xs = np.nonzero(ink > 0.05)
    return ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def draw(ink: np.ndarray, text: str, centre, height: float, weight: float, italic: bool = False) -> tuple[int, int, int, int]:
    """Paint `text` (white, 0..255) into the uint8 `ink` image, `height` pixels tall, centred on `centre`;
    `weight` thickens (> 1) or thins (< 1) the strokes. Returns the numeral's box x0, y0, x1, y1."""
    g = glyph(text, italic)
    scale = height / g.shape[0]
    w, h = max(1, int(round(g.shape[1] * scale))), max(1, int(round(height)))
    big = cv2.resize(g, (w * 4, h * 4), interpolation=cv2.INTER_LINEAR)   # weight is applied at 4x for finer steps
    r = int(round(abs(weight - 1) * height * 0.12 * 4 / 2))
    if r:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        big = (cv2.dilate if weight > 1 else cv2.erode)(big, kernel)
    small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    x0, y0 = int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))
    H, W = ink.shape
    sx0, sy0, sx1, sy1 = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if sx1 > sx0 and sy1 > sy0:
        patch = (small[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] * 255).astype(np.uint8)
        np.maximum(ink[sy0:sy1, sx0:sx1], patch, out=ink[sy0:sy1, sx0:sx1])
    return x0, y0, x0 + w, y0 + h
