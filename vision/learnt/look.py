"""How the adapter sees a die: the crop its kind's reader reads, and its features: networks' activations just
before their last (fully connected) layer, each scaled to length 1 and joined. For six-sided dice, the first face
reader's (which knows pips) beside those of a network of its own, `faces_features.onnx` (EfficientNet-Lite0's
first stages from ImageNet, trained on the real sets' dice), which tell apart what the pip reader sees alike:
digits, grey crops, dice seen from low down. For ten-sided dice, their reader's. Taken from the packaged ONNX models
as they are, so a retrained model needs no change here: the stored crops give new features (store.py).
models/README.md, "Features to learn the dice in use by", says how the features network was made and what it
changed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..d10.crops import READ_CONTEXT, read_crop
from ..faces import FACE_MODELS, agreed, multiplied
from ..frame_reader import MODELS, classic_net
from ..preprocess import FACE_CONTEXT, SURE, TURNS, face_crop, read_turned, to_blob
from ..types import FACES, Die


@dataclass(frozen=True)
class Kind:
    """What a kind of dice is read with: its reader networks, the networks its features come from, its crop."""

    models: tuple[str, ...]  # its reader networks in vision/models
    features: tuple[str, ...]  # the networks in vision/models whose features, joined, the adapter learns on (those
    # a folder lacks are left out; one without any: its first reader's)
    crop: Callable  # (frame, cx, cy, side) -> the crop the network reads
    context: float  # the crop covers this many times the die's box
    mirrored: bool  # a face seen in a mirror is the same face (pips), so the die is also seen mirrored
    together: Callable  # [each reader's probabilities] -> what they read together
    numerals: bool  # its reader reads numerals (what it reads of a die of another kind with numerals says its value)


KINDS = {  # d6 classes: no die, 1..6, cocked; its features: the first face reader's beside the features network's
    "d6": Kind(FACE_MODELS, ("faces.onnx", "faces_features.onnx"), face_crop, FACE_CONTEXT, True, agreed, False),
    # d10 classes: no die, 1..10, a six-sided die
    "d10": Kind(("d10_reader.onnx",), ("d10_reader.onnx",), read_crop, READ_CONTEXT, False, multiplied, True),
}


def read_in_numbers(die: Die, kind: str) -> bool:
    """Whether a die of another kind was read (`Die.probs`) by a reader of numerals, so that its shares of the
    numbers dice of `kind` show say how sure it is of each of their values."""
    return KINDS[die.kind].numerals and len(die.probs) > FACES[kind]


def feature_layer(net: cv2.dnn.Net) -> str:
    """The layer whose output is the input of the network's last fully connected layer."""
    names = list(net.getLayerNames())
    last_fc = max(
        i for i, name in enumerate(names) if net.getLayer(net.getLayerId(name)).type in ("Gemm", "InnerProduct")
    )
    return names[last_fc - 1]


def side(die) -> float:
    """The longer side of a die's box."""
    return max(die.box[2] - die.box[0], die.box[3] - die.box[1])


# A find much smaller than the biggest of its frame, or centred on another, is the reader's find of a pip or a
# face of a die (a flat die is never centred on another; dice of one tray are near one size): it looks like a
# die to the classifier too (a white pip on a black die is a black one), so the adapter leaves it to the reader.
# Measured: these are 47 of the 87 phantoms in 60 photos of tomitomi3-gray-d6 where the reader found one.
PART_OF_A_DIE = 0.45  # box side, of the frame's biggest (a pip: about 0.4; real dice boxed by the finder: from 0.5)


def adaptable(dice, kind: str) -> list[int]:
    """Indices of the dice of `kind` the adapter re-reads: flat, and none a part of another die (above)."""

    def on_another(d):
        return any(o is not d and d.centred_on(o) for o in dice)

    biggest = max((side(d) for d in dice), default=0.0)
    return [
        k
        for k, d in enumerate(dice)
        if d.kind == kind and not d.cocked and side(d) >= PART_OF_A_DIE * biggest and not on_another(d)
    ]


# How surely a find is a die is the reader's to say, but for one apart from the others that is like the learnt dice
# (adapter.blend): beside a die, a find may be one of its side faces, which looks to the classifier like the learnt
# dice of its value and is no die; the reader learnt that from crops of dice side by side. Measured on the nights of
# vision/README.md (learnt dice): apart by half a side, the white box read one side face surely more; by one, none.
APART = 1.0  # box sides of clear felt between a die and every other find


def apart(dice, indices) -> np.ndarray:
    """For the dice at `indices`: whether no other find's box meets the die's box grown by APART times its own side
    on every side (a small find beside a big die may be apart while the die is not)."""

    def near(d, o):
        gap = APART * side(d)
        return all(o.box[i] - gap < d.box[i + 2] and d.box[i] - gap < o.box[i + 2] for i in (0, 1))

    return np.array([not any(j != k and near(dice[k], o) for j, o in enumerate(dice)) for k in indices], bool)


