"""One frame: the background, shadows, dice (blurred along their motion), a hand, sensor noise.

`render_frame(scene, dice, hand, noise_seed)` returns the BGR frame and, for every die, what a label
needs (kind, value, box of the whole die as seen, zone, cocked) taken from the geometry, never from a
reading of the picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ...labels import label_row
from . import solid as solids
from .solid import UP, Solid

COCKED_DEG = 8.0  # a top face tilted more than this does not lie flat
SHADOW = 0.5  # how much a die's shadow darkens the felt
EXPOSURE = 0.6  # share of the frame interval the shutter is open: the length of motion blur
MIN_SHOWING = 0.5  # a die is labeled only when at least this share of its silhouette is not covered


@dataclass(frozen=True)
class DieState:
    """A die somewhere in the scene: its solid, its rotation (die -> world) and centre (mm), its velocity
    (mm per frame, for motion blur). Ids let a sequence follow one die across frames."""

    solid: Solid
    rotation: np.ndarray
    centre: tuple[float, float, float]
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)
    id: int = 0

    @property
    def tilt_deg(self) -> float:
        n = self.rotation @ self.solid.normals[self.solid.faces.index(self.solid.face_up(self.rotation))]
        return float(np.degrees(np.arccos(np.clip(n @ UP, -1, 1))))

    @property
    def value(self) -> int:
        return self.solid.face_up(self.rotation).value

    @property
    def moving(self) -> bool:
        return bool(np.any(np.abs(self.velocity) > 1e-3))


@dataclass
class DieLabel:
    id: int
    kind: str
    value: int
    box: list
    zone: str
    cocked: bool
    moving: bool
    visible: bool = True  # False when the die is out of the frame (in the hand, say) or mostly covered
    showing: float = 1.0  # share of its silhouette (in the frame) not covered by later dice or the hand

    def to_json(self, thrown_in: int | None = None) -> dict:
        return label_row(self.kind, self.value, self.box, self.zone, self.cocked, thrown_in)


def _darken(frame: np.ndarray, polygon: np.ndarray, blur: float, strength: float) -> None:
    h, w = frame.shape[:2]
    k = int(max(1, blur * 3))
    x0, y0 = np.floor(polygon.min(axis=0)).astype(int) - k
    x1, y1 = np.ceil(polygon.max(axis=0)).astype(int) + k + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(mask, np.round((polygon - [x0, y0]) * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
    if blur > 0.3:
        mask = cv2.GaussianBlur(mask, (0, 0), blur)
    frame[y0:y1, x0:x1] *= (1 - strength * mask)[..., None]


def draw_shadow(frame: np.ndarray, die: DieState, scene) -> None:
    """The die's shadow on the plane it stands over (felt or table), softer the higher it flies."""
    world = (die.rotation @ die.solid.vertices.T).T + np.asarray(die.centre)
    light = scene.light.unit
    floor = 0.0
    to_floor = (floor - world[:, 2]) / light[2]  # steps along the light ray down to the felt
    shadow = world + to_floor[:, None] * light
    pts = scene.camera.project(shadow)
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
    height = -float(world[:, 2].max())  # lowest point above the felt
    px_per_mm = 1 / scene.camera.mm_per_px()
    _darken(frame, hull, blur=1.2 + height * px_per_mm * 0.35, strength=SHADOW / (1 + height / 25))
    # contact: the felt right under a die's edges sees no sky at all
    if height < 1.0:
        base = scene.camera.project(world[np.argsort(world[:, 2])[-4:]])
        _darken(frame, cv2.convexHull(base.astype(np.float32)).reshape(-1, 2), blur=1.0, strength=0.25)


def _motion_kernel(dx: float, dy: float) -> np.ndarray | None:
    length = float(np.hypot(dx, dy))
    if length < 1.2:
        return None
    n = int(np.ceil(length)) | 1
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    cv2.line(
        kernel,
        (int(round(c - dx / 2)), int(round(c - dy / 2))),
        (int(round(c + dx / 2)), int(round(c + dy / 2))),
        1.0,
        1,
    )
    return kernel / kernel.sum()


