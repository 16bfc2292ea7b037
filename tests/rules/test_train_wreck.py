"""Train Wreck's turn machine, ruling by ruling (../shared/rules/RULINGS.md, Train Wreck section).

Expected values are the rulebook's own tables. Each test names the ruling it pins down and is built
so that the other reading of the ruling would fail it.
"""

import ast
import copy
import json
from itertools import product
from pathlib import Path

import pytest

from appliance.games import train_wreck as tw
from appliance.games.errors import RuleError
from appliance.games.train_wreck import Phase, TrainWreckGame, roll_score, set_aside_options
from appliance.session import new_game


def game(players=("Ann", "Bob"), goal=1000):
    """A new game in which the first player won the roll-off."""
    g = TrainWreckGame.new(players, goal)
    return g.roll_off((6,) + (1,) * (len(players) - 1)) if g.phase == Phase.ROLL_OFF else g


def player(g):
    """Whose turn it is."""
    return g.players[g.current]


def steps(g, *pairs):
    """Roll and set aside: pairs of (roll, kept)."""
    for roll, kept in pairs:
        g = g.roll(roll).set_aside(kept)
    return g


def banked(g, *pairs):
    return steps(g, *pairs).bank()


def rejects(g, rule, action, *args):
    """The action is refused naming `rule`, and the game is exactly as it was."""
    before = copy.deepcopy(g)
    with pytest.raises(RuleError) as err:
        getattr(g, action)(*args)
    assert err.value.rule == rule, err.value
    assert g == before
    return err.value


def wreck(g, roll=(2, 3, 4, 6, 6)):
    """A scoreless roll of the dice in hand (2s, 3s, 4s, 6s, no triple)."""
    g = g.roll(roll[: g.expected_dice])
    assert g.phase == Phase.TRAIN_WRECK
    return g


# Turns that bank exactly these points (singles only, so no confirmation gets in the way).
T20 = [((1, 1, 2, 3, 4), (1, 1))]
T30 = [((1, 1, 5, 5, 2), (1, 1, 5, 5))]
T35 = [((1, 1, 5, 2, 3), (1, 1, 5)), ((1, 2), (1,))]
T40 = [((1, 1, 2, 3, 4), (1, 1)), ((1, 1, 6), (1, 1))]
# 1010: a quintuple of 1s (1000), all five rolled again, a 1 kept.
T1010 = [((1, 1, 1, 1, 1), (1, 1, 1, 1, 1)), ((1, 2, 3, 4, 6), (1,))]
T1020 = [((1, 1, 1, 1, 1), (1, 1, 1, 1, 1)), ((1, 1, 2, 3, 4), (1, 1))]


# ------------------------------------------------------------------ ways to score (one roll)


@pytest.mark.parametrize("value, points", [(1, 100), (6, 60), (5, 50), (4, 40), (3, 30), (2, 20)])
def test_triples_table(value, points):
    others = [v for v in (2, 3, 4, 6) if v != value][:2]
    roll = (value,) * 3 + tuple(others)
    (option,) = set_aside_options(roll)
    assert (option.dice, option.points, option.combo) == ((value,) * 3, points, "triple")


@pytest.mark.parametrize("value, points", [(1, 250), (6, 150), (5, 125), (4, 100), (3, 75), (2, 50)])
def test_quadruples_table(value, points):
    other = 2 if value != 2 else 3
    (option,) = set_aside_options((value,) * 4 + (other,))
    assert (option.points, option.combo) == (points, "quadruple")
    assert option.dice == (value,) * 3  # three dice are set aside, the fourth confirms


@pytest.mark.parametrize("value, points", [(1, 1000), (6, 600), (5, 500), (4, 400), (3, 300), (2, 200)])
def test_quintuples_table(value, points):
    (option,) = set_aside_options((value,) * 5)
    assert (option.dice, option.points, option.combo) == ((value,) * 5, points, "quintuple")


