"""What the table asks of a game (appliance.games.table_game.TableGame), answered by each game from its rulebook."""

import pytest

from appliance.games import GAME_IDS
from appliance.games.catalog import STARTS_BY_ROLL_OFF
from appliance.games.table_game import TableGame
from appliance.session import new_game

MEMBERS = [name for name in vars(TableGame) if not name.startswith("_")] + list(TableGame.__annotations__)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_answers_everything_the_table_asks(game_id):
    game = new_game(game_id, ["Ann", "Bob"])
    missing = [name for name in MEMBERS if not hasattr(game, name)]
    assert not missing and "forced_list" in MEMBERS and "holds_in_tray" in MEMBERS


def test_only_train_wreck_chooses_who_starts_by_a_roll_off():
    """train-wreck.txt: "Each player rolls 1 die. The player who rolls the highest number starts"."""
    assert STARTS_BY_ROLL_OFF == {"dice-poker": False, "pentakubus": False, "hexakubus": False, "train-wreck": True}


def test_train_wreck_roll_off_one_die_per_player_in_turn():
    game = new_game("train-wreck", ["Ann", "Bob", "Cy"])
    assert (game.roll_action, game.dice_due, game.contenders) == ("roll_off", 1, (0, 1, 2))
    assert [game.acting(rolled) for rolled in range(3)] == [0, 1, 2]
    game = game.apply("roll_off", [2, 6, 4])  # Bob rolled highest: he starts, with all five dice
    assert (game.roll_action, game.dice_due, game.acting(0), game.loose_dice) == ("roll", 5, 1, ())


def test_train_wreck_a_roll_forces_the_set_aside_list_and_a_triple_its_confirmation():
    game = new_game("train-wreck", ["Ann"]).apply("roll", [2, 2, 2, 3, 4])
    assert game.forced_list == "set-aside" and game.loose_dice == (2, 2, 2, 3, 4) and game.dice_due == 0
    game = game.apply("set_aside", [2, 2, 2])  # a triple: set aside, the other two dice confirm it
    assert game.forced_list == "" and game.set_aside_dice == (2, 2, 2) and game.dice_due == 2
    game = game.apply("roll", [2, 5])  # the 2 shows the triple's value: rolled again; the 5 stays
    assert game.loose_dice == (5,) and game.dice_due == 1 and game.awaited == ()


def test_train_wreck_a_quadruple_waits_for_accept_or_reroll_before_the_next_roll():
    """train-wreck.txt, Quadruples: "it is the player's option to accept the re-rolled dice or to re-roll them"."""
    game = new_game("train-wreck", ["Ann"]).apply("roll", [5, 5, 5, 5, 3]).apply("set_aside", [5, 5, 5])
    game = game.apply("roll", [5, 4])
    assert game.awaited == game.decisions == ("accept", "reroll") and game.dice_due == 0


def test_train_wreck_banking_is_its_decision_without_dice_and_no_entry_is_corrected():
    game = new_game("train-wreck", ["Ann"]).apply("roll", [1, 5, 2, 3, 3]).apply("set_aside", [1, 5])
    assert game.decisions == ("bank",) and game.awaited == ()  # bank, or roll the other three
    assert not game.correctable and game.next_attempt is None and game.throw is None


def test_a_sheet_game_forces_the_fields_after_its_last_attempt():
    """dice-poker.txt / RULINGS: up to three attempts a throw, then the throw must be entered."""
    game = new_game("dice-poker", ["Ann"])
    assert (game.roll_action, game.next_attempt, game.forced_list) == ("start_throw", 1, "")
    game = game.apply("start_throw", [1, 2, 3, 4, 6])
    assert (game.roll_action, game.next_attempt, game.loose_dice) == ("rethrow", 2, (1, 2, 3, 4, 6))
    game = game.apply("rethrow", [4], [5]).apply("rethrow", [4], [6])
    assert game.forced_list == "field" and game.decisions == () and game.set_aside_dice == ()


def test_a_sheet_games_entry_is_correctable_until_the_next_throw():
    game = new_game("pentakubus", ["Ann", "Bob"]).apply("start_throw", [6, 6, 6, 6, 1])
    best = game.options()[0]
    game = game.apply("enter", best.column, best.field)
    assert game.correctable and game.acting(0) == 1 and game.dice_due == 5
    assert not game.apply("start_throw", [1, 2, 3, 4, 5]).correctable
