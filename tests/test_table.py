"""The table: readings and presses in, decisions logged before they show, a game resumed from its log."""
import sqlite3

import pytest

from appliance.event_log import EventLog
from appliance.games.train_wreck import Phase
from appliance.table import Table
from hardware.buttons import Press
from vision.types import KEEP, OUTSIDE, ROLL, Die, Reading

OK, NEXT, PREV, BACK = Press("OK"), Press("NEXT"), Press("PREV"), Press("BACK")
HOLD_OK, HOLD_NEXT, HOLD_PREV, HOLD_BACK = (Press(b, long=True) for b in ("OK", "NEXT", "PREV", "BACK"))


def dice(values, zone=ROLL, kind="d6", start=0, confidence=0.99):
    return [Die(kind, v, (start + 60 * i, 100, start + 60 * i + 40, 140), zone, confidence) for i, v in enumerate(values)]


def reading(roll=(), keep=(), kind="d6", extra=()):
    return Reading(tuple(dice(roll, ROLL, kind) + dice(keep, KEEP, kind, start=1000) + list(extra)), 1280, 960)


@pytest.fixture
def log(tmp_path):
    log = EventLog(tmp_path / "games.sqlite")
    yield log
    log.close()


def start(log, game, players=1, **kw):
    table = Table(log, players=["Ann", "Bob", "Cy", "Di"], default_game=game, **kw)
    assert table.mode == "choose-game" and table.chooser.chosen.key == game
    table.press(OK)
    for _ in range(players - 4 if players > 4 else 0):
        table.press(NEXT)
    for _ in range(4 - players if players < 4 else 0):
        table.press(PREV)
    table.press(OK)
    assert table.mode == "play"
    return table


def throw(table, values, keep=()):
    table.reading(reading(values, keep))
    assert table.review is not None, table.message
    table.press(OK)


def test_a_dice_poker_throw_with_holds_over_three_attempts(log):
    table = start(log, "dice-poker")
    throw(table, (6, 6, 2, 3, 1))
    assert table.game.throw.attempt == 1
    table.reading(reading((2, 3, 1), keep=(6, 6)))  # the 6s pushed into the keep zone
    assert [d.held for d in table.screen().dice] == [True, True, False, False, False]
    table.press(OK)  # holds confirmed
    throw(table, (6, 4, 4), keep=(6, 6))
    assert table.game.throw.dice == (6, 6, 6, 4, 4) and table.game.throw.attempt == 2
    table.reading(reading((4, 4), keep=(6, 6, 6)))
    table.press(OK)
    throw(table, (6, 6), keep=(6, 6, 6))
    # after the third attempt the field list opens by itself, best first: five of a kind 50
    assert table.choosing == "field"
    assert table.chooser.chosen.label.startswith("12 5 of a kind") and table.chooser.chosen.points == 50
    table.press(OK)
    assert table.game.sheets[0].entries[(0, 12)].total == 50