@pytest.mark.parametrize("roll", [(1, 2, 3, 4, 5), (6, 4, 2, 5, 3)])
def test_straight_scores_150(roll):
    assert roll_score(roll) == 150
    assert set_aside_options(roll)[0].dice == tuple(sorted(roll))


@pytest.mark.parametrize("roll, best", [((3, 4, 5, 6, 1), 15), ((4, 5, 6, 1, 2), 15), ((1, 2, 3, 4, 6), 10)])
def test_no_wrap_around_straight(roll, best):
    assert roll_score(roll) == best
    assert all(o.combo == "singles" for o in set_aside_options(roll))


def test_single_one_scores_10_and_single_five_scores_5():
    options = {o.dice: o.points for o in set_aside_options((1, 5, 2, 3, 3))}
    assert options == {(1, 5): 15, (1,): 10, (5,): 5}


def test_train_wreck_share_of_five_dice_rolls():
    # Scoreless five-dice rolls use only 2, 3, 4, 6 (both straights hold a 5) with no value three
    # times: 4^5 - 4 * (10*9 + 5*3 + 1) = 1024 - 424 = 600 of 7,776.
    assert sum(roll_score(r) == 0 for r in product(range(1, 7), repeat=5)) == 600


# ------------------------------------------------------------------ playing and scoring


def test_turn_starts_with_all_five_dice_and_cannot_bank():
    g = game()
    assert (g.phase, g.expected_dice, player(g), g.can_bank) == (Phase.ROLL, 5, "Ann", False)
    assert g.must_roll and g.prompt == "roll all five dice"
    rejects(g, "bank", "bank")
    rejects(g, "dice-count", "roll", (1, 2, 3, 4))


def test_set_aside_at_least_one_scoring_die_and_scoring_dice_may_be_rerolled():
    g = game().roll((1, 1, 5, 3, 4))
    rejects(g, "set-aside", "set_aside", ())
    rejects(g, "scoring-dice", "set_aside", (1, 3))
    rejects(g, "set-aside", "set_aside", (5, 5))  # only one 5 in the roll
    rejects(g, "set-aside", "bank")
    rejects(g, "set-aside", "roll", (2, 2, 2, 2))
    g = g.set_aside((1,))  # the other 1 and the 5 are thrown again
    assert (g.turn_points, g.expected_dice, g.can_bank) == (10, 4, True)
    assert "bank 10" in g.prompt


def test_rulebook_note_keep_one_1_of_two_to_reroll_four_dice():
    g = game().roll((1, 1, 3, 4, 6))
    both, one = g.set_aside((1, 1)), g.set_aside((1,))
    assert (both.turn_points, both.expected_dice) == (20, 3)
    assert (one.turn_points, one.expected_dice) == (10, 4)


def test_rulebook_note_quintuple_of_1s_then_a_scoreless_roll_scores_0():
    g = wreck(steps(game(), ((1, 1, 1, 1, 1), (1, 1, 1, 1, 1))))
    assert g.turn_points == 1000
    g = g.decline_salvage()
    assert g.scores == (0, 0) and g.history[-1].points == 0


def test_scoreless_roll_is_a_train_wreck_and_loses_the_turn():
    g = steps(game(), ((1, 2, 3, 4, 6), (1,)))
    g = wreck(g, (2, 3, 4, 6))
    assert g.turn_points == 10  # still at stake for a salvage
    rejects(g, "train-wreck", "bank")
    rejects(g, "train-wreck", "roll", (1, 2, 3, 4, 5))
    g = g.decline_salvage()
    assert g.scores == (0, 0) and player(g) == "Bob"
    assert g.history[-1] == tw.TurnResult(0, 0, 0, "train wreck")


def test_all_five_scored_must_roll_all_five_again():
    g = steps(game(), ((1, 1, 5, 5, 2), (1, 1, 5, 5)), ((5,), (5,)))
    assert (g.turn_points, g.expected_dice, g.can_bank) == (35, 5, False)
    assert g.must_roll_reason == "all five dice scored"
    rejects(g, "all-five-scored", "bank")
    rejects(g, "all-five-scored", "roll", (1,))
    g = g.roll((1, 2, 3, 4, 6)).set_aside((1,))
    assert (g.turn_points, g.expected_dice, g.can_bank) == (45, 4, True)


