"""How the d10 reader prepares its inputs; training uses the same functions, so they cannot drift apart."""

from __future__ import annotations

import numpy as np

from ..preprocess import crop

READ_SIZE = 64  # side of the crop the value reader sees: a numeral ~18 px, a 6/9 dot ~3 px
READ_CONTEXT = 1.1  # the crop covers this many times the die's box (whole die, neighbours' faces in view)


def read_crop(frame: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    """READ_SIZE x READ_SIZE crop centred on (cx, cy) covering `side` frame pixels; edges replicate."""
    return crop(frame, cx, cy, side, READ_SIZE)
