"""Dice Poker, Pentakubus and Hexakubus: the rulebooks' examples and every ruling of RULINGS.md.

Each test is written so that it fails if the ruling were implemented the other way.
"""

import pytest

from appliance.games.errors import RuleError
from appliance.games.fields import Score
from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules

LEFT, MIDDLE, RIGHT = 0, 1, 2


def new(game, players=("Ann",), **variants):
    return SheetGame.new(sheet_rules(game, variants), players)


def scores(game, dice, **variants):
    """What `dice` (all thrown in one attempt) score in each field, by field number."""
    rules = sheet_rules(game, variants)
    return {f.number: f.score(tuple(dice)).total for f in rules.fields}


def state_of(game):
    return (game.sheets, game.current, game.throw, game.last_entry)


def rejects(game, rule, action, *args):
    before = state_of(game)
    with pytest.raises(RuleError) as error:
        action(*args)
    assert error.value.rule == rule
    assert state_of(game) == before


# --- Dice Poker -----------------------------------------------------------------------------------
def test_dice_poker_rulebook_example():
    # "if the player rolls 1-3-2-4-4, he can get 1 point at the 1st row ... or 8 points at the 4th
    # row ... or 30 points at the 10th row (a small straight)"
    s = scores("dice-poker", (1, 3, 2, 4, 4))
    assert (s[1], s[4], s[10]) == (1, 8, 30)
    assert s[11] == 0 and s[9] == 0 and s[13] == 14


def test_dice_poker_straights():
    for roll in ((1, 2, 3, 4, 6), (2, 3, 4, 5, 5), (6, 5, 4, 3, 1)):
        assert scores("dice-poker", roll)[10] == 30
    assert scores("dice-poker", (1, 2, 3, 5, 6))[10] == 0
    assert scores("dice-poker", (1, 2, 3, 4, 5))[11] == 40 and scores("dice-poker", (6, 2, 3, 4, 5))[11] == 40
    assert scores("dice-poker", (1, 2, 3, 4, 6))[11] == 0


def test_dice_poker_five_of_a_kind_is_not_a_full_house():
    assert scores("dice-poker", (4, 4, 4, 4, 4))[9] == 0
    assert scores("dice-poker", (4, 4, 4, 2, 2))[9] == 25


def test_dice_poker_kinds_score_all_five_dice_and_there_is_no_bonus():
    s = scores("dice-poker", (6, 6, 6, 6, 2))
    assert (s[7], s[8], s[12]) == (26, 26, 0)
    assert scores("dice-poker", (5, 5, 5, 5, 5))[12] == 50
    assert scores("dice-poker", (6, 6, 6, 6, 6))[7] == 30
    rules = sheet_rules("dice-poker")
    assert all(s.threshold is None for s in rules.sections)
    assert all(f.bonus == 0 and f.slam == 0 for f in rules.fields)


def test_dice_poker_has_thirteen_fields_in_any_order():
    game = new("dice-poker").start_throw((1, 1, 1, 1, 1))
    assert len(game.options()) == 13
    game = game.enter(0, 13)  # chance first is allowed
    assert len(game.start_throw((2, 2, 2, 2, 2)).options()) == 12


# --- Pentakubus: fields ----------------------------------------------------------------------------
def test_sums_count_only_the_qualifying_dice():
    s = scores("pentakubus", (1, 2, 4, 5, 6))
    assert (s[7], s[8], s[9], s[10], s[11], s[12]) == (3, 15, 6, 12, 18, 18)


def test_all_in_a_third():
    assert scores("pentakubus", (1, 2, 2, 1, 1))[13] == 7 + 40 + 12
    # "if all dice only show 2 and 3 or maybe 1 and 6, of course they lie in a third as well but
    # this is not evaluated here"
    assert scores("pentakubus", (2, 3, 2, 3, 3))[13] == 0
    assert scores("pentakubus", (1, 6, 1, 6, 1))[13] == 0


def test_highest_scoring_choice_of_dice_counts():
    s = scores("pentakubus", (2, 3, 4, 5, 6))
    assert s[16] == 4 + 5 + 6 + 8  # the best three in a row, no slam on field 16
    assert s[17] == 3 + 4 + 5 + 6 + 15 + 6
    s = scores("pentakubus", (2, 2, 5, 5, 6))
    assert s[19] == 10 + 5 and s[20] == 14 + 10 + 5


def test_combination_fields_include_bigger_ones():
    s = scores("pentakubus", (6, 6, 6, 6, 1))
    assert s[20] == 24 + 10 + 5  # a quadruplet counts as two pairs
    assert s[21] == 18 + 12 + 5  # and as a triplet
    assert s[22] == 0
    s = scores("pentakubus", (3, 3, 3, 3, 3))
    assert s[22] == 15 + 31 + 9 and s[23] == 12 + 38 + 11 and s[24] == 15 + 55 + 15
    assert scores("pentakubus", (2, 2, 4, 4, 4))[20] == 2 + 2 + 4 + 4 + 10 + 5  # a full house counts


