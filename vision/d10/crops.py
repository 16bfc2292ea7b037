"""How the d10 reader prepares its inputs; training uses the same functions, so they cannot drift apart."""
from __future__ import annotations

import cv2
import numpy as np

READ_SIZE = 64          # side of the crop the value reader sees: a numeral ~18 px, a 6/9 dot ~3 px
READ_CONTEXT = 1.1      # the crop covers this many times the die's box (whole die, neighbours' faces in view)


def read_crop(frame: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    """READ_SIZE x READ_SIZE crop centred on (cx, cy) covering `side` frame pixels; edges replicate."""
    half = max(float(side), 4.0) / 2
    x0, y0 = int(np.floor(cx - half)), int(np.floor(cy - half))
    x1, y1 = int(np.ceil(cx + half)), int(np.ceil(cy + half))
    h, w = frame.shape[:2]
    pad = (max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w))
    roi = frame[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
    if roi.size == 0:
        return np.zeros((READ_SIZE, READ_SIZE, 3), np.uint8)
    if any(pad):
        roi = cv2.copyMakeBorder(roi, *pad, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if roi.shape[0] > READ_SIZE else cv2.INTER_LINEAR
    return cv2.resize(roi, (READ_SIZE, READ_SIZE), interpolation=interp)
