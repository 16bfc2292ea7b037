"""Typing the players' names at the table with the four buttons, kept for the next nights."""

from appliance.event_log import EventLog
from appliance.name_entry import LETTERS, NameEntry
from appliance.table import Table
from hardware.buttons import Press

OK, NEXT, PREV, BACK = Press("OK"), Press("NEXT"), Press("PREV"), Press("BACK")
HOLD_OK, HOLD_NEXT, HOLD_PREV, HOLD_BACK = (Press(b, long=True) for b in ("OK", "NEXT", "PREV", "BACK"))


def typed(entry_or_table, word: str) -> None:
    """Each letter of `word` chosen on the wheel with NEXT (the short way round is not needed) and added."""
    for char in word:
        entry = entry_or_table.entry if isinstance(entry_or_table, Table) else entry_or_table
        steps = (LETTERS.index(char) - entry.letter) % len(LETTERS)
        for _ in range(steps):
            entry_or_table.press(NEXT)
        entry_or_table.press(OK)


def players_screen(log) -> Table:
    table = Table(log, players=["Player 1", "Player 2"])
    table.press(OK)  # the first game; then its players
    assert table.mode == "choose-players"
    return table


def test_names_typed_with_the_four_buttons_are_the_players(tmp_path):
    log = EventLog(tmp_path / "games.sqlite")
    table = players_screen(log)
    table.press(HOLD_OK)
    assert table.mode == "names" and table.screen().choices[0].label == "Player 1_"
    for _ in range(8):
        table.press(BACK)  # "Player 1" taken back letter by letter
    typed(table, "Mia")
    table.press(HOLD_OK)  # Mia done: the second player's name
    assert table.screen().title == "Names: player 2 of 2" and table.screen().choices[0].label == "Mia"
    for _ in range(8):
        table.press(BACK)
    typed(table, "Jo 2")
    table.press(HOLD_OK)
    assert table.mode == "choose-players"
    assert [c.label for c in table.screen().choices] == ["Mia", "Jo 2"]
    table.press(OK)
    assert table.game.players == ("Mia", "Jo 2")
    log.close()


def test_the_names_are_remembered_until_the_settings_name_others(tmp_path):
    log = EventLog(tmp_path / "games.sqlite")
    table = players_screen(log)
    table.press(HOLD_OK)
    typed(table, "x")  # "Player 1x"
    table.press(HOLD_OK)
    table.press(HOLD_OK)  # the second name as it was
    assert table.names == ["Player 1x", "Player 2"] and "next nights" in table.message
    log.close()
    next_night = Table(EventLog(tmp_path / "games.sqlite"), players=["Player 1", "Player 2"])
    assert next_night.names == ["Player 1x", "Player 2"]
    next_night.log.close()
    new_settings = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann", "Bob"])
    assert new_settings.names == ["Ann", "Bob"]  # the host changed the settings file: it wins
    new_settings.log.close()


def test_a_name_twice_or_an_empty_name_is_refused_with_a_reason():
    entry = NameEntry.of(["Ann", "Bob"])
    entry.press(HOLD_OK)  # Ann stays Ann
    for _ in range(3):
        entry.press(BACK)
    assert entry.press(HOLD_OK) == "typing" and "at least one letter" in entry.note
    typed(entry, "Ann")
    assert entry.press(HOLD_OK) == "typing" and "Ann is already playing" in entry.note
    entry.press(BACK)
    typed(entry, "y")
    assert entry.press(HOLD_OK) == "done" and entry.names == ["Ann", "Any"]


def test_held_back_leaves_keeping_the_names_done():
    entry = NameEntry.of(["Ann", "Bob", "Cy"])
    typed(entry, "e")
    entry.press(HOLD_OK)  # "Anne"
    typed(entry, "by")
    assert entry.press(HOLD_BACK) == "left" and entry.names == ["Anne", "Bob", "Cy"]


def test_held_prev_and_next_jump_between_capitals_small_letters_digits_and_marks():
    entry = NameEntry.of(["Ann"])
    seen = []
    for _ in range(5):
        entry.press(HOLD_NEXT)
        seen.append(LETTERS[entry.letter])
    assert seen == ["a", "0", " ", "A", "a"]
    entry.press(NEXT)
    entry.press(NEXT)  # on the c
    entry.press(HOLD_PREV)
    assert LETTERS[entry.letter] == "a"  # back to the start of its group first
    entry.press(HOLD_PREV)
    assert LETTERS[entry.letter] == "A"


def test_a_name_is_at_most_twenty_characters():
    entry = NameEntry.of(["A" * 20])
    entry.press(OK)
    assert entry.text == "A" * 20 and "at most 20" in entry.note


def test_a_restart_while_typing_comes_back_to_the_same_letter(tmp_path):
    log = EventLog(tmp_path / "games.sqlite")
    table = players_screen(log)
    table.press(HOLD_OK)
    typed(table, "Zo")
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Player 1", "Player 2"])
    assert again.mode == "names" and again.screen().choices[0].label == "Player 1Zo_"
    assert LETTERS[again.entry.letter] == "o"
    again.log.close()
