"""Train Wreck as a pure turn state machine fed with observed rolls.

The camera reads the dice a player threw, the buttons say what the player does with them. Each
action (`roll`, `set_aside`, `bank`, `accept`, `reroll`, `start_salvage`, `decline_salvage`,
`roll_off`) takes plain data (ints, tuples of ints) and returns a NEW game; an illegal action raises
RuleError (named by the rule it breaks) and the old game is untouched, so the table can store every
action in its event log and rebuild the game by applying them again to a new game (`apply`).

Scoring follows RULINGS.md (Train Wreck section), which decides over the rulebook. Where both are
silent, this module chooses what a player at the table would expect:

- Turn order is the order of `players`, starting with the roll-off winner (the rulebook's "to the
  first player's right" is the order the players were entered in). Only the tied highest roll again.
- A roll holding three, four or five of a kind must be taken as that combination ("whenever a triple
  is rolled ... the dice in the triple are set aside"): the only legal set-aside is the three dice of
  a triple or quadruple (which starts its confirmation) or all five of a quintuple. A straight may be
  taken whole (150) or ignored for its 1 and/or 5 (the rulebook's straight note allows that).
- A triple thrown with the last three dice in hand has no other dice to confirm it with: it scores
  at once and, all five dice having scored, all five must be rolled again.
- Triple confirmation: the dice that stay (not showing the triple's value) are read when none shows
  it any more; their 1s and 5s score and are set aside automatically, the others go back to the
  player, who may then bank or roll them. Ten confirmation rolls without success end the turn with 0;
  that is a failed confirmation, not a train wreck, so no salvage is offered.
- The confirmation dice are the other dice of the roll that made the combination: two after five
  dice, one after four (a triple in four dice confirms with one die, so the two-dice exception cannot
  apply). In the exception the five equal dice are not a quintuple: the triple scores, plus the two
  dice as singles when they are 1s or 5s.
- Quadruple confirmation: after a roll showing the value the player accepts all dice (`accept`) or
  rolls again some or all of the dice showing it (`reroll`), the others stay. After the tenth roll
  the dice must be accepted. Accepted dice showing the value score as singles only if it is 1 or 5.
- The salvage target is not declared: it is read from the dice set aside, one per roll (in order).
  The first salvage roll can always go on (every value starts a quintuple). The salvage is offered
  after every train wreck (also after a confirmation whose dice score nothing, and again after a
  completed salvage).
- Banking is possible only between rolls (after setting aside), with points in the turn, and not when
  all five dice must be rolled. Before a player is on the scoreboard a turn under 35 may be banked; it
  counts 0 ("no other points made on any turn will count").
- A player "reaches, ties or passes the top score" when a turn that counts brings the player's score
  to the goal or above and to no less than every other player's score. With one player the game ends
  when the goal is reached.

One module over 400 lines: the turn machine, its phases and scoring read best in one place beside the rulebook.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import product
from typing import ClassVar

from . import MAX_PLAYERS
from .errors import RuleError, checked_call, whole
from .ranking import Ranking, first_placed, ranked, winners_sentence

Dice = tuple[int, ...]

NAME = "Train Wreck"
FACES = 6  # played with five ordinary d6
GOALS = (1000, 750, 500)  # the rulebook's goal and its two shorter variants; the first is the default
ENTRY = 35  # getting on the scoreboard: one banked turn of at least this much
MAX_CONFIRMATION_ROLLS = 10

SINGLES = {1: 10, 5: 5}  # single dice that score outside a combination
KIND_FACTOR = {3: 10, 4: 25, 5: 100}  # n of a kind in one roll: factor x face value
KIND_NAME = {3: "triple", 4: "quadruple", 5: "quintuple"}
STRAIGHTS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))  # all five dice in one roll; no wrap-around
STRAIGHT_POINTS = 150


def face_value(value: int) -> int:
    """What a face is worth in a combination: 1s count 10, the other faces their pips."""
    return 10 if value == 1 else value


# The sequential salvage: the dice set aside, one per roll, must spell one of these in order.
SALVAGE_TARGETS: tuple[tuple[Dice, int, str], ...] = (
    ((1, 2, 3, 4, 5), 300, "sequential straight"),
    ((5, 4, 3, 2, 1), 300, "sequential straight"),
    ((2, 3, 4, 5, 6), 300, "sequential straight"),
    ((6, 5, 4, 3, 2), 300, "sequential straight"),
) + tuple(((v,) * 5, 75 * face_value(v), "sequential quintuple") for v in range(1, 7))


def describe(goal: int = GOALS[0]) -> dict:
    """What scores in Train Wreck and when the game ends, from the tables above (`dicetable rules train-wreck`)."""

    def by_face(factor: int) -> dict[str, int]:
        return {str(v): factor * face_value(v) for v in range(1, 7)}

    return {
        "game": "train-wreck",
        "dice": 5,
        "goal": goal,
        "entry": ENTRY,
        "singles": {str(v): points for v, points in SINGLES.items()},
        "of_a_kind": {KIND_NAME[n]: by_face(factor) for n, factor in KIND_FACTOR.items()},
        "straights": {"-".join(map(str, s)): STRAIGHT_POINTS for s in STRAIGHTS},
        "sequential_straights": {
            "-".join(map(str, t)): points for t, points, name in SALVAGE_TARGETS if name.endswith("straight")
        },
        "sequential_quintuples": by_face(75),
        "confirmation_rolls": MAX_CONFIRMATION_ROLLS,
    }


@dataclass(frozen=True)
class SetAside:
    """One legal way to set aside dice from a roll, and what it scores (provisional for a triple or
    quadruple: those count only once confirmed)."""

    dice: Dice  # sorted values
    points: int
    combo: str  # "singles", "straight", "triple", "quadruple", "quintuple"


def set_aside_options(roll: Sequence[int]) -> tuple[SetAside, ...]:
    """Every legal set-aside from a normal roll, best first; empty when the roll is a train wreck."""
    return _options(tuple(sorted(roll)))


@cache  # at most 6 + 21 + 56 + 126 + 252 sorted rolls; the answers are immutable
def _options(roll: Dice) -> tuple[SetAside, ...]:
    counts = Counter(roll)
    value, n = max(counts.items(), key=lambda kv: (kv[1], face_value(kv[0])), default=(0, 0))
    if n >= 3:  # a combination of a kind must be taken; triple/quadruple keep three dice for now
        kept = n if n == 5 else 3
        return (SetAside((value,) * kept, KIND_FACTOR[n] * face_value(value), KIND_NAME[n]),)
    options = []
    if roll in STRAIGHTS:
        options.append(SetAside(roll, STRAIGHT_POINTS, "straight"))
    for ones, fives in product(range(counts[1] + 1), range(counts[5] + 1)):
        if ones or fives:
            options.append(SetAside((1,) * ones + (5,) * fives, 10 * ones + 5 * fives, "singles"))
    return tuple(sorted(options, key=lambda o: (-o.points, -len(o.dice), o.dice)))


def roll_score(roll: Sequence[int]) -> int:
    """The most a normal roll can score (0: a train wreck)."""
    options = set_aside_options(roll)
    return options[0].points if options else 0


def singles_score(dice: Iterable[int]) -> int:
    return sum(SINGLES.get(v, 0) for v in dice)


def salvage_needs(held: Dice) -> tuple[int, ...]:
    """The values that continue a salvage whose dice so far are `held` (in the order set aside)."""
    i = len(held)
    return tuple(sorted({t[i] for t, _, _ in SALVAGE_TARGETS if t[:i] == held}))


class Phase(StrEnum):
    ROLL_OFF = "roll-off"  # each contender rolls one die to choose who starts
    ROLL = "roll"  # roll `expected_dice` dice (or bank, when allowed)
    SET_ASIDE = "set-aside"  # choose scoring dice from the roll just read
    CONFIRM_TRIPLE = "confirm-triple"
    CONFIRM_QUADRUPLE = "confirm-quadruple"
    QUADRUPLE_CHOICE = "quadruple-choice"  # accept the dice, or roll those showing the value again
    TRAIN_WRECK = "train-wreck"  # start the sequential salvage, or end the turn with 0
    SALVAGE_ROLL = "salvage-roll"
    SALVAGE_SET_ASIDE = "salvage-set-aside"
    OVER = "over"


# The rule a player breaks by doing something else while the game waits in this phase.
PHASE_RULE = {
    Phase.ROLL_OFF: "starting-out",
    Phase.SET_ASIDE: "set-aside",
    Phase.CONFIRM_TRIPLE: "triple-confirmation",
    Phase.CONFIRM_QUADRUPLE: "quadruple-confirmation",
    Phase.QUADRUPLE_CHOICE: "quadruple-confirmation",
    Phase.TRAIN_WRECK: "train-wreck",
    Phase.SALVAGE_ROLL: "sequential-salvage",
    Phase.SALVAGE_SET_ASIDE: "sequential-salvage",
    Phase.OVER: "game-over",
}
# ...and in the free ROLL phase, the rule of the action that does not fit.
ACTION_RULE = {
    "roll_off": "starting-out",
    "set_aside": "set-aside",
    "accept": "quadruple-confirmation",
    "reroll": "quadruple-confirmation",
    "start_salvage": "sequential-salvage",
    "decline_salvage": "train-wreck",
}
ACTIONS = ("roll_off", "roll", "set_aside", "bank", "accept", "reroll", "start_salvage", "decline_salvage")
# The actions a player takes without dice, by phase (a button each at the table)
DECISIONS = {
    Phase.ROLL: ("bank",),
    Phase.QUADRUPLE_CHOICE: ("accept", "reroll"),
    Phase.TRAIN_WRECK: ("start_salvage", "decline_salvage"),
}
SET_ASIDE_PHASES = (Phase.SET_ASIDE, Phase.SALVAGE_SET_ASIDE)  # the phases that list set-asides
# The dice lying loose besides those set aside (the Turn field holding them), by phase: a roll still to decide
# on, or the confirmation dice kept; in the other phases a roll is due and only the set-aside dice lie there
LOOSE_DICE = {
    Phase.SET_ASIDE: "roll",
    Phase.QUADRUPLE_CHOICE: "roll",
    Phase.TRAIN_WRECK: "roll",
    Phase.SALVAGE_SET_ASIDE: "roll",
    Phase.CONFIRM_TRIPLE: "confirm_kept",
    Phase.CONFIRM_QUADRUPLE: "confirm_kept",
}


@dataclass(frozen=True)
class Turn:
    """Where the current player's turn stands."""

    phase: Phase = Phase.ROLL
    points: int = 0  # the turn's total so far (what banking now would add)
    held: Dice = ()  # dice set aside this turn (in salvage: the salvage dice, in roll order)
    to_roll: int = 5  # dice the next roll must show
    forced: str = "start"  # why the player may not bank in the ROLL phase ("" = may bank)
    roll: Dice = ()  # the last roll read
    combo_value: int = 0  # the face of the triple/quadruple under confirmation
    combo_points: int = 0  # what it scores once confirmed
    confirm_kept: Dice = ()  # confirmation dice that stay
    confirm_rolls: int = 0
    note: str = ""  # what just happened, for the screen


