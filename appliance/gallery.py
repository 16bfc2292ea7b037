"""Every screen of the table in a typical state, at both layouts: for the screenshot tests and docs.

python -m appliance.gallery docs/screens            the PNGs, and a contact sheet per screen size of every
                                                    screen for 1, 4 and 8 players (no display needed)
python -m appliance.gallery DIR --players           every screen for 1, 4 and 8 players, full size
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from pathlib import Path

from appliance.event_log import EventLog
from appliance.screen_model import Picture
from appliance.table import Table
from hardware.buttons import Press
from vision.types import KEEP, ROLL, Die, Reading

OK, NEXT, BACK = Press("OK"), Press("NEXT"), Press("BACK")
HOLD_BACK = Press("BACK", long=True)


def _reading(roll=(), keep=(), kind="d6", unsure=()) -> Reading:
    dice = [
        Die(kind, v, (70 * i, 100, 70 * i + 50, 150), ROLL, 0.4 if i in unsure else 0.99) for i, v in enumerate(roll)
    ]
    dice += [Die(kind, v, (70 * i, 400, 70 * i + 50, 450), KEEP, 0.99) for i, v in enumerate(keep)]
    return Reading(tuple(dice), 1280, 960)


@lru_cache(maxsize=1)
def _scratch() -> tempfile.TemporaryDirectory:
    """The folder of the gallery's throwaway game logs, removed when the process ends."""
    return tempfile.TemporaryDirectory(prefix="dicetable-gallery-")


def _log() -> EventLog:
    return EventLog(Path(tempfile.mkdtemp(dir=_scratch().name)) / "games.sqlite")


# Names as a table gets them: short and long, in other scripts, one no font has (the dice emoji)
NAMES = ("Ann", "Bob", "Cy", "Dagmar-Louise", "김민준", "Farouk", "Maximiliane-Josefine", "花子🎲")  # 20: the longest
COUNTS = (1, 4, 8)  # players: the fewest, a usual night, the most the rules allow


def players(n: int) -> list[str]:
    return list(NAMES[:n])


def _table(game: str, names: list[str]) -> Table:
    table = Table(_log(), players=names)
    table.start(game, names)
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


def _choose_game(names=NAMES[:3]) -> Table:
    return Table(_log(), players=list(names))


def _choose_players(names=NAMES[:3]) -> Table:
    return _pressed(_choose_game(names), NEXT, OK)


def _names(names=NAMES[:3]) -> Table:
    """Typing the second player's name: "Bo" so far, the wheel on the o."""
    table = _pressed(_choose_players(names), Press("OK", long=True))
    if len(names) > 1:
        _pressed(table, Press("OK", long=True), *[BACK] * 10, NEXT, OK, *[NEXT] * 39, OK)
    return table


def _pentakubus_review(names=NAMES[:3]) -> Table:
    table = _played(_table("pentakubus", list(names)), [((3, 3, 3, 3, 1), [NEXT, OK]), ((1, 2, 3, 4, 5), [NEXT, OK])])
    table.reading(_review_tray()[1])
    return table


def _pentakubus_hold(names=NAMES[:3]) -> Table:
    table = _pressed(_pentakubus_review(names), OK, OK)
    table.reading(_hold_tray()[1])
    return table


def _pentakubus_fields(names=NAMES[:3]) -> Table:
    return _pressed(_pentakubus_hold(names), NEXT, NEXT)


def _hexakubus_fields(names=NAMES[:2]) -> Table:
    table = _table("hexakubus", list(names))
    table.reading(_reading((8, 9, 10, 1, 2, 3), kind="d10"))
    return _pressed(table, OK, NEXT)


def _dice_poker_fields(names=NAMES[:2]) -> Table:
    table = _played(_table("dice-poker", list(names)), [((1, 3, 2, 4, 4), [NEXT, OK])] * len(names))
    table.reading(_reading((3, 3, 3, 5, 6)))
    return _pressed(table, OK, NEXT)


def _dice_poker_menu(names=NAMES[:2]) -> Table:
    return _pressed(_played(_table("dice-poker", list(names)), [((1, 3, 2, 4, 4), [NEXT, OK])]), HOLD_BACK)


def _rolled_off(names) -> Table:
    """Train Wreck after its roll-off (the last player rolls highest, so a turn is under way for one not first)."""
    table = _table("train-wreck", list(names))
    if len(names) > 1:  # one player needs no roll-off
        for value in [1, 2, 3, 4, 5, 1, 2][: len(names) - 1] + [6]:  # each unlike the last: a throw, not a nudge
            table.reading(_reading((value,)))
            table.press(OK)
    return table


def _train_wreck_roll_off(names=NAMES[:3]) -> Table:
    table = _table("train-wreck", list(names))
    if len(names) > 1:  # one player needs no roll-off: the game starts with the first turn
        table.reading(_reading((4,)))
        table.press(OK)
    return table


def _train_wreck_set_aside(names=NAMES[:3]) -> Table:
    table = _rolled_off(names)
    table.reading(_reading((1, 5, 2, 3, 3)))
    table.press(OK)
    return table


def _train_wreck_wreck(names=NAMES[:3]) -> Table:
    table = _train_wreck_set_aside(names)
    table.press(OK)  # the 1 and the 5
    table.reading(_reading((2, 3, 4)))
    table.press(OK)
    return table


