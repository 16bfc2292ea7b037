"""What the table asks of a game in play: one interface, answered by the sheet games and by Train Wreck.

The table (appliance.table) runs the buttons, the readings and the log; the rules facts it needs for that
(which dice lie loose, which list a state forces, what a roll waits for, who starts) each game answers here.
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from .ranking import Ranking
from .sheet_game import Throw


class TableGame(Protocol):
    # The sheet games: a throw's kept dice stay in the tray's keep zone between attempts, and an entry goes on a
    # sheet. Train Wreck: scoring dice are set aside, and a turn is banked.
    holds_in_tray: ClassVar[bool]
    starts_by_roll_off: ClassVar[bool]  # a roll-off decides who starts (not the order on the players screen)
    players: tuple[str, ...]
    current: int
    throw: Throw | None  # the throw in progress, its dice thrown again in attempts (None: between throws, or rolls)
    contenders: tuple[int, ...]  # the players still in the roll-off for the start, one die each (none: no roll-off)

    def apply(self, action: str, *args) -> TableGame:
        """The game after a logged action (a rules action by name); RuleError if illegal."""

    @property
    def is_over(self) -> bool: ...

    @property
    def ranking(self) -> Ranking: ...

    @property
    def forced_list(self) -> str:
        """The list the state opens by itself and nothing else is done before: "field", "set-aside" or ""."""

    @property
    def decisions(self) -> tuple[str, ...]:
        """The actions the player may take now without dice ("bank", "accept", ...), each given its button."""

    @property
    def awaited(self) -> tuple[str, ...]:
        """Those of `decisions` the next roll waits for: a reading before one of them is not taken."""

    @property
    def roll_action(self) -> str:
        """The action the next reading of the dice goes to ("start_throw", "rethrow", "roll", "roll_off")."""

    @property
    def dice_due(self) -> int:
        """How many dice the next reading must show, 0 when no roll is due (sheet games: with those kept)."""

    @property
    def next_attempt(self) -> int | None:
        """The attempt the next throw is (None: a game without attempts)."""

    @property
    def loose_dice(self) -> tuple[int, ...]:
        """The dice lying loose on the table, as the rules last saw them (not those set aside)."""

    @property
    def set_aside_dice(self) -> tuple[int, ...]:
        """The dice set aside this turn."""

    @property
    def correctable(self) -> bool:
        """An entry was just made that may still be moved (until the next throw starts)."""

    def acting(self, rolled_off: int) -> int:
        """Who acts now; in a roll-off for the start, `rolled_off` of its dice already read."""
