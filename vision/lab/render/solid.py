"""A die as a textured convex solid: vertices in die millimetres, faces with a flat texture each.

Drawing a die: project its vertices through the camera, fill the silhouette with the body's edge
shade (the rounded edges between faces), then warp every face that turns towards the camera onto its
projected corners, lit by the scene's light. The result is a small RGBA layer the frame composites,
blurred along the die's motion when it moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

UP = np.array([0.0, 0.0, -1.0])  # world up (Z points into the table)


@dataclass(frozen=True)
class Face:
    vertices: tuple[int, ...]  # 4 vertex indices, in the order of `uv`
    value: int  # what the die shows when this face is on top
    uv: np.ndarray  # (4, 2) texture pixels of those vertices
    texture: np.ndarray  # float32 BGR
    mask: np.ndarray  # float32 0..1: the printed face inside its rounded edges


@dataclass(frozen=True)
class Solid:
    kind: str  # "d6" or "d10"
    vertices: np.ndarray  # (N, 3) mm around the die's centre
    faces: tuple[Face, ...]
    normals: np.ndarray  # (F, 3) outward, die frame
    body: tuple  # BGR of the body, for the edges
    alpha: float = 1.0  # below 1: translucent
    gloss: float = 0.25  # strength of the light's reflection

    def face_up(self, rotation: np.ndarray) -> Face:
        """The face whose normal points most nearly up: the value the die shows."""
        return self.faces[int(np.argmax((rotation @ self.normals.T).T @ UP))]

    def resting(self, value: int) -> np.ndarray:
        """A rotation (die -> world) that puts the face showing `value` on top, lying flat."""
        face = next(f for f in self.faces if f.value == value)
        n = self.normals[self.faces.index(face)]
        return rotation_between(n, UP)

    def lowest(self, rotation: np.ndarray) -> float:
        """How far the lowest vertex lies below the centre (mm): the centre's height at rest."""
        return float((rotation @ self.vertices.T)[2].max())


def rotation_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest rotation taking unit vector a onto unit vector b."""
    a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
    axis = np.cross(a, b)
    s, c = np.linalg.norm(axis), float(np.dot(a, b))
    if s < 1e-9:
        if c > 0:
            return np.eye(3)
        other = np.array([1.0, 0, 0]) if abs(a[0]) < 0.9 else np.array([0, 1.0, 0])
        axis = np.cross(a, other)
        return axis_angle(axis / np.linalg.norm(axis), np.pi)
    return axis_angle(axis / s, np.arctan2(s, c))


def axis_angle(axis, angle: float) -> np.ndarray:
    r, _ = cv2.Rodrigues(np.asarray(axis, np.float64).reshape(3) * float(angle))
    return r


def draw(
    solid: Solid, rotation: np.ndarray, centre, scene
) -> tuple[np.ndarray, np.ndarray, tuple[int, int], np.ndarray]:
    """The die's layer: (colour float32 h×w×3, alpha float32 h×w, (x0, y0) in the frame, outline points)."""
    cam = scene.camera
    world = (rotation @ solid.vertices.T).T + np.asarray(centre, np.float64)
    pts = cam.project(world)
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 3
    size = (x1 - x0, y1 - y0)
    local = (pts - [x0, y0]).astype(np.float32)
    colour = np.zeros((size[1], size[0], 3), np.float32)
    alpha = np.zeros((size[1], size[0]), np.float32)

    normals = (rotation @ solid.normals.T).T
    light = scene.light_level(float(centre[0]), float(centre[1]))
    shades = scene.shade(normals) * light
    # the silhouette: rounded edges catch less light than the faces
    hull = cv2.convexHull(local).reshape(-1, 2)
    centroid = hull.mean(axis=0)
    body_hull = (centroid + (hull - centroid) * 0.985).astype(np.float32)
    edge = np.asarray(solid.body, np.float32) * float(shades.mean()) * 0.72
    cv2.fillConvexPoly(colour, np.round(body_hull * 4).astype(np.int32), edge.tolist(), cv2.LINE_AA, shift=2)
    cv2.fillConvexPoly(alpha, np.round(body_hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)

    to_camera = np.asarray(cam.position) - world[[f.vertices[0] for f in solid.faces]]
    half = scene.light.unit + to_camera / np.linalg.norm(to_camera, axis=1, keepdims=True)
    half /= np.linalg.norm(half, axis=1, keepdims=True)
    for i, face in enumerate(solid.faces):
        if np.dot(normals[i], to_camera[i]) <= 0:
            continue
        m = cv2.getPerspectiveTransform(face.uv.astype(np.float32), local[list(face.vertices)])
        tex = cv2.warpPerspective(face.texture, m, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(face.mask, m, size, flags=cv2.INTER_LINEAR)[..., None]
        spec = solid.gloss * 255 * max(0.0, float(normals[i] @ half[i])) ** 40
        colour[:] = colour * (1 - mask) + (tex * shades[i] + spec) * mask
    return colour, alpha * solid.alpha, (int(x0), int(y0)), pts
