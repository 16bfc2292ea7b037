"""The table: readings and presses in, decisions logged before they show, a game resumed from its log."""
import json
import sqlite3

import pytest

from appliance.event_log import EventLog, LogError, open_log
from appliance.games import GAME_IDS
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


def finish(table, values=(1, 1, 1, 1, 1)):
    """A one-player Dice Poker game played to its end, each throw in its best field."""
    for field in range(13):
        throw(table, values)
        table.press(NEXT)
        table.press(OK)
    assert table.mode == "game-over"


def disk_full(*args):
    raise LogError("cannot write the game log games.sqlite: database or disk is full")


def end_from_the_menu(table):
    table.press(HOLD_BACK)
    table.chooser.cursor = len(table.chooser.choices) - 1  # "end this game"
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
    assert ("hold OK", "bank 25, scores 0") in [(h.button, h.does) for h in table.screen().hints]
    table.press(HOLD_OK)  # bank: under 35, so it counts 0 (getting on the scoreboard)
    assert table.game.scores == (0, 0) and table.game.players[table.game.current] == "Ann"
    assert [a for a, _ in log.events(table.record.id)] == ["roll_off", "roll", "set_aside", "roll", "set_aside", "bank"]


def test_a_finished_game_goes_to_the_history(log):
    table = start(log, "dice-poker")
    finish(table)
    assert table.screen().prompt == "Ann wins"
    table.press(OK)
    history = log.history()
    assert len(history) == 1 and history[0].game == "dice-poker"
    assert history[0].result[0]["name"] == "Ann" and history[0].result[0]["total"] > 0
    assert table.mode == "choose-game"


def test_the_history_command_lists_finished_games(log, capsys):
    from appliance.cli import main

    table = start(log, "dice-poker")
    finish(table, (2, 2, 2, 2, 2))
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
    table = start(log, "dice-poker")
    throw(table, (1, 2, 3, 4, 5))
    before = table.game
    monkeypatch.setattr(log, "append", disk_full)
    table.press(NEXT)
    table.press(OK)  # enter: not written, so not taken
    assert table.game is before and "disk is full" in table.message and table.screen().level == "error"
    monkeypatch.undo()
    table.press(OK)  # the list is still open: the same press now goes through
    assert table.game.sheets[0].entries


def test_a_log_that_cannot_be_written_keeps_a_finished_game_on_screen(log, monkeypatch):
    table = start(log, "dice-poker")
    finish(table)
    monkeypatch.setattr(log, "finish", disk_full)
    table.press(OK)  # into the history: not written, so the game stays
    assert table.mode == "game-over" and "disk is full" in table.message and table.screen().level == "error"
    monkeypatch.undo()
    table.press(OK)
    assert table.mode == "choose-game" and log.history()[0].result[0]["name"] == "Ann"


def test_a_log_that_cannot_be_written_keeps_the_game_the_menu_would_end(log, monkeypatch):
    table = start(log, "dice-poker")
    throw(table, (1, 2, 3, 4, 5))
    before = table.game
    monkeypatch.setattr(log, "finish", disk_full)
    end_from_the_menu(table)
    assert table.mode == "play" and table.game is before and "disk is full" in table.message
    monkeypatch.undo()
    table.press(OK)  # the menu is still open on "end this game": the same press now goes through
    assert table.mode == "choose-game" and log.open_game() is None


def test_a_game_that_cannot_be_resumed_nor_closed_in_the_log_is_said_on_screen(log, monkeypatch):
    table = start(log, "dice-poker")
    log.append(table.record.id, "enter", [0, 1])  # a log this version cannot replay: no throw to enter
    monkeypatch.setattr(log, "finish", disk_full)
    again = Table(log, players=["Ann"])
    assert again.mode == "choose-game" and again.screen().level == "error"
    assert "could not be resumed" in again.message and "disk is full" in again.message
    assert log.open_game().id == table.record.id  # still open: the next start tries again