def _game_over(names=NAMES[:2]) -> Table:
    table = _table("dice-poker", list(names))
    for turn in range(13 * len(names)):
        table.reading(_reading((6, 6, 6, 6, 6) if turn % 2 else (2, 3, 4, 5, 5)))
        _pressed(table, OK, NEXT, OK)
    return table


SCREENS: dict[str, Callable[..., Table]] = {
    "choose-game": _choose_game,
    "choose-players": _choose_players,
    "names": _names,
    "pentakubus-review": _pentakubus_review,
    "pentakubus-hold": _pentakubus_hold,
    "pentakubus-fields": _pentakubus_fields,
    "hexakubus-fields": _hexakubus_fields,
    "dice-poker-fields": _dice_poker_fields,
    "dice-poker-menu": _dice_poker_menu,
    "train-wreck-roll-off": _train_wreck_roll_off,
    "train-wreck-set-aside": _train_wreck_set_aside,
    "train-wreck-wreck": _train_wreck_wreck,
    "game-over": _game_over,
}


@cache
def _tray(
    roll: tuple[int, ...],
    keep: tuple[int, ...] = (),
    unsure: tuple[int, ...] = (),
    spots: tuple[int, ...] | None = None,
):
    """(image, reading): a drawn tray (its keep zone the brown band along the bottom) with these dice, as the
    camera would show it, and its reading: the same dice the screen lists, `unsure` (indices) read at 0.4. The
    rolling-area dice lie at `spots` (left to right, 0 the first; by default one after the other): dice not
    thrown stay put."""
    import numpy as np

    from vision.lab.render.flat import BLACK, MARBLED, RED_TRANSLUCENT, WHITE, die, surface

    width, height, band = 1280, 960, 720
    image = surface(height, width, seed=1)
    image[band:] = surface(height - band, width, colour=(40, 70, 120), seed=2)
    rng = np.random.default_rng(1)
    dice = []
    for zone, values, y in ((ROLL, roll, 0.3), (KEEP, keep, 0.87)):
        places = spots if zone == ROLL and spots else range(len(values))
        for i, value in zip(places, values):
            centre = (width * (0.15 + 0.17 * i), height * (y + (0.2 if zone == ROLL and i % 2 else 0)))
            box = die(
                image,
                centre,
                width / 12,
                value,
                float(rng.uniform(0, 90)),
                (WHITE, BLACK, RED_TRANSLUCENT, MARBLED)[len(dice) % 4],
                rng,
            )
            dice.append(Die("d6", value, box, zone, 0.4 if len(dice) in unsure else 0.99))
    return image, Reading(tuple(dice), width, height)


def _review_tray():
    return _tray((6, 6, 2, 5, 6), unsure=(3,))


def _hold_tray():
    return _tray((2, 5), keep=(6, 6, 6), spots=(2, 3))  # the review's 6s pushed, its 2 and 5 untouched


PICTURES = {
    "pentakubus-review": lambda: Picture.read(*_review_tray()),
    "pentakubus-hold": lambda: Picture.read(*_hold_tray()),
}


def gallery_layouts() -> dict:
    """The two layouts, and the touchscreen's with its soft buttons drawn (`buttons.touch`)."""
    from dataclasses import replace

    from appliance.screens.layout import LAYOUTS

    return {**LAYOUTS, "touch": replace(LAYOUTS["touchscreen"], touch=True)}


def render_all(out_dir: Path, counts=None) -> Iterator[tuple[str, str, Path]]:
    """(screen, layout, png) for every screen at every layout of the gallery; with `counts`, each screen for
    that many players too (named `screen-Np-layout.png`)."""
    from appliance.screens import png

    for name, n, layout_name, surface in drawn(counts or (None,)):
        path = out_dir / f"{name}{f'-{n}p' if n else ''}-{layout_name}.png"
        out_dir.mkdir(parents=True, exist_ok=True)
        png.save(surface, path)
        yield name, layout_name, path


def drawn(counts=COUNTS, layouts=None) -> Iterator[tuple]:
    """(screen, players, layout, surface) for every screen of the gallery drawn for each number of players
    (None: its usual players) at each layout."""
    from appliance.screens import png

    for name, build in SCREENS.items():
        for n in counts:
            screen = (build(players(n)) if n else build()).screen()
            picture = PICTURES[name]() if name in PICTURES else None
            for layout_name, layout in (layouts or gallery_layouts()).items():
                yield name, n, layout_name, png.drawn(screen, layout, picture)


def contact_sheet(out: Path, layout_name: str, counts=COUNTS) -> Path:
    """Every screen for each number of players at one layout, shrunk into one PNG: a row per screen, a column
    per number of players, to look over at once."""
    from appliance.screens import png

    layout = gallery_layouts()[layout_name]
    shrink = 400 / layout.size[0]
    cell = (round(layout.size[0] * shrink), round(layout.size[1] * shrink))
    cells = (
        (list(SCREENS).index(name), counts.index(n), f"{name}, {n} player{'s' if n > 1 else ''}", surface)
        for name, n, _, surface in drawn(counts, {layout_name: layout})
    )
    return png.contact_sheet(out, cells, len(SCREENS), len(counts), cell)


if __name__ == "__main__":  # screens drawn on surfaces of their own: no display is opened
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screens")
    if "--players" in sys.argv:  # each screen for 1, 4 and 8 players
        for _, _, png in render_all(folder, COUNTS):
            print(png)
    else:
        for _, _, png in render_all(folder):
            print(png)
        for layout_name in ("touchscreen", "tv"):
            print(contact_sheet(folder / f"contact-sheet-{layout_name}.png", layout_name))
