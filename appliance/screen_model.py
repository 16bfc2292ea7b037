"""What the table wants shown, as plain data: the pygame screens draw it, the tests read it. The views of a game
(its sheet, Train Wreck's scoreboard) are filled from the rules by appliance/game_views.py: the screens draw
them without knowing the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.types import Reading

INFO, WARN, ERROR = "info", "warn", "error"
Key = tuple[int, int]  # (column, field): a cell of a sheet
Box = tuple[float, float, float, float]  # xmin, ymin, xmax, ymax in frame pixels
Place = tuple[int, str, int]  # (place, player, total): equal totals share a place


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
    key: object = None  # what choosing it means to the table (a field, dice, an action): the screens never read it


@dataclass(frozen=True)
class Hint:
    button: str  # "OK", "NEXT", "hold BACK", ...
    does: str


@dataclass(frozen=True)
class SeenDie:
    """A die as the reader saw it in a picture."""

    box: Box
    value: int | None
    uncertain: bool = False
    cocked: bool = False
    zone: str = "roll"  # "roll", "keep" or "outside"


@dataclass(frozen=True, eq=False)
class Picture:
    """What the camera sees: live, or the frame the dice were read in with the dice read (boxed on screen).
    Compared by identity: a new picture is a new frame."""

    image: np.ndarray  # BGR
    dice: tuple[SeenDie, ...] = ()  # the dice read in this very frame; none for a live picture

    @classmethod
    def read(cls, image: np.ndarray, reading: Reading) -> Picture:
        """The frame with the dice a vision Reading found in it."""
        return cls(image, tuple(SeenDie(tuple(d.box), d.value, d.uncertain, d.cocked, d.zone) for d in reading.dice))


@dataclass(frozen=True)
class CheckedDie:
    """A die of the reading under review as the player has it now (a misread die corrected shows its new value)."""

    box: Box
    value: int | None
    confirmed: bool


@dataclass(frozen=True)
class FieldView:
    number: int
    name: str


@dataclass(frozen=True)
class SectionView:
    name: str
    fields: tuple[FieldView, ...]
    threshold: int | None = None  # the section bonus is paid when its fields total this much
    bonus: int = 0


@dataclass(frozen=True)
class EntryView:
    total: int
    slam: bool = False


@dataclass(frozen=True)
class SectionScore:
    entries: int  # what the section's fields hold together
    bonus: bool = False  # its bonus is reached


@dataclass(frozen=True)
class ColumnView:
    """One column of numbers on screen: a column of one player's sheet."""

    header: str
    player: int  # whose sheet
    column: int  # which of that sheet's columns
    active: bool  # the throw's options and the cursor belong here
    entries: dict[int, EntryView]  # by field number
    sections: dict[str, SectionScore]  # by section name


@dataclass(frozen=True)
class SheetView:
    """A sheet game's scoresheet as shown: one player's sheet (three-column games) or every player's column."""

    title: str  # "Ann's sheet", or "" when every player has a column
    every_player: bool  # one column per player (a one-column game)
    sections: tuple[SectionView, ...]
    columns: tuple[ColumnView, ...]
    player: int  # whose sheet is shown (whose column is active)
    standings: tuple[Place, ...]  # every player's place and total, in playing order
    highlight: tuple[Key, ...] = ()  # cells framed: the choice under the cursor, the entry just made
    focus: Key | None = None  # the cell to keep in view when none is framed: the best one, or the advised one
    options: dict[Key, int] = field(default_factory=dict)  # what the throw would score in each open cell listed


@dataclass(frozen=True)
class ScoreRow:
    name: str
    score: int
    on_scoreboard: bool


@dataclass(frozen=True)
class ScoreboardView:
    """Train Wreck: the goal, each player's score, who is to act, this turn's points."""

    goal: int
    entry: int  # the points of the turn that puts a player on the scoreboard
    rows: tuple[ScoreRow, ...]
    acting: int  # who rolls (in the roll-off: for the start)
    turn_points: int | None = None  # None: no turn under way (the roll-off, the game over)
    note: str = ""  # what just happened in the turn


@dataclass(frozen=True)
class LetterWheel:
    letters: str
    chosen: int  # the index of the letter OK adds


@dataclass(frozen=True)
class Screen:
    kind: str  # "choose-game", "choose-players", "names", "play", "game-over" (the menu is a "play" screen)
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
    game_id: str = ""
    pips: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)  # by value; none: the dice show numbers
    sheet: SheetView | None = None  # a sheet game's scoresheet
    scoreboard: ScoreboardView | None = None  # Train Wreck's scoreboard
    ranking: tuple[Place, ...] = ()  # the game over: places, best first
    best: str = ""  # under the prompt: the best field for the throw, or the advice
    advised_keep: tuple[int, ...] = ()  # the dice the advice keeps, by index
    review: tuple[str, ...] = ()  # the game over: the advisor's look back, a line a player
    checked: tuple[CheckedDie, ...] = ()  # the reading under review, as the player has it now
    letters: LetterWheel | None = None  # the names screen's wheel of letters
