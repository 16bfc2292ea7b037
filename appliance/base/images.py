"""Reading a picture file, for the calibration profile, recorded games and the commands that read photos.
The one module of appliance.base that loads OpenCV."""

from __future__ import annotations

import cv2
import numpy as np


def read_picture(path) -> np.ndarray | None:
    """The BGR picture in an image file, or None when OpenCV cannot read it. OpenCV raises, rather than
    returning None, for a header that claims more pixels than it opens (a damaged size field, say)."""
    try:
        return cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error:
        return None
