"""Scoring readings against a labeled photo set (rule: ../shared/datasets/README.md; format: vision.labels).

A detected die matches the labeled die whose box holds its centre, one to one. A labeled die is read
correctly when it is matched and its kind and value are right. A phantom matches no labeled die.

The trust figures say what the table would do with each labeled die: `right` (read right and not flagged),
`asked` (flagged uncertain or cocked, so the table asks the player), `silent` (read wrong and not flagged: the
mistake that costs a game); the rest are missed. A die labeled `"legible": false` (no person can read it) counts
as right when the table asks about it. `sure_phantoms` are detections of nothing that are not flagged. Each comes
with its rate per labeled die.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..labels import LabeledDie, LabeledImage, box_holds
from ..types import Die, Reading


def _distance(box, x: float, y: float) -> float:
    if box is None:
        return 0.0
    return ((box[0] + box[2]) / 2 - x) ** 2 + ((box[1] + box[3]) / 2 - y) ** 2


def match(
    detected: Iterable[Die], labeled: Iterable[LabeledDie]
) -> tuple[list[tuple[Die, LabeledDie]], list[Die], list[LabeledDie]]:
    """One-to-one matching by box-contains-centre; where boxes overlap, nearer box centres pair first.

    Returns (pairs, phantoms, missed)."""
    detected, labeled = list(detected), list(labeled)
    candidates = sorted(
        (_distance(lab.box, *det.centre), i, j)
        for i, det in enumerate(detected)
        for j, lab in enumerate(labeled)
        if box_holds(lab.box, *det.centre)
    )
    used_det, used_lab, pairs = set(), set(), []
    for _, i, j in candidates:
        if i not in used_det and j not in used_lab:
            used_det.add(i)
            used_lab.add(j)
            pairs.append((detected[i], labeled[j]))
    phantoms = [d for i, d in enumerate(detected) if i not in used_det]
    missed = [lab for j, lab in enumerate(labeled) if j not in used_lab]
    return pairs, phantoms, missed


def read_value_key(die: Die) -> str:
    """How a matched die's reading shows in the confusion table."""
    if die.cocked or die.value is None:
        return "cocked"
    return str(die.value) if die.kind == "d6" else f"{die.kind}:{die.value}"


@dataclass
class Score:
    labeled: int = 0
    correct: int = 0
    phantoms: int = 0
    missed: int = 0
    right: int = 0  # the trust figures (module docstring)
    asked: int = 0
    silent: int = 0
    sure_phantoms: int = 0
    illegible: int = 0  # labeled dice no person can read
    images: int = 0
    seconds: float = 0.0
    confusion: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))

    def add(self, reading: Reading, image: LabeledImage, seconds: float) -> None:
        pairs, phantoms, missed = match(reading.dice, image.dice)
        self.images += 1
        self.seconds += seconds
        self.labeled += len(image.dice)
        self.phantoms += len(phantoms)
        self.sure_phantoms += sum(not _flagged(d) for d in phantoms)
        self.missed += len(missed)
        self.illegible += sum(not lab.legible for lab in image.dice)
        for det, lab in pairs:
            right = det.kind == lab.kind and det.value == lab.value and not det.cocked
            self.correct += right
            if _flagged(det):
                self.asked += lab.legible
                self.right += not lab.legible  # asked about a die no person can read: what the table should do
            else:
                self.right += right
                self.silent += not right
            self.confusion[str(lab.value)][read_value_key(det)] += 1

    def trust(self) -> dict:
        """The trust figures, each with its rate per labeled die."""
        figures = {"right": self.right, "asked": self.asked, "silent": self.silent, "sure_phantoms": self.sure_phantoms}
        rates = {f"{name}_rate": round(n / self.labeled, 4) if self.labeled else None for name, n in figures.items()}
        return {**figures, **rates, "illegible": self.illegible}

    def to_json(self) -> dict:
        return {
            **self.trust(),
            "labeled": self.labeled,
            "correct": self.correct,
            "accuracy": round(self.correct / self.labeled, 4) if self.labeled else 0.0,
            "phantoms": self.phantoms,
            "missed": self.missed,
            "ms_per_image": round(1000 * self.seconds / self.images, 1) if self.images else 0.0,
            "confusion": {
                t: dict(sorted(r.items())) for t, r in sorted(self.confusion.items(), key=lambda kv: int(kv[0]))
            },
        }


def _flagged(die: Die) -> bool:
    """Whether the table asks the player about a detection: cocked, or read below UNCERTAIN_BELOW."""
    return die.cocked or die.uncertain


def evaluate(
    images: Iterable[LabeledImage], read: Callable[[object], Reading], load: Callable[[Path], object]
) -> Score:
    """Read every image with `read` (frame -> Reading) and score it; `load` opens an image file."""
    score = Score()
    for image in images:
        frame = load(image.path)
        if frame is None:
            raise FileNotFoundError(f"cannot read image {image.path}")
        start = time.perf_counter()
        reading = read(frame)
        score.add(reading, image, time.perf_counter() - start)
    return score
