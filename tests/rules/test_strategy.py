"""The advisor: Dice Poker's exact solution against independent figures, single-field values that can
be checked by hand, advice that is always legal, the kubus and Train Wreck players against baselines."""

import json
import random
from collections import Counter

import numpy as np
import pytest

from appliance.cli import main
from appliance.games.fields import Score
from appliance.games.sheet import Sheet
from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules
from appliance.games.train_wreck import Phase, TrainWreckGame
from appliance.strategy import advise, selfplay, train_wreck
from appliance.strategy.dice import dice_space, solve_throw
from appliance.strategy.dice_poker import SHIPPED, future_table, mask_of, solve
from appliance.strategy.kubus import KubusValues, paced
from appliance.strategy.lookahead import OneThrowAhead

ALL = set(range(1, 14))


def only_open(*numbers):
    return future_table()[mask_of(ALL - set(numbers))]


def test_dice_poker_from_an_empty_sheet_is_worth_229_64():
    # the figure, computed independently of this code
    assert abs(future_table()[0] - 229.64) <= 0.01


def test_the_shipped_table_is_the_solution():
    assert SHIPPED.exists()
    assert np.allclose(np.load(SHIPPED), solve(), atol=1e-9)


def test_single_fields_checked_by_hand():
    # Ones: each die ends a 1 with probability 1 - (5/6)^3, keeping every 1
    assert only_open(1) == pytest.approx(5 * (1 - (5 / 6) ** 3), abs=1e-9)
    # Sixes: the same chance, six points each
    assert only_open(6) == pytest.approx(30 * (1 - (5 / 6) ** 3), abs=1e-9)
    # Chance: one die worth 3.5 thrown once, 4.25 with one more throw (keep 4-6), 14/3 with two (keep 5-6)
    assert only_open(13) == pytest.approx(5 * 14 / 3, abs=1e-9)
    # Five of a kind: 2,783,176 / 6^10 = 0.046029 (the known Yahtzee chance in three attempts) times 50
    assert only_open(12) == pytest.approx(50 * 2783176 / 6**10, abs=1e-9)
    assert future_table()[mask_of(ALL)] == 0


def test_a_single_die_thrown_three_times():
    space = dice_space(1, 6)
    stop = np.array([space.roll_dice[r][0] for r in space.pair_roll], dtype=float)
    assert solve_throw(space, stop).value == pytest.approx(14 / 3)
    assert solve_throw(space, stop, attempts=1).value == pytest.approx(3.5)


def test_advice_for_five_sixes_on_an_empty_sheet_is_five_of_a_kind():
    game = SheetGame.new(sheet_rules("dice-poker"), ["a"]).start_throw([6] * 5)
    best = advise(game).best
    assert (best.field, best.score) == (12, 50)


def test_advice_values_follow_the_solution():
    """Before the first throw the value is the table's; after it, the best choice's value averages to it."""
    game = SheetGame.new(sheet_rules("dice-poker"), ["a"])
    space = dice_space(5, 6)
    total = 0.0
    first = space.keep_starts[1]  # the pairs of keeping nothing: each roll of all five dice once
    for row, p in zip(space.pair_roll[:first], space.pair_prob[:first]):
        total += p * advise(game.start_throw(list(space.roll_dice[row]))).best.expected
    assert total == pytest.approx(future_table()[0], abs=1e-9)


def test_a_slam_is_advised_with_its_points():
    game = SheetGame.new(sheet_rules("pentakubus"), ["a"]).start_throw([6] * 5)
    entries = {(c.column, c.field): c.score for c in advise(game).choices if c.keep is None}
    assert entries[(1, 24)] == 30 + 55 + 15  # all five thrown in this attempt: the grand slam
    game = game.rethrow([0], [6])  # four sixes kept: no slam on the quintuplet any more
    entries = {(c.column, c.field): c.score for c in advise(game).choices if c.keep is None}
    assert entries[(1, 24)] == 30 + 55


