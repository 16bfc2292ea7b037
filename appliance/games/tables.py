"""The three sheet games as tables: one row per field, as the rulebooks and RULINGS.md list them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from . import variants as variant_rules
from .combos import all_within, cross, faces, kinds, runs, total_in, two_runs
from .fields import Field
from .sheet import Section, SheetRules

NUMBER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens")
ODD, EVEN = range(1, 11, 2), range(2, 11, 2)


def _face_fields(count: int, section: str) -> list[Field]:
    return [Field(k, NUMBER_NAMES[k - 1], section, faces([k]), combination=False) for k in range(1, count + 1)]


def _sum_field(number: int, name: str, section: str, values) -> Field:
    return Field(number, name, section, faces(values), combination=False)


def dice_poker() -> SheetRules:
    d6 = range(1, 7)
    fields = _face_fields(6, "upper") + [
        Field(7, "3 of a kind", "lower", kinds(3), points="all"),
        Field(8, "4 of a kind", "lower", kinds(4), points="all"),
        Field(9, "full house", "lower", kinds(3, 2, distinct=True), points=25),
        Field(10, "small straight", "lower", runs(4, 6), points=30),
        Field(11, "large straight", "lower", runs(5, 6), points=40),
        Field(12, "5 of a kind", "lower", kinds(5), points=50),
        _sum_field(13, "chance", "lower", d6),
    ]
    sections = (Section("upper", tuple(range(1, 7))), Section("lower", tuple(range(7, 14))))
    return SheetRules("dice-poker", "Dice Poker", 5, 6, tuple(fields), sections, ("free",))


def pentakubus() -> SheetRules:
    d6 = range(1, 7)
    fields = _face_fields(6, "A") + [
        _sum_field(7, "low (1-3)", "B", (1, 2, 3)),
        _sum_field(8, "high (4-6)", "B", (4, 5, 6)),
        _sum_field(9, "odd", "B", ODD),
        _sum_field(10, "even", "B", EVEN),
        _sum_field(11, "minor", "B", d6),
        _sum_field(12, "major", "B", d6),
        Field(13, "all in a third", "C", all_within((1, 2), (3, 4), (5, 6)), bonus=40, slam=12),
        Field(14, "all odd or all even", "C", all_within((1, 3, 5), (2, 4, 6)), bonus=25, slam=8),
        Field(15, "sum 17 or 18", "C", total_in((17, 18)), bonus=13, slam=6),
        Field(16, "short straight", "C", runs(3, 6), bonus=8),
        Field(17, "middle straight", "C", runs(4, 6), bonus=15, slam=6),
        Field(18, "long straight", "C", runs(5, 6), bonus=34, slam=10),
        Field(19, "pair", "D", kinds(2), bonus=5),
        Field(20, "two pairs", "D", kinds(2, 2), bonus=10, slam=5),
        Field(21, "triplet", "D", kinds(3), bonus=12, slam=5),
        Field(22, "full house", "D", kinds(3, 2), bonus=31, slam=9),
        Field(23, "quadruplet", "D", kinds(4), bonus=38, slam=11),
        Field(24, "quintuplet", "D", kinds(5), bonus=55, slam=15),
    ]
    sections = (
        Section("A", tuple(range(1, 7)), threshold=60, bonus=60),
        Section("B", tuple(range(7, 13)), threshold=110, bonus=30),
        Section("C", tuple(range(13, 19))),
        Section("D", tuple(range(19, 25))),
    )
    return SheetRules(
        "pentakubus", "Pentakubus", 5, 6, tuple(fields), sections, ("down", "free", "up"), minor_major=(11, 12)
    )


def hexakubus(
    wrap: bool = True, a_bonus: tuple[int, int] | None = None, slam: Mapping[int, int] | None = None
) -> SheetRules:
    d10 = range(1, 11)
    slam = slam or {}
    combination_fields = [
        Field(21, "all in a fifth", "C", all_within((1, 2), (3, 4), (5, 6), (7, 8), (9, 10)), bonus=90),
        Field(22, "all in a third (10 joker)", "C", all_within((1, 2, 3, 10), (4, 5, 6, 10), (7, 8, 9, 10)), bonus=60),
        Field(23, "all low, high or 4-7", "C", all_within(range(1, 6), range(6, 11), range(4, 8)), bonus=50),
        Field(24, "all odd or all even", "C", all_within(ODD, EVEN), bonus=50),
        Field(25, "cross combination", "C", cross(10), bonus=20),
        Field(26, "short straight", "C", runs(3, 10, wrap), bonus=10),
        Field(27, "double short straight", "C", two_runs(3, 10, wrap), bonus=60),
        Field(28, "middle straight", "C", runs(4, 10, wrap), bonus=30),
        Field(29, "long straight", "C", runs(5, 10, wrap), bonus=50),
        Field(30, "giant straight", "C", runs(6, 10, wrap), bonus=70),
        Field(31, "pair", "D", kinds(2), bonus=10),
        Field(32, "two pairs", "D", kinds(2, 2), bonus=20),
        Field(33, "three pairs", "D", kinds(2, 2, 2), bonus=60),
        Field(34, "triplet", "D", kinds(3), bonus=30),
        Field(35, "full house", "D", kinds(3, 2), bonus=40),
        Field(36, "two triplets", "D", kinds(3, 3), bonus=80),
        Field(37, "quadruplet", "D", kinds(4), bonus=60),
        Field(38, "quadruplet + pair", "D", kinds(4, 2), bonus=80),
        Field(39, "quintuplet", "D", kinds(5), bonus=90),
        Field(40, "six of a kind", "D", kinds(6), bonus=100),
    ]
    fields = (
        _face_fields(10, "A")
        + [
            _sum_field(11, "1-3", "B", (1, 2, 3)),
            _sum_field(12, "4-6", "B", (4, 5, 6)),
            _sum_field(13, "7-9", "B", (7, 8, 9)),
            _sum_field(14, "1-5", "B", range(1, 6)),
            _sum_field(15, "6-10", "B", range(6, 11)),
            _sum_field(16, "odd", "B", ODD),
            _sum_field(17, "even", "B", EVEN),
            Field(18, "sum 32-34", "B", total_in((32, 33, 34))),
            _sum_field(19, "minor", "B", d10),
            _sum_field(20, "major", "B", d10),
        ]
        + [replace(f, slam=slam.get(f.number, 0)) for f in combination_fields]
    )
    threshold, points = a_bonus or (None, 0)
    sections = (
        Section("A", tuple(range(1, 11)), threshold=threshold, bonus=points),
        Section("B", tuple(range(11, 21)), threshold=320, bonus=90),
        Section("C", tuple(range(21, 31))),
        Section("D", tuple(range(31, 41))),
    )
    return SheetRules(
        "hexakubus", "Hexakubus", 6, 10, tuple(fields), sections, ("down", "free", "up"), minor_major=(19, 20)
    )


BUILDERS = {"dice-poker": dice_poker, "pentakubus": pentakubus, "hexakubus": hexakubus}


def sheet_rules(game: str, variants: Mapping[str, Any] | None = None) -> SheetRules:
    """The rules of a sheet game with its variants (text or typed values; defaults of RULINGS.md)."""
    if game not in BUILDERS:
        raise KeyError(f"{game!r} is not a scoresheet game (those are: {', '.join(BUILDERS)})")
    chosen = variant_rules.resolve(game, variants)
    rules = BUILDERS[game](**{key.replace("-", "_"): value for key, value in chosen.items()})
    return replace(rules, variants=chosen)
