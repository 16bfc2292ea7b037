"""The rulebooks' own figures: probability tables over every possible roll, and the optima.

Expected values are copied from ../shared/rules (the page is cited beside each), never from the code.
"""

import json

import pytest

from appliance.cli import main
from appliance.games.analysis import distinct_rolls, frequencies, optimum
from appliance.games.tables import sheet_rules

# pentakubus.en.txt, "the probability": fields 13-24, of 7,776 rolls (= RULINGS.md seed table).
PENTAKUBUS_FREQUENCIES = {
    13: 96,
    14: 486,
    15: 1560,
    16: 3480,
    17: 1200,
    18: 240,
    19: 7056,
    20: 2256,
    21: 1656,
    22: 306,
    23: 156,
    24: 6,
}

# hexakubus.de.txt, "häufigkeit" rows for fields 21-40 (runs without wrap-around), per million;
# field 18 (sum 32-34) from its text ("das feld #18 ... hat dann die häufigkeit 164 746").
HEXAKUBUS_FREQUENCIES = {
    18: 164_746,
    21: 320,
    22: 12_286,
    23: 35_218,
    24: 31_250,
    25: 307_560,
    26: 426_360,
    27: 14_940,
    28: 129_720,
    29: 28_800,
    30: 3_600,
    31: 848_800,
    32: 294_400,
    33: 12_160,
    34: 157_600,
    35: 46_000,
    36: 910,
    37: 12_700,
    38: 1_360,
    39: 550,
    40: 10,
}

# RULINGS.md: with wrap-around, the single-run counts for 3 / 4 / 5 / 6 consecutive values.
HEXAKUBUS_WRAP_RUNS = {26: 502_200, 28: 177_600, 29: 46_800, 30: 7_200}


def run_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_all_rolls_are_enumerated():
    for dice, faces in ((5, 6), (6, 10)):
        rolls = distinct_rolls(dice, faces)
        assert sum(n for _, n in rolls) == faces**dice
        assert all(list(roll) == sorted(roll) for roll, _ in rolls)
    # one distinct roll per multiset: C(10, 5) = 252 for five d6, C(15, 6) = 5005 for six d10
    assert len(distinct_rolls(5, 6)) == 252
    assert len(distinct_rolls(6, 10)) == 5005


def test_pentakubus_table(capsys):
    counts = run_json(capsys, "rules", "pentakubus", "--frequencies", "--json")
    assert counts == {str(k): v for k, v in PENTAKUBUS_FREQUENCIES.items()}


def test_pentakubus_pair_fails_only_on_all_different():
    # "that one fails to appear in only 720 of all 7776 cases"; the pure quadruplet occurs 150 times
    counts = frequencies(sheet_rules("pentakubus"))
    assert 7776 - counts[19] == 720
    assert counts[23] - counts[24] == 150


def test_hexakubus_table_without_wrap_around(capsys):
    counts = run_json(capsys, "rules", "hexakubus", "--frequencies", "--json", "--variant", "wrap=off")
    assert counts == {str(k): v for k, v in HEXAKUBUS_FREQUENCIES.items()}


def test_hexakubus_wrap_around_runs():
    counts = frequencies(sheet_rules("hexakubus"))  # wrap-around is the default
    assert {k: counts[k] for k in HEXAKUBUS_WRAP_RUNS} == HEXAKUBUS_WRAP_RUNS
    unchanged = set(HEXAKUBUS_FREQUENCIES) - set(HEXAKUBUS_WRAP_RUNS) - {27}
    assert all(counts[k] == HEXAKUBUS_FREQUENCIES[k] for k in unchanged)
    assert counts[27] > HEXAKUBUS_FREQUENCIES[27]  # wrapped double runs such as 9-10-1 + 9-10-1


def test_hexakubus_seed_figures_beyond_the_table():
    # RULINGS.md: sum 33 in 55,252 rolls; strict thirds without the 10 as joker 2,187.
    rolls = distinct_rolls(6, 10)
    assert sum(n for roll, n in rolls if sum(roll) == 33) == 55_252
    assert sum(n for roll, n in rolls if any(set(roll) <= g for g in ({1, 2, 3}, {4, 5, 6}, {7, 8, 9}))) == 2_187


def test_dice_poker_frequencies():
    # The same five d6 as Pentakubus, so its table gives them: 3+ of a kind 1,656, 4+ 156, full house
    # 306 less the 6 quintuplets (RULINGS.md: five of a kind is not a full house), 4 and 5 in a row
    # 1,200 and 240, five of a kind 6.
    assert frequencies(sheet_rules("dice-poker")) == {7: 1656, 8: 156, 9: 300, 10: 1200, 11: 240, 12: 6}


