"""Six-sided dice with pips: looks (body, pips, marbling, translucency, pip style) and their solid."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ...pips import PIPS
from . import glyphs
from .solid import Face, Solid

TEX = 96  # texture pixels per face edge: several times what the camera resolves

# Face normals in the die's frame and their values: opposite faces add up to 7.
NORMALS = {1: (0, 0, -1), 6: (0, 0, 1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}


@dataclass(frozen=True)
class Look:
    name: str
    body: tuple  # BGR
    ink: tuple  # pips / numerals
    second: tuple | None = None  # marbled: a second colour swirled in
    alpha: float = 1.0  # below 1: translucent
    pip_scale: float = 1.0
    pip_style: str = "round"  # round, square (sharp-edged casino pips), ring (painted outline), numeral (a digit),
    # symbols (pips, but a skull on the 1 and a crest on the 6)
    one: tuple | None = None  # a different colour for the 1 (as on Asian dice)
    gloss: float = 0.25


LOOKS = (
    Look("white", (232, 234, 236), (25, 25, 25)),
    Look("ivory", (200, 228, 240), (30, 30, 30), pip_scale=1.15),
    Look("black", (30, 30, 32), (240, 240, 240)),
    Look("red-translucent", (45, 40, 205), (245, 245, 245), alpha=0.82, gloss=0.5),
    Look("blue-translucent", (190, 90, 30), (245, 245, 245), alpha=0.82, gloss=0.5),
    Look("green", (70, 150, 40), (250, 250, 250), pip_scale=0.9),
    Look("yellow", (40, 215, 235), (20, 20, 20)),
    Look("marbled-blue", (200, 120, 40), (250, 250, 250), second=(235, 215, 190)),
    Look("marbled-red", (40, 40, 170), (30, 215, 235), second=(60, 120, 220)),
    Look("casino-red", (40, 30, 190), (245, 245, 245), alpha=0.88, pip_style="square", gloss=0.6),
    Look("asian-white", (235, 235, 235), (20, 20, 20), one=(30, 30, 200), pip_scale=0.85),
    Look("purple", (120, 40, 100), (230, 230, 230), pip_style="ring"),
)


def body_texture(look: Look, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    h, w = size
    tex = np.empty((h, w, 3), np.float32)
    tex[:] = look.body
    if look.second is not None:
        swirl = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), w / 9)
        swirl = (swirl - swirl.min()) / max(1e-6, float(np.ptp(swirl)))
        weight = np.clip((np.sin(swirl * 18) - 0.2) * 2, 0, 1)[..., None]
        tex = tex * (1 - weight) + np.asarray(look.second, np.float32) * weight
    return tex


def rounded_mask(size: int, inset: float = 0.035, radius: float = 0.16) -> np.ndarray:
    mask = np.zeros((size * 4, size * 4), np.uint8)
    i, r = int(size * 4 * inset), int(size * 4 * radius)
    s = size * 4
    cv2.rectangle(mask, (i + r, i), (s - 1 - i - r, s - 1 - i), 255, -1)
    cv2.rectangle(mask, (i, i + r), (s - 1 - i, s - 1 - i - r), 255, -1)
    for cx, cy in [(i + r, i + r), (s - 1 - i - r, i + r), (i + r, s - 1 - i - r), (s - 1 - i - r, s - 1 - i - r)]:
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def with_numeral(tex: np.ndarray, value: int, ink) -> np.ndarray:
    """A square face texture carrying its value as a digit instead of pips, in colour `ink`: bold, half the face
    tall, a 6 underlined (as on numeral dice, so that it is no 9 upside down)."""
    size = tex.shape[0]
    mask = np.zeros((size, size), np.uint8)
    glyphs.draw(mask, str(value), (size / 2, size * (0.46 if value == 6 else 0.5)), size * 0.55, 1.3)
    if value == 6:
        cv2.line(mask, (round(size * 0.38), round(size * 0.82)), (round(size * 0.62), round(size * 0.82)), 255, 3)
    w = (mask.astype(np.float32) / 255)[..., None]
    return tex * (1 - w) + np.array(ink, np.float32) * w


def with_symbol(tex: np.ndarray, value: int, ink) -> np.ndarray:
    """A square face texture carrying a picture instead of pips, in colour `ink`, as on the dice of many board
    games: a skull on the 1 (its eyes, nose and teeth the die's body), a crest with a star cut out on the 6."""
    size = tex.shape[0]

    def at(*points):  # fractions of the face -> pixels
        return np.array([[round(x * size), round(y * size)] for x, y in points], np.int32)

    mask = np.zeros((size, size), np.uint8)
    if value == 1:
        cv2.circle(mask, (size // 2, round(size * 0.43)), round(size * 0.24), 255, -1, cv2.LINE_AA)
        cv2.fillPoly(mask, [at((0.37, 0.55), (0.63, 0.55), (0.63, 0.75), (0.37, 0.75))], 255, cv2.LINE_AA)
        for x in (0.41, 0.59):
            cv2.circle(mask, (round(size * x), round(size * 0.45)), round(size * 0.075), 0, -1, cv2.LINE_AA)
        cv2.fillPoly(mask, [at((0.5, 0.52), (0.46, 0.59), (0.54, 0.59))], 0, cv2.LINE_AA)
        for x in (0.45, 0.5, 0.55):
            cv2.line(mask, tuple(at((x, 0.65))[0]), tuple(at((x, 0.75))[0]), 0, max(1, size // 60))
    else:
        cv2.fillPoly(mask, [at((0.28, 0.24), (0.72, 0.24), (0.72, 0.52), (0.5, 0.8), (0.28, 0.52))], 255, cv2.LINE_AA)
        turns = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:10]
        radii = np.where(np.arange(10) % 2 == 0, 0.14, 0.06)
        star = [(0.5 + r * np.cos(t), 0.45 + r * np.sin(t)) for r, t in zip(radii, turns)]
        cv2.fillPoly(mask, [at(*star)], 0, cv2.LINE_AA)
    w = (mask.astype(np.float32) / 255)[..., None]
    return tex * (1 - w) + np.array(ink, np.float32) * w


SYMBOLS = (1, 6)  # the faces of symbol dice that carry a picture


def pictured(tex: np.ndarray, value: int, look: Look, ink) -> np.ndarray | None:
    """The face texture with its picture where the look draws one instead of pips (None: a face of pips)."""
    if look.pip_style == "numeral":
        return with_numeral(tex, value, ink)
    if look.pip_style == "symbols" and value in SYMBOLS:
        return with_symbol(tex, value, ink)
    return None


def face_texture(value: int, look: Look, rng: np.random.Generator) -> np.ndarray:
    s = TEX
    tex = body_texture(look, rng, (s, s))
    # a soft darkening at the rim: the face curves into the rounded edge
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / (s - 1) - 0.5
    tex *= (1.0 - 0.22 * (np.maximum(np.abs(xx), np.abs(yy)) * 2) ** 6)[..., None]
    ink = look.one if (value == 1 and look.one) else look.ink
    picture = pictured(tex, value, look, ink)
    if picture is not None:
        return picture
    r = s * 0.085 * look.pip_scale * (1.5 if value == 1 and look.one else 1.0)
    for px, py in PIPS[value]:
        cx, cy = s / 2 + px * s * 0.27, s / 2 + py * s * 0.27
        centre = (int(round(cx * 16)), int(round(cy * 16)))
        if look.pip_style == "square":
            h = int(r * 0.9 * 16)
            cv2.rectangle(
                tex, (centre[0] - h, centre[1] - h), (centre[0] + h, centre[1] + h), ink, -1, cv2.LINE_AA, shift=4
            )
            continue
        # a drilled pip: a slightly darker rim, then the paint
        cv2.circle(tex, centre, int(r * 1.12 * 16), [c * 0.6 for c in look.body], -1, cv2.LINE_AA, shift=4)
        if look.pip_style == "ring":
            cv2.circle(tex, centre, int(r * 16), ink, max(2, int(r * 0.45)), cv2.LINE_AA, shift=4)
        else:
            cv2.circle(tex, centre, int(r * 16), ink, -1, cv2.LINE_AA, shift=4)
    return tex


@lru_cache(maxsize=64)
def make_d6(look: Look, edge_mm: float, seed: int = 0) -> Solid:
    rng = np.random.default_rng(seed)
    h = edge_mm / 2
    vertices = np.array([[x, y, z] for z in (-h, h) for y in (-h, h) for x in (-h, h)], np.float64)
    index = {tuple(v): i for i, v in enumerate(np.sign(vertices).astype(int))}
    mask = rounded_mask(TEX)
    uv = np.float32([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]])
    faces, normals = [], []
    for value, n in NORMALS.items():
        n = np.asarray(n)
        # two in-face axes; their corners in uv order (top-left, top-right, bottom-right, bottom-left)
        u = np.roll(n, 1) if n.any() else n
        u = np.abs(u)
        v = np.cross(u, n)  # texture x, y and the outward normal: not mirrored from outside
        corners = [n - u - v, n + u - v, n + u + v, n - u + v]
        faces.append(Face(tuple(index[tuple(c)] for c in corners), value, uv, face_texture(value, look, rng), mask))
        normals.append(n.astype(np.float64))
    return Solid("d6", vertices, tuple(faces), np.array(normals), look.body, look.alpha, look.gloss)
