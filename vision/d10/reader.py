"""Reading ten-sided dice: find dice (d10 finder network), read each one (value reader network).

The value reader answers for the die under the crop's centre: "no die" (a phantom find, dropped),
a d10 value 1..10 (printed 0 = 10) read from the upper kite face, or "six-sided die". Which of the two
kinds a die is, the kinds reader says: the same network trained on real six-sided dice as well, which
tells the kinds apart far better and reads numerals a little worse. A six-sided die is reported as kind
"d6" with the value the six-sided face reader gives it, so a game expecting d10s can say that a d6 is
on the tray instead of misreading it. The ONNX models live in vision/models; how they were trained and
on what: vision/lab/training/d10_train.py and vision/models/README-d10.md.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from .. import faces, geometry
from ..finder import Find, lies_on
from ..frame_reader import MODELS, FrameReader, likeliest
from ..preprocess import SURE, finder_inputs, finder_scale, read_turned
from ..types import Die, Reading, TrayCalibration
from .crops import READ_CONTEXT, read_crop

SAME_DIE = 0.5  # two finds closer than this many box sides are one die
# Without a calibration the die's size is unknown: look at the frame with its long side at 320 px (tray
# frames: dice ~15-25 px) and at 160 px (close-up photos, where a die is too big to see whole), each look
# with the die sizes (finder pixels) it sees whole. The coarse look's finds under 24 px are left to the fine
# look, which sees them sharper: otherwise it reports two touching tray dice as one die twice their size,
# which then hides them as its "faces". A fine-look find over 48 px may be part of a die that the coarse look
# sees whole (a close-up photo turned on its side: half the die boxed), so it yields to a find that fits. A
# crop of one die is too big for the coarse look too: an 80 px look sees it whole, but there a tray or a heap
# of dice is one find as well, so its finds are kept only where the reader reads them surely as a d10
# (DIE_CLASSES).
# Each look: long side, smallest and biggest die that fit, whether kept only if read surely.
BARE_LOOKS = ((320, 0.0, 48.0, False), (160, 24.0, np.inf, False), (80, 24.0, np.inf, True))
INSIDE_BIGGER = 1.5  # a die whose centre lies on a die this many times its size is part of that die
NO_DIE, D6 = 0, 11  # reader classes besides the d10 values 1..10
WIDER = 1.3  # an unsure die is read again with this many times more of its surroundings


class D10Reader(FrameReader):
    """reader = D10Reader(); reading = reader.read(frame, calibration=None)."""

    DIE_CLASSES = slice(1, D6)  # a d10's values: a tray seen whole reads surely as a six-sided die

    def __init__(self, models: Path = MODELS):
        self.finder = cv2.dnn.readNet(str(models / "d10_finder.onnx"))
        self.reader = cv2.dnn.readNet(str(models / "d10_reader.onnx"))
        self.kinds = cv2.dnn.readNet(str(models / "d10_kinds.onnx"))
        self.models = models
        self._d6_faces = None  # the six-sided face reader, loaded the first time a d6 turns up

    def find(self, frame: np.ndarray, die_px: float | None = None) -> list[Find]:
        """Candidate dice as (cx, cy, w, h, score) in frame pixels: those their look sees whole first, each
        group strongest first."""
        looks = (
            [(finder_scale(frame.shape, die_px), 0.0, np.inf, False)]
            if die_px
            else [(side / max(frame.shape[:2]), *fit) for side, *fit in BARE_LOOKS]
        )
        finds = []  # (fits its look, score, find)
        shrunk_frames = finder_inputs(frame, [look[0] for look in looks])
        for (scale, smallest, biggest, only_sure), shrunk in zip(looks, shrunk_frames):
            for f in self._look(frame, shrunk, scale, smallest, only_sure):
                finds.append((max(f[2], f[3]) * scale <= biggest, f[4], f))
        kept = []  # one die found twice is kept once: where it fits, else the surer; faces are settled later
        for *_, f in sorted(finds, key=lambda x: x[:2], reverse=True):
            if not any(_same_die(f, k) for k in kept):
                kept.append(f)
        return kept

    def classify(self, frame: np.ndarray, finds) -> np.ndarray:
        """Class probabilities (N x 12: no die, d10 values 1..10, six-sided die) for each find. A find read
        below SURE is read again with more of its surroundings in view and the two readings averaged: on the
        real photos under other light or turned, the wider look settles dice that the usual one misreads."""
        if not finds:
            return np.zeros((0, 12), np.float32)
        probs = self._read(frame, finds, READ_CONTEXT)
        unsure = np.flatnonzero(probs.max(axis=1) < SURE)
        if len(unsure):  # whether a die is there stays the usual look's to say: the wider one sees neighbours
            wider = self._read(frame, [finds[k] for k in unsure], READ_CONTEXT * WIDER)
            die = 1 - probs[unsure, NO_DIE : NO_DIE + 1]
            probs[unsure, 1:] = die * (_of_a_die(probs[unsure]) + _of_a_die(wider)) / 2
        return probs

    def _read(self, frame: np.ndarray, finds, context: float) -> np.ndarray:
        """The value reader's probabilities for crops of `context` times each find's box, with its share for
        a die split between the kinds as the kinds reader splits it."""
        crops = [read_crop(frame, cx, cy, max(w, h) * context) for cx, cy, w, h, _ in finds]
        probs, kinds = read_turned(self.reader, crops), read_turned(self.kinds, crops)
        die = 1 - probs[:, NO_DIE]
        ten = kinds[:, 1:D6].sum(axis=1) / np.maximum(kinds[:, 1:].sum(axis=1), 1e-9)  # of a die, it is a d10
        values = probs[:, 1:D6] / np.maximum(probs[:, 1:D6].sum(axis=1, keepdims=True), 1e-9)
        probs[:, 1:D6] = values * (die * ten)[:, None]
        probs[:, D6] = die * (1 - ten)
        return probs

    def six_sided(self, frame: np.ndarray, finds: list[Find]) -> np.ndarray:
        """The six-sided face reader's class probabilities for finds that are six-sided dice."""
        if self._d6_faces is None:
            self._d6_faces = faces.load(self.models)
        return faces.classify(self._d6_faces, frame, finds)

    def judged(self, frame, finds, probs, calibration) -> tuple[list[Die], tuple[Die, ...]]:
        best = np.argmax(probs, axis=1)
        d6 = [k for k, b in enumerate(best) if b == D6]
        d6_faces = dict(zip(d6, self.six_sided(frame, [finds[k] for k in d6])))
        read = [(*f[:4], p.max()) for f, p in zip(finds, probs)]  # each find with how sure its reading is
        dice_read = [r for r, b in zip(read, best) if b != NO_DIE]
        dice, doubted = [], []
        for k, ((cx, cy, w, h, _), p) in enumerate(zip(finds, probs)):
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            zone = geometry.zone_of(cx, cy, calibration)
            if _outranked(read[k], dice_read):  # part of a die
                continue
            if best[k] == NO_DIE:  # a phantom, or a d10 the reader doubts (where likelier a d10 than a d6)
                if p[1:D6].sum() >= p[D6]:
                    doubted.append(ten_sided_die(p, box, zone))
            elif k in d6_faces:  # said to be a d6 by this reader, read (value or cocked) by the six-sided one
                dice.append(faces.six_sided_die(d6_faces[k], box, zone, kind_sure=float(p[D6])))
            else:
                dice.append(ten_sided_die(p, box, zone))
        return dice, likeliest(doubted)


