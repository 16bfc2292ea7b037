"""A touchscreen (`buttons.touch = true`): the table draws the four buttons along the bottom, and a tap on
each drawn button is that button's press."""

import numpy as np
import pygame

from appliance.assemble import open_buttons, open_output
from appliance.event_log import EventLog
from appliance.screens import draw
from appliance.settings import load_settings
from appliance.table import Table
from hardware.buttons import BACK, BUTTONS, NEXT, OK, PREV, Press


def tap(pos):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def test_the_buttons_drawn_on_a_touchscreen_are_pressed_by_a_tap(tmp_path):
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text("[buttons]\ntouch = true\n")
    settings, warnings = load_settings(settings_file)
    assert warnings == []
    notes = []
    output = open_output(settings, tmp_path / "screens", notes)  # no screen here: SDL's dummy driver
    panel = open_buttons(settings, keyboard=False, notes=notes, layout=output.layout)
    try:
        table = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])  # the game list: PREV/NEXT, OK
        output.show(table.screen())
        image = pygame.surfarray.array3d(output.surface).swapaxes(0, 1)
        width, height = output.surface.get_size()
        cells = output.layout.soft_buttons()
        assert list(cells) == list(BUTTONS)
        for button, (x, y, w, h) in cells.items():
            assert y + h == height and 0 <= x and x + w <= width
            cell = image[y : y + h, x : x + w]
            named = np.all(cell == draw.ACCENT, axis=-1).any()  # a button that does something here: its name lit
            outlined = np.all(cell == draw.GRID, axis=-1).mean() > 0.02
            assert (named and outlined) == (button in (PREV, NEXT, OK)), button
            pygame.event.clear()
            tap((x + w // 2, y + h // 2))
            assert panel.poll() == [Press(button)]
        tap((width // 2, height // 2))  # above the bar: no button
        assert panel.poll() == []
    finally:
        panel.close()


def test_without_touch_no_taps_are_taken(tmp_path):
    settings, _ = load_settings(tmp_path / "none.toml")
    assert not settings.buttons.touch
    output = open_output(settings, tmp_path / "screens", [])
    panel = open_buttons(settings, keyboard=False, notes=[], layout=output.layout)
    x, y, w, h = output.layout.soft_buttons()[OK]
    pygame.event.clear()
    tap((x + w // 2, y + h // 2))
    assert panel.poll() == []
    panel.close()


def test_each_button_is_told_what_it_does():
    from appliance.screen_model import Hint
    from appliance.screens.render import button_actions

    tap, hold = button_actions(
        (
            Hint("PREV/NEXT", "fewer/more"),
            Hint("hold PREV/NEXT", "who starts"),
            Hint("OK", "start"),
            Hint("hold BACK", "menu"),
        )
    )
    assert tap == {PREV: "fewer", NEXT: "more", OK: "start"}
    assert hold == {PREV: "who starts", NEXT: "who starts", BACK: "menu"}
