"""The one error the rules raise: an illegal action, named by the rule it breaks."""

from __future__ import annotations

import inspect
import numbers
from typing import Any

from appliance.base.errors import DiceTableError


class RuleError(DiceTableError, ValueError):
    """An action the rules do not allow. The game state it was applied to is unchanged."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


# What an action's argument must be, by its annotation: a number of a field or a die, or dice
ARGUMENTS = {
    "int": "a whole number",
    "Sequence[int]": "a list of whole numbers",
    "Sequence[int] | None": "a list of whole numbers",
}


def checked_call(game: Any, action: str, args: tuple) -> Any:
    """game.<action>(*args), an action by name as an event log stores it, its arguments checked first: a wrong
    number of them, or one of another kind (True or "5" for a die, a number for the dice), is a RuleError that
    names it, never a TypeError from inside the rules."""
    method = getattr(game, action)
    signature = inspect.signature(method)
    try:
        bound = signature.bind(*args)
    except TypeError:
        takes = ", ".join(signature.parameters) or "nothing"
        raise RuleError(
            "arguments", f"{action} takes {takes}, not {len(args)} argument{'s' * (len(args) != 1)}"
        ) from None
    for name, value in bound.arguments.items():
        kind = signature.parameters[name].annotation
        if not _is(kind, value):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "…"
            raise RuleError("arguments", f"{action}: {name} must be {ARGUMENTS[kind]}, not {shown}")
    return method(*args)


def whole(value: Any) -> bool:
    """An integer (a reader's numpy integers too), and not True or False."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is(kind: str, value: Any) -> bool:
    if kind == "int":
        return whole(value)
    if value is None:
        return kind.endswith("| None")
    return isinstance(value, (list, tuple)) and all(map(whole, value))