def ten_sided_die(p: np.ndarray, box, zone: str) -> Die:
    """The ten-sided die that the value reader's probabilities `p` (no die, 1..10, six-sided die) show."""
    value = int(np.argmax(p[1:D6])) + 1
    return Die("d10", value, box, zone, float(p[value]), probs=tuple(np.asarray(p, np.float64).tolist()))


def _of_a_die(probs: np.ndarray) -> np.ndarray:
    """Of each reading's share for a die, each die class's part (N x 11: values 1..10, six-sided die)."""
    return probs[:, 1:] / np.maximum(probs[:, 1:].sum(axis=1, keepdims=True), 1e-9)


def _same_die(a, b) -> bool:
    near = np.hypot(a[0] - b[0], a[1] - b[1]) <= SAME_DIE * max(b[2], b[3])
    return (
        near and max(a[2], a[3]) < INSIDE_BIGGER * max(b[2], b[3]) and max(b[2], b[3]) < INSIDE_BIGGER * max(a[2], a[3])
    )


def _outranked(die: Find, dice: list[Find]) -> bool:
    """Of a die and a much smaller one on it (their last item: how sure their reading is), the big one stands:
    the small one is its face or numeral (close-up photos), whose reading is never sure. Unless the small one
    is read surely and the big one is not: then the big one is no die (a hand over the tray, its middle on a
    die)."""

    def small_wins(small, big):
        return small[4] >= SURE > big[4]

    return any(
        small_wins(other, die)
        if lies_on(other, die, INSIDE_BIGGER)
        else lies_on(die, other, INSIDE_BIGGER) and not small_wins(die, other)
        for other in dice
    )


@functools.cache
def _packaged() -> D10Reader:
    return D10Reader()


def read_d10(frame: np.ndarray, calibration: TrayCalibration | None = None) -> Reading:
    """Read a frame expecting ten-sided dice, with the packaged models (loaded once)."""
    return _packaged().read(frame, calibration)
