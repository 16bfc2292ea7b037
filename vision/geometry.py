"""Tray geometry: which zone a point is in. (Whether a die lies flat is the face reader's call: a die's
outline could not tell a leaning die from a flat one seen in perspective with its shadow.)"""

from __future__ import annotations

import cv2

from .types import KEEP, OUTSIDE, ROLL, TrayCalibration


def zone_of(x: float, y: float, calibration: TrayCalibration | None) -> str:
    """KEEP inside the keep zone, ROLL elsewhere in the tray, OUTSIDE beyond it; no calibration: ROLL."""
    if calibration is None:
        return ROLL
    if calibration.keep is not None and cv2.pointPolygonTest(calibration.keep, (float(x), float(y)), False) >= 0:
        return KEEP
    if cv2.pointPolygonTest(calibration.tray, (float(x), float(y)), False) >= 0:
        return ROLL
    return OUTSIDE
