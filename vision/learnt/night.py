"""A game night on a labeled photo set (`dicetable evaluate SET_DIR --adapt N`): in a seeded order, the first
photos' dice, up to N, are confirmed with their labels as a careful player would (changing a misread die,
confirming an unsure one, pressing OK on a sure one), the reader adapting after each photo; the photos after
them are read and scored with the trust figures, with nothing learnt, after N, and at the curve's points.

The lab, not the runtime: the appliance never imports it. Each photo is read once by the packaged reader and
seen once by the adapter's look; every adapter is then scored on those same dice.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Optional

import numpy as np

from ..scoring import LabeledImage, match
from ..types import FACES, Reading
from .adapter import HOW, Adapter, Examples, reread
from .look import Look

NIGHT_SEED = 39
CURVE = (0, 10, 30, 100, 300, 1000)   # the curve's points up to N (and N itself)
FIGURES = ("right", "asked", "silent", "missed", "sure_phantoms")


def trust(reading: Reading, image: LabeledImage) -> Counter:
    """Per labeled die: right (read right, not flagged), asked (flagged: uncertain or cocked, so the table asks),
    silent (read wrong, not flagged), missed (not found); and sure_phantoms, unflagged detections of nothing."""
    pairs, phantoms, missed = match(reading.dice, image.dice)
    out = Counter({"labeled": len(image.dice), "missed": len(missed),
                   "sure_phantoms": sum(not (d.cocked or d.uncertain) for d in phantoms)})
    for det, lab in pairs:
        flagged = det.cocked or det.uncertain
        out["asked" if flagged else "right" if (det.kind, det.value) == (lab.kind, lab.value) else "silent"] += 1
    return out


def figures(counts: Counter) -> dict:
    labeled = counts["labeled"]
    out = {"labeled": labeled}
    for name in FIGURES:
        out[name] = counts[name]
        out[f"{name}_rate"] = round(counts[name] / labeled, 4) if labeled else 0.0
    return out


@dataclass
class Seen:
    """A photo as read once: the packaged reading, which of its dice the adapter re-reads, and their look."""
    image: LabeledImage
    reading: Reading
    adaptable: list[int]        # indices in reading.dice
    features: np.ndarray
    values: np.ndarray
    crops: list


def see(image: LabeledImage, read: Callable, load: Callable, look: Look) -> Seen:
    frame = load(image.path)
    if frame is None:
        raise FileNotFoundError(f"cannot read image {image.path}")
    reading = read(frame)
    adaptable = [k for k, d in enumerate(reading.dice) if d.kind == look.kind and not d.cocked]
    crops = look.crops(frame, [reading.dice[k] for k in adaptable])
    features, values = look.see(crops)
    return Seen(image, reading, adaptable, features, values, crops)


def adapted(seen: Seen, adapter: Adapter) -> Reading:
    """The photo's reading with the adapter's say in each adaptable die."""
    if adapter.weights is None or not seen.adaptable:
        return seen.reading
    dice = list(seen.reading.dice)
    for k, values in zip(seen.adaptable, adapter.blend(seen.features, seen.values)):
        dice[k] = reread(dice[k], values)
    return replace(seen.reading, dice=tuple(dice))


def confirmations(seen: Seen, reading: Reading, careless: float, rng: np.random.Generator, faces: int):
    """(index among adaptable, value, how) for each adaptable die matched to a labeled die, as the player confirms
    it; a share `careless` is confirmed wrong (a misread accepted, or OK pressed on a die not looked at)."""
    pairs, _, _ = match(reading.dice, seen.image.dice)
    label_of = {id(det): lab for det, lab in pairs}
    for j, k in enumerate(seen.adaptable):
        die = reading.dice[k]
        lab = label_of.get(id(die))
        if lab is None or lab.kind != die.kind:
            continue
        if rng.random() < careless:
            wrong = die.value if die.value != lab.value else int(rng.choice([v for v in range(1, faces + 1) if v != lab.value]))
            yield j, wrong, "sure"
        else:
            yield j, lab.value, "corrected" if die.value != lab.value else "flagged" if die.uncertain else "sure"


def night(images: Iterable[LabeledImage], read: Callable, load: Callable, kind: str, n: int,
          careless: float = 0.0, seed: int = NIGHT_SEED, look: Optional[Look] = None) -> dict:
    """{"adapt": n, "confirmed": ..., "before": figures, "after": figures, "curve": [{"adapt": m, ...figures}]},
    each scored on the photos after those confirmed."""
    look = look or Look(kind)
    faces = FACES[kind]
    images = list(images)
    order = np.random.default_rng(seed).permutation(len(images))
    rng = np.random.default_rng(seed + 1)
    points = sorted({p for p in CURVE if p < n} | {n})
    adapter, examples, snapshots = Adapter(faces), Examples.empty(), {}
    k, taught = 0, 0
    while k < len(order) and taught < n:
        seen = see(images[order[k]], read, load, look)
        k += 1
        for j, value, how in confirmations(seen, adapted(seen, adapter), careless, rng, faces):
            if taught == n:
                break
            examples = examples + Examples(seen.features[j:j + 1], np.array([value], np.int16),
                                           np.array([HOW.index(how)], np.int8), np.zeros((1, 0, 0, 3), np.uint8))
            taught += 1
        adapter.fit(examples)
        for p in points:
            if p <= taught and p not in snapshots:
                snapshots[p] = _copy(adapter)   # a point passed inside a photo counts the whole photo
    rest = [see(images[i], read, load, look) for i in order[k:]]
    curve = []
    for p in points:
        counts = Counter()
        for seen in rest:
            counts += trust(adapted(seen, snapshots.get(p, adapter) if p else Adapter(faces)), seen.image)
        curve.append({"adapt": p, **figures(counts)})
    return {"adapt": n, "confirmed": taught, "photos_confirmed": k, "photos_scored": len(rest),
            "before": {k_: v for k_, v in curve[0].items() if k_ != "adapt"},
            "after": {k_: v for k_, v in curve[-1].items() if k_ != "adapt"}, "curve": curve}


def _copy(adapter: Adapter) -> Adapter:
    copy = Adapter(adapter.faces)
    copy.seen, copy.count = adapter.seen.copy(), adapter.count
    copy.weights = None if adapter.weights is None else adapter.weights.copy()
    return copy
