"""The table's words (appliance.table_words): what keeps a reading from being taken, a field in a list, dice."""

import pytest

from appliance.games.fields import Score
from appliance.games.sheet_game import Option
from appliance.games.tables import sheet_rules
from appliance.table_words import DECIDE_FIRST, field_label, reading_problem, values
from vision.types import KEEP, OUTSIDE, ROLL, Die, Reading


def tray(*dice):
    return Reading(tuple(dice), 1280, 960)


def die(value, zone=ROLL, kind="d6", cocked=False, x=0):
    return Die(kind, value, (x, 0, x + 40, 40), zone, 0.9, cocked)


@pytest.mark.parametrize(
    "dice, says",
    [
        ((die(None, cocked=True), die(3)), "1 die does not lie flat: throw it again"),
        ((die(None, cocked=True), die(None, cocked=True, x=60)), "2 dice do not lie flat: throw them again"),
        ((die(3, OUTSIDE), die(4, OUTSIDE, x=60), die(5, KEEP)), "2 dice are outside the tray: throw them again"),
        ((die(3), die(7, kind="d10", x=60)), "Dice Poker is played with d6s, and I see 1 d10"),
        ((die(3), die(5, KEEP, x=60)), ""),
    ],
)
def test_what_keeps_a_reading_from_being_taken(dice, says):
    assert reading_problem(tray(*dice), "dice-poker") == says


def test_a_field_in_a_list_names_its_column_when_the_sheet_has_several():
    """pentakubus: three columns (left, middle, right), field 23 the quadruplet (RULINGS.md); dice-poker: one column,
    field 13 Chance (dice-poker.txt)."""
    score = Score(0)
    assert field_label(sheet_rules("pentakubus"), Option(1, 23, score)) == "M 23 quadruplet"
    assert field_label(sheet_rules("dice-poker"), Option(0, 13, score)) == "13 chance"


def test_dice_are_said_by_their_values():
    assert values([die(6), 2, die(1)]) == "6 2 1" and values([]) == ""


def test_a_decision_awaited_is_said_with_the_buttons_that_take_it():
    """What the table says before a roll names the buttons that decide (table.DECISION_PRESS)."""
    from appliance.table import DECISION_PRESS

    for first, text in DECIDE_FIRST.items():
        assert f"({DECISION_PRESS[first][0]})" in text
