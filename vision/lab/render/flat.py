"""Dice drawn flat, seen from straight above, with OpenCV: the frames of tests and the bench, the calibration's
drawn tray and the face reader's drawn training scenes. The renderer's cheap view: no camera, no light.

A face is drawn once as a flat texture (body, pips) and warped onto its place in the frame, so a die
lying flat is one warped square and a cocked die is two foreshortened faces side by side. Its dice wear the
renderer's looks (dice_d6.Look) but keep a face, shadow and felt of their own (a 64 px face, a shadow cast as
one soft quad): tests, the bench figures and trained models depend on exactly these pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from ...pips import PIPS
from .dice_d6 import Look, pictured

TEXTURE = 64

WHITE = Look("white", (235, 235, 235), (20, 20, 20))
BLACK = Look("black", (30, 30, 30), (240, 240, 240))
RED_TRANSLUCENT = Look("red-translucent", (40, 40, 210), (245, 245, 245), alpha=0.75)
MARBLED = Look("marbled", (200, 120, 40), (250, 250, 250), second=(90, 200, 230))


def face(value: int, look: Look, rng: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A flat face (TEXTURE x TEXTURE BGR) and its mask (rounded corners)."""
    s = TEXTURE
    tex = np.empty((s, s, 3), np.float32)
    tex[:] = look.body
    if look.second is not None:
        rng = rng or np.random.default_rng(value)
        swirl = cv2.GaussianBlur(rng.random((s, s)).astype(np.float32), (0, 0), s / 10)
        swirl = (swirl - swirl.min()) / max(1e-6, float(np.ptp(swirl)))
        w = np.clip((swirl - 0.45) * 6, 0, 1)[..., None]
        tex = tex * (1 - w) + np.array(look.second, np.float32) * w
    mask = np.zeros((s, s), np.uint8)
    r = s // 7
    cv2.rectangle(mask, (r, 0), (s - 1 - r, s - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (s - 1, s - 1 - r), 255, -1)
    for cx, cy in [(r, r), (s - 1 - r, r), (r, s - 1 - r), (s - 1 - r, s - 1 - r)]:
        cv2.circle(mask, (cx, cy), r, 255, -1)
    picture = pictured(tex, value, look, look.ink)
    if picture is not None:
        tex = picture
    else:
        pip_r = max(2, int(round(s * 0.085 * look.pip_scale)))
        for px, py in PIPS[value]:
            centre = (int(round(s / 2 + px * s * 0.27)), int(round(s / 2 + py * s * 0.27)))
            cv2.circle(tex, centre, pip_r, look.ink, -1, cv2.LINE_AA)
    # a little shading towards the edges, as on a real rounded die
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / (s - 1) - 0.5
    tex *= (1.0 - 0.25 * (np.maximum(np.abs(xx), np.abs(yy)) ** 3))[..., None]
    return np.clip(tex, 0, 255), mask


def paste_quad(
    frame: np.ndarray, texture: np.ndarray, mask: np.ndarray, quad: np.ndarray, alpha: float = 1.0, shade: float = 1.0
) -> None:
    """Warp a face texture onto the quadrilateral `quad` (4x2, clockwise from its top-left) in place."""
    h, w = frame.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [TEXTURE, 0], [TEXTURE, TEXTURE], [0, TEXTURE]])
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    tex = cv2.warpPerspective(texture, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255 * alpha
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = np.clip(roi * (1 - a) + tex * shade * a, 0, 255).astype(frame.dtype)


def square(centre, size: float, angle_deg: float) -> np.ndarray:
    c, s = np.cos(np.radians(angle_deg)), np.sin(np.radians(angle_deg))
    half = size / 2
    corners = np.float32([[-half, -half], [half, -half], [half, half], [-half, half]])
    return corners @ np.float32([[c, s], [-s, c]]) + np.float32(centre)


def cast_shadow(frame: np.ndarray, quad: np.ndarray, offset: tuple[float, float], strength: float) -> None:
    """Darken a soft copy of `quad`, shifted by `offset`, in place (works on the region around it only)."""
    h, w = frame.shape[:2]
    shifted = quad + offset
    k = int(max(3, np.ptp(quad[:, 0]) * 0.3)) | 1
    x0, y0 = np.floor(shifted.min(axis=0)).astype(int) - k
    x1, y1 = np.ceil(shifted.max(axis=0)).astype(int) + k
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    shadow = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(shadow, np.round(shifted - [x0, y0]).astype(np.int32), 255, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (k, k), 0).astype(np.float32)[..., None] / 255
    roi = frame[y0:y1, x0:x1]
    frame[y0:y1, x0:x1] = np.clip(roi * (1 - strength * shadow), 0, 255).astype(frame.dtype)


def die(
    frame: np.ndarray,
    centre,
    size: float,
    value: int,
    angle: float = 0.0,
    look: Look = WHITE,
    rng: np.random.Generator | None = None,
    shadow: float = 0.35,
) -> tuple[float, float, float, float]:
    """A die lying flat, seen from above. Returns its box (xmin, ymin, xmax, ymax)."""
    quad = square(centre, size, angle)
    if shadow:
        cast_shadow(frame, quad, (size * 0.08, size * 0.1), shadow)
    tex, mask = face(value, look, rng)
    paste_quad(frame, tex, mask, quad, look.alpha)
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def cocked_die(
    frame: np.ndarray,
    centre,
    size: float,
    value: int,
    side_value: int,
    tilt: float = 35.0,
    angle: float = 0.0,
    look: Look = WHITE,
    shadow: float = 0.35,
) -> tuple[float, float, float, float]:
    """A die leaning over by `tilt` degrees: its top face foreshortened, one side face showing beside it."""
    top = size * np.cos(np.radians(tilt))
    side = size * np.sin(np.radians(tilt))
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    rot = np.float32([[c, s], [-s, c]])
    total = top + side
    # in the die's own frame: x across the lean, y along it; top face first, side face after it
    top_quad = np.float32(
        [[-size / 2, -total / 2], [size / 2, -total / 2], [size / 2, -total / 2 + top], [-size / 2, -total / 2 + top]]
    )
    side_quad = np.float32(
        [[-size / 2, -total / 2 + top], [size / 2, -total / 2 + top], [size / 2, total / 2], [-size / 2, total / 2]]
    )
    top_quad = top_quad @ rot + np.float32(centre)
    side_quad = side_quad @ rot + np.float32(centre)
    outline = np.vstack([top_quad, side_quad])
    if shadow:
        cast_shadow(
            frame, cv2.convexHull(outline).reshape(-1, 2).astype(np.float32), (size * 0.15, size * 0.15), shadow
        )
    for quad, v, shade in [(top_quad, value, 1.0), (side_quad, side_value, 0.75)]:
        tex, mask = face(v, look)
        paste_quad(frame, tex, mask, quad, look.alpha, shade)
    lo, hi = outline.min(axis=0), outline.max(axis=0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def turned(picture: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """(the picture turned by `degrees` anticlockwise on a canvas that holds it whole, the corners repeating its
    edges; the 2x3 matrix taking the picture's points to the canvas'): photos as another camera would take them."""
    h, w = picture.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    size = (int(w * cos + h * sin), int(w * sin + h * cos))
    m[:, 2] += ((size[0] - w) / 2, (size[1] - h) / 2)
    return cv2.warpAffine(picture, m, size, borderMode=cv2.BORDER_REPLICATE), m


def surface(height: int, width: int, colour=(60, 110, 40), seed: int = 0, grain: float = 6.0) -> np.ndarray:
    """A plain felt-like surface: one colour, fine grain and a gentle fall-off of light."""
    rng = np.random.default_rng(seed)
    base = np.empty((height, width, 3), np.float32)
    base[:] = colour
    base += rng.normal(0, grain, (height, width, 1)).astype(np.float32)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 1.0 - 0.25 * (((xx - width * 0.4) / width) ** 2 + ((yy - height * 0.4) / height) ** 2)
    return np.clip(base * light[..., None], 0, 255).astype(np.uint8)


DIE_SHARE = 1 / 12  # six_dice_frame's dice: the edge of a die, of the frame's width


def six_dice_frame(width: int = 1280, height: int = 960, seed: int = 0) -> tuple[np.ndarray, list[tuple[int, tuple]]]:
    """A felt tray with six flat dice of mixed looks: the bench frame. Returns (frame, [(value, box)])."""
    frame = surface(height, width, seed=seed)
    rng = np.random.default_rng(seed)
    size = width * DIE_SHARE
    looks = [WHITE, BLACK, RED_TRANSLUCENT, MARBLED, WHITE, BLACK]
    dice = []
    for i, look in enumerate(looks):
        centre = (width * (0.2 + 0.3 * (i % 3)), height * (0.33 + 0.34 * (i // 3)))
        value = i + 1
        box = die(frame, centre, size, value, float(rng.uniform(0, 90)), look, rng)
        dice.append((value, box))
    return frame, dice
