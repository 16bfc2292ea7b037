"""The host's items, below the games and in the game's menu: tonight's games, and shutting the table down."""

import re
from datetime import UTC, datetime, timedelta

from appliance.night import night_games, power_off
from appliance.table import Table
from tests.table.play import BACK, HOLD_BACK, NEXT, OK, finish, start, throw


def choose(table: Table, label: str) -> None:
    table.chooser.cursor = [c.label for c in table.chooser.choices].index(label)
    table.press(OK)


def test_tonights_games_lists_the_finished_ones_newest_first(log):
    table = start(log, "dice-poker")
    finish(table)
    table.press(OK)  # back to the games
    assert table.mode == "choose-game"
    choose(table, "tonight's games")
    screen = table.screen()
    assert screen.title == "Tonight's games"
    [game] = [c.label for c in screen.choices]
    # five 1s thirteen times: 70 (tests/table/test_table.py, test_a_finished_game_goes_into_the_history)
    assert re.fullmatch(r"\d\d:\d\d Dice Poker: Ann 70", game)
    table.press(BACK)
    assert table.screen().title == "Choose a game"
    tomorrow = datetime.now(UTC) + timedelta(hours=13)
    assert night_games(log, now=tomorrow) == []  # last night's games are not tonight's


def test_no_game_yet_is_said(log):
    table = Table(log, players=["Ann"])
    choose(table, "tonight's games")
    assert [c.label for c in table.screen().choices] == ["no game finished tonight yet"]
    table.press(OK)
    assert table.screen().title == "Choose a game"


def test_shut_down_asks_once_more_and_keeps_the_game(log):
    table = start(log, "dice-poker")
    throw(table, (1, 2, 3, 4, 5))
    asked = []
    table.power_off = lambda: asked.append(1) or ""
    table.press(HOLD_BACK)
    choose(table, "shut down the table")
    assert table.screen().prompt == "OK shuts the table down, BACK goes back" and not asked
    table.press(OK)
    assert asked == [1] and "shutting down" in table.message
    assert table.mode == "play" and log.open_game().id == table.record.id  # the game comes back at the next start


def test_a_shut_down_that_fails_says_why(log):
    table = Table(log, players=["Ann"])
    table.power_off = lambda: "cannot shut down (Access denied)"
    choose(table, "shut down the table")
    table.press(OK)
    assert table.message == "cannot shut down (Access denied)" and table.screen().level == "error"
    without = Table(log, players=["Ann"])  # not the installed service: nothing to call
    choose(without, "shut down the table")
    without.press(OK)
    assert "cannot shut the computer down" in without.message


def test_power_off_runs_the_command_and_reports_its_failure():
    assert power_off(("true",)) == ""
    said = power_off(("sh", "-c", "echo 'Access denied' >&2; exit 1"))
    assert said.startswith("cannot shut down (Access denied)") and "install.sh" in said
    assert power_off(("/nonexistent/systemctl",)).startswith("cannot shut down (")


def test_game_settings_turned_at_the_table_play_the_next_games_and_are_kept(tmp_path):
    from appliance.event_log import EventLog

    log = EventLog(tmp_path / "games.sqlite")
    table = Table(log, players=["Ann", "Bob"])
    choose(table, "game settings")
    assert [c.label for c in table.screen().choices] == [
        "Train Wreck goal: 1000",
        "Hexakubus wrap-around straights: on",
    ]
    table.press(OK)  # goal 1000 -> 750
    table.press(OK)  # -> 500
    table.press(NEXT)
    table.press(OK)  # wrap off
    assert [c.label for c in table.screen().choices] == [
        "Train Wreck goal: 500",
        "Hexakubus wrap-around straights: off",
    ]
    table.press(BACK)
    choose(table, "Train Wreck")
    table.press(OK)
    assert table.game.goal == 500  # the rules' own: the game ends at 500
    log.close()
    next_night = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann", "Bob"])
    assert next_night.variants["train-wreck"]["goal"] == 500 and next_night.variants["hexakubus"]["wrap"] is False
    next_night.log.close()
    # the settings file now gives another goal: it wins
    changed = Table(
        EventLog(tmp_path / "games.sqlite"), players=["Ann", "Bob"], variants={"train-wreck": {"goal": 750}}
    )
    assert changed.variants["train-wreck"]["goal"] == 750 and changed.variants["hexakubus"].get("wrap", True) is True
    changed.log.close()