def test_an_event_row_that_is_no_json_is_said_and_kept(log):
    table = start(log, "dice-poker")
    throw(table, (1, 2, 3, 4, 5))
    written = len(log.events(table.record.id))
    log.db.execute("UPDATE events SET args = '{\"dice\": [1, 2' WHERE id = (SELECT MAX(id) FROM events)")
    again = Table(log, players=["Ann"])
    assert again.mode == "choose-game" and again.screen().level == "error"
    assert "could not be resumed" in again.message and "kept in the log" in again.message
    assert log.open_game() is None  # closed as abandoned, so the next start is a new game
    kept = log.db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (table.record.id,)).fetchone()[0]
    assert kept == written  # nothing deleted

def restart_between_decision_and_screen(log, table, *presses):
    """The power goes after the presses' decision is logged but before the screen row after it is."""
    before = log.load_screen()
    for press in presses:
        table.press(press)
    log.save_screen(before)
    return Table(log, players=["Ann"])


def test_a_screen_saved_before_the_last_decision_is_ignored_on_restart(log):
    table = start(log, "dice-poker")
    throw(table, (6, 6, 2, 3, 1))
    table.press(NEXT)  # the field list, saved with the screen
    again = restart_between_decision_and_screen(log, table, OK)  # entered
    assert again.game == table.game and again.mode == "play" and again.choosing == ""
    assert again.screen().prompt == "throw all 5 dice"
    throw(again, (1, 2, 3, 4, 5))
    assert again.game.throw.dice == (1, 2, 3, 4, 5)


def test_train_wreck_resumes_at_the_roll_after_a_stale_set_aside_list(log):
    table = start(log, "train-wreck")
    throw(table, (1, 5, 2, 3, 3))
    again = restart_between_decision_and_screen(log, table, OK)  # the 1 and the 5 set aside
    assert again.game == table.game and again.game.phase == Phase.ROLL and again.chooser is None
    throw(again, (1, 6, 4))
    assert again.choosing == "set-aside" and again.chooser.chosen.points == 10


@pytest.mark.parametrize("damage", [
    {"choosing": "field"},  # a list the game does not call for: nothing thrown to enter
    {"choosing": "correct"},  # nor anything entered to correct
    {"review": {"action": "start_throw"}},  # a row this version cannot read
    {"setup": None, "cursor": "first"},
    "not JSON {",  # the row itself damaged
    [1, 2, 3],     # JSON, but no screen state
])
def test_a_saved_screen_row_never_crashes_a_start(log, damage):
    table = start(log, "dice-poker")
    if isinstance(damage, dict):
        log.save_screen({**log.load_screen(), **damage})
    else:
        log.db.execute("UPDATE screen SET state = ?", (damage if isinstance(damage, str) else json.dumps(damage),))
    again = Table(log, players=["Ann"])
    assert again.game == table.game and again.mode == "play" and (again.choosing, again.review) == ("", None)
    throw(again, (1, 2, 3, 4, 5))
    assert again.game.throw.dice == (1, 2, 3, 4, 5)


def test_a_game_ended_from_the_menu_restarts_at_the_game_list(log):
    table = start(log, "dice-poker")
    end_from_the_menu(table)
    again = Table(log, players=["Ann"])
    assert again.mode == "choose-game" and [c.key for c in again.chooser.choices] == list(GAME_IDS)
    again.press(OK)
    assert again.mode == "choose-players"


@pytest.mark.parametrize("leave", [BACK, OK])  # OK on "continue the game"
def test_leaving_the_menu_reopens_the_set_aside_list(log, leave):
    table = start(log, "train-wreck")
    throw(table, (1, 5, 2, 3, 3))
    table.press(HOLD_BACK)
    table.press(leave)
    assert table.choosing == "set-aside" and table.screen().prompt == "set aside"
    table.press(OK)
    assert log.events(table.record.id)[-1] == ("set_aside", [[1, 5]])


