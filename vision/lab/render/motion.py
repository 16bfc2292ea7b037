"""How a thrown die moves: in from the edge, bouncing lower each time, rolling over as it travels,
and settling into the pose it ends in; how a die pushed by hand slides. Poses only, no drawing.

A die rolls about the horizontal axis across its path by the angle its travel would turn a ball of its
size, so the tumbling matches the distance and ends exactly in the final pose (the remaining rotation
shrinks to nothing as the die arrives).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .solid import Solid, axis_angle


@dataclass(frozen=True)
class Throw:
    solid: Solid
    rotation: np.ndarray  # the final pose
    start: tuple[float, float]  # mm, where it comes in (above the wall)
    end: tuple[float, float]  # mm, where it stops
    frames: int  # frames until it lies still
    height: float = 70.0  # mm above the felt at the start
    bounces: float = 2.5
    spin: float = 3.0  # radians of turning about the vertical it loses on the way

    def pose(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(rotation, centre) at frame k of the throw (k = frames: at rest)."""
        t = min(1.0, k / self.frames)
        s = 1 - (1 - t) ** 1.35  # slows down, yet still moving clearly until it stops
        start, end = np.asarray(self.start, float), np.asarray(self.end, float)
        xy = start + (end - start) * s
        path = end - start
        dist = float(np.linalg.norm(path))
        axis = np.array([-path[1], path[0], 0.0]) / max(dist, 1e-6)
        radius = float(np.abs(self.solid.vertices).max()) * 0.8
        rolled = (1 - s) * (dist / radius)
        rotation = axis_angle(axis, rolled) @ axis_angle([0, 0, 1], (1 - s) * self.spin) @ self.rotation
        lift = self.height * (1 - t) ** 1.3 * abs(np.cos(np.pi * self.bounces * t))
        z = -(self.solid.lowest(rotation) + lift)
        return rotation, np.array([xy[0], xy[1], z])


def slide(start: np.ndarray, end: np.ndarray, k: int, frames: int) -> np.ndarray:
    """A pushed die's centre at frame k of `frames`: eased in and out."""
    t = min(1.0, k / frames)
    s = 0.5 - 0.5 * np.cos(np.pi * t)
    return np.asarray(start) + (np.asarray(end) - np.asarray(start)) * s
