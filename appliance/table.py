"""The table: where readings of the tray, button presses, the rules and the event log meet.

An event-driven state machine. Inputs: `reading(Reading)` when the dice come to rest, `tray(state)`
for motion/hand/empty, `camera(message)`, `press(Press)`. Output: `screen()`, a Screen model.

Every decision (a confirmed reading, a hold, a field, a set-aside, a bank) is checked by the rules,
appended to the event log, and only then shown. The game state is a replay of the log, so a
restart comes back to the same game, player, attempt and dice. What the buttons are doing between
decisions (a cursor, a reading under review, a message) is not an event: it is kept beside the log as
the screen state, written over at each change and in the same transaction as each decision, so a restart
also shows the same screen, whenever it came.
"""
from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, replace
from typing import Any, Mapping, Sequence

from appliance import advice_view
from appliance.event_log import EventLog, GameRecord, LogError
from appliance.games import GAME_IDS, MAX_PLAYERS
from appliance.games.catalog import DICE_FACES, DICE_KIND, GAME_NAMES
from appliance.games.errors import RuleError
from appliance.games.ranking import first_placed, winners_sentence
from appliance.games.sheet_game import SheetGame, Throw
from appliance.games.train_wreck import Phase, TrainWreckGame
from appliance.games.variants import VariantError
from appliance import host_settings
from appliance.game_views import game_views
from appliance.name_entry import NameEntry, remembered
from appliance.night import night_games
from appliance.screen_model import ERROR, INFO, WARN, CheckedDie, ChoiceView, DieView, Hint, Screen
from appliance.session import GameState, new_game
from hardware.buttons import BACK, NEXT, OK, PREV, Press
from vision.types import KEEP, OUTSIDE, ROLL, Die, Reading

SET_ASIDE_PHASES = (Phase.SET_ASIDE, Phase.SALVAGE_SET_ASIDE)  # Train Wreck: the phases that list set-asides
# Train Wreck: the dice on the table besides those set aside (the Turn field holding them), by phase: a roll still
# to decide on, or the confirmation dice kept; in the other phases a roll is due and only the set-aside dice lie there
LOOSE_DICE = {Phase.SET_ASIDE: "roll", Phase.QUADRUPLE_CHOICE: "roll", Phase.TRAIN_WRECK: "roll",
              Phase.SALVAGE_SET_ASIDE: "roll", Phase.CONFIRM_TRIPLE: "confirm_kept", Phase.CONFIRM_QUADRUPLE: "confirm_kept"}
UNCHANGED = "nothing was changed, try again"  # what a write the log refused means, mostly
STILL = 1 / 3  # an untouched die stays within this share of its size; a thrown one lands elsewhere
ROLL_OFF_GAMES = ("train-wreck",)  # its rulebook: a roll-off decides who starts, not the players screen
# Train Wreck: the decision a roll has to wait for, by phase (a reading before it is not taken)
DECIDE_FIRST = {Phase.QUADRUPLE_CHOICE: "first accept the dice (OK) or choose to roll the {v}s again (NEXT): "
                                        "a roll is not taken before that",
                Phase.TRAIN_WRECK: "first choose: try the salvage (OK) or end the turn (BACK): "
                                   "a roll is not taken before that"}
# The lists the game forces, by what they choose: a reading before the choice is not taken either
CHOOSE_FIRST = {"field": "first choose the field for this throw (OK): a throw is not taken before that",
                "set-aside": "first choose the dice to set aside (OK): a roll is not taken before that"}
# The host's lists, in the menu and below the games: their titles and prompts
HOST_LISTS = {"night": "Tonight's games", "shutdown": "Shut down the table?", "game-settings": "Game settings"}
HOST_PROMPTS = {"night": "the games finished tonight, newest first", "shutdown": "OK shuts the table down, BACK goes back",
                "game-settings": "OK turns the setting under the cursor, for the games started from now on"}
# What OK on a choice decides, by list: the rules action and its arguments from the choice's key (the items of
# the menu and of "end this game?" have what they do as their key)
CHOICE_DECIDES = {"field": lambda key: ("enter", *key), "correct": lambda key: ("correct", *key),
                  "set-aside": lambda key: ("set_aside", list(key))}