@dataclass(frozen=True)
class TurnResult:
    player: int
    points: int  # what the turn made (0 after a train wreck)
    counted: int  # what was added to the score (0 before getting on the scoreboard)
    how: str  # "banked", "train wreck", "salvage failed", "confirmation failed"


@dataclass(frozen=True)
class TrainWreckGame:
    """Train Wreck as the table plays it (table_game.TableGame)."""

    holds_in_tray: ClassVar[bool] = False  # scoring dice are set aside
    starts_by_roll_off: ClassVar[bool] = True  # the rulebook: a roll-off decides who starts
    throw: ClassVar[None] = None  # rolls, not throws of attempts
    players: tuple[str, ...]
    goal: int
    scores: tuple[int, ...]
    on_scoreboard: tuple[bool, ...]
    current: int
    turn: Turn
    contenders: tuple[int, ...] = ()  # still in the roll-off for the start
    leader: int | None = None  # who last reached, tied or passed the top score at/above the goal
    history: tuple[TurnResult, ...] = ()

    # ---------------------------------------------------------------- setting up

    @classmethod
    def new(cls, players: Sequence[str], goal: int = GOALS[0]) -> TrainWreckGame:
        """A new game: the players roll off for the start (one player needs none)."""
        players = tuple(players)
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise RuleError("players", f"{NAME} needs 1 to {MAX_PLAYERS} players, not {len(players)}")
        if any(not isinstance(p, str) or not p.strip() for p in players) or len(set(players)) != len(players):
            raise RuleError("players", "every player needs a name of their own")
        if goal not in GOALS:
            raise RuleError("goal", f"the goal is one of {', '.join(map(str, GOALS))}, not {goal}")
        n = len(players)
        game = cls(players, goal, (0,) * n, (False,) * n, 0, Turn())
        if n == 1:
            return game
        return _with(game, turn=Turn(Phase.ROLL_OFF, to_roll=n, forced=""), contenders=tuple(range(n)))

    def apply(self, action: str, *args) -> TrainWreckGame:
        """Apply an action by name, as stored in an event log."""
        if action not in ACTIONS:
            raise RuleError("action", f"there is no action {action!r} in {NAME}")
        return checked_call(self, action, args)

    # ---------------------------------------------------------------- views

    @property
    def phase(self) -> Phase:
        return self.turn.phase

    @property
    def is_over(self) -> bool:
        return self.turn.phase == Phase.OVER

    @property
    def turn_points(self) -> int:
        return self.turn.points

    @property
    def expected_dice(self) -> int:
        """How many dice the next roll must show (0 when no roll is due)."""
        rolling = (Phase.ROLL_OFF, Phase.ROLL, Phase.CONFIRM_TRIPLE, Phase.CONFIRM_QUADRUPLE, Phase.SALVAGE_ROLL)
        return self.turn.to_roll if self.phase in rolling else 0

    @property
    def options(self) -> tuple[SetAside, ...]:
        """The legal set-asides now (salvage: one die of a needed value), best first."""
        t = self.turn
        if self.phase == Phase.SET_ASIDE:
            return set_aside_options(t.roll)
        if self.phase == Phase.SALVAGE_SET_ASIDE:
            return tuple(SetAside((v,), 0, "salvage") for v in salvage_needs(t.held) if v in t.roll)
        return ()

    @property
    def roll_score(self) -> int:
        """What the last roll can score as a normal roll (0: nothing, a train wreck)."""
        return roll_score(self.turn.roll) if self.phase == Phase.SET_ASIDE else 0

    @property
    def can_bank(self) -> bool:
        return self.phase == Phase.ROLL and not self.turn.forced and self.turn.points > 0

    @property
    def bank_counts(self) -> int:
        """What banking the turn now would add to the player's score: 0 until a turn of ENTRY gets them
        on the scoreboard."""
        return self._counted(self.current, self.turn.points)

    def _counted(self, player: int, points: int) -> int:
        return points if (self.on_scoreboard[player] or points >= ENTRY) else 0

    @property
    def must_roll(self) -> bool:
        return self.expected_dice > 0 and not self.can_bank and self.phase != Phase.ROLL_OFF

    @property
    def must_roll_reason(self) -> str:
        """Why the player has to roll now ("" when banking is allowed or no roll is due)."""
        if not self.must_roll:
            return ""
        return {
            Phase.ROLL: {"start": "the turn starts with all five dice", "all-five": "all five dice scored"}.get(
                self.turn.forced, ""
            ),
            Phase.CONFIRM_TRIPLE: "a triple must be confirmed",
            Phase.CONFIRM_QUADRUPLE: "a quadruple must be confirmed",
            Phase.SALVAGE_ROLL: "the salvage goes on",
        }[self.phase]

    @property
    def prompt(self) -> str:
        """A short line for the screen: what the game waits for."""
        t, n = self.turn, self.expected_dice
        dice = f"{n} {'die' if n == 1 else 'dice'}"
        match self.phase:
            case Phase.ROLL_OFF:
                return "to choose who starts, roll one die each: " + ", ".join(self.players[i] for i in self.contenders)
            case Phase.ROLL if n == 5 and t.forced:
                return "roll all five dice"
            case Phase.ROLL:
                what = "all five dice" if n == 5 else dice
                below = "" if self.bank_counts else f" (it scores 0: a first score needs {ENTRY})"
                return f"roll {what} or bank {t.points}{below}"
            case Phase.SET_ASIDE:
                return f"set aside scoring dice (up to {self.roll_score})"
            case Phase.CONFIRM_TRIPLE | Phase.CONFIRM_QUADRUPLE:
                combo = "triple" if self.phase is Phase.CONFIRM_TRIPLE else "quadruple"
                return (
                    f"confirm the {combo} of {t.combo_value}s: roll {dice}"
                    f" (roll {t.confirm_rolls + 1} of {MAX_CONFIRMATION_ROLLS})"
                )
            case Phase.QUADRUPLE_CHOICE:
                return f"accept the dice or roll the {t.combo_value}s again"
            case Phase.TRAIN_WRECK:
                return f"train wreck! try the salvage or end the turn (losing {t.points})"
            case Phase.SALVAGE_ROLL:
                need = " or ".join(map(str, salvage_needs(t.held)))
                return f"salvage: roll {dice}" + ("" if not t.held else f", need a {need}")
            case Phase.SALVAGE_SET_ASIDE:
                return "salvage: set aside one " + " or ".join(str(o.dice[0]) for o in self.options)
            case _:
                return "game over: " + winners_sentence(self.winners)

    @property
    def winners(self) -> tuple[str, ...]:
        return first_placed(self.ranking) if self.is_over else ()

    @property
    def ranking(self) -> Ranking:
        """(place, player, score), best first; equal scores share a place (1, 1, 3)."""
        return ranked(self.players, self.scores)

    # ---------------------------------------------------------------- what the table asks (table_game.TableGame)

    @property
    def forced_list(self) -> str:
        return "set-aside" if self.phase in SET_ASIDE_PHASES else ""

    @property
    def decisions(self) -> tuple[str, ...]:
        return DECISIONS.get(self.phase, ())

    @property
    def awaited(self) -> tuple[str, ...]:
        return () if self.expected_dice else self.decisions

    @property
    def roll_action(self) -> str:
        return "roll_off" if self.phase == Phase.ROLL_OFF else "roll"

    @property
    def dice_due(self) -> int:
        """The roll-off: one player's die at a time."""
        return 1 if self.expected_dice and self.phase == Phase.ROLL_OFF else self.expected_dice

    next_attempt: ClassVar[None] = None
    correctable: ClassVar[bool] = False  # a banked turn is final

    @property
    def loose_dice(self) -> Dice:
        return getattr(self.turn, LOOSE_DICE[self.phase]) if self.phase in LOOSE_DICE else ()

    @property
    def set_aside_dice(self) -> Dice:
        return self.turn.held

    def acting(self, rolled_off: int) -> int:
        return self.contenders[rolled_off] if self.phase == Phase.ROLL_OFF else self.current

    # ---------------------------------------------------------------- actions

    def roll_off(self, values: Sequence[int]) -> TrainWreckGame:
        """One die per player still in the roll-off (in `contenders` order); the highest starts."""
        self._expect("roll_off", Phase.ROLL_OFF)
        values = self._dice(values, "starting-out", self.turn.to_roll)
        top = max(values)
        tied = tuple(p for p, v in zip(self.contenders, values) if v == top)
        if len(tied) > 1:  # only the tied highest roll again
            return _with(self, contenders=tied, turn=_with(self.turn, to_roll=len(tied), note="tie: roll again"))
        return _with(self, contenders=(), current=tied[0], turn=Turn(note=f"{self.players[tied[0]]} starts"))

    def roll(self, values: Sequence[int]) -> TrainWreckGame:
        """The dice the player just threw, as read."""
        phase = self._expect("roll", Phase.ROLL, Phase.CONFIRM_TRIPLE, Phase.CONFIRM_QUADRUPLE, Phase.SALVAGE_ROLL)
        count_rule = PHASE_RULE.get(phase, "all-five-scored" if self.turn.forced == "all-five" else "dice-count")
        values = self._dice(values, count_rule, self.turn.to_roll)
        t = _with(self.turn, roll=values, note="")
        if phase == Phase.ROLL:
            if not set_aside_options(values):
                return _with(self, turn=_with(t, phase=Phase.TRAIN_WRECK, note="train wreck"))
            return _with(self, turn=_with(t, phase=Phase.SET_ASIDE))
        if phase == Phase.CONFIRM_TRIPLE:
            return _with(self, **self._confirm_triple(t, values))
        if phase == Phase.CONFIRM_QUADRUPLE:
            v = t.combo_value
            t = _with(
                t, confirm_kept=t.confirm_kept + tuple(x for x in values if x != v), confirm_rolls=t.confirm_rolls + 1
            )
            if v not in values or t.confirm_rolls >= MAX_CONFIRMATION_ROLLS:  # must be accepted
                return _with(
                    self,
                    **self._finish_confirmation(
                        _with(t, confirm_kept=t.confirm_kept + tuple(x for x in values if x == v))
                    ),
                )
            return _with(self, turn=_with(t, phase=Phase.QUADRUPLE_CHOICE, to_roll=0))
        # salvage: a roll without a needed value ends the turn with nothing
        if not set(values) & set(salvage_needs(t.held)):
            return _with(self, **self._end_turn(0, "salvage failed"))
        return _with(self, turn=_with(t, phase=Phase.SALVAGE_SET_ASIDE))

    def set_aside(self, values: Sequence[int]) -> TrainWreckGame:
        """The dice (values) the player keeps from the roll just read."""
        phase = self._expect("set_aside", Phase.SET_ASIDE, Phase.SALVAGE_SET_ASIDE)
        t = self.turn
        values = tuple(sorted(self._dice(values, "set-aside", None)))
        if not values:
            raise RuleError("set-aside", "set aside at least one scoring die")
        if Counter(values) - Counter(t.roll):
            raise RuleError("set-aside", f"those dice are not in the roll {_show(t.roll)}")
        if phase == Phase.SALVAGE_SET_ASIDE:
            needs = [v for v in salvage_needs(t.held) if v in t.roll]
            if len(values) != 1 or values[0] not in needs:
                raise RuleError(
                    "sequential-salvage", "in the salvage set aside exactly one die: " + " or ".join(map(str, needs))
                )
            held = t.held + values
            if len(held) < 5:
                return _with(self, turn=_with(t, phase=Phase.SALVAGE_ROLL, held=held, to_roll=5 - len(held)))
            points, name = next((p, n) for target, p, n in SALVAGE_TARGETS if target == held)
            return _with(self, turn=Turn(points=t.points + points, note=f"{name}: {points}", forced="all-five"))
        chosen = next((o for o in self.options if o.dice == values), None)
        if chosen is None:
            raise self._bad_set_aside()
        if chosen.combo in ("triple", "quadruple"):
            confirm = len(t.roll) - 3
            t = _with(
                t,
                held=t.held + values,
                combo_value=values[0],
                combo_points=chosen.points,
                confirm_kept=(),
                confirm_rolls=0,
                to_roll=confirm,
            )
            if confirm == 0:  # nothing left to confirm with: the triple stands, all five dice scored
                return _with(self, turn=self._scored(t, chosen.points, ()))
            phase = Phase.CONFIRM_TRIPLE if chosen.combo == "triple" else Phase.CONFIRM_QUADRUPLE
            return _with(self, turn=_with(t, phase=phase))
        return _with(self, turn=self._scored(t, chosen.points, values))

    def bank(self) -> TrainWreckGame:
        """Stop and add the turn's points (they count once the player is on the scoreboard)."""
        self._expect("bank", Phase.ROLL)
        if self.turn.forced == "all-five":
            raise RuleError("all-five-scored", "all five dice scored: roll all five dice again before banking")
        if self.turn.points <= 0:
            raise RuleError("bank", "nothing to bank yet: roll the dice")
        return _with(self, **self._end_turn(self.turn.points, "banked"))

    def accept(self) -> TrainWreckGame:
        """Quadruple confirmation: keep the dice as they lie."""
        self._expect("accept", Phase.QUADRUPLE_CHOICE)
        t = self.turn
        v = t.combo_value
        t = _with(t, confirm_kept=t.confirm_kept + tuple(x for x in t.roll if x == v))
        return _with(self, **self._finish_confirmation(t))

    def reroll(self, values: Sequence[int] | None = None) -> TrainWreckGame:
        """Quadruple confirmation: roll again the dice showing the value (all, or the ones given)."""
        self._expect("reroll", Phase.QUADRUPLE_CHOICE)
        t = self.turn
        v = t.combo_value
        showing = t.roll.count(v)
        values = (v,) * showing if values is None else self._dice(values, "quadruple-confirmation", None)
        if not values or any(x != v for x in values) or len(values) > showing:
            raise RuleError("quadruple-confirmation", f"only dice showing {v} may be rolled again (up to {showing})")
        kept = t.confirm_kept + (v,) * (showing - len(values))  # the rest are accepted
        return _with(self, turn=_with(t, phase=Phase.CONFIRM_QUADRUPLE, confirm_kept=kept, to_roll=len(values)))

    def start_salvage(self) -> TrainWreckGame:
        """After a train wreck: pick up all five dice for the sequential salvage."""
        self._expect("start_salvage", Phase.TRAIN_WRECK)
        return _with(self, turn=_with(self.turn, phase=Phase.SALVAGE_ROLL, held=(), to_roll=5, roll=(), note=""))

    def decline_salvage(self) -> TrainWreckGame:
        """After a train wreck: end the turn with 0."""
        self._expect("decline_salvage", Phase.TRAIN_WRECK)
        return _with(self, **self._end_turn(0, "train wreck"))

    # ---------------------------------------------------------------- inner workings

    def _expect(self, action: str, *phases: Phase) -> Phase:
        phase = self.phase
        if phase == Phase.OVER:
            raise RuleError("game-over", "the game is over")
        if phase not in phases:
            rule = ACTION_RULE[action] if phase == Phase.ROLL else PHASE_RULE[phase]
            raise RuleError(rule, f"not now: {self.prompt}")
        return phase

    @staticmethod
    def _dice(values, rule: str, count: int | None) -> Dice:
        values = tuple(values) if isinstance(values, Iterable) else (values,)
        if not all(map(whole, values)):  # a reader's numpy ints are fine; 5.0, "5" or True are not
            raise RuleError("die-faces", f"dice are given as whole numbers from 1 to {FACES}")
        values = tuple(map(operator.index, values))
        if any(not 1 <= v <= FACES for v in values):
            raise RuleError("die-faces", f"a die shows 1 to {FACES}, not {_show(values)}")
        if count is not None and len(values) != count:
            raise RuleError(rule, f"roll {count} {'die' if count == 1 else 'dice'}, not {len(values)}")
        return values

    def _bad_set_aside(self) -> RuleError:
        """Why a set-aside (of dice that are in the roll) is not among the options."""
        only = self.options[0]
        if only.combo in KIND_NAME.values():
            rule = {"triple": "triple-confirmation", "quadruple": "quadruple-confirmation"}.get(only.combo, "quintuple")
            return RuleError(rule, f"a {only.combo} must be set aside as a whole: {_show(only.dice)}")
        if tuple(sorted(self.turn.roll)) in STRAIGHTS:  # any subset of 1s and 5s would have been fine
            return RuleError("straight", "a straight is set aside whole, or only its 1 and 5 are kept")
        return RuleError("scoring-dice", "only scoring dice can be set aside: 1s and 5s")

    @staticmethod
    def _scored(t: Turn, points: int, held: Dice) -> Turn:
        """Points made and dice set aside; all five set aside means all five must be rolled again."""
        held = t.held + held
        base = _with(
            t,
            phase=Phase.ROLL,
            points=t.points + points,
            combo_value=0,
            combo_points=0,
            confirm_kept=(),
            confirm_rolls=0,
        )
        if len(held) >= 5:
            return _with(base, held=(), to_roll=5, forced="all-five", note="all five dice scored")
        return _with(base, held=held, to_roll=5 - len(held), forced="")

    def _confirm_triple(self, t: Turn, values: Dice) -> dict:
        v = t.combo_value
        t = _with(t, confirm_rolls=t.confirm_rolls + 1)
        if len(values) == 2 and values == (v, v):  # the exception: all five dice show the value
            if v in SINGLES:  # they score and all five dice have scored
                return {"turn": self._scored(_with(t, held=()), t.combo_points + 2 * SINGLES[v], (v,) * 5)}
            return {"turn": self._scored(_with(t, held=()), t.combo_points, ())}  # may bank or roll all five
        t = _with(t, confirm_kept=t.confirm_kept + tuple(x for x in values if x != v))
        showing = values.count(v)
        if not showing:
            return self._finish_confirmation(t)
        if t.confirm_rolls >= MAX_CONFIRMATION_ROLLS:
            return self._end_turn(0, "confirmation failed")
        return {"turn": _with(t, to_roll=showing)}

    def _finish_confirmation(self, t: Turn) -> dict:
        """The confirmation dice lie still: their 1s and 5s score with the combination, or it is a wreck."""
        scoring = tuple(x for x in t.confirm_kept if x in SINGLES)
        if not scoring:
            return {"turn": _with(t, phase=Phase.TRAIN_WRECK, to_roll=0, note="train wreck")}
        return {"turn": self._scored(t, t.combo_points + singles_score(scoring), scoring)}

    def _end_turn(self, points: int, how: str) -> dict:
        p = self.current
        counted = self._counted(p, points)
        scores = list(self.scores)
        scores[p] += counted
        on_board = list(self.on_scoreboard)
        on_board[p] = on_board[p] or points >= ENTRY
        leader = self.leader
        if counted and scores[p] >= self.goal and scores[p] >= max(scores):
            leader = p  # reached, tied or passed the top score at or above the goal
        nxt = (p + 1) % len(self.players)
        done = nxt == leader  # play came back to the leader: nobody tied or passed since
        return {
            "scores": tuple(scores),
            "on_scoreboard": tuple(on_board),
            "leader": leader,
            "history": self.history + (TurnResult(p, points, counted, how),),
            "current": leader if done else nxt,
            "turn": Turn(Phase.OVER, to_roll=0, note=how) if done else Turn(note=f"{self.players[p]}: {how} {points}"),
        }


def _with(obj, **changes):
    """dataclasses.replace without its per-field loop: replaying a long log makes many states."""
    return type(obj)(**{**obj.__dict__, **changes})


def _show(dice: Iterable[int]) -> str:
    return "-".join(map(str, dice)) or "nothing"
