"""Learnt dice: every reading the players confirm teaches the reader the dice in use.

    learnt = Learnt(folder)                        # the examples kept for one calibration profile (store.py)
    reading = learnt.adapt(frame, reading, "d6")   # the reader's reading in a game of d6s, with what was learnt
                                                   # (adapter.py); a doubted find like the learnt dice may become
                                                   # a die, and a die read as a d10 a d6 (asked_as_played)
    learnt.learn(frame, dice, values, hows)        # a confirmed throw: each die's confirmed value and how
    learnt.counts()                                # {kind: {value: dice learnt}}
    learnt.forget()

The table decides what counts as confirmed (adapter.HOW); this package, how examples are kept and used.
Nothing learnt leaves the device. `dicetable evaluate SET_DIR --adapt N` measures it (vision.lab.night).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from ..frame_reader import MODELS
from ..types import FACES, OUTSIDE, UNCERTAIN_BELOW, Reading
from .adapter import HOW, Adapter, Examples, newest_balanced, nudged, reread
from .look import KINDS, Look, adaptable, apart, model_id, read_in_numbers
from .store import MOST, Store

__all__ = ["Learnt", "HOW", "KINDS"]


def adaptable_found(reading: Reading, kind: str, played: bool = False) -> list[int]:
    """Indices into `found(reading)` of what the adapter re-reads: the reading's dice of `kind` that are adaptable
    (look.adaptable), and its doubted finds of `kind` that would be so among those dice. With `played` (the game is
    played with dice of `kind`), the reading's dice of another kind too, as doubted finds (`reread_found`), where
    read as a number dice of `kind` show: in such a game one is likelier a die of `kind` unlike those the readers
    learnt (a six-sided die with numerals, which the ten-sided reader reads as one of its own) than a die of another
    game; but no six-sided die shows a ten-sided 8, however like the learnt dice it looks."""
    dice, n = [replace(d, kind=kind) if played else d for d in reading.dice], len(reading.dice)
    doubted = [n + j for j, d in enumerate(reading.doubted) if adaptable([*dice, d], kind)[-1:] == [n]]  # d is n
    return [k for k in adaptable(dice, kind) if shows(reading.dice[k], kind)] + doubted


def shows(die, kind: str) -> bool:
    """Whether the die is read as a number dice of `kind` show (a ten-sided 8 is no six-sided die)."""
    return 1 <= (die.value or 0) <= FACES[kind]


def found(reading: Reading) -> list:
    """A reading's dice, then its doubted finds (Reading.doubted)."""
    return [*reading.dice, *reading.doubted]


def reread_found(reading: Reading, indices: list[int], adapter: Adapter, features, values, kind: str) -> Reading:
    """`reading` with its dice and doubted finds at `indices` (into `found`) re-read by the adapter of `kind`'s blend
    of their `features` and the readers' `values` (look.Look.see). A die is apart or not from the other dice
    (look.apart). A doubted find is a die of `kind` only where the learnt dice vouch for it (`Adapter.vouches`: every
    face met, like the learnt dice of the value it is read as; the reader knows nothing of a die it doubts), and a
    die the reader took for another kind only where the learnt dice take it for one of theirs (`Adapter.one_of_them`:
    like the learnt dice of the value the classifier finds likeliest, and until every face is met read as that
    value by a reader of its numerals too (`look.read_in_numbers`; a pip die in a game of ten-sided dice waits for
    every face); read as the blend reads it, asked about where the classifier and the reader of numerals that read
    it disagree); either must lie apart from every other find, and the blend must read it as a die more surely than
    as none. Else a doubted find stays doubted, its value as blended, however sure the classifier is of it, and a die
    of another kind stays as read (`asked_as_played` then asks about it)."""
    everything, n = found(reading), len(reading.dice)
    whole = adapter.met.all()
    other = [everything[k].kind != kind for k in indices]
    doubted = [k >= n or o for k, o in zip(indices, other)]
    clear = [
        (whole or o) and apart(everything, [k])[0] if d else apart(everything[:n], [k])[0]
        for k, d, o in zip(indices, doubted, other)
    ]
    blended = adapter.blend(features, values, np.array(clear, bool))
    numerals = [whole or read_in_numbers(everything[k], kind) for k in indices]  # its values: what its digits say
    theirs = adapter.one_of_them(features, values) & np.array(numerals, bool)
    ours = np.where(other, theirs, adapter.vouches(features, blended))
    promoted = []
    for k, alone, of_another_kind, vouched, now in zip(indices, clear, other, ours, blended):
        a_die = alone and vouched and now.max() > 1 - now.sum()
        if of_another_kind:
            if not a_die:
                continue
            everything[k] = taken_as(everything[k], kind)
        everything[k] = reread(everything[k], now)
        if k >= n and a_die:
            promoted.append(k)
    dice = everything[:n] + [everything[k] for k in promoted]
    if promoted:  # in reading order, as the reader gives them
        dice.sort(key=lambda d: (d.box[1], d.box[0]))
    doubted = [d for k, d in enumerate(everything[n:], n) if k not in promoted]
    return replace(reading, dice=tuple(dice), doubted=tuple(doubted))


def taken_as(die, kind: str):
    """A die the reader took for another kind, as a die of `kind`. Where its reader reads numerals, its reading
    (`Die.probs`) becomes what that reader read of no die and of the numbers dice of `kind` show (and nothing of the
    other class of `kind`), so that the look takes it as read (`Look.see`) and a die so confirmed is learnt as that
    reader read it, as in a night; else it has none (the look reads its crop)."""
    numbers = read_in_numbers(die, kind)
    return replace(die, kind=kind, probs=(*die.probs[: FACES[kind] + 1], 0.0) if numbers else ())