def test_straight_taken_whole_forces_all_five_or_only_its_singles_kept():
    g = game().roll((3, 1, 4, 5, 2))
    rejects(g, "straight", "set_aside", (2, 3))
    whole = g.set_aside((1, 2, 3, 4, 5))
    assert (whole.turn_points, whole.expected_dice, whole.can_bank) == (150, 5, False)
    one = g.set_aside((1,))  # the rulebook's inattentive player: the straight is gone
    assert (one.turn_points, one.expected_dice) == (10, 4)


def test_quintuple_scores_and_all_five_roll_again_even_showing_its_value():
    g = steps(game(), ((6, 6, 6, 6, 6), (6, 6, 6, 6, 6)))
    assert (g.turn_points, g.expected_dice, g.can_bank) == (600, 5, False)
    g = g.roll((6, 6, 1, 2, 3)).set_aside((1,))  # 6s may show again: no confirmation after a quintuple
    assert g.turn_points == 610


def test_combination_of_a_kind_must_be_set_aside_whole():
    g = game().roll((6, 6, 6, 6, 6))
    rejects(g, "quintuple", "set_aside", (6, 6, 6))
    g = game().roll((3, 3, 3, 3, 1))
    rejects(g, "quadruple-confirmation", "set_aside", (1,))
    rejects(g, "quadruple-confirmation", "set_aside", (3, 3, 3, 3))


# ------------------------------------------------------------------ triple confirmation


def test_triple_other_dice_are_rolled_again_even_1s_and_5s():
    g = game().roll((4, 4, 4, 1, 5))
    assert [o.dice for o in g.options] == [(4, 4, 4)]
    rejects(g, "triple-confirmation", "set_aside", (1,))
    rejects(g, "triple-confirmation", "set_aside", (1, 4, 4, 4))
    g = g.set_aside((4, 4, 4))
    assert (g.phase, g.expected_dice, g.turn_points) == (Phase.CONFIRM_TRIPLE, 2, 0)
    assert g.must_roll_reason == "a triple must be confirmed"
    assert g.prompt == "confirm the triple of 4s: roll 2 dice (roll 1 of 10)"
    rejects(g, "triple-confirmation", "bank")
    rejects(g, "triple-confirmation", "roll", (1, 2, 3))


def test_triple_confirmed_singles_score_with_it():
    g = steps(game(), ((4, 4, 4, 2, 3), (4, 4, 4))).roll((1, 3))
    assert (g.phase, g.turn_points, g.expected_dice, g.can_bank) == (Phase.ROLL, 50, 1, True)


def test_triple_die_showing_the_value_is_rolled_again_the_other_stays():
    g = steps(game(), ((4, 4, 4, 2, 3), (4, 4, 4))).roll((4, 5))
    assert (g.phase, g.expected_dice, g.turn_points) == (Phase.CONFIRM_TRIPLE, 1, 0)
    rejects(g, "triple-confirmation", "roll", (5, 3))  # the 5 stays
    g = g.roll((3,))
    assert (g.phase, g.turn_points, g.expected_dice) == (Phase.ROLL, 45, 1)


def test_triple_single_die_showing_the_value_must_be_rolled_again():
    # A triple in four dice is confirmed by one die; the two-dice exception does not apply.
    g = steps(game(), ((1, 2, 3, 4, 6), (1,)), ((3, 3, 3, 6), (3, 3, 3)))
    assert g.expected_dice == 1
    g = g.roll((3,))
    assert (g.phase, g.expected_dice) == (Phase.CONFIRM_TRIPLE, 1)
    g = g.roll((5,))
    assert (g.turn_points, g.expected_dice, g.can_bank) == (45, 5, False)  # all five scored


