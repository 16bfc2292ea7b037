"""The review of a reading: the dice the players check before OK takes them, and where dice lie between readings.

A reading is only taken when the dice were thrown: most of the rolling area's dice still lying where the last
taken reading had a die of their value means they were pushed, nudged or read again. Dice pushed into the keep
zone while a reading is checked are followed to where they lie, with the values the players confirmed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from vision.types import KEEP, ROLL, Die, Reading

STILL = 1 / 3  # an untouched die stays within this share of its size; a thrown one lands elsewhere


@dataclass
class Review:
    """A reading waiting for the player's OK: values may be changed, unsure dice must be confirmed."""

    action: str  # the rules action the confirmed values go to: start_throw, rethrow, roll, roll_off
    dice: list[Die]  # the dice to confirm, left to right
    values: list[int]
    confirmed: list[bool]
    held: tuple[int, ...] = ()  # sheet games: the throw's dice that stayed in the keep zone
    cursor: int = 0
    kept: tuple[Die, ...] = ()  # those dice as read in the keep zone (for the recorder's labels)

    @classmethod
    def of(cls, action: str, dice: Sequence[Die], held: tuple[int, ...] = (), kept: Sequence[Die] = ()) -> Review:
        dice = sorted(dice, key=lambda d: (d.centre[0], d.centre[1]))
        confirmed = [not d.uncertain for d in dice]
        cursor = confirmed.index(False) if False in confirmed else 0
        return cls(action, list(dice), [d.value for d in dice], confirmed, held, cursor, tuple(kept))

    @property
    def unconfirmed(self) -> list[int]:
        return [i for i, ok in enumerate(self.confirmed) if not ok]

    def same_throw(self, other: Review) -> bool:
        """Whether `other` reads the same dice for the same action (a nudge, a restart's first look)."""
        return (self.action, sorted(d.value for d in self.dice), self.held) == (
            other.action,
            sorted(d.value for d in other.dice),
            other.held,
        )

    def as_confirmed(self) -> tuple[Die, ...]:
        """The dice as the player confirmed them (a misread die with its corrected value)."""
        return tuple(self.kept) + tuple(replace(d, value=v) for d, v in zip(self.dice, self.values))

    def turn(self, step: int, faces: int) -> None:
        """Change the value under the cursor by `step`, round the die's faces: the player confirms it so."""
        i = self.cursor
        self.values[i] = (self.values[i] - 1 + step) % faces + 1
        self.confirmed[i] = True

    def move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(self.dice)

    def ok(self) -> str:
        """OK on the reading: "next" (the die under the cursor confirmed, another to go), "done" (that was the last
        unsure one), "first" (an unsure die still waits: the cursor goes there) or "take" (all confirmed)."""
        i = self.cursor
        if not self.confirmed[i]:  # this OK confirms the unsure die; the next one the reading
            self.confirmed[i] = True
            self.cursor = (self.unconfirmed or [i])[0]
            return "next" if self.unconfirmed else "done"
        if self.unconfirmed:
            self.cursor = self.unconfirmed[0]
            return "first"
        return "take"

    def row(self) -> dict:
        """As the saved screen state keeps it (copies: the review's lists change in place)."""
        return {
            "action": self.action,
            "held": list(self.held),
            "cursor": self.cursor,
            "values": list(self.values),
            "confirmed": list(self.confirmed),
            "dice": [die_row(d) for d in self.dice],
            "kept": [die_row(d) for d in self.kept],
        }

    @classmethod
    def of_row(cls, row: dict) -> Review:
        kept = tuple(die_of(r) for r in row.get("kept", []))  # rows of older versions have none
        return cls(
            row["action"],
            [die_of(r) for r in row["dice"]],
            list(row["values"]),
            list(row["confirmed"]),
            tuple(row["held"]),
            row["cursor"],
            kept,
        )


def rolled(reading: Reading) -> list[Die]:
    return [d for d in reading.dice if d.zone == ROLL]


def kept(reading: Reading) -> list[Die]:
    return [d for d in reading.dice if d.zone == KEEP]


def not_thrown(reading: Reading, lying: Sequence[Die]) -> bool:
    """Whether the dice were not thrown: a throw throws every die in the rolling area, so most of them still lying
    where `lying` had a die of their value means the dice were pushed, nudged or read again (most, not all: pushing
    some dice may knock another; not any: a thrown die may land where one of its value lay)."""
    dice = rolled(reading)
    return 2 * sum(still(d, lying) for d in dice) > len(dice)


def match(dice: Sequence[int], values: Sequence[int]) -> list[int] | None:
    """Indices of `dice` showing `values` (each die once), or None if the throw does not hold them."""
    free = list(range(len(dice)))
    chosen = []
    for value in values:
        i = next((i for i in free if dice[i] == value), None)
        if i is None:
            return None
        free.remove(i)
        chosen.append(i)
    return chosen


def pushed_from(reading: Reading, review: Review) -> bool:
    """Whether `reading` shows the review's dice with more of them pushed into the keep zone (the player
    keeping dice before confirming the reading): the values read before (the camera sees a misread die as it
    did, whatever the player corrected), fewer in the rolling area; none knocked onto an edge."""
    return (
        len(kept(reading)) > len(review.kept)
        and not any(d.cocked for d in reading.dice)
        and sorted(d.value for d in reading.dice) == sorted(d.value for d in (*review.kept, *review.dice))
    )


def as_confirmed_in(pushed: Reading, review: Review) -> Reading:
    """The dice pushed while `review` was checked, each with the value the player confirmed for it."""
    shown = follow((*review.kept, *review.dice), pushed.dice)
    return replace(pushed, dice=tuple(replace(d, value=c.value) for d, c in zip(shown, review.as_confirmed())))


def still(die: Die, before: Sequence[Die]) -> bool:
    """Whether `die` lies where one of `before` lay, showing the same value."""
    return any(b.value == die.value and near(die, b) for b in before)


def near(die: Die, before: Die) -> bool:
    x0, y0, x1, y1 = before.box
    return distance(die, before) <= STILL * max(x1 - x0, y1 - y0)


def distance(die: Die, other: Die) -> float:
    (x, y), (ox, oy) = die.centre, other.centre
    return ((x - ox) ** 2 + (y - oy) ** 2) ** 0.5


def follow(before: Sequence[Die], after: Sequence[Die]) -> list[Die]:
    """`after` in the order of `before`: for each die the one still lying where it lay, else the nearest one
    showing its value (each once: first the dice that stayed, so that a die pushed away from its place does
    not take the place of a look-alike that stayed)."""
    free, followed = list(after), [None] * len(before)

    def take(i: int, candidates: list[Die]) -> None:
        if candidates:
            followed[i] = min(candidates, key=lambda d: distance(d, before[i]))
            free.remove(followed[i])

    for i, die in enumerate(before):
        take(i, [d for d in free if d.value == die.value and near(d, die)])
    for i, die in enumerate(before):
        if followed[i] is None:
            take(i, [d for d in free if d.value == die.value])
    return followed


def die_row(die: Die) -> list:
    return [die.kind, die.value, list(die.box), die.zone, die.confidence, die.cocked]


def die_of(row: Sequence) -> Die:
    kind, value, box, zone, confidence, cocked = row
    return Die(kind, value, tuple(box), zone, confidence, cocked)
