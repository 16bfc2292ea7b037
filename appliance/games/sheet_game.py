"""A sheet game in play: players, whose turn, the throw in progress, entries and corrections.

Every action returns a new game; an illegal one raises RuleError and the game stays as it was.
That is what lets the table keep an event log and rebuild the game by replaying it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar

from . import MAX_PLAYERS
from .errors import RuleError, checked_call, whole
from .fields import Score
from .ranking import Ranking, ranked
from .sheet import Sheet, SheetRules

ACTIONS = ("start_throw", "rethrow", "enter", "correct")  # what an event log may replay


@dataclass(frozen=True)
class Throw:
    """The dice of one throw; each die remembers the attempt in which it was last thrown."""

    dice: tuple[int, ...]
    thrown_in: tuple[int, ...]
    attempt: int = 1

    @property
    def fresh(self) -> tuple[bool, ...]:
        """Which dice were thrown in the latest attempt (the ones a slam may use)."""
        return tuple(a == self.attempt for a in self.thrown_in)


@dataclass(frozen=True)
class Option:
    column: int
    field: int
    score: Score


@dataclass(frozen=True)
class LastEntry:
    player: int
    column: int
    field: int
    throw: Throw


@dataclass(frozen=True)
class SheetGame:
    """A sheet game as the table plays it (table_game.TableGame)."""

    holds_in_tray: ClassVar[bool] = True
    starts_by_roll_off: ClassVar[bool] = False  # the players choose who starts
    rules: SheetRules
    players: tuple[str, ...]
    sheets: tuple[Sheet, ...]
    current: int = 0
    throw: Throw | None = None
    last_entry: LastEntry | None = None  # correctable until the next throw starts

    @classmethod
    def new(cls, rules: SheetRules, players: Sequence[str]) -> SheetGame:
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise RuleError("players", f"a game has 1 to {MAX_PLAYERS} players, not {len(players)}")
        return cls(rules, tuple(players), tuple(Sheet(rules) for _ in players))

    def apply(self, action: str, *args) -> SheetGame:
        """Apply an action by name, as stored in an event log."""
        if action not in ACTIONS:
            raise RuleError("action", f"there is no action {action!r} in {self.rules.name}")
        return checked_call(self, action, args)

    # --- the throw ------------------------------------------------------------------------------
    def start_throw(self, dice: Sequence[int]) -> SheetGame:
        """The first attempt of the current player's throw. It ends the correction of the last entry."""
        if self.is_over:
            raise RuleError("end-of-game", "the game is over: every field is filled")
        if self.throw is not None:
            raise RuleError("one-entry-per-throw", "this throw must be entered in a field before the next one")
        dice = self._check_dice(dice, self.rules.dice)
        return replace(self, throw=Throw(dice, (1,) * len(dice)), last_entry=None)

    def rethrow(self, indices: Sequence[int], values: Sequence[int]) -> SheetGame:
        """The next attempt: the dice at `indices` were thrown again and now show `values`."""
        throw = self._require_throw()
        if throw.attempt >= self.rules.attempts:
            raise RuleError("three-attempts", f"a throw has at most {self.rules.attempts} attempts")
        indices = tuple(indices)
        if not indices:
            raise RuleError("attempts", "an attempt throws at least one die")
        if len(set(indices)) != len(indices) or not all(0 <= i < len(throw.dice) for i in indices):
            raise RuleError("attempts", f"dice are numbered 0 to {len(throw.dice) - 1}, each once")
        values = self._check_dice(values, len(indices))
        dice, thrown_in = list(throw.dice), list(throw.thrown_in)
        for i, value in zip(indices, values):
            dice[i], thrown_in[i] = value, throw.attempt + 1
        return replace(self, throw=Throw(tuple(dice), tuple(thrown_in), throw.attempt + 1))

    def _check_dice(self, values: Sequence[int], count: int) -> tuple[int, ...]:
        values = tuple(values)
        if len(values) != count:
            raise RuleError("dice", f"expected {count} dice, got {len(values)}")
        if not all(whole(v) and 1 <= v <= self.rules.faces for v in values):
            raise RuleError("dice", f"a die shows 1 to {self.rules.faces}: {values}")
        return values

    def _require_throw(self) -> Throw:
        if self.throw is None:
            raise RuleError("throw-first", "throw the dice first")
        return self.throw

    def _require_last_entry(self) -> LastEntry:
        if self.last_entry is None:
            raise RuleError("corrections", "there is no entry to correct: the next throw has started")
        return self.last_entry

    # --- entering -------------------------------------------------------------------------------
    def score_in(self, sheet: Sheet, throw: Throw, column: int, number: int) -> Score:
        score = self.rules.field(number).score(throw.dice, throw.fresh)
        return sheet.limit(column, number, score)

    def options(self) -> list[Option]:
        """Every field the current throw may be entered in, with what it scores there, best first."""
        self._require_throw()
        return list(self._current_options)

    @cached_property
    def _current_options(self) -> tuple[Option, ...]:
        # A game never changes, so the screen, redrawn every frame, asks the rules once per state.
        return tuple(self._options(self.sheets[self.current], self.throw))

    def correction_options(self) -> list[Option]:
        """Where the last entry could go instead (its own field included), best first."""
        last = self._require_last_entry()
        return self._options(self.sheets[last.player].without(last.column, last.field), last.throw)

    def _options(self, sheet: Sheet, throw: Throw) -> list[Option]:
        open_fields = sheet.open_fields()
        scores = {n: self.rules.field(n).score(throw.dice, throw.fresh) for _, n in open_fields}  # once per field
        options = [Option(c, n, sheet.limit(c, n, scores[n])) for c, n in open_fields]
        return sorted(options, key=lambda o: (-o.score.total, o.column, o.field))

    def enter(self, column: int, number: int) -> SheetGame:
        """Enter the current throw in a field; the turn passes to the next player."""
        throw = self._require_throw()
        sheets = self._entered(self.current, throw, column, number)
        return replace(
            self,
            sheets=sheets,
            throw=None,
            current=(self.current + 1) % len(self.players),
            last_entry=LastEntry(self.current, column, number, throw),
        )

    def correct(self, column: int, number: int) -> SheetGame:
        """Move the last entry to another field; allowed until the next throw starts."""
        last = self._require_last_entry()
        sheets = list(self.sheets)
        sheets[last.player] = sheets[last.player].without(last.column, last.field)
        game = replace(self, sheets=tuple(sheets))
        return replace(
            game,
            sheets=game._entered(last.player, last.throw, column, number),
            last_entry=replace(last, column=column, field=number),
        )

    def _entered(self, player: int, throw: Throw, column: int, number: int) -> tuple[Sheet, ...]:
        sheet = self.sheets[player]
        sheet.check_open(column, number)
        sheets = list(self.sheets)
        sheets[player] = sheet.with_entry(column, number, self.score_in(sheet, throw, column, number))
        return tuple(sheets)

    # --- what the table asks (table_game.TableGame) ---------------------------------------------
    @property
    def forced_list(self) -> str:
        """After the last attempt the throw must go to a field."""
        return "field" if self.throw and self.throw.attempt >= self.rules.attempts else ""

    decisions: ClassVar[tuple[str, ...]] = ()  # holds, fields and corrections are chosen on the dice and lists
    awaited: ClassVar[tuple[str, ...]] = ()
    contenders: ClassVar[tuple[int, ...]] = ()
    set_aside_dice: ClassVar[tuple[int, ...]] = ()

    @property
    def roll_action(self) -> str:
        return "start_throw" if self.throw is None else "rethrow"

    @property
    def dice_due(self) -> int:
        return self.rules.dice

    @property
    def next_attempt(self) -> int:
        return 1 if self.throw is None else self.throw.attempt + 1

    @property
    def loose_dice(self) -> tuple[int, ...]:
        return self.throw.dice if self.throw else ()

    @property
    def correctable(self) -> bool:
        return self.last_entry is not None

    def acting(self, rolled_off: int) -> int:
        return self.current

    # --- the end --------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return all(sheet.full for sheet in self.sheets)

    @property
    def ranking(self) -> Ranking:
        """(place, player, total), best first; equal totals share a place."""
        return ranked(self.players, [sheet.total for sheet in self.sheets])
