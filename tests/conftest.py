"""Shared test setup: headless pygame, and where the shared data lives.

OpenCV and vision are imported by the helpers that need them: a test of the rules or the table loads neither."""
import dataclasses
import os
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATASETS = SHARED / "datasets"
RULES = SHARED / "rules"


def dataset(name: str) -> Path:
    """The labeled photo set `name` from ../shared/datasets, or skip the test saying why."""
    path = DATASETS / name
    if not (path / "labels.json").exists():
        pytest.skip(f"dataset {name!r} not found at {path} (it lives in ../shared/datasets beside the repository)")
    return path


def photos(name: str, split: str = "all") -> list:
    """The labeled photos of set `name` in the models' `split` ("all", "train", "heldout": vision.lab.splits.in_split)."""
    from vision.lab.splits import in_split
    from vision.labels import load_labeled_set

    return [image for image in load_labeled_set(dataset(name)) if in_split(image, split)]


def examples(local: int, ci: int) -> int:
    """How many random examples a property test plays: the full count in CI (CI=true), fewer on a
    developer's machine, so the suite stays quick to run while working."""
    return ci if os.environ.get("CI", "").lower() in ("1", "true", "yes") else local


def holds(expected, actual) -> bool:
    """Everything `expected` says is in `actual`, which may say more (a final sheet's bonuses, say)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and holds(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(map(holds, expected, actual))
    return expected == actual


def kinds_reported(reader, images) -> Counter:
    """How a dice reader reports the labeled dice it finds: "d6", "d10", and "d6?"/"d10?" when it is unsure."""
    import cv2

    from vision.lab.scoring import match

    return Counter(det.kind + "?" * det.uncertain for image in images
                   for det, _ in match(reader.read(cv2.imread(str(image.path))).dice, image.dice)[0])


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


def too_many_pixels() -> bytes:
    """A PNG whose header claims 60000x60000 pixels (a damaged size field): OpenCV raises instead of returning None."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))
