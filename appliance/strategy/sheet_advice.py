"""Advice for a sheet game's throw: which dice to keep, or which field to fill, and what each is worth.

Every choice is valued as the expected final score of the player's sheet: exact for Dice Poker, an
estimate for the kubus games (appliance.strategy.kubus). The rest of the throw is solved exactly
against those values, slams included: a slam needs the scoring dice thrown in the final attempt.
"""

from __future__ import annotations

from dataclasses import dataclass

from appliance.games.errors import RuleError
from appliance.games.sheet import Sheet, SheetRules
from appliance.games.sheet_game import SheetGame, Throw

from .dice import ThrowPlan, solve_throw
from .dice_poker import DicePokerValues
from .kubus import KubusValues
from .lookahead import OneThrowAhead
from .scores import stop_values, tables_for, variants_key

VALUES = {  # Hexakubus looks ahead only over its last 12 fields: its throws take ten times as long (lookahead.py)
    "dice-poker": DicePokerValues,
    "pentakubus": lambda rules: OneThrowAhead(KubusValues(rules)),
    "hexakubus": lambda rules: OneThrowAhead(KubusValues(rules), within=12),
}


@dataclass(frozen=True)
class Choice:
    expected: float  # the sheet's expected final score after this choice
    keep: tuple[int, ...] | None = None  # keep these dice and throw the others ...
    column: int | None = None  # ... or enter the throw here
    field: int | None = None
    score: int | None = None  # what the entry scores


@dataclass(frozen=True)
class SheetAdvice:
    choices: tuple[Choice, ...]  # best first
    exact: bool  # Dice Poker: expected values of optimal play; kubus games: estimates

    @property
    def best(self) -> Choice:
        return self.choices[0]


def _key(rules: SheetRules) -> tuple:
    return rules.id, variants_key(rules)


_values: dict = {}


def sheet_values(rules: SheetRules):
    """The valuation of a game's sheets (built once per game and variants)."""
    key = _key(rules)
    if key not in _values:
        _values[key] = VALUES[rules.id](rules)
    return _values[key]


_last_plan: dict = {}


def throw_plan(rules: SheetRules, sheet: Sheet, entries, values) -> ThrowPlan:
    """The throw solved for this sheet (the last one is kept: a throw asks up to three times)."""
    key = (_key(rules), tuple(sorted((k, v.total) for k, v in sheet.entries.items())))
    if _last_plan.get("key") != key or _last_plan.get("values") is not values:
        tables = tables_for(rules)
        plan = solve_throw(tables.space, stop_values(tables, entries), rules.attempts)
        _last_plan.update(key=key, values=values, plan=plan)
    return _last_plan["plan"]


def advise_throw(rules: SheetRules, sheet: Sheet, throw: Throw, values=None) -> SheetAdvice:
    """`values`: another valuation than the game's own (self-play tuning tries some)."""
    values = values or sheet_values(rules)
    entries = values.entry_values(sheet)
    choices = []
    for c, n, lut in entries:
        raw = rules.field(n).score(throw.dice, throw.fresh)
        choices.append(Choice(float(lut[raw.total]), column=c, field=n, score=sheet.limit(c, n, raw).total))
    if throw.attempt < rules.attempts:
        plan = throw_plan(rules, sheet, entries, values)
        space = tables_for(rules).space
        keep_value = plan.keep_value[throw.attempt - 1]
        for k in space.sub_keeps[space.roll_row(throw.dice)]:
            choices.append(Choice(float(keep_value[k]), keep=space.keeps[k]))
    unique = {(c.keep, c.column, c.field): c for c in choices}.values()  # padding repeats a keep
    ranked = sorted(unique, key=lambda c: (-c.expected, c.keep is not None, c.column or 0, c.field or 0))
    return SheetAdvice(tuple(ranked), values.exact)


def describe(rules: SheetRules, choice: Choice) -> str:
    """A choice in words: "keep 6-6", "12 in 6 sixes" (with the column when there are three)."""
    if choice.keep is not None:
        return f"keep {'-'.join(map(str, choice.keep)) or 'nothing'}"
    column = f" {rules.column_label(choice.column)}" if len(rules.columns) > 1 else ""
    return f"{choice.score} in {choice.field} {rules.field(choice.field).name}{column}"


def advise(game: SheetGame) -> SheetAdvice:
    """Advice for the current player's throw."""
    if game.throw is None:
        raise RuleError("throw-first", "throw the dice first: advice is for a throw")
    return advise_throw(game.rules, game.sheets[game.current], game.throw)
