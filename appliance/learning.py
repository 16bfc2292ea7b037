"""The table's learnt dice (vision.learnt): where they are kept, and what a confirmed reading teaches.

They are kept per calibration profile, in `<profile's folder>/<profile's name>.learnt/<when it was made>/`: a new
calibration (another tray, camera or lamp) starts fresh, the same profile keeps learning night after night. The
table decides what counts as confirmed: the thrown dice of a reading the players confirmed with OK, each
"corrected" (its value changed by a player), "flagged" (the reader was unsure and a player confirmed it) or
"sure" (read surely, OK pressed). Dice in the keep zone were learnt when they were thrown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.types import ROLL, Die, Reading


def folder_for(profile_path: Path, created: str) -> Path:
    """Where the dice learnt with the profile at `profile_path`, made at `created`, are kept."""
    stamp = re.sub(r"[^0-9A-Za-z]+", "-", created).strip("-") or "undated"
    return Path(profile_path).with_name(f"{Path(profile_path).stem}.learnt") / stamp


def how_confirmed(die: Die, value: int) -> str:
    """How the players confirmed a die read as `die`: a value of HOW (vision.learnt.adapter)."""
    return "corrected" if value != die.value else "flagged" if die.uncertain else "sure"


class LearntDice:
    """learning = LearntDice(folder); read = learning.reading(read); learning.confirmed(frame, dice, values)."""

    def __init__(self, folder: Path | None):
        from vision.learnt import Learnt

        self.learnt = Learnt(folder)

    @property
    def problems(self) -> list[str]:
        return self.learnt.problems

    def attach(self, app) -> None:
        """Put these dice to work in an appliance (main_loop.Appliance): its reader reads with what was learnt,
        the readings its players confirm teach them, its menu counts and forgets them."""
        read = app.read
        app.read = lambda frame, kind="d6": self.adapt(frame, read(frame, kind), kind)
        app.learnt = app.table.learnt = self

    def adapt(self, frame: np.ndarray, reading: Reading, played: str | None = None) -> Reading:
        """A reading of `frame` with what was learnt, in a game played with dice of kind `played`."""
        return self.learnt.adapt(frame, reading, played)

    def confirmed(self, frame: np.ndarray, dice: Sequence[Die], values: Sequence[int]) -> None:
        """A reading of `frame` the players confirmed (`values` for `dice`): its thrown dice are learnt. OSError
        (the card full or gone) is the caller's to report: the game goes on without it."""
        thrown = [(d, v) for d, v in zip(dice, values) if d.zone == ROLL]
        if thrown:
            dice, values = zip(*thrown)
            self.learnt.learn(frame, dice, values, [how_confirmed(d, v) for d, v in thrown])

    def count(self) -> int:
        return sum(sum(values.values()) for values in self.learnt.counts().values())

    def to_learn(self) -> list[int]:
        """The six-sided faces seen too few times to read by yet (a die likeliest one of them keeps its reading)."""
        return self.learnt.to_learn("d6")

    def forget(self) -> None:
        self.learnt.forget()
