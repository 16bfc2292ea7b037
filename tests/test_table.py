"""The table: readings and presses in, decisions logged before they show, a game resumed from its log."""
import itertools
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


THROWS = itertools.count()  # each reading's rolling-area dice land in a row of their own: they were thrown


def dice(values, zone=ROLL, kind="d6", start=0, confidence=0.99, y=100):
    return [Die(kind, v, (start + 60 * i, y, start + 60 * i + 40, y + 40), zone, confidence) for i, v in enumerate(values)]


def reading(roll=(), keep=(), kind="d6", extra=()):
    """Dice just thrown into the rolling area, and `keep` in the keep zone."""
    y = 100 + 60 * (next(THROWS) % 10)
    return Reading(tuple(dice(roll, ROLL, kind, y=y) + dice(keep, KEEP, kind, start=1000, y=800) + list(extra)), 1280, 960)


def pushed(before, *values):
    """`before` once the player pushed dice showing `values` into the keep zone: the others lie untouched."""
    lying = list(before.dice)
    for value in values:
        die = next(d for d in lying if d.zone == ROLL and d.value == value)
        x = 1000 + 60 * sum(d.zone == KEEP for d in lying)
        lying[lying.index(die)] = Die(die.kind, value, (x, 800, x + 40, 840), KEEP, die.confidence)
    return Reading(tuple(lying), before.width, before.height)


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


def throw(table, values, keep=(), kind="d6"):
    """A throw read and confirmed; its reading, to push dice from."""
    thrown = reading(values, keep, kind)
    table.reading(thrown)
    assert table.review is not None, table.message
    table.press(OK)
    return thrown


def finish(table, values=(1, 1, 1, 1, 1)):
    """A one-player Dice Poker game played to its end, each throw in its best field; the last throw's reading."""
    for field in range(13):
        last = throw(table, values)
        table.press(NEXT)
        table.press(OK)
    assert table.mode == "game-over"
    return last


def disk_full(*args):
    raise LogError("cannot write the game log games.sqlite: database or disk is full")


def end_from_the_menu(table):
    table.press(HOLD_BACK)
    table.chooser.cursor = len(table.chooser.choices) - 1  # "end this game"
    table.press(OK)
    table.press(OK)  # yes, end it


def test_a_dice_poker_throw_with_holds_over_three_attempts(log):
    table = start(log, "dice-poker")
    first = throw(table, (6, 6, 2, 3, 1))
    assert table.game.throw.attempt == 1
    table.reading(pushed(first, 6, 6))  # the 6s pushed into the keep zone
    assert [d.held for d in table.screen().dice] == [True, True, False, False, False]
    table.press(OK)  # holds confirmed
    second = throw(table, (6, 4, 4), keep=(6, 6))
    assert table.game.throw.dice == (6, 6, 6, 4, 4) and table.game.throw.attempt == 2
    table.reading(pushed(second, 6))
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
    table.reading(pushed(throw(table, (6, 6, 1, 2, 3)), 6, 6))
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
    table.reading(pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6))
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
    assert labels == ["continue the game", "correct the last entry", "tonight's games", "shut down the table",
                      "end this game (it stays in the log)"]
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
    assert table.screen().sheet.player == 0
    table.press(HOLD_NEXT)
    assert table.screen().sheet.player == 1
    table.press(HOLD_PREV)
    table.press(HOLD_PREV)
    assert table.screen().sheet.player == 2
    throw(table, (1, 2, 3, 4, 5))  # a decision brings the thrower's own sheet back
    assert table.screen().sheet.player == 0


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
    table.press(OK)  # "end this game?" is still asked: the same press now goes through
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
    assert again.mode == "choose-game" and [c.key for c in again.chooser.choices][:len(GAME_IDS)] == list(GAME_IDS)
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
    table.reading(pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6))
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
    assert kept.read_bytes() == bytes(data) and f"a new log was started, the damaged one is kept as {kept.name}" in note
    assert log.open_game() is None and Table(log).mode == "choose-game"


