"""What both dice readers (six-sided, ten-sided) do with a frame: find candidate dice, read each one's crop,
turn the readings into dice, in reading order. Each reader says how it finds, reads and decides."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from .finder import Find, decode
from .preprocess import SURE, finder_input, to_blob
from .types import FACES, OUTSIDE, Die, Reading, TrayCalibration

MODELS = Path(__file__).resolve().parent / "models"  # both readers' networks
DOUBTED_MOST = 6  # finds taken for no die kept as doubted (Reading.doubted): the likeliest dice


def classic_net(path: Path) -> cv2.dnn.Net:
    """The network on OpenCV dnn's classic engine, for the six-sided face networks and the look. On OpenCV 5 it
    reads them about a twentieth of a frame's read faster than the new engine (six face crops: 2.3 ms against 2.8;
    `read_ms` 35-37 against 38-39), and it returns any layer's output, where the new engine returns only the
    graph's (learnt/look.py takes a die's features from inside the face network). OpenCV 4 has only this one. The
    finders and the ten-sided reader's networks stay on the new engine, which runs them faster (a ten-sided
    frame's read: 41-44 ms against 53-59)."""
    if hasattr(cv2.dnn, "ENGINE_CLASSIC"):
        return cv2.dnn.readNetFromONNX(str(path), engine=cv2.dnn.ENGINE_CLASSIC)
    return cv2.dnn.readNetFromONNX(str(path))


class FrameReader:
    finder: cv2.dnn.Net  # the finder network (finder.py's output layout), set by each reader
    DIE_CLASSES = slice(1, None)  # the classify() classes that are a die of the reader's kind (0 is "no die")

    def find(self, frame: np.ndarray, die_px: float | None = None) -> list[Find]:
        """Candidate dice; `die_px`, a calibrated die size, sets the scale the finder looks at."""
        raise NotImplementedError

    def _find_at(self, frame: np.ndarray, scale: float, finder: cv2.dnn.Net | None = None) -> list[Find]:
        """The dice a finder network (by default the reader's own) sees in the frame shrunk by `scale`."""
        return self._find_in(finder_input(frame, scale), scale, finder)

    def _find_in(self, shrunk: np.ndarray, scale: float, finder: cv2.dnn.Net | None = None) -> list[Find]:
        """The same, given the frame already shrunk by `scale` (`preprocess.finder_inputs`)."""
        finder = self.finder if finder is None else finder
        finder.setInput(to_blob([shrunk]))
        return decode(finder.forward()[0], scale)

    def classify(self, frame: np.ndarray, finds: list[Find]) -> np.ndarray:
        """Class probabilities of the reader network, one row per find."""
        raise NotImplementedError

    def _look(self, frame, shrunk, scale: float, least: float, only_sure: bool, finder=None) -> list[Find]:
        """A bare look's finds (`_find_in`) of at least `least` px at its scale; where `only_sure`, only those the
        reader network reads surely as one of its DIE_CLASSES."""
        found = [f for f in self._find_in(shrunk, scale, finder) if max(f[2], f[3]) * scale >= least]
        if not only_sure:
            return found
        return [f for f, p in zip(found, self.classify(frame, found)) if p[self.DIE_CLASSES].max() >= SURE]

    def dice(
        self, frame: np.ndarray, finds: list[Find], probs: np.ndarray, calibration: TrayCalibration | None
    ) -> list[Die]:
        """The dice the finds and their class probabilities make (phantoms dropped, one die per die)."""
        return self.judged(frame, finds, probs, calibration)[0]

    def judged(
        self, frame: np.ndarray, finds: list[Find], probs: np.ndarray, calibration: TrayCalibration | None
    ) -> tuple[list[Die], tuple[Die, ...]]:
        """The dice (`dice`), and the finds dropped as no die that may yet be one, likeliest first (`likeliest`:
        Reading.doubted)."""
        raise NotImplementedError

    def read(self, frame: np.ndarray, calibration: TrayCalibration | None = None) -> Reading:
        _check(frame)
        start = time.perf_counter()
        finds = self.find(frame, calibration.die_px if calibration else None)
        dice, doubted = self.judged(frame, finds, self.classify(frame, finds), calibration)
        dice.sort(key=lambda d: (d.box[1], d.box[0]))
        h, w = frame.shape[:2]
        return Reading(tuple(dice), w, h, (time.perf_counter() - start) * 1000, doubted)


def likeliest(doubted: list[Die]) -> tuple[Die, ...]:
    """The DOUBTED_MOST doubted finds likeliest to be a die (the reader's share for their kind's values), none outside
    the tray: there one is never asked about nor learnt, and one that learnt dice made a die would stop the game."""
    inside = [d for d in doubted if d.zone != OUTSIDE]
    return tuple(sorted(inside, key=lambda d: -sum(d.probs[1 : FACES[d.kind] + 1]))[:DOUBTED_MOST])


def _check(frame) -> None:
    """The networks were trained on 8-bit BGR frames: anything else would be read as nonsense, silently."""
    shape = getattr(frame, "shape", ())
    if getattr(frame, "dtype", None) != np.uint8 or len(shape) != 3 or shape[2] != 3 or not frame.size:
        raise ValueError(
            f"a frame to read must be an 8-bit BGR image (height x width x 3, uint8), "
            f"not {getattr(frame, 'dtype', type(frame).__name__)} of shape {tuple(shape)}"
        )
