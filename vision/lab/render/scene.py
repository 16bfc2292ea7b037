"""The tray and its surroundings as the camera sees them, without dice: felt, keep zone, wall, table,
light from one side with the wall's shadow, a lamp's uneven fall-off and the lens's vignette.

All geometry is in tray millimetres (see camera.py); the background is drawn once per scene by
following every pixel's ray to the felt, the wall's top, its inner face or the table beyond.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import cv2
import numpy as np

from . import textures
from .camera import Camera

PX_PER_MM = 3.0  # texture resolution: finer than the camera's ~2 px/mm at the felt

FELTS = {  # name: (felt, keep-zone felt) BGR
    "green": ((55, 105, 35), (45, 45, 140)),
    "blue": ((120, 65, 25), (40, 110, 150)),
    "red": ((40, 35, 130), (40, 90, 40)),
    "grey": ((95, 95, 90), (125, 70, 35)),
    "black": ((32, 32, 30), (40, 35, 110)),
    "burgundy": ((45, 25, 85), (100, 100, 95)),
}
WOODS = ((45, 75, 120), (30, 50, 85), (80, 120, 165), (35, 35, 40))  # walnut, dark, pine, black lacquer
TABLES = ((150, 155, 160), (60, 85, 110), (200, 200, 195), (40, 40, 45))
TAPES = ((230, 230, 230), (60, 200, 230), (40, 40, 220))  # white, yellow, red


def grey(bgr) -> float:
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


@dataclass(frozen=True)
class Tray:
    width: float = 330.0  # felt inside the wall, mm (X)
    depth: float = 250.0  # mm (Y)
    keep_depth: float = 62.0  # the keep strip along the player's side (+Y); 0: no keep zone
    wall_width: float = 18.0
    wall_height: float = 28.0
    felt: str = "green"
    keep_style: str = "colour"  # "colour": its own felt; "tape": a tape line across the felt
    tape: tuple = TAPES[0]
    wood: tuple = WOODS[0]
    table: tuple = TABLES[0]

    @property
    def keep_line(self) -> float:
        """Y of the keep zone's inner edge."""
        return self.depth / 2 - self.keep_depth

    def corners(self) -> np.ndarray:
        w, d = self.width / 2, self.depth / 2
        return np.array([[-w, -d, 0], [w, -d, 0], [w, d, 0], [-w, d, 0]], np.float64)

    def keep_corners(self) -> np.ndarray | None:
        if self.keep_depth <= 0:
            return None
        w, d, k = self.width / 2, self.depth / 2, self.keep_line
        return np.array([[-w, k, 0], [w, k, 0], [w, d, 0], [-w, d, 0]], np.float64)

    def zone(self, x: float, y: float) -> str:
        """The true zone of a point on the felt: what a label says."""
        if abs(x) > self.width / 2 or abs(y) > self.depth / 2:
            return "outside"
        return "keep" if self.keep_depth > 0 and y >= self.keep_line else "roll"


@dataclass(frozen=True)
class Light:
    direction: tuple = (-0.35, -0.45, -1.0)  # towards the light (Z up is negative)
    brightness: float = 1.0
    lamp: tuple = (-60.0, -40.0)  # mm: where the light on the felt is strongest
    lamp_reach: float = 380.0  # mm: how wide the bright patch is
    tint: tuple = (1.0, 1.0, 1.0)  # white balance left over (B, G, R gains)
    noise: float = 1.6  # sensor noise, grey levels

    @property
    def unit(self) -> np.ndarray:
        d = np.asarray(self.direction, np.float64)
        return d / np.linalg.norm(d)