def test_a_major_bound_by_its_minor_keeps_only_what_a_throw_can_reach_above_it():
    rules = sheet_rules("pentakubus")
    shares = KubusValues(rules).bounded_share
    free = 5 * 14 / 3  # the best sum of five dice in three attempts: each die kept at 5 or 6 (see Chance above)
    sixes = (1 - (5 / 6) ** 3) ** 5  # major at least 30: five sixes, each die thrown for a six up to three times
    assert shares[12][30] == pytest.approx(30 * sixes / free, abs=1e-9)
    assert shares[12][5] == shares[11][30] == 1  # no bound at all
    assert shares[11][4] == 0  # minor at most 4: five dice sum to 5 at least


def test_a_minor_under_a_cancelled_major_is_worth_nothing():
    rules = sheet_rules("pentakubus")
    sheet = Sheet(rules, {(1, 12): Score()})  # the middle column's major cancelled: its minor can only be 0
    for reserve in (0, 4):  # an entry in the free column gives up that much of a reserve besides
        values = KubusValues(rules, progress=paced(rules, reserve, 0))
        entries = {(c, n): lut for c, n, lut in values.entry_values(sheet)}
        assert entries[(1, 11)][0] == pytest.approx(values.expected_final(sheet) - reserve, abs=1e-6)
        assert entries[(1, 11)][20] == entries[(1, 11)][0]  # 20 would break minor <= major: it cancels


def test_an_entry_in_an_ordered_column_relieves_its_lag():
    rules = sheet_rules("pentakubus")
    sheet = Sheet(rules)  # 24 fields left in each column, 72 in all: the lag is pace * (24² + 24²) / 72 = 16 pace
    plain, lagging = (KubusValues(rules, progress=paced(rules, 0, pace)) for pace in (0, 10))
    entries = [{(c, n): lut for c, n, lut in v.entry_values(sheet)} for v in (plain, lagging)]
    assert lagging.expected_final(sheet) == pytest.approx(plain.expected_final(sheet) - 160, abs=1e-9)
    now = [v.expected_final(sheet) for v in (plain, lagging)]  # what entering 7 changes, lagging less plain:
    gains = {key: (entries[1][key][7] - now[1]) - (entries[0][key][7] - now[0]) for key in [(0, 1), (2, 24), (1, 5)]}
    outer = 160 - 10 * (23**2 + 24**2) / 71  # one field fewer in an outer column, one throw fewer
    assert gains[(0, 1)] == pytest.approx(outer, abs=1e-9) and gains[(2, 24)] == pytest.approx(outer, abs=1e-9)
    assert gains[(1, 5)] == pytest.approx(160 - 10 * (24**2 + 24**2) / 71, abs=1e-9)  # the free column: worse
    assert gains[(0, 1)] > 0 > gains[(1, 5)]


def test_progress_is_looked_up_per_column_by_its_open_fields_and_the_throws_to_come():
    rules = sheet_rules("pentakubus")
    sheet = Sheet(rules, {(0, 1): Score(), (0, 2): Score(), (2, 24): Score()})  # open: 22, 24, 23 of 69
    table = np.zeros((3, 25, 73))
    table[0, 22, 69], table[1, 24, 69], table[2, 23, 69] = 5, 7, -2
    with_table, plain = KubusValues(rules, progress=table), KubusValues(rules, progress=np.zeros_like(table))
    assert with_table.expected_final(sheet) == pytest.approx(plain.expected_final(sheet) + 5 + 7 - 2, abs=1e-9)


def test_an_open_field_of_the_free_column_is_worth_its_own_worth_until_it_is_filled():
    rules = sheet_rules("pentakubus")
    sheet = Sheet(rules, {(0, 1): Score(), (0, 2): Score(), (2, 24): Score()})  # 69 fields open
    worth = np.zeros((3, 24, 73))
    worth[1, 4, 69], worth[1, 4, 68], worth[1, 6, 68] = 6, 9, 1  # the middle column's fives and low, 69 or 68 open
    progress = KubusValues(rules).progress
    with_worth, plain = (KubusValues(rules, progress=progress, open_worth=w) for w in (worth, 0 * worth))
    assert with_worth.expected_final(sheet) == pytest.approx(plain.expected_final(sheet) + 6, abs=1e-9)
    entries = [{(c, n): lut for c, n, lut in v.entry_values(sheet)} for v in (with_worth, plain)]
    gain = {key: entries[0][key][9] - entries[1][key][9] for key in [(0, 3), (1, 5), (1, 7)]}
    assert gain == pytest.approx({(0, 3): 9 + 1, (1, 5): 1, (1, 7): 9}, abs=1e-9)  # what stays open, at 68