def test_triple_confirmation_without_1_or_5_is_a_train_wreck():
    g = steps(game(), ((1, 2, 3, 4, 6), (1,)), ((6, 6, 6, 2), (6, 6, 6))).roll((2,))
    assert (g.phase, g.turn_points) == (Phase.TRAIN_WRECK, 10)  # the triple never counted
    assert g.decline_salvage().history[-1].points == 0


def test_triple_of_the_last_three_dice_needs_no_confirmation():
    g = steps(game(), ((1, 5, 2, 3, 4), (1, 5)), ((2, 2, 2), (2, 2, 2)))
    assert (g.phase, g.turn_points, g.expected_dice, g.can_bank) == (Phase.ROLL, 35, 5, False)


@pytest.mark.parametrize("value, points", [(4, 40), (2, 20), (6, 60), (3, 30)])
def test_triple_exception_two_dice_showing_the_value_stay_player_may_bank(value, points):
    others = tuple(v for v in (2, 3, 4, 6) if v != value)[:2]
    g = steps(game(), ((value,) * 3 + others, (value,) * 3))
    g = g.roll((value, value))
    assert (g.phase, g.turn_points, g.expected_dice, g.can_bank) == (Phase.ROLL, points, 5, True)
    assert g.bank().scores == (points if points >= 35 else 0, 0)


@pytest.mark.parametrize("value, points", [(1, 120), (5, 60)])
def test_triple_exception_with_1s_or_5s_scores_all_five_and_forces_all_five(value, points):
    g = steps(game(), ((value, value, value, 2, 3), (value,) * 3)).roll((value, value))
    assert (g.phase, g.turn_points, g.expected_dice, g.can_bank) == (Phase.ROLL, points, 5, False)
    rejects(g, "all-five-scored", "bank")


def test_triple_confirmation_at_most_10_rolls_then_the_turn_scores_0():
    g = steps(game(), ((1, 2, 3, 4, 6), (1,)), ((4, 4, 4, 6), (4, 4, 4)))
    for n in range(9):
        g = g.roll((4,))
        assert g.phase == Phase.CONFIRM_TRIPLE, n
    assert g.prompt.endswith("(roll 10 of 10)")
    confirmed = g.roll((5,))  # the tenth roll may still confirm
    assert confirmed.turn_points == 10 + 40 + 5
    failed = g.roll((4,))
    assert player(failed) == "Bob" and failed.phase == Phase.ROLL
    assert failed.history[-1] == tw.TurnResult(0, 0, 0, "confirmation failed")


def test_triple_ten_rolls_count_every_confirmation_roll():
    g = steps(game(), ((4, 4, 4, 2, 3), (4, 4, 4))).roll((4, 6))  # first roll: the 6 stays
    for _ in range(8):
        g = g.roll((4,))
    assert g.phase == Phase.CONFIRM_TRIPLE  # 9 rolls so far
    assert g.roll((4,)).history[-1].how == "confirmation failed"


# ------------------------------------------------------------------ quadruple confirmation


def quad(value=3, other=2):
    return steps(game(), ((value,) * 4 + (other,), (value,) * 3))


def test_quadruple_three_set_aside_two_rolled_to_confirm():
    g = quad()
    assert (g.phase, g.expected_dice, g.turn_points) == (Phase.CONFIRM_QUADRUPLE, 2, 0)
    rejects(g, "quadruple-confirmation", "bank")
    rejects(g, "quadruple-confirmation", "accept")


def test_quadruple_die_showing_value_may_be_accepted():
    g = quad().roll((3, 5))
    assert g.phase == Phase.QUADRUPLE_CHOICE and g.expected_dice == 0
    rejects(g, "quadruple-confirmation", "roll", (3,))
    g = g.accept()
    assert (g.phase, g.turn_points, g.expected_dice, g.can_bank) == (Phase.ROLL, 75 + 5, 1, True)