def test_grand_slam_by_six_is_worth_100():
    # "the gs6 ... provides a score of 30 + 55 + 15 = 100 points"
    assert scores("pentakubus", (6,) * 5)[24] == 100


def test_no_slam_on_fields_1_to_12_16_and_19():
    rules = sheet_rules("pentakubus")
    assert [f.number for f in rules.fields if f.slam == 0] == list(range(1, 13)) + [16, 19]
    assert {f.number: f.slam for f in rules.fields if f.slam} == {
        13: 12,
        14: 8,
        15: 6,
        17: 6,
        18: 10,
        20: 5,
        21: 5,
        22: 9,
        23: 11,
        24: 15,
    }


# --- Pentakubus: the throw and slams ----------------------------------------------------------------
def options_by_field(game, column=MIDDLE):
    return {o.field: o.score for o in game.options() if o.column == column}


def test_a_held_die_breaks_the_slam():
    game = new("pentakubus").start_throw((6, 6, 6, 2, 3))
    held = game.rethrow([3, 4], [6, 6])  # the three 6s stay, two dice are thrown again
    assert options_by_field(held)[24] == Score(30, 55, 0)
    all_again = game.rethrow([0, 1, 2, 3, 4], [6, 6, 6, 6, 6])
    assert options_by_field(all_again)[24] == Score(30, 55, 15)


def test_slam_with_dice_thrown_in_the_final_attempt_only():
    # the combination's dice all thrown in attempt 2, the held die does not take part
    game = new("pentakubus").start_throw((1, 2, 3, 6, 6)).rethrow([0, 1, 2], [4, 4, 4])
    assert options_by_field(game)[21] == Score(12, 12, 5)
    # a third attempt makes the attempt-2 dice stale
    game = game.rethrow([3], [1])
    assert options_by_field(game)[21] == Score(12, 12, 0)


def test_the_choice_with_the_highest_total_including_slam_counts():
    # 2-3-4-5 thrown in attempt 2 with a held 6: 2345 with slam (14+15+6) beats 3456 without (18+15)
    game = new("pentakubus").start_throw((1, 1, 1, 1, 6)).rethrow([0, 1, 2, 3], [2, 3, 4, 5])
    assert options_by_field(game)[17] == Score(14, 15, 6)


def test_three_attempts_at_most():
    game = new("pentakubus").start_throw((1, 2, 3, 4, 5)).rethrow([0], [6]).rethrow([1], [6])
    rejects(game, "three-attempts", game.rethrow, [2], [6])
    rejects(game, "throw-first", new("pentakubus").rethrow, [0], [1])


def test_dice_are_checked():
    game = new("pentakubus")
    rejects(game, "dice", game.start_throw, (1, 2, 3, 4))
    rejects(game, "dice", game.start_throw, (1, 2, 3, 4, 7))
    hexakubus = new("hexakubus")
    rejects(hexakubus, "dice", hexakubus.start_throw, (0, 1, 2, 3, 4, 5))  # the reader turns 0 into 10


# --- Pentakubus: minor and major -------------------------------------------------------------------
def test_minor_must_not_exceed_major():
    game = new("pentakubus").start_throw((4, 4, 4, 4, 4)).enter(MIDDLE, 12)  # major 20
    game = game.start_throw((5, 5, 5, 5, 5))
    assert options_by_field(game)[11] == Score()  # 25 in minor would exceed major: cancel only
    game = game.enter(LEFT, 1).start_throw((3, 4, 4, 4, 4))
    assert options_by_field(game)[11] == Score(19)
    equal = game.rethrow([0], [4])
    assert options_by_field(equal)[11] == Score(20)


def test_major_must_not_be_below_minor_and_a_cancelled_field_holds_zero():
    game = new("pentakubus").start_throw((5, 5, 5, 5, 1)).enter(RIGHT, 24)  # cancels quintuplet
    game = game.start_throw((4, 4, 4, 4, 4)).enter(MIDDLE, 11)  # minor 20
    game = game.start_throw((3, 3, 3, 3, 3))
    assert options_by_field(game)[12] == Score()  # 15 is below minor
    game = game.enter(RIGHT, 23).start_throw((1, 1, 1, 1, 1)).enter(MIDDLE, 12)  # major cancelled: 0
    assert game.sheets[0].entries[(MIDDLE, 12)] == Score()


# --- Pentakubus: columns ---------------------------------------------------------------------------
def open_in(game, column):
    return sorted(o.field for o in game.options() if o.column == column)