def test_pentakubus_learnt_its_pacing_and_hexakubus_follows_the_rule():
    penta, hexa = sheet_rules("pentakubus"), sheet_rules("hexakubus")
    learnt, rule = KubusValues(penta), paced(penta, 4, 10)
    assert learnt.progress.shape == (3, 25, 73) and learnt.open_worth.shape == (3, 24, 73)
    assert not any(np.allclose(learnt.progress[c], rule[c], atol=1) for c in range(3))
    # only the free column's fields are worth something one by one: an ordered column's count says which are open
    assert (learnt.open_worth[[0, 2]] == 0).all() and np.abs(learnt.open_worth[1]).max() > 1
    hexakubus = KubusValues(hexa)
    assert (hexakubus.progress == paced(hexa, 10, 0)).all() and (hexakubus.open_worth == 0).all()


def test_progress_samples_split_a_game_into_what_each_column_still_added():
    rules = sheet_rules("pentakubus")
    values = KubusValues(rules)
    sheet = selfplay.play(rules, selfplay.advisor(), random.Random(3))
    is_open, surplus = selfplay.progress_samples(values, sheet)
    left = is_open.sum(axis=2)
    assert is_open.shape == (73, 3, 24) and surplus.shape == (73, 3)
    assert left[0].tolist() == [24, 24, 24] and left[-1].tolist() == [0, 0, 0]
    assert (np.diff(left.sum(axis=1)) == -1).all()  # one entry per state
    # from the empty sheet the columns' estimates plus their surpluses are the final score; at the end nothing is left
    assert (surplus[0] + values.column_estimates(Sheet(rules))).sum() == pytest.approx(sheet.total, abs=1e-6)
    assert surplus[-1] == pytest.approx(0, abs=1e-9)


def test_fitted_progress_is_the_mean_surplus_drawn_to_the_prior_where_few_states_went():
    prior = np.full((1, 4, 9), -3.0)
    left = np.array([[2]] * 30)  # thirty states with two of four fields open and two throws to come
    surplus = np.full((30, 1), 12.0)
    table = selfplay.fit_progress(left, surplus, prior, sigma=(1e-3, 1e-3), weight=10)
    assert table[0, 2, 2] == pytest.approx((30 * 12 - 10 * 3) / 40)
    assert table[0, 3, 2] == table[0, 2, 5] == -3  # no state there: the prior


def _open_patterns(reps: int) -> np.ndarray:
    """[state, column, field]: three columns of two fields, every way of leaving them open, `reps` times."""
    ways = [(x, y) for x in (0, 1) for y in (0, 1)]
    return np.array([[a, b, c] for a in ways for b in ways for c in ways] * reps, dtype=bool)


def _explained(is_open, table, worth) -> np.ndarray:
    """Per state: what the fitted progress and open fields' worth say the game still adds."""
    left = is_open.sum(axis=2)
    throws = left.sum(axis=1)
    progress = sum(table[c, left[:, c], throws] for c in range(table.shape[0]))
    return progress + (is_open * worth[:, :, throws].transpose(2, 0, 1)).sum(axis=(1, 2))


def test_columns_fitted_together_share_out_the_whole_surplus():
    # the truth is a sum of one made-up table per column, which fitting each column to the whole surplus
    # alone would count three times
    truth = np.random.default_rng(0).normal(0, 10, (3, 3, 7))
    truth[:, 0] = 0
    is_open = _open_patterns(20)
    whole = _explained(is_open, truth, np.zeros((3, 2, 7)))
    surplus = np.zeros((len(is_open), 3))
    surplus[:, 0] = whole  # how the whole is split among the columns' samples does not matter
    no_worth = np.zeros(3, dtype=bool)
    table, worth = selfplay.fit_together(is_open, surplus, np.zeros((3, 3, 7)), no_worth, (1e-3, 1e-3), 1e-6, sweeps=60)
    assert np.abs(_explained(is_open, table, worth) - whole).max() < 0.05
    assert (table[:, 0] == 0).all() and (worth == 0).all()