def test_quadruple_die_showing_value_may_be_rolled_again_others_stay():
    g = quad().roll((3, 5)).reroll()
    assert (g.phase, g.expected_dice) == (Phase.CONFIRM_QUADRUPLE, 1)
    g = g.roll((1,))
    assert (g.turn_points, g.expected_dice, g.can_bank) == (75 + 5 + 10, 5, False)  # all five scored


def test_quadruple_roll_showing_the_value_is_allowed_unlike_a_triple():
    g = quad(4).roll((4, 1))  # a triple would have to roll the 4 again; here it may stay
    assert g.accept().turn_points == 100 + 10


def test_quadruple_roll_without_the_value_must_be_accepted():
    g = quad().roll((5, 6))
    assert (g.phase, g.turn_points, g.expected_dice) == (Phase.ROLL, 80, 1)
    rejects(g, "quadruple-confirmation", "accept")


def test_quadruple_accepted_dice_scoring_nothing_is_a_train_wreck():
    assert quad().roll((2, 6)).phase == Phase.TRAIN_WRECK
    assert quad().roll((3, 6)).accept().phase == Phase.TRAIN_WRECK


def test_quadruple_of_1s_accepted_1_scores_as_a_single():
    g = quad(1, 4).roll((1, 4)).accept()
    assert (g.turn_points, g.expected_dice) == (260, 1)


def test_quadruple_reroll_only_dice_showing_the_value():
    g = quad().roll((3, 3))
    rejects(g, "quadruple-confirmation", "reroll", (2,))
    rejects(g, "quadruple-confirmation", "reroll", (3, 3, 3))
    g = g.reroll((3,))  # the other 3 is accepted
    assert g.expected_dice == 1
    assert g.roll((5,)).turn_points == 75 + 5


def test_quadruple_at_most_10_rolls_then_the_dice_are_accepted():
    g = quad().roll((3, 3))
    for n in range(8):
        g = g.reroll().roll((3, 3))
        assert g.phase == Phase.QUADRUPLE_CHOICE, n
    g = g.reroll().roll((3, 3))  # the tenth roll: accepted as it lies, 3s score nothing
    assert g.phase == Phase.TRAIN_WRECK
    g5 = quad(5, 2).roll((5, 2)).reroll()  # the 2 stays
    for _ in range(8):
        g5 = g5.roll((5,))
        assert g5.phase == Phase.QUADRUPLE_CHOICE
        g5 = g5.reroll()
    g5 = g5.roll((5,))  # the tenth roll: its 5 must be accepted and scores as a single
    assert (g5.phase, g5.turn_points, g5.expected_dice) == (Phase.ROLL, 125 + 5, 1)


# ------------------------------------------------------------------ sequential salvage

SALVAGE_CASES = [
    ((1, 2, 3, 4, 5), 300),
    ((5, 4, 3, 2, 1), 300),
    ((2, 3, 4, 5, 6), 300),
    ((6, 5, 4, 3, 2), 300),
    ((1,) * 5, 750),
    ((6,) * 5, 450),
    ((5,) * 5, 375),
    ((4,) * 5, 300),
    ((3,) * 5, 225),
    ((2,) * 5, 150),
]


def salvage(g, sequence, filler=6):
    """Play a salvage keeping `sequence` one die per roll (the other dice show `filler` or so)."""
    g = g.start_salvage()
    for i, value in enumerate(sequence):
        n = 5 - i
        assert g.phase == Phase.SALVAGE_ROLL and g.expected_dice == n
        g = g.roll((value,) + (filler,) * (n - 1))
        g = g.set_aside((value,))
    return g


@pytest.mark.parametrize("sequence, points", SALVAGE_CASES)
def test_sequential_salvage_each_way(sequence, points):
    g = steps(game(), ((1, 2, 3, 4, 6), (1,)))
    g = wreck(g, (2, 3, 4, 6))
    filler = next(v for v in (6, 2, 3, 4) if v not in sequence[1:])
    g = salvage(g, sequence, filler)
    # earlier points kept, salvage added, all five rolled again
    assert (g.phase, g.turn_points, g.expected_dice, g.can_bank) == (Phase.ROLL, 10 + points, 5, False)
    assert g.roll((1, 2, 3, 4, 6)).set_aside((1,)).bank().scores == (20 + points, 0)


