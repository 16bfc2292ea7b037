"""The Screen model's views of a game, filled from the rules (appliance/game_views.py), and the screens that draw
them without the rules: expected values worked out from the rulebooks by hand."""

import numpy as np

from appliance.game_views import game_views, scoreboard_view, sheet_view
from appliance.games.sheet_game import SheetGame
from appliance.games.tables import sheet_rules
from appliance.games.train_wreck import TrainWreckGame
from appliance.screen_model import ChoiceView, EntryView, Picture, SectionScore
from vision.types import KEEP, OUTSIDE, ROLL, Die, Reading


def pentakubus(players=("Ann",)) -> SheetGame:
    return SheetGame.new(sheet_rules("pentakubus"), list(players))


def test_a_three_column_sheet_shows_one_players_entries_sums_and_bonuses():
    # Ann, alone, all in the middle (free) column: 30 in sixes, 25 in fives, 20 in fours (section A: 75, its bonus
    # of 60 reached at 60), then five 6s as the quintuplet
    game = pentakubus()
    for value, field in ((6, 6), (5, 5), (4, 4), (6, 24)):
        game = game.start_throw((value,) * 5).enter(1, field)
    view = sheet_view(game, 0)
    assert view.title == "Ann's sheet" and not view.every_player
    assert [(c.header, c.player, c.column, c.active) for c in view.columns] == [
        ("left", 0, 0, True),
        ("middle", 0, 1, True),
        ("right", 0, 2, True),
    ]
    middle = view.columns[1]
    # the quintuplet of five 6s in one throw: their 30, the field's bonus 55 and its slam 15
    assert middle.entries == {6: EntryView(30), 5: EntryView(25), 4: EntryView(20), 24: EntryView(100, slam=True)}
    assert middle.sections == {
        "A": SectionScore(75, True),
        "B": SectionScore(0),
        "C": SectionScore(0),
        "D": SectionScore(100),
    }
    assert view.columns[0].entries == {} and view.columns[0].sections["A"] == SectionScore(0)
    assert [s.name for s in view.sections] == ["A", "B", "C", "D"]
    assert (view.sections[0].threshold, view.sections[0].bonus) == (60, 60)
    assert [(f.number, f.name) for f in view.sections[3].fields][-1] == (24, "quintuplet")
    assert view.standings == ((1, "Ann", 30 + 25 + 20 + 60 + 100),)


def test_a_one_column_sheet_shows_every_player_and_their_places():
    game = SheetGame.new(sheet_rules("dice-poker"), ["Ann", "Bob", "Cy"]).start_throw((6, 6, 6, 2, 1)).enter(0, 6)
    view = sheet_view(game, 1)  # Bob's turn: his column is the active one
    assert view.title == "" and view.every_player and view.player == 1
    assert [(c.header, c.player, c.active) for c in view.columns] == [
        ("Ann", 0, False),
        ("Bob", 1, True),
        ("Cy", 2, False),
    ]
    assert view.columns[0].entries == {6: EntryView(18)} and view.columns[1].entries == {}
    assert view.standings == ((1, "Ann", 18), (2, "Bob", 0), (2, "Cy", 0))  # equal totals share a place


def test_the_sheet_shows_the_points_of_a_field_list_only():
    game = pentakubus().start_throw((3, 3, 3, 3, 1))
    choices = (ChoiceView("M 3 threes", points=12, key=(1, 3)), ChoiceView("L 1 ones", points=1, key=(0, 1)))
    listed = game_views(game, choices, highlight=((1, 3),), choosing="field")["sheet"]
    assert listed.options == {(1, 3): 12, (0, 1): 1} and listed.highlight == ((1, 3),)
    menu = game_views(game, (ChoiceView("end the game", key="end"),), choosing="menu")["sheet"]
    assert menu.options == {} and menu.player == 0


def test_d6_games_draw_pips_and_hexakubus_its_numbers():
    assert game_views(pentakubus())["pips"][5] == ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))
    assert game_views(TrainWreckGame.new(["Ann"]))["pips"][1] == ((0, 0),)
    assert game_views(SheetGame.new(sheet_rules("hexakubus"), ["Ann"]))["pips"] == {}


def test_the_scoreboard_shows_a_turn_only_once_the_roll_off_is_over():
    game = TrainWreckGame.new(["Ann", "Bob"])
    rolling_off = scoreboard_view(game, 1)
    assert rolling_off.turn_points is None and rolling_off.acting == 1
    assert (rolling_off.goal, rolling_off.entry) == (1000, 35)  # the rulebook's goal and its 35 to get on the board
    game = game.roll_off((2, 6)).roll((1, 5, 2, 3, 3)).set_aside((1, 5))  # Bob starts; a 1 (10) and a 5 (5)
    view = scoreboard_view(game, game.current)
    assert view.acting == 1 and view.turn_points == 15
    assert [(r.name, r.score, r.on_scoreboard) for r in view.rows] == [("Ann", 0, False), ("Bob", 0, False)]


def test_a_picture_keeps_the_dice_read_as_plain_values():
    dice = (
        Die("d6", 4, (10, 20, 30, 40), ROLL, 0.99),
        Die("d6", 2, (50, 20, 70, 40), KEEP, 0.3),
        Die("d6", None, (90, 20, 110, 40), ROLL, 0.0, cocked=True),
        Die("d6", 6, (0, 0, 9, 9), OUTSIDE, 0.99),
    )
    frame = np.zeros((480, 640, 3), np.uint8)
    picture = Picture.read(frame, Reading(dice, 640, 480))
    assert picture.image is frame
    assert [(d.box, d.value, d.uncertain, d.cocked, d.zone) for d in picture.dice] == [
        ((10, 20, 30, 40), 4, False, False, "roll"),
        ((50, 20, 70, 40), 2, True, False, "keep"),
        ((90, 20, 110, 40), None, False, True, "roll"),
        ((0, 0, 9, 9), 6, False, False, "outside"),
    ]