def test_leaving_the_menu_reopens_the_fields_after_the_third_attempt(log):
    table = start(log, "dice-poker")
    throw(table, (6, 6, 2, 3, 1))
    table.press(OK)  # hold nothing
    throw(table, (1, 2, 3, 4, 5))
    table.press(OK)
    throw(table, (2, 2, 3, 4, 4))
    table.press(HOLD_BACK)
    table.press(BACK)
    assert table.choosing == "field"
    table.press(OK)
    assert table.game.sheets[0].entries and table.game.throw is None


@pytest.mark.parametrize("leave", [BACK, OK])  # OK on "continue the game"
def test_leaving_the_menu_keeps_the_dice_seen_in_the_keep_zone(log, leave):
    table = start(log, "dice-poker")
    throw(table, (6, 6, 2, 3, 1))
    table.reading(reading((2, 3, 1), keep=(6, 6)))
    table.press(HOLD_BACK)
    table.press(leave)
    table.press(OK)  # holds the 6s: no need to move the dice again
    assert table.held == (0, 1)


def test_back_from_correcting_a_finished_game_returns_to_game_over(log):
    table = start(log, "dice-poker")
    finish(table)
    table.press(HOLD_BACK)  # correct the last entry
    assert table.mode == "play" and table.choosing == "correct"
    table.press(BACK)  # changed my mind
    assert table.mode == "game-over" and table.screen().prompt == "Ann wins" and "correct" not in table.message
    table.press(OK)
    assert log.history()[0].result[0]["name"] == "Ann"


def test_the_players_screen_shows_the_order_the_game_starts_with(log):
    table = Table(log, players=["Ann", "Bob"], default_game="dice-poker")
    table.press(OK)
    table.press(NEXT)  # a third player, named by the table
    table.press(HOLD_NEXT)  # Bob starts
    shown = [c.label for c in table.screen().choices]
    table.press(OK)
    assert shown == ["Bob", "Player 3", "Ann"] == list(table.game.players)


def test_a_player_named_like_the_tables_own_names_gets_a_different_partner(log):
    table = Table(log, players=["Player 2"], default_game="train-wreck")   # Train Wreck refuses two of a name
    table.press(OK)
    table.press(NEXT)  # a second player, named by the table
    table.press(OK)
    assert table.game is not None and list(table.game.players) in (["Player 2", "Player 3"], ["Player 3", "Player 2"])


def test_a_log_damaged_inside_is_set_aside_whole_and_a_new_one_started(tmp_path):
    path = tmp_path / "games.sqlite"
    table = start(EventLog(path), "dice-poker")
    throw(table, (6, 6, 6, 2, 1))
    table.log.close()
    data = bytearray(path.read_bytes())
    assert len(data) >= 3 * 4096                                 # header page, then the tables' pages
    data[4096:4096 + 64] = b"\xff" * 64                           # a page's header overwritten
    path.write_bytes(bytes(data))
    with pytest.raises(LogError, match="is damaged"):
        EventLog(path)
    log, note = open_log(path)
    [kept] = tmp_path.glob("games.damaged-*.sqlite")
    assert kept.read_bytes() == bytes(data) and note.endswith(f"kept as {kept.name}; a new game log was started")
    assert log.open_game() is None and Table(log).mode == "choose-game"


def test_train_wreck_shows_the_dice_on_the_table_never_more_than_five(log):
    """After a roll is decided, its dice are either set aside (shown held) or picked up to be rolled again:
    the row must not show the decided roll beside the dice taken from it (it showed eight dice)."""
    table = start(log, "train-wreck")
    throw(table, (1, 1, 1, 2, 6))
    row = table.screen().dice
    assert [(d.value, d.held) for d in row] == [(1, False), (1, False), (1, False), (2, False), (6, False)]
    table.press(OK)   # the triple of 1s is set aside; its confirmation: roll the other two
    assert table.game.phase == Phase.CONFIRM_TRIPLE
    assert [(d.value, d.held) for d in table.screen().dice] == [(1, True)] * 3
    throw(table, (1, 3))   # the 1 shows the triple's value: roll it again; the 3 stays
    assert table.game.phase == Phase.CONFIRM_TRIPLE
    assert sorted((d.value, d.held) for d in table.screen().dice) == [(1, True)] * 3 + [(3, False)]
