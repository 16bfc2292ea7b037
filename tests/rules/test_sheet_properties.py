"""Thousands of random complete games of the sheet games, checking what must always hold.

Random play: random dice, random re-throws, a random legal field, now and then a correction, and
random illegal actions that must be refused without changing the game.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.games.analysis import field_optima, optimum
from appliance.games.errors import RuleError
from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules
from tests.support import examples

GAMES = {  # game -> random complete games per run: thousands in CI, fewer while developing
    "dice-poker": examples(300, 3000),
    "pentakubus": examples(100, 1500),
    "hexakubus": examples(40, 1000),  # long games: 120 fields a player
}
RULES = {game: sheet_rules(game) for game in GAMES}
BEST_FIELD = {game: field_optima(rules) for game, rules in RULES.items()}
BEST_COLUMN = {game: optimum(rules)["column"] for game, rules in RULES.items()}


def frozen(game):
    return game.sheets, game.current, game.throw, game.last_entry


def refused(game, action, *args):
    before = frozen(game)
    with pytest.raises(RuleError):
        action(*args)
    assert frozen(game) == before


def play(rules, players, rng):
    game = SheetGame.new(rules, [f"P{i}" for i in range(players)])
    throws = 0

    def dice(n):
        return [rng.randint(1, rules.faces) for _ in range(n)]

    while not game.is_over:
        game = game.start_throw(dice(rules.dice))
        throws += 1
        for _ in range(rng.randint(0, rules.attempts - 1)):
            chosen = rng.sample(range(rules.dice), rng.randint(1, rules.dice))
            game = game.rethrow(chosen, dice(len(chosen)))
        if game.throw.attempt == rules.attempts:
            refused(game, game.rethrow, [0], dice(1))
        options = game.options()
        open_keys = {(o.column, o.field) for o in options}
        assert len(open_keys) == len(options)
        closed = [
            (c, f.number) for c in range(len(rules.columns)) for f in rules.fields if (c, f.number) not in open_keys
        ]
        if closed and rng.random() < 0.3:
            refused(game, game.enter, *rng.choice(closed))
        player, pick = game.current, rng.choice(options)
        before = len(game.sheets[player].entries)
        game = game.enter(pick.column, pick.field)
        if rng.random() < 0.1 and len(options) > 1:  # the player corrects the entry
            pick = rng.choice([o for o in options if o is not pick])
            game = game.correct(pick.column, pick.field)
        assert game.sheets[player].entries[(pick.column, pick.field)] == pick.score
        assert len(game.sheets[player].entries) == before + 1
    return game, throws


def check_final(game, rules, name, throws):
    columns, fields = len(rules.columns), len(rules.fields)
    assert throws == len(game.players) * columns * fields  # every field filled by exactly one throw
    for sheet in game.sheets:
        assert set(sheet.entries) == {(c, f.number) for c in range(columns) for f in rules.fields}
        expected_total = 0
        for c in range(columns):
            column_total = 0
            for section in rules.sections:
                entries = sum(sheet.entries[(c, n)].total for n in section.fields)
                bonus = section.bonus if section.threshold is not None and entries >= section.threshold else 0
                column_total += entries + bonus
            assert sheet.column_total(c) == column_total <= BEST_COLUMN[name]
            expected_total += column_total
            minor_major = rules.minor_major
            if minor_major:
                minor, major = (sheet.entries[(c, n)].total for n in minor_major)
                assert minor <= major or 0 in (minor, major)
        assert sheet.total == expected_total
        assert all(score.total <= BEST_FIELD[name][n] for (_, n), score in sheet.entries.items())
    ranks = game.ranking
    assert [total for _, _, total in ranks] == sorted((s.total for s in game.sheets), reverse=True)


@pytest.mark.parametrize("name", GAMES)
def test_random_complete_games(name):
    rules = RULES[name]

    @settings(max_examples=GAMES[name], deadline=None, database=None)
    @given(players=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
    def random_game(players, seed):
        game, throws = play(rules, players, random.Random(seed))
        check_final(game, rules, name, throws)

    random_game()
