"""Reading a frame: find dice (finder network), read each face (face network), add zone and cocked flag.

The face network also says when the die under a crop does not lie flat (its class COCKED): it saw
flat dice in perspective, with their side faces and shadows, and leaning dice, in rendered scenes.

A die the face reader is unsure of may be a ten-sided die: the ten-sided reader looks at it, and what it
is sure is one is reported as kind "d10", so that a game played with six-sided dice can say so.

The networks are small ONNX files in vision/models run through cv2.dnn; see vision/lab/training for how
they were trained and on what.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from . import faces, geometry
from .d10.reader import D6 as D10_SAYS_D6
from .d10.reader import D10Reader, ten_sided_die
from .faces import COCKED, NO_DIE
from .finder import Find, lies_on, on_bigger
from .frame_reader import MODELS, FrameReader, likeliest
from .preprocess import FINDER_DIE_PX, SURE, finder_inputs, finder_scale, with_border
from .types import Die, Reading, TrayCalibration

SAME_DIE = 0.45  # two finds closer than this many box sides are one die
PART_OF_DIE = 5 / 3  # a find lying on a surer find this many times its size is part of that die
# A leaning die shows two faces, which the finder may find as two dice; flat dice cannot lie this
# close (touching, their centres are a whole edge apart), so a find this near a cocked one is part of it.
LEANING_REACH = 0.75  # box sides
# Die sizes (px at the usual look, long side 320) the finder reads best: tray-d6-photos' and wood-webcam-d6's
# dice are 13-33 px there. A bare photo's dice outside are read by the wide finder at the calibrated size.
# Measured: 11-45 px (the finder's training range) left wide shots' 11-14 px dice to the finder, 94% read;
# from 14 px, rendered trays' touching dice of 14-18 px went missing (30 of 386 in 100 stills, from 18: 14).
BARE_DIE_PX = (18.0, 36.0)
# The wide finder knows dice up to ~96 px (a third of the usual look): bigger ones, a close-up of a die or two,
# it sees as so many pips. So it also looks at half and a quarter of that scale, where such a die fits, keeping
# only the finds that are too big for the usual look to see whole (there, smaller ones are heaps of touching
# dice). The quarter look is for a crop of one die, which fills the photo; there, a tray or a heap of dice seen
# whole is found too (the ten-sided dice of a tray, which the face reader takes for ones, as its pips), so its
# finds are kept only where the face reader reads them surely as a die.
COARSE_MIN_PX = 24.0  # at the coarser looks
# Each look: its share of the usual scale, the least die (px at that look) kept, whether kept only if read surely.
BARE_LOOKS = ((1.0, 0.0, False), (1 / 2, COARSE_MIN_PX, False), (1 / 4, COARSE_MIN_PX, True))
# When even those looks miss a die that fills the photo, its pips are found as dice, and each reads as a one.
# Such pips lie close together (a face's corner pips are under 3 pip boxes apart), and what holds them reads as
# the die: the square around them, as wide as a face whose pips span PIPS_SPAN of it, read surely as a face of
# two to six, and more surely than any of them reads as a one. Only in a photo's close-up (that square a third of
# its short side or more) and without a calibrated die size. Dice showing one, side by side, also read as a face
# of two or three when taken together (two ones at 0.95, three in a row at 0.96, measured on close-ups cut from
# tray-d6-photos), but each reads as a one more surely still, and near each other they are too big for their
# square (PIP_SHARE).
PIP_REACH = 4.0  # box sides: finds read as one this close are taken together as the pips of one face
PIPS_SPAN = 0.55  # a face's outer pips' centres span this share of it
PIP_SHARE = 0.35  # a pip's find is at most this share of its face (two dice showing one, touching: 0.55-0.8)
CLOSE_UP_SHARE = 1 / 3
# Sized to its dice, a close-up shrinks to little more than them, and the finder, which learned dice amid their
# surroundings, misses them: a frame shorter than this at that look is given a border of its own edge's colour.
CLOSE_UP_PX = 96


class DiceReader(FrameReader):
    """reader = DiceReader(); reading = reader.read(frame, calibration=None)."""

    def __init__(self, models: Path = MODELS):
        self.finder = cv2.dnn.readNet(str(models / "finder.onnx"))
        self.wide_finder = cv2.dnn.readNet(str(models / "finder_wide.onnx"))
        self.faces = faces.load(models)
        self.models = models
        self._d10 = None  # the ten-sided reader, loaded the first time the face reader is unsure of a die

    # -- the two stages, usable on their own
    def find(self, frame: np.ndarray, die_px: float | None = None) -> list[Find]:
        """Candidate dice as (cx, cy, w, h, score) in frame pixels. A photo without a die size is first seen by
        the wide finder, trained on dice of any size: when its dice are too small or too big for the finder's
        usual look (long side 320 px), the wide finder looks again with them at the calibrated size."""
        if die_px:
            return self._merge(self._find_at(frame, finder_scale(frame.shape, die_px)))
        scale = finder_scale(frame.shape)
        looks = finder_inputs(frame, [scale * share for share, _, _ in BARE_LOOKS])
        finds = [
            f
            for (share, least, only_sure), look in zip(BARE_LOOKS, looks)
            for f in self._look(frame, look, scale * share, least, only_sure, self.wide_finder)
        ]
        finds = self._not_parts(frame, finds)
        seen = float(np.median([max(f[2], f[3]) for f in finds])) if finds else None
        if seen and not BARE_DIE_PX[0] <= seen * scale <= BARE_DIE_PX[1]:
            return self._merge(self._find_sized(frame, finder_scale(frame.shape, seen)))
        return self._merge(self._find_in(looks[0], scale))

    def _find_sized(self, frame, scale):
        """The wide finder's finds with the dice at the calibrated size (`scale`); a close-up is first given a
        border one die wide (CLOSE_UP_PX)."""
        h, w = frame.shape[:2]
        if min(h, w) * scale >= CLOSE_UP_PX:
            return self._find_at(frame, scale, self.wide_finder)
        pad = int(np.ceil(FINDER_DIE_PX / scale))
        finds = self._find_at(with_border(frame, pad), scale, self.wide_finder)
        return [(x - pad, y - pad, fw, fh, s) for x, y, fw, fh, s in finds if 0 <= x - pad < w and 0 <= y - pad < h]

    def _not_parts(self, frame, finds):
        """The finds that are dice. One lying on a much bigger find is a pip of that die, unless a find on it
        reads surely as a face of two to six pips, which no pip does: then those are dice, and the big find is
        what they lie in (a tray seen whole by the coarse look)."""
        parts = [f for f in finds if on_bigger(f, finds, PART_OF_DIE)]
        if not parts:
            return finds
        dice = [f for f, p in zip(parts, self.classify(frame, parts)) if p[2:COCKED].max() >= SURE]
        holders = [big for big in finds if any(lies_on(d, big, PART_OF_DIE) for d in dice)]
        wholes = [f for f in finds if f not in holders]
        return [f for f in wholes if not on_bigger(f, wholes, PART_OF_DIE)]

    @staticmethod
    def _merge(finds):
        """Strongest first, each die once: a find near a surer one, or lying on a much bigger one (a pip or
        a corner of that die), is that die."""
        kept = []
        for f in sorted(finds, key=lambda f: -f[4]):
            if not any(_same_die(f, k) for k in kept):
                kept.append(f)
        return kept

    def classify(self, frame: np.ndarray, finds) -> np.ndarray:
        """Class probabilities (N x 8: no die, 1..6, cocked) for each find."""
        return faces.classify(self.faces, frame, finds)

    def _pips_as_dice(self, frame, finds, probs):
        """The finds and their probabilities with the pips of a close-up's die, found as dice that read as ones,
        replaced by that die where what holds them reads surely as a face of two to six, and more surely than any
        of them as a one (PIP_REACH above); the finds much smaller than that die go with them."""
        ones = [k for k, p in enumerate(probs) if int(np.argmax(p)) == 1]
        groups = [(group, _holder([finds[k] for k in group])) for group in _close_groups(finds, ones, PIP_REACH)]
        groups = [
            (group, face)
            for group, face in groups
            if face[2] >= CLOSE_UP_SHARE * min(frame.shape[:2])
            and all(max(finds[k][2], finds[k][3]) <= PIP_SHARE * face[2] for k in group)
        ]
        faces_read = self.classify(frame, [face for _, face in groups])
        dice = [
            (face, p)
            for (group, face), p in zip(groups, faces_read)
            if p[2:COCKED].max() >= SURE and p[2:COCKED].max() > max(probs[k][1] for k in group)
        ]
        if not dice:
            return finds, probs
        # dice in one close-up are near one size: a find much smaller than that die is another of its pips
        smallest = min(h[2] for h, _ in dice) / PART_OF_DIE
        kept = [k for k, f in enumerate(finds) if max(f[2], f[3]) >= smallest]
        return [finds[k] for k in kept] + [h for h, _ in dice], np.vstack([probs[kept], *(p for _, p in dice)])

    def ten_sided(self, frame: np.ndarray, finds, probs) -> dict[int, np.ndarray]:
        """The finds that are ten-sided dice, as {index: the ten-sided reader's probabilities}. The face reader
        has never seen a d10 and reads one as some value, rarely surely; the ten-sided reader, which knows both
        kinds, looks at each die the face reader is unsure of and must be sure itself (models/README-d10.md,
        kinds)."""
        unsure = [k for k, p in enumerate(probs) if p[NO_DIE] < p[1:].max() < SURE]
        if not unsure:
            return {}
        if self._d10 is None:
            self._d10 = D10Reader(self.models)
        tens = {}
        for k, p in zip(unsure, self._d10.classify(frame, [finds[k] for k in unsure])):
            if p[1:D10_SAYS_D6].sum() >= SURE:
                tens[k] = p
        return tens

    def judged(self, frame, finds, probs, calibration) -> tuple[list[Die], tuple[Die, ...]]:
        die_px = calibration.die_px if calibration else None
        if not die_px:
            finds, probs = self._pips_as_dice(frame, finds, probs)
        tens = self.ten_sided(frame, finds, probs)
        dice, doubted = [], []
        for k, ((cx, cy, w, h, _), p) in enumerate(zip(finds, probs)):
            if die_px:  # the calibrated size is steadier than the finder's own estimate
                w = h = die_px
            box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            zone = geometry.zone_of(cx, cy, calibration)
            if p[NO_DIE] >= p[1:].max():  # the face reader sees no die here: a phantom, or a die it doubts
                doubted.append(faces.six_sided_die(p, box, zone))
            elif k in tens:  # reported as what it is, so that a game played with d6s can say so
                dice.append(ten_sided_die(tens[k], box, zone))
            else:
                dice.append(faces.six_sided_die(p, box, zone))
        return _one_die_per_leaning_die(dice), likeliest([d for d in doubted if not d.cocked])


def _one_die_per_leaning_die(dice: list[Die]) -> list[Die]:
    """Drop the finds that are another face of a die the reader saw leaning."""

    def part_of_leaning(die: Die) -> bool:
        return any(
            other.cocked
            and other is not die
            and np.hypot(die.centre[0] - other.centre[0], die.centre[1] - other.centre[1])
            < LEANING_REACH * (other.box[2] - other.box[0])
            for other in dice
        )

    return [d for d in dice if d.cocked or not part_of_leaning(d)]


@functools.cache
def _packaged() -> DiceReader:
    return DiceReader()


def read(frame: np.ndarray, calibration: TrayCalibration | None = None) -> Reading:
    """Read a frame with the packaged models (loaded once)."""
    return _packaged().read(frame, calibration)


def _close_groups(finds: list[Find], members: list[int], reach: float) -> list[list[int]]:
    """The groups of two or more of `members` (indices into `finds`) linked by centres at most `reach` box
    sides apart."""
    group = {k: {k} for k in members}
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            fa, fb = finds[a], finds[b]
            side = (max(fa[2], fa[3]) + max(fb[2], fb[3])) / 2
            if group[a] is not group[b] and np.hypot(fa[0] - fb[0], fa[1] - fb[1]) <= reach * side:
                joined = group[a] | group[b]
                for k in joined:
                    group[k] = joined
    unique = {id(g): g for g in group.values()}.values()
    return [sorted(g) for g in unique if len(g) > 1]


def _holder(pips: list[Find]) -> Find:
    """The face that pips found as dice lie on: centred on them, as wide as a face whose outer pips span PIPS_SPAN
    of it, sure as a find."""
    xs, ys = np.array([p[0] for p in pips]), np.array([p[1] for p in pips])
    side = float(max(np.ptp(xs), np.ptp(ys))) / PIPS_SPAN
    return (float(xs.max() + xs.min()) / 2, float(ys.max() + ys.min()) / 2, side, side, 1.0)


def _same_die(f: Find, kept: Find) -> bool:
    return np.hypot(f[0] - kept[0], f[1] - kept[1]) <= SAME_DIE * max(kept[2], kept[3]) or lies_on(f, kept, PART_OF_DIE)
