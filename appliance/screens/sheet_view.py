"""The scoresheet of the sheet games, drawn so 72 or 120 fields stay legible.

One player's sheet at a time (the one who is throwing or correcting), three columns side by side.
Sections are shown in full while they fit, starting with the one in focus (the field under the
cursor, else where the best choice is); the rest are summed up in one row each, with each section
bonus and how far it is from its threshold. A strip below holds every player's total and rank.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from appliance.games.sheet import Section, Sheet
from appliance.games.sheet_game import SheetGame
from appliance.screens import draw


def focus_section(game: SheetGame, focus) -> Section:
    """The section holding the (column, field) in focus, else the first."""
    sections = game.rules.sections
    if focus:
        return next(s for s in sections if focus[1] in s.fields)
    return sections[0]


COLUMN_WIDTH = 3.2  # a column of a block is this many times the text size wide ("0/110" and a margin)
WIDEST_COLUMN = 5  # columns share the room the names leave, up to this many times the text size ("middle")
NARROWEST_COLUMN = 2.6  # a player's column is at least this many times the text size wide ("145" and a margin)
STRIP_CELL = 6.5  # a player's place, name and total in the strip below: at least this many times the text size


def row_height(size: int) -> int:
    return draw.font(size).get_height() + 2


def _rows(height: int, size: int, strip_h: int = 0) -> int:
    return (height - (strip_h or row_height(size)) - 6) // row_height(size)  # the players strip, then rows
def _whole_sheet(game: SheetGame, rect: pygame.Rect, size: int, smallest: int, columns: int,
                 strip_h: int = 0) -> tuple[int, int] | None:
    """(text size, blocks) that show every section in full, from `size` down to `smallest`."""
    sections = list(game.rules.sections)
    for s in range(size, smallest - 1, -1):
        for blocks in (1, 2):
            per_block = -(-len(sections) // blocks)
            split = [sections[i:i + per_block] for i in range(0, len(sections), per_block)]
            tall = max(1 + sum(len(x.fields) + 1 for x in block) for block in split)
            if tall <= _rows(rect.height, s, strip_h) and \
                    rect.width >= blocks * (names_width(game, s) + s * COLUMN_WIDTH * columns) + (blocks - 1) * s:
                return s, blocks
    return None


def blocks_shown(game: SheetGame, focus: Section, rect: pygame.Rect, size: int, smallest: int,
                 columns: int = 3, strip_h: int = 0) -> tuple[int, list[list[tuple[Section, bool]]]]:
    """The text size and side-by-side blocks of (section, drawn in full?). Every section in full when
    they fit at a size down to `smallest`; else one block at `size`: the focused section and its
    neighbours in full, the others summed up."""
    sections = list(game.rules.sections)
    whole = _whole_sheet(game, rect, size, smallest, columns, strip_h)
    if whole:
        size, blocks = whole
        per_block = -(-len(sections) // blocks)
        return size, [[(s, True) for s in sections[i:i + per_block]] for i in range(0, len(sections), per_block)]
    for size in range(size, smallest - 1, -1):   # smaller text before the section in focus is left out
        full, used = set(), 1 + len(sections)
        for section in sorted(sections, key=lambda s: abs(sections.index(s) - sections.index(focus))):
            if used + len(section.fields) <= _rows(rect.height, size, strip_h):
                full.add(section.name)
                used += len(section.fields)
        if focus.name in full:
            break
    return size, [[(s, s.name in full) for s in sections]]


@dataclass(frozen=True)
class SheetColumn:
    """One column of numbers on screen: a column of one player's sheet."""

    header: str
    sheet: Sheet
    column: int
    active: bool  # the throw's options and the cursor belong here


def sheet_columns(game: SheetGame, player: int) -> list[SheetColumn]:
    """One-column games show every player side by side; three-column games one player's sheet."""
    rules = game.rules
    if len(rules.columns) == 1:
        return [SheetColumn(name, sheet, 0, p == player) for p, (name, sheet) in enumerate(zip(game.players, game.sheets))]
    return [SheetColumn(rules.column_label(c), game.sheets[player], c, True) for c in range(len(rules.columns))]