def test_a_database_of_another_schema_is_set_aside_whole_and_a_new_one_started(tmp_path):
    """A games table without the log's columns: a traceback at the first query before, now a damaged log."""
    path = tmp_path / "games.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (name TEXT, score INTEGER)")
    db.execute("INSERT INTO games VALUES ('Ann', 90)")
    db.commit()
    db.close()
    data = path.read_bytes()
    with pytest.raises(LogError, match="its games table has no column id"):
        EventLog(path)
    assert path.read_bytes() == data   # looked at, not written to
    log, note = open_log(path)
    [kept] = tmp_path.glob("games.damaged-*.sqlite")
    assert kept.read_bytes() == data and f"a new log was started, the damaged one is kept as {kept.name}" in note
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


# ---------------------------------------------------------------------- dice that only moved (the review's defects)
def test_train_wreck_leftover_dice_pushed_not_thrown_are_not_a_roll(log):
    """Set-aside dice pushed into the keep zone, the other two untouched: that is no confirmation roll
    (taking it would make 3 4 a scoreless confirmation, a train wreck)."""
    table = start(log, "train-wreck")
    first = throw(table, (2, 2, 2, 3, 4))
    table.press(OK)  # the triple of 2s (20) is set aside; the 3 and the 4 confirm it
    events = log.events(table.record.id)
    table.reading(pushed(first, 2, 2, 2))
    assert table.review is None and "only moved" in table.message and "roll 2 dice" in table.message
    assert table.game.phase == Phase.CONFIRM_TRIPLE and log.events(table.record.id) == events
    throw(table, (5, 3), keep=(2, 2, 2))  # now thrown: no 2, so the triple stands and the 5 scores with it
    assert table.game.phase == Phase.ROLL and table.game.turn.points == 20 + 5


def test_train_wreck_dice_pushed_aside_while_the_roll_is_checked_ask_for_nothing(log):
    """Scoring dice pushed aside before OK: after OK the set-aside list is the next step, and the push was no roll
    taken too early."""
    table = start(log, "train-wreck")
    first = reading((1, 5, 2, 3, 4))
    table.reading(first)
    table.reading(pushed(first, 1, 5))
    table.press(OK)
    assert table.choosing == "set-aside" and "first choose" not in table.message
    assert table.lying and all(d.zone == KEEP for d in table.lying if d.value in (1, 5))


def test_train_wreck_leftover_dice_thrown_again_are_a_roll_even_showing_the_same(log):
    table = start(log, "train-wreck")
    first = throw(table, (2, 2, 2, 3, 4))
    table.press(OK)
    table.reading(pushed(first, 2, 2, 2))
    throw(table, (3, 4), keep=(2, 2, 2))  # thrown, landing elsewhere on 3 and 4: nothing scores
    assert table.game.phase == Phase.TRAIN_WRECK  # RULINGS: confirmation dice scoring nothing is a train wreck


def test_pentakubus_die_thrown_again_landing_on_the_same_value_is_the_next_attempt(log):
    """Four 6s pushed, the 2 thrown again (without OK first) and landing 2 again, elsewhere: attempt 2.
    The 6s were not thrown in the final attempt, so field 23 pays 24 + 38 and no slam (+11)."""
    table = start(log, "pentakubus")
    first = throw(table, (6, 6, 6, 6, 2))
    table.reading(pushed(first, 6, 6, 6, 6))
    assert table.review is None and [d.held for d in table.screen().dice] == [True] * 4 + [False]
    table.reading(reading((2,), keep=(6, 6, 6, 6)))
    assert table.review is not None and table.review.action == "rethrow"
    table.press(OK)
    assert table.game.throw.attempt == 2 and table.game.throw.thrown_in == (1, 1, 1, 1, 2)
    table.press(NEXT)
    points = {c.label: c.points for c in table.chooser.choices}
    assert points["M 23 quadruplet"] == 24 + 38 and points["R 23 quadruplet"] == 24 + 38


