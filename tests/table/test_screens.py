"""Every screen drawn under SDL's dummy driver at 800x480 and 1920x1080, saved as PNG and checked."""

from collections import Counter

import numpy as np
import pygame
import pytest

from appliance.gallery import SCREENS, gallery_layouts, render_all
from appliance.game_views import sheet_view
from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules
from appliance.screens import draw
from appliance.screens.camera import label_spots
from appliance.screens.layout import LAYOUTS
from appliance.screens.render import SMALLEST_SHEET_TEXT
from appliance.screens.sheet_view import blocks_shown, focus_section


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    out = tmp_path_factory.mktemp("screens")
    return {
        (name, layout): pygame.surfarray.array3d(pygame.image.load(str(png))).swapaxes(0, 1)
        for name, layout, png in render_all(out)
    }


def share(image: np.ndarray, colour, region=None) -> float:
    """How much of the image (or of a region given as fractions x0, y0, x1, y1) has this colour."""
    h, w = image.shape[:2]
    if region:
        x0, y0, x1, y1 = region
        image = image[int(y0 * h) : int(y1 * h), int(x0 * w) : int(x1 * w)]
    return float(np.all(image == np.array(colour), axis=-1).mean())


LEFT, RIGHT = (0, 0.07, 0.55, 0.9), (0.6, 0.07, 1, 0.9)
DICE_ROW = (0.58, 0.07, 1, 0.22)


def test_every_screen_at_every_layout(shots):
    assert set(shots) == {(name, layout) for name in SCREENS for layout in gallery_layouts()}
    for (name, layout), image in shots.items():
        assert image.shape[:2] == gallery_layouts()[layout].size[::-1]
        assert share(image, draw.BACKGROUND) > 0.2, f"{name} {layout}: the screen is not the table's"
        assert share(image, draw.TEXT) > 0.002, f"{name} {layout}: no text drawn"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_field_list_and_the_sheet_show_the_cursor(shots, layout):
    image = shots[("pentakubus-fields", layout)]
    assert share(image, draw.ACCENT, RIGHT) > 0.002  # the cursor frame in the list
    assert share(image, draw.ACCENT, LEFT) > 0.0003  # the same field framed on the sheet
    assert share(image, draw.GOOD, LEFT) > 0.0005  # what the open fields would score


@pytest.mark.parametrize("layout", LAYOUTS)
def test_held_and_unsure_dice_are_marked(shots, layout):
    assert share(shots[("pentakubus-hold", layout)], draw.HELD, RIGHT) > 0.002
    assert share(shots[("pentakubus-review", layout)], draw.WARN_COLOUR, RIGHT) > 0.002
    assert share(shots[("pentakubus-review", layout)], draw.HELD, DICE_ROW) == 0  # nothing held yet


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_reading_is_shown_over_the_camera_picture(shots, layout):
    picture = (0.6, 0.35, 1, 0.9)  # below the dice and the prompt
    review, hold = shots[("pentakubus-review", layout)], shots[("pentakubus-hold", layout)]
    assert share(review, draw.GOOD, picture) > 0.001  # dice read
    assert share(review, draw.WARN_COLOUR, picture) > 0.0002  # the unsure one
    assert share(review, draw.HELD, picture) == 0  # none in the keep zone yet
    assert share(hold, draw.HELD, picture) > 0.0005  # the three pushed into the keep zone
    assert share(review, draw.BACKGROUND, picture) < 0.5  # the picture fills the space


