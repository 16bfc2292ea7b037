"""The advisor at the table (setting game.advice): asked for, shown always or never, and never entering anything."""

from dataclasses import replace

import numpy as np
import pygame
import pytest

from appliance.screen_model import Picture, SeenDie
from appliance.screens import draw
from appliance.screens.camera import advised_dice
from appliance.screens.layout import LAYOUTS
from appliance.screens.render import render
from appliance.settings import load_settings
from hardware.buttons import Press
from tests.table.play import HOLD_BACK, HOLD_NEXT, HOLD_PREV, NEXT, OK, start, throw


def advice_line(table):
    line = table.screen().best
    return line if line.startswith("advice:") else ""


def open_menu_advice(table):
    table.press(HOLD_BACK)
    labels = [c.label for c in table.chooser.choices]
    assert "advice for this moment" in labels
    for _ in range(labels.index("advice for this moment")):
        table.press(NEXT)
    table.press(OK)


def test_asked_from_the_menu_the_advice_shows_until_the_next_decision(log):
    table = start(log, "dice-poker")
    throw(table, (6, 6, 6, 6, 6))
    assert advice_line(table) == ""  # "ask": nothing until asked
    events = len(log.events(table.record.id))
    open_menu_advice(table)
    screen = table.screen()
    assert advice_line(table).startswith("advice: 50 in 12 5 of a kind")
    assert screen.sheet.focus == (0, 12)
    assert len(log.events(table.record.id)) == events  # advice enters nothing
    table.press(NEXT)
    table.press(OK)  # the player enters the best field: a decision
    assert advice_line(table) == ""


def test_shown_always_the_advice_frames_the_dice_to_keep(log):
    table = start(log, "dice-poker", advice="show")
    throw(table, (6, 3, 6, 2, 1))
    screen = table.screen()
    assert screen.advised_keep == (0, 2)  # the two sixes
    assert advice_line(table).startswith("advice: keep 6-6, expected 230")


def test_in_the_field_list_the_advice_names_the_players_choice_too(log):
    table = start(log, "dice-poker", advice="show")
    throw(table, (6, 3, 6, 2, 1))
    table.press(NEXT)  # the field list, cursor on the field scoring most now
    line = advice_line(table)
    assert line.startswith("advice: keep 6-6") and "; yours " in line


def test_off_shows_no_advice_and_the_menu_offers_none(log):
    table = start(log, "dice-poker", advice="off")
    throw(table, (6, 3, 6, 2, 1))
    assert advice_line(table) == ""
    table.press(HOLD_BACK)
    assert "advice for this moment" not in [c.label for c in table.chooser.choices]


def test_train_wreck_hold_next_asks_for_bank_or_roll(log):
    table = start(log, "train-wreck", players=2)
    for value in (6, 1):  # the roll-off: Ann starts
        throw(table, (value,))
    throw(table, (1, 5, 2, 3, 3))
    assert table.choosing == "set-aside"
    assert ("hold NEXT", "advice") in [(h.button, h.does) for h in table.screen().hints]
    table.press(HOLD_NEXT)
    assert advice_line(table).startswith("advice: set aside 1")
    table.press(OK)  # the list's first: 1 and 5
    assert advice_line(table) == ""
    table.press(HOLD_NEXT)
    assert advice_line(table).startswith("advice: roll")


@pytest.mark.parametrize("value, allowed", [('"loud"', '"off", "ask", "show"')])
def test_the_advice_setting_is_checked(tmp_path, value, allowed):
    path = tmp_path / "settings.toml"
    path.write_text(f"[game]\nadvice = {value}\n")
    settings, warnings = load_settings(path)
    assert settings.game.advice == "ask" and len(warnings) == 1 and allowed in warnings[0]
    path.write_text('[game]\nadvice = "show"\n')
    assert load_settings(path)[0].game.advice == "show"


def test_game_over_reviews_each_player_worst_first(log):
    table = start(log, "dice-poker", players=2)
    for turn in range(26):  # Ann always takes the field listed first; Bob the last one
        throw(table, (1, 2, 3, 4, 6) if turn % 2 else (6, 6, 6, 6, 6))
        table.press(NEXT)
        if turn % 2:
            table.press(Press("PREV"))
        table.press(OK)
    assert table.mode == "game-over"
    ann, bob = table.screen().review
    assert ann.startswith("Ann: ") and bob.startswith("Bob: ")
    lost = [float(line.split(": ")[1].split(" points")[0]) for line in (ann, bob)]
    assert lost[1] > lost[0]  # the last field of the list is the worse habit
    assert "throw 1: 50 in 12 5 of a kind" not in ann  # the best choice costs nothing