@dataclass
class Review:
    """A reading waiting for the player's OK: values may be changed, unsure dice must be confirmed."""

    action: str  # the rules action the confirmed values go to: start_throw, rethrow, roll, roll_off
    dice: list[Die]  # the dice to confirm, left to right
    values: list[int]
    confirmed: list[bool]
    held: tuple[int, ...] = ()  # sheet games: the throw's dice that stayed in the keep zone
    cursor: int = 0
    kept: tuple[Die, ...] = ()  # those dice as read in the keep zone (for the recorder's labels)

    @classmethod
    def of(cls, action: str, dice: Sequence[Die], held: tuple[int, ...] = (), kept: Sequence[Die] = ()) -> "Review":
        dice = sorted(dice, key=lambda d: (d.centre[0], d.centre[1]))
        confirmed = [not d.uncertain for d in dice]
        cursor = confirmed.index(False) if False in confirmed else 0
        return cls(action, list(dice), [d.value for d in dice], confirmed, held, cursor, tuple(kept))

    @property
    def unconfirmed(self) -> list[int]:
        return [i for i, ok in enumerate(self.confirmed) if not ok]


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
    def __init__(self, log: EventLog, players: Sequence[str] = ("Player 1", "Player 2"),
                 default_game: str = "dice-poker", variants: Mapping[str, Mapping[str, Any]] | None = None,
                 advice: str = "ask"):
        self.log = log
        self.advice = advice  # the advisor: "off", "ask" or "show" (advice_view.MODES)
        self.asked = False  # advice asked for this moment: shown until the next decision
        self.settings_names = list(players)
        self.names = remembered(log.load_screen(), players)   # as entered at the table on an earlier night
        self.entry: NameEntry | None = None  # the names being typed
        self.variants = {g: dict((variants or {}).get(g, {})) for g in GAME_IDS}
        self.settings_variants = host_settings.chosen(self.variants)
        host_settings.remembered(log.load_screen(), self.variants)   # as turned at the table on an earlier night
        self.record: GameRecord | None = None
        self.game: GameState | None = None
        self.logged = 0  # the game's events in the log: a saved screen belongs to the state after that many
        self.held: tuple[int, ...] | None = None  # sheet games: holds confirmed, waiting for the throw
        self.keep_view: tuple[int, ...] = ()  # sheet games: dice seen in the keep zone since the last attempt
        self.lying: tuple[Die, ...] = ()  # the dice as last taken, confirmed, dropped or refused: a reading with
        #                                   most of its rolling-area dice still where these lay was not thrown
        self.throw_seen = False  # sheet games: the next throw has been read, so the last entry is final (RULINGS)
        self.review: Review | None = None
        self.pushed: Reading | None = None  # dice pushed into the keep zone while the review was open
        self.roll_off: list[int] = []  # Train Wreck: the start roll-off, one die per player, then logged at once
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
        self._resume()
        self._restore_screen(self.log.load_screen())

    # ------------------------------------------------------------------ the log
    def _resume(self) -> None:
        record = self.log.open_game() or self._left_at_game_over()
        if record is None:
            self._open_game_chooser()
            return
        try:
            events = self.log.events(record.id)   # a row that is no JSON raises ValueError
            game = new_game(record.game, record.players, record.variants)
            held = None
            for action, args in events:
                game, held = self._apply(game, held, action, args)
        except (RuleError, VariantError, KeyError, TypeError, ValueError, IndexError) as error:
            # A log this version cannot replay: keep it in the history, start fresh, say so.
            self._open_game_chooser()
            said = f"the unfinished {record.game} game could not be resumed ({error})"
            if self._finish(record.id, {"abandoned": True, "reason": str(error)}, f"{said} and stays open"):
                self._say(f"{said}; it is kept in the log", ERROR)
            return
        self.record, self.game, self.held, self.mode, self.logged = record, game, held, "play", len(events)
        where = "the game is over" if self._is_over else f"{self._whose_turn()}'s turn"
        self._say(f"resumed {GAME_NAMES[record.game]}: {where}")
        self._after_decision()

    def _left_at_game_over(self) -> GameRecord | None:
        """The game the screen still showed when the table stopped, though already kept in the history (as soon
        as it is over): its game-over screen comes back until the players leave it."""
        newest, at = self.log.history(1), self.log.load_screen().get("game")
        return newest[0] if newest and isinstance(at, list) and at[:1] == [newest[0].id] else None

    @staticmethod
    def _apply(game: GameState, held, action: str, args: list):
        """One logged event on (game, held): the rules' actions and the table's own."""
        if action == "hold":
            return game, tuple(args[0])
        if action == "release":
            return game, None
        return game.apply(action, *args), None

    def _decide(self, action: str, *args, keep: tuple[int, ...] = (), lying: tuple[Die, ...] | None = None) -> bool:
        """Check a decision with the rules, log it, then take it. False (and a message) if illegal.
        `keep`: the throw's dice the decision leaves lying in the keep zone; `lying`: the dice as it leaves them."""
        try:
            game, held = self._apply(self.game, self.held, action, list(args))
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
            with self.log.transaction():   # the decision and the screen it leads to: a stop keeps both or neither
                self.log.append(self.record.id, action, list(args))
                if self._is_over:   # into the history at once: a table switched off at the end of the night lists it
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
        elif self._forced_list:
            {"field": self._open_fields, "set-aside": self._open_set_asides}[self._forced_list]()

    # ------------------------------------------------------------------ what the game state allows
    @property
    def _is_over(self) -> bool:
        """The rules say the game is over, and no throw is left waiting for its field."""
        return self.game.is_over and self._throw is None

    @property
    def _throw(self) -> Throw | None:
        """Sheet games: the throw in progress (None between throws, and in Train Wreck, which rolls instead)."""
        return self.game.throw if isinstance(self.game, SheetGame) else None

    @property
    def _forced_list(self) -> str:
        """The list the game state opens by itself, which BACK cannot leave ("" for none): the fields after
        the last attempt, Train Wreck's set-asides."""
        game = self.game
        if isinstance(game, SheetGame):
            return "field" if game.throw and game.throw.attempt >= game.rules.attempts else ""
        return "set-aside" if game.phase in SET_ASIDE_PHASES else ""

    def _may_open(self, what: str) -> bool:
        """Whether the game state allows the list `what` now (a restored screen reopens no other)."""
        return self.mode == "play" and {
            "field": self._throw is not None and self.held is None,  # not once holds wait for the next attempt
            "correct": self._correctable,
            "set-aside": self._forced_list == "set-aside",
            "menu": True,
            "end": not self._is_over,
        }.get(what, False) or what in HOST_LISTS and self.mode in ("play", "choose-game")

    @property
    def _correctable(self) -> bool:
        """Sheet games: the last entry may be corrected until the next throw starts (RULINGS)."""
        return isinstance(self.game, SheetGame) and self.game.last_entry is not None and not self.throw_seen

    @property
    def dice_kind(self) -> str:
        """The dice the current game is played with ("d6" when no game is on)."""
        return DICE_KIND[self.record.game] if self.record else "d6"

    # ------------------------------------------------------------------ inputs
    def notice(self, message: str, level: str = WARN) -> None:
        """Something the player should know that is not about the game (a settings warning, say)."""
        self._say(message, level)

    def camera(self, problem: str) -> None:
        """"" when the camera works, else what is wrong (shown until it works again)."""
        self.camera_note = problem

    def tray(self, state: str) -> None:
        self.tray_note = state

    def reading(self, reading: Reading) -> None:
        """The dice at rest. Only taken when the game waits for dice; never guessed."""
        if self.mode != "play" or self._is_over:
            return  # no game, or a finished game's entry being corrected: no throw is due
        if self.review and _pushed_from(reading, self.review):
            self.pushed = reading  # dice kept pushed before the reading was confirmed: seen once it is
            self._save_screen()
            return
        if self.choosing and self.choosing != self._forced_list:
            if reading.dice and all(_still(d, self.lying) for d in reading.dice):
                return  # the same dice read again (a restart's first look, a hand passing): the list stays
            self._close_list()  # a list the player opened: the dice are being played, so play goes on
        first = self._decision_due
        if first:
            self._say(first, WARN)
            self.lying = reading.dice  # thrown before the decision: only a roll after it counts
        elif problem := self._reading_problem(reading):
            self._say(problem, WARN)
        elif isinstance(self.game, SheetGame):
            self._sheet_reading(reading)
        else:
            self._train_wreck_reading(reading)
        self._save_screen()

    def press(self, press: Press) -> None:
        handlers = {"choose-game": self._press_choose_game, "choose-players": self._press_choose_players,
                    "names": self._press_names,
                    "play": self._press_play, "game-over": self._press_game_over}
        handlers[self.mode](press)
        self._save_screen()

    # ------------------------------------------------------------------ readings
    @property
    def _decision_due(self) -> str:
        """What the player must decide before a reading is taken ("" for nothing)."""
        game = self.game
        if self._forced_list:
            return CHOOSE_FIRST[self._forced_list]
        if isinstance(game, TrainWreckGame) and game.phase in DECIDE_FIRST:
            return DECIDE_FIRST[game.phase].format(v=game.turn.combo_value)
        return ""

    def _reading_problem(self, reading: Reading) -> str:
        kind = DICE_KIND[self.record.game]
        cocked = [d for d in reading.dice if d.cocked]
        outside = [d for d in reading.dice if d.zone == OUTSIDE and not d.cocked]
        other = [d for d in reading.dice if d.kind != kind]
        if cocked:
            return f"{_count(len(cocked), 'die does', 'dice do')} not lie flat: throw {'it' if len(cocked) == 1 else 'them'} again"
        if outside:
            return f"{_count(len(outside), 'die is', 'dice are')} outside the tray: throw {'it' if len(outside) == 1 else 'them'} again"
        if other:
            return f"{GAME_NAMES[self.record.game]} is played with {kind}s, and I see {_count(len(other), other[0].kind, other[0].kind + 's')}"
        return ""

    def _sheet_reading(self, reading: Reading) -> None:
        game: SheetGame = self.game
        n = game.rules.dice
        keep = [d for d in reading.dice if d.zone == KEEP]
        rolled = [d for d in reading.dice if d.zone == ROLL]
        if game.throw is None:
            if keep:
                self._say(f"a throw starts with all {n} dice: take the {_count(len(keep), 'die', 'dice')} out of the keep zone", WARN)
            elif len(rolled) != n:
                self._say(f"{n} dice expected, I see {len(rolled)}", WARN)
            elif not self._only_moved(reading, f"throw all {n} dice"):
                self.throw_seen = True  # the dice left the tray: the last entry is final
                self._start_review(Review.of("start_throw", rolled))
            return
        dice = game.throw.dice
        kept = _match(dice, [d.value for d in keep])
        if kept is None:
            self._say(f"the keep zone shows {_values(keep)}, which this throw ({_values(dice)}) does not hold", WARN)
            return
        if self.held is not None and sorted(kept) != sorted(self.held):  # holds confirmed: the next attempt
            want = _values(dice[i] for i in self.held) or "nothing"
            self._say(f"the keep zone should hold {want}, it holds {_values(keep) or 'nothing'}", WARN)
            return
        if len(keep) + len(rolled) != n:
            self._say(f"{n} dice expected, I see {len(keep) + len(rolled)}", WARN)
            return
        if not rolled:
            self._say("all dice are in the keep zone: choose a field (OK or NEXT) or throw some again", INFO)
            self.keep_view = tuple(kept)
            return
        if self.held is None:  # before the holds are confirmed the keep zone shows what OK would hold
            self.keep_view = tuple(kept)
            if self._only_moved(reading):  # dice pushed into the keep zone, the others untouched
                return
        elif self._only_moved(reading, f"throw the {_count(len(rolled), 'other die', 'other dice')}"):
            return
        self._start_review(Review.of("rethrow", rolled, held=tuple(kept), kept=keep))

    def _train_wreck_reading(self, reading: Reading) -> None:
        game: TrainWreckGame = self.game
        if game.expected_dice == 0:
            return
        rolled = [d for d in reading.dice if d.zone == ROLL]
        roll_off = game.phase == Phase.ROLL_OFF
        expected = 1 if roll_off else game.expected_dice  # the roll-off: one player at a time
        if len(rolled) != expected:
            self._say(f"{_count(expected, 'die', 'dice')} expected in the rolling area, I see {len(rolled)}", WARN)
            return
        if not self._only_moved(reading, f"roll {_count(expected, 'die', 'dice')}"):
            self._start_review(Review.of("roll_off" if roll_off else "roll", rolled))

    def _only_moved(self, reading: Reading, then: str = "") -> bool:
        """Whether the dice were not thrown: a throw throws every die in the rolling area, so most of them still
        lying where the last taken reading had a die of their value means the dice were pushed, nudged or read
        again (most, not all: pushing some dice may knock another; not any: a thrown die may land where one
        of its value lay). Nothing is scored (and `then`, what to do, is said)."""
        rolled = [d for d in reading.dice if d.zone == ROLL]
        if 2 * sum(_still(d, self.lying) for d in rolled) <= len(rolled):
            return False
        self.lying = reading.dice
        if then:
            self._say(f"the dice only moved, they were not thrown: {then}", INFO)
        return True

    def _start_review(self, review: Review) -> None:
        old = self.review
        if old and (old.action, sorted(d.value for d in old.dice), old.held) == \
                (review.action, sorted(d.value for d in review.dice), review.held):
            # the same dice read again (a nudge, a restart): keep the player's edits, but where they lie now
            old.dice, old.kept = _follow(old.dice, review.dice), review.kept
            return
        self.review, self.pushed = review, None
        self._say("check the reading: OK confirms" if not review.unconfirmed
                  else "the highlighted die is hard to read: fix it with a long PREV/NEXT, then OK", WARN if review.unconfirmed else INFO)

    def _commit_review(self) -> None:
        review = self.review
        seen = _as_confirmed(review)  # where the dice lie once this reading is taken
        if self.on_confirm:
            game = self.game
            attempt = None if not isinstance(game, SheetGame) else 1 if game.throw is None else game.throw.attempt + 1
            self.on_confirm(list(review.kept) + review.dice, [d.value for d in review.kept] + review.values, attempt)
        if review.action == "roll_off":
            self._say(f"{self._whose_turn()} rolled {review.values[0]}")   # not "check the reading" any more
            self.roll_off.append(review.values[0])
            self.review, self.lying, self.pushed = None, seen, None
            if len(self.roll_off) == len(self.game.contenders):
                values, self.roll_off = self.roll_off, []
                self._decide("roll_off", values)
            return
        if review.action == "rethrow":
            thrown = [i for i in range(len(self.game.throw.dice)) if i not in review.held]
            taken = self._decide("rethrow", thrown, review.values, keep=review.held, lying=seen)
        else:
            taken = self._decide(review.action, review.values, lying=seen)
        if taken:
            pushed, self.pushed = self.pushed, None
            if pushed:   # the dice pushed meanwhile, with the values the player confirmed
                pushed = _as_confirmed_in(pushed, review)
                if self._decision_due:  # a list to choose from first: the push only moved the dice
                    self.lying = pushed.dice
                else:  # the keepers: as if read now (only moved, so they are kept)
                    self.reading(pushed)

    # ------------------------------------------------------------------ buttons
    def _press_choose_game(self, press: Press) -> None:
        if press.button in (PREV, NEXT):
            self.chooser.move(_step(press))
        elif press.button == OK and callable(self.chooser.chosen.key):   # the host's items below the games
            self.chooser.chosen.key()
        elif press.button == OK:
            self.setup_game = self.chooser.chosen.key
            self.mode = "choose-players"
        elif press.button == BACK and self.choosing:
            self._open_game_chooser()

    def _press_choose_players(self, press: Press) -> None:
        if press.button in (PREV, NEXT) and press.long:
            if self.setup_game not in ROLL_OFF_GAMES:
                self.order_shift += _step(press)  # who starts
        elif press.button in (PREV, NEXT):
            self.count = min(MAX_PLAYERS, max(1, self.count + _step(press)))
        elif press.button == OK and press.long:   # type the players' names
            self.entry, self.mode = NameEntry.of((self.names + self._spare_names())[:self.count]), "names"
        elif press.button == OK:
            self._start_game()
        elif press.button == BACK:
            self._open_game_chooser()

    def _press_names(self, press: Press) -> None:
        now = self.entry.press(press)
        if now != "typing":   # the names done so far stay, the others as they were
            self.names = self.entry.names + self.names[len(self.entry.names):]
            self.entry, self.mode = None, "choose-players"
            self._say("names kept for the next nights too" if now == "done" else "")

    def _press_game_over(self, press: Press) -> None:
        if press.button == OK:
            if self._finish(self.record.id, self._result()):   # again: in case it could not be written before
                self.record, self.game = None, None
                self._open_game_chooser()
                self._say("game saved in the history")
        elif press.button == BACK and press.long and self._correctable:
            self.mode = "play"
            self._open_corrections()

    def _press_play(self, press: Press) -> None:
        if press.button == BACK and press.long and self.choosing != "menu":
            self._open_menu()
        elif self.choosing:
            self._press_chooser(press)
        elif self.review is not None:
            self._press_review(press)
        elif isinstance(self.game, SheetGame):
            self._press_sheet(press)
        else:
            self._press_train_wreck(press)

    def _press_review(self, press: Press) -> None:
        review = self.review
        i = review.cursor
        if press.button in (PREV, NEXT) and press.long:  # change the value under the cursor
            faces = DICE_FACES[self.record.game]
            review.values[i] = (review.values[i] - 1 + _step(press)) % faces + 1
            review.confirmed[i] = True
        elif press.button in (PREV, NEXT):
            review.cursor = (i + _step(press)) % len(review.dice)
        elif press.button == OK:
            if not review.confirmed[i]:  # this OK confirms the unsure die; the next one the reading
                review.confirmed[i] = True
                review.cursor = (review.unconfirmed or [i])[0]
                self._say("confirm the highlighted die too" if review.unconfirmed else "OK confirms the reading")
            elif review.unconfirmed:
                review.cursor = review.unconfirmed[0]
                self._say("confirm the highlighted die first", WARN)
            else:
                self._commit_review()
        elif press.button == BACK:  # not a throw: those dice lying there again are not one either
            self.review, self.lying, self.pushed = None, _as_confirmed(review), None
            self._say("reading dropped: throw the dice again")

    def _press_sheet(self, press: Press) -> None:
        game: SheetGame = self.game
        if press.long and press.button in (PREV, NEXT):  # look at the other players' sheets
            self.viewing += _step(press)
            return
        if game.throw is None:
            if press.button == BACK and self._correctable:
                self._open_corrections()
            return
        if self.held is not None:
            if press.button == BACK:
                self._decide("release", keep=self.held)
            return
        if press.button == OK and len(self.keep_view) < game.rules.dice:
            self._decide("hold", list(self.keep_view))
        elif press.button in (OK, NEXT, PREV):  # with all dice kept, all stand: OK too goes to the fields
            self._open_fields()

    def _press_train_wreck(self, press: Press) -> None:
        game: TrainWreckGame = self.game
        actions = {
            Phase.ROLL: {(OK, True): "bank"},
            Phase.QUADRUPLE_CHOICE: {(OK, False): "accept", (NEXT, False): "reroll"},
            Phase.TRAIN_WRECK: {(OK, False): "start_salvage", (BACK, False): "decline_salvage"},
        }.get(game.phase, {})
        action = actions.get((press.button, press.long))
        if action:
            self._decide(action)
        elif (press.button, press.long) == (NEXT, True) and self.advice == "ask":
            self.asked = advice_view.advisable(game)

    def _press_chooser(self, press: Press) -> None:
        chooser = self.chooser
        if (press.button, press.long) == (NEXT, True) and self.advice == "ask" and self.choosing in ("field", "set-aside"):
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

    # ------------------------------------------------------------------ choosers
    def _open_game_chooser(self) -> None:
        self.mode, self.choosing = "choose-game", ""
        choices = [ChoiceView(GAME_NAMES[g], key=g) for g in GAME_IDS] + self._host_items() + [
            ChoiceView("game settings", key=self._open_game_settings)]   # between games: a game keeps its own
        self.chooser = Chooser(choices, GAME_IDS.index(self.setup_game))

    def _host_items(self) -> list[ChoiceView]:
        return [ChoiceView("tonight's games", key=self._open_night),
                ChoiceView("shut down the table", key=self._open_shutdown)]

    def _open_night(self) -> None:
        games = night_games(self.log) or ["no game finished tonight yet"]
        self.chooser, self.choosing = Chooser([ChoiceView(g, key=self._leave_host_list) for g in games]), "night"
        self._say("")

    def _open_shutdown(self) -> None:
        """Shutting down ends the night: one more OK."""
        self.chooser, self.choosing = Chooser([ChoiceView("shut down now", key=self._shut_down)]), "shutdown"
        self._say("the games are kept; an unfinished one comes back when the table is switched on again")

    def _open_game_settings(self, cursor: int = 0) -> None:
        items = [ChoiceView(label, key=lambda which=which: self._turn_setting(*which))
                 for label, which in host_settings.labels(self.variants)]
        self.chooser, self.choosing = Chooser(items, cursor), "game-settings"

    def _turn_setting(self, game: str, key: str) -> None:
        host_settings.turned(self.variants, game, key)
        self._open_game_settings(self.chooser.cursor)
        self._say("the games started from now on are played so; kept for the next nights too")

    def _leave_host_list(self) -> None:
        (self._open_game_chooser if self.mode == "choose-game" else self._close_list)()

    def _shut_down(self) -> None:
        problem = self.power_off() if self.power_off else "this table cannot shut the computer down (it is not " \
                                                           "the installed service): switch it off as usual"
        self._leave_host_list()
        self._say(problem or "shutting down: switch off once the screen is dark", ERROR if problem else INFO)

    def _chosen_players(self) -> list[str]:
        """The players chosen on the players screen, the one who starts first."""
        names = (self.names + self._spare_names())[:self.count]   # each its own: the games tell players apart by name
        shift = 0 if self.setup_game in ROLL_OFF_GAMES else self.order_shift % len(names)
        return names[shift:] + names[:shift]

    def _spare_names(self) -> list[str]:
        numbers = range(len(self.names) + 1, 2 * MAX_PLAYERS + 1)  # enough even if every name is a "Player n"
        return [f"Player {i}" for i in numbers if f"Player {i}" not in self.names]

    def _start_game(self) -> None:
        self.start(self.setup_game, self._chosen_players())

    def start(self, game_id: str, names: Sequence[str]) -> None:
        """A new game with these players in this order (the menus end here; so do replays)."""
        try:
            game = new_game(game_id, names, self.variants[game_id])
        except (RuleError, VariantError) as error:
            self._say(str(error), ERROR)
            return
        before = dict(vars(self))
        try:
            with self.log.transaction():   # the game and the screen it starts with: a stop keeps both or neither
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
        self._open_sheet_chooser("field", self.game.options())

    def _open_corrections(self) -> None:
        self._open_sheet_chooser("correct", self.game.correction_options())
        last = self.game.last_entry
        self._say(f"correct {self.game.players[last.player]}'s entry: choose the field it should go to")

    def _open_sheet_chooser(self, what: str, options) -> None:
        rules = self.game.rules
        def label(o) -> str:  # "M 21 triplet": the column's initial (left, middle, right) first, when there are three
            column = rules.column_label(o.column)[0].upper() + " " if len(rules.columns) > 1 else ""
            return f"{column}{o.field} {rules.field(o.field).name}"

        choices = [ChoiceView(label(o), "", o.score.total, (o.column, o.field)) for o in options]
        self.chooser, self.choosing = Chooser(choices), what

    def _open_set_asides(self) -> None:
        choices = [ChoiceView(_values(o.dice), o.combo, o.points, o.dice) for o in self.game.options]
        self.chooser, self.choosing = Chooser(choices), "set-aside"

    def _open_menu(self) -> None:
        items = [ChoiceView("continue the game", key=self._close_list)]
        if self._correctable:
            items.append(ChoiceView("correct the last entry", key=self._open_corrections))
        if self.advice == "ask" and advice_view.advisable(self.game):
            items.append(ChoiceView("advice for this moment", key=self._ask_advice))
        items += self._host_items()
        if self._may_open("end"):  # a finished game is kept with its result (game over, OK), never as abandoned
            items.append(ChoiceView("end this game (it stays in the log)", key=self._open_end))
        if self.learnt is not None:
            learnt = self.learnt.count()
            items.append(ChoiceView(f"forget the {_count(learnt, 'die', 'dice')} the table has learnt", key=self._forget_dice)
                         if learnt else ChoiceView("no dice learnt yet: each confirmed throw teaches the table", key=self._close_list))
        self.chooser, self.choosing = Chooser(items), "menu"
        self._say("")  # what the list it was opened from asked ("correct Ann's entry: ...") no longer stands

    def _ask_advice(self) -> None:
        self.asked = True
        self._close_list()

    def _advice(self, current=None) -> dict:
        """The advice to show now, if the setting and the player ask for it (see advice_view)."""
        if self.advice == "show" or self.asked and self.advice == "ask":
            return advice_view.advice_extra(self.game, self.keep_view, current)
        return {}

    def _game_review(self) -> dict:
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
        self.chooser, self.choosing = Chooser([ChoiceView("end this game", key=self._abandon)]), "end"
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

    # ------------------------------------------------------------------ surviving a restart
    @property
    def _at(self) -> list[int] | None:
        """The game and how many of its events the log holds (None between games): a saved screen's state."""
        return [self.record.id, self.logged] if self.record else None

    def _screen_state(self) -> dict:
        review = self.review
        return {
            "game": self._at, "mode": self.mode,
            "setup": [self.setup_game, self.count, self.order_shift],
            "keep_view": list(self.keep_view), "roll_off": list(self.roll_off),
            "lying": [_die_row(d) for d in self.lying], "throw_seen": self.throw_seen,
            "choosing": self.choosing, "cursor": self.chooser.cursor if self.chooser else 0,
            "review": None if review is None else {   # copies: the review's lists change in place
                "action": review.action, "held": list(review.held), "cursor": review.cursor,
                "values": list(review.values), "confirmed": list(review.confirmed),
                "dice": [_die_row(d) for d in review.dice], "kept": [_die_row(d) for d in review.kept]},
            "pushed": None if self.pushed is None else {
                "dice": [_die_row(d) for d in self.pushed.dice], "size": [self.pushed.width, self.pushed.height]},
            "viewing": self.viewing, "asked": self.asked,
            "message": [self.message, self.level],
            "names": {"settings": self.settings_names, "entered": self.names},
            "entry": asdict(self.entry) if self.entry else None,   # copies: the names change in place
            "host_settings": {"settings": self.settings_variants, "chosen": host_settings.chosen(self.variants)},
        }

    def _save_screen(self) -> None:
        """The screen state written when it changed. Inside a decision's transaction a failed write fails the
        decision; alone it only loses the screen in a restart, not the game (the next save retries)."""
        state = self._screen_state()
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
        if not state or state.get("game") != self._at \
                or state.get("mode") != self.mode and not (self.mode == "choose-game" and state.get("mode") in ("choose-players", "names")):
            return
        resumed = dict(vars(self))
        try:
            self._restore(state)
        except (KeyError, TypeError, ValueError, IndexError):  # not a row this version wrote
            vars(self).update(resumed)

    def _restore(self, state: dict) -> None:
        self.mode = state["mode"]
        self.setup_game, self.count, self.order_shift = state["setup"]
        self.keep_view, self.roll_off = tuple(state["keep_view"]), list(state["roll_off"])
        self.lying = tuple(_die_of(row) for row in state.get("lying", []))  # rows of older versions have none
        self.throw_seen = bool(state.get("throw_seen", False))
        self.viewing = int(state.get("viewing", 0))   # rows of older versions have neither this nor "pushed"
        self.asked = bool(state.get("asked", False))   # nor the advice asked for
        review = state["review"]
        if review:
            dice = [_die_of(row) for row in review["dice"]]
            kept = tuple(_die_of(row) for row in review.get("kept", []))  # rows of older versions have none
            self.review = Review(review["action"], dice, list(review["values"]), list(review["confirmed"]),
                                 tuple(review["held"]), review["cursor"], kept)
            if pushed := state.get("pushed"):
                self.pushed = Reading(tuple(_die_of(row) for row in pushed["dice"]), *pushed["size"])
        opener = {"field": self._open_fields, "correct": self._open_corrections, "set-aside": self._open_set_asides,
                  "menu": self._open_menu, "end": self._open_end, "night": self._open_night,
                  "shutdown": self._open_shutdown, "game-settings": self._open_game_settings}.get(state["choosing"])
        if opener and self._may_open(state["choosing"]):
            opener()
        if self.chooser:
            self.chooser.cursor = min(state["cursor"], len(self.chooser.choices) - 1)
        if state["mode"] == "names":
            self.entry = NameEntry(**state["entry"])
        self.message, self.level = state["message"]
        self._saved = state

    # ------------------------------------------------------------------ the screen
    def _say(self, message: str, level: str = INFO) -> None:
        self.message, self.level = message, level

    def _whose_turn(self) -> str:
        return self.game.players[self._acting()]

    def _acting(self) -> int:
        """Who is to act: in Train Wreck's roll-off the one to roll for the start."""
        game = self.game
        if isinstance(game, TrainWreckGame) and game.phase == Phase.ROLL_OFF:
            return game.contenders[len(self.roll_off)]
        return game.current

    def screen(self) -> Screen:
        base = dict(message=self.message, level=self.level, camera=self.camera_note, tray=self.tray_note)
        if self.mode == "choose-game" and self.choosing:
            return Screen("choose-game", HOST_LISTS[self.choosing], HOST_PROMPTS[self.choosing],
                          choices=tuple(self.chooser.choices), cursor=self.chooser.cursor,
                          hints=(Hint("PREV/NEXT", "up/down"), Hint("OK", "choose"), Hint("BACK", "back")), **base)
        if self.mode == "choose-game":
            return Screen("choose-game", "Choose a game", "PREV/NEXT to choose, OK to start",
                          choices=tuple(self.chooser.choices), cursor=self.chooser.cursor,
                          hints=(Hint("PREV/NEXT", "game"), Hint("OK", "choose")), **base)
        if self.mode == "names":
            return self.entry.screen(**base)
        if self.mode == "choose-players":
            names = self._chosen_players()
            roll_off = self.setup_game in ROLL_OFF_GAMES
            starts = ("a roll-off decides who starts" if self.count > 1 else "") if roll_off else f"{names[0]} starts"
            order = () if roll_off else (Hint("hold PREV/NEXT", "who starts"),)
            return Screen("choose-players", f"{GAME_NAMES[self.setup_game]}: players",
                          f"{self.count} player{'s' if self.count > 1 else ''}" + (f", {starts}" if starts else ""),
                          choices=tuple(ChoiceView(n) for n in names),
                          hints=(Hint("PREV/NEXT", "fewer/more"),) + order + (Hint("OK", "start"), Hint("hold OK", "names"),
                                                                             Hint("BACK", "games")),
                          **base)
        game_base = dict(base, game_id=self.record.game)
        if self.mode == "game-over":
            hints = (Hint("OK", "new game"),) + ((Hint("hold BACK", "correct the last entry"),) if self._correctable else ())
            ranking = self.game.ranking
            return Screen("game-over", "Game over", winners_sentence(first_placed(ranking)), ranking=ranking,
                          hints=hints, **game_views(self.game, **self._game_review()), **game_base)
        return self._play_screen(game_base)

    def _play_screen(self, base: dict) -> Screen:
        title = f"{GAME_NAMES[self.record.game]}: {self._whose_turn()}"
        extra = {"sheet_player": self._sheet_shown()} if isinstance(self.game, SheetGame) else {"acting": self._acting()}
        if self.choosing:
            prompts = {"field": "choose the field", "correct": "move the last entry to", "menu": "menu",
                       "set-aside": "set aside", "end": "end this game? OK ends it, BACK keeps playing", **HOST_PROMPTS}
            highlight = (self.chooser.chosen.key,) if self.choosing in ("field", "correct") else ()
            back = () if self.choosing == self._forced_list else (Hint("BACK", "back"),)
            hints = {"end": (Hint("OK", "end the game"), Hint("BACK", "keep playing"))}.get(
                self.choosing, (Hint("PREV/NEXT", "up/down"), Hint("OK", "choose")) + back)
            if self.choosing in ("field", "set-aside"):
                extra.update(self._advice(current=self.chooser.chosen.key))
                hints += (Hint("hold NEXT", "advice"),) if self.advice == "ask" else ()
            return Screen("play", title, prompts[self.choosing], choices=tuple(self.chooser.choices),
                          cursor=self.chooser.cursor, dice=self._dice_views(), hints=hints,
                          **game_views(self.game, self.chooser.choices, highlight, self.choosing, **extra), **base)
        if self.review is not None:
            return Screen("play", title, "check the dice", dice=self._review_views(),
                          hints=(Hint("PREV/NEXT", "select a die"), Hint("hold PREV/NEXT", "change its value"),
                                 Hint("OK", "confirm"), Hint("BACK", "drop")),
                          **game_views(self.game, **extra, checked=tuple(CheckedDie(tuple(d.box), v, ok) for d, v, ok in
                                       zip(self.review.dice, self.review.values, self.review.confirmed))), **base)
        prompt, hints = self._sheet_prompt() if isinstance(self.game, SheetGame) else self._train_wreck_prompt()
        highlight = ()
        if self._throw:
            extra.update(self._best_now())
        elif self._correctable and extra["sheet_player"] == self.game.last_entry.player:   # the entry just made
            last = self.game.last_entry
            highlight = ((last.column, last.field),)
        extra.update(self._advice())
        return Screen("play", title, prompt, dice=self._dice_views(), hints=hints + (Hint("hold BACK", "menu"),),
                      **game_views(self.game, highlight=highlight, **extra), **base)

    def _sheet_shown(self) -> int:
        """Sheet games: whose sheet is shown: the last entry's player's in a correction, else the one looked at."""
        game = self.game
        if self.choosing == "correct" or self._correctable and game.throw is None and self.viewing == 0:
            return game.last_entry.player   # the entry just made stays in view until the next throw starts
        return (game.current + self.viewing) % len(game.players)

    def _best_now(self) -> dict:
        """Sheet games: the best field for the throw, to mark on the sheet and name under the dice."""
        rules, best = self.game.rules, self.game.options()[0]
        return {"focus": (best.column, best.field),
                "best": f"best now: {best.field} {rules.field(best.field).name} "
                        f"{_column_name(rules, best.column)} {best.score.total}".replace("  ", " ")}

    def _sheet_prompt(self) -> tuple[str, tuple[Hint, ...]]:
        game: SheetGame = self.game
        throw = game.throw
        others = (Hint("hold PREV/NEXT", "other sheets"),) if len(game.players) > 1 and len(game.rules.columns) > 1 else ()
        if throw is None:
            hints = (Hint("BACK", "correct the last entry"),) if self._correctable else ()
            return f"throw all {game.rules.dice} dice", hints + others
        if self.held is not None:
            kept = len(self.held)
            return (f"attempt {throw.attempt + 1}: throw the {game.rules.dice - kept} other dice",
                    (Hint("BACK", "change the holds"),))
        if len(self.keep_view) == game.rules.dice:  # the rulebooks let all dice stand
            return "all dice kept: choose the field", (Hint("OK/NEXT", "choose a field"),) + others
        return (f"attempt {throw.attempt} of {game.rules.attempts}: push the dice you keep into the keep zone",
                (Hint("OK", "hold and throw again"), Hint("NEXT", "choose a field")) + others)

    def _train_wreck_prompt(self) -> tuple[str, tuple[Hint, ...]]:
        game: TrainWreckGame = self.game
        hints = {
            Phase.ROLL: (Hint("hold OK", f"bank {game.turn.points}" + ("" if game.bank_counts else ", scores 0")),)
            if game.can_bank else (),
            Phase.QUADRUPLE_CHOICE: (Hint("OK", "accept"), Hint("NEXT", "roll them again")),
            Phase.TRAIN_WRECK: (Hint("OK", "try the salvage"), Hint("BACK", "end the turn")),
        }.get(game.phase, ())
        if game.phase == Phase.ROLL_OFF:
            return f"to choose who starts: {self._whose_turn()}, roll one die", hints
        reason = f" ({game.must_roll_reason})" if game.must_roll_reason else ""
        return game.prompt + reason, hints

    def _dice_views(self) -> tuple[DieView, ...]:
        """The dice on the table: a sheet game's throw (those held or in the keep zone marked), Train Wreck's dice."""
        game, throw = self.game, self._throw
        if throw:
            held = self.held if self.held is not None else self.keep_view
            return tuple(DieView(v, held=i in held, fresh=f) for i, (v, f) in enumerate(zip(throw.dice, throw.fresh)))
        if isinstance(game, TrainWreckGame):
            loose = getattr(game.turn, LOOSE_DICE[game.phase]) if game.phase in LOOSE_DICE else ()
            return tuple(DieView(v) for v in loose) + tuple(DieView(v, held=True) for v in game.turn.held)
        return ()

    def _review_views(self) -> tuple[DieView, ...]:
        review = self.review
        held = ()
        if review.action == "rethrow":
            held = tuple(DieView(self.game.throw.dice[i], held=True, fresh=False) for i in review.held)
        return held + tuple(DieView(v, uncertain=d.uncertain, confirmed=ok, selected=i == review.cursor)
                            for i, (d, v, ok) in enumerate(zip(review.dice, review.values, review.confirmed)))


