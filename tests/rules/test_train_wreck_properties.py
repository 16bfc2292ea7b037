"""Random complete games of Train Wreck (hypothesis) checked against a small reference model.

Hypothesis picks the seed, the number of players, the goal and the player's appetite; a seeded
random.Random throws the dice and makes the choices (a draw per die through hypothesis would be too
slow for a thousand games). The reference model restates the rulings independently where that is
short: which dice may be set aside, what they score, the salvage targets, the 35-point entry and the
end-game rule.
"""

import json
import random
from collections import Counter
from functools import cache
from itertools import product

from hypothesis import given, note, settings
from hypothesis import strategies as st

from appliance.games.errors import RuleError
from appliance.games.train_wreck import ACTIONS, Phase, TrainWreckGame, set_aside_options
from appliance.session import new_game
from tests.support import examples

FACES = range(1, 7)
STRAIGHTS = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
SALVAGES = [(1, 2, 3, 4, 5), (5, 4, 3, 2, 1), (2, 3, 4, 5, 6), (6, 5, 4, 3, 2)] + [(v,) * 5 for v in range(1, 7)]
ALLOWED = {  # phase -> actions the rules allow in it
    Phase.ROLL_OFF: {"roll_off"},
    Phase.ROLL: {"roll", "bank"},
    Phase.SET_ASIDE: {"set_aside"},
    Phase.CONFIRM_TRIPLE: {"roll"},
    Phase.CONFIRM_QUADRUPLE: {"roll"},
    Phase.QUADRUPLE_CHOICE: {"accept", "reroll"},
    Phase.TRAIN_WRECK: {"start_salvage", "decline_salvage"},
    Phase.SALVAGE_ROLL: {"roll"},
    Phase.SALVAGE_SET_ASIDE: {"set_aside"},
    Phase.OVER: set(),
}
KIND = {3: 10, 5: 100}


def face(v):
    return 10 if v == 1 else v


@cache
def reference_options(roll):
    """{legal set-aside: (points now, needs confirming)} for a sorted roll (cached: 461 sorted rolls)."""
    return {k: r for k in sub_multisets(roll) if (r := reference_set_aside(roll, k))}


def reference_set_aside(roll, kept):
    """None if `kept` may not be set aside from a normal roll, else (points now, needs confirming)."""
    if not kept or Counter(kept) - Counter(roll):
        return None
    counts = Counter(roll)
    kind = [(v, n) for v, n in counts.items() if n >= 3]
    if kind:  # a triple/quadruple/quintuple must be taken: three dice, or all five
        ((v, n),) = kind
        if sorted(kept) != [v] * (5 if n == 5 else 3):
            return None
        if n == 5 or len(roll) == 3:  # a quintuple, or a triple with no dice left to confirm it
            return KIND[n] * face(v), False
        return 0, True
    if sorted(roll) in STRAIGHTS and sorted(kept) == sorted(roll):
        return 150, False
    if all(x in (1, 5) for x in kept):
        return sum(10 if x == 1 else 5 for x in kept), False
    return None


def reference_salvage(held, roll, kept):
    return len(kept) == 1 and kept[0] in roll and any(t[: len(held) + 1] == held + kept for t in SALVAGES)


def sub_multisets(roll):
    counts = Counter(roll)
    values = sorted(counts)
    for ks in product(*(range(counts[v] + 1) for v in values)):
        yield tuple(v for v, k in zip(values, ks) for _ in range(k))


def legal(g, name, args):
    """The reference answer: may this action be taken now?"""
    if name not in ALLOWED[g.phase]:
        return False
    if name in ("roll", "roll_off"):
        (dice,) = args
        return len(dice) == g.expected_dice and all(type(v) is int and 1 <= v <= 6 for v in dice)
    if name == "bank":
        return g.turn_points > 0 and not g.must_roll
    if name == "set_aside":
        (kept,) = args
        if g.phase == Phase.SALVAGE_SET_ASIDE:
            return reference_salvage(g.turn.held, g.turn.roll, kept)
        return tuple(sorted(kept)) in reference_options(tuple(sorted(g.turn.roll)))
    if name == "reroll":
        v, showing = g.turn.combo_value, g.turn.roll.count(g.turn.combo_value)
        return not args or (0 < len(args[0]) <= showing and set(args[0]) == {v})
    return True


def random_action(rng, g):
    """Any action at all, with arguments that are often nearly right."""
    name = rng.choice(ACTIONS)
    if name in ("roll", "roll_off"):
        n = rng.choice([g.expected_dice, g.expected_dice, rng.randint(0, 6)])
        return name, (tuple(rng.choice([0, 7]) if rng.random() < 0.03 else rng.randint(1, 6) for _ in range(n)),)
    if name == "set_aside":
        pool = list(g.turn.roll) + [rng.randint(1, 6)]
        return name, (tuple(rng.sample(pool, rng.randint(0, len(pool)))),)
    if name == "reroll" and rng.random() < 0.7:
        return name, ((rng.choice([g.turn.combo_value or 1, rng.randint(1, 6)]),) * rng.randint(0, 3),)
    return name, ()


