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

import importlib
import sys

from .types import (
    AT_REST,
    EMPTY,
    FACES,
    HAND,
    KEEP,
    MOVING,
    OUTSIDE,
    ROLL,
    UNCERTAIN_BELOW,
    Die,
    Reading,
    RestState,
    TrayCalibration,
)

# Imported at first use (PEP 562): `vision.types` is plain data, the rest loads OpenCV, which the rules, the table
# and their tests do without. Each name: the module it comes from.
LAZY = {**dict.fromkeys(("DiceReader", "read"), ".reader"), "RestDetector": ".rest"}


def __getattr__(name: str):
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(LAZY[name], __name__), name)
    globals()[name] = value  # once: the next look-up finds it
    return value


def read_kind(frame, calibration: TrayCalibration | None = None, kind: str = "d6") -> Reading:
    """Read a frame with the packaged reader for `kind` of dice (a kind of FACES)."""
    if kind == "d10":  # imported here: `import vision` stays light (the d10 reader loads OpenCV)
        from .d10 import read_d10

        return read_d10(frame, calibration)
    # looked up on the module at each call: tests put a reader of their own in `read`
    return sys.modules[__name__].read(frame, calibration)


__all__ = [
    "DiceReader",
    "read",
    "read_kind",
    "RestDetector",
    "AT_REST",
    "EMPTY",
    "FACES",
    "HAND",
    "KEEP",
    "MOVING",
    "OUTSIDE",
    "ROLL",
    "UNCERTAIN_BELOW",
    "Die",
    "Reading",
    "RestState",
    "TrayCalibration",
]