def features_models(kind: str, models: Path = MODELS) -> list[Path]:
    """The networks a kind's features come from: those of its features networks `models` holds, or where it holds
    none (a lab folder holding one candidate reader), its first reader."""
    spec = KINDS[kind]
    return [models / n for n in spec.features if (models / n).exists()] or [models / spec.models[0]]


def model_id(kind: str, models: Path = MODELS) -> str:
    """Which models, and which copies and nudges of a die, a kind's features come from (other ones mean something
    else)."""
    copies = (b"turned and mirrored" if KINDS[kind].mirrored else b"") + repr(NUDGES).encode()
    return hashlib.sha256(b"".join(p.read_bytes() for p in features_models(kind, models)) + copies).hexdigest()[:16]


def copies(crop: np.ndarray, mirrored: bool) -> list[np.ndarray]:
    """The crop in its four quarter turns, and mirrored in them too where a mirrored face is the same face."""
    turns = [crop if t is None else cv2.rotate(crop, t) for t in TURNS]
    return turns + [cv2.flip(c, 1) for c in turns] if mirrored else turns


# The finder boxes a die it was never taught a little off its centre and at a size of its own: dice with numerals
# at 0.5-0.9 of their side, the real dice of tray-d6-photos at 0.8-1.15 (tenth and ninetieth percentiles, 40 photos
# each). A die learnt is also seen so boxed, its crop shifted and scaled by each of these (shift right and down, in
# the die's sides; scale: the die's size in the crop), so that the classifier knows it however the finder boxes it
# (a die is found like the learnt dice as boxed only: adapter.Adapter.fit). The turned copies of each (above) look
# every way too. Wider scales (0.8, 1.25) or two views more read the nights a point or less either way
# (vision/README.md, "Learnt while the game goes on").
NUDGES = ((0.05, 0.0, 1.15), (0.0, 0.05, 0.85), (-0.04, -0.04, 1.0))
VIEWS = 1 + len(NUDGES)  # how a learnt die is seen: as boxed, and nudged


def nudges(crop: np.ndarray, context: float) -> list[np.ndarray]:
    """The crop (of a die, `context` times its box) shifted and scaled by each of NUDGES, its edges replicated."""
    size = crop.shape[0]
    out = []
    for dx, dy, scale in NUDGES:
        move = cv2.getRotationMatrix2D((size / 2, size / 2), 0.0, scale)
        move[:, 2] += (dx * size / context, dy * size / context)
        out.append(cv2.warpAffine(crop, move, (size, size), borderMode=cv2.BORDER_REPLICATE))
    return out


# The ten-sided reader's last layer sees 1,024 numbers; a fixed random projection to this many keeps their
# distances (Johnson-Lindenstrauss) and the classifier's refit fast.
MOST_FEATURES = 128


def _projection(dims: int) -> np.ndarray | None:
    if dims <= MOST_FEATURES:
        return None
    return np.random.default_rng(dims).normal(size=(dims, MOST_FEATURES)).astype(np.float32) / np.sqrt(MOST_FEATURES)


