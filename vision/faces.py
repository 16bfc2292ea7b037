"""The six-sided face reader, which both dice readers use: for a die's crop, "no die", its value 1..6, or
"cocked" (the die leans: no face is up, so it is reported, not read).

It is two networks of one design trained apart (models/README.md, "Two face readers together"): `faces.onnx`
learnt the tray and wooden dice, `faces_second.onnx` also epanemu-dice3's many dice and backgrounds. A die reads
as what both see: their probabilities multiplied and scaled to sum to 1 (a product of experts), so what one
doubts is doubted."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .finder import Find
from .frame_reader import classic_net
from .preprocess import FACE_CONTEXT, SURE, face_crop, read_turned
from .types import Die

NO_DIE, COCKED = 0, 7  # face classes besides the values 1..6
FACE_MODELS = ("faces.onnx", "faces_second.onnx")
# A die the networks are unsure of is read again framed tighter and wider, at the ends of the framings they learnt
# from (training drew 0.8-1.3 x FACE_CONTEXT), and the readings multiplied as the networks' are: a die the finder
# boxed too big (a dark die on a dark dish) or too small reads as another value at one framing, and the table asks
# rather than read it wrong (models/README.md, "Three framings").
FRAMINGS = (0.8, 1.25)


def load(models: Path) -> list[cv2.dnn.Net]:
    """The face networks in `models`: `faces.onnx`, and the others of FACE_MODELS that are there (a lab folder
    holding one candidate reader reads with it alone; the package holds them all)."""
    first = models / FACE_MODELS[0]
    if not first.exists():
        raise FileNotFoundError(f"no face reader {first}")
    return [classic_net(models / name) for name in FACE_MODELS if (models / name).exists()]


def agreed(probs: list[np.ndarray]) -> np.ndarray:
    """What the networks see together (each N x 8): the normalised geometric mean of their probabilities; a die
    that one of them sees leaning (its likeliest class) is leaning, as the one surest of it reads it (it is
    thrown again, never read)."""
    together = multiplied(probs)
    each = np.stack(probs)  # networks x N x 8
    leaning = each.argmax(axis=2) == COCKED
    rows = np.flatnonzero(leaning.any(axis=0))
    surest = np.where(leaning, each[:, :, COCKED], -1.0).argmax(axis=0)
    together[rows] = each[surest[rows], rows]
    return together.astype(np.float32)


def multiplied(probs: list[np.ndarray]) -> np.ndarray:
    """Readings of the same finds (each N x classes) together: their normalised geometric mean."""
    together = np.exp(np.mean([np.log(np.maximum(p, 1e-12)) for p in probs], axis=0))
    return together / together.sum(axis=1, keepdims=True)


def classify(nets: list[cv2.dnn.Net], frame: np.ndarray, finds: list[Find]) -> np.ndarray:
    """Class probabilities (N x 8: no die, 1..6, cocked) of the face networks `nets` together for each find; a find
    they are unsure of also at the other FRAMINGS."""
    if not finds:
        return np.zeros((0, COCKED + 1), np.float32)
    return reframed(nets, frame, finds, agreed([read_turned(net, _crops(frame, finds)) for net in nets]))


def reframed(nets: list[cv2.dnn.Net], frame: np.ndarray, finds: list[Find], probs: np.ndarray) -> np.ndarray:
    """`probs`, the networks' reading of `finds` framed as usual, with those read below SURE multiplied by their
    readings at the other FRAMINGS (read as at the usual one: turned where unsure). They say which value; whether a
    die is there stays the usual framing's to say (a side face or a pip read surer framed otherwise is still no
    surer a die), and so does whether it leans (the networks learnt leaning dice framed so): one read likeliest
    leaning is left so."""
    unsure = np.flatnonzero((probs.max(axis=1) < SURE) & (probs.argmax(axis=1) != COCKED))
    if not len(unsure):
        return probs
    again = [c for framing in FRAMINGS for c in _crops(frame, [finds[k] for k in unsure], framing)]  # one read each
    framed = agreed([read_turned(net, again) for net in nets]).reshape(len(FRAMINGS), len(unsure), -1)
    values = multiplied([probs[unsure], *framed])[:, NO_DIE + 1 :]
    die = probs[unsure, NO_DIE + 1 :].sum(axis=1, keepdims=True)
    probs = probs.copy()
    probs[unsure, NO_DIE + 1 :] = values / values.sum(axis=1, keepdims=True) * die
    return probs


def _crops(frame: np.ndarray, finds: list[Find], framing: float = 1.0) -> list[np.ndarray]:
    return [face_crop(frame, cx, cy, max(w, h) * FACE_CONTEXT * framing) for cx, cy, w, h, _ in finds]


def six_sided_die(p: np.ndarray, box, zone: str, kind_sure: float = 1.0) -> Die:
    """The six-sided die that face probabilities `p` show: its value, or cocked when leaning is likelier than
    any value. `kind_sure`: how sure the caller is that this is a six-sided die at all (scales the confidence)."""
    value = int(np.argmax(p[1:COCKED])) + 1
    cocked = bool(p[COCKED] > p[value])
    p = kind_sure * np.asarray(p, np.float64)
    return Die(
        "d6", None if cocked else value, box, zone, float(p[COCKED] if cocked else p[value]), cocked, tuple(p.tolist())
    )