def test_dice_not_thrown_after_the_holds_are_no_attempt(log):
    table = start(log, "pentakubus")
    lying = pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6)
    table.reading(lying)
    table.press(OK)  # holds the 6s
    table.reading(lying)  # read again before the other three were thrown (a hand passed over the tray)
    assert table.review is None and table.game.throw.attempt == 1 and "throw the 3 other dice" in table.message


def test_the_next_players_reading_of_the_dice_left_lying_is_no_throw(log):
    table = start(log, "dice-poker", players=2)
    ann = throw(table, (3, 3, 3, 2, 2))
    table.press(NEXT)
    table.press(OK)  # Ann enters; the dice still lie in the tray
    table.reading(ann)
    assert table.review is None and table.game.throw is None and "throw all 5 dice" in table.message
    assert table.screen().prompt == "throw all 5 dice"
    assert ("BACK", "correct the last entry") in [(h.button, h.does) for h in table.screen().hints]


# ---------------------------------------------------------------------- holds, corrections, the menu, restarts
def test_holding_all_dice_lets_them_stand_and_goes_to_the_fields(log):
    """The rulebooks allow letting all dice stand after an attempt: then the throw is entered."""
    table = start(log, "dice-poker")
    thrown = throw(table, (6, 6, 6, 6, 5))
    table.reading(pushed(thrown, 6, 6, 6, 6, 5))
    assert "throw the 0" not in table.screen().prompt and "field" in table.screen().prompt
    table.press(OK)
    assert table.choosing == "field" and table.held is None
    assert [a for a, _ in log.events(table.record.id)] == ["start_throw"]  # no attempt held for
    points = {c.label: c.points for c in table.chooser.choices}
    assert points["8 4 of a kind"] == 29 and points["13 chance"] == 29  # the sum of all five dice
    table.press(BACK)
    table.press(NEXT)  # NEXT too
    assert table.choosing == "field"


def test_a_finished_game_cannot_be_ended_as_abandoned(log):
    table = start(log, "dice-poker")
    finish(table)
    table.press(HOLD_BACK)  # correct the last entry
    table.press(HOLD_BACK)  # the menu
    assert not any("end this game" in c.label for c in table.chooser.choices)
    table.press(OK)  # continue
    assert table.mode == "game-over"
    table.press(OK)
    # five 1s thirteen times: ones 5, 3 and 4 of a kind 5 each, 5 of a kind 50, chance 5 (no full house: RULINGS)
    assert log.history()[0].result == [{"rank": 1, "name": "Ann", "total": 70}]


def test_ending_a_game_from_the_menu_asks_once_more(log):
    table = start(log, "dice-poker")
    throw(table, (1, 2, 3, 4, 5))
    table.press(HOLD_BACK)
    table.chooser.cursor = len(table.chooser.choices) - 1  # "end this game"
    table.press(OK)
    assert table.mode == "play" and log.open_game().id == table.record.id
    screen = table.screen()
    assert screen.prompt == "end this game? OK ends it, BACK keeps playing"
    assert [(h.button, h.does) for h in screen.hints] == [("OK", "end the game"), ("BACK", "keep playing")]
    table.press(BACK)  # keeps playing
    assert table.mode == "play" and table.choosing == "" and table.game.throw.dice == (1, 2, 3, 4, 5)
    end_from_the_menu(table)
    assert table.mode == "choose-game" and log.open_game() is None


def test_the_last_entry_is_final_once_the_next_throw_is_read(log, tmp_path):
    """RULINGS: an entry may be corrected until the next throw starts (the dice leave the tray)."""
    table = start(log, "pentakubus", players=2)
    throw(table, (6, 6, 6, 6, 1))
    table.press(NEXT)
    table.press(OK)  # Ann enters
    table.reading(reading((2, 3, 4, 5, 6)))  # Bob has thrown: his reading is being checked
    table.press(HOLD_BACK)
    assert [c.label for c in table.chooser.choices] == ["continue the game", "tonight's games", "shut down the table",
                                                        "end this game (it stays in the log)"]
    table.press(BACK)
    table.press(BACK)  # the reading dropped: the dice left the tray all the same
    assert table.review is None and "correct" not in str(table.screen().hints)
    table.press(BACK)
    assert table.choosing == ""
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann", "Bob"])
    again.press(BACK)
    again.press(HOLD_BACK)
    assert again.choosing == "menu" and len(again.chooser.choices) == 4   # nothing to correct


