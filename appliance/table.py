"""The table: where readings of the tray, button presses, the rules and the event log meet.

An event-driven state machine. Inputs: `reading(Reading)` when the dice come to rest, `tray(state)`
for motion/hand/empty, `camera(message)`, `press(Press)`. Output: `screen()`, a Screen model.

Every decision (a confirmed reading, a hold, a field, a set-aside, a bank) is checked by the rules,
appended to the event log, and only then shown. The game state is a replay of the log, so a
restart comes back to the same game, player, attempt and dice. What the buttons are doing between
decisions (a cursor, a reading under review, a message) is not an event: it is kept beside the log as
the screen state, written over at each change and in the same transaction as each decision, so a restart
also shows the same screen, whenever it came.

Over 400 lines: its modes share one state, which a refused log write rolls back whole; next to cut: a Play object.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from appliance import advice_view, host_settings, screen_build, table_state
from appliance.event_log import EventLog, GameRecord, LogError
from appliance.games import GAME_IDS, MAX_PLAYERS
from appliance.games.catalog import DICE_FACES, DICE_KIND, GAME_NAMES, STARTS_BY_ROLL_OFF
from appliance.games.errors import RuleError
from appliance.games.table_game import TableGame
from appliance.games.variants import VariantError
from appliance.name_entry import NameEntry, remembered
from appliance.night import night_games
from appliance.reading_review import (
    Review,
    as_confirmed_in,
    follow,
    kept,
    match,
    not_thrown,
    pushed_from,
    rolled,
    still,
)
from appliance.screen_model import ERROR, INFO, WARN, ChoiceView, Screen
from appliance.session import applied, new_game, replayed
from appliance.table_words import (
    CHOOSE_FIRST,
    DECIDE_FIRST,
    HOST_LISTS,
    REVIEW_SAYS,
    UNCHANGED,
    field_label,
    reading_problem,
    values,
)
from appliance.words import count
from hardware.buttons import BACK, NEXT, OK, PREV, Press
from vision.types import Die, Reading

# What OK on a choice decides, by list: the rules action and its arguments from the choice's key (the items of
# the menu and of "end this game?" have what they do as their key)
CHOICE_DECIDES = {
    "field": lambda key: ("enter", *key),
    "correct": lambda key: ("correct", *key),
    "set-aside": lambda key: ("set_aside", list(key)),
}
# The button of each decision a game offers without dice (TableGame.decisions): (button, held)
DECISION_PRESS = {
    "bank": (OK, True),
    "accept": (OK, False),
    "reroll": (NEXT, False),
    "start_salvage": (OK, False),
    "decline_salvage": (BACK, False),
}


@dataclass
class Chooser:
    """A list the buttons move through: fields, set-asides, games, menu items."""

    choices: list[ChoiceView]
    cursor: int = 0

    def move(self, step: int) -> None:
        if self.choices:
            self.cursor = (self.cursor + step) % len(self.choices)

    @property
    def chosen(self) -> ChoiceView:
        return self.choices[self.cursor]


class Table:
    def __init__(
        self,
        log: EventLog,
        players: Sequence[str] = ("Player 1", "Player 2"),
        default_game: str = "dice-poker",
        variants: Mapping[str, Mapping[str, Any]] | None = None,
        advice: str = "ask",
    ):
        saved = log.load_screen()  # read once: nothing below writes it before the restore
        self.log = log
        self.advice = advice  # the advisor: "off", "ask" or "show" (advice_view.MODES)
        self.asked = False  # advice asked for this moment: shown until the next decision
        self.settings_names = list(players)
        self.names = remembered(saved, players)  # as entered at the table on an earlier night
        self.entry: NameEntry | None = None  # the names being typed
        self.variants = {g: dict((variants or {}).get(g, {})) for g in GAME_IDS}
        self.settings_variants = host_settings.chosen(self.variants)
        host_settings.remembered(saved, self.variants)  # as turned at the table on an earlier night
        self.record: GameRecord | None = None
        self.game: TableGame | None = None
        self.logged = 0  # the game's events in the log: a saved screen belongs to the state after that many
        self.held: tuple[int, ...] | None = None  # sheet games: holds confirmed, waiting for the throw
        self.keep_view: tuple[int, ...] = ()  # sheet games: dice seen in the keep zone since the last attempt
        self.lying: tuple[Die, ...] = ()  # the dice as last taken, confirmed, dropped or refused: a reading with
        #                                   most of its rolling-area dice still where these lay was not thrown
        self.throw_seen = False  # sheet games: the next throw has been read, so the last entry is final (RULINGS)
        self.review: Review | None = None
        self.pushed: Reading | None = None  # dice pushed into the keep zone while the review was open
        self.roll_off: list[int] = []  # a start roll-off, one die per player, then logged at once
        self.chooser: Chooser | None = None
        self.choosing: str = ""  # what the chooser in play is for: "field", "correct", "set-aside", "menu", "end"
        self.viewing = 0  # sheet games: whose sheet is shown, counted from the player whose turn it is
        self.count = len(self.names) or 1
        self.order_shift = 0
        self.message, self.level = "", INFO
        self.camera_note, self.tray_note = "", ""
        self.setup_game = default_game if default_game in GAME_IDS else GAME_IDS[0]
        self.mode = "choose-game"
        self.on_confirm = None  # called with (dice, values, attempt) when the player confirms a reading
        self.power_off = None  # () -> "" or why not: shuts the Pi down (the menu's "shut down"; set by `run`)
        self.learnt = None  # the dice the reader has learnt (appliance.learning.LearntDice: count, forget), if kept
        self._saved: dict = {}
        self._reviewed: tuple = (None, ())  # (the log's state, the game-over review of it)
        self._resume(saved)
        self._restore_screen(saved)

    # ------------------------------------------------------------------ the log
    def _resume(self, saved: dict) -> None:
        record = self.log.open_game() or self._left_at_game_over(saved)
        if record is None:
            self._open_game_chooser()
            return
        try:
            events = self.log.events(record.id)  # a row that is no JSON raises ValueError
            game, held = replayed(record.game, record.players, record.variants, events)
        except (RuleError, VariantError, KeyError, TypeError, ValueError, IndexError) as error:
            # A log this version cannot replay: keep it in the history, start fresh, say so.
            self._open_game_chooser()
            said = f"the unfinished {record.game} game could not be resumed ({error})"
            if self._finish(record.id, {"abandoned": True, "reason": str(error)}, f"{said} and stays open"):
                self._say(f"{said}; it is kept in the log", ERROR)
            return
        self.record, self.game, self.held, self.mode, self.logged = record, game, held, "play", len(events)
        where = "the game is over" if self._is_over else f"{self.whose_turn()}'s turn"
        self._say(f"resumed {GAME_NAMES[record.game]}: {where}")
        self._after_decision()

    def _left_at_game_over(self, saved: dict) -> GameRecord | None:
        """The game the screen still showed when the table stopped, though already kept in the history (as soon
        as it is over): its game-over screen comes back until the players leave it."""
        newest, at = self.log.history(1), saved.get("game")
        return newest[0] if newest and isinstance(at, list) and at[:1] == [newest[0].id] else None

    def _decide(self, action: str, *args, keep: tuple[int, ...] = (), lying: tuple[Die, ...] | None = None) -> bool:
        """Check a decision with the rules, log it, then take it. False (and a message) if illegal.
        `keep`: the throw's dice the decision leaves lying in the keep zone; `lying`: the dice as it leaves them."""
        try:
            game, held = applied(self.game, self.held, action, list(args))
        except RuleError as error:
            self._say(error.message[:1].upper() + error.message[1:], WARN)
            return False
        before = dict(vars(self))
        self.game, self.held, self.logged = game, held, self.logged + 1
        self.review, self.chooser, self.choosing, self.viewing = None, None, "", 0
        self.lying = self.lying if lying is None else lying
        self._say("")
        self._after_decision(keep)
        try:
            with self.log.transaction():  # the decision and the screen it leads to: a stop keeps both or neither
                self.log.append(self.record.id, action, list(args))
                if self._is_over:  # into the history at once: a table switched off at the end of the night lists it
                    self.log.finish(self.record.id, self._result())
                self._save_screen()
        except LogError as error:  # not written, so not taken: the game stays as the log has it
            vars(self).update(before)
            self._log_failed(error)
            return False
        return True

    def _finish(self, game_id: int, result, meaning: str = UNCHANGED) -> bool:
        """Close a game in the log; False (and a message: the error and its `meaning`) if it cannot be written."""
        try:
            self.log.finish(game_id, result)
        except LogError as error:
            self._log_failed(error, meaning)
            return False
        return True

    def _result(self) -> list[dict]:
        return [{"rank": r, "name": n, "total": t} for r, n, t in self.game.ranking]

    def _log_failed(self, error: LogError, meaning: str = UNCHANGED) -> None:
        """A write the log refused: a message on screen and in the journal, and the table goes on."""
        self._say(f"{error}: {meaning} (is the SD card full?)", ERROR)
        print(f"dicetable: {self.message}", file=sys.stderr, flush=True)

    def _after_decision(self, keep: tuple[int, ...] = ()) -> None:
        """A new state: the dice seen in the keep zone before it say nothing about it, but those the decision
        leaves there (a throw's holds, holds released) still lie there: OK without moving them holds them."""
        self.keep_view, self.throw_seen, self.asked = tuple(keep), False, False
        self._show_game()

    def _show_game(self) -> None:
        """Open what the game state asks for: a forced field choice, a set-aside list, the end."""
        if self._is_over:
            self.mode = "game-over"
        elif self.forced_list:
            self._lists()[self.forced_list]()

    # ------------------------------------------------------------------ what the game state allows
    @property
    def _is_over(self) -> bool:
        """The rules say the game is over, and no throw is left waiting for its field."""
        return self.game.is_over and self.throw is None

    @property
    def throw(self):
        """Sheet games: the throw in progress (None between throws, between games, and in a game that rolls)."""
        return self.game.throw if self.game else None

    @property
    def forced_list(self) -> str:
        """The list the game state opens by itself, which BACK cannot leave ("" for none)."""
        return self.game.forced_list

    def _may_open(self, what: str) -> bool:
        """Whether the game state allows the list `what` now (a restored screen reopens no other)."""
        return (
            self.mode == "play"
            and {
                "field": self.throw is not None and self.held is None,  # not once holds wait for the next attempt
                "correct": self.correctable,
                "set-aside": self.forced_list == "set-aside",
                "menu": True,
                "end": not self._is_over,
            }.get(what, False)
            or what in HOST_LISTS
            and self.mode in ("play", "choose-game")
        )

    @property
    def correctable(self) -> bool:
        """The last entry may be corrected until the next throw starts (RULINGS)."""
        return self.game is not None and self.game.correctable and not self.throw_seen

    @property
    def dice_kind(self) -> str:
        """The dice the current game is played with ("d6" when no game is on)."""
        return DICE_KIND[self.record.game] if self.record else "d6"

    def whose_turn(self) -> str:
        return self.game.players[self.acting()]

    def acting(self) -> int:
        """Who is to act: in a roll-off the one to roll for the start."""
        return self.game.acting(len(self.roll_off))

    # ------------------------------------------------------------------ inputs
    def notice(self, message: str, level: str = WARN) -> None:
        """Something the player should know that is not about the game (a settings warning, say)."""
        self._say(message, level)

    def camera(self, problem: str) -> None:
        """ "" when the camera works, else what is wrong (shown until it works again)."""
        self.camera_note = problem

    def tray(self, state: str) -> None:
        self.tray_note = state

    def reading(self, reading: Reading) -> None:
        """The dice at rest. Only taken when the game waits for dice; never guessed."""
        if self.mode != "play" or self._is_over:
            return  # no game, or a finished game's entry being corrected: no throw is due
        reading, offered = self._looked_for(reading)
        if self.review and pushed_from(reading, self.review):
            self.pushed = reading  # dice kept pushed before the reading was confirmed: seen once it is
            self._save_screen()
            return
        if self.choosing and self.choosing != self.forced_list:
            if reading.dice and all(still(d, self.lying) for d in reading.dice):
                return  # the same dice read again (a restart's first look, a hand passing): the list stays
            self._close_list()  # a list the player opened: the dice are being played, so play goes on
        first = self._decision_due
        if first:
            self._say(first, WARN)
            self.lying = reading.dice  # thrown before the decision: only a roll after it counts
        elif problem := reading_problem(reading, self.record.game):
            self._say(problem, WARN)
        else:
            (self._held_reading if self.game.holds_in_tray else self._rolled_reading)(reading, offered)
        self._save_screen()

    def press(self, press: Press) -> None:
        {
            "choose-game": self._press_choose_game,
            "choose-players": self._press_choose_players,
            "names": self._press_names,
            "play": self._press_play,
            "game-over": self._press_game_over,
        }[self.mode](press)
        self._save_screen()

    def screen(self) -> Screen:
        return screen_build.screen(self)

    # ------------------------------------------------------------------ readings
    @property
    def _decision_due(self) -> str:
        """What the player must decide before a reading is taken ("" for nothing)."""
        if self.forced_list:
            return CHOOSE_FIRST[self.forced_list]
        awaited = self.game.awaited
        return DECIDE_FIRST[awaited[0]].format(game=self.game) if awaited else ""

    def _looked_for(self, reading: Reading) -> tuple[Reading, tuple[Die, ...]]:
        """The reading with as many of its doubted finds asked about as dice are missing (Reading.looked_for), and
        those finds: a die the reader took for no die is asked about, not missed."""
        seen = len(rolled(reading)) + (len(kept(reading)) if self.game.holds_in_tray else 0)
        looked = reading.looked_for(self.game.dice_due - seen)
        return looked, looked.dice[len(reading.dice) :]

    def _held_reading(self, reading: Reading, offered: tuple[Die, ...]) -> None:
        """A reading in a game whose kept dice stay in the keep zone (the sheet games)."""
        game, n = self.game, self.game.dice_due
        keep, rolled_ = kept(reading), rolled(reading)
        if game.throw is None:
            if keep:
                self._say(
                    f"a throw starts with all {n} dice"
                    f": take the {count(len(keep), 'die', 'dice')} out of the keep zone",
                    WARN,
                )
            elif len(rolled_) != n:
                self._say(f"{n} dice expected, I see {len(rolled_)}", WARN)
            elif not self._only_moved(reading, f"throw all {n} dice"):
                self.throw_seen = True  # the dice left the tray: the last entry is final
                self._start_review(Review.of(game.roll_action, rolled_), offered)
            return
        dice = game.throw.dice
        held = match(dice, [d.value for d in keep])
        if held is None:
            self._say(f"the keep zone shows {values(keep)}, which this throw ({values(dice)}) does not hold", WARN)
        elif self.held is not None and sorted(held) != sorted(self.held):  # holds confirmed: the next attempt
            want = values(dice[i] for i in self.held) or "nothing"
            self._say(f"the keep zone should hold {want}, it holds {values(keep) or 'nothing'}", WARN)
        elif len(keep) + len(rolled_) != n:
            self._say(f"{n} dice expected, I see {len(keep) + len(rolled_)}", WARN)
        elif not rolled_:
            self._say("all dice are in the keep zone: choose a field (OK or NEXT) or throw some again", INFO)
            self.keep_view = tuple(held)
        elif self.held is None:  # before the holds are confirmed the keep zone shows what OK would hold
            self.keep_view = tuple(held)
            if not self._only_moved(reading):  # else dice pushed into the keep zone, the others untouched
                self._start_review(Review.of(game.roll_action, rolled_, held=tuple(held), kept=keep), offered)
        elif not self._only_moved(reading, f"throw the {count(len(rolled_), 'other die', 'other dice')}"):
            self._start_review(Review.of(game.roll_action, rolled_, held=tuple(held), kept=keep), offered)

    def _rolled_reading(self, reading: Reading, offered: tuple[Die, ...]) -> None:
        """A reading in a game that sets scoring dice aside (Train Wreck): all dice due lie in the rolling area."""
        expected = self.game.dice_due
        if expected == 0:
            return
        if len(rolled(reading)) != expected:
            self._say(
                f"{count(expected, 'die', 'dice')} expected in the rolling area, I see {len(rolled(reading))}", WARN
            )
        elif not self._only_moved(reading, f"roll {count(expected, 'die', 'dice')}"):
            self._start_review(Review.of(self.game.roll_action, rolled(reading)), offered)

    def _only_moved(self, reading: Reading, then: str = "") -> bool:
        """Whether the dice were not thrown (reading_review.not_thrown): nothing is scored, and `then`, what to do,
        is said."""
        if not not_thrown(reading, self.lying):
            return False
        self.lying = reading.dice
        if then:
            self._say(f"the dice only moved, they were not thrown: {then}", INFO)
        return True

    def _start_review(self, review: Review, offered: tuple[Die, ...] = ()) -> None:
        """`offered`: finds the reader took for no die, asked about as dice (Reading.looked_for): the cursor starts
        at the first of them, which may be no die."""
        old = self.review
        if old and old.same_throw(review):
            # the same dice read again (a nudge, a restart): keep the player's edits, but where they lie now
            old.dice, old.kept = follow(old.dice, review.dice), review.kept
            return
        self.review, self.pushed = review, None
        doubted = [i for i, d in enumerate(review.dice) if any(d is o for o in offered)]
        if doubted:
            review.cursor = doubted[0]
        self._say(*REVIEW_SAYS["doubted" if doubted else "unsure" if review.unconfirmed else "check"])

    def _commit_review(self) -> None:
        review = self.review
        seen = review.as_confirmed()  # where the dice lie once this reading is taken
        if self.on_confirm:
            self.on_confirm(
                list(review.kept) + review.dice, [d.value for d in review.kept] + review.values, self.game.next_attempt
            )
        if review.action == "roll_off":
            self._say(f"{self.whose_turn()} rolled {review.values[0]}")  # not "check the reading" any more
            self.roll_off.append(review.values[0])
            self.review, self.lying, self.pushed = None, seen, None
            if len(self.roll_off) == len(self.game.contenders):
                values_, self.roll_off = self.roll_off, []
                self._decide("roll_off", values_)
            return
        if review.action == "rethrow":
            thrown = [i for i in range(len(self.game.throw.dice)) if i not in review.held]
            taken = self._decide("rethrow", thrown, review.values, keep=review.held, lying=seen)
        else:
            taken = self._decide(review.action, review.values, lying=seen)
        if taken:
            pushed, self.pushed = self.pushed, None
            if pushed:  # the dice pushed meanwhile, with the values the player confirmed
                pushed = as_confirmed_in(pushed, review)
                if self._decision_due:  # a list to choose from first: the push only moved the dice
                    self.lying = pushed.dice
                else:  # the keepers: as if read now (only moved, so they are kept)
                    self.reading(pushed)

    # ------------------------------------------------------------------ buttons
    def _press_choose_game(self, press: Press) -> None:
        if press.button in (PREV, NEXT):
            self.chooser.move(_step(press))
        elif press.button == OK and callable(self.chooser.chosen.key):  # the host's items below the games
            self.chooser.chosen.key()
        elif press.button == OK:
            self.setup_game = self.chooser.chosen.key
            self.mode = "choose-players"
        elif press.button == BACK and self.choosing:
            self._open_game_chooser()

    def _press_choose_players(self, press: Press) -> None:
        if press.button in (PREV, NEXT) and press.long:
            if not STARTS_BY_ROLL_OFF[self.setup_game]:
                self.order_shift += _step(press)  # who starts
        elif press.button in (PREV, NEXT):
            self.count = min(MAX_PLAYERS, max(1, self.count + _step(press)))
        elif press.button == OK and press.long:  # type the players' names
            self.entry, self.mode = NameEntry.of((self.names + self._spare_names())[: self.count]), "names"
        elif press.button == OK:
            self.start(self.setup_game, self.chosen_players())
        elif press.button == BACK:
            self._open_game_chooser()

    def _press_names(self, press: Press) -> None:
        now = self.entry.press(press)
        if now != "typing":  # the names done so far stay, the others as they were
            self.names = self.entry.names + self.names[len(self.entry.names) :]
            self.entry, self.mode = None, "choose-players"
            self._say("names kept for the next nights too" if now == "done" else "")

    def _press_game_over(self, press: Press) -> None:
        if press.button == OK:
            if self._finish(self.record.id, self._result()):  # again: in case it could not be written before
                self.record, self.game = None, None
                self._open_game_chooser()
                self._say("game saved in the history")
        elif press.button == BACK and press.long and self.correctable:
            self.mode = "play"
            self._open_corrections()

    def _press_play(self, press: Press) -> None:
        if press.button == BACK and press.long and self.choosing != "menu":
            self._open_menu()
        elif self.choosing:
            self._press_chooser(press)
        elif self.review is not None:
            self._press_review(press)
        else:
            (self._press_holds if self.game.holds_in_tray else self._press_decisions)(press)

    def _press_review(self, press: Press) -> None:
        if press.button in (PREV, NEXT) and press.long:  # change the value under the cursor
            self.review.turn(_step(press), DICE_FACES[self.record.game])
        elif press.button in (PREV, NEXT):
            self.review.move(_step(press))
        elif press.button == OK:
            if (done := self.review.ok()) == "take":
                self._commit_review()
            else:
                self._say(*REVIEW_SAYS[done])
        elif press.button == BACK:  # not a throw: those dice lying there again are not one either
            self.review, self.lying, self.pushed = None, self.review.as_confirmed(), None
            self._say(*REVIEW_SAYS["dropped"])

    def _press_holds(self, press: Press) -> None:
        """A press between readings in a game whose kept dice stay in the keep zone (the sheet games)."""
        throw = self.throw
        if (press.button, press.long) == (NEXT, True) and self.advice == "ask" and throw and self.held is None:
            self.asked = True  # during a throw hold NEXT asks the advisor; hold PREV still turns the sheets
        elif press.long and press.button in (PREV, NEXT):  # look at the other players' sheets
            self.viewing += _step(press)
        elif throw is None:
            if press.button == BACK and self.correctable:
                self._open_corrections()
        elif self.held is not None:
            if press.button == BACK:
                self._decide("release", keep=self.held)
        elif press.button == OK and len(self.keep_view) < self.game.dice_due:
            self._decide("hold", list(self.keep_view))
        elif press.button in (OK, NEXT, PREV):  # with all dice kept, all stand: OK too goes to the fields
            self._open_fields()

    def _press_decisions(self, press: Press) -> None:
        """A press between readings in a game that decides without dice (Train Wreck: bank, accept, salvage)."""
        action = next((a for a in self.game.decisions if DECISION_PRESS[a] == (press.button, press.long)), None)
        if action:
            self._decide(action)
        elif (press.button, press.long) == (NEXT, True) and self.advice == "ask":
            self.asked = advice_view.advisable(self.game)

    def _press_chooser(self, press: Press) -> None:
        chooser = self.chooser
        if (
            (press.button, press.long) == (NEXT, True)
            and self.advice == "ask"
            and self.choosing in ("field", "set-aside")
        ):
            self.asked = True  # in the lists a move, hold NEXT asks the advisor
        elif press.button in (PREV, NEXT):
            chooser.move(_step(press))
        elif press.button == OK:
            key = chooser.chosen.key
            if self.choosing in CHOICE_DECIDES:
                self._decide(*CHOICE_DECIDES[self.choosing](key))
            else:  # the menu, or "end this game?"
                key()
        elif press.button == BACK:
            self._close_list()

    # ------------------------------------------------------------------ lists
    def _lists(self) -> dict:
        """Each list by what it is for, as it opens."""
        return {
            "field": self._open_fields,
            "correct": self._open_corrections,
            "set-aside": self._open_set_asides,
            "menu": self._open_menu,
            "end": self._open_end,
            "night": self._open_night,
            "shutdown": self._open_shutdown,
            "game-settings": self._open_game_settings,
        }

    def _open(self, choosing: str, choices: list[ChoiceView], cursor: int = 0) -> None:
        self.chooser, self.choosing = Chooser(choices, cursor), choosing

    def _open_game_chooser(self) -> None:
        self.mode = "choose-game"
        choices = (
            [ChoiceView(GAME_NAMES[g], key=g) for g in GAME_IDS]
            + self._host_items()
            + [ChoiceView("game settings", key=self._open_game_settings)]
        )  # between games: a game keeps its own
        self._open("", choices, GAME_IDS.index(self.setup_game))

    def _host_items(self) -> list[ChoiceView]:
        return [
            ChoiceView("tonight's games", key=self._open_night),
            ChoiceView("shut down the table", key=self._open_shutdown),
        ]

    def _open_night(self) -> None:
        games = night_games(self.log) or ["no game finished tonight yet"]
        self._open("night", [ChoiceView(g, key=self._leave_host_list) for g in games])
        self._say("")

    def _open_shutdown(self) -> None:
        """Shutting down ends the night: one more OK."""
        self._open("shutdown", [ChoiceView("shut down now", key=self._shut_down)])
        self._say("the games are kept; an unfinished one comes back when the table is switched on again")

    def _open_game_settings(self, cursor: int = 0) -> None:
        self._open(
            "game-settings",
            [
                ChoiceView(label, key=lambda which=which: self._turn_setting(*which))
                for label, which in host_settings.labels(self.variants)
            ],
            cursor,
        )

    def _turn_setting(self, game: str, key: str) -> None:
        host_settings.turned(self.variants, game, key)
        self._open_game_settings(self.chooser.cursor)
        self._say("the games started from now on are played so; kept for the next nights too")

    def _leave_host_list(self) -> None:
        (self._open_game_chooser if self.mode == "choose-game" else self._close_list)()

    def _shut_down(self) -> None:
        problem = (
            self.power_off()
            if self.power_off
            else "this table cannot shut the computer down (it is not the installed service): switch it off as usual"
        )
        self._leave_host_list()
        self._say(problem or "shutting down: switch off once the screen is dark", ERROR if problem else INFO)

    def chosen_players(self) -> list[str]:
        """The players chosen on the players screen, the one who starts first."""
        names = (self.names + self._spare_names())[: self.count]  # each its own: the games tell players apart by name
        shift = 0 if STARTS_BY_ROLL_OFF[self.setup_game] else self.order_shift % len(names)
        return names[shift:] + names[:shift]

    def _spare_names(self) -> list[str]:
        numbers = range(len(self.names) + 1, 2 * MAX_PLAYERS + 1)  # enough even if every name is a "Player n"
        return [f"Player {i}" for i in numbers if f"Player {i}" not in self.names]

    def start(self, game_id: str, names: Sequence[str]) -> None:
        """A new game with these players in this order (the menus end here; so do replays)."""
        try:
            game = new_game(game_id, names, self.variants[game_id])
        except (RuleError, VariantError) as error:
            self._say(str(error), ERROR)
            return
        before = dict(vars(self))
        try:
            with self.log.transaction():  # the game and the screen it starts with: a stop keeps both or neither
                game_number = self.log.start_game(game_id, names, self.variants[game_id])
                self.record = GameRecord(game_number, game_id, tuple(names), self.variants[game_id], "", None, None)
                self.game, self.held, self.mode, self.logged = game, None, "play", 0
                self.chooser, self.choosing, self.review = None, "", None
                self.throw_seen = False  # `lying` stays: the last game's dice still lie in the tray
                self._say(f"{GAME_NAMES[game_id]} with {', '.join(names)}")
                self._save_screen()
        except LogError as error:
            vars(self).update(before)
            self._say(f"{error}: the game cannot be kept, so it does not start", ERROR)

    def _open_fields(self) -> None:
        self._open(
            "field",
            [
                ChoiceView(field_label(self.game.rules, o), "", o.score.total, (o.column, o.field))
                for o in self.game.options()
            ],
        )

    def _open_corrections(self) -> None:
        self._open(
            "correct",
            [
                ChoiceView(field_label(self.game.rules, o), "", o.score.total, (o.column, o.field))
                for o in self.game.correction_options()
            ],
        )
        self._say(f"correct {self.game.players[self.game.last_entry.player]}'s entry: choose the field it should go to")

    def _open_set_asides(self) -> None:
        self._open("set-aside", [ChoiceView(values(o.dice), o.combo, o.points, o.dice) for o in self.game.options])

    def _open_menu(self) -> None:
        items = [ChoiceView("continue the game", key=self._close_list)]
        if self.correctable:
            items.append(ChoiceView("correct the last entry", key=self._open_corrections))
        if self.advice == "ask" and advice_view.advisable(self.game):
            items.append(ChoiceView("advice for this moment", key=self._ask_advice))
        items += self._host_items()
        if self._may_open("end"):  # a finished game is kept with its result (game over, OK), never as abandoned
            items.append(ChoiceView("end this game (it stays in the log)", key=self._open_end))
        if self.learnt is not None:
            learnt = self.learnt.count()
            items.append(
                ChoiceView(f"forget the {count(learnt, 'die', 'dice')} the table has learnt", key=self._forget_dice)
                if learnt
                else ChoiceView("no dice learnt yet: each confirmed throw teaches the table", key=self._close_list)
            )
        self._open("menu", items)
        self._say("")  # what the list it was opened from asked ("correct Ann's entry: ...") no longer stands

    def _ask_advice(self) -> None:
        self.asked = True
        self._close_list()

    def game_review(self) -> dict:
        """The advisor's look back at the finished game (not with advice off), once per state of the log."""
        if self.advice == "off":
            return {}
        at = (self.record.id, self.logged)
        if self._reviewed[0] != at:
            events = [(a, args) for a, args in self.log.events(self.record.id) if a not in ("hold", "release")]
            start = new_game(self.record.game, self.record.players, self.record.variants)
            self._reviewed = (at, advice_view.review_lines(start, events))
        return {"review": self._reviewed[1]}

    def _forget_dice(self) -> None:
        try:
            self.learnt.forget()
        except OSError as error:
            self._close_list()
            self._say(f"the learnt dice could not be deleted ({error})", WARN)
            return
        self._close_list()
        self._say("learnt dice forgotten: the table reads as it came")

    def _open_end(self) -> None:
        """Ending cannot be undone: one more OK."""
        self._open("end", [ChoiceView("end this game", key=self._abandon)])
        self._say("")

    def _close_list(self) -> None:
        """Leave a list or the menu for what the game state asks for (a list it forces opens again)."""
        self.chooser, self.choosing = None, ""
        self._say("")  # what the list asked ("correct Ann's entry: ...") no longer stands
        self._show_game()

    def _abandon(self) -> None:
        if self._finish(self.record.id, {"abandoned": True}):
            self.record, self.game, self.held, self.review = None, None, None, None
            self._open_game_chooser()
            self._say("game ended; it stays in the log")

    # ------------------------------------------------------------------ surviving a restart (appliance.table_state)
    @property
    def at(self) -> list[int] | None:
        """The game and how many of its events the log holds (None between games): a saved screen's state."""
        return [self.record.id, self.logged] if self.record else None

    def _save_screen(self) -> None:
        """The screen state written when it changed. Inside a decision's transaction a failed write fails the
        decision; alone it only loses the screen in a restart, not the game (the next save retries)."""
        state = table_state.state_of(self)
        if state != self._saved:
            try:
                self.log.save_screen(state)
            except LogError:
                if self.log.in_transaction:
                    raise
                return
            self._saved = state

    def _restore_screen(self, state: dict) -> None:
        """Back to the screen the table showed when it stopped, if it was saved in the state the log
        gives (a decision and its screen are one transaction; a screen of another state, as a log
        rescued from damage may have, is ignored, as is a row this version cannot read)."""
        if (
            not state
            or state.get("game") != self.at
            or state.get("mode") != self.mode
            and not (self.mode == "choose-game" and state.get("mode") in ("choose-players", "names"))
        ):
            return
        resumed = dict(vars(self))
        try:
            vars(self).update(table_state.attributes(state))
            if state["choosing"] in self._lists() and self._may_open(state["choosing"]):
                self._lists()[state["choosing"]]()
            if self.chooser:
                self.chooser.cursor = min(state["cursor"], len(self.chooser.choices) - 1)
            self.message, self.level = state["message"]
            self._saved = state
        except (KeyError, TypeError, ValueError, IndexError):  # not a row this version wrote
            vars(self).update(resumed)

    def _say(self, message: str, level: str = INFO) -> None:
        self.message, self.level = message, level


def _step(press: Press) -> int:
    """Which way PREV or NEXT moves a cursor, a count or a die's value."""
    return 1 if press.button == NEXT else -1