# ---------------------------------------------------------------------- helpers
def _match(dice: Sequence[int], values: Sequence[int]) -> list[int] | None:
    """Indices of `dice` showing `values` (each die once), or None if the throw does not hold them."""
    free = list(range(len(dice)))
    chosen = []
    for value in values:
        i = next((i for i in free if dice[i] == value), None)
        if i is None:
            return None
        free.remove(i)
        chosen.append(i)
    return chosen


def _pushed_from(reading: Reading, review: Review) -> bool:
    """Whether `reading` shows the review's dice with more of them pushed into the keep zone (the player
    keeping dice before confirming the reading): the values read before (the camera sees a misread die as it
    did, whatever the player corrected), fewer in the rolling area; none knocked onto an edge."""
    keep = [d for d in reading.dice if d.zone == KEEP]
    return len(keep) > len(review.kept) and not any(d.cocked for d in reading.dice) and \
        sorted(d.value for d in reading.dice) == sorted(d.value for d in (*review.kept, *review.dice))


def _as_confirmed_in(pushed: Reading, review: Review) -> Reading:
    """The dice pushed while `review` was checked, each with the value the player confirmed for it."""
    shown = _follow((*review.kept, *review.dice), pushed.dice)
    return replace(pushed, dice=tuple(replace(d, value=c.value) for d, c in zip(shown, _as_confirmed(review))))