@pytest.mark.parametrize("edits", [[NEXT, HOLD_NEXT], []])
def test_edits_made_while_checking_a_reading_survive_a_restart(log, tmp_path, edits):
    table = start(log, "dice-poker")
    unsure = Die("d6", 5, (900, 100, 940, 140), ROLL, 0.4)
    table.reading(reading((1, 2, 3, 4), extra=[unsure]))
    table.press(HOLD_NEXT)  # the unsure die (under the cursor) is a 6
    for press in edits:
        table.press(press)  # and the first die a 2
    expected = (table.review.values[:], table.review.confirmed[:])
    assert expected[0][4] == 6 and expected[1] == [True] * 5
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert (again.review.values, again.review.confirmed) == expected
    again.press(HOLD_NEXT)  # edited again after the restart: saved as well
    again.log.close()
    third = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert third.review.values == again.review.values != expected[0]


def test_train_wreck_players_screen_leaves_the_start_to_the_roll_off(log):
    """train-wreck.txt: each player rolls 1 die, the highest starts. The players screen does not choose."""
    table = Table(log, players=["Ann", "Bob"], default_game="train-wreck")
    table.press(OK)
    screen = table.screen()
    assert screen.prompt == "2 players, a roll-off decides who starts"
    assert "who starts" not in [h.does for h in screen.hints]
    table.press(HOLD_NEXT)
    assert [c.label for c in table.screen().choices] == ["Ann", "Bob"]
    table.press(OK)
    assert table.game.phase == Phase.ROLL_OFF and table.game.players == ("Ann", "Bob")


@pytest.mark.parametrize("rolls, says", [
    ([(5, 5, 5, 5, 3), (5, 4)], "accept the dice (OK) or choose to roll the 5s again (NEXT)"),  # a quadruple's choice
    ([(2, 3, 4, 6, 6)], "try the salvage (OK) or end the turn (BACK)"),  # a train wreck
])
def test_train_wreck_a_roll_before_a_decision_says_what_to_decide(log, rolls, says):
    table = start(log, "train-wreck")
    for i, roll in enumerate(rolls):
        throw(table, roll, keep=(5, 5, 5) if i else ())
        if table.choosing == "set-aside":
            table.press(OK)
    events = log.events(table.record.id)
    table.reading(reading((2,), keep=(5, 5, 5, 4)))
    assert table.review is None and log.events(table.record.id) == events
    assert says in table.message and table.screen().level == "warn"


def hints(table):
    return [(h.button, h.does) for h in table.screen().hints]


def test_a_list_the_game_forces_offers_no_way_back(log, tmp_path):
    """After the last attempt a field must be chosen, after a Train Wreck roll a set-aside: BACK cannot leave."""
    table = start(log, "dice-poker")
    throw(table, (1, 2, 3, 4, 6))
    table.press(NEXT)  # a list chosen in attempt 1: BACK leaves it
    assert table.choosing == "field" and ("BACK", "back") in hints(table)
    table.press(BACK)
    table.press(OK)  # hold nothing
    throw(table, (1, 2, 3, 4, 6))
    table.press(OK)
    throw(table, (1, 2, 3, 4, 6))  # the third attempt: the list opens by itself
    assert table.choosing == "field" and ("BACK", "back") not in hints(table)
    table.press(BACK)
    assert table.choosing == "field"
    wreck = start(EventLog(tmp_path / "tw.sqlite"), "train-wreck")
    throw(wreck, (1, 5, 2, 3, 3))
    assert wreck.choosing == "set-aside" and ("BACK", "back") not in hints(wreck)