def draw_die(frame: np.ndarray, die: DieState, scene, owner: np.ndarray | None = None, index: int = 0) -> np.ndarray:
    """Composite the die onto the frame; returns its projected vertices. With `owner` (an int map at frame
    size), marks the pixels the die's silhouette covers (coverage over half its own) with `index`."""
    colour, alpha, (x0, y0), pts = solids.draw(die.solid, die.rotation, die.centre, scene)
    # motion blur: spread colour and coverage along the die's image velocity during the exposure
    a = np.asarray(die.centre, np.float64)
    b = a + np.asarray(die.velocity) * EXPOSURE
    pa, pb = scene.camera.project([a, b])
    kernel = _motion_kernel(*(pb - pa))
    premult = colour * alpha[..., None]
    if kernel is not None:
        pad = kernel.shape[0] // 2 + 1
        premult = cv2.copyMakeBorder(premult, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        alpha = cv2.copyMakeBorder(alpha, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        premult = cv2.filter2D(premult, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        alpha = cv2.filter2D(alpha, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        x0, y0 = x0 - pad, y0 - pad
    h, w = frame.shape[:2]
    fx0, fy0 = max(x0, 0), max(y0, 0)
    fx1, fy1 = min(x0 + alpha.shape[1], w), min(y0 + alpha.shape[0], h)
    if fx1 <= fx0 or fy1 <= fy0:
        return pts
    sl = (slice(fy0 - y0, fy1 - y0), slice(fx0 - x0, fx1 - x0))
    a_roi = alpha[sl][..., None]
    roi = frame[fy0:fy1, fx0:fx1]
    if die.solid.alpha < 1:  # light through a translucent die tints what lies under it
        roi *= 1 - a_roi * 0.35 * (1 - np.asarray(die.solid.body, np.float32) / 255)
    frame[fy0:fy1, fx0:fx1] = roi * (1 - a_roi) + premult[sl]
    if owner is not None and alpha.max() > 0:
        owner[fy0:fy1, fx0:fx1][alpha[sl] > 0.5 * alpha.max()] = index
    return pts


def label_of(die: DieState, pts: np.ndarray, scene) -> DieLabel:
    w, h = scene.camera.size
    lo = np.clip(pts.min(axis=0), 0, [w, h])
    hi = np.clip(pts.max(axis=0), 0, [w, h])
    visible = bool((hi - lo).min() > 2)
    return DieLabel(
        die.id,
        die.solid.kind,
        die.value,
        [float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])],
        scene.tray.zone(die.centre[0], die.centre[1]),
        die.tilt_deg > COCKED_DEG,
        die.moving,
        visible,
    )


def render_frame(scene, dice: Sequence[DieState], hand=None, noise_seed: int = 0) -> tuple[np.ndarray, list[DieLabel]]:
    frame = scene.background()
    for die in dice:
        draw_shadow(frame, die, scene)
    if hand is not None:
        hand.draw_shadow(frame, scene)
    labels = {}
    owner = np.full(frame.shape[:2], -1, np.int32)  # which die shows at each pixel (-1: none, -2: the hand)
    order = np.argsort([-float(scene.camera.depth([d.centre])[0]) for d in dice])  # far dice first
    area = np.zeros(len(dice))
    for i in order:
        pts = draw_die(frame, dice[i], scene, owner, int(i))
        area[i] = np.count_nonzero(owner == i)
        labels[i] = label_of(dice[i], pts, scene)
    if hand is not None:
        hand.draw(frame, scene)
        owner[hand._mask(scene)[0] > 127] = -2
    # how much of each die still shows once the dice drawn after it and the hand cover it
    shown = np.bincount(owner[owner >= 0].ravel(), minlength=len(dice))
    for i, label in labels.items():
        label.showing = float(shown[i] / area[i]) if area[i] else 0.0
        label.visible = label.visible and label.showing >= MIN_SHOWING
    rng = np.random.default_rng(noise_seed)
    frame += rng.normal(0, scene.light.noise, frame.shape[:2] + (1,)).astype(np.float32)
    frame += rng.normal(0, scene.light.noise * 0.5, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8), [labels[i] for i in range(len(dice))]