def test_touching_dice_keep_their_values_apart():
    # the crowd of the Hexakubus demo throw: a die just below and left of another, a third beside it
    boxes = [
        pygame.Rect(140, 40, 14, 14),
        pygame.Rect(134, 55, 14, 14),
        pygame.Rect(149, 55, 14, 14),
        pygame.Rect(280, 200, 14, 14),
    ]
    bounds = pygame.Rect(0, 0, 320, 240)
    spots = label_spots(boxes, [(9, 16)] * len(boxes), bounds)
    assert spots[-1].topleft == (294, 184)  # a lone die: above its right corner
    for i, spot in enumerate(spots):
        assert bounds.contains(spot)
        others = boxes[:i] + boxes[i + 1 :] + spots[:i] + spots[i + 1 :]
        assert spot.collidelist(others) == -1, f"label {i} covers another die or label"
        assert max(abs(spot.centerx - boxes[i].centerx), abs(spot.centery - boxes[i].centery)) < 20  # beside its die


def test_warnings_are_coloured(shots):
    assert share(shots[("train-wreck-wreck", "touchscreen")], draw.ACCENT) > 0.001  # the running turn total


def sheet_game(game_id):
    return SheetGame.new(sheet_rules(game_id), ["Ann", "Bob"])


def sheet(game_id):
    return sheet_view(sheet_game(game_id), 0)


# Hexakubus's 40 fields do not fit whole at the TV's smallest text (32 px): the section in focus in full, the
# others summed up, as on the touchscreen
@pytest.mark.parametrize("game_id, fields", [("pentakubus", 24), ("hexakubus", 10)])
def test_a_tv_shows_the_whole_sheet(game_id, fields):
    game = sheet(game_id)
    layout = LAYOUTS["tv"]
    panel = pygame.Rect(0, 0, int(layout.size[0] * 0.67), layout.size[1] - layout.px(100))
    size, blocks = blocks_shown(
        game, focus_section(game, None), panel, layout.font_small, layout.px(SMALLEST_SHEET_TEXT)
    )
    full = [s for block in blocks for s, whole in block if whole]
    assert sum(len(s.fields) for s in full) == fields
    assert size >= layout.px(SMALLEST_SHEET_TEXT) >= 32  # still readable from the sofa


@pytest.mark.parametrize("game_id, focus, expected", [("pentakubus", (1, 21), "D"), ("hexakubus", (0, 27), "C")])
def test_the_touchscreen_shows_the_section_in_focus_in_full(game_id, focus, expected):
    game = sheet(game_id)
    layout = LAYOUTS["touchscreen"]
    panel = pygame.Rect(0, 0, int(layout.size[0] * 0.55), layout.size[1] - layout.px(100))
    size, blocks = blocks_shown(
        game, focus_section(game, focus), panel, layout.font_small, layout.px(SMALLEST_SHEET_TEXT)
    )
    full = {s.name for block in blocks for s, whole in block if whole}
    summed = {s.name for block in blocks for s, whole in block if not whole}
    assert expected in full and full | summed == {"A", "B", "C", "D"}
    assert size == layout.font_small


def test_one_column_games_show_every_player_and_kubus_one_sheet():
    from appliance.game_views import sheet_columns

    poker = SheetGame.new(sheet_rules("dice-poker"), ["Ann", "Bob", "Cy"])
    assert [(c.header, c.active) for c in sheet_columns(poker, 1)] == [("Ann", False), ("Bob", True), ("Cy", False)]
    kubus = sheet_game("pentakubus")
    assert [(c.header, c.player == 1) for c in sheet_columns(kubus, 1)] == [
        ("left", True),
        ("middle", True),
        ("right", True),
    ]


def test_a_slam_is_marked_on_the_sheet():
    game = sheet_game("pentakubus").start_throw((6, 6, 6, 6, 6)).enter(1, 24)  # grand slam: 30 + 55 + 15
    assert game.sheets[0].entries[(1, 24)].slam == 15
    layout = LAYOUTS["touchscreen"]
    plain = sheet_game("pentakubus").start_throw((6, 6, 6, 6, 6)).rethrow([0], [6]).enter(1, 24)  # a held die
    assert plain.sheets[0].entries[(1, 24)].slam == 0
    shares = []
    for g in (game, plain):
        surface = pygame.Surface(layout.size)
        from appliance.screens.sheet_view import draw_sheet

        draw_sheet(
            surface, pygame.Rect(0, 0, 440, 380), sheet_view(g, 0, focus=(1, 24)), layout.font_small, layout.font_small
        )
        shares.append(share(pygame.surfarray.array3d(surface).swapaxes(0, 1), draw.ACCENT))
    assert shares[0] > shares[1]  # the slam's dot


