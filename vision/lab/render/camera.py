"""The camera above the tray: a pinhole with barrel distortion, placed and aimed in tray millimetres.

World frame: origin at the felt's centre, X to the right, Y towards the player (down in the picture),
Z into the table, so a point h mm above the felt has Z = -h. OpenCV's projectPoints applies the lens
distortion to dice corners; `rays()` undoes it per pixel so the background is drawn through the same lens.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    size: tuple[int, int] = (960, 720)  # frame width, height
    focal: float = 1150.0  # px
    position: tuple[float, float, float] = (0.0, 60.0, -560.0)  # mm; a little towards the player
    target: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the point it looks at
    roll_deg: float = 0.0  # camera turned about its axis
    distortion: tuple[float, ...] = (-0.10, 0.03, 0.0, 0.0, 0.0)  # k1 k2 p1 p2 k3: mild barrel

    @cached_property
    def matrix(self) -> np.ndarray:
        w, h = self.size
        return np.array([[self.focal, 0, w / 2], [0, self.focal, h / 2], [0, 0, 1]], np.float64)

    @cached_property
    def rotation(self) -> np.ndarray:
        """World -> camera rotation (rows: camera x, y, z axes in world coordinates)."""
        forward = np.subtract(self.target, self.position).astype(np.float64)
        z = forward / np.linalg.norm(forward)
        x = np.array([1.0, 0.0, 0.0]) - z[0] * z
        x /= np.linalg.norm(x)
        y = np.cross(z, x)
        c, s = np.cos(np.radians(self.roll_deg)), np.sin(np.radians(self.roll_deg))
        x, y = c * x + s * y, -s * x + c * y
        return np.stack([x, y, z])

    @cached_property
    def _rt(self) -> tuple[np.ndarray, np.ndarray]:
        rvec, _ = cv2.Rodrigues(self.rotation)
        tvec = -self.rotation @ np.asarray(self.position, np.float64)
        return rvec, tvec

    def project(self, points) -> np.ndarray:
        """World points (N, 3) -> frame pixels (N, 2), through the lens."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 3)
        rvec, tvec = self._rt
        out, _ = cv2.projectPoints(pts, rvec, tvec, self.matrix, np.asarray(self.distortion, np.float64))
        return out.reshape(-1, 2)

    def depth(self, points) -> np.ndarray:
        """Distance along the viewing axis: what is nearer the camera is drawn later."""
        pts = np.asarray(points, np.float64).reshape(-1, 3)
        return (pts - np.asarray(self.position)) @ self.rotation[2]

    @cached_property
    def _ray_cache(self) -> np.ndarray:
        w, h = self.size
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        pix = np.stack([xs, ys], -1).reshape(-1, 1, 2)
        norm = cv2.undistortPoints(pix, self.matrix, np.asarray(self.distortion, np.float64)).reshape(h, w, 2)
        cam = np.concatenate([norm, np.ones((h, w, 1), np.float32)], -1)
        return cam @ self.rotation.astype(np.float32)  # camera -> world directions

    def rays(self) -> np.ndarray:
        """(h, w, 3) world direction of the ray through each pixel's centre."""
        return self._ray_cache

    def hit_plane(self, z: float) -> np.ndarray:
        """(h, w, 2): where each pixel's ray meets the horizontal plane Z = z (X, Y in mm)."""
        d = self.rays()
        c = np.asarray(self.position, np.float32)
        s = (z - c[2]) / d[..., 2]
        return c[:2] + d[..., :2] * s[..., None]

    def mm_per_px(self, z: float = 0.0) -> float:
        """Rough scale at the centre, for blur kernels and texture sizes."""
        return float(abs(z - self.position[2]) / self.focal)