def asked_as_played(reading: Reading, played: str) -> Reading:
    """`reading` in a game played with dice of kind `played`: each die the reader took for another kind, read by that
    kind's reader of numerals as a value the game's dice show, is a die of `played` of that value, asked about. The
    reader cannot tell a six-sided die with numerals from a ten-sided die (the ten-sided reader reads its digits as its
    own), and only what the players confirm teaches the table its dice: a throw refused teaches nothing. The learnt
    dice read such a die first (`reread_found`: one like them is one of theirs); one unlike them is asked about too,
    so that the players' answer teaches the table that face of their dice (refused, a numeral face the learnt dice
    had not seen alike would be refused at every throw). A die read as a value the game's dice do not show (a
    ten-sided 8) stays what the reader read, and the game says a die of another kind is in the tray."""

    def asked(die):
        if die.kind == played or die.cocked or not KINDS[die.kind].numerals or not shows(die, played):
            return die
        return replace(taken_as(die, played), confidence=min(die.confidence, UNCERTAIN_BELOW / 2))

    dice = tuple(asked(d) for d in reading.dice)
    return reading if all(a is d for a, d in zip(dice, reading.dice)) else replace(reading, dice=dice)


class Learnt:
    def __init__(self, folder: Path | None = None, models: Path = MODELS):
        """`folder`: where the examples are kept (None: learnt only until the program ends)."""
        self.models = models
        self._looks: dict[str, Look] = {}
        self.adapters = {kind: Adapter(FACES[kind]) for kind in KINDS}
        self.store = None if folder is None else Store(folder, {k: model_id(k, models) for k in KINDS}, self._features)
        self.examples = self.store.load() if self.store else {}
        for kind, examples in self.examples.items():
            self.adapters[kind].fit(examples)

    @property
    def problems(self) -> list[str]:
        """Files of learnt dice that could not be read (set aside)."""
        return self.store.problems if self.store else []

    def look(self, kind: str) -> Look:
        if kind not in self._looks:
            self._looks[kind] = Look(kind, self.models)
        return self._looks[kind]

    def _features(self, kind: str, crops: np.ndarray, nudge: np.ndarray) -> np.ndarray:
        return self.look(kind).features(crops, nudge)

    def adapt(self, frame: np.ndarray, reading: Reading, played: str | None = None) -> Reading:
        """The reading with each flat die and doubted find re-read by the blend of the reader and what was learnt of
        its kind; a doubted find the learnt dice vouch for becomes a die (`reread_found`), and so, in a game played
        with dice of kind `played`, does a die of another kind that the learnt dice of that kind take for one of
        theirs (`Adapter.one_of_them`); one they do not, read as a value the game's dice show, is asked about as one
        of them (`asked_as_played`)."""
        for kind, adapter in self.adapters.items():
            mine = adaptable_found(reading, kind, kind == played)  # (reread_found)
            if adapter.weights is None or not mine:
                continue
            everything = found(reading)
            look, chosen = self.look(kind), [everything[k] for k in mine]
            features, values = look.see(look.crops(frame, chosen), chosen, glance=True)
            reading = reread_found(reading, mine, adapter, features, values, kind)
        return asked_as_played(reading, played) if played in self.adapters else reading

    def learn(self, frame: np.ndarray, dice, values, hows) -> None:
        """A confirmed throw: `dice` as read, `values` as the players confirmed them, `hows` (HOW) how. Only flat
        dice inside the tray are learnt (a die outside it may be anything on the table)."""
        throw = {}
        for kind in KINDS:
            mine = [
                (d, v, h)
                for d, v, h in zip(dice, values, hows)
                if d.kind == kind and not d.cocked and d.zone != OUTSIDE and v is not None
            ]
            if not mine:
                continue
            if any(h not in HOW for _, _, h in mine):
                raise ValueError(f"how a die was confirmed must be one of {', '.join(HOW)}")
            look = self.look(kind)
            chosen = [d for d, _, _ in mine]
            crops = look.crops(frame, chosen)
            how = np.array([HOW.index(h) for *_, h in mine], np.int8)
            throw[kind] = Examples(
                look.features(crops, nudged(how)),
                np.array([v for _, v, _ in mine], np.int16),
                how,
                (look.values(crops, chosen).argmax(axis=1) + 1).astype(np.int16),
                np.array(crops, np.uint8),
            )
            learnt = self.examples.get(kind, Examples.empty()) + throw[kind]
            self.examples[kind] = newest_balanced(learnt, FACES[kind], MOST)
            self.adapters[kind].fit(self.examples[kind])
        if throw and self.store:
            self.store.add(throw)

    def counts(self) -> dict[str, dict[int, int]]:
        """How many dice of each kind and value have been learnt."""
        return {
            kind: {v: int((e.values == v).sum()) for v in range(1, FACES[kind] + 1)}
            for kind, e in self.examples.items()
            if len(e)
        }

    def to_learn(self, kind: str) -> list[int]:
        """The faces of `kind` its adapter has seen too few times to read by (adapter.MIN_SEEN): a die it finds
        likeliest one of them keeps the reader's reading, which the classifier may only doubt; until each has been
        seen once, the learnt dice only doubt what the reader reads (but take a die whose digits read it as the
        learnt face it is like: `one_of_them`), and until one has been seen MIN_SEEN times, nothing was learnt."""
        return [int(v) for v in np.flatnonzero(~self.adapters[kind].seen) + 1]

    def forget(self) -> None:
        """Forget every learnt die, here and on disk."""
        if self.store:
            self.store.forget()
        self.examples = {}
        self.adapters = {kind: Adapter(FACES[kind]) for kind in KINDS}