def test_a_free_columns_fields_are_worth_something_one_by_one():
    # the middle column's first field left open adds 10 points, its second nothing: no table of how many
    # fields are open can say that, the fields' own worth can
    is_open = _open_patterns(20)
    surplus = np.zeros((len(is_open), 3))
    surplus[:, 1] = 10 * is_open[:, 1, 0]
    fit = lambda each: selfplay.fit_together(  # noqa: E731
        is_open, surplus, np.zeros((3, 3, 7)), np.array(each), (1e-3, 1e-3), 1e-6, ridge=1e-6, band=7, sweeps=60
    )
    table, worth = fit([False, True, False])
    assert np.abs(_explained(is_open, table, worth) - surplus[:, 1]).max() < 0.05
    assert worth[1, 0, 3] - worth[1, 1, 3] == pytest.approx(10, abs=0.05)
    assert (worth[[0, 2]] == 0).all()
    by_count = _explained(is_open, *fit([False, False, False]))
    assert np.abs(by_count - surplus[:, 1]).max() > 4  # by its count alone the column is 5 points off either way


def test_a_rounds_pacing_does_not_depend_on_the_rounds_after_it():
    # each game draws its dice from its own seed, so a run stopped after its first round (or run in other
    # processes) has learnt what a longer run learnt in that round
    rounds, quiet = [], lambda _: None
    two = selfplay.learn_together("pentakubus", 2, 1, seed=5, log=quiet, after_round=lambda *p: rounds.append(p))
    one = selfplay.learn_together("pentakubus", 1, 1, seed=5, log=quiet)
    assert len(rounds) == 2 and all(np.array_equal(a, b) for a, b in zip(rounds[0], one))
    assert all(np.array_equal(a, b) for a, b in zip(rounds[1], two))
    assert not np.array_equal(rounds[0][0], rounds[1][0])  # the second round learnt from a second game


def test_one_throw_deep_the_pacing_learns_the_exact_worth_of_the_last_field():
    # all filled with 0 but the middle column's ones: the next throw ends the game at what ones yield played
    # for alone, so the state's pacing should be that beyond the estimate of its one open field
    rules = sheet_rules("pentakubus")
    made = [((c, n), Score()) for c in range(3) for n in rules.numbers if (c, n) != (1, 1)]
    values = KubusValues(rules)
    selfplay._hold("pentakubus", values.progress, values.open_worth)
    is_open, surplus = selfplay._backed_up(made)
    estimate = values.column_estimates(Sheet(rules, dict(made))).sum()
    assert estimate + surplus == pytest.approx(5 * (1 - (5 / 6) ** 3), abs=1e-9)
    assert is_open.sum() == 1 and is_open[1, 0]


def test_the_pacing_learnt_one_throw_deep_keeps_the_estimates_shape():
    progress, worth = selfplay.learn_backup("pentakubus", 1, seed=3, every=24, log=lambda _: None)
    assert progress.shape == (3, 25, 73) and worth.shape == (3, 24, 73)
    assert (progress[:, 0] == 0).all()  # a column with no open field adds nothing
    assert (worth[[0, 2]] == 0).all()  # only the free column's fields have a worth of their own
    assert not np.array_equal(progress, KubusValues(sheet_rules("pentakubus")).progress)  # three states moved it


def test_the_backups_games_take_turns_among_its_players():
    shipped, other = "shipped", "middle fields without their own worth"
    varied = selfplay.backup_games("pentakubus", 2, seed=5, players=(shipped, other))
    alone = selfplay.backup_games("pentakubus", 2, seed=5, players=(shipped,))
    assert varied[0] == alone[0]  # game 0: the shipped player, its dice
    assert varied[1] != alone[1]  # game 1: the other player...
    assert varied[1] == selfplay.backup_games("pentakubus", 2, seed=5, players=(other,))[1]  # ...with game 1's dice


def test_two_processes_play_and_back_up_what_one_does():
    """Each game's dice come from its seed and each state is backed up alone, so workers change nothing; the
    workers start afresh (spawned), never forked from a process whose threads may hold a lock."""
    one = selfplay.backup_games("pentakubus", 2, seed=5)
    assert selfplay.backup_games("pentakubus", 2, seed=5, workers=2) == one
    fitted = [selfplay.fit_backup("pentakubus", one, workers, every=24) for workers in (1, 2)]
    assert all(np.array_equal(a, b) for a, b in zip(*fitted))


