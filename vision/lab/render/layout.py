"""Where dice come to rest: free spots in the rolling area (some touching each other or the wall), the
keep zone's row, the table beyond the wall; and the rotation a die rests in (flat, or leaning: cocked)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .solid import Solid, axis_angle

ZONE_MARGIN = 0.95  # die edges kept between a die's centre and the keep line: its zone is never in doubt
WALL_MARGIN = 0.75


def spacing(solid: Solid) -> float:
    """Centre distance at which two dice of this kind cannot overlap, however they are turned."""
    return 2 * float(np.linalg.norm(solid.vertices[:, :2], axis=1).max()) * 0.92


def resting_rotation(solid: Solid, value: int, yaw: float, lean_deg: float = 0.0, lean_axis: float = 0.0) -> np.ndarray:
    """Die -> world rotation showing `value` on top, turned by `yaw`; leaning `lean_deg` if cocked."""
    rotation = axis_angle([0, 0, 1], yaw) @ solid.resting(value)
    if lean_deg:
        axis = [np.cos(lean_axis), np.sin(lean_axis), 0.0]
        rotation = axis_angle(axis, np.radians(lean_deg)) @ rotation
    return rotation


def free_spot(
    scene, solid: Solid, taken: Sequence[np.ndarray], rng: np.random.Generator, zone: str = "roll", tries: int = 400
) -> np.ndarray:
    """A random point in the zone at least one die's spacing from every taken spot."""
    t, d = scene.tray, scene.die_mm
    x_lim = t.width / 2 - WALL_MARGIN * d - d / 2
    y_lo, y_hi = -t.depth / 2 + WALL_MARGIN * d + d / 2, t.keep_line - ZONE_MARGIN * d
    if zone == "keep":
        y_lo, y_hi = t.keep_line + ZONE_MARGIN * d, t.depth / 2 - WALL_MARGIN * d - d / 2
    gap = spacing(solid)
    for _ in range(tries):
        p = np.array([rng.uniform(-x_lim, x_lim), rng.uniform(y_lo, y_hi)])
        if all(np.linalg.norm(p - q) >= gap for q in taken):
            return p
        gap *= 0.998  # a crowded tray: accept a little closer rather than fail
    raise ValueError(f"no free spot in the {zone} zone for another die")


def touching(solid: Solid, other: np.ndarray, yaw: float, rng: np.random.Generator) -> np.ndarray:
    """A spot right beside a die at `other` turned by `yaw`: face to face (d6), or close (d10)."""
    side = rng.integers(4) * np.pi / 2 + yaw
    edge = float(np.abs(solid.vertices[:, 0]).max()) * 2
    gap = spacing(solid) * 0.95 if solid.kind == "d10" else edge * 1.03
    return other + gap * np.array([np.cos(side), np.sin(side)])


def against_wall(scene, solid: Solid, rotation: np.ndarray, side: str, along: float) -> np.ndarray:
    """A spot where the die's outermost point just touches the inner face of a wall."""
    t = scene.tray
    extent = np.abs(rotation @ solid.vertices.T)
    if side in ("left", "right"):
        x = t.width / 2 - extent[0].max() - 0.3
        return np.array([x if side == "right" else -x, along])
    y = t.depth / 2 - extent[1].max() - 0.3
    return np.array([along, -y])  # the far wall (the near one borders the keep zone)


def beyond_wall(scene, side: str = "right", along: float = 0.0) -> np.ndarray:
    """A spot on the table just outside the wall, still in the picture."""
    t = scene.tray
    x = t.width / 2 + t.wall_width + scene.die_mm * 0.8
    return np.array([x if side == "right" else -x, along])


def keep_slots(scene, solid: Solid, count: int, taken: Sequence[np.ndarray] = ()) -> list[np.ndarray]:
    """`count` free spots in a row along the keep strip, from its left, skipping spots already taken."""
    t = scene.tray
    y = (t.keep_line + t.depth / 2) / 2
    step = spacing(solid) * 1.05
    x = -t.width / 2 + WALL_MARGIN * scene.die_mm + step / 2
    out = []
    while len(out) < count:
        p = np.array([x, y])
        if all(np.linalg.norm(p - q) >= step * 0.95 for q in list(taken) + out):
            out.append(p)
        x += step
        if x > t.width / 2:
            raise ValueError("the keep zone is full")
    return out


def yaw_for(rng: np.random.Generator, lo: float = 0.0, hi: float | None = None) -> float:
    return float(rng.uniform(lo, hi if hi is not None else 2 * np.pi))
