"""A hand and forearm reaching into the tray from one edge of the picture, with its shadow.

Drawn in the picture (it is far above the felt, so the lens hardly bends it): a forearm from the
frame's edge to the wrist, a palm, four fingers and a thumb pointing where the hand reaches, shaded
like a rounded limb, with a soft shadow cast on the felt along the light.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SKINS = ((140, 170, 225), (105, 140, 195), (70, 100, 150), (50, 70, 105), (160, 190, 235))
SLEEVES = ((60, 40, 30), (150, 150, 150), (40, 40, 140), (90, 120, 40), (30, 30, 30))


@dataclass(frozen=True)
class Hand:
    reach: tuple[float, float]  # fingertips over this felt point, mm
    height: float = 45.0  # mm above the felt
    side: str = "bottom"  # the frame edge the arm comes from: bottom, left, right, top
    skin: tuple = SKINS[0]
    sleeve: tuple = SLEEVES[0]
    spread: float = 1.0  # how far the fingers fan out
    velocity: tuple[float, float] = (0.0, 0.0)  # px per frame, for motion blur

    def _geometry(self, scene):
        cam = scene.camera
        tip = cam.project([[self.reach[0], self.reach[1], -self.height]])[0]
        px_per_mm = cam.focal / abs(cam.position[2] + self.height)
        w, h = cam.size
        edge = {
            "bottom": np.array([0.0, 1.0]),
            "top": np.array([0.0, -1.0]),
            "left": np.array([-1.0, 0.0]),
            "right": np.array([1.0, 0.0]),
        }[self.side]
        # the arm comes from the edge, slanted a little towards the frame's centre line
        back = edge + 0.25 * np.array([np.sign(tip[0] - w / 2), 0.0]) * (self.side in ("bottom", "top"))
        back /= np.linalg.norm(back)
        palm_len = 95 * px_per_mm
        wrist = tip + back * palm_len
        root = wrist + back * (w + h)
        return tip, wrist, root, -back, px_per_mm

    def _mask(self, scene, offset=(0.0, 0.0)) -> tuple[np.ndarray, np.ndarray]:
        """(skin+sleeve mask, sleeve mask) at frame size, uint8."""
        w, h = scene.camera.size
        tip, wrist, root, forward, px = self._geometry(scene)
        tip, wrist, root = tip + offset, wrist + offset, root + offset
        side = np.array([-forward[1], forward[0]])
        mask = np.zeros((h, w), np.uint8)
        sleeve = np.zeros((h, w), np.uint8)
        s = 8  # sub-pixel precision of the drawing calls (shift=3)

        def pt(p):
            return tuple(int(round(v * s)) for v in p)

        arm_w = 62 * px
        cuff = wrist + (root - wrist) / np.linalg.norm(root - wrist) * 70 * px
        arm = np.array(
            [
                wrist + side * arm_w * 0.42,
                wrist - side * arm_w * 0.42,
                root - side * arm_w * 0.6,
                root + side * arm_w * 0.6,
            ]
        )
        cv2.fillConvexPoly(mask, np.round(arm * s).astype(np.int32), 255, cv2.LINE_AA, shift=3)
        sleeve_poly = np.array(
            [
                cuff + side * arm_w * 0.56,
                cuff - side * arm_w * 0.56,
                root - side * arm_w * 0.7,
                root + side * arm_w * 0.7,
            ]
        )
        cv2.fillConvexPoly(sleeve, np.round(sleeve_poly * s).astype(np.int32), 255, cv2.LINE_AA, shift=3)
        palm_c = wrist + forward * 45 * px
        angle = float(np.degrees(np.arctan2(forward[1], forward[0])))
        cv2.ellipse(
            mask, pt(palm_c), (int(50 * px * s), int(42 * px * s)), angle, 0, 360, 255, -1, cv2.LINE_AA, shift=3
        )
        for k, (a, length) in enumerate(zip((-22, -7, 7, 21), (0.78, 1.0, 0.95, 0.72))):
            d = np.array([np.cos(np.radians(angle + a * self.spread)), np.sin(np.radians(angle + a * self.spread))])
            base = palm_c + forward * 30 * px + side * (k - 1.5) * 17 * px
            end = base + d * 75 * px * length
            cv2.line(mask, pt(base), pt(end), 255, max(1, int(17 * px)), cv2.LINE_AA, shift=3)
        thumb_d = np.array([np.cos(np.radians(angle - 60)), np.sin(np.radians(angle - 60))])
        cv2.line(
            mask,
            pt(palm_c - side * 30 * px),
            pt(palm_c - side * 30 * px + thumb_d * 60 * px),
            255,
            max(1, int(20 * px)),
            cv2.LINE_AA,
            shift=3,
        )
        return mask, sleeve

    def draw_shadow(self, frame: np.ndarray, scene) -> None:
        l = scene.light.unit
        shift_mm = self.height / abs(l[2])
        base = scene.camera.project(
            [
                [self.reach[0], self.reach[1], 0.0],
                [self.reach[0] - l[0] * shift_mm, self.reach[1] - l[1] * shift_mm, 0.0],
            ]
        )
        mask, _ = self._mask(scene, offset=base[1] - base[0])
        soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 4 + self.height / 8)
        frame *= (1 - 0.45 * soft)[..., None]

    def draw(self, frame: np.ndarray, scene) -> None:
        mask, sleeve = self._mask(scene)
        m = mask.astype(np.float32) / 255
        # a rounded limb: brighter along its middle, darker towards its outline
        inside = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        px = scene.camera.focal / abs(scene.camera.position[2] + self.height)
        shade = 0.55 + 0.5 * np.sqrt(np.clip(inside / (14 * px), 0, 1))
        sl = sleeve.astype(np.float32)[..., None] / 255
        colour = np.asarray(self.skin, np.float32) * (1 - sl) + np.asarray(self.sleeve, np.float32) * sl
        colour = colour * (shade * scene.light.brightness * 1.05)[..., None]
        kernel = None
        speed = float(np.hypot(*self.velocity))
        if speed > 1.5:
            n = int(speed * 0.6) | 1
            kernel = np.zeros((n, n), np.float32)
            c = n // 2
            d = np.asarray(self.velocity) / speed * (n / 2)
            cv2.line(kernel, (int(c - d[0]), int(c - d[1])), (int(c + d[0]), int(c + d[1])), 1.0, 1)
            kernel /= kernel.sum()
            colour = cv2.filter2D(colour * m[..., None], -1, kernel)
            m = cv2.filter2D(m, -1, kernel)
            frame[:] = frame * (1 - m[..., None]) + colour
            return
        frame[:] = frame * (1 - m[..., None]) + colour * m[..., None]
