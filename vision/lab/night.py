"""A game night on a labeled photo set (`dicetable evaluate SET_DIR --adapt N`): in a seeded order, the first
photos' dice, up to N, are confirmed with their labels as a careful player would (changing a misread die,
confirming an unsure one, pressing OK on a sure one), the reader adapting after each photo; the photos after
them are read and scored with the trust figures, with nothing learnt, after N, and at the curve's points.
As at the table, which knows how many dice were thrown, a photo read with fewer dice than it holds is checked
with its likeliest doubted finds asked about (Reading.looked_for): so a die the reader doubts is learnt.

The lab, not the runtime: the table never runs it. Each photo is read once by the packaged reader and
seen once by the adapter's look (a die confirmed is seen again, as Learnt.learn sees it: nudged too); every adapter
is then scored on those same dice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..labels import LabeledImage
from ..learnt import adaptable_found, asked_as_played, found, reread_found
from ..learnt.adapter import HOW, Adapter, Examples, nudged
from ..learnt.look import Look
from ..types import FACES, Reading
from .scoring import Score, match

NIGHT_SEED = 39
CURVE = (0, 10, 30, 100, 300, 1000)  # the curve's points up to N (and N itself)


def figures(seen: list[Seen], adapter: Adapter) -> dict:
    """The trust figures (scoring.Score.trust) of the photos' readings with the adapter's say."""
    score = Score()
    for photo in seen:
        score.add(adapted(photo, adapter), photo.image, 0.0)
    return {"labeled": score.labeled, **score.trust(), "missed": score.missed}


def training_copies(set_dir) -> set[str]:
    """The files of a set that are augmented copies of others (labels.json "augmented": true): a night of them
    would read each photo's twin."""
    entries = json.loads((Path(set_dir) / "labels.json").read_text(encoding="utf-8")).get("images", [])
    return {e["file"] for e in entries if isinstance(e, dict) and e.get("augmented") is True}


@dataclass
class Seen:
    """A photo as read once: the packaged reading, which of its dice and doubted finds the adapter re-reads, and
    their look."""

    image: LabeledImage
    reading: Reading
    adaptable: list[int]  # indices into learnt.found(reading)
    features: np.ndarray
    values: np.ndarray
    crops: list
    kind: str  # the kind of dice played


def see(image: LabeledImage, read: Callable, load: Callable, look: Look) -> Seen:
    frame = load(image.path)
    if frame is None:
        raise FileNotFoundError(f"cannot read image {image.path}")
    reading = read(frame)
    mine, everything = adaptable_found(reading, look.kind, played=True), found(reading)
    dice = [everything[k] for k in mine]
    crops = look.crops(frame, dice)
    features, values = look.see(crops, dice, glance=True)  # as the table's adapter reads them (Learnt.adapt)
    return Seen(image, reading, mine, features, values, crops, look.kind)


def adapted(seen: Seen, adapter: Adapter) -> Reading:
    """The photo's reading as the table checks it: with the adapter's say in each adaptable die and doubted find,
    and, where fewer dice are read than the photo holds (the table knows how many were thrown), its likeliest
    doubted finds asked about (Reading.looked_for)."""
    reading = seen.reading
    if adapter.weights is not None and seen.adaptable:
        reading = reread_found(reading, seen.adaptable, adapter, seen.features, seen.values, seen.kind)
    reading = asked_as_played(reading, seen.kind)
    return reading.looked_for(len(seen.image.dice) - len(reading.dice))


def confirmations(seen: Seen, reading: Reading, careless: Callable[[], bool], rng: np.random.Generator, faces: int):
    """(index among adaptable, value, how) for each adaptable die of `reading` (the photo's, as checked) matched to
    a labeled die, as the player confirms it; one that `careless()` picks is confirmed wrong, with OK (a misread
    accepted, or a die not looked at)."""
    pairs, _, _ = match(reading.dice, seen.image.dice)
    label_of = {id(det): lab for det, lab in pairs}
    everything = found(seen.reading)
    index_of = {everything[k].box: j for j, k in enumerate(seen.adaptable)}  # a re-read die keeps its box
    for die in reading.dice:
        lab, j = label_of.get(id(die)), index_of.get(die.box)
        if lab is None or j is None or lab.kind != die.kind:
            continue
        if careless():
            others = [v for v in range(1, faces + 1) if v != lab.value]
            yield j, die.value if die.value != lab.value else int(rng.choice(others)), "sure"
        else:
            yield j, lab.value, "corrected" if die.value != lab.value else "flagged" if die.uncertain else "sure"


def night(
    images: Iterable[LabeledImage],
    read: Callable,
    load: Callable,
    kind: str,
    n: int,
    careless: float = 0.0,
    seed: int = NIGHT_SEED,
    look: Look | None = None,
) -> dict:
    """{"adapt": n, "confirmed": ..., "before": figures, "after": figures, "curve": [{"adapt": m, ...figures}]},
    each scored on the photos after those confirmed."""
    look = look or Look(kind)
    faces = FACES[kind]
    images = list(images)
    order = np.random.default_rng(seed).permutation(len(images))
    rng = np.random.default_rng(seed + 1)
    wrong = set(rng.choice(n, size=round(careless * n), replace=False).tolist()) if n else set()  # exactly that share
    points = sorted({p for p in CURVE if p < n} | {n})
    adapter, examples, snapshots = Adapter(faces), Examples.empty(), {0: Adapter(faces)}
    k, taught = 0, 0
    while k < len(order) and taught < n:
        seen = see(images[order[k]], read, load, look)
        k += 1
        for j, value, how in confirmations(seen, adapted(seen, adapter), lambda: taught in wrong, rng, faces):  # noqa: B023 (taught as it grows)
            confirmed = np.array([HOW.index(how)], np.int8)
            examples = (
                examples
                + Examples(
                    look.features(seen.crops[j : j + 1], nudged(confirmed)),  # as Learnt.learn sees it
                    np.array([value], np.int16),
                    confirmed,
                    seen.values[j : j + 1].argmax(axis=1).astype(np.int16) + 1,
                    np.zeros((1, 0, 0, 3), np.uint8),
                )
            )
            taught += 1
            if taught in points:  # the curve's point, as if the night stopped at this die
                snapshots[taught] = Adapter(faces)
                snapshots[taught].fit(examples)
            if taught == n:
                break
        adapter.fit(examples)  # as the table does after each confirmed throw
    rest = [see(images[i], read, load, look) for i in order[k:]]
    scored = {p: figures(rest, snapshots.get(p, adapter)) for p in points}  # a set too small for N: all it had
    return {
        "adapt": n,
        "confirmed": taught,
        "confirmed_wrong": len(wrong),
        "photos_confirmed": k,
        "photos_scored": len(rest),
        "before": scored[0],
        "after": scored[n],
        "curve": [{"adapt": p, **f} for p, f in scored.items()],
    }