def test_salvage_roll_missing_the_needed_value_ends_the_turn_with_0():
    g = wreck(steps(game(), ((1, 2, 3, 4, 6), (1,))), (2, 3, 4, 6)).start_salvage()
    g = g.roll((2, 6, 6, 6, 6)).set_aside((2,))  # 2: a 2 (quintuple) or a 3 (2->6) continues
    assert "need a 2 or 3" in g.prompt
    g = g.roll((4, 5, 6, 1))
    assert (player(g), g.scores) == ("Bob", (0, 0))
    assert g.history[-1] == tw.TurnResult(0, 0, 0, "salvage failed")


def test_salvage_only_in_order_and_no_other_scoring_counts():
    g = wreck(game()).start_salvage()
    rejects(g, "sequential-salvage", "bank")
    g = g.roll((1, 1, 1, 5, 5))  # a triple of 1s counts for nothing now
    rejects(g, "sequential-salvage", "set_aside", (1, 1, 1))
    rejects(g, "sequential-salvage", "set_aside", (1, 5))
    g = g.set_aside((1,))
    g = g.roll((3, 5, 6, 6))  # 1 then 3 is no straight (no gaps), and 1-5 only 1->5
    assert g.history[-1].how == "salvage failed"
    g = wreck(game()).start_salvage().roll((3, 2, 2, 2, 2)).set_aside((3,))
    assert g.prompt.endswith("need a 3")  # no straight starts at 3: 3-4-5-6-1 would wrap
    assert g.roll((4, 4, 2, 2)).history[-1].how == "salvage failed"


def test_salvage_after_a_completed_salvage_and_declining_it():
    g = salvage(wreck(game()), (2, 2, 2, 2, 2), filler=3)
    assert g.turn_points == 150
    g = wreck(g)
    assert g.turn_points == 150
    assert g.decline_salvage().history[-1] == tw.TurnResult(0, 0, 0, "train wreck")


# ------------------------------------------------------------------ getting on the scoreboard


def test_getting_on_the_scoreboard_30_then_40():
    g = banked(game(), *T30)
    assert g.scores == (0, 0) and g.on_scoreboard == (False, False)
    assert g.history[-1] == tw.TurnResult(0, 30, 0, "banked")
    g = wreck(g).decline_salvage()  # Bob
    g = banked(g, *T40)
    assert g.scores == (40, 0) and g.on_scoreboard == (True, False)
    g = wreck(g).decline_salvage()
    g = banked(g, *T20)  # once on the scoreboard every banked turn counts
    assert g.scores == (60, 0)


def test_banking_below_35_is_allowed_but_said_to_score_0():
    g = steps(game(), *T30)
    assert g.can_bank and g.bank_counts == 0 and "scores 0" in g.prompt and "35" in g.prompt
    g = banked(game(), *T40)
    g = wreck(g).decline_salvage()  # Bob
    g = steps(g, *T20)  # Ann is on the scoreboard: her 20 would count
    assert g.bank_counts == 20 and "scores 0" not in g.prompt


def test_getting_on_the_scoreboard_exactly_35():
    g = banked(game(), *T35)
    assert g.scores == (35, 0) and g.on_scoreboard[0]


# ------------------------------------------------------------------ goal and the end of the game


def pass_turn(g):
    return wreck(g).decline_salvage()


@pytest.mark.parametrize("goal", [1000, 750, 500])
def test_goal_variants(goal):
    assert game(goal=goal).goal == goal


@pytest.mark.parametrize("goal", [0, 600, 1001, 250])
def test_goal_must_be_a_variant(goal):
    with pytest.raises(RuleError) as err:
        game(goal=goal)
    assert err.value.rule == "goal"


