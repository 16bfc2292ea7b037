"""The six-sided face reader (models/faces.onnx), which both dice readers use: for a die's crop, "no die",
its value 1..6, or "cocked" (the die leans: no face is up, so it is reported, not read)."""

from __future__ import annotations

import numpy as np

from .finder import Find
from .preprocess import FACE_CONTEXT, face_crop, read_turned
from .types import Die

NO_DIE, COCKED = 0, 7  # face classes besides the values 1..6


def classify(net, frame: np.ndarray, finds: list[Find]) -> np.ndarray:
    """Class probabilities (N x 8: no die, 1..6, cocked) of the face network `net` for each find."""
    if not finds:
        return np.zeros((0, COCKED + 1), np.float32)
    return read_turned(net, [face_crop(frame, cx, cy, max(w, h) * FACE_CONTEXT) for cx, cy, w, h, _ in finds])


def six_sided_die(p: np.ndarray, box, zone: str, kind_sure: float = 1.0) -> Die:
    """The six-sided die that face probabilities `p` show: its value, or cocked when leaning is likelier than
    any value. `kind_sure`: how sure the caller is that this is a six-sided die at all (scales the confidence)."""
    value = int(np.argmax(p[1:COCKED])) + 1
    cocked = bool(p[COCKED] > p[value])
    return Die("d6", None if cocked else value, box, zone, kind_sure * float(p[COCKED] if cocked else p[value]), cocked)