# ---------------------------------------------------------------------- the dice kept, moved or thrown (the second review)
def moved(before, value, dx, zone=ROLL, to=ROLL, dy=0):
    """`before` once the first die in `zone` showing `value` was slid by (dx, dy) into `to`; the others lie untouched."""
    lying = list(before.dice)
    die = next(d for d in lying if d.zone == zone and d.value == value)
    x0, y0, x1, y1 = die.box
    lying[lying.index(die)] = Die(die.kind, value, (x0 + dx, y0 + dy, x1 + dx, y1 + dy), to, die.confidence)
    return Reading(tuple(lying), before.width, before.height)


def test_the_dice_kept_through_a_rethrow_are_held_again_by_ok(log):
    """Keeping the same dice for attempts 2 and 3: they still lie in the keep zone, so OK holds them again."""
    table = start(log, "dice-poker")
    table.reading(pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6))
    table.press(OK)
    throw(table, (4, 2, 3), keep=(6, 6))
    assert [d.held for d in table.screen().dice] == [True, True, False, False, False]
    table.press(OK)
    assert log.events(table.record.id)[-1] == ("hold", [[0, 1]]) and table.held == (0, 1)
    throw(table, (5, 5, 5), keep=(6, 6))
    assert table.game.throw.dice == (6, 6, 5, 5, 5) and table.game.throw.attempt == 3


def test_holds_released_with_back_are_held_again_by_ok(log):
    table = start(log, "dice-poker")
    table.reading(pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6))
    table.press(OK)
    table.press(BACK)  # change the holds, then change one's mind: the 6s never left the keep zone
    assert [d.held for d in table.screen().dice] == [True, True, False, False, False]
    table.press(OK)
    assert [a for a in log.events(table.record.id)][-2:] == [("release", []), ("hold", [[0, 1]])]


def test_a_die_knocked_while_pushing_is_no_throw_and_hold_ok_banks(log):
    """Train Wreck: the 1 and 5 set aside are pushed, the 2 knocked half a die away, the 3s untouched: no roll
    (one OK would have scored 2 3 3 as a train wreck). The player's hold OK banks the 15."""
    table = start(log, "train-wreck")
    first = throw(table, (1, 5, 2, 3, 3))
    table.press(OK)  # the 1 and the 5
    table.reading(moved(pushed(first, 1, 5), 2, 20))
    assert table.review is None and "only moved" in table.message and "roll 3 dice" in table.message
    table.press(HOLD_OK)
    assert log.events(table.record.id)[-1] == ("bank", [])


def test_a_die_dragged_back_out_of_the_keep_zone_is_no_throw(log):
    table = start(log, "pentakubus")
    first = throw(table, (6, 6, 2, 3, 1))
    table.reading(pushed(first, 6, 6))
    table.reading(moved(pushed(first, 6, 6), 6, -500, zone=KEEP, dy=-400))  # one 6 back in the rolling area
    assert table.review is None and [d.value for d in table.screen().dice if d.held] == [6]
    table.press(OK)
    assert table.game.throw.attempt == 1 and [table.game.throw.dice[i] for i in table.held] == [6]


def test_the_dice_lie_with_the_values_the_player_confirmed(log):
    """A misread 3 corrected to 5; the four 6s pushed, the 5 untouched and now read right: no throw."""
    table = start(log, "dice-poker")
    misread = reading((6, 6, 6, 6, 3))
    table.reading(misread)
    for press in (PREV, HOLD_NEXT, HOLD_NEXT, OK):  # the last die: 3 -> 5
        table.press(press)
    assert table.game.throw.dice == (6, 6, 6, 6, 5)
    lying = pushed(misread, 6, 6, 6, 6)
    five = next(d for d in lying.dice if d.zone == ROLL)
    table.reading(Reading(tuple(d if d is not five else Die("d6", 5, d.box, ROLL, 0.99) for d in lying.dice), 1280, 960))
    assert table.review is None and table.keep_view == (0, 1, 2, 3)


def test_a_dropped_reading_read_again_stays_dropped(log):
    table = start(log, "dice-poker")
    thrown = reading((1, 2, 3, 4, 5))
    table.reading(thrown)
    table.press(BACK)  # not a throw, says the player
    table.reading(thrown)
    assert table.review is None and table.game.throw is None and "only moved" in table.message


