"""Tray geometry: which zone a point is in, and whether a die's outline says it is not lying flat."""
from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from .types import KEEP, OUTSIDE, ROLL, TrayCalibration


def zone_of(x: float, y: float, calibration: Optional[TrayCalibration]) -> str:
    """KEEP inside the keep zone, ROLL elsewhere in the tray, OUTSIDE beyond it; no calibration: ROLL."""
    if calibration is None:
        return ROLL
    if calibration.keep is not None and cv2.pointPolygonTest(calibration.keep, (float(x), float(y)), False) >= 0:
        return KEEP
    if cv2.pointPolygonTest(calibration.tray, (float(x), float(y)), False) >= 0:
        return ROLL
    return OUTSIDE


# A flat die, seen from above, is a square of the calibrated size however it is turned. A die leaning
# over shows its top face foreshortened and one side beside it: one side of its outline grows by
# sin(tilt) + cos(tilt) - 1 (up to +41%) while the other stays a die's edge.
COCKED_LONG_SIDE = 1.18     # long side of the outline / die edge, at or above which a die leans
TWO_DICE_LONG_SIDE = 1.6    # ... and beyond which the outline is two dice touching, not one leaning
FLAT_SHORT_SIDE = 1.15      # short side must still look like one die's edge (else: dice touching)
DIFFERENCE_LEVEL = 30       # grey-level change from the empty tray that counts as "something here"


def foreground_mask(frame: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Where the frame differs from the empty tray (any channel), cleaned of specks."""
    diff = cv2.absdiff(frame, empty).max(axis=2)
    mask = (diff > DIFFERENCE_LEVEL).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def outline_sides(mask: np.ndarray, cx: float, cy: float, die_px: float) -> Optional[tuple[float, float]]:
    """Short and long side of the minimal rectangle around the blob under (cx, cy), within ~1 die."""
    r = int(die_px * 1.2)
    h, w = mask.shape[:2]
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    x1, y1 = min(w, int(cx) + r + 1), min(h, int(cy) + r + 1)
    roi = mask[y0:y1, x0:x1]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(roi, connectivity=8)
    px, py = int(cx) - x0, int(cy) - y0
    if not (0 <= py < roi.shape[0] and 0 <= px < roi.shape[1]) or n < 2:
        return None
    label = labels[py, px]
    if label == 0:   # centre on a pip that matches the tray: take the largest blob instead
        label = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    points = cv2.findNonZero((labels == label).astype(np.uint8))
    (_, _), (a, b), _ = cv2.minAreaRect(points)
    return (min(a, b), max(a, b))


def is_cocked(mask: np.ndarray, cx: float, cy: float, die_px: float) -> bool:
    sides = outline_sides(mask, cx, cy, die_px)
    if sides is None:
        return False
    short, long = sides[0] / die_px, sides[1] / die_px
    return COCKED_LONG_SIDE <= long < TWO_DICE_LONG_SIDE and short <= FLAT_SHORT_SIDE
