"""Scoring readings against a labeled photo set (format and rule: ../shared/datasets/README.md).

A detected die matches the labeled die whose box holds its centre, one to one. A labeled die is read
correctly when it is matched and its kind and value are right. A phantom matches no labeled die.

The trust figures say what the table would do with each labeled die: `right` (read right and not flagged),
`asked` (flagged uncertain or cocked, so the table asks the player), `silent` (read wrong and not flagged: the
mistake that costs a game); the rest are missed. A die labeled `"legible": false` (no person can read it) counts
as right when the table asks about it. `sure_phantoms` are detections of nothing that are not flagged. Each comes
with its rate per labeled die.
"""
from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from .types import FACES, Die, Reading


@dataclass(frozen=True)
class LabeledDie:
    kind: str
    value: int
    box: Optional[tuple[float, float, float, float]]   # None: the die is somewhere in the image
    legible: bool = True                               # False: no person can read it (labels.json "legible": false)


@dataclass(frozen=True)
class LabeledImage:
    path: Path
    width: int
    height: int
    dice: tuple[LabeledDie, ...]


VALUES = {kind: range(1, faces + 1) for kind, faces in FACES.items()}   # the values a labeled die of a kind can show


def load_labeled_set(set_dir: str | Path) -> list[LabeledImage]:
    """The images and dice of a set's labels.json; a malformed file raises ValueError naming the entry."""
    set_dir = Path(set_dir)
    path = set_dir / "labels.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    except RecursionError:
        raise ValueError(f"{path} is not JSON: nested too deeply") from None
    entries = data.get("images") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f'{path} holds no list of images: {{"images": [{{"file", "width", "height", "dice": '
                         f'[{{"kind", "value", "box"}}]}}]}}')
    images = []
    for n, entry in enumerate(entries):
        try:
            image = LabeledImage(set_dir / entry["file"], int(entry["width"]), int(entry["height"]),
                                 tuple(labeled_die(d) for d in entry["dice"]))
            outside = next((d.box for d in image.dice if d.box and not _inside(d.box, image.width, image.height)), None)
            if outside:
                raise ValueError(f"box {list(outside)} lies outside its {image.width}x{image.height} image")
            images.append(image)
        except (KeyError, TypeError, ValueError, OverflowError) as error:
            raise ValueError(f"{path}, image {n + 1}: {_problem(error)}") from None
    return images


def _inside(box, width: int, height: int) -> bool:
    """Whether a labeled box's middle lies in the image (its edges may be cut by the image's)."""
    return 0 <= (box[0] + box[2]) / 2 <= width and 0 <= (box[1] + box[3]) / 2 <= height


def labeled_die(d: dict) -> LabeledDie:
    """A die of labels.json, checked: ValueError (or KeyError, TypeError) when it is no die of the format."""
    kind, value = d["kind"], d["value"]
    if not (type(value) is int and value in VALUES.get(kind, ())):   # not bool: true is no die value
        raise ValueError(f"a die labeled {kind!r} {value!r}: kinds are d6 (values 1-6) and d10 (1-10)")
    box = tuple(float(v) for v in d["box"]) if d.get("box") else None
    if box is not None and not (len(box) == 4 and box[0] < box[2] and box[1] < box[3]):
        raise ValueError(f"box {list(box)} is not [xmin, ymin, xmax, ymax]")
    legible = d.get("legible", True)
    if type(legible) is not bool:
        raise ValueError(f'"legible": {legible!r} is neither true nor false')
    return LabeledDie(kind, value, box, legible)


def label_row(kind: str, value: int, box, zone: str, cocked: bool, thrown_in: Optional[int] = None) -> dict:
    """A die as labels.json holds it (what labeled_die reads back): its box rounded to a tenth of a pixel;
    `thrown_in`, the attempt of the turn that threw it, only when known."""
    row = {"kind": kind, "value": int(value), "box": [round(float(v), 1) for v in box], "zone": zone,
           "cocked": bool(cocked)}
    if thrown_in is not None:
        row["thrown_in"] = thrown_in
    return row


def _problem(error: Exception) -> str:
    return f"no key {error.args[0]!r}" if isinstance(error, KeyError) else str(error)


def box_holds(box, x: float, y: float) -> bool:
    """Whether a labeled die's box holds the point (a die's centre); a box of None (somewhere in the image) holds
    every point."""
    return box is None or (box[0] <= x <= box[2] and box[1] <= y <= box[3])


def _distance(box, x: float, y: float) -> float:
    if box is None:
        return 0.0
    return ((box[0] + box[2]) / 2 - x) ** 2 + ((box[1] + box[3]) / 2 - y) ** 2


def match(detected: Iterable[Die], labeled: Iterable[LabeledDie]) -> tuple[list[tuple[Die, LabeledDie]], list[Die], list[LabeledDie]]:
    """One-to-one matching by box-contains-centre; where boxes overlap, nearer box centres pair first.

    Returns (pairs, phantoms, missed)."""
    detected, labeled = list(detected), list(labeled)
    candidates = sorted(
        (_distance(lab.box, *det.centre), i, j)
        for i, det in enumerate(detected) for j, lab in enumerate(labeled)
        if box_holds(lab.box, *det.centre))
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
    right: int = 0        # the trust figures (module docstring)
    asked: int = 0
    silent: int = 0
    sure_phantoms: int = 0
    illegible: int = 0    # labeled dice no person can read
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
                self.right += not lab.legible   # asked about a die no person can read: what the table should do
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
            "confusion": {t: dict(sorted(r.items())) for t, r in sorted(self.confusion.items(), key=lambda kv: int(kv[0]))},
        }


def _flagged(die: Die) -> bool:
    """Whether the table asks the player about a detection: cocked, or read below UNCERTAIN_BELOW."""
    return die.cocked or die.uncertain


def evaluate(images: Iterable[LabeledImage], read: Callable[[object], Reading], load: Callable[[Path], object]) -> Score:
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
