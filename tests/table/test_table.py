"""The table: readings and presses in, decisions logged before they show, a game resumed from its log."""

import json
import sqlite3

import pytest

from appliance.event_log import EventLog, LogError, open_log
from appliance.games import GAME_IDS
from appliance.games.train_wreck import Phase
from appliance.table import Table
from tests.table.play import (
    BACK,
    HOLD_BACK,
    HOLD_NEXT,
    HOLD_OK,
    NEXT,
    OK,
    disk_full,
    end_from_the_menu,
    finish,
    pushed,
    reading,
    start,
    throw,
)
from vision.types import OUTSIDE, ROLL, Die


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


@pytest.mark.parametrize(
    "extra, says",
    [
        (Die("d6", None, (900, 0, 940, 40), ROLL, 0.0, cocked=True), "not lie flat"),
        (Die("d6", 3, (900, 0, 940, 40), OUTSIDE, 0.9), "outside the tray"),
    ],
)
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


@pytest.mark.parametrize(
    "game, kind, values, says",
    [
        ("hexakubus", "d6", (1, 2, 3, 4, 5, 6), "Hexakubus is played with d10s, and I see 6 d6s"),
        ("dice-poker", "d10", (7, 8, 9, 10, 1), "Dice Poker is played with d6s, and I see 5 d10s"),
    ],
)
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
    assert labels == [
        "continue the game",
        "correct the last entry",
        "tonight's games",
        "shut down the table",
        "end this game (it stays in the log)",
    ]
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
    assert (
        "dice-poker" in out and "1. Ann 90" in out
    )  # five 2s: twos, 3 and 4 of a kind, chance 10 each, 5 of a kind 50


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


@pytest.mark.parametrize(
    "damage",
    [
        {"choosing": "field"},  # a list the game does not call for: nothing thrown to enter
        {"choosing": "correct"},  # nor anything entered to correct
        {"review": {"action": "start_throw"}},  # a row this version cannot read
        {"setup": None, "cursor": "first"},
        "not JSON {",  # the row itself damaged
        [1, 2, 3],  # JSON, but no screen state
    ],
)
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
    assert again.mode == "choose-game" and [c.key for c in again.chooser.choices][: len(GAME_IDS)] == list(GAME_IDS)
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


def test_a_player_named_like_the_tables_own_names_gets_a_different_partner(log):
    table = Table(log, players=["Player 2"], default_game="train-wreck")  # Train Wreck refuses two of a name
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
    assert len(data) >= 3 * 4096  # header page, then the tables' pages
    data[4096 : 4096 + 64] = b"\xff" * 64  # a page's header overwritten
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
    assert path.read_bytes() == data  # looked at, not written to
    log, note = open_log(path)
    [kept] = tmp_path.glob("games.damaged-*.sqlite")
    assert kept.read_bytes() == data and f"a new log was started, the damaged one is kept as {kept.name}" in note
    assert log.open_game() is None and Table(log).mode == "choose-game"


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
    assert [c.label for c in table.chooser.choices] == [
        "continue the game",
        "tonight's games",
        "shut down the table",
        "end this game (it stays in the log)",
    ]
    table.press(BACK)
    table.press(BACK)  # the reading dropped: the dice left the tray all the same
    assert table.review is None and "correct" not in str(table.screen().hints)
    table.press(BACK)
    assert table.choosing == ""
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann", "Bob"])
    again.press(BACK)
    again.press(HOLD_BACK)
    assert again.choosing == "menu" and len(again.chooser.choices) == 4  # nothing to correct


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


@pytest.mark.parametrize(
    "rolls, says",
    [
        (
            [(5, 5, 5, 5, 3), (5, 4)],
            "accept the dice (OK) or choose to roll the 5s again (NEXT)",
        ),  # a quadruple's choice
        ([(2, 3, 4, 6, 6)], "try the salvage (OK) or end the turn (BACK)"),  # a train wreck
    ],
)
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


# ------------------------------------------------------------ the dice kept, moved or thrown (the second review)
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


def test_a_throw_while_the_menu_is_open_closes_it_and_is_checked(log):
    table = start(log, "pentakubus", players=2)
    throw(table, (6, 6, 6, 6, 1))
    table.press(NEXT)
    table.press(OK)  # Ann enters
    table.press(HOLD_BACK)  # the menu, offering the correction
    table.reading(reading((1, 2, 3, 4, 5)))  # Bob has thrown
    assert table.choosing == "" and table.review is not None and table.review.action == "start_throw"
    table.press(OK)
    assert table.game.throw.dice == (1, 2, 3, 4, 5) and not table.correctable


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


@pytest.mark.parametrize(
    "game, rolls, says",
    [
        ("dice-poker", [(1, 2, 3, 4, 6)] * 3, "first choose the field"),  # the fields after the third attempt
        ("train-wreck", [(1, 5, 2, 3, 3)], "first choose the dice to set aside"),
    ],
)
def test_a_roll_while_the_game_forces_a_list_says_what_to_choose_and_counts_not_later(log, game, rolls, says):
    table = start(log, game)
    for roll in rolls:
        throw(table, roll)
        if not table.choosing:
            table.press(OK)  # hold nothing
    forced = table.choosing
    early = reading((2, 2, 4, 5, 6)[: 5 if game == "dice-poker" else 3])
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


def test_the_same_dice_read_again_leave_a_list_the_player_opened(log, tmp_path):
    """A restart reads the tray at once, and so does a hand passing over it: that is no throw to close a list for."""
    table = start(log, "dice-poker")
    first = throw(table, (6, 6, 2, 3, 1))
    table.press(NEXT)  # the field list
    table.reading(first)
    assert table.choosing == "field"
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert again.choosing == "field"
    again.reading(first)  # the restart's first look at the tray
    assert again.choosing == "field"
    again.reading(pushed(first, 6, 6))  # but dice moved: the player plays on, the list closes
    assert again.choosing == "" and sorted(again.keep_view) == [0, 1]


def test_a_game_over_restart_and_its_menu_say_what_stands(log, tmp_path):
    table = start(log, "dice-poker")
    finish(table)
    table.press(HOLD_BACK)  # correct the last entry: its list says whose entry
    assert "correct" in table.message
    table.press(HOLD_BACK)  # the menu
    assert table.choosing == "menu" and "correct" not in table.message
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert again.mode == "game-over" and "the game is over" in again.message and "turn" not in again.message
