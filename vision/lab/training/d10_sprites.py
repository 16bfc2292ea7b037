"""Single dice drawn fast for training: the renderer's solids (vision.lab.render) seen by a small camera
from straight above or at an angle (phone photos), lit from a random side, as a colour + alpha layer
that the samplers paste onto surfaces. Far cheaper than rendering whole tray scenes, so training can
draw fresh dice for every sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..render import dice_d6, dice_d10, layout
from ..render import solid as solids
from ..render.camera import Camera
from ..render.scene import Light, Scene

# the TrueType sans faces are what most real dice carry: drawn as often as all stroke fonts together
FONT_ODDS = np.array([3.0 if f in dice_d10.SANS_FONTS else 1.0 for f in dice_d10.FONTS])
FONT_ODDS /= FONT_ODDS.sum()
DIE_MM = 16.0
# Numeral size and stroke weight of the random looks, relative to the renderer's default. Common real d10s
# carry much bigger, bolder numerals than the renderer's looks (cloth photos: ~1.5x its digit size), so the
# random looks reach well past them; the renderer's own 9 looks stay in every pool.
DIGIT_SIZES = (0.85, 1.8)
WEIGHTS = (0.7, 2.2)
MARK_LENS = (0.4, 1.0)  # underline under part of the numeral or all of it (cloth photos' die: about half)
MARBLED = 0.3  # share of random looks with swirls


def random_d10_look(rng: np.random.Generator, marbled: float = MARBLED) -> dice_d10.Look:
    """Any body colour with a contrasting ink, any of the renderer's fonts, weights and 6/9 marks; a
    `marbled` share of them with swirls."""
    if rng.random() < 0.3:  # white, ivory, grey or black plastic: the commonest real dice
        hsv = np.uint8(
            [[[rng.integers(0, 180), rng.integers(0, 40), rng.choice([rng.integers(20, 70), rng.integers(170, 256)])]]]
        )
    else:
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(20, 256)]]])
    body = tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    light = sum(body) / 3 > 115
    ink_hsv = np.uint8(
        [[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(0, 70) if light else rng.integers(185, 256)]]]
    )
    ink = tuple(int(v) for v in cv2.cvtColor(ink_hsv, cv2.COLOR_HSV2BGR)[0, 0])
    second = None
    if rng.random() < marbled:  # marbled: swirls near the body's colour, or near the ink's (numerals hide in them)
        swirl = np.array(ink if rng.random() < 0.5 else body) + rng.integers(-70, 70, 3)
        second = tuple(int(v) for v in np.clip(swirl, 0, 255))
    alpha = 1.0 if rng.random() < 0.75 else float(rng.uniform(0.75, 0.9))
    return dice_d10.Look(
        "random",
        body,
        ink,
        second,
        alpha,
        gloss=float(rng.uniform(0.1, 0.5)),
        font=str(rng.choice(dice_d10.FONTS, p=FONT_ODDS)),
        weight=float(rng.uniform(*WEIGHTS)),
        mark=str(rng.choice(["dot", "underline"])),
        digit_size=float(rng.uniform(*DIGIT_SIZES)),
        mark_len=float(rng.uniform(*MARK_LENS)),
    )


def solid_pool(rng: np.random.Generator, n_d10: int, n_d6: int, marbled: float = MARBLED) -> list[solids.Solid]:
    """The renderer's own looks plus random ones (white with black numerals: the commonest real die)."""
    n_random = max(0, n_d10 - len(dice_d10.LOOKS))
    looks = list(dice_d10.LOOKS) + [random_d10_look(rng, marbled) for _ in range(n_random)]
    pool = [dice_d10.make_d10.__wrapped__(look, DIE_MM, seed=int(rng.integers(1 << 30))) for look in looks]
    d6_looks = list(dice_d6.LOOKS)
    pool += [dice_d6.make_d6(d6_looks[i % len(d6_looks)], DIE_MM, seed=i) for i in range(n_d6)]
    return pool


@dataclass
class Sprite:
    colour: np.ndarray  # float32 h x w x 3, premultiplied by alpha
    alpha: np.ndarray  # float32 h x w
    box: np.ndarray  # whole die in sprite pixels: x0, y0, x1, y1
    top: np.ndarray  # centre of the upper face in sprite pixels
    shadow: np.ndarray  # (N, 2) outline of its shadow in sprite pixels
    kind: str
    value: int


@dataclass(frozen=True)
class Viewpoint:
    """Where the camera stands: a `tilted` share of dice seen up to `max_tilt_deg` off vertical (the rest
    within 8 degrees of straight above), from `dist_mm` away (nearer: stronger perspective)."""

    max_tilt_deg: float = 40.0
    tilted: float = 0.6
    dist_mm: tuple[float, float] = (250.0, 700.0)