def test_a_full_sheet_is_worth_its_total():
    rules = sheet_rules("pentakubus")
    sheet = Sheet(rules, {(c, n): Score(7) for c in range(3) for n in rules.numbers})
    assert KubusValues(rules).expected_final(sheet) == pytest.approx(sheet.total, abs=1e-9)


def test_one_throw_ahead_plays_the_last_two_fields_exactly():
    # all filled with 0 but the middle column's ones and twos: no section bonus can be reached any more, so
    # entering s in one of them ends the game at s plus what the other yields played alone (see Ones above)
    rules = sheet_rules("pentakubus")
    sheet = Sheet(rules, {(c, n): Score() for c in range(3) for n in rules.numbers if (c, n) not in [(1, 1), (1, 2)]})
    ones = 5 * (1 - (5 / 6) ** 3)
    ahead, estimate = OneThrowAhead(KubusValues(rules)), KubusValues(rules)
    for values, exact in ((ahead, True), (estimate, False)):
        entries = {(c, n): lut for c, n, lut in values.entry_values(sheet)}
        then = [entries[(1, 1)][s] - (s + 2 * ones) for s in range(6)] + [
            entries[(1, 2)][s] - (s + ones) for s in (0, 4)
        ]
        assert np.allclose(then, 0, atol=1e-9) == exact  # the estimate alone counts the learnt yields instead
    assert ahead.expected_final(sheet.with_entry(1, 2, Score(4))) == pytest.approx(4 + ones, abs=1e-9)
    for within, exact in ((1, False), (2, True)):  # looking ahead only once at most `within` fields are open
        entries = {(c, n): lut for c, n, lut in OneThrowAhead(estimate, within).entry_values(sheet)}
        assert (entries[(1, 1)][3] == pytest.approx(3 + 2 * ones, abs=1e-9)) == exact


def check_legal(rules, sheet, throw, choice):
    if choice.keep is None:
        assert (choice.column, choice.field) in sheet.open_fields()
        assert throw.attempt <= rules.attempts
    else:
        assert throw.attempt < rules.attempts
        assert not Counter(choice.keep) - Counter(throw.dice) and len(choice.keep) < len(throw.dice)


@pytest.mark.parametrize("game", ["dice-poker", "pentakubus"])
def test_the_advisor_never_suggests_an_illegal_field_or_keep(game):
    rules = sheet_rules(game)

    def checked(rules, sheet, throw):
        advice = advise(SheetGame(rules, ("a",), (sheet,), throw=throw))
        for choice in advice.choices:
            check_legal(rules, sheet, throw, choice)
        return advice.best

    games = 3 if game == "dice-poker" else 1
    for seed in range(games):
        assert selfplay.play(rules, checked, random.Random(seed)).full


def test_hexakubus_advice_is_legal_on_a_random_sheet():
    rules = sheet_rules("hexakubus")
    rng = random.Random(3)
    game = SheetGame.new(rules, ["a"])
    for _ in range(30):  # fill some fields with the greedy player first
        game = game.start_throw([rng.randint(1, 10) for _ in range(6)])
        option = game.options()[0]
        game = game.enter(option.column, option.field)
    game = game.start_throw([rng.randint(1, 10) for _ in range(6)])
    advice = advise(game)
    for choice in advice.choices:
        check_legal(rules, game.sheets[0], game.throw, choice)


def test_dice_poker_self_play_matches_the_solution():
    figures = selfplay.measure(sheet_rules("dice-poker"), selfplay.advisor(), 300, seed=5)
    assert abs(figures["mean"] - 229.64) <= 3 * figures["se"]


def test_the_pentakubus_advisor_beats_greedy_play():
    rules = sheet_rules("pentakubus")
    advisor = selfplay.measure(rules, selfplay.advisor(), 6, seed=2)
    greedy = selfplay.measure(rules, selfplay.greedy, 6, seed=2)
    assert advisor["mean"] > greedy["mean"] + 100


# ------------------------------------------------------------------ Train Wreck


def test_confirmation_and_salvage_chances_add_up_to_one():
    for value in range(1, 7):
        for dice in (1, 2):
            for quadruple in (False, True):
                assert sum(p for p, *_ in train_wreck.confirmation(value, dice, quadruple)) == pytest.approx(1)
    _, rewards = train_wreck.salvage_reward()
    assert 0 < sum(rewards.values()) < 1


