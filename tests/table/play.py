"""Playing the table in tests: presses, readings of dice thrown, pushed or moved, a game started, a throw confirmed."""

import itertools

from appliance.event_log import LogError
from appliance.table import Table
from hardware.buttons import Press
from vision.types import KEEP, ROLL, Die, Reading

OK, NEXT, PREV, BACK = Press("OK"), Press("NEXT"), Press("PREV"), Press("BACK")
HOLD_OK, HOLD_NEXT, HOLD_PREV, HOLD_BACK = (Press(b, long=True) for b in ("OK", "NEXT", "PREV", "BACK"))


THROWS = itertools.count()  # each reading's rolling-area dice land in a row of their own: they were thrown


def dice(values, zone=ROLL, kind="d6", start=0, confidence=0.99, y=100):
    return [
        Die(kind, v, (start + 60 * i, y, start + 60 * i + 40, y + 40), zone, confidence) for i, v in enumerate(values)
    ]


def reading(roll=(), keep=(), kind="d6", extra=()):
    """Dice just thrown into the rolling area, and `keep` in the keep zone."""
    y = 100 + 60 * (next(THROWS) % 10)
    return Reading(
        tuple(dice(roll, ROLL, kind, y=y) + dice(keep, KEEP, kind, start=1000, y=800) + list(extra)), 1280, 960
    )


def pushed(before, *values):
    """`before` once the player pushed dice showing `values` into the keep zone: the others lie untouched."""
    lying = list(before.dice)
    for value in values:
        die = next(d for d in lying if d.zone == ROLL and d.value == value)
        x = 1000 + 60 * sum(d.zone == KEEP for d in lying)
        lying[lying.index(die)] = Die(die.kind, value, (x, 800, x + 40, 840), KEEP, die.confidence)
    return Reading(tuple(lying), before.width, before.height)


def start(log, game, players=1, **kw):
    table = Table(log, players=["Ann", "Bob", "Cy", "Di"], default_game=game, **kw)
    assert table.mode == "choose-game" and table.chooser.chosen.key == game
    table.press(OK)
    for _ in range(players - 4 if players > 4 else 0):
        table.press(NEXT)
    for _ in range(4 - players if players < 4 else 0):
        table.press(PREV)
    table.press(OK)
    assert table.mode == "play"
    return table


def throw(table, values, keep=(), kind="d6"):
    """A throw read and confirmed; its reading, to push dice from."""
    thrown = reading(values, keep, kind)
    table.reading(thrown)
    assert table.review is not None, table.message
    table.press(OK)
    return thrown


def finish(table, values=(1, 1, 1, 1, 1)):
    """A one-player Dice Poker game played to its end, each throw in its best field; the last throw's reading."""
    for _ in range(13):
        last = throw(table, values)
        table.press(NEXT)
        table.press(OK)
    assert table.mode == "game-over"
    return last


def disk_full(*args):
    raise LogError("cannot write the game log games.sqlite: database or disk is full")


def end_from_the_menu(table):
    table.press(HOLD_BACK)
    table.chooser.cursor = len(table.chooser.choices) - 1  # "end this game"
    table.press(OK)
    table.press(OK)  # yes, end it


def moved(before, value, dx, zone=ROLL, to=ROLL, dy=0):
    """`before` once the first die in `zone` showing `value` was slid by (dx, dy) into `to`; the others lie
    untouched."""
    lying = list(before.dice)
    die = next(d for d in lying if d.zone == zone and d.value == value)
    x0, y0, x1, y1 = die.box
    lying[lying.index(die)] = Die(die.kind, value, (x0 + dx, y0 + dy, x1 + dx, y1 + dy), to, die.confidence)
    return Reading(tuple(lying), before.width, before.height)
