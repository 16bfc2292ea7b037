"""Every screen of the table in a typical state, at both layouts: for the screenshot tests and docs.

    python -m appliance.gallery docs/screens     writes the PNGs (no display needed)
"""
from __future__ import annotations

import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from appliance.event_log import EventLog
from appliance.table import Table
from hardware.buttons import Press
from vision.types import KEEP, ROLL, Die, Reading

OK, NEXT, BACK = Press("OK"), Press("NEXT"), Press("BACK")
HOLD_BACK = Press("BACK", long=True)


def _reading(roll=(), keep=(), kind="d6", unsure=()) -> Reading:
    dice = [Die(kind, v, (70 * i, 100, 70 * i + 50, 150), ROLL, 0.4 if i in unsure else 0.99) for i, v in enumerate(roll)]
    dice += [Die(kind, v, (70 * i, 400, 70 * i + 50, 450), KEEP, 0.99) for i, v in enumerate(keep)]
    return Reading(tuple(dice), 1280, 960)


@lru_cache(maxsize=1)
def _scratch() -> tempfile.TemporaryDirectory:
    """The folder of the gallery's throwaway game logs, removed when the process ends."""
    return tempfile.TemporaryDirectory(prefix="dicetable-gallery-")


def _log() -> EventLog:
    return EventLog(Path(tempfile.mkdtemp(dir=_scratch().name)) / "games.sqlite")


def _table(game: str, players: list[str]) -> Table:
    table = Table(_log(), players=players)
    table.start(game, players)
    return table


def _pressed(table: Table, *presses) -> Table:
    for press in presses:
        table.press(press)
    return table


def _played(table: Table, throws) -> Table:
    for dice, presses in throws:
        table.reading(_reading(dice))
        _pressed(table, OK, *presses)
    return table


def _choose_game() -> Table:
    return Table(_log(), players=["Ann", "Bob", "Cy"])


def _choose_players() -> Table:
    return _pressed(_choose_game(), NEXT, OK)


def _pentakubus_review() -> Table:
    table = _played(_table("pentakubus", ["Ann", "Bob", "Cy"]), [((3, 3, 3, 3, 1), [NEXT, OK]), ((1, 2, 3, 4, 5), [NEXT, OK])])
    table.reading(_review_picture().reading)
    return table


def _pentakubus_hold() -> Table:
    table = _pressed(_pentakubus_review(), OK, OK)
    table.reading(_hold_picture().reading)
    return table


def _pentakubus_fields() -> Table:
    return _pressed(_pentakubus_hold(), NEXT, NEXT)


def _hexakubus_fields() -> Table:
    table = _table("hexakubus", ["Ann", "Bob"])
    table.reading(_reading((8, 9, 10, 1, 2, 3), kind="d10"))
    return _pressed(table, OK, NEXT)


def _dice_poker_menu() -> Table:
    return _pressed(_played(_table("dice-poker", ["Ann", "Bob"]), [((1, 3, 2, 4, 4), [NEXT, OK])]), HOLD_BACK)


def _train_wreck_set_aside() -> Table:
    table = _table("train-wreck", ["Ann", "Bob", "Cy"])
    for value in (4, 6, 2):
        table.reading(_reading((value,)))
        table.press(OK)
    table.reading(_reading((1, 5, 2, 3, 3)))
    table.press(OK)
    return table


def _train_wreck_wreck() -> Table:
    table = _train_wreck_set_aside()
    table.press(OK)  # the 1 and the 5
    table.reading(_reading((2, 3, 4)))
    table.press(OK)
    return table


def _game_over() -> Table:
    table = _table("dice-poker", ["Ann", "Bob"])
    for turn in range(26):
        table.reading(_reading((6, 6, 6, 6, 6) if turn % 2 else (2, 3, 4, 5, 5)))
        _pressed(table, OK, NEXT, OK)
    return table


SCREENS: dict[str, Callable[[], Table]] = {
    "choose-game": _choose_game,
    "choose-players": _choose_players,
    "pentakubus-review": _pentakubus_review,
    "pentakubus-hold": _pentakubus_hold,
    "pentakubus-fields": _pentakubus_fields,
    "hexakubus-fields": _hexakubus_fields,
    "dice-poker-menu": _dice_poker_menu,
    "train-wreck-set-aside": _train_wreck_set_aside,
    "train-wreck-wreck": _train_wreck_wreck,
    "game-over": _game_over,
}


@lru_cache(maxsize=None)
def _tray_picture(roll: tuple[int, ...], keep: tuple[int, ...] = (), unsure: tuple[int, ...] = (),
                  spots: tuple[int, ...] | None = None):
    """A drawn tray (its keep zone the brown band along the bottom) with these dice, as the camera would show
    it, and its reading: the same dice the screen lists, `unsure` (indices) read at 0.4. The rolling-area dice
    lie at `spots` (left to right, 0 the first; by default one after the other): dice not thrown stay put."""
    import numpy as np

    from appliance.screen_model import Picture
    from vision.synthetic import BLACK, MARBLED, RED_TRANSLUCENT, WHITE, draw_die, felt

    width, height, band = 1280, 960, 720
    image = felt(height, width, seed=1)
    image[band:] = felt(height - band, width, colour=(40, 70, 120), seed=2)
    rng = np.random.default_rng(1)
    dice = []
    for zone, values, y in ((ROLL, roll, 0.3), (KEEP, keep, 0.87)):
        places = spots if zone == ROLL and spots else range(len(values))
        for i, value in zip(places, values):
            centre = (width * (0.15 + 0.17 * i), height * (y + (0.2 if zone == ROLL and i % 2 else 0)))
            box = draw_die(image, centre, width / 12, value, float(rng.uniform(0, 90)),
                           (WHITE, BLACK, RED_TRANSLUCENT, MARBLED)[len(dice) % 4], rng)
            dice.append(Die("d6", value, box, zone, 0.4 if len(dice) in unsure else 0.99))
    return Picture(image, Reading(tuple(dice), width, height))


def _review_picture():
    return _tray_picture((6, 6, 2, 5, 6), unsure=(3,))


def _hold_picture():
    return _tray_picture((2, 5), keep=(6, 6, 6), spots=(2, 3))  # the review's 6s pushed, its 2 and 5 untouched


PICTURES = {"pentakubus-review": _review_picture, "pentakubus-hold": _hold_picture}


def gallery_layouts() -> dict:
    """The two layouts, and the touchscreen's with its soft buttons drawn (`buttons.touch`)."""
    from dataclasses import replace

    from hardware.display import LAYOUTS

    return {**LAYOUTS, "touch": replace(LAYOUTS["touchscreen"], touch=True)}


def render_all(out_dir: Path) -> Iterator[tuple[str, str, Path]]:
    """(screen, layout, png) for every screen at every layout of the gallery."""
    import pygame

    from appliance.screens.render import render

    out_dir.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    for name, build in SCREENS.items():
        screen = build().screen()
        picture = PICTURES[name]() if name in PICTURES else None
        for layout_name, layout in gallery_layouts().items():
            surface = pygame.Surface(layout.size)
            render(surface, screen, layout, picture)
            path = out_dir / f"{name}-{layout_name}.png"
            pygame.image.save(surface, str(path))
            yield name, layout_name, path


if __name__ == "__main__":   # screens drawn on surfaces of their own: no display is opened
    for _, _, png in render_all(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screens")):
        print(png)
