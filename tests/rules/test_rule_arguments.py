"""An illegal call of the rules, as a damaged log or a wrong caller makes it, is a RuleError that names what is wrong:
never a TypeError from inside them, and True or False is no die."""

import numpy as np
import pytest

from appliance.games.errors import RuleError
from appliance.session import new_game

POKER = new_game("dice-poker", ["Ann"])
THROWN = POKER.apply("start_throw", [1, 2, 3, 4, 5])
WRECK = new_game("train-wreck", ["Ann"])


@pytest.mark.parametrize(
    "game, action, args, says",
    [
        (POKER, "start_throw", (), "start_throw takes dice, not 0 arguments"),
        (POKER, "start_throw", ([1, 2, 3, 4, 5], [6]), "start_throw takes dice, not 2 arguments"),
        (POKER, "start_throw", (5,), "dice must be a list of whole numbers, not 5"),
        (POKER, "start_throw", ([True, 2, 3, 4, 5],), "dice must be a list of whole numbers, not [True, 2, 3, 4, 5]"),
        (POKER, "start_throw", ([1.0, 2, 3, 4, 5],), "dice must be a list of whole numbers"),
        (THROWN, "enter", (0, "1"), "number must be a whole number, not '1'"),
        (THROWN, "enter", (False, 1), "column must be a whole number, not False"),
        (THROWN, "enter", (0,), "enter takes column, number, not 1 argument"),
        (THROWN, "rethrow", ([0], [True]), "values must be a list of whole numbers, not [True]"),
        (THROWN, "rethrow", (["x"], [3]), "indices must be a list of whole numbers, not ['x']"),
        (WRECK, "roll", ([False, 1, 1, 1, 1],), "values must be a list of whole numbers"),
        (WRECK, "roll", ("11111",), "values must be a list of whole numbers, not '11111'"),
        (WRECK, "bank", (3,), "bank takes nothing, not 1 argument"),
    ],
)
def test_a_wrong_argument_is_a_rule_error_naming_it(game, action, args, says):
    with pytest.raises(RuleError, match="arguments") as error:
        game.apply(action, *args)
    assert says in error.value.message


def test_true_is_no_die_even_called_directly():
    with pytest.raises(RuleError):
        POKER.start_throw([True, 2, 3, 4, 5])
    with pytest.raises(RuleError):
        WRECK.roll([True, 2, 3, 4, 5])


def test_a_readers_numpy_integers_are_whole_numbers():
    assert POKER.apply("start_throw", [np.int64(v) for v in (6, 6, 6, 2, 1)]).throw.dice == (6, 6, 6, 2, 1)
    assert WRECK.apply("roll", [np.int32(v) for v in (1, 5, 2, 3, 3)]).turn.roll == (1, 5, 2, 3, 3)
