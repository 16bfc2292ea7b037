"""The table's learnt dice (vision.learnt): where they are kept, and what a confirmed reading teaches.

They are kept per calibration profile, in `<profile's folder>/<profile's name>.learnt/<when it was made>/`: a new
calibration (another tray, camera or lamp) starts fresh, the same profile keeps learning night after night. The
table decides what counts as confirmed: the thrown dice of a reading the players confirmed with OK, each
"corrected" (its value changed by a player), "flagged" (the reader was unsure and a player confirmed it) or
"sure" (read surely, OK pressed). Dice in the keep zone were learnt when they were thrown.

At the table a confirmed throw is learnt by a worker thread while the game goes on (`meanwhile`): learning a throw
costs 0.1-0.3 s on this machine (`dicetable bench vision`: `adapt_ms`, `adapt_corrected_ms`), several times that
on a Raspberry Pi 4, and the game must not wait for it. Whatever reads or changes what was learnt waits for the
throws confirmed before it to be learnt (`settle`), so the next reading is read with them, as if learnt at once.
"""

from __future__ import annotations

import contextlib
import queue
import re
import sys
import threading
import traceback
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
    """learning = LearntDice(folder); learning.attach(app) (the table: each throw confirmed learnt `meanwhile`);
    learning.confirmed(frame, dice, values) (learnt at once: the wizard); learning.count(); learning.forget()."""

    def __init__(self, folder: Path | None):
        from vision.learnt import Learnt

        self.learnt = Learnt(folder)
        self._lessons: queue.Queue = queue.Queue()  # throws confirmed, to be learnt by the worker
        self._failed: queue.SimpleQueue = queue.SimpleQueue()  # what went wrong learning them, to be said
        self._worker: threading.Thread | None = None

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
        self.settle()
        return self.learnt.adapt(frame, reading, played)

    def confirmed(self, frame: np.ndarray, dice: Sequence[Die], values: Sequence[int]) -> None:
        """A reading of `frame` the players confirmed (`values` for `dice`): its thrown dice are learnt. OSError
        (the card full or gone) is the caller's to report: the game goes on without it."""
        self.settle()
        self._learn(frame, dice, values)

    def meanwhile(self, frame: np.ndarray, dice: Sequence[Die], values: Sequence[int]) -> None:
        """The same reading learnt by the worker thread, the caller going on at once; what goes wrong is said by
        `failures`."""
        if self._worker is None or not self._worker.is_alive():  # (one stopped by what no `except` takes, too)
            self._worker = threading.Thread(target=self._work, name="learnt dice", daemon=True)
            self._worker.start()
        self._lessons.put((frame, dice, values))

    def failures(self) -> list[str]:
        """What went wrong learning throws `meanwhile` since last asked (each said once)."""
        said = []
        while not self._failed.empty():
            said.append(self._failed.get())
        return said

    def settle(self) -> None:
        """Wait until every throw confirmed `meanwhile` is learnt (and kept: the program may end after this)."""
        self._lessons.join()

    def _learn(self, frame: np.ndarray, dice: Sequence[Die], values: Sequence[int]) -> None:
        thrown = [(d, v) for d, v in zip(dice, values) if d.zone == ROLL]
        if thrown:
            dice, values = zip(*thrown)
            self.learnt.learn(frame, dice, values, [how_confirmed(d, v) for d, v in thrown])

    def _work(self) -> None:
        while True:
            lesson = self._lessons.get()
            try:
                self._learn(*lesson)
            except OSError as error:  # the card full or gone: the reader keeps what it learnt
                self._failed.put(f"learnt dice not saved ({error})")
            except Exception as error:  # a fault in one throw must not stop the table learning the next ones
                self._failed.put(f"a throw could not be learnt ({type(error).__name__}: {error})")
                with contextlib.suppress(OSError, ValueError):  # for the journal; stderr itself may be gone
                    traceback.print_exc(file=sys.stderr)
            finally:
                self._lessons.task_done()

    def count(self) -> int:
        self.settle()
        return sum(sum(values.values()) for values in self.learnt.counts().values())

    def to_learn(self) -> list[int]:
        """The six-sided faces seen too few times to read by yet (a die likeliest one of them keeps its reading)."""
        self.settle()
        return self.learnt.to_learn("d6")

    def forget(self) -> None:
        """Forget every die learnt, those confirmed but not yet learnt too."""
        self.settle()
        self.learnt.forget()
