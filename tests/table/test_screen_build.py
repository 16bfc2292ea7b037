"""The Screen model the table shows (appliance.screen_build): built from the table's state."""

from appliance.event_log import EventLog
from appliance.games.train_wreck import Phase
from appliance.screen_build import screen
from appliance.table import Table
from tests.table.play import HOLD_NEXT, HOLD_PREV, NEXT, OK, start, throw


def hints(table):
    return [(h.button, h.does) for h in screen(table).hints]


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


def test_the_players_screen_shows_the_order_the_game_starts_with(log):
    table = Table(log, players=["Ann", "Bob"], default_game="dice-poker")
    table.press(OK)
    table.press(NEXT)  # a third player, named by the table
    table.press(HOLD_NEXT)  # Bob starts
    shown = [c.label for c in table.screen().choices]
    table.press(OK)
    assert shown == ["Bob", "Player 3", "Ann"] == list(table.game.players)


def test_train_wreck_shows_the_dice_on_the_table_never_more_than_five(log):
    """After a roll is decided, its dice are either set aside (shown held) or picked up to be rolled again:
    the row must not show the decided roll beside the dice taken from it (it showed eight dice)."""
    table = start(log, "train-wreck")
    throw(table, (1, 1, 1, 2, 6))
    row = table.screen().dice
    assert [(d.value, d.held) for d in row] == [(1, False), (1, False), (1, False), (2, False), (6, False)]
    table.press(OK)  # the triple of 1s is set aside; its confirmation: roll the other two
    assert table.game.phase == Phase.CONFIRM_TRIPLE
    assert [(d.value, d.held) for d in table.screen().dice] == [(1, True)] * 3
    throw(table, (1, 3))  # the 1 shows the triple's value: roll it again; the 3 stays
    assert table.game.phase == Phase.CONFIRM_TRIPLE
    assert sorted((d.value, d.held) for d in table.screen().dice) == [(1, True)] * 3 + [(3, False)]


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


def test_train_wreck_hints_name_the_buttons_that_decide(log, tmp_path):
    """Each hint's button does what it says: a quadruple's choice (train-wreck.txt, Quadruples), a train wreck's."""
    table = start(log, "train-wreck")
    throw(table, (5, 5, 5, 5, 3))
    table.press(OK)  # three 5s set aside; the 5 and the 3 confirm them
    throw(table, (5, 4))
    assert table.game.phase == Phase.QUADRUPLE_CHOICE
    assert hints(table)[:2] == [("OK", "accept"), ("NEXT", "roll them again")]
    table.press(NEXT)
    assert log.events(table.record.id)[-1] == ("reroll", [])
    wreck = start(EventLog(tmp_path / "tw.sqlite"), "train-wreck")
    throw(wreck, (2, 3, 4, 6, 6))
    assert wreck.game.phase == Phase.TRAIN_WRECK
    assert hints(wreck)[:2] == [("OK", "try the salvage"), ("BACK", "end the turn")]


def test_banking_is_hinted_only_when_the_rules_allow_it_with_what_it_scores(log):
    """train-wreck.txt: a first score needs a turn of 35 or more; before that a banked turn scores 0."""
    table = start(log, "train-wreck")
    throw(table, (1, 5, 2, 3, 3))
    assert not [h for h in hints(table) if "bank" in h[1]]  # the set-aside comes first
    for _ in range([c.key for c in table.chooser.choices].index((1, 5))):
        table.press(NEXT)
    table.press(OK)  # 10 + 5 = 15: under 35
    assert ("hold OK", "bank 15, scores 0") in hints(table)