def test_pentakubus_optimum(capsys):
    # pentakubus.en.txt: 165 (105 + 60), 190 (160 + 30), 308 and 334 per section; 997 a column, 2991 in all.
    best = run_json(capsys, "rules", "pentakubus", "--optimum", "--json")
    assert best["sections"] == {"A": 165, "B": 190, "C": 308, "D": 334}
    assert best["columns"] == {"left": 997, "middle": 997, "right": 997}
    assert best["total"] == 2991
    # "the gs6 ... provides a score of 30 + 55 + 15 = 100 points"
    assert best["fields"]["24"] == 100


def test_hexakubus_optimum_without_the_missing_bonuses():
    # hexakubus.de.txt: section B optimum 466 without its bonus; C 1137, D 1225 and 3398 a column
    # including bonuses the fragment does not list (RULINGS.md: 150 in A, 150 in C, 185 in D).
    best = optimum(sheet_rules("hexakubus"))
    assert best["sections"] == {"A": 330, "B": 466 + 90, "C": 1137 - 150, "D": 1225 - 185}
    assert best["column"] == 3398 - 150 - 150 - 185


def test_hexakubus_variants_can_supply_the_missing_bonuses():
    slam_c = {21: 30, 22: 20, 23: 15, 24: 15, 25: 10, 27: 20, 28: 10, 29: 15, 30: 15}  # 150
    slam_d = {31: 5, 32: 10, 33: 20, 34: 10, 35: 15, 36: 25, 37: 20, 38: 25, 39: 25, 40: 30}  # 185
    slam = ",".join(f"{k}:{v}" for k, v in {**slam_c, **slam_d}.items())
    best = optimum(sheet_rules("hexakubus", {"a-bonus": "300:150", "slam": slam}))
    assert best["sections"] == {"A": 480, "B": 556, "C": 1137, "D": 1225}
    assert best["column"] == 3398 and best["total"] == 10194  # "das optimum von 3 x 3398 = 10194"


def test_dice_poker_optimum():
    # 5+10+...+30 = 105; 3 and 4 of a kind 30 each, full house 25, straights 30 and 40, 50, chance 30.
    assert optimum(sheet_rules("dice-poker"))["column"] == 105 + 30 + 30 + 25 + 30 + 40 + 50 + 30


def test_variant_errors_name_key_and_allowed_values(capsys):
    assert main(["rules", "hexakubus", "--variant", "wrap=maybe"]) == 2
    err = capsys.readouterr().err
    assert "wrap" in err and "on or off" in err
    assert main(["rules", "pentakubus", "--variant", "wrap=off"]) == 2
    assert "no variant 'wrap'" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["dice-poker", "pentakubus", "hexakubus"])
def test_field_table_lists_every_field(capsys, game):
    table = run_json(capsys, "rules", game, "--json")
    assert [row["field"] for row in table["fields"]] == list(range(1, len(table["fields"]) + 1))
    assert len(table["fields"]) == {"dice-poker": 13, "pentakubus": 24, "hexakubus": 40}[game]


def test_train_wreck_scoring_table_is_the_rulebooks(capsys):
    """train-wreck.txt, "Ways to Score" and the tables of Triples, Quadruples, Quintuples, Sequential
    Straights and Sequential Quintuples; "Getting on the scoreboard" (35); the goal 1,000, or 750 or 500."""
    rules = run_json(capsys, "rules", "train-wreck", "--json")
    assert rules["singles"] == {"1": 10, "5": 5}
    assert rules["of_a_kind"]["triple"] == {"1": 100, "6": 60, "5": 50, "4": 40, "3": 30, "2": 20}
    assert rules["of_a_kind"]["quadruple"]["1"] == 250  # 10 points x 25
    assert rules["of_a_kind"]["quintuple"]["1"] == 1000  # 10 points x 100
    assert rules["straights"] == {"1-2-3-4-5": 150, "2-3-4-5-6": 150}
    assert sorted(rules["sequential_straights"]) == ["1-2-3-4-5", "2-3-4-5-6", "5-4-3-2-1", "6-5-4-3-2"]
    assert set(rules["sequential_straights"].values()) == {300}
    assert rules["sequential_quintuples"] == {"1": 750, "6": 450, "5": 375, "4": 300, "3": 225, "2": 150}
    assert (rules["entry"], rules["goal"], rules["confirmation_rolls"]) == (35, 1000, 10)
    assert run_json(capsys, "rules", "train-wreck", "--json", "--variant", "goal=750")["goal"] == 750
    assert main(["rules", "train-wreck"]) == 0
    assert "triple: 1s 100, 2s 20" in capsys.readouterr().out
