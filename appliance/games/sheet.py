"""A scoresheet game's shape (fields, sections, columns) and one player's sheet.

Columns are filled in their own order: "down" (top to bottom), "up" (bottom to top) or "free".
In an ordered column the next empty field or the one after it may be filled; skipping one leaves
a gap, and the column accepts nothing but the gap until it is filled (the two-field rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import RuleError
from .fields import Field, Score


@dataclass(frozen=True)
class Section:
    name: str
    fields: tuple[int, ...]
    threshold: int | None = None  # the section bonus is paid when its fields total this much
    bonus: int = 0

    def bonus_for(self, total: int) -> int:
        """The section bonus that fields totalling `total` earn."""
        return self.bonus if self.threshold is not None and total >= self.threshold else 0


@dataclass(frozen=True)
class SheetRules:
    """Everything that makes one sheet game: the same shape serves Dice Poker and the kubus games."""

    id: str
    name: str
    dice: int
    faces: int
    fields: tuple[Field, ...]
    sections: tuple[Section, ...]
    columns: tuple[str, ...]  # per column: "down", "up" or "free"
    minor_major: tuple[int, int] | None = None  # minor must not exceed major in the same column
    attempts: int = 3
    variants: Mapping[str, object] = field(default_factory=dict)

    def column_label(self, column: int) -> str:
        """How players call a column: the rulebooks' left, middle and right."""
        if len(self.columns) == 1:
            return "sheet"
        return {"down": "left", "free": "middle", "up": "right"}[self.columns[column]]

    def field(self, number: int) -> Field:
        return self.fields[number - 1]

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(f.number for f in self.fields)

    def open_fields(self, column: int, filled: set[int] | frozenset[int]) -> list[int]:
        """The fields of `column` that may take the next entry."""
        kind = self.columns[column]
        if kind == "free":
            return [n for n in self.numbers if n not in filled]
        order = self.numbers if kind == "down" else self.numbers[::-1]
        last = max((i for i, n in enumerate(order) if n in filled), default=-1)
        gaps = [n for n in order[: last + 1] if n not in filled]
        if gaps:
            return gaps[:1]
        return list(order[last + 1 : last + 3])


Key = tuple[int, int]  # (column, field number)


@dataclass(frozen=True)
class Sheet:
    """One player's entries; a new Sheet for every change."""

    rules: SheetRules
    entries: Mapping[Key, Score] = field(default_factory=dict)

    def with_entry(self, column: int, number: int, score: Score) -> Sheet:
        return Sheet(self.rules, {**self.entries, (column, number): score})

    def without(self, column: int, number: int) -> Sheet:
        return Sheet(self.rules, {k: v for k, v in self.entries.items() if k != (column, number)})

    def filled(self, column: int) -> frozenset[int]:
        return frozenset(n for c, n in self.entries if c == column)

    @property
    def full(self) -> bool:
        return len(self.entries) == len(self.rules.columns) * len(self.rules.fields)

    def open_fields(self) -> list[Key]:
        return [(c, n) for c in range(len(self.rules.columns)) for n in self.rules.open_fields(c, self.filled(c))]

    def check_open(self, column: int, number: int) -> None:
        """Raise the rule that forbids an entry in (column, number), if one does."""
        rules = self.rules
        if not 0 <= column < len(rules.columns):
            raise RuleError("columns", f"there is no column {column + 1}")
        if number not in rules.numbers:
            raise RuleError("fields", f"there is no field {number}")
        if (column, number) in self.entries:
            raise RuleError("one-entry-per-field", f"field {number} in column {column + 1} is already filled")
        if number not in rules.open_fields(column, self.filled(column)):
            allowed = ", ".join(map(str, rules.open_fields(column, self.filled(column))))
            raise RuleError("column-order", f"the {rules.columns[column]} column takes only field {allowed} now")

    def limit(self, column: int, number: int, score: Score) -> Score:
        """Minor must not exceed major: an entry that would break it can only cancel the field."""
        pair = self.rules.minor_major
        if not pair or number not in pair:
            return score
        minor, major = pair
        other = self.entries.get((column, major if number == minor else minor))
        if other is None:
            return score
        broken = score.total > other.total if number == minor else score.total < other.total
        return Score() if broken else score

    # --- totals -------------------------------------------------------------------------------
    def section_entries(self, column: int, section: Section) -> int:
        return sum(self.entries[(column, n)].total for n in section.fields if (column, n) in self.entries)

    def section_bonus(self, column: int, section: Section) -> int:
        return section.bonus_for(self.section_entries(column, section))

    def section_total(self, column: int, section: Section) -> int:
        return self.section_entries(column, section) + self.section_bonus(column, section)

    def column_total(self, column: int) -> int:
        return sum(self.section_total(column, s) for s in self.rules.sections)

    @property
    def total(self) -> int:
        return sum(self.column_total(c) for c in range(len(self.rules.columns)))

    @property
    def bonuses(self) -> int:
        return sum(self.section_bonus(c, s) for c in range(len(self.rules.columns)) for s in self.rules.sections)