def test_first_throw_has_exactly_28_legal_fields():
    game = new("pentakubus").start_throw((1, 2, 3, 4, 5))
    assert len(game.options()) == 28
    assert open_in(game, LEFT) == [1, 2] and open_in(game, RIGHT) == [23, 24]
    assert open_in(game, MIDDLE) == list(range(1, 25))


def test_hexakubus_first_throw_has_44_legal_fields():
    game = new("hexakubus").start_throw((1, 2, 3, 4, 5, 6))
    assert len(game.options()) == 44


def test_gap_in_an_outer_column_must_be_filled_first():
    game = new("pentakubus").start_throw((1, 2, 3, 4, 5)).enter(LEFT, 2)  # skips field 1: a gap
    game = game.start_throw((1, 2, 3, 4, 5))
    assert open_in(game, LEFT) == [1]
    rejects(game, "column-order", game.enter, LEFT, 3)
    game = game.enter(LEFT, 1).start_throw((1, 2, 3, 4, 5))
    assert open_in(game, LEFT) == [3, 4]


def test_right_column_fills_bottom_up_with_the_same_rule():
    game = new("pentakubus").start_throw((6, 6, 6, 6, 6)).enter(RIGHT, 23)  # skips 24
    game = game.start_throw((1, 1, 1, 1, 1))
    assert open_in(game, RIGHT) == [24]
    game = game.enter(RIGHT, 24).start_throw((1, 1, 1, 1, 1))
    assert open_in(game, RIGHT) == [21, 22]


def test_a_filled_field_takes_no_second_entry():
    game = new("pentakubus", ("Ann", "Bob")).start_throw((1, 2, 3, 4, 5)).enter(MIDDLE, 5)
    game = game.start_throw((1, 1, 1, 1, 1)).enter(MIDDLE, 5)  # Bob's own sheet: fine
    game = game.start_throw((5, 5, 5, 5, 5))
    rejects(game, "one-entry-per-field", game.enter, MIDDLE, 5)


# --- corrections, turns, end of game ---------------------------------------------------------------
def test_correction_until_the_next_throw_starts():
    game = new("pentakubus", ("Ann", "Bob")).start_throw((6, 6, 6, 6, 1)).enter(MIDDLE, 1)  # slip
    assert game.current == 1 and game.sheets[0].entries[(MIDDLE, 1)] == Score(1)
    game = game.correct(MIDDLE, 23)  # Ann meant the quadruplet
    assert (MIDDLE, 1) not in game.sheets[0].entries
    assert game.sheets[0].entries[(MIDDLE, 23)] == Score(24, 38, 11)
    assert game.current == 1
    rejects(game, "column-order", game.correct, LEFT, 5)
    game = game.start_throw((1, 2, 3, 4, 5))  # Bob's dice leave the cup: Ann's entry is final
    rejects(game, "corrections", game.correct, MIDDLE, 24)


def test_each_throw_ends_with_exactly_one_entry():
    game = new("dice-poker").start_throw((1, 2, 3, 4, 5))
    rejects(game, "one-entry-per-throw", game.start_throw, (1, 2, 3, 4, 5))
    fresh = new("dice-poker")
    rejects(fresh, "throw-first", fresh.enter, 0, 1)


def test_one_to_eight_players():
    rules = sheet_rules("dice-poker")
    assert len(SheetGame.new(rules, [f"P{i}" for i in range(8)]).players) == 8
    for count in (0, 9):
        with pytest.raises(RuleError) as error:
            SheetGame.new(rules, [f"P{i}" for i in range(count)])
        assert error.value.rule == "players"


def test_end_of_game_and_ranking_with_a_tie():
    game = new("dice-poker", ("Ann", "Bob", "Cy"))
    for turn in range(13 * 3):
        player_field = turn // 3 + 1
        dice = (6, 6, 6, 6, 6) if turn % 3 == 1 else (1, 1, 1, 1, 1)
        game = game.start_throw(dice).enter(0, player_field)
    assert game.is_over
    rejects(game, "end-of-game", game.start_throw, (1, 2, 3, 4, 5))
    # Ann and Cy: 5 + 0*5 + 5 + 5 + 0 + 0 + 0 + 50 + 5 = 70; Bob: 30 + 30 + 30 + 50 + 30 = 170
    assert game.ranking == ((1, "Bob", 170), (2, "Ann", 70), (2, "Cy", 70))


def test_section_bonuses_are_per_column():
    game = new("pentakubus")
    for k in range(1, 7):  # four of each value in the left column: 4 + 8 + ... + 24 = 84
        game = game.start_throw((k, k, k, k, 1 if k != 1 else 2)).enter(LEFT, k)
    sheet = game.sheets[0]
    section_a = sheet.rules.sections[0]
    assert sheet.section_entries(LEFT, section_a) == 84
    assert sheet.section_bonus(LEFT, section_a) == 60
    assert sheet.section_bonus(MIDDLE, section_a) == 0
    assert sheet.total == 84 + 60