def test_every_decision_is_in_the_log_before_it_shows(log):
    table = start(log, "pentakubus", players=2)
    throw(table, (1, 2, 3, 4, 5))
    assert log.events(table.record.id) == [("start_throw", [[1, 2, 3, 4, 5]])]
    table.press(NEXT)  # the field list
    table.press(OK)
    assert log.events(table.record.id)[-1][0] == "enter"
    db = sqlite3.connect(log.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert log.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_restart_comes_back_to_the_same_game_player_attempt_and_dice(log, tmp_path):
    table = start(log, "pentakubus", players=2)
    throw(table, (1, 2, 3, 4, 5))
    table.press(NEXT)
    table.press(OK)  # Ann enters; Bob's turn
    throw(table, (6, 6, 1, 2, 3))
    table.reading(reading((1, 2, 3), keep=(6, 6)))
    table.press(OK)  # Bob holds the 6s
    before = (table.game, table.held)
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann", "Bob"])
    assert again.mode == "play" and (again.game, again.held) == before
    assert again.game.players[again.game.current] == "Bob" and again.game.throw.attempt == 1
    throw(again, (6, 5, 5), keep=(6, 6))
    assert again.game.throw.dice[:2] == (6, 6) and again.game.throw.thrown_in == (1, 1, 2, 2, 2)


def test_a_misread_die_is_changed_before_confirming(log):
    table = start(log, "dice-poker")
    table.reading(reading((1, 2, 3, 4, 4)))
    table.press(NEXT)  # the cursor to the second die
    table.press(HOLD_NEXT)  # 2 -> 3
    table.press(HOLD_NEXT)  # 3 -> 4
    table.press(OK)
    assert table.game.throw.dice == (1, 4, 3, 4, 4)


def test_a_low_confidence_die_must_be_confirmed(log):
    table = start(log, "dice-poker")
    unsure = Die("d6", 5, (900, 100, 940, 140), ROLL, 0.4)
    table.reading(reading((1, 2, 3, 4), extra=[unsure]))
    screen = table.screen()
    assert [d.uncertain for d in screen.dice] == [False] * 4 + [True] and screen.dice[4].selected
    table.press(OK)  # confirms the unsure die only
    assert table.game.throw is None and table.review.unconfirmed == []
    table.press(OK)
    assert table.game.throw.dice == (1, 2, 3, 4, 5)


@pytest.mark.parametrize("extra, says", [
    (Die("d6", None, (900, 0, 940, 40), ROLL, 0.0, cocked=True), "not lie flat"),
    (Die("d6", 3, (900, 0, 940, 40), OUTSIDE, 0.9), "outside the tray"),
])
def test_a_cocked_die_or_a_die_outside_asks_for_a_rethrow(log, extra, says):
    table = start(log, "dice-poker")
    table.reading(reading((1, 2, 3, 4), extra=[extra]))
    assert table.review is None and says in table.message and "again" in table.message


def test_a_wrong_number_of_dice_is_shown_not_guessed(log):
    table = start(log, "dice-poker")
    table.reading(reading((1, 2, 3, 4)))
    assert table.review is None and table.message == "5 dice expected, I see 4"
    table.reading(reading((1, 2, 3, 4, 5, 6)))
    assert table.message == "5 dice expected, I see 6"


@pytest.mark.parametrize("game, kind, values, says", [
    ("hexakubus", "d6", (1, 2, 3, 4, 5, 6), "Hexakubus is played with d10s, and I see 6 d6s"),
    ("dice-poker", "d10", (7, 8, 9, 10, 1), "Dice Poker is played with d6s, and I see 5 d10s")])
def test_the_wrong_kind_of_die_is_reported(log, game, kind, values, says):
    table = start(log, game)
    table.reading(reading(values, kind=kind))
    assert table.review is None and says in table.message


def test_the_keep_zone_must_hold_the_confirmed_dice(log):
    table = start(log, "dice-poker")
    throw(table, (6, 6, 2, 3, 1))
    table.reading(reading((2, 3, 1), keep=(6, 6)))
    table.press(OK)
    table.reading(reading((2, 3, 1), keep=(6, 5)))
    assert table.review is None and "keep zone shows 6 5" in table.message


def test_correction_until_the_next_throw(log):
    table = start(log, "pentakubus", players=2)
    throw(table, (6, 6, 6, 6, 1))
    table.press(NEXT)
    table.press(NEXT)  # not the best field: a slip
    slip = table.chooser.chosen.key
    table.press(OK)
    table.press(BACK)  # correct Ann's entry while Bob's dice are still in the cup
    assert table.choosing == "correct"
    best = table.chooser.choices[0].key
    table.press(OK)
    assert best in table.game.sheets[0].entries and slip not in table.game.sheets[0].entries
    throw(table, (1, 2, 3, 4, 5))
    table.press(NEXT)
    table.press(OK)
    table.press(HOLD_BACK)  # the menu no longer offers Ann's correction: Bob has thrown since
    labels = [c.label for c in table.chooser.choices]
    assert labels == ["continue the game", "correct the last entry", "end this game (it stays in the log)"]
    table.chooser.cursor = 1
    table.press(OK)
    assert table.game.last_entry.player == 1


def test_train_wreck_roll_off_set_aside_and_bank(log):
    table = start(log, "train-wreck", players=2)
    assert table.game.phase == Phase.ROLL_OFF
    throw(table, (3,))  # Ann
    throw(table, (5,))  # Bob: the highest starts
    assert table.game.players[table.game.current] == "Bob"
    throw(table, (1, 5, 2, 3, 3))  # 1 and 5 score
    assert table.choosing == "set-aside"
    assert [c.points for c in table.chooser.choices][0] == 15
    table.press(OK)  # set aside the 1 and the 5
    throw(table, (1, 6, 4))
    table.press(OK)  # the 1: 25 in the turn
    table.press(HOLD_OK)  # bank: under 35, so it counts 0 (getting on the scoreboard)
    assert table.game.scores == (0, 0) and table.game.players[table.game.current] == "Ann"
    assert [a for a, _ in log.events(table.record.id)] == ["roll_off", "roll", "set_aside", "roll", "set_aside", "bank"]


def test_a_finished_game_goes_to_the_history(log):
    table = start(log, "dice-poker")
    for field in range(13):
        throw(table, (1, 1, 1, 1, 1))
        table.press(NEXT)
        table.press(OK)
    assert table.mode == "game-over" and table.screen().prompt == "Ann wins"
    table.press(OK)
    history = log.history()
    assert len(history) == 1 and history[0].game == "dice-poker"
    assert history[0].result[0]["name"] == "Ann" and history[0].result[0]["total"] > 0
    assert table.mode == "choose-game"


def test_the_history_command_lists_finished_games(log, capsys):
    from appliance.cli import main

    table = start(log, "dice-poker")
    for field in range(13):
        throw(table, (2, 2, 2, 2, 2))
        table.press(NEXT)
        table.press(OK)
    table.press(OK)
    assert main(["history", "--log", str(log.path)]) == 0
    out = capsys.readouterr().out
    assert "dice-poker" in out and "1. Ann 90" in out  # five 2s: twos, 3 and 4 of a kind, chance 10 each, 5 of a kind 50


def test_hold_prev_next_shows_the_other_players_sheets(log):
    table = start(log, "pentakubus", players=3)
    assert table.screen().extra["sheet_player"] == 0
    table.press(HOLD_NEXT)
    assert table.screen().extra["sheet_player"] == 1
    table.press(HOLD_PREV)
    table.press(HOLD_PREV)
    assert table.screen().extra["sheet_player"] == 2
    throw(table, (1, 2, 3, 4, 5))  # a decision brings the thrower's own sheet back
    assert table.screen().extra["sheet_player"] == 0


def test_a_log_that_cannot_be_written_refuses_the_decision_and_keeps_the_game(log, monkeypatch):
    from appliance.event_log import LogError

    table = start(log, "dice-poker")
    throw(table, (1, 2, 3, 4, 5))
    before = table.game

    def full(*args):
        raise LogError("cannot write the game log games.sqlite: database or disk is full")

    monkeypatch.setattr(log, "append", full)
    table.press(NEXT)
    table.press(OK)  # enter: not written, so not taken
    assert table.game is before and "disk is full" in table.message and table.screen().level == "error"
    monkeypatch.undo()
    table.press(OK)  # the list is still open: the same press now goes through
    assert table.game.sheets[0].entries