def test_reaching_the_goal_ends_when_play_comes_back():
    g = banked(game(), *T1010)
    assert not g.is_over and player(g) == "Bob"
    g = banked(g, *T40)  # Bob does not catch up
    assert g.is_over and g.winners == ("Ann",) and g.phase == Phase.OVER
    assert g.ranking == ((1, "Ann", 1010), (2, "Bob", 40))
    assert "Ann wins" in g.prompt
    rejects(g, "game-over", "roll", (1, 2, 3, 4, 5))
    rejects(g, "game-over", "bank")


def test_end_game_catch_up_leader_gets_another_turn():
    g = banked(game(), *T1010)
    g = banked(g, *T1020)  # Bob passes Ann
    assert not g.is_over and player(g) == "Ann"
    g = pass_turn(g)  # Ann fails to catch up: play comes back to Bob
    assert g.is_over and g.winners == ("Bob",)


def test_end_game_back_and_forth():
    g = banked(banked(game(), *T1010), *T1020)
    g = banked(g, *T1020)  # Ann 2030 passes Bob's 1020
    assert not g.is_over and player(g) == "Bob"
    g = pass_turn(g)
    assert g.is_over and g.winners == ("Ann",)


def test_tie_at_the_top_all_win():
    g = banked(game(("Ann", "Bob", "Cy")), *T1010)
    g = banked(g, *T1010)  # Bob ties: Bob is now the one play must come back to
    g = pass_turn(g)  # Cy
    assert not g.is_over
    g = pass_turn(g)  # Ann may still pass Bob, but does not
    assert g.is_over and g.winners == ("Ann", "Bob")
    assert g.ranking == ((1, "Ann", 1010), (1, "Bob", 1010), (3, "Cy", 0))


def test_reaching_the_goal_below_the_top_score_does_not_extend_the_game():
    g = banked(game(("Ann", "Bob", "Cy")), *T1020)
    g = banked(g, *T1010)  # Bob is over the goal but below Ann
    g = pass_turn(g)
    assert g.is_over and g.winners == ("Ann",)


def test_after_a_later_player_reaches_the_goal_everyone_else_plays_once_more():
    g = banked(banked(game(("Ann", "Bob", "Cy")), *T40), *T1010)  # Ann 40, Bob 1010
    g = pass_turn(g)  # Cy
    assert not g.is_over and player(g) == "Ann"
    g = pass_turn(g)  # Ann; play comes back to Bob
    assert g.is_over and g.winners == ("Bob",) and player(g) == "Bob"


def test_a_turn_that_does_not_count_reaches_nothing():
    g = game(goal=500)
    g = banked(g, ((5, 5, 5, 5, 5), (5, 5, 5, 5, 5)), ((1, 2, 3, 4, 6), (1,)))
    assert g.scores == (510, 0) and not g.is_over
    g = banked(g, *T30)  # Bob not on the scoreboard: his 30 counts 0
    assert g.is_over and g.winners == ("Ann",)


def test_one_player_game_ends_on_reaching_the_goal():
    g = TrainWreckGame.new(["Solo"], goal=500)
    assert g.phase == Phase.ROLL  # no roll-off for one player
    g = banked(g, *T1010)
    assert g.is_over and g.winners == ("Solo",)
    one_thousand = banked(
        TrainWreckGame.new(["Solo"], goal=1000), ((5, 5, 5, 5, 5), (5, 5, 5, 5, 5)), ((1, 2, 3, 4, 6), (1,))
    )
    assert not one_thousand.is_over  # 510 is short of the default goal


# ------------------------------------------------------------------ starting out


