"""Vision: from camera frames to facts about the tray. Knows nothing of games, buttons or screens.

    import vision
    reading = vision.read(frame)                      # a bare photo of dice on a plain surface
    reading = vision.read(frame, calibration)         # a calibrated tray: zones, die size, cocked dice
    reading = vision.read_kind(frame, calibration, "d10")   # the reader for that kind of dice (FACES)
    detector = vision.RestDetector(empty_small)       # over a stream of small frames
    state = detector.update(small, full)              # state.read_now -> vision.read(state.frame, ...)

The label format: vision.labels. The lab (rendering, training, scoring of labeled sets): vision.lab.
"""
from __future__ import annotations

from .reader import DiceReader, read
from .rest import RestDetector
from .types import (AT_REST, EMPTY, FACES, HAND, KEEP, MOVING, OUTSIDE, ROLL, UNCERTAIN_BELOW, Die, Reading,
                    RestState, TrayCalibration)


def read_kind(frame, calibration: TrayCalibration | None = None, kind: str = "d6") -> Reading:
    """Read a frame with the packaged reader for `kind` of dice (a kind of FACES)."""
    if kind == "d10":   # imported here: `import vision` stays light (the d10 reader loads OpenCV)
        from .d10 import read_d10

        return read_d10(frame, calibration)
    return read(frame, calibration)   # looked up at each call: tests put a reader of their own in `read`


__all__ = [
    "DiceReader", "read", "read_kind", "RestDetector", "AT_REST",
    "EMPTY", "FACES", "HAND", "KEEP", "MOVING", "OUTSIDE", "ROLL", "UNCERTAIN_BELOW", "Die", "Reading", "RestState",
    "TrayCalibration",
]