@dataclass(frozen=True)
class Scene:
    tray: Tray = field(default_factory=Tray)
    camera: Camera = field(default_factory=Camera)
    light: Light = field(default_factory=Light)
    die_mm: float = 16.0  # edge of the dice in play
    seed: int = 0

    @classmethod
    def random(cls, seed: int, size: tuple[int, int] = (960, 720), die_mm: float | None = None) -> Scene:
        rng = np.random.default_rng(seed)
        felt = str(rng.choice(list(FELTS)))
        tray = Tray(
            felt=felt,
            keep_style=str(rng.choice(["colour", "tape"])),
            tape=TAPES[rng.integers(len(TAPES))],
            wood=WOODS[rng.integers(len(WOODS))],
            table=TABLES[rng.integers(len(TABLES))],
            keep_depth=float(rng.uniform(55, 70)),
        )
        scale = size[0] / 960
        camera = Camera(
            size=size,
            focal=float(rng.uniform(1230, 1290)) * scale,
            position=(float(rng.uniform(-12, 12)), float(rng.uniform(20, 70)), float(rng.uniform(-585, -560))),
            target=(float(rng.uniform(-10, 10)), float(rng.uniform(-5, 15)), 0.0),
            roll_deg=float(rng.uniform(-2.5, 2.5)),
            distortion=(float(rng.uniform(-0.14, -0.05)), float(rng.uniform(0.0, 0.05)), 0.0, 0.0, 0.0),
        )
        angle = rng.uniform(0, 2 * np.pi)
        tilt = rng.uniform(0.25, 0.7)
        light = Light(
            direction=(float(np.cos(angle) * tilt), float(np.sin(angle) * tilt), -1.0),
            brightness=float(rng.uniform(0.85, 1.15)),
            lamp=(float(rng.uniform(-120, 120)), float(rng.uniform(-90, 90))),
            lamp_reach=float(rng.uniform(280, 520)),
            tint=tuple(float(v) for v in rng.uniform(0.92, 1.08, 3)),
            noise=float(rng.uniform(1.0, 2.2)),
        )
        return cls(tray, camera, light, die_mm=float(die_mm or rng.uniform(16.0, 19.0)), seed=seed)

    def with_(self, **changes) -> Scene:
        return replace(self, **changes)

    # -- what a calibration profile says about this scene ---------------------------------------
    def tray_polygon(self) -> np.ndarray:
        return self.camera.project(self.tray.corners()).astype(np.float32)

    def keep_polygon(self) -> np.ndarray | None:
        keep = self.tray.keep_corners()
        return None if keep is None else self.camera.project(keep).astype(np.float32)

    def die_px(self) -> float:
        """Edge of a die's top face at the felt's centre, in frame pixels."""
        s, h = self.die_mm / 2, -self.die_mm
        pts = self.camera.project([[-s, 0, h], [s, 0, h]])
        return float(np.linalg.norm(pts[1] - pts[0]))

    # -- light ---------------------------------------------------------------------------------
    def felt_greys(self) -> tuple[float, float]:
        """Grey levels of the felt and the keep zone's felt (what a grey-level detector compares with)."""
        felt, keep = FELTS[self.tray.felt]
        return grey(felt), grey(keep if self.tray.keep_style == "colour" else felt)

    def light_level(self, x, y) -> np.ndarray:
        """How bright the lamp makes the felt at (x, y) mm: 1 in the middle of its patch."""
        lx, ly = self.light.lamp
        r2 = ((np.asarray(x) - lx) ** 2 + (np.asarray(y) - ly) ** 2) / self.light.lamp_reach**2
        return self.light.brightness * (1.08 / (1 + 0.9 * r2))

    def shade(self, normal: np.ndarray) -> np.ndarray:
        """Lambert shading of surfaces with world normals (N, 3), with ambient light."""
        return 0.45 + 0.6 * np.clip(np.asarray(normal) @ self.light.unit, 0, 1)

    # -- the background ---------------------------------------------------------------------------
    @cached_property
    def _background(self) -> np.ndarray:
        return self._draw_background()

    def background(self) -> np.ndarray:
        """The empty tray as float32 BGR, lit, without noise (a copy each call)."""
        return self._background.copy()

    def _draw_background(self) -> np.ndarray:
        t, cam = self.tray, self.camera
        rng = np.random.default_rng(self.seed + 7)
        floor = cam.hit_plane(0.0)
        top = cam.hit_plane(-t.wall_height)
        w2, d2, ww = t.width / 2, t.depth / 2, t.wall_width

        def inside(p, dx, dy):
            return (np.abs(p[..., 0]) <= dx) & (np.abs(p[..., 1]) <= dy)

        felt_mask = inside(floor, w2, d2) & inside(top, w2, d2)
        wall_top = inside(top, w2 + ww, d2 + ww) & ~inside(top, w2, d2)
        inner = inside(top, w2, d2) & ~inside(floor, w2, d2)
        table = ~(felt_mask | wall_top | inner)

        out = np.zeros(floor.shape[:2] + (3,), np.float32)
        out += self._sample(self._felt_texture(rng), floor, w2, d2)[:, :, :] * felt_mask[..., None]
        wood = textures.wood(rng, (int((t.depth + 2 * ww) * 2), int((t.width + 2 * ww) * 2)), t.wood)
        out += self._sample(wood, top, w2 + ww, d2 + ww, scale=2.0) * wall_top[..., None] * 1.08
        out += self._sample(wood, top, w2 + ww, d2 + ww, scale=2.0) * (inner * self._inner_shade(floor))[..., None]
        table_tex = textures.plain(rng, (int(floor.shape[0] // 2), int(floor.shape[1] // 2)), t.table)
        out += cv2.resize(table_tex, (floor.shape[1], floor.shape[0])) * table[..., None]

        level = self.light_level(floor[..., 0], floor[..., 1]) * np.where(felt_mask, self._wall_shadow(floor), 1.0)
        out *= level[..., None].astype(np.float32)
        out *= self._vignette()[..., None]
        out *= np.asarray(self.light.tint, np.float32)
        return cv2.GaussianBlur(out, (0, 0), 0.6)  # lens softness, and no stair-stepped edges

    def _felt_texture(self, rng) -> np.ndarray:
        t = self.tray
        h, w = int(t.depth * PX_PER_MM), int(t.width * PX_PER_MM)
        felt, keep = FELTS[t.felt]
        tex = textures.felt(rng, (h, w), felt)
        if t.keep_depth > 0:
            k = int((t.keep_line + t.depth / 2) * PX_PER_MM)
            if t.keep_style == "colour":
                tex[k:] = textures.felt(rng, (h - k, w), keep)
            else:  # a strip of tape across the felt, 10 mm wide, on the zone's side of the line
                tape = int(10 * PX_PER_MM)
                tex[k : k + tape] = textures.plain(rng, (tape, w), t.tape, grain=2.0)
        return tex

    @staticmethod
    def _sample(
        tex: np.ndarray, plane: np.ndarray, half_w: float, half_d: float, scale: float = PX_PER_MM
    ) -> np.ndarray:
        mx = ((plane[..., 0] + half_w) * scale).astype(np.float32)
        my = ((plane[..., 1] + half_d) * scale).astype(np.float32)
        return cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)

    def _inner_shade(self, floor: np.ndarray) -> np.ndarray:
        """The inner wall faces: each lit by how much it turns towards the light."""
        t = self.tray
        x, y = floor[..., 0], floor[..., 1]
        # the face a ray hits is the one its floor point lies beyond, most
        over = np.stack([-x - t.width / 2, x - t.width / 2, -y - t.depth / 2, y - t.depth / 2])
        normals = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], np.float64)  # pointing into the tray
        shade = self.shade(normals).astype(np.float32) * 0.85
        return shade[np.argmax(over, axis=0)]

    def _wall_shadow(self, floor: np.ndarray) -> np.ndarray:
        """The wall on the light's side shades a soft band of felt beside it."""
        t, l = self.tray, self.light.unit
        reach = t.wall_height / abs(l[2])
        sx, sy = floor[..., 0] + l[0] * reach, floor[..., 1] + l[1] * reach
        beyond = np.maximum(np.abs(sx) - t.width / 2, np.abs(sy) - t.depth / 2)
        return 1 - 0.38 / (1 + np.exp(-beyond / 3.0))

    def _vignette(self) -> np.ndarray:
        w, h = self.camera.size
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (self.camera.focal**2)
        return 1 / (1 + r2) ** 2  # cos^4 fall-off of a simple lens