OVERHEAD = Viewpoint()  # the tray camera, photos from above
HANDHELD = Viewpoint(60.0, 0.8, (110.0, 450.0))  # phone photos from the side and close (cloth-d10-photos: ~45 degrees)
VIEWS = {"overhead": OVERHEAD, "handheld": HANDHELD}


def draw_sprite(solid: solids.Solid, px: float, rng: np.random.Generator, view: Viewpoint = OVERHEAD) -> Sprite:
    """One die lying flat with a random face up, about `px` pixels across, from a random viewpoint."""
    value = int(rng.integers(1, 11 if solid.kind == "d10" else 7))
    rotation = layout.resting_rotation(solid, value, float(rng.uniform(0, 2 * np.pi)))
    centre = np.array([0.0, 0.0, -solid.lowest(rotation)])
    tilt = np.radians(rng.uniform(0, view.max_tilt_deg) if rng.random() < view.tilted else rng.uniform(0, 8))
    azimuth = rng.uniform(0, 2 * np.pi)
    dist = float(rng.uniform(*view.dist_mm))
    position = (dist * np.sin(tilt) * np.cos(azimuth), dist * np.sin(tilt) * np.sin(azimuth), -dist * np.cos(tilt))
    focal = px * dist / (DIE_MM * 1.25)
    size = int(px * 3) + 8
    camera = Camera(
        size=(size, size),
        focal=focal,
        position=position,
        target=tuple(centre),
        roll_deg=float(rng.uniform(-180, 180)),
        distortion=(0.0, 0.0, 0.0, 0.0, 0.0),
    )
    a = rng.uniform(0, 2 * np.pi)
    slant = rng.uniform(0.1, 0.9)
    light = Light(
        direction=(float(np.cos(a) * slant), float(np.sin(a) * slant), -1.0),
        brightness=float(rng.uniform(0.75, 1.25)),
        lamp=(0.0, 0.0),
        lamp_reach=400.0,
    )
    scene = Scene(camera=camera, light=light)
    colour, alpha, (x0, y0), pts = solids.draw(solid, rotation, centre, scene)
    pts = pts - [x0, y0]
    up = solid.face_up(rotation)
    top = pts[list(up.vertices)].mean(axis=0)
    # the shadow: the die's outline pushed away from the light along the felt
    world = (rotation @ solid.vertices.T).T + centre
    lu = light.unit
    on_floor = world + ((0.0 - world[:, 2]) / lu[2])[:, None] * lu
    shadow = camera.project(on_floor) - [x0, y0]
    box = np.concatenate([pts.min(axis=0), pts.max(axis=0)])
    return Sprite(colour * alpha[..., None], alpha, box, top, shadow, solid.kind, value)


def paste(canvas: np.ndarray, sprite: Sprite, cx: float, cy: float, rng: np.random.Generator) -> np.ndarray:
    """Paste the sprite (float canvas, in place) with its box centred at (cx, cy); returns the box in the canvas."""
    bx, by = (sprite.box[0] + sprite.box[2]) / 2, (sprite.box[1] + sprite.box[3]) / 2
    ox, oy = int(round(cx - bx)), int(round(cy - by))
    h, w = canvas.shape[:2]
    hull = cv2.convexHull(np.vstack([sprite.shadow, sprite.box.reshape(2, 2)]).astype(np.float32)).reshape(-1, 2) + [
        ox,
        oy,
    ]
    blur = max(0.5, (sprite.box[2] - sprite.box[0]) * rng.uniform(0.03, 0.12))
    m = int(3 * blur) + 2  # the shadow only touches pixels near its outline: work there
    rx0, ry0 = max(int(hull[:, 0].min()) - m, 0), max(int(hull[:, 1].min()) - m, 0)
    rx1, ry1 = min(int(hull[:, 0].max()) + m, w), min(int(hull[:, 1].max()) + m, h)
    if rx1 > rx0 and ry1 > ry0:
        shade = np.zeros((ry1 - ry0, rx1 - rx0), np.float32)
        cv2.fillConvexPoly(shade, np.round((hull - [rx0, ry0]) * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
        shade = cv2.GaussianBlur(shade, (0, 0), blur)
        canvas[ry0:ry1, rx0:rx1] *= (1 - rng.uniform(0.15, 0.55) * shade)[..., None]
    sh, sw = sprite.alpha.shape
    x0, y0, x1, y1 = max(ox, 0), max(oy, 0), min(ox + sw, w), min(oy + sh, h)
    if x1 > x0 and y1 > y0:
        sl = (slice(y0 - oy, y1 - oy), slice(x0 - ox, x1 - ox))
        a = sprite.alpha[sl][..., None]
        canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + sprite.colour[sl]
    return sprite.box + [ox, oy, ox, oy]
