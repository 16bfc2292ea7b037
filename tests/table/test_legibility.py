"""Every gallery screen for 1, 4 and 8 players at 800x480 and 1920x1080, its drawn text measured: large enough
to read from a chair at the table, whole (never cut short by the fitting of last resort), not overlapping other
text, and inside the part of the screen it belongs to."""

import re
from dataclasses import dataclass

import pygame
import pytest

from appliance import gallery
from appliance.screens import draw
from appliance.screens import render as render_module
from appliance.screens.render import PROMPT_TEXT, SCORE_TEXT, SMALLEST_TEXT

RANKED = re.compile(r"^\d+\. .+ -?\d+$")  # "2. Bob 59": a place, a name and a total


@dataclass
class Drawn:
    what: str
    size: int
    rect: pygame.Rect
    cut: bool  # shortened by text()'s max_width, the fitting of last resort
    part: str  # "title", "body" or "buttons"


def measure(monkeypatch, screen, layout, picture=None) -> list[Drawn]:
    drawn, part = [], ["body"]
    real_text = draw.text

    def text(surface, what, pos, size, colour=draw.TEXT, bold=False, anchor="topleft", max_width=None):
        cut = max_width is not None and draw.font(size, bold).size(what)[0] > max_width
        rect = real_text(surface, what, pos, size, colour, bold, anchor, max_width)
        if what:
            drawn.append(Drawn(what, size, rect, cut, part[0]))
        return rect

    def in_part(name, real):
        def wrapped(*args):
            part[0] = name
            real(*args)
            part[0] = "body"

        return wrapped

    monkeypatch.setattr(draw, "text", text)
    monkeypatch.setattr(render_module, "_title_bar", in_part("title", render_module._title_bar))
    monkeypatch.setattr(render_module, "_hints_bar", in_part("buttons", render_module._hints_bar))
    monkeypatch.setattr(render_module, "_soft_buttons", in_part("buttons", render_module._soft_buttons))
    render_module.render(pygame.Surface(layout.size), screen, layout, picture)
    monkeypatch.undo()
    return drawn


def prompt_lines(drawn: list[Drawn], prompt: str) -> list[Drawn]:
    """The drawn lines that say the whole prompt one after the other (none if it is not drawn whole)."""
    for i in range(len(drawn)):
        for j in range(i + 1, len(drawn) + 1):
            said = " ".join(d.what for d in drawn[i:j])
            if said == prompt:
                return drawn[i:j]
            if not prompt.startswith(said):
                break
    return []


CASES = [(name, n) for name in gallery.SCREENS for n in gallery.COUNTS]


@pytest.mark.parametrize("name,players", CASES)
def test_every_screen_is_legible_for_any_number_of_players(monkeypatch, name, players):
    pygame.font.init()
    screen = gallery.SCREENS[name](gallery.players(players)).screen()
    picture = gallery.PICTURES[name]() if name in gallery.PICTURES else None
    problems = []
    for layout_name, layout in gallery.gallery_layouts().items():
        where = f"{name}, {players} players, {layout_name}"
        drawn = measure(monkeypatch, screen, layout, picture)
        assert drawn, where
        w, h = layout.size
        title_h = layout.px(44)
        bar_top = h - (layout.button_bar if layout.touch else layout.px(40))
        floor = layout.px(SMALLEST_TEXT)
        for d in drawn:
            top, bottom = {"title": (0, title_h), "body": (title_h, bar_top), "buttons": (bar_top, h)}[d.part]
            problems += [
                f"{where}: {d.what!r} {said}"
                for said, bad in (
                    (f"drawn at {d.size} px, under {floor}", d.size < floor),
                    ("cut short", d.cut),
                    (f"off the screen at {d.rect}", not pygame.Rect(0, 0, w, h).contains(d.rect)),
                    (f"outside the {d.part} at {d.rect}", not top <= d.rect.top <= d.rect.bottom <= bottom),
                    (f"a score at {d.size} px", RANKED.match(d.what) and d.size < layout.px(SCORE_TEXT)),
                )
                if bad
            ]
        problems += [
            f"{where}: {a.what!r} {a.rect} overlaps {b.what!r} {b.rect}"
            for i, a in enumerate(drawn)
            for b in drawn[i + 1 :]
            if a.rect.colliderect(b.rect)
        ]
        if screen.prompt and not any(d.size >= layout.px(PROMPT_TEXT) for d in prompt_lines(drawn, screen.prompt)):
            problems.append(f"{where}: the prompt {screen.prompt!r} is not drawn whole at {layout.px(PROMPT_TEXT)} px")
    assert not problems, "\n".join(problems[:12])