def _still(die: Die, before: Sequence[Die]) -> bool:
    """Whether `die` lies where one of `before` lay, showing the same value."""
    return any(b.value == die.value and _near(die, b) for b in before)


def _near(die: Die, before: Die) -> bool:
    x0, y0, x1, y1 = before.box
    return _distance(die, before) <= STILL * max(x1 - x0, y1 - y0)


def _distance(die: Die, other: Die) -> float:
    (x, y), (ox, oy) = die.centre, other.centre
    return ((x - ox) ** 2 + (y - oy) ** 2) ** 0.5


def _follow(before: Sequence[Die], after: Sequence[Die]) -> list[Die]:
    """`after` in the order of `before`: for each die the one still lying where it lay, else the nearest one
    showing its value (each once: first the dice that stayed, so that a die pushed away from its place does
    not take the place of a look-alike that stayed)."""
    free, followed = list(after), [None] * len(before)

    def take(i: int, candidates: list[Die]) -> None:
        if candidates:
            followed[i] = min(candidates, key=lambda d: _distance(d, before[i]))
            free.remove(followed[i])

    for i, die in enumerate(before):
        take(i, [d for d in free if d.value == die.value and _near(d, die)])
    for i, die in enumerate(before):
        if followed[i] is None:
            take(i, [d for d in free if d.value == die.value])
    return followed


def _as_confirmed(review: Review) -> tuple[Die, ...]:
    """The review's dice as the player confirmed them (a misread die with its corrected value)."""
    return tuple(review.kept) + tuple(replace(d, value=v) for d, v in zip(review.dice, review.values))


def _die_row(die: Die) -> list:
    return [die.kind, die.value, list(die.box), die.zone, die.confidence, die.cocked]


def _die_of(row: Sequence) -> Die:
    kind, value, box, zone, confidence, cocked = row
    return Die(kind, value, tuple(box), zone, confidence, cocked)


def _values(dice) -> str:
    return " ".join(str(d.value if isinstance(d, Die) else d) for d in dice)


def _step(press: Press) -> int:
    """Which way PREV or NEXT moves a cursor, a count or a die's value."""
    return 1 if press.button == NEXT else -1


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _column_name(rules, column: int) -> str:
    label = rules.column_label(column)
    return "" if label == "sheet" else f"({label})"