# --- Hexakubus -------------------------------------------------------------------------------------
def test_hexakubus_ten_counts_ten_and_sections():
    s = scores("hexakubus", (10, 10, 1, 3, 5, 7))
    assert s[10] == 20 and s[15] == 27 and s[16] == 16 and s[17] == 20 and s[20] == 36


def test_hexakubus_sum_field_needs_32_to_34():
    assert scores("hexakubus", (10, 10, 10, 1, 1, 1))[18] == 33
    assert scores("hexakubus", (10, 10, 10, 1, 1, 2))[18] == 34
    assert scores("hexakubus", (10, 10, 10, 2, 2, 1))[18] == 0  # 35 is out of range


def test_hexakubus_wrap_around_straights_and_the_ten_without_a_nine():
    giant = (8, 9, 10, 1, 2, 3)
    assert scores("hexakubus", giant)[30] == 33 + 70
    assert scores("hexakubus", giant, wrap="off")[30] == 0
    # 10-1-2 is the only run: the 10 counts 0 without a 9 in the run
    assert scores("hexakubus", (10, 1, 2, 5, 5, 7))[26] == 0 + 1 + 2 + 10
    assert scores("hexakubus", (10, 1, 2, 5, 5, 7), wrap="off")[26] == 0
    # 9-10-1 holds the 9: the 10 counts 10
    assert scores("hexakubus", (9, 10, 1, 4, 4, 6))[26] == 9 + 10 + 1 + 10


def test_hexakubus_double_short_straight_uses_all_six_dice():
    assert scores("hexakubus", (1, 2, 3, 2, 3, 4))[27] == 15 + 60
    assert scores("hexakubus", (1, 2, 3, 7, 8, 9))[27] == 30 + 60
    assert scores("hexakubus", (1, 2, 3, 4, 5, 6))[27] == 21 + 60  # a giant straight is two runs
    assert scores("hexakubus", (1, 2, 3, 4, 8, 8))[27] == 0  # a four-run is not two three-runs


def test_hexakubus_cross_combination_counts_each_die_once():
    # run 3-4-5, a pair of 4s and a pair of 9s: every die takes part, the 4 in both only once
    assert scores("hexakubus", (3, 4, 5, 4, 9, 9))[25] == 3 + 4 + 4 + 5 + 9 + 9 + 20
    assert scores("hexakubus", (3, 4, 5, 7, 9, 1))[25] == 0  # no multiple
    assert scores("hexakubus", (9, 10, 1, 1, 5, 6))[25] == 0  # no wrap-around in the cross


def test_hexakubus_multiples():
    s = scores("hexakubus", (2, 2, 2, 5, 5, 5))
    assert s[33] == 0  # three + three is not three pairs
    assert s[36] == 21 + 80
    assert s[35] == 5 * 3 + 2 * 2 + 40  # the best five dice of three + three
    s = scores("hexakubus", (7, 7, 7, 7, 3, 3))
    assert s[33] == 34 + 60 and s[38] == 34 + 80 and s[32] == 28 + 20
    s = scores("hexakubus", (4,) * 6)
    assert (s[33], s[35], s[36], s[38], s[39], s[40]) == (84, 60, 104, 104, 110, 124)


def test_hexakubus_section_b_bonus():
    rules = sheet_rules("hexakubus")
    assert [(s.name, s.threshold, s.bonus) for s in rules.sections][1] == ("B", 320, 90)
    assert rules.sections[0].threshold is None  # no section A bonus unless the variant sets one
    assert all(f.slam == 0 for f in rules.fields)  # no slams unless the variant sets them


def test_rules_prints_each_variant_as_variant_spells_it(capsys):
    """What `dicetable rules` shows can be copied into --variant (and the settings file) and means the same."""
    from appliance.cli import main
    from appliance.games.variants import VARIANTS, resolve

    for game, variants in VARIANTS.items():
        given = {"slam": "21:12,30:10", "a-bonus": "200:50", "wrap": "off", "goal": "750"}
        args = [f"{v.key}={given[v.key]}" for v in variants]
        assert main(["rules", game, *sum((["--variant", a] for a in args), [])]) == 0
        shown = [
            line.split()[1].rstrip(":")
            for line in capsys.readouterr().out.splitlines()
            if line.startswith("  variant ")
        ]
        assert shown == args  # each printed as given: the same spelling parses back to the same value
    assert main(["rules", "hexakubus"]) == 0
    defaults = dict(
        line.split()[1].rstrip(":").split("=", 1)
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("  variant ")
    )
    assert defaults == {"wrap": "on", "a-bonus": "none", "slam": "none"}
    assert resolve("hexakubus", defaults) == resolve("hexakubus")
