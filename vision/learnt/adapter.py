"""Adapting a reader to the dice in use: a small classifier fitted with numpy on the features (look.py) of the
dice the players confirmed, blended with the reader network's own probabilities.

The classifier is a softmax regression on the unit-length features of each die in its views (as the finder boxed it,
and nudged as it might have: look.NUDGES), each die weighted by how it was confirmed (a correction says most, an OK
on a reading that was sure says least: a player who presses OK without looking must not teach the table its own
mistakes) and each value weighted alike (a night of many sixes does not make every die a six). It tells apart every
face it has met (been shown once), but speaks only for the values it has seen MIN_SEEN times: a die it finds
likeliest a face met fewer times is left to the reader, which that face's share in the classifier still doubts, and
the share of a face never met stays the reader's; and until it has met every face, it only doubts what the reader
read, never makes it surer (a die of a face it has never met is like the face it met that it is likest, and the
classifier cannot tell: a face met once is enough to tell, not to read by; until it has seen some face MIN_SEEN
times it is not fitted at all: the reader alone reads). Its weight in the blend grows with the examples; the blend's
confidence decides, as the reader's does, whether the table asks.
Measured on the real sets with `dicetable evaluate SET_DIR --adapt N` (vision/README.md, learnt dice).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..preprocess import softmax

HOW = ("corrected", "flagged", "sure")  # how a reading was confirmed: changed by a player; unsure, confirmed; sure, OK
WEIGHT = {"corrected": 3.0, "flagged": 2.0, "sure": 1.0}
MIN_SEEN = 3  # a value the classifier has seen fewer times than this is left to the reader
MOST_SAY = 0.9  # the classifier's largest share of the blend
CHECKED, FOLDS = 200, 10  # its share comes from cross-validation on the newest this many dice fitted (all of them,
# FIT_MOST being fewer), each as boxed, in this many folds,
CHECK_STEPS = 100  # all fitted at once, with this many steps each. Four folds judged a classifier of 30 dice by
# one of 22 and gave it too little say: tomitomi3-gray-d6 after 30, 74% right with 4 folds, 79% with 10. A third of
# a fit's STEPS (about 5% above its loss): the folds' mistakes set the say, and with 300 steps the nights measured
# read the same to a die (one sure phantom more on epanemu-dice3 after 100), at three times the cost
SHARPNESS = 16.0  # the features (length 1) are scaled by this before the classifier
TYPICAL = 0.1  # a die as alike to the learnt dice of its value as the least alike tenth of them is familiar
SAME_PICTURE = 0.999  # two dice this alike are one die seen twice (a kept die, confirmed again)
UNFAMILIAR = 0.05  # ... and one this much less alike (cosine) is a stranger: the reader alone reads it
RIDGE = 1e-2  # weight decay: keeps the classifier from trusting a handful of dice absolutely
# The loss's curvature is at most this (features of length 1 scaled by SHARPNESS, a bias of 1, the examples'
# weights summing to 1, a softmax's at most 1/2); descent with momentum 0.9 is steady below 3.8 / CURVATURE. A
# step of 0.5 (17 times that) swung: a fit landed wherever its last steps left it (on epanemu-dice3's 100 dice,
# 4,000 steps ended farther from the best fit than 500), so the same dice learnt in another order, or read after a
# restart, read differently (aibox-whitebox-d6 after 30: 37 right when fitted throw by throw, 29 fitted at once).
CURVATURE = (SHARPNESS**2 + 1) / 2 + RIDGE
STEP = 2.5 / CURVATURE
STEPS = 300  # of every fit, from nothing: within 2% of the best fit's loss on the nights measured
FIT_MOST = 150  # the classifier fits the newest this many dice, balanced by value (the dice in use now), each
# in its four views (look.NUDGES; 600 examples, as many as it fitted before it saw them nudged): a refit stays
# within tens of milliseconds


@dataclass
class Examples:
    """Confirmed dice of one kind, oldest first: features (N x VIEWS x D: each die as boxed, then nudged, look.py;
    or N x D, as boxed only), values (1..faces), how (index into HOW), what
    the reader network read (its likeliest value, 1..faces), and the crops they were seen in (N x S x S x 3),
    from which a new model's features can be taken."""

    features: np.ndarray
    values: np.ndarray
    how: np.ndarray
    read: np.ndarray
    crops: np.ndarray

    def __len__(self) -> int:
        return len(self.values)

    @staticmethod
    def empty(dims: int = 0, crop: tuple = (0, 0, 3)) -> Examples:
        return Examples(
            np.zeros((0, dims), np.float32),
            np.zeros(0, np.int16),
            np.zeros(0, np.int8),
            np.zeros(0, np.int16),
            np.zeros((0, *crop), np.uint8),
        )

    def __add__(self, other: Examples) -> Examples:
        if not len(other):
            return self
        if not len(self):
            return other
        return Examples(*(np.concatenate([a, b]) for a, b in zip(self.astuple(), other.astuple())))

    def views(self) -> np.ndarray:
        """The features as dice x views x D (features of one view each, N x D, are one view)."""
        return self.features if self.features.ndim == 3 else self.features[:, None, :]

    def astuple(self) -> tuple:
        return self.features, self.values, self.how, self.read, self.crops

    def take(self, index) -> Examples:
        return Examples(*(a[index] for a in self.astuple()))


