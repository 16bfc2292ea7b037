"""Reading a frame: find dice (finder network), read each face (face network), add zone and cocked flag.

The face network also says when the die under a crop does not lie flat (its class COCKED): it saw
flat dice in perspective, with their side faces and shadows, and leaning dice, in rendered scenes.

Both networks are small ONNX files in vision/models run through cv2.dnn; see vision/training for how
they were trained and on what.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

import cv2
import numpy as np

from . import geometry
from .finder import Find
from .frame_reader import FrameReader
from .preprocess import FACE_CONTEXT, face_crop, finder_scale, read_turned
from .types import Die, Reading, TrayCalibration

MODELS = Path(__file__).resolve().parent / "models"
SAME_DIE = 0.45          # two finds closer than this many box sides are one die
# A leaning die shows two faces, which the finder may find as two dice; flat dice cannot lie this
# close (touching, their centres are a whole edge apart), so a find this near a cocked one is part of it.
LEANING_REACH = 0.75     # box sides
NO_DIE, COCKED = 0, 7    # face classes besides the values 1..6


class DiceReader(FrameReader):
    """reader = DiceReader(); reading = reader.read(frame, calibration=None)."""

    def __init__(self, models: Path = MODELS):
        self.finder = cv2.dnn.readNet(str(models / "finder.onnx"))
        self.faces = cv2.dnn.readNet(str(models / "faces.onnx"))

    # -- the two stages, usable on their own
    def find(self, frame: np.ndarray, die_px: Optional[float] = None) -> list[Find]:
        """Candidate dice as (cx, cy, w, h, score) in frame pixels."""
        return self._merge(self._find_at(frame, finder_scale(frame.shape, die_px)))

    @staticmethod
    def _merge(finds):
        finds = sorted(finds, key=lambda f: -f[4])
        kept = []
        for f in finds:
            if all(np.hypot(f[0] - k[0], f[1] - k[1]) > SAME_DIE * max(k[2], k[3]) for k in kept):
                kept.append(f)
        return kept

    def classify(self, frame: np.ndarray, finds) -> np.ndarray:
        """Class probabilities (N x 8: no die, 1..6, cocked) for each find."""
        if not finds:
            return np.zeros((0, COCKED + 1), np.float32)
        crops = [face_crop(frame, cx, cy, max(w, h) * FACE_CONTEXT) for cx, cy, w, h, _ in finds]
        return read_turned(self.faces, crops)

    def dice(self, frame, finds, probs, calibration) -> list[Die]:
        die_px = calibration.die_px if calibration else None
        dice = []
        for (cx, cy, w, h, _), p in zip(finds, probs):
            if p[NO_DIE] >= p[1:].max():   # the face reader sees no die here: a phantom
                continue
            value = int(np.argmax(p[1:COCKED])) + 1
            # the face reader sees a die that leans: reported, not read (a 7-class reader cannot say)
            cocked = bool(len(p) > COCKED and p[COCKED] > p[1:COCKED].max())
            if die_px:   # the calibrated size is steadier than the finder's own estimate
                w = h = die_px
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            dice.append(Die("d6", None if cocked else value, box, geometry.zone_of(cx, cy, calibration),
                            float(p[COCKED] if cocked else p[value]), cocked))
        return _one_die_per_leaning_die(dice)


def _one_die_per_leaning_die(dice: list[Die]) -> list[Die]:
    """Drop the finds that are another face of a die the reader saw leaning."""
    def part_of_leaning(die: Die) -> bool:
        return any(other.cocked and other is not die and
                   np.hypot(die.centre[0] - other.centre[0], die.centre[1] - other.centre[1])
                   < LEANING_REACH * (other.box[2] - other.box[0]) for other in dice)
    return [d for d in dice if d.cocked or not part_of_leaning(d)]


@functools.cache
def _packaged() -> DiceReader:
    return DiceReader()


def read(frame: np.ndarray, calibration: Optional[TrayCalibration] = None) -> Reading:
    """Read a frame with the packaged models (loaded once)."""
    return _packaged().read(frame, calibration)
