"""Game variants: the choices RULINGS.md leaves to the players, with its defaults.

Values arrive as text (`--variant wrap=off`) or typed from the settings file (`wrap = false`); both
go through the same parser, and a wrong value names the key and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from appliance.base.errors import DiceTableError

from .train_wreck import GOALS


class VariantError(DiceTableError, ValueError):
    pass


@dataclass(frozen=True)
class Variant:
    key: str
    default: Any
    parse: Callable[[Any], Any]  # raises ValueError on a bad value
    allowed: str
    help: str


def _on_off(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    words = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}
    return words[str(value).strip().lower()]


def _is_none(value: Any) -> bool:
    """Whether a value turns a variant off: none, off or empty (or nothing at all)."""
    return value is None or str(value).strip().lower() in ("none", "off", "")


def _threshold_points(value: Any) -> tuple[int, int] | None:
    """'63:35' or {threshold = 63, points = 35}; 'none' for no bonus."""
    if _is_none(value):
        return None
    if isinstance(value, Mapping):
        threshold, points = value["threshold"], value["points"]
    elif isinstance(value, (list, tuple)):  # as the event log stores it
        threshold, points = value
    else:
        threshold, points = str(value).split(":")
    threshold, points = int(threshold), int(points)
    if threshold <= 0 or points <= 0:
        raise ValueError("threshold and points must be positive")
    return threshold, points


def _slam_table(value: Any) -> Mapping[int, int]:
    """'21:12,30:10' or {21 = 12, 30 = 10}: slam points per field of sections C and D."""
    if _is_none(value):
        return {}
    pairs = value.items() if isinstance(value, Mapping) else (p.split(":") for p in str(value).split(","))
    table = {int(field): int(points) for field, points in pairs}
    if any(not 21 <= field <= 40 or points < 0 for field, points in table.items()):
        raise ValueError("fields 21-40, points 0 or more")
    return table


def _one_of(*choices: int) -> Callable[[Any], int]:
    def parse(value: Any) -> int:
        number = int(str(value).replace(",", "").replace("_", ""))
        if number not in choices:
            raise ValueError(number)
        return number

    return parse


VARIANTS: dict[str, tuple[Variant, ...]] = {
    "dice-poker": (),
    "pentakubus": (),
    "hexakubus": (
        Variant(
            "wrap",
            True,
            _on_off,
            "on or off (true or false in the settings file)",
            "wrap-around straights (8-9-10-1-2-3) on fields 26-30; a 10 without a 9 in its run counts 0",
        ),
        Variant(
            "a-bonus",
            None,
            _threshold_points,
            "THRESHOLD:POINTS (e.g. 200:50) or none",
            "a bonus for section A (fields 1-10), which the rulebook fragment does not give",
        ),
        Variant(
            "slam",
            {},
            _slam_table,
            "FIELD:POINTS,... for fields 21-40, or none",
            "slam points per field, which the rulebook fragment does not give",
        ),
    ),
    "train-wreck": (
        Variant(
            "goal",
            GOALS[0],
            _one_of(*GOALS),
            ", ".join(map(str, GOALS[:-1])) + f" or {GOALS[-1]}",
            "the score that ends the game",
        ),
    ),
}


def spelled(value: Any) -> str:
    """A variant's value as --variant and the settings file write it: on, off, none, 200:50, 21:12,30:10."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None or value == {}:
        return "none"
    if isinstance(value, Mapping):
        return ",".join(f"{key}:{points}" for key, points in value.items())
    if isinstance(value, tuple):
        return ":".join(map(str, value))
    return str(value)


def resolve(game: str, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """All variants of `game` with the given values parsed and the rest at their defaults."""
    known = {v.key: v for v in VARIANTS[game]}
    values = {key: v.default for key, v in known.items()}
    for key, raw in (given or {}).items():
        key = key.replace("_", "-")
        if key not in known:
            allowed = ", ".join(known) or "none"
            raise VariantError(f"{game} has no variant {key!r} (variants: {allowed})")
        try:
            values[key] = known[key].parse(raw)
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError):  # OverflowError: int(inf)
            raise VariantError(f"{game} variant {key}={raw!r} is not allowed: use {known[key].allowed}") from None
    return values


def parse_assignments(words: list[str]) -> dict[str, str]:
    """['wrap=off', 'goal=750'] -> {'wrap': 'off', 'goal': '750'}."""
    pairs = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise VariantError(f"variant {word!r} must look like KEY=VALUE")
        pairs[key.strip()] = value.strip()
    return pairs