def test_the_text_size_is_the_height_a_reader_sees():
    """The sizes above are the font's em in pixels; its capitals are three quarters of it (DejaVu Sans
    Condensed), so 14 px text has capitals 10 px tall, about 2 mm on the 7-inch touchscreen."""
    pygame.font.init()
    for size in (14, 18, 32):
        ink = draw.font(size).render("H", draw.TEXT).get_bounding_rect()
        assert 0.7 * size <= ink.height <= 0.8 * size


@pytest.mark.parametrize(
    "name,script",
    [("山田花子", "CJK"), ("김민준", "Hangul"), ("さくら", "kana"), ("Дмитрий", "Cyrillic"), ("Ωμέγα", "Greek")],
)
def test_names_in_other_scripts_are_drawn_not_boxed(name, script):
    """Each character drawn with a glyph of its own: not the empty box a font draws for one it lacks."""
    pygame.font.init()
    for file, run in draw.runs(name):
        assert draw.MISSING not in run and all(draw._covers(file, c) for c in run), script
    tofu = draw.font(20).render("\U0010fffd", draw.TEXT)  # a private character no font has: the replacement
    assert draw.font(20).render(name, draw.TEXT).get_bounding_rect().width > len(name) * 8
    assert tofu.get_width() < 30


def test_a_character_no_font_has_is_shown_as_such():
    """An emoji (no shipped font has one) becomes the replacement character, which every reader knows means
    'a character that cannot be shown', so that the name shows that it holds more."""
    assert draw.runs("Ann🎲") == ((draw.FACES[False], "Ann" + draw.MISSING),)
    assert draw.runs("花子", bold=True) == ((draw.FALLBACK, "花子"),)


def test_characters_no_font_draws_are_left_out_and_nothing_fails():
    """A NUL or a zero-width space in a name (an older version's log keeps one) draws nothing; combining marks
    alone draw an empty text rather than fail the screen."""
    pygame.font.init()
    assert draw.runs("A\u200bn\x00n") == ((draw.FACES[False], "Ann"),)
    assert draw.font(20).render("\u0301", draw.TEXT).get_height() > 0
    assert draw.font(20).size("A\u200bnn") == draw.font(20).size("Ann")


@pytest.mark.parametrize("name", ["pentakubus-fields", "train-wreck-set-aside", "game-over"])
def test_the_longest_name_fits_the_title_and_the_lists(monkeypatch, name):
    """A name of 20 characters (the most the settings allow) first: in the title, shrunk or shortened on purpose."""
    pygame.font.init()
    screen = gallery.SCREENS[name](["Maximiliane-Josefine", "Bob"]).screen()
    for layout_name, layout in gallery.gallery_layouts().items():
        drawn = measure(monkeypatch, screen, layout, gallery.PICTURES[name]() if name in gallery.PICTURES else None)
        assert not [d.what for d in drawn if d.cut], layout_name
        assert min(d.size for d in drawn) >= layout.px(SMALLEST_TEXT)
        [title] = [d.what for d in drawn if d.part == "title"]
        assert title == screen.title or title.endswith("…") and screen.title.startswith(title[:-1])