def test_a_throw_while_the_menu_is_open_closes_it_and_is_checked(log):
    table = start(log, "pentakubus", players=2)
    throw(table, (6, 6, 6, 6, 1))
    table.press(NEXT)
    table.press(OK)  # Ann enters
    table.press(HOLD_BACK)  # the menu, offering the correction
    table.reading(reading((1, 2, 3, 4, 5)))  # Bob has thrown
    assert table.choosing == "" and table.review is not None and table.review.action == "start_throw"
    table.press(OK)
    assert table.game.throw.dice == (1, 2, 3, 4, 5) and not table._correctable


def test_a_throw_while_the_fields_are_open_closes_them_and_is_checked(log):
    """NEXT opened the fields, then the player pushed the 6s and threw the other three after all."""
    table = start(log, "pentakubus")
    throw(table, (6, 6, 2, 3, 1))
    table.press(NEXT)
    table.reading(reading((6, 6, 6), keep=(6, 6)))
    assert table.choosing == "" and (table.review.action, table.review.held) == ("rethrow", (0, 1))
    table.press(BACK)  # dropped: the 6s still lie in the keep zone, so OK holds them
    table.press(OK)
    assert log.events(table.record.id)[-1] == ("hold", [[0, 1]])


@pytest.mark.parametrize("game, rolls, says", [
    ("dice-poker", [(1, 2, 3, 4, 6)] * 3, "first choose the field"),   # the fields after the third attempt
    ("train-wreck", [(1, 5, 2, 3, 3)], "first choose the dice to set aside"),
])
def test_a_roll_while_the_game_forces_a_list_says_what_to_choose_and_counts_not_later(log, game, rolls, says):
    table = start(log, game)
    for roll in rolls:
        throw(table, roll)
        if not table.choosing:
            table.press(OK)  # hold nothing
    forced = table.choosing
    early = reading((2, 2, 4, 5, 6)[:5 if game == "dice-poker" else 3])
    table.reading(early)
    assert table.choosing == forced and table.review is None
    assert says in table.message and table.screen().level == "warn"
    table.press(OK)  # chosen
    table.reading(early)  # the same dice read again: thrown before the choice, so no roll
    assert table.review is None and "only moved" in table.message


def test_a_roll_before_the_salvage_decision_is_not_the_next_players_roll(log):
    table = start(log, "train-wreck", players=2)
    throw(table, (6,))
    throw(table, (2,))  # Ann starts
    throw(table, (2, 3, 4, 6, 6))  # a train wreck
    early = reading((1, 1, 1, 5, 5))
    table.reading(early)  # Ann rolls before deciding: refused
    table.press(BACK)  # she ends the turn
    table.reading(early)  # Bob has not touched the dice
    assert table.game.players[table.game.current] == "Bob"
    assert table.review is None and "only moved" in table.message


def test_a_new_game_knows_the_dice_left_lying_by_the_last(log):
    table = start(log, "dice-poker")
    last = finish(table)
    table.press(OK)  # into the history
    table.press(OK)
    table.press(OK)  # a new game, the same players
    table.reading(last)
    assert table.mode == "play" and table.review is None and "only moved" in table.message


def test_the_latest_places_of_dice_read_again_under_review_are_the_ones_kept(log):
    """The review's dice nudged (same values) before OK: they lie where the latest reading saw them."""
    table = start(log, "dice-poker")
    first = reading((6, 6, 6, 6, 2))
    table.reading(first)
    nudged = moved(first, 2, 25)  # more than a third of the die
    table.reading(nudged)
    table.press(OK)
    table.reading(pushed(nudged, 6, 6, 6, 6))  # the 2 still where it was nudged to
    assert table.review is None and table.keep_view == (0, 1, 2, 3)


def test_a_restart_during_a_rethrow_review_keeps_its_kept_dice(log, tmp_path):
    table = start(log, "pentakubus")
    table.reading(pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6))
    table.press(OK)
    table.reading(reading((4, 4, 4), keep=(6, 6)))
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    got = []
    again.on_confirm = lambda dice, values, attempt: got.append((sorted(values), attempt))
    again.press(OK)
    assert got == [([4, 4, 4, 6, 6], 2)]