def choose(rng, g, greed):
    """A random legal action (the reference model picks set-asides)."""
    phase = g.phase
    if phase == Phase.ROLL_OFF:
        return "roll_off", (tuple(rng.randint(1, 6) for _ in range(g.expected_dice)),)
    if phase == Phase.ROLL and g.can_bank:
        # a sensible player banks enough points, or a few with few dice left; now and then on a whim
        enough = g.turn_points >= greed or (g.turn_points >= 35 and g.expected_dice <= 2)
        if enough or rng.random() < 0.05:
            return "bank", ()
    if phase in (Phase.ROLL, Phase.CONFIRM_TRIPLE, Phase.CONFIRM_QUADRUPLE, Phase.SALVAGE_ROLL):
        return "roll", (tuple(rng.choices(FACES, k=g.expected_dice)),)
    if phase == Phase.SET_ASIDE:
        options = reference_options(tuple(sorted(g.turn.roll)))
        assert sorted(o.dice for o in g.options) == sorted(options), g.turn.roll
        best = max(options, key=lambda k: (options[k][0], -len(k)))
        return "set_aside", (best if rng.random() < 0.5 else rng.choice(list(options)),)
    if phase == Phase.SALVAGE_SET_ASIDE:
        options = [(v,) for v in set(g.turn.roll) if reference_salvage(g.turn.held, g.turn.roll, (v,))]
        return "set_aside", (rng.choice(options),)
    if phase == Phase.QUADRUPLE_CHOICE:
        if rng.random() < 0.5:
            return "accept", ()
        return "reroll", ((g.turn.combo_value,) * rng.randint(1, g.turn.roll.count(g.turn.combo_value)),)
    return rng.choice(["start_salvage", "decline_salvage"]), ()


def snapshot(g):
    """Everything an action could change (the history only grows, so its length will do)."""
    return g.turn, g.scores, g.on_scoreboard, g.current, g.contenders, g.leader, len(g.history)


def play(seed, n_players, goal, greed, illegal_rate=0.2):
    """Play one complete game, checking every step; returns the finished game."""
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(n_players)]
    g = TrainWreckGame.new(players, goal)
    scores, on_board, leader = [0] * n_players, [False] * n_players, None
    turn_actions = 0
    for _ in range(50_000):
        if g.is_over:
            break
        if rng.random() < illegal_rate:
            name, args = random_action(rng, g)
            if not legal(g, name, args):
                before = snapshot(g)
                try:
                    g.apply(name, *args)
                except RuleError as err:
                    assert err.rule and err.message
                else:
                    raise AssertionError(f"illegal {name}{args} accepted in {g.phase}: {g.prompt}")
                assert snapshot(g) == before
        name, args = choose(rng, g, greed)
        player, points_before, phase_before = g.current, g.turn_points, g.phase
        nxt = g.apply(name, *args)
        turn_actions += 1
        assert turn_actions < 500, "a turn that does not end"
        assert nxt.turn_points >= 0 and 0 <= nxt.expected_dice <= 5
        if name == "set_aside" and phase_before == Phase.SET_ASIDE:
            gained, confirming = reference_options(tuple(sorted(g.turn.roll)))[args[0]]
            assert nxt.turn_points == points_before + gained
            assert (nxt.phase in (Phase.CONFIRM_TRIPLE, Phase.CONFIRM_QUADRUPLE)) == confirming
        if len(nxt.history) > len(g.history):  # the turn ended
            result = nxt.history[-1]
            made = points_before if name == "bank" else 0
            assert (result.player, result.points) == (player, made)
            if on_board[player] or made >= 35:
                on_board[player] = True
                scores[player] += made
                if made and scores[player] >= goal and scores[player] >= max(scores):
                    leader = player
            assert list(nxt.scores) == scores and list(nxt.on_scoreboard) == on_board
            assert nxt.is_over == ((player + 1) % n_players == leader)
            turn_actions = 0
        elif name != "roll_off":
            assert nxt.current == g.current
        g = nxt
    assert g.is_over, "the game did not end"
    for i in range(n_players):  # banked totals are the sum of the turns that counted
        assert g.scores[i] == sum(t.counted for t in g.history if t.player == i)
        assert all(t.counted in (0, t.points) for t in g.history if t.player == i)
    top = max(g.scores)
    assert top >= goal
    assert set(g.winners) == {p for p, s in zip(players, g.scores) if s == top}
    assert [r[2] for r in g.ranking] == sorted(g.scores, reverse=True)
    return g


@settings(max_examples=examples(300, 3000), deadline=None)  # ~16 ms a game: thousands in CI
@given(
    seed=st.integers(0, 2**32 - 1),
    n_players=st.integers(1, 4),
    goal=st.sampled_from([500, 500, 750]),
    greed=st.sampled_from([35, 50, 100, 200]),
)
def test_random_games(seed, n_players, goal, greed):
    note(f"play({seed}, {n_players}, {goal}, {greed})")
    play(seed, n_players, goal, greed)


@settings(max_examples=examples(40, 200), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 4))
def test_random_games_to_the_default_goal(seed, n_players):
    note(f"play({seed}, {n_players}, 1000, 100)")
    play(seed, n_players, 1000, 100, illegal_rate=0.1)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5))
def test_set_aside_options_match_the_rulings(roll):
    roll = tuple(roll)
    expected = {k: reference_set_aside(roll, k) for k in sub_multisets(roll)}
    expected = {k: v for k, v in expected.items() if v is not None}
    got = {o.dice: o for o in set_aside_options(roll)}
    assert set(got) == set(expected)
    for dice, (points, confirming) in expected.items():
        assert confirming == (got[dice].combo in ("triple", "quadruple") and len(roll) > 3)
        if not confirming:
            assert got[dice].points == points


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_replay_rebuilds_the_same_game(data):
    """The table rebuilds the game from its event log: replaying the actions gives an equal game."""
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    players = ["A", "B", "C"][: data.draw(st.integers(1, 3))]
    g = TrainWreckGame.new(players, 500)
    log = []
    for _ in range(rng.randint(1, 200)):
        if g.is_over:
            break
        name, args = choose(rng, g, 60)
        g = g.apply(name, *args)
        log.append((name, *args))
    replayed = new_game("train-wreck", players, {"goal": 500})
    for name, *args in json.loads(json.dumps(log)):  # the args as the event log gives them back
        replayed = replayed.apply(name, *args)
    assert replayed == g
