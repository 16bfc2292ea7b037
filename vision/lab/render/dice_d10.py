"""Ten-sided dice: a pentagonal trapezohedron of ten kite faces with numerals 0-9 (0 counts 10).

Opposite faces are parallel and add up to 9, so a d10 at rest shows one kite flat on top with five
neighbouring faces slanting away, their numerals foreshortened. The numeral stands upright with its top
towards the kite's sharp end (the pole); 6 and 9 carry a mark, a dot or an underline, as printed dice do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from . import glyphs
from .dice_d6 import Look as _D6Look
from .dice_d6 import body_texture
from .solid import Face, Solid

TEX = 128
RING_Z = 0.14  # half the zigzag's height for a ring of radius 1: a common d10's proportions
UPPER_DIGITS = (1, 7, 3, 9, 5)  # around the upper pole; the lower faces carry 9 minus their opposite
STROKE_FONTS = {  # OpenCV's Hershey fonts: (font, scale)
    "simplex": (cv2.FONT_HERSHEY_SIMPLEX, 1.0),
    "duplex": (cv2.FONT_HERSHEY_DUPLEX, 1.0),
    "complex": (cv2.FONT_HERSHEY_COMPLEX, 1.0),
    "triplex": (cv2.FONT_HERSHEY_TRIPLEX, 1.0),
    "plain": (cv2.FONT_HERSHEY_PLAIN, 1.9),
    "italic": (cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC, 1.0),
}
SANS_FONTS = {"sans": False, "sans-italic": True}  # TrueType (vision.lab.render.glyphs), name: italic; most real dice
FONTS = (*STROKE_FONTS, *SANS_FONTS)


@dataclass(frozen=True)
class Look(_D6Look):
    font: str = "simplex"
    weight: float = 1.0  # stroke thickness factor
    mark: str = "dot"  # how 6 and 9 are told apart: "dot" or "underline"
    digit_size: float = 1.0
    mark_len: float = 1.0  # underline length, share of the numeral's width (many real dice: about half)


LOOKS = (
    Look("white", (232, 234, 236), (25, 25, 25), font="duplex"),
    Look("black", (30, 30, 32), (240, 240, 240), font="simplex", mark="underline"),
    Look("red", (40, 35, 180), (245, 245, 245), font="triplex"),
    Look("blue-translucent", (190, 90, 30), (245, 245, 245), alpha=0.84, gloss=0.5, font="simplex", mark="underline"),
    Look("green", (60, 140, 40), (40, 220, 240), font="complex"),
    Look("purple-translucent", (140, 40, 120), (250, 250, 250), alpha=0.84, gloss=0.5, font="italic"),
    Look("ivory", (200, 228, 240), (20, 20, 120), font="plain", weight=1.2, mark="underline"),
    Look("marbled-teal", (140, 130, 30), (250, 250, 250), second=(200, 220, 200), font="duplex", weight=1.3),
    Look("orange", (30, 120, 240), (20, 20, 20), font="simplex", weight=1.4, digit_size=1.1),
)


@lru_cache(maxsize=1)
def unit_geometry() -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """Vertices of a trapezohedron with ring radius 1 (Z up here) and its faces (pole, side, blunt, side)."""
    a = RING_Z
    upper = [(np.cos(np.radians(72 * k)), np.sin(np.radians(72 * k)), a) for k in range(5)]
    lower = [(np.cos(np.radians(72 * k + 36)), np.sin(np.radians(72 * k + 36)), -a) for k in range(5)]
    # the pole's height that makes pole, U_k, L_k, U_k+1 one plane
    u0, u1, l0 = np.array(upper[0]), np.array(upper[1]), np.array(lower[0])
    mid = (u0 + u1) / 2  # the plane contains the line from the pole through mid towards l0
    h = mid[2] + (mid[2] - l0[2]) * np.linalg.norm(mid[:2]) / (np.linalg.norm(l0[:2]) - np.linalg.norm(mid[:2]))
    vertices = np.array([(0, 0, h), (0, 0, -h)] + upper + lower, np.float64)
    U, L = (lambda k: 2 + k % 5), (lambda k: 7 + k % 5)
    faces = [(0, U(k), L(k), U(k + 1)) for k in range(5)]  # around the upper pole
    faces += [(1, L(k + 1), U(k + 1), L(k)) for k in range(5)]  # around the lower pole
    return vertices, faces


def _digits() -> list[int]:
    """The printed digit of each face: the upper ones, then for lower face j the opposite of upper j-2."""
    return list(UPPER_DIGITS) + [9 - UPPER_DIGITS[(j - 2) % 5] for j in range(5)]


def kite_texture(
    digit: int, look: Look, corners2d: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A kite face drawn flat: corners2d (pole, side, blunt, side) in texture pixels."""
    tex = body_texture(look, rng, (TEX, TEX))
    mask = np.zeros((TEX * 4, TEX * 4), np.uint8)
    centroid = corners2d.mean(axis=0)
    inset = centroid + (corners2d - centroid) * 0.93
    cv2.fillConvexPoly(mask, np.round(inset * 4 * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
    mask = cv2.GaussianBlur(mask, (0, 0), 4)
    mask = cv2.resize(mask, (TEX, TEX), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    # the numeral: in the broad part of the kite, above its widest line (seen with the pole up)
    pole, side_a, blunt, side_b = corners2d
    widest = (side_a + side_b) / 2
    centre = pole + (widest - pole) * 0.70
    text = str(digit)
    height = np.linalg.norm(blunt - pole) * 0.30 * look.digit_size
    thickness = max(2, int(round(height * 0.13 * look.weight)))
    ink = np.zeros((TEX, TEX), np.uint8)  # putText draws on 8-bit images only: draw the ink, then paint it
    if look.font in SANS_FONTS:
        x0, y0, x1, y1 = glyphs.draw(ink, text, centre, height, look.weight, italic=SANS_FONTS[look.font])
        org, tw, th = (x0, y1), x1 - x0, y1 - y0
    else:
        font, scale = STROKE_FONTS[look.font]
        (tw, th), _ = cv2.getTextSize(text, font, 1.0, thickness)
        scale = scale * height / th
        (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
        org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
        cv2.putText(ink, text, org, font, scale, 255, thickness, cv2.LINE_AA)
    if digit in (6, 9):
        if look.mark == "underline":
            y = int(centre[1] + th / 2 + thickness * 1.8)
            half = tw * look.mark_len / 2
            mid = org[0] + tw / 2
            cv2.line(ink, (int(mid - half), y), (int(mid + half), y), 255, thickness, cv2.LINE_AA)
        else:
            cv2.circle(
                ink,
                (int(org[0] + tw + thickness * 1.6), int(centre[1] + th / 2 - thickness / 2)),
                max(2, thickness),
                255,
                -1,
                cv2.LINE_AA,
            )
    weight = ink.astype(np.float32)[..., None] / 255
    tex = tex * (1 - weight) + np.asarray(look.ink, np.float32) * weight
    return tex, mask


@lru_cache(maxsize=64)
def make_d10(look: Look, size_mm: float, seed: int = 0) -> Solid:
    """A d10 whose parallel faces lie `size_mm` apart (what a die gauge would call its size)."""
    rng = np.random.default_rng(seed)
    unit, faces_idx = unit_geometry()
    n0 = np.cross(unit[faces_idx[0][1]] - unit[0], unit[faces_idx[0][3]] - unit[0])
    n0 /= np.linalg.norm(n0)
    gap = 2 * abs(float(np.dot(unit[0], n0)))  # distance between opposite faces at ring radius 1
    vertices = unit * (size_mm / gap)
    faces, normals = [], []
    for idx, digit in zip(faces_idx, _digits()):
        p = vertices[list(idx)]
        n = np.cross(p[1] - p[0], p[3] - p[0])
        n /= np.linalg.norm(n)
        if np.dot(n, p.mean(axis=0)) < 0:
            n = -n
        # the face's own 2D frame: y from the pole towards the blunt end, x across (seen from outside)
        y = p[2] - p[0]
        y /= np.linalg.norm(y)
        x = np.cross(n, y)  # so that the numeral reads the right way round from outside
        flat = np.stack([(p - p[0]) @ x, (p - p[0]) @ y], axis=1)
        flat -= flat.min(axis=0)
        scale = (TEX - 8) / flat.max()
        corners2d = flat * scale + (TEX - flat.max(axis=0) * scale) / 2
        tex, mask = kite_texture(digit, look, corners2d, rng)
        faces.append(Face(idx, digit if digit else 10, corners2d.astype(np.float32), tex, mask))
        normals.append(n)
    return Solid("d10", vertices, tuple(faces), np.array(normals), look.body, look.alpha, look.gloss)