def test_game_over_review_for_train_wreck_set_asides():
    from appliance.advice_view import review_lines
    from appliance.games.train_wreck import TrainWreckGame

    actions = [("roll", [[1, 5, 2, 3, 3]]), ("set_aside", [[1, 5]]), ("bank", [])]
    lines = review_lines(TrainWreckGame.new(["Ann"]), actions, worst=2)
    assert (
        lines[0].startswith("Ann: ") and "set aside 1-5 (best: 1)" in lines[0] and "bank at 15 (best: roll)" in lines[0]
    )


def test_the_advised_dice_in_the_picture_are_those_kept_first():
    """One die per advised value; a die already in the keep zone before one in the rolling area; never a die
    outside the tray or cocked (the table asks for those to be thrown again)."""
    box = (0, 0, 10, 10)
    dice = (
        SeenDie(box, 6),  # 0, rolling area
        SeenDie(box, 3),  # 1
        SeenDie(box, 6, zone="keep"),  # 2
        SeenDie(box, 6),  # 3
        SeenDie(box, 2, zone="outside"),  # 4
        SeenDie(box, 5, cocked=True),  # 5
    )
    assert advised_dice(dice, (6, 6)) == [0, 2]
    assert advised_dice(dice, (6, 6, 6, 3)) == [0, 1, 2, 3]
    assert advised_dice(dice, (2, 5)) == []
    assert advised_dice(dice, ()) == []


def test_the_picture_frames_the_dice_to_keep(log):
    """Shown always, the advice frames in the tray's picture the dice it keeps, and nothing else changes."""
    table = start(log, "dice-poker", advice="show")
    thrown = throw(table, (6, 3, 6, 2, 1))
    screen = table.screen()
    magenta = np.full((thrown.height, thrown.width, 3), (255, 0, 255), np.uint8)  # found again on screen
    picture = Picture.read(magenta, thrown)
    layout = LAYOUTS["touchscreen"]
    pygame.init()
    drawn = []
    for shown in (screen, replace(screen, advised_keep=())):
        surface = pygame.Surface(layout.size)
        render(surface, shown, layout, picture)
        drawn.append(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    rows, columns = np.nonzero((drawn[1] == (255, 0, 255)).all(axis=2))  # the picture's place on the screen
    inside = np.zeros(drawn[0].shape[:2], bool)
    inside[rows.min() : rows.max() + 1, columns.min() : columns.max() + 1] = True
    changed = np.argwhere((drawn[0] != drawn[1]).any(axis=2) & inside)  # not the dice strip's underlines
    assert len(changed), "no die framed"
    assert (drawn[0][changed[:, 0], changed[:, 1]] == draw.GOOD).all()  # frames in the colour of the advice
    columns = np.unique(changed[:, 1])
    assert (np.diff(columns) > 1).sum() == 1, "two frames, apart: the two sixes, not the 3 between them"


def test_during_a_throw_hold_next_asks_and_hold_prev_still_turns_the_sheets(log):
    table = start(log, "pentakubus", players=2)
    throw(table, (6, 3, 6, 2, 1))
    hints = {h.button: h.does for h in table.screen().hints}
    assert hints["hold NEXT"] == "advice" and hints["hold PREV"] == "other sheets"
    events = len(log.events(table.record.id))
    table.press(HOLD_NEXT)
    assert advice_line(table).startswith("advice: keep")
    assert table.screen().advised_keep and table.screen().sheet.player == 0  # asked, the sheet not turned
    assert len(log.events(table.record.id)) == events  # advice enters nothing
    table.press(HOLD_PREV)
    assert table.screen().sheet.player == 1


def test_between_throws_hold_next_turns_the_sheets(log):
    table = start(log, "pentakubus", players=2)
    table.press(HOLD_NEXT)
    assert table.screen().sheet.player == 1 and advice_line(table) == ""
