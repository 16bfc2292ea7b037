"""What once confused players at the table: each screen says what stands, about whom, in one way."""

import numpy as np
import pygame

from appliance import gallery
from appliance.event_log import EventLog
from appliance.screens import draw
from appliance.screens import render as render_module
from appliance.screens.layout import LAYOUTS
from appliance.table import Table
from hardware.buttons import Press
from tests.table.play import NEXT, OK, finish, reading, start, throw


def drawn_texts(monkeypatch, screen, picture=None, layout=LAYOUTS["touchscreen"]) -> list[str]:
    drawn = []
    real_text = draw.text
    monkeypatch.setattr(
        draw, "text", lambda surface, what, *a, **k: drawn.append(what) or real_text(surface, what, *a, **k)
    )
    render_module.render(pygame.Surface(layout.size), screen, layout, picture)
    monkeypatch.undo()
    return drawn


def test_a_corrected_misread_is_labeled_with_its_new_value_in_the_picture(monkeypatch):
    """The review picture boxes each die with its value: once the player corrects the unsure 5 to a 6, the
    picture says 6 there too (it said 5, the misread, until the next throw)."""
    pygame.font.init()
    table = gallery.SCREENS["pentakubus-review"]()
    picture = gallery.PICTURES["pentakubus-review"]()
    assert sorted(d.value for d in picture.dice) == [2, 5, 6, 6, 6]

    def labels():
        return sorted(t for t in drawn_texts(monkeypatch, table.screen(), picture) if t in ("2", "5", "6"))

    assert labels() == ["2", "5", "6", "6", "6"]
    table.press(Press("NEXT", long=True))  # the unsure die (the cursor starts on it): 5 becomes 6
    assert sorted(table.review.values) == [2, 6, 6, 6, 6]
    assert labels() == ["2", "6", "6", "6", "6"]


def test_in_two_player_pentakubus_the_entry_stays_in_view_until_the_next_throw(log):
    table = start(log, "pentakubus", players=2)
    throw(table, (3, 3, 3, 3, 1))
    table.press(NEXT)
    table.press(OK)  # Ann's entry; Bob's turn
    screen = table.screen()
    entry = table.game.last_entry
    assert screen.title.endswith("Bob") and entry.player == 0
    assert screen.sheet.player == 0  # Ann's sheet, her entry framed, BACK offered for it
    assert screen.sheet.highlight == ((entry.column, entry.field),)
    assert any(h.does == "correct the last entry" for h in screen.hints)
    table.reading(reading((1, 2, 3, 4, 5)))  # Bob throws: Ann's entry is final, Bob's sheet shows
    assert table.screen().sheet.player == 1 and table.screen().sheet.highlight == ()


def test_the_roll_off_title_names_the_player_the_prompt_asks_to_roll(log):
    table = start(log, "train-wreck", players=3)
    for value in (4, 2):
        screen = table.screen()
        roller = screen.prompt.removeprefix("to choose who starts: ").split(",")[0]
        assert screen.title == f"Train Wreck: {roller}"
        table.reading(reading((value,)))
        table.press(OK)
    assert table.screen().title == "Train Wreck: Cy"


def test_the_choose_a_game_screen_says_nothing_of_the_tray(monkeypatch):
    pygame.font.init()
    table = gallery.SCREENS["choose-game"]()
    table.tray("moving")
    assert render_module.TRAY_STATUS["moving"] not in drawn_texts(monkeypatch, table.screen())


def drawn_die(**marks) -> np.ndarray:
    surface = pygame.Surface((120, 140))
    surface.fill(draw.BACKGROUND)
    draw.die(surface, pygame.Rect(30, 30, 60, 60), 3, **marks)  # the die from y 30 to 90
    return pygame.surfarray.array3d(surface).swapaxes(0, 1)


def rows_of(image: np.ndarray, colour) -> np.ndarray:
    return np.nonzero(np.all(image == colour, axis=-1).any(axis=1))[0]


def test_the_selected_die_and_an_unsure_die_are_marked_apart():
    """Once both were frames (yellow and orange, hard to tell apart, and a selected unsure die lost its
    orange): now the cursor is a yellow pointer under the die, an unsure die an orange frame with a "?"."""
    pygame.font.init()
    selected, unsure, both = (
        drawn_die(selected=True),
        drawn_die(uncertain=True),
        drawn_die(selected=True, uncertain=True),
    )
    assert rows_of(selected, draw.ACCENT).min() > 90 and not rows_of(selected, draw.WARN_COLOUR).size
    assert rows_of(unsure, draw.WARN_COLOUR).min() < 30 < 90 < rows_of(unsure, draw.WARN_COLOUR).max()
    assert not rows_of(unsure, draw.ACCENT).size
    assert rows_of(both, draw.ACCENT).min() > 90 and rows_of(both, draw.WARN_COLOUR).min() < 30


def test_a_finished_game_is_in_the_history_before_anyone_presses_ok(log, tmp_path):
    """Switched off on the game-over screen, the table still lists the game; back on, it shows that screen."""
    table = start(log, "dice-poker")
    finish(table)
    assert table.mode == "game-over"
    newest = log.history(1)
    assert newest and newest[0].id == table.record.id and newest[0].result[0]["name"] == "Ann"
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert again.mode == "game-over"
    again.press(OK)
    assert again.mode == "choose-game" and len(again.log.history()) == 1
    again.log.close()
    third = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert third.mode == "choose-game"  # left: the finished game does not come back
    third.log.close()


def test_the_roll_off_marks_the_player_to_roll_and_says_what_was_rolled(log):
    table = start(log, "train-wreck", players=3)
    table.reading(reading((4,)))
    table.press(OK)
    screen = table.screen()
    assert screen.title == "Train Wreck: Bob" and screen.scoreboard.acting == 1  # the scoreboard marks Bob, not Ann
    assert table.message == "Ann rolled 4"  # not "check the reading: OK confirms" still
