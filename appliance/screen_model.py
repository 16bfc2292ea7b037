"""What the table wants shown, as plain data: the pygame screens draw it, the tests read it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

INFO, WARN, ERROR = "info", "warn", "error"


@dataclass(frozen=True)
class DieView:
    value: int | None
    held: bool = False  # in the keep zone (or set aside)
    uncertain: bool = False  # the reader is unsure: the player must confirm it
    confirmed: bool = False
    selected: bool = False  # the button cursor is on it
    fresh: bool = True  # thrown in the latest attempt


@dataclass(frozen=True)
class ChoiceView:
    label: str
    detail: str = ""
    points: int | None = None
    key: Any = None  # what choosing it means to the table


@dataclass(frozen=True)
class Hint:
    button: str  # "OK", "NEXT", "hold BACK", ...
    does: str


@dataclass(frozen=True, eq=False)
class Picture:
    """What the camera sees: live, or the frame the dice were read in with the reading (its dice are
    boxed on screen). Compared by identity: a new picture is a new frame."""

    image: Any  # BGR numpy array
    reading: Any = None  # vision Reading of this very frame, or None for a live picture


@dataclass(frozen=True)
class Screen:
    kind: str  # "choose-game", "choose-players", "play", "game-over" (the menu is a "play" screen: extra["choosing"])
    title: str
    prompt: str = ""
    message: str = ""
    level: str = INFO
    dice: tuple[DieView, ...] = ()
    choices: tuple[ChoiceView, ...] = ()
    cursor: int = 0
    hints: tuple[Hint, ...] = ()
    camera: str = ""  # "" when the camera is fine, else what is wrong
    tray: str = ""  # "moving", "hand", "empty", "at_rest" or ""
    game: Any = None  # the rules state, for the scoresheet
    game_id: str = ""
    highlight: tuple = ()  # (column, field) keys of the sheet to highlight: the choice under the cursor
    ranking: tuple = ()
    extra: dict = field(default_factory=dict)
