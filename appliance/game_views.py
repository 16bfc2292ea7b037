"""The Screen model's views of a game, filled from the rules state: a sheet game's scoresheet, Train Wreck's
scoreboard, and what the table says beside them. Pure: the screens draw these without knowing the rules."""

from __future__ import annotations

from collections.abc import Iterable

from appliance.games.sheet_game import SheetGame
from appliance.games.train_wreck import ENTRY, FACES, Phase, TrainWreckGame
from appliance.screen_model import (
    CheckedDie,
    ChoiceView,
    ColumnView,
    EntryView,
    FieldView,
    Key,
    ScoreboardView,
    ScoreRow,
    SectionScore,
    SectionView,
    SheetView,
)
from vision.pips import PIPS

SHEET_LISTS = ("field", "correct")  # the lists whose choices are cells of the sheet: the sheet shows their points
D6_PIPS = {value: tuple(spots) for value, spots in PIPS.items()}  # a d10 has none: the screens write its number


def game_views(
    game: SheetGame | TrainWreckGame,
    choices: Iterable[ChoiceView] = (),
    highlight: tuple[Key, ...] = (),
    choosing: str = "",
    sheet_player: int | None = None,
    acting: int | None = None,
    focus: Key | None = None,
    best: str = "",
    advised_keep: tuple[int, ...] = (),
    review: tuple[str, ...] = (),
    checked: tuple[CheckedDie, ...] = (),
) -> dict:
    """The Screen's keyword arguments that show `game`: its sheet (`sheet_player`'s, by default the current
    player's; the cells of a `choosing` list of SHEET_LISTS with their points) or its scoreboard (`acting`
    marked, by default the current player), the dice's pips, and the rest as given."""
    if isinstance(game, SheetGame):
        options = {c.key: c.points for c in choices} if choosing in SHEET_LISTS else {}
        player = game.current if sheet_player is None else sheet_player
        board = {"sheet": sheet_view(game, player, highlight, focus, options)}
        faces = game.rules.faces
    else:
        board = {"scoreboard": scoreboard_view(game, game.current if acting is None else acting)}
        faces = FACES
    return dict(
        board,
        pips=D6_PIPS if faces == 6 else {},
        best=best,
        advised_keep=tuple(advised_keep),
        review=tuple(review),
        checked=tuple(checked),
    )


def sheet_view(
    game: SheetGame,
    player: int,
    highlight: tuple[Key, ...] = (),
    focus: Key | None = None,
    options: dict[Key, int] | None = None,
) -> SheetView:
    """Player `player`'s sheet as shown (every player's column in a one-column game). `options`: {(column,
    field): points} the throw would score."""
    rules = game.rules
    every_player = len(rules.columns) == 1
    sections = tuple(
        SectionView(s.name, tuple(FieldView(n, rules.field(n).name) for n in s.fields), s.threshold, s.bonus)
        for s in rules.sections
    )
    places = {name: place for place, name, _ in game.ranking}
    return SheetView(
        "" if every_player else f"{game.players[player]}'s sheet",
        every_player,
        sections,
        sheet_columns(game, player),
        player,
        tuple((places[name], name, sheet.total) for name, sheet in zip(game.players, game.sheets)),
        tuple(highlight),
        focus,
        dict(options or {}),
    )


def sheet_columns(game: SheetGame, player: int) -> tuple[ColumnView, ...]:
    """One-column games show every player side by side; three-column games one player's sheet."""
    rules = game.rules
    if len(rules.columns) == 1:
        return tuple(_column(game, name, p, 0, p == player) for p, name in enumerate(game.players))
    return tuple(_column(game, rules.column_label(c), player, c, True) for c in range(len(rules.columns)))


def _column(game: SheetGame, header: str, player: int, column: int, active: bool) -> ColumnView:
    sheet = game.sheets[player]
    entries = {
        number: EntryView(score.total, bool(score.slam)) for (c, number), score in sheet.entries.items() if c == column
    }
    sections = {
        s.name: SectionScore(sheet.section_entries(column, s), bool(sheet.section_bonus(column, s)))
        for s in game.rules.sections
    }
    return ColumnView(header, player, column, active, entries, sections)


def scoreboard_view(game: TrainWreckGame, acting: int) -> ScoreboardView:
    """Train Wreck's scoreboard, `acting` (to roll for the start, in the roll-off) marked."""
    turn = not game.is_over and game.phase != Phase.ROLL_OFF  # a turn is under way
    rows = tuple(ScoreRow(*row) for row in zip(game.players, game.scores, game.on_scoreboard))
    return ScoreboardView(game.goal, ENTRY, rows, acting, game.turn_points if turn else None, game.turn.note)
