"""What every way a throw can end scores in every field, as arrays, from the rules' own Field.score.

Computing them takes Field.score over every roll (5,005 for six d10s: about eight seconds here, far
more on a Pi), so the kubus games' tables under their default variants are shipped beside this
module (scores_GAME.npz; a test checks them against a fresh build); other variants build at first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from appliance.games.sheet import SheetRules
from appliance.games.tables import sheet_rules
from appliance.games.variants import spelled

from .dice import DiceSpace, dice_space


@dataclass(frozen=True, eq=False)
class ScoreTables:
    rules: SheetRules
    space: DiceSpace
    roll: np.ndarray  # [roll row, field index]: the score with no die fresh (no slam)
    slam_fields: tuple[int, ...]  # field indices that pay a slam
    pair_slam: np.ndarray  # [pair, j]: the score in slam_fields[j], the pair's thrown dice fresh
    top: int  # the highest score any field can get


def variants_key(rules: SheetRules) -> tuple:
    """A game's variants as hashable text that sheet_rules reads back."""
    return tuple(sorted((key, spelled(value)) for key, value in rules.variants.items()))


def tables_for(rules: SheetRules) -> ScoreTables:
    """The tables of a game as the rules were built (variants included)."""
    return _tables(rules.id, variants_key(rules))


def shipped_file(game: str) -> Path:
    return Path(__file__).with_name(f"scores_{game}.npz")


@cache
def _tables(game: str, variants: tuple) -> ScoreTables:
    rules = sheet_rules(game, dict(variants))
    space = dice_space(rules.dice, rules.faces)
    slam_fields = tuple(i for i, f in enumerate(rules.fields) if f.slam)
    shipped = shipped_file(game)
    if variants == variants_key(sheet_rules(game)) and shipped.exists():
        with np.load(shipped) as arrays:
            roll, pair_slam = arrays["roll"], arrays["pair_slam"]
    else:
        roll, pair_slam = compute(rules, space, slam_fields)
    top = int(max(roll.max(), pair_slam.max(initial=0)))
    return ScoreTables(rules, space, roll, slam_fields, pair_slam, top)


def compute(rules: SheetRules, space: DiceSpace, slam_fields: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """[roll, field] without slam and [pair, slam field] with the pair's thrown dice fresh, from the rules."""
    stale = (False,) * rules.dice
    roll = np.array([[f.score(r, stale).total for f in rules.fields] for r in space.roll_dice], dtype=np.int32)
    pair_slam = np.zeros((len(space.pair_keep), len(slam_fields)), dtype=np.int32)
    for p, (keep, fresh) in enumerate(zip(space.pair_keep, space.pair_fresh)):
        dice = space.keeps[keep] + fresh
        flags = (False,) * (len(dice) - len(fresh)) + (True,) * len(fresh)
        pair_slam[p] = [rules.fields[i].score(dice, flags).total for i in slam_fields]
    return roll, pair_slam


def stop_values(tables: ScoreTables, entries) -> np.ndarray:
    """[pair]: the best expected final score of stopping after the attempt that made the pair."""
    space = tables.space
    slam_of = {i: j for j, i in enumerate(tables.slam_fields)}
    plain = [(n - 1, lut) for _, n, lut in entries if n - 1 not in slam_of]
    best = np.full(len(space.pair_keep), -np.inf)
    if plain:
        fields = np.array([i for i, _ in plain])
        luts = np.stack([lut for _, lut in plain])
        per_roll = luts[np.arange(len(plain)), tables.roll[:, fields]].max(axis=1)
        best = per_roll[space.pair_roll]
    for _, n, lut in entries:
        if n - 1 in slam_of:
            best = np.maximum(best, lut[tables.pair_slam[:, slam_of[n - 1]]])
    return best