def test_a_thrown_die_landing_where_one_of_its_value_lay_is_still_a_throw(log):
    """Every rolling-area die is thrown in a throw, so most still lying means no throw; one thrown die landing
    on a spot where a die of its value lay (it happens every few dozen throws) does not make it one."""
    table = start(log, "dice-poker")
    first = throw(table, (1, 2, 3, 4, 6))
    kept = pushed(first, 6)   # the 6 pushed, the other four where they lay: no throw
    table.reading(kept)
    assert table.review is None and table.keep_view
    four = first.dice[3]
    table.reading(Reading(tuple(dice((5, 5, 5), y=700)) + (four,) + kept.dice[4:], 1280, 960))   # the four thrown
    assert table.review is not None and table.review.action == "rethrow"


def test_dice_kept_while_the_reading_is_checked_are_held_once_it_is_confirmed(log):
    """Players push their keepers right after the throw, before OK: that push is no throw and no mistake."""
    table = start(log, "dice-poker")
    first = reading((1, 1, 1, 4, 5))
    table.reading(first)
    table.reading(pushed(first, 1, 1, 1))   # the 1s pushed while "check the dice" shows
    assert table.review is not None and table.review.action == "start_throw" and "take the" not in table.message
    table.press(OK)   # the reading confirmed: the 1s are seen kept
    assert table.game.throw.dice == (1, 1, 1, 4, 5) and sorted(table.keep_view) == [0, 1, 2]
    table.press(OK)   # held
    second = reading((2, 6), keep=(1, 1, 1))
    table.reading(second)
    table.reading(pushed(second, 2))   # again while the re-throw is checked: the 2 joins the 1s
    assert table.review is not None and table.review.action == "rethrow" and "does not hold" not in table.message
    table.press(OK)
    assert table.game.throw.dice == (1, 1, 1, 2, 6) and table.game.throw.attempt == 2
    assert sorted(table.keep_view) == [0, 1, 2, 3]
    table.press(OK)   # the 1s and the 2 held: the 6 is thrown for the last attempt
    throw(table, (3,), keep=(1, 1, 1, 2))
    assert table.game.throw.dice == (1, 1, 1, 2, 3) and table.game.throw.attempt == 3


def test_dice_kept_while_the_reading_is_checked_survive_a_restart(log, tmp_path):
    """The push is seen once; a restart before OK must not forget it (the dice lying still are read as such)."""
    table = start(log, "dice-poker")
    first = reading((1, 1, 1, 4, 5))
    table.reading(first)
    table.reading(pushed(first, 1, 1, 1))
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert again.review is not None and again.pushed is not None
    again.press(OK)
    assert again.game.throw.dice == (1, 1, 1, 4, 5) and sorted(again.keep_view) == [0, 1, 2]
    again.log.close()


def test_the_same_dice_read_again_leave_a_list_the_player_opened(log, tmp_path):
    """A restart reads the tray at once, and so does a hand passing over it: that is no throw to close a list for."""
    table = start(log, "dice-poker")
    first = throw(table, (6, 6, 2, 3, 1))
    table.press(NEXT)   # the field list
    table.reading(first)
    assert table.choosing == "field"
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert again.choosing == "field"
    again.reading(first)   # the restart's first look at the tray
    assert again.choosing == "field"
    again.reading(pushed(first, 6, 6))   # but dice moved: the player plays on, the list closes
    assert again.choosing == "" and sorted(again.keep_view) == [0, 1]


def test_a_game_over_restart_and_its_menu_say_what_stands(log, tmp_path):
    table = start(log, "dice-poker")
    finish(table)
    table.press(HOLD_BACK)   # correct the last entry: its list says whose entry
    assert "correct" in table.message
    table.press(HOLD_BACK)   # the menu
    assert table.choosing == "menu" and "correct" not in table.message
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert again.mode == "game-over" and "the game is over" in again.message and "turn" not in again.message
