"""The finder network's output, one place for both ends of it: what training asks it to produce and
how a reader turns it back into dice. Per output cell (STRIDE frame pixels of the finder's input):
channel 0 the heat (a die's centre), 1-2 the log width and height, 3-4 the centre's offset in the cell.
Both the d6 and the d10 finders use this layout."""

from __future__ import annotations

import cv2
import numpy as np

STRIDE = 4
FIND_LEVEL = 0.30  # finder heat at which a peak counts as a die

Find = tuple[float, float, float, float, float]  # cx, cy, w, h, score in frame pixels


def decode(out: np.ndarray, scale: float, level: float = FIND_LEVEL) -> list[Find]:
    """The dice in one finder output (C x H x W) of a frame shrunk by `scale`."""
    heat = 1 / (1 + np.exp(-out[0]))
    peaks = (heat >= level) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    finds = []
    for iy, ix in zip(*np.nonzero(peaks)):
        cx = (ix + out[3, iy, ix]) * STRIDE / scale
        cy = (iy + out[4, iy, ix]) * STRIDE / scale
        w, h = np.exp(out[1:3, iy, ix]) / scale
        finds.append((float(cx), float(cy), float(w), float(h), float(heat[iy, ix])))
    return finds


def lies_on(small: Find, big: Find, times: float) -> bool:
    """`small`'s centre lies on `big`, at least `times` its size: a pip, face or numeral of that die found on
    its own (or `big` is a heap of dice found as one)."""
    return (
        max(big[2], big[3]) >= times * max(small[2], small[3])
        and abs(small[0] - big[0]) <= big[2] / 2
        and abs(small[1] - big[1]) <= big[3] / 2
    )


def on_bigger(f: Find, finds: list[Find], times: float) -> bool:
    """`f` lies on one of `finds` at least `times` its size: it is a part of that die, not a die."""
    return any(lies_on(f, big, times) for big in finds)


def targets(boxes: np.ndarray, patch: int):
    """What the finder should output for a square patch with these die boxes: (heat, size, offset, mask)."""
    out = patch // STRIDE
    heat = np.zeros((out, out), np.float32)
    size = np.zeros((2, out, out), np.float32)
    offset = np.zeros((2, out, out), np.float32)
    mask = np.zeros((out, out), np.float32)
    yy, xx = np.mgrid[0:out, 0:out].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        if not (0 <= cx < out and 0 <= cy < out):
            continue
        bw, bh = max(x1 - x0, 2.0), max(y1 - y0, 2.0)
        sigma = max(0.6, min(bw, bh) / STRIDE / 5)
        heat = np.maximum(heat, np.exp(-((xx - cx + 0.5) ** 2 + (yy - cy + 0.5) ** 2) / (2 * sigma**2)))
        ix, iy = int(cx), int(cy)
        heat[iy, ix] = 1.0
        size[:, iy, ix] = np.log([bw, bh])
        offset[:, iy, ix] = [cx - ix, cy - iy]
        mask[iy, ix] = 1.0
    return heat, size, offset, mask
