"""Helpers for the vision tests: how a reader reports the dice it finds, other cameras, a stand-in network."""

import dataclasses
from collections import Counter

import numpy as np


def kinds_reported(reader, images) -> Counter:
    """How a dice reader reports the labeled dice it finds: "d6", "d10", and "d6?"/"d10?" when it is unsure."""
    import cv2

    from vision.lab.scoring import match

    return Counter(
        det.kind + "?" * det.uncertain
        for image in images
        for det, _ in match(reader.read(cv2.imread(str(image.path))).dice, image.dice)[0]
    )


def _resized(frame, factor, interpolation):
    import cv2

    return cv2.resize(frame, None, fx=factor, fy=factor, interpolation=getattr(cv2, interpolation))


def _tint(frame, gains):
    return np.clip(frame * np.float32(gains), 0, 255).astype(np.uint8)


# Photos we are not given come from other cameras and under other lamps. Each: how the frame changes
# (BGR gains for a lamp's colour) and by what factor its size does.
OTHER_CAMERAS = {
    "half the resolution": (lambda f: _resized(f, 0.5, "INTER_AREA"), 0.5),
    "twice the resolution": (lambda f: _resized(f, 2.0, "INTER_CUBIC"), 2.0),
    "a warm lamp": (lambda f: _tint(f, (0.6, 0.9, 1.1)), 1.0),
    "cold daylight": (lambda f: _tint(f, (1.15, 1.0, 0.7)), 1.0),
}


def as_seen_by(read, camera: str):
    """`read` (frame -> Reading) given the frame as `camera` would have taken it, the dice's boxes brought
    back to the frame's own pixels so that its labels still hold."""
    change, factor = OTHER_CAMERAS[camera]

    def seen(frame):
        reading = read(change(frame))
        dice = tuple(dataclasses.replace(d, box=tuple(v / factor for v in d.box)) for d in reading.dice)
        return dataclasses.replace(reading, dice=dice, width=frame.shape[1], height=frame.shape[0])

    return seen


class FixedNet:
    """Stands in for a reader network (cv2.dnn.Net): every crop gets the same class scores."""

    def __init__(self, logits):
        self.logits = np.asarray(logits, np.float32)

    def setInput(self, blob):
        self.n = blob.shape[0]

    def forward(self):
        return np.tile(self.logits, (self.n, 1))
