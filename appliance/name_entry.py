"""Typing the players' names at the table with the four buttons (on a touchscreen: their four cells).

A wheel of letters: PREV/NEXT turn it one letter, held they jump to the next group (capitals, small letters,
digits, marks); OK adds the letter, BACK takes the last one back; held OK the name is done and the next
player's follows; held BACK leaves, keeping the names done so far. The names entered are kept beside the
game log with the settings' names they replaced: the next night starts with them, until the settings file
names other players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from appliance.games import MAX_PLAYERS
from appliance.screen_model import WARN, ChoiceView, Hint, LetterWheel, Screen
from hardware.buttons import BACK, NEXT, OK, PREV, Press

GROUPS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "0123456789", " -'.&")
LETTERS = "".join(GROUPS)
LONGEST = 20  # characters, as the settings allow (appliance/settings.py: players.names)
STARTS = [LETTERS.index(g[0]) for g in GROUPS]


def valid_names(names: Any) -> bool:
    """1 to 8 names, each its own, of 1 to LONGEST characters with no blank at either end."""
    return (
        isinstance(names, list)
        and 1 <= len(names) <= MAX_PLAYERS
        and len(set(names)) == len(names)
        and all(isinstance(n, str) and n == n.strip() and 1 <= len(n) <= LONGEST for n in names)
    )


def remembered(state: dict, settings_names: Sequence[str]) -> list[str]:
    """The names entered at the table on an earlier night (kept in the saved screen `state`), while the
    settings still name the players they replaced; else the settings' names."""
    saved = state.get("names")
    if isinstance(saved, dict) and saved.get("settings") == list(settings_names) and valid_names(saved.get("entered")):
        return list(saved["entered"])
    return list(settings_names)


@dataclass
class NameEntry:
    names: list[str]  # every player's name, in seating order; `player`'s is being typed
    player: int = 0
    text: str = ""
    letter: int = 0
    note: str = ""  # what the last press could not do

    @classmethod
    def of(cls, names: Sequence[str]) -> NameEntry:
        return cls(list(names), 0, names[0])

    def press(self, press: Press) -> str:
        """Take a press: "typing", "done" (every name entered: `names`) or "left" (held BACK)."""
        self.note = ""
        if press.button in (PREV, NEXT):
            step = 1 if press.button == NEXT else -1
            if press.long:  # the first letter of the next (or this, then the previous) group
                here = max(i for i, s in enumerate(STARTS) if s <= self.letter)
                there = here + step if step > 0 or self.letter == STARTS[here] else here
                self.letter = STARTS[there % len(STARTS)]
            else:
                self.letter = (self.letter + step) % len(LETTERS)
        elif press.button == OK and press.long:
            return self._finish_name()
        elif press.button == OK:
            if len(self.text) < LONGEST:
                self.text += LETTERS[self.letter]
            else:
                self.note = f"a name has at most {LONGEST} characters"
        elif press.button == BACK:
            if press.long:
                return "left"
            self.text = self.text[:-1]
        return "typing"

    def _finish_name(self) -> str:
        name = " ".join(self.text.split())
        others = self.names[: self.player] + self.names[self.player + 1 :]
        if not name:
            self.note = "a name needs at least one letter"
        elif name in others:
            self.note = f"{name} is already playing: give each player a name of their own"
        else:
            self.names[self.player] = name
            if self.player + 1 == len(self.names):
                return "done"
            self.player += 1
            self.text = self.names[self.player]
        return "typing"

    def screen(self, **base) -> Screen:
        shown = [ChoiceView(self.text + "_" if i == self.player else name) for i, name in enumerate(self.names)]
        letter = LETTERS[self.letter]
        return Screen(
            "names",
            f"Names: player {self.player + 1} of {len(self.names)}",
            "PREV/NEXT turn the letters, OK adds one, BACK takes one back; hold OK when the name is done",
            choices=tuple(shown),
            cursor=self.player,
            hints=(
                Hint("PREV/NEXT", "letter before/letter after"),
                Hint("hold PREV/NEXT", "group before/group after"),
                Hint("OK", f"add {'a space' if letter == ' ' else letter}"),
                Hint("BACK", "delete"),
                Hint("hold OK", "name done"),
                Hint("hold BACK", "leave"),
            ),
            letters=LetterWheel(LETTERS, self.letter),
            **{**base, **({"message": self.note, "level": WARN} if self.note else {})},
        )