def test_a_message_too_long_for_its_lines_says_that_it_goes_on():
    pygame.font.init()
    words = [f"word{i}" for i in range(200)]
    shown = draw.lines(" ".join(words), 18, 400, max_lines=3)
    assert len(shown) == 3 and shown[-1].endswith(" ...")
    assert " ".join(shown).removesuffix(" ...").split() == words[: len(" ".join(shown).split()) - 1]
    assert all(draw.font(18).size(line)[0] <= 400 for line in shown)
    assert draw.lines("a short one", 18, 400, max_lines=3) == ["a short one"]


def test_a_menu_shows_a_long_notice_whole():
    """At start the table may have several things to say at once (no screen, a damaged log kept aside)."""
    from appliance.screens.render import MENU_MESSAGE_LINES

    pygame.font.init()
    notice = (
        "no screen here: the latest screen is written to /tmp/dicetable-screens-im16nat_/screen.png; the game "
        "log /var/lib/dicetable/games.sqlite is damaged (file is not a database): kept as "
        "games.damaged-20261122-004223.sqlite; a new game log was started"
    )
    layout = LAYOUTS["touchscreen"]
    width = layout.size[0] - 2 * layout.margin
    assert not draw.lines(notice, layout.font_body, width, MENU_MESSAGE_LINES)[-1].endswith("...")


def test_a_camera_problem_is_shown_with_its_cause(monkeypatch):
    """The title bar gives a camera problem two lines, so the cause at its end is read, not cut off."""
    from appliance.screens import render as render_module

    pygame.font.init()
    drawn = []
    real_text = draw.text
    monkeypatch.setattr(
        draw, "text", lambda surface, what, *a, **k: drawn.append(what) or real_text(surface, what, *a, **k)
    )
    table = SCREENS["pentakubus-fields"]()
    problem = "USB camera 0 lost, retrying in 10 s (cannot open /dev/video7: no such device; check camera.device)"
    table.camera(problem)
    for layout in LAYOUTS.values():
        drawn.clear()
        render_module.render(pygame.Surface(layout.size), table.screen(), layout, None)
        first = drawn.index(next(line for line in drawn if line.startswith("USB camera 0 lost")))
        assert " ".join(drawn[first : first + 2]) == problem  # whole, in the two lines after the title


@pytest.mark.parametrize("state", ["moving", "hand", "empty"])
def test_what_the_tray_is_doing_is_said_once(monkeypatch, state):
    """One place, one wording, whole: the tray's state once showed in the title bar and again under the prompt,
    worded two ways ("dice rolling…" and "dice rolling...")."""
    from appliance.screens import render as render_module

    pygame.font.init()
    drawn = []
    real_text = draw.text
    monkeypatch.setattr(
        draw, "text", lambda surface, what, *a, **k: drawn.append(what) or real_text(surface, what, *a, **k)
    )
    for name in ("choose-game", "game-over", "pentakubus-hold", "train-wreck-set-aside"):
        table = SCREENS[name]()
        for layout in gallery_layouts().values():
            said = {}
            for tray in ("", state):
                table.tray(tray)
                drawn.clear()
                render_module.render(pygame.Surface(layout.size), table.screen(), layout, None)
                said[tray] = Counter(drawn)
            # while no dice are played (choosing a game, the game over) the tray is not news
            expected = [render_module.TRAY_STATUS[state]] if table.screen().kind == "play" else []
            assert list((said[state] - said[""]).elements()) == expected, (name, layout)
