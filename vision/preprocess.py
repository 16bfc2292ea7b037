"""How frames and crops are prepared for the two networks; training uses the same functions."""

from __future__ import annotations

import cv2
import numpy as np

FINDER_LONG_SIDE = 320  # the finder sees the frame with its long side at this many pixels
FINDER_MULTIPLE = 32  # the finder's input sides are multiples of this (its deepest stride is 16)
FINDER_DIE_PX = 22.0  # with a known die size, the finder sees dice at about this many pixels
FINDER_MOST_SIDE = 2048  # the finder's input is never longer than this: dice smaller there are not found
FACE_SIZE = 40  # side of the crop the face reader sees
FACE_CONTEXT = 1.3  # the crop is this many times the die's box, so the whole face is in view


def finder_input(frame: np.ndarray, scale: float) -> np.ndarray:
    """The frame resized by `scale` and padded (edge colour) to multiples of FINDER_MULTIPLE: HxWx3 uint8."""
    return finder_inputs(frame, [scale])[0]


def finder_inputs(frame: np.ndarray, scales: list[float]) -> list[np.ndarray]:
    """finder_input at each of `scales`, largest first: each is shrunk from the one before (shrinking a whole
    camera frame costs about a third of a finder's look at it)."""
    inputs, small, at = [], frame, 1.0
    for scale in scales:
        h, w = small.shape[:2]
        nh, nw = max(1, int(round(h * scale / at))), max(1, int(round(w * scale / at)))
        small = cv2.resize(small, (nw, nh), interpolation=cv2.INTER_AREA if scale < at else cv2.INTER_LINEAR)
        at = scale
        ph, pw = -nh % FINDER_MULTIPLE, -nw % FINDER_MULTIPLE
        inputs.append(cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE) if ph or pw else small)
    return inputs


def with_border(frame: np.ndarray, width: int) -> np.ndarray:
    """The frame within a border `width` px wide of its edge's median colour: its surroundings, continued."""
    edge = np.concatenate([frame[0], frame[-1], frame[:, 0], frame[:, -1]])
    colour = [int(c) for c in np.median(edge, axis=0)]
    return cv2.copyMakeBorder(frame, width, width, width, width, cv2.BORDER_CONSTANT, value=colour)


def finder_scale(frame_shape, die_px: float | None = None) -> float:
    """Scale that brings a frame to the finder's working size; with a known die size, brings dice to
    FINDER_DIE_PX, but never past FINDER_MOST_SIDE (tiny dice in a big frame would ask for gigabytes)."""
    if die_px:
        return min(FINDER_DIE_PX / die_px, FINDER_MOST_SIDE / max(frame_shape[:2]))
    return FINDER_LONG_SIDE / max(frame_shape[:2])


def crop(frame: np.ndarray, cx: float, cy: float, side: float, size: int) -> np.ndarray:
    """A size x size crop centred on (cx, cy) covering `side` frame pixels (at least 4); edges replicate,
    and a crop wholly outside the frame is black (there is nothing to replicate)."""
    half = max(float(side), 4.0) / 2
    x0, y0 = int(np.floor(cx - half)), int(np.floor(cy - half))
    x1, y1 = int(np.ceil(cx + half)), int(np.ceil(cy + half))
    h, w = frame.shape[:2]
    roi = frame[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
    if roi.size == 0:
        return np.zeros((size, size, 3), np.uint8)
    pad = (max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w))
    if any(pad):
        roi = cv2.copyMakeBorder(roi, *pad, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if roi.shape[0] > size else cv2.INTER_LINEAR
    return cv2.resize(roi, (size, size), interpolation=interp)


def face_crop(frame: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    """The face reader's FACE_SIZE x FACE_SIZE crop centred on (cx, cy), covering `side` pixels."""
    return crop(frame, cx, cy, side, FACE_SIZE)


def to_blob(images: list[np.ndarray]) -> np.ndarray:
    """uint8 HxWx3 images of one size -> float32 NCHW in 0..1 (the networks subtract 0.5 themselves)."""
    return cv2.dnn.blobFromImages(images, 1.0 / 255.0, swapRB=False, crop=False)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise probabilities from a network's logits (N x classes)."""
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# A die reads the same turned by a quarter turn, and a reader's mistakes mostly differ between turns, so
# averaging the four turns' probabilities corrects many of them. Most dice are read surely as they lie
# (about 85% of the real six-sided dice at 0.9): only the others are read turned, at a third of the cost.
SURE = 0.9
TURNS = (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)


def read_turned(net, crops: list[np.ndarray]) -> np.ndarray:
    """Class probabilities (N x classes) of `net` for each crop; a crop whose first reading's best class is
    below SURE is read at the other three quarter turns too and the four readings averaged."""
    net.setInput(to_blob(crops))
    probs = softmax(net.forward())
    unsure = np.flatnonzero(probs.max(axis=1) < SURE)
    if len(unsure):
        net.setInput(to_blob([cv2.rotate(crops[i], t) for t in TURNS[1:] for i in unsure]))
        turned = softmax(net.forward()).reshape(len(TURNS) - 1, len(unsure), -1)
        probs[unsure] = (probs[unsure] + turned.sum(axis=0)) / len(TURNS)
    return probs
