"""A scoresheet field as a row of data, and what a throw scores in it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .combos import Roll, Rule

# How a qualifying choice turns into points: the dice taking part ("used", the default), all dice
# of the roll ("all", Dice Poker's 3 and 4 of a kind), or a fixed number (Dice Poker's full house).
Points = str | int


@dataclass(frozen=True)
class Field:
    number: int
    name: str
    section: str
    rule: Rule = field(compare=False)  # closures differ between builds; the variants tell rules apart
    points: Points = "used"
    bonus: int = 0
    slam: int = 0
    combination: bool = True  # False for plain sums: those have no frequency of their own

    def score(self, roll: Roll, fresh: Sequence[bool] | None = None) -> Score:
        """The best this roll makes here; `fresh[i]` says die i was thrown in the final attempt
        (None: all were). No qualifying choice scores 0: entering it cancels the field."""
        fresh_values = Counter(v for v, f in zip(roll, fresh or [True] * len(roll)) if f)
        best = Score()
        for choice in self.rule(roll):
            points = {"used": choice.points, "all": sum(roll)}.get(self.points, self.points)
            slammed = self.slam and not Counter(choice.used) - fresh_values
            candidate = Score(points, self.bonus, self.slam if slammed else 0)
            if candidate.total > best.total:
                best = candidate
        return best

    def qualifies(self, roll: Roll) -> bool:
        return any(True for _ in self.rule(roll))


@dataclass(frozen=True, order=True)
class Score:
    points: int = 0
    bonus: int = 0
    slam: int = 0

    @property
    def total(self) -> int:
        return self.points + self.bonus + self.slam