def test_a_quadruple_of_fives_confirms_by_hand():
    # two dice: wreck when neither scores (a 2, 3, 4 or 6 each), the 5s are accepted as singles
    ends = {(how, points, n): p for p, how, points, n in train_wreck.confirmation(5, 2, True)}
    assert ends[("wreck", 0, 0)] == pytest.approx((4 / 6) ** 2)
    assert ends[("ok", 20, 2)] == pytest.approx(1 / 36)  # two 1s
    assert ends[("ok", 10, 2)] == pytest.approx(1 / 36)  # two 5s


def test_one_die_left_at_fifty_points_is_banked_and_five_dice_are_rolled():
    values = train_wreck.turn_values(True)
    # one die: a 1 or a 5 (10 or 5 points, then all five again) or it is a wreck; far below 50
    assert values.rolling[1][50 // train_wreck.STEP] < 50
    assert values.rolling[5][50 // train_wreck.STEP] > 50


def test_train_wreck_advice_is_legal():
    game = TrainWreckGame.new(["a"]).roll([1, 5, 5, 3, 2])
    advice = advise(game)
    assert advice.action == "set_aside" and advice.dice in [o.dice for o in game.options]
    game = game.set_aside(advice.dice)
    assert advise(game).action in ("bank", "roll")


def test_train_wreck_advisor_wins_against_the_300_banker():
    rng, wins = random.Random(7), 0.0
    for g in range(60):
        seats = (train_wreck.advise, train_wreck.banker(300))[:: 1 if g % 2 else -1]
        winners = train_wreck.play_game(seats, rng).winners
        wins += (f"player {1 + seats.index(train_wreck.advise)}" in winners) / len(winners)
    assert wins / 60 > 0.6


def test_behind_a_leader_at_the_goal_the_advisor_rolls_on():
    game = TrainWreckGame.new(["a", "b"]).roll_off([6, 1])
    game = TrainWreckGame(game.players, 1000, (0, 1000), (True, True), 0, game.turn, leader=1)
    game = game.roll([1, 5, 2, 3, 4]).set_aside([1, 5])
    assert game.phase == Phase.ROLL and game.can_bank
    assert advise(game).action == "roll"


# ------------------------------------------------------------------ the command


def test_advise_command_json(capsys):
    assert main(["advise", "dice-poker", "--dice", "6,6,3,2,1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["choices"][0]["keep"] == [6, 6]
    assert report["choices"][0]["expected"] >= report["choices"][1]["expected"]


@pytest.mark.parametrize(
    "argv, says",
    [
        (["advise", "dice-poker", "--dice", "6,6,7,1,1"], "a die shows 1 to 6"),
        (["advise", "dice-poker"], "give the dice"),
        (["advise", "pentakubus", "--dice", "1,2,3", "--log", "/nonexistent/games.sqlite"], "no game log"),
    ],
)
def test_advise_command_bad_input(capsys, argv, says):
    assert main(argv) == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("game", ["pentakubus", "hexakubus"])
def test_the_shipped_score_tables_are_the_rules_own(game):
    from appliance.strategy.scores import compute, shipped_file, tables_for

    rules = sheet_rules(game)
    tables = tables_for(rules)
    assert shipped_file(game).exists()
    roll, pair_slam = compute(rules, tables.space, tables.slam_fields)
    assert np.array_equal(tables.roll, roll) and np.array_equal(tables.pair_slam, pair_slam)


def test_advise_command_on_the_open_game_of_a_log(tmp_path, capsys):
    from appliance.event_log import EventLog

    log = EventLog(tmp_path / "games.sqlite")
    game_id = log.start_game("pentakubus", ["Ann", "Bob"], {})
    for action, args in [("start_throw", [[3, 3, 3, 1, 2]]), ("enter", [1, 3]), ("start_throw", [[6, 6, 6, 6, 6]])]:
        log.append(game_id, action, args)
    log.close()
    assert main(["advise", "pentakubus", "--log", str(tmp_path / "games.sqlite"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dice"] == [6] * 5 and report["choices"][0]["score"] == 100  # Bob's grand slam
    assert main(["advise", "dice-poker", "--log", str(tmp_path / "games.sqlite")]) == 2
    assert "is pentakubus, not dice-poker" in capsys.readouterr().err