class Look:
    """look = Look("d6"); crops = look.crops(frame, dice); features, values = look.see(crops) (reading);
    look.features(crops) (learning: each die as boxed and nudged)."""

    def __init__(self, kind: str, models: Path = MODELS):
        if kind not in KINDS:
            raise ValueError(f"no learnt dice of kind {kind!r}: kinds are {', '.join(KINDS)}")
        self.kind, self.spec = kind, KINDS[kind]
        first = models / self.spec.models[0]
        if not first.exists():
            raise FileNotFoundError(f"no {kind} reader {first}")
        featured = features_models(kind, models)
        loaded = {
            path: classic_net(path) for path in {models / n for n in self.spec.models} | {*featured} if path.exists()
        }
        self.readers = [loaded[models / n] for n in self.spec.models if models / n in loaded]
        self.nets = [loaded[path] for path in featured]  # a reader's features: the same net
        self.layers = [feature_layer(net) for net in self.nets]

    def crops(self, frame: np.ndarray, dice: list[Die]) -> list[np.ndarray]:
        """Each die's crop as the reader sees it, from its box."""
        return [self.spec.crop(frame, *d.centre, side(d) * self.spec.context) for d in dice]

    def see(self, crops: list[np.ndarray], dice=(), glance: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(features N x D, values N x faces): each crop's features averaged over its copies (a die is the same
        die turned, and a die of pips the same die mirrored) and scaled to length 1; and how sure the reader is
        of each value, their sum being how sure it is that this is a flat die of this kind at all. For a die of
        `dice` (the crops' dice, as read) that is what the reader read (`Die.probs`): the blend must never be
        surer of a die than the reader that asks about it, and reading it again would double an adapted read's
        time. For a crop without them (a die no network read), what the kind's reader networks read in it, as
        the reader reads a crop (turned where unsure, the networks `faces.agreed`). With `glance` (reading, not
        learning), a die the reader read surely is seen in its upright copy only, as the reader reads it: there
        the classifier only checks the reader, and all copies of six dice cost an adapted read 15 ms more.
        A die of another kind whose reader reads numerals (a six-sided die with digits, which the ten-sided reader
        took for its own) is read as that reader read the same numbers: the pip reader sees a digit as pips.
        Measured with `dicetable evaluate --adapt` (vision/README.md, learnt dice)."""
        if not crops:
            return np.zeros((0, 0), np.float32), self.values(crops, dice)
        read = self._reads(dice)
        glanced = {k for k, p in read.items() if glance and dice[k].kind == self.kind and p.max() >= SURE}
        seen = [copies(c, self.spec.mirrored)[: 1 if k in glanced else None] for k, c in enumerate(crops)]
        return self._joined(seen).astype(np.float32), self.values(crops, dice)

    def values(self, crops: list[np.ndarray], dice=()) -> np.ndarray:
        """How sure the reader is of each value of each crop (N x faces), as `see` says."""
        faces = FACES[self.kind]
        read = self._reads(dice)
        values = np.zeros((len(crops), faces), np.float32)
        unread = [k for k in range(len(crops)) if k not in read]
        if unread:
            together = self.spec.together([read_turned(net, [crops[k] for k in unread]) for net in self.readers])
            values[unread] = together[:, 1 : faces + 1]
        for k, p in read.items():
            values[k] = p
        return values

    def _reads(self, dice) -> dict[int, np.ndarray]:
        """For each die of `dice` read so that its reading says how sure a reader is of each value: those shares."""
        return {k: np.asarray(d.probs[1 : FACES[self.kind] + 1]) for k, d in enumerate(dice) if self._read(d)}

    def _read(self, die: Die) -> bool:
        """Whether the die's reading (`Die.probs`: no die, its values, ...) says how sure a reader is of each of
        this kind's values: read as a die of this kind, or by a reader of numerals."""
        if die.kind == self.kind:
            return len(die.probs) == FACES[self.kind] + 2
        return read_in_numbers(die, self.kind)

    def features(self, crops, nudge=None, chunk: int = 16) -> np.ndarray:
        """The features of dice to be learnt (N x VIEWS x D): each crop's as `see` sees it (all its copies), then
        each of its nudged crops' (NUDGES) where `nudge` says (one bool per crop; by default all): the others are
        seen as boxed in every view. `chunk` crops at a time (learnt dice seen anew by a retrained model: 5,000 dice
        in all their copies and nudges at once would take 3 GB)."""
        nudge = np.ones(len(crops), bool) if nudge is None else np.asarray(nudge, bool)
        if len(nudge) != len(crops):
            raise ValueError(f"{len(nudge)} dice said nudged or not for {len(crops)} crops")
        learnt = []
        for k in range(0, len(crops), chunk):
            part = zip(crops[k : k + chunk], nudge[k : k + chunk])
            views = [[c, *nudges(c, self.spec.context)] if n else [c] for c, n in part]
            joined = self._joined([copies(v, self.spec.mirrored) for each in views for v in each])
            each = np.split(joined, np.cumsum([len(v) for v in views])[:-1])
            learnt += [np.resize(f, (VIEWS, f.shape[1])) for f in each]  # one view (as boxed): repeated
        return np.stack(learnt).astype(np.float32) if learnt else np.zeros((0, VIEWS, 0), np.float32)

    def _joined(self, seen: list[list[np.ndarray]]) -> np.ndarray:
        """Each crop's features (`seen`: its copies) from each network, averaged over the copies, each network's
        scaled to length 1, joined and scaled to length 1."""
        blob = to_blob([c for each in seen for c in each])
        counts = np.array([len(each) for each in seen])
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        features = np.hstack(
            [self._features(net, layer, blob, starts, counts) for net, layer in zip(self.nets, self.layers)]
        )
        return features / np.sqrt(len(self.nets))

    @staticmethod
    def _features(net: cv2.dnn.Net, layer: str, blob: np.ndarray, starts, counts) -> np.ndarray:
        """One network's features of the crops (their copies averaged), each scaled to length 1."""
        net.setInput(blob)
        features = net.forward(layer)
        features = np.add.reduceat(features.reshape(len(features), -1), starts) / counts[:, None]
        projection = _projection(features.shape[1])
        if projection is not None:
            features = features @ projection
        return features / np.maximum(np.linalg.norm(features, axis=1, keepdims=True), 1e-9)
