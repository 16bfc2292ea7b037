"""A felt tray with a keep zone, drawn with OpenCV under a known perspective: the frames the calibration
tests measure against, and the `--source synthetic` camera of `dicetable calibrate` on a machine without one.

The tray is drawn flat in its own plane (units of 1 px per unit at `plane` size, wall around it), then
warped into the frame so that the plane's corners land on `corners`. Everything a test expects (tray
and keep-zone corners in the frame, die size) follows from the scene's parameters, not from the finder.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.lab.render.flat import BLACK, MARBLED, RED_TRANSLUCENT, WHITE, die, surface

LOOKS = (WHITE, BLACK, RED_TRANSLUCENT, MARBLED, WHITE, BLACK)


@dataclass(frozen=True)
class TrayScene:
    size: tuple[int, int] = (1280, 720)  # frame (width, height)
    corners: tuple = ((250, 95), (1045, 70), (1090, 650), (205, 620))  # felt corners, clockwise from top-left
    plane: tuple[int, int] = (800, 560)  # the felt drawn flat (width, depth)
    keep_side: str | None = "bottom"  # side of the plane the keep strip lies along
    keep_fraction: float = 0.22  # keep depth / plane depth across that side
    keep_style: str = "colour"  # "colour": other felt; "tape": a tape line
    felt_bgr: tuple = (60, 110, 40)  # green felt
    keep_bgr: tuple = (50, 45, 150)  # red felt
    tape_bgr: tuple = (225, 225, 225)
    tape_width: float = 12.0  # plane units
    wall_bgr: tuple = (40, 60, 95)  # brown wooden wall
    wall_width: float = 40.0
    table_bgr: tuple = (165, 170, 175)
    seed: int = 0

    def homography(self) -> np.ndarray:
        w, d = self.plane
        src = np.float32([[0, 0], [w, 0], [w, d], [0, d]])
        return cv2.getPerspectiveTransform(src, np.float32(self.corners))

    def to_frame(self, points) -> np.ndarray:
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography()).reshape(-1, 2)

    def keep_rect(self) -> np.ndarray | None:
        """The keep zone in plane units (4x2, clockwise from top-left), or None."""
        if self.keep_side is None:
            return None
        w, d = self.plane
        k = self.keep_fraction * (d if self.keep_side in ("top", "bottom") else w)
        x0, y0, x1, y1 = {
            "top": (0, 0, w, k),
            "bottom": (0, d - k, w, d),
            "left": (0, 0, k, d),
            "right": (w - k, 0, w, d),
        }[self.keep_side]
        return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])

    # what a test expects, in frame pixels
    @property
    def tray(self) -> np.ndarray:
        return np.float32(self.corners)

    @property
    def keep(self) -> np.ndarray | None:
        rect = self.keep_rect()
        return None if rect is None else self.to_frame(rect)

    def plane_point(self, u: float, v: float) -> tuple[float, float]:
        """A point given as fractions (0..1) of the rolling area's width and depth, in frame pixels."""
        w, d = self.plane
        x0, y0, x1, y1 = 0.0, 0.0, float(w), float(d)
        rect = self.keep_rect()
        if rect is not None:  # the rolling area is the plane minus the keep strip
            kx0, ky0, kx1, ky1 = rect[0][0], rect[0][1], rect[2][0], rect[2][1]
            x0, x1 = (kx1, x1) if self.keep_side == "left" else (x0, kx0) if self.keep_side == "right" else (x0, x1)
            y0, y1 = (ky1, y1) if self.keep_side == "top" else (y0, ky0) if self.keep_side == "bottom" else (y0, y1)
        return tuple(self.to_frame([[x0 + u * (x1 - x0), y0 + v * (y1 - y0)]])[0])

    def render(self, dice: tuple = (), exposure: float = 1.0) -> np.ndarray:
        """The frame: table, wall, felt, keep zone, then `dice` as (u, v, size_px, value, angle) drawn flat.
        `exposure` scales the light (a camera whose automatic exposure has not settled)."""
        fw, fh = self.size
        w, d = self.plane
        m = int(self.wall_width)
        plane = np.empty((d + 2 * m, w + 2 * m, 3), np.uint8)
        plane[:] = self.wall_bgr
        plane[m : m + d, m : m + w] = surface(d, w, self.felt_bgr, seed=self.seed, grain=4.0)
        rect = self.keep_rect()
        if rect is not None:
            (x0, y0), (x1, y1) = rect[0].astype(int) + m, rect[2].astype(int) + m
            if self.keep_style == "colour":
                plane[y0:y1, x0:x1] = surface(y1 - y0, x1 - x0, self.keep_bgr, seed=self.seed + 1, grain=4.0)
            else:
                self._draw_tape(plane, m)
        shift = np.float64([[1, 0, -m], [0, 1, -m], [0, 0, 1]])  # plane image pixels -> plane units
        frame = np.empty((fh, fw, 3), np.uint8)
        frame[:] = self.table_bgr
        rng = np.random.default_rng(self.seed)
        frame = np.clip(frame + rng.normal(0, 3, (fh, fw, 1)), 0, 255).astype(np.uint8)
        cv2.warpPerspective(
            plane,
            self.homography() @ shift,
            (fw, fh),
            dst=frame,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        for i, (u, v, size, value, angle) in enumerate(dice):
            die(frame, self.plane_point(u, v), size, value, angle, LOOKS[i % len(LOOKS)], rng)
        if exposure != 1.0:
            frame = np.clip(frame.astype(np.float32) * exposure, 0, 255).astype(np.uint8)
        return frame

    def _draw_tape(self, plane: np.ndarray, m: int) -> None:
        """The tape line on the keep zone's inner edge (its rolling-area side)."""
        w, d = self.plane
        t = self.tape_width
        k = self.keep_fraction * (d if self.keep_side in ("top", "bottom") else w)
        band = {
            "top": (0, k - t, w, k),
            "bottom": (0, d - k, w, d - k + t),
            "left": (k - t, 0, k, d),
            "right": (w - k, 0, w - k + t, d),
        }[self.keep_side]
        x0, y0, x1, y1 = (int(round(v)) + m for v in band)
        plane[y0:y1, x0:x1] = self.tape_bgr

    def with_(self, **changes) -> TrayScene:
        return replace(self, **changes)


# Six dice spread over the rolling area: (u, v) fractions, value, angle. Sizes come from the caller.
SIX_DICE = (
    (0.2, 0.25, 1, 10),
    (0.5, 0.2, 2, 35),
    (0.8, 0.3, 3, 60),
    (0.25, 0.7, 4, 80),
    (0.55, 0.65, 5, 20),
    (0.8, 0.75, 6, 45),
)


def spread_dice(size_px: float, count: int = 6) -> tuple:
    return tuple((u, v, size_px, value, angle) for u, v, value, angle in SIX_DICE[:count])
