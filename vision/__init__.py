"""Vision: from camera frames to facts about the tray. Knows nothing of games, buttons or screens.

    import vision
    reading = vision.read(frame)                      # a bare photo of dice on a plain surface
    reading = vision.read(frame, calibration)         # a calibrated tray: zones, die size, cocked dice
    detector = vision.RestDetector(empty_small)       # over a stream of small frames
    state = detector.update(small, full)              # state.read_now -> vision.read(state.frame, ...)

Scoring against labeled photo sets: load_labeled_set, evaluate, match (see vision.scoring).
"""
from .reader import DiceReader, read
from .rest import RestDetector
from .scoring import LabeledDie, LabeledImage, Score, evaluate, load_labeled_set, match
from .splits import SPLITS, is_held_out
from .types import (AT_REST, EMPTY, HAND, KEEP, MOVING, OUTSIDE, ROLL, UNCERTAIN_BELOW, Die, Reading,
                    RestState, TrayCalibration)

__all__ = [
    "DiceReader", "read", "RestDetector", "LabeledDie", "LabeledImage", "Score", "evaluate",
    "load_labeled_set", "match", "SPLITS", "is_held_out", "AT_REST", "EMPTY", "HAND", "KEEP", "MOVING",
    "OUTSIDE", "ROLL", "UNCERTAIN_BELOW", "Die", "Reading", "RestState", "TrayCalibration",
]