def columns_that_fit(columns: list[SheetColumn], width: int, size: int) -> list[SheetColumn]:
    """As many columns as `width` holds legibly beside the field names, the active one among them: with many
    players the others' columns make way (their totals stay in the strip below)."""
    room = max(1, int(width // (size * NARROWEST_COLUMN)))
    if len(columns) <= room:
        return columns
    active = next(i for i, c in enumerate(columns) if c.active)
    first = min(max(0, active - room // 2), len(columns) - room)
    return columns[first:first + room]


def names_width(game: SheetGame, size: int) -> int:
    """What the widest field name needs ("11 large straight")."""
    return max(draw.font(size).size(f"{f.number:>2} {f.name}")[0] for f in game.rules.fields) + 12


def strip_rows(players: int, width: int, size: int) -> int:
    return -(-players // max(1, min(players, int(width // (size * STRIP_CELL)))))


def draw_sheet(surface, rect: pygame.Rect, game: SheetGame, player: int, highlight, focus, options, size: int,
               smallest: int) -> None:
    """Player `player`'s sheet in `rect`. `options`: {(column, field): points} the throw would score."""
    strip_size, strip = size, strip_rows(len(game.players), rect.width, size)   # the totals at full size
    columns = sheet_columns(game, player)
    size, shown = blocks_shown(game, focus_section(game, focus), rect, size, smallest, len(columns),
                               strip * row_height(strip_size))
    width = rect.width // len(shown)
    columns = columns_that_fit(columns, width - names_width(game, size), size)
    row_h = row_height(size)
    title = f"{game.players[player]}'s sheet" if len(game.rules.columns) > 1 else ""
    bottom = rect.y
    for b, sections in enumerate(shown):
        block = pygame.Rect(rect.x + b * width, rect.y, width - (size if b < len(shown) - 1 else 0), rect.height)
        bottom = max(bottom, _draw_block(surface, block, title, sections, game, columns, highlight, options,
                                         size, row_h))
    pygame.draw.line(surface, draw.GRID, (rect.x, bottom + 2), (rect.right, bottom + 2), 2)
    _players_strip(surface, pygame.Rect(rect.x, bottom + 6, rect.width, rect.bottom - bottom - 6), game, player,
                   strip_size, strip)


def _draw_block(surface, rect, title, sections, game, columns, highlight, options, size, row_h) -> int:
    """One block: the header, then per section its fields (when in full) and its summary row."""
    col_w = min((rect.width - names_width(game, size)) // len(columns), size * WIDEST_COLUMN)
    name_w = rect.width - len(columns) * col_w
    x_cols = [rect.x + name_w + c * col_w for c in range(len(columns))]
    y = rect.y
    draw.text(surface, draw.abbreviated(title, size, name_w - 8, bold=True), (rect.x + 4, y), size, draw.DIM, bold=True)
    for x, column in zip(x_cols, columns):
        draw.text(surface, draw.abbreviated(column.header, size, col_w - 4), (x + col_w // 2, y), size,
                  draw.ACCENT if column.active and len(game.rules.columns) == 1 else draw.DIM, anchor="midtop")
    y += row_h
    for section, full in sections:
        for number in section.fields if full else ():
            _field_row(surface, rect, y, row_h, size, game.rules.field(number), x_cols, col_w, columns, highlight,
                       options)
            y += row_h
        _section_row(surface, rect, y, row_h, size, section, x_cols, col_w, columns)
        y += row_h
    return y


def _field_row(surface, rect, y, row_h, size, field, x_cols, col_w, columns, highlight, options) -> None:
    draw.text(surface, f"{field.number:>2} {field.name}", (rect.x + 4, y), size, draw.TEXT)
    for x, column in zip(x_cols, columns):
        key = (column.column, field.number)
        mine = column.active
        cell = pygame.Rect(x + 2, y, col_w - 4, row_h - 2)
        if mine and key in highlight:
            pygame.draw.rect(surface, draw.ACCENT, cell, width=3, border_radius=4)
        entry = column.sheet.entries.get(key)
        if entry is not None:
            number = draw.text(surface, str(entry.total), cell.center, size, draw.TEXT, bold=True, anchor="center")
            if entry.slam:  # a slam: a dot beside the number
                pygame.draw.circle(surface, draw.ACCENT, (number.right + max(3, size // 4), number.centery), max(2, size // 6))
        elif mine and key in options:  # open for this throw: what it would score
            draw.text(surface, str(options[key]), cell.center, size,
                      draw.ACCENT if key in highlight else draw.GOOD, anchor="center")


def _section_row(surface, rect, y, row_h, size, section, x_cols, col_w, columns) -> None:
    pygame.draw.rect(surface, draw.PANEL, (rect.x, y, rect.width, row_h - 1))
    label = f"section {section.name}" if len(section.name) == 1 else section.name
    if section.threshold and draw.font(size).size(f"{label} (+{section.bonus} at {section.threshold})")[0] \
            <= x_cols[0] - rect.x - 8:   # the bonus rule where it fits; each column's cell says how far it is
        label += f" (+{section.bonus} at {section.threshold})"
    draw.text(surface, label, (rect.x + 4, y), size, draw.DIM)
    for x, column in zip(x_cols, columns):
        entries = column.sheet.section_entries(column.column, section)
        if section.threshold and column.sheet.section_bonus(column.column, section):
            value, colour = f"{entries}+{section.bonus}", draw.GOOD
        elif section.threshold:
            value, colour = f"{entries}/{section.threshold}", draw.DIM
        else:
            value, colour = str(entries), draw.TEXT
        if draw.font(size).size(value)[0] > col_w - 4:   # a narrow column: the sum, green once the bonus is in
            value = str(entries)
        draw.text(surface, value, (x + col_w // 2, y), size, colour, anchor="midtop")


def _players_strip(surface, rect, game: SheetGame, player: int, size: int, rows: int) -> None:
    """Every player's place, name and total, in as many rows as it takes (names shortened to their cell)."""
    ranks = {name: rank for rank, name, _ in game.ranking}
    per_row = -(-len(game.players) // rows)
    width = rect.width // per_row
    for i, (name, sheet) in enumerate(zip(game.players, game.sheets)):
        colour = draw.ACCENT if i == player else draw.TEXT
        bold = i == player
        place, total = f"{ranks[name]}. ", f" {sheet.total}"
        room = width - 8 - draw.font(size, bold).size(place + total)[0]
        x, y = rect.x + (i % per_row) * width + 4, rect.y + (i // per_row) * row_height(size)
        draw.text(surface, place + draw.abbreviated(name, size, room, bold) + total, (x, y), size, colour, bold=bold)