class Adapter:
    """adapter = Adapter(faces); adapter.fit(examples); values = adapter.blend(features, reader_values)."""

    def __init__(self, faces: int):
        self.faces = faces
        self.seen = np.zeros(faces, bool)  # the faces the classifier speaks for (seen MIN_SEEN times)
        self.met = np.zeros(faces, bool)  # the faces it tells apart (seen at least once)
        self.count = 0
        self.weights = None  # (D + 1) x faces: the classifier, bias last

    def fit(self, examples: Examples) -> None:
        """Fit the classifier to the examples, from nothing: the same dice learnt make the same classifier,
        whatever their order and however often the table was restarted."""
        examples = newest_balanced(examples, self.faces, FIT_MOST)
        counts = np.array([(examples.values == v).sum() for v in range(1, self.faces + 1)])
        self.seen, self.met, self.count = counts >= MIN_SEEN, counts > 0, len(examples)
        if not self.seen.any():
            self.weights = None
            return
        keep = self.met[examples.values.astype(int) - 1]
        views = examples.views()[keep]  # dice x views x D: each die as boxed, then nudged (look.NUDGES)
        y = examples.values[keep].astype(int) - 1
        w = np.array([WEIGHT[h] for h in HOW])[examples.how[keep]] / counts[y]  # each met value weighs alike
        # The classifier learns every view, but a die is familiar (`familiar`) as like a learnt die as boxed: taken
        # as familiar where like a nudged view, the grey crops' pips, each boxed as a die, were read as the learnt
        # twos (tomitomi3-gray-d6 after 100 dice, two orders: 13 sure phantoms before, 43; vision/README.md).
        self.known, self.known_values = views[:, 0], y
        self.typical = _typical_likeness(self.known, y)
        repeated = np.repeat(y, views.shape[1]), np.repeat(w, views.shape[1])
        self.weights = self._train(_inputs(views.reshape(-1, views.shape[2])), *repeated, STEPS)
        # the folds learn and check each die as boxed: all its views would cost four times as much
        boxed = _inputs(views[-CHECKED:, 0])
        self.trust = self._trust(boxed, y[-CHECKED:], w[-CHECKED:], examples.read[keep][-CHECKED:] - 1)

    def _train(self, x, y, w, steps: int) -> np.ndarray:
        """Classifier weights by gradient descent with momentum on the weighted cross-entropy. `w`: the examples'
        weights, or several rows of them (F x N) to fit F classifiers at once (F x D x faces; cross-validation's
        folds, each with its held-out examples weighing 0). One small product per classifier, never one wide one:
        a wide one wakes the BLAS library's threads, which on a busy machine cost far more than they save (the ten
        folds side by side in one matrix: `adapt_ms` 1,700 on this one, two shared cores, instead of 150)."""
        many = w.ndim == 2
        w = np.atleast_2d(w).astype(np.float32)
        w = (w / w.sum(axis=1, keepdims=True))[:, :, None]  # F x N x 1
        weights = np.zeros((len(w), x.shape[1], self.faces), np.float32)
        velocity, target = np.zeros_like(weights), np.eye(self.faces, dtype=np.float32)[y]
        mask = np.where(self.met, 0.0, -np.inf).astype(np.float32)
        for _ in range(steps):
            p = softmax((x @ weights + mask).reshape(-1, self.faces)).reshape(len(w), len(x), -1)
            grad = x.T @ ((p - target) * w) + RIDGE * weights
            velocity = 0.9 * velocity - STEP * grad
            weights = weights + velocity
        return weights if many else weights[0]

    def _trust(self, x, y, w, read) -> float:
        """The classifier's share of the blend, from how often each was wrong on the newest learnt dice: the
        classifier in FOLDS-fold cross-validation, the reader network as it read them (`read`, 0-based; not the
        reading shown, which the classifier had a say in). The rarer the classifier's mistakes beside the
        reader's, the more it says (at most MOST_SAY)."""
        held = np.arange(len(y)) % FOLDS == np.arange(FOLDS)[:, None]  # F x N: each fold's held-out dice
        held = held[held.any(axis=1)]
        weights = self._train(x, y, np.where(held, 0.0, w), CHECK_STEPS)
        wrong = (held & ((x @ weights).argmax(axis=2) != y)).sum()
        mine = (wrong + 1) / (len(y) + 2)  # shrunk towards even: a few dice prove little
        theirs = ((read != y).sum() + 1) / (len(y) + 2)
        return MOST_SAY * theirs / (theirs + mine)

    def familiar(self, features: np.ndarray, values: np.ndarray) -> np.ndarray:
        """For each die (features, the value the classifier gives it, 0-based), how much it looks like the learnt
        dice of that value: 1 from the typical likeness, falling to 0 over UNFAMILIAR below it. The classifier
        answers for every crop, also for a pip or half a die that the finder boxed; it speaks only for those
        like the dice it has seen."""
        like = features @ self.known.T
        like[:, :] = np.where(values[:, None] == self.known_values[None, :], like, -1.0)
        return np.clip(1 - (self.typical - like.max(axis=1)) / UNFAMILIAR, 0.0, 1.0)

    @property
    def say(self) -> float:
        """The classifier's share of the blend."""
        return 0.0 if self.weights is None else self.trust

    def blend(self, features: np.ndarray, reader: np.ndarray, apart: np.ndarray | None = None) -> np.ndarray:
        """How sure the blend is of each value (N x faces), from the reader network's probabilities (`reader`:
        its share of each value, summing to how sure it is that this is a flat die of the kind) and the
        classifier's. A value is never surer than the classifier says: where the two disagree, the table asks.
        Whether there is a die at all is the reader's to say (the classifier has seen only dice), but for a die
        `apart` from the other finds (one bool per die, look.apart; by default none): one like the learnt dice of
        the value it is read as is as surely a die as the classifier has a say, once every face is met. The
        reader doubts dice unlike those it learnt from, and those doubts were what the table still asked about once
        the classifier read them right (vision/README.md, learnt dice)."""
        if self.weights is None or not len(features):
            return reader
        mine, likeliest, familiar = self._classified(features)
        die = reader.sum(axis=1, keepdims=True)
        theirs = reader / np.maximum(die, 1e-9)
        met_share = theirs[:, self.met].sum(axis=1, keepdims=True)
        a = self.say * familiar[:, None]
        mine = np.where(self.met, mine * met_share, theirs)  # the values never met keep the reader's share
        values = np.minimum((1 - a) * theirs + a * mine, mine)  # sure only where the classifier agrees
        if not self.met.all():  # until every face is met, the classifier only doubts (module docstring)
            values = np.minimum(values, theirs)
        if apart is not None:
            if len(apart) != len(features):
                raise ValueError(f"{len(apart)} dice said apart or not for {len(features)} dice")
            vouched = np.asarray(apart, bool) & self._vouched(values, likeliest, familiar)
            die = die + a * (1 - die) * vouched[:, None]
        return die * values

    def vouches(self, features: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Whether the learnt dice vouch for each die (its features, and how surely it is read as each value) being
        a die of the value it is read as: one of the dice in use (`one_of_them`) read as the value the classifier
        finds likeliest, a value it has seen MIN_SEEN times (a die it finds likeliest a face seen fewer times, or read
        as another value than that, is the reader's to say)."""
        return self._vouched(values, *self._likeliest(features))

    def one_of_them(self, features: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Whether each die is one of the dice in use: like the learnt dice of the value the classifier finds
        likeliest (familiar), a value it has learnt (seen MIN_SEEN times). Once every face is met that says it (read
        as another value, it is one of them that the blend is unsure of); until then only where its own reading
        (`values`: how surely its reader read each value) reads it as that value too: a die of a face never met is
        like the face it met that it is likest, and the classifier cannot tell (module docstring), but a reader of
        its numerals can (reread_found asks it only of such a die)."""
        likeliest, familiar = self._likeliest(features)
        read_so = np.asarray(values).argmax(axis=1) == likeliest
        return (familiar > 0) & (self.met.all() | read_so)

    def _classified(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The classifier's shares of the values it has met (N x faces), the likeliest of them for each die (0-based),
        and how familiar the die is as it: 0 where the classifier has seen that value fewer than MIN_SEEN times (it
        has no say where it knows too little)."""
        mine = softmax(_inputs(features) @ self.weights + np.where(self.met, 0.0, -np.inf))
        likeliest = mine.argmax(axis=1)
        return mine, likeliest, self.familiar(features, likeliest) * self.seen[likeliest]

    def _likeliest(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`_classified`'s likeliest value and familiarity (nothing learnt: no die is familiar)."""
        if self.weights is None:
            return np.zeros(len(features), int), np.zeros(len(features))
        return self._classified(features)[1:]

    def _vouched(self, values: np.ndarray, likeliest: np.ndarray, familiar: np.ndarray) -> np.ndarray:
        return self.met.all() & (familiar > 0) & (np.asarray(values).argmax(axis=1) == likeliest)


def _typical_likeness(features: np.ndarray, values: np.ndarray) -> float:
    """How alike a learnt die (of the newest CHECKED) and its likest other die of the same value are (cosine), at
    the TYPICAL quantile: the likeness above which a new die counts as one of those learnt."""
    like = features[-CHECKED:] @ features.T
    like[
        (values[-CHECKED:, None] != values[None, :]) | (like > SAME_PICTURE)
    ] = -np.inf  # itself, or the same die re-read
    nearest = like.max(axis=1)
    nearest = nearest[np.isfinite(nearest)]
    return float(np.quantile(nearest, TYPICAL)) if len(nearest) else 1.0


def _inputs(features: np.ndarray) -> np.ndarray:
    return np.hstack([features * SHARPNESS, np.ones((len(features), 1))]).astype(np.float32)


def reread(die, values: np.ndarray):
    """The die as the blended probabilities of its values read it."""
    value = int(np.argmax(values)) + 1
    return replace(die, value=value, confidence=float(values[value - 1]))


def nudged(how: np.ndarray) -> np.ndarray:
    """Which of the dice confirmed so (`how`: indices into HOW) are learnt nudged too (look.NUDGES): all but those
    read surely and confirmed unchanged. The reader read those as boxed, and seeing a die nudged costs learning four
    times as much as seeing it as boxed."""
    return np.asarray(how) != HOW.index("sure")


def newest_balanced(examples: Examples, faces: int, most: int) -> Examples:
    """The newest `most` examples, at most most // faces of each value (a value seen less leaves room unused: a
    night of sixes must not crowd out the ones)."""
    return examples.take(newest_of_each(examples.values, faces, most))


def newest_of_each(values: np.ndarray, faces: int, most: int) -> np.ndarray:
    """Which of `values` (oldest first) newest_balanced keeps."""
    cap = most // faces
    keep = np.zeros(len(values), bool)
    for value in range(1, faces + 1):
        found = np.flatnonzero(values == value)
        keep[found[len(found) - min(cap, len(found)) :]] = True
    return keep