def test_roll_off_highest_starts_then_order_of_the_players():
    g = TrainWreckGame.new(["Ann", "Bob", "Cy"])
    assert (g.phase, g.expected_dice) == (Phase.ROLL_OFF, 3)
    rejects(g, "starting-out", "roll", (1, 2, 3, 4, 5))
    rejects(g, "starting-out", "roll_off", (6, 6))
    g = g.roll_off((2, 5, 4))
    assert (g.phase, player(g), g.expected_dice) == (Phase.ROLL, "Bob", 5)
    rejects(g, "starting-out", "roll_off", (1, 2, 3))
    g = pass_turn(g)
    assert player(g) == "Cy"
    assert player(pass_turn(g)) == "Ann"


def test_roll_off_only_the_tied_highest_roll_again():
    g = TrainWreckGame.new(["Ann", "Bob", "Cy"]).roll_off((6, 2, 6))
    assert (g.phase, g.contenders, g.expected_dice) == (Phase.ROLL_OFF, (0, 2), 2)
    assert g.prompt.endswith("Ann, Cy")
    g = g.roll_off((3, 3)).roll_off((1, 4))
    assert (g.phase, player(g)) == (Phase.ROLL, "Cy")


@pytest.mark.parametrize("players", [[], [f"P{i}" for i in range(9)], ["Ann", "Ann"], ["Ann", ""]])
def test_players_one_to_eight_with_names(players):
    with pytest.raises(RuleError) as err:
        TrainWreckGame.new(players)
    assert err.value.rule == "players"


# ------------------------------------------------------------------ what the table needs


@pytest.mark.parametrize("roll", [(0, 1, 2, 3, 4), (1, 2, 3, 4, 7), (1, 2, 3, 4, "5"), (1.0, 2, 3, 4, 5)])
def test_die_faces_are_1_to_6(roll):
    rejects(game(), "die-faces", "roll", roll)


def test_dice_read_as_other_whole_number_types_become_plain_ints():
    class Reading(int):  # e.g. what a vision library hands over
        pass

    g = game().roll(tuple(map(Reading, (1, 2, 3, 4, 6))))
    assert g.turn.roll == (1, 2, 3, 4, 6) and all(type(v) is int for v in g.turn.roll)


def test_actions_out_of_turn_name_the_rule():
    g = game()
    rejects(g, "set-aside", "set_aside", (1,))
    rejects(g, "quadruple-confirmation", "accept")
    rejects(g, "quadruple-confirmation", "reroll")
    rejects(g, "sequential-salvage", "start_salvage")
    rejects(g, "train-wreck", "decline_salvage")
    rejects(g, "starting-out", "roll_off", (1, 2))
    with pytest.raises(RuleError) as err:
        g.apply("undo")
    assert err.value.rule == "action"


def test_rule_error_message_is_for_a_player():
    err = rejects(quad().roll((3, 3)), "quadruple-confirmation", "roll", (1, 2))
    assert "accept the dice or roll the 3s again" in err.message


def test_replaying_the_log_rebuilds_the_game():
    log = [
        ("roll_off", (4, 4)),
        ("roll_off", (2, 6)),
        ("roll", (3, 3, 3, 3, 1)),
        ("set_aside", (3, 3, 3)),
        ("roll", (3, 1)),
        ("reroll", (3,)),
        ("roll", (6,)),
        ("bank",),
        ("roll", (2, 3, 4, 6, 6)),
        ("start_salvage",),
        ("roll", (6, 1, 1, 1, 1)),
        ("set_aside", (6,)),
    ]
    g = TrainWreckGame.new(["Ann", "Bob"])
    for name, *args in log:
        g = g.apply(name, *args)
    replayed = new_game("train-wreck", ["Ann", "Bob"])  # as the table rebuilds it from its log
    for name, *args in json.loads(json.dumps(log)):
        replayed = replayed.apply(name, *args)
    assert replayed == g
    assert g.scores == (0, 85) and g.phase == Phase.SALVAGE_ROLL and g.turn.held == (6,)


def test_rules_module_is_pure():
    tree = ast.parse(Path(tw.__file__).read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
    assert imported <= {
        "__future__",
        "collections",
        "dataclasses",
        "enum",
        "functools",
        "itertools",
        "operator",
        "typing",
    }
