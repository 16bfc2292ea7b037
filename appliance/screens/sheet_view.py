"""The scoresheet of the sheet games, drawn so 72 or 120 fields stay legible.

One player's sheet at a time (the one who is throwing or correcting), three columns side by side.
Sections are shown in full while they fit, starting with the one in focus (the field under the
cursor, else where the best choice is); the rest are summed up in one row each, with each section
bonus and how far it is from its threshold. A strip below holds every player's total and rank.
"""

from __future__ import annotations

import pygame

from appliance.screen_model import ColumnView, SectionView, SheetView
from appliance.screens import draw


def focus_section(sheet: SheetView, focus) -> SectionView:
    """The section holding the (column, field) in focus, else the first."""
    sections = sheet.sections
    if focus:
        return next(s for s in sections if focus[1] in (f.number for f in s.fields))
    return sections[0]


COLUMN_WIDTH = 3.2  # a column of a block is this many times the text size wide ("0/110" and a margin)
WIDEST_COLUMN = 5  # columns share the room the names leave, up to this many times the text size ("middle")
NARROWEST_COLUMN = 2.6  # a player's column is at least this many times the text size wide ("145" and a margin)
STRIP_CELL = 6.5  # a player's place, name and total in the strip below: at least this many times the text size


def row_height(size: int) -> int:
    return draw.font(size).get_height() + 2


def _rows(height: int, size: int, strip_h: int = 0) -> int:
    return (height - (strip_h or row_height(size)) - 6) // row_height(size)  # the players strip, then rows


def _whole_sheet(
    sheet: SheetView, rect: pygame.Rect, size: int, smallest: int, columns: int, strip_h: int = 0
) -> tuple[int, int] | None:
    """(text size, blocks) that show every section in full, from `size` down to `smallest`."""
    sections = list(sheet.sections)
    for s in range(size, smallest - 1, -1):
        for blocks in (1, 2):
            per_block = -(-len(sections) // blocks)
            split = [sections[i : i + per_block] for i in range(0, len(sections), per_block)]
            tall = max(1 + sum(len(x.fields) + 1 for x in block) for block in split)
            if (
                tall <= _rows(rect.height, s, strip_h)
                and rect.width >= blocks * (names_width(sheet, s) + s * COLUMN_WIDTH * columns) + (blocks - 1) * s
            ):
                return s, blocks
    return None


def blocks_shown(
    sheet: SheetView,
    focus: SectionView,
    rect: pygame.Rect,
    size: int,
    smallest: int,
    columns: int = 3,
    strip_h: int = 0,
) -> tuple[int, list[list[tuple[SectionView, bool]]]]:
    """The text size and side-by-side blocks of (section, drawn in full?). Every section in full when
    they fit at a size down to `smallest`; else one block at `size`: the focused section and its
    neighbours in full, the others summed up."""
    sections = list(sheet.sections)
    whole = _whole_sheet(sheet, rect, size, smallest, columns, strip_h)
    if whole:
        size, blocks = whole
        per_block = -(-len(sections) // blocks)
        return size, [[(s, True) for s in sections[i : i + per_block]] for i in range(0, len(sections), per_block)]
    largest = size
    for size in range(largest, smallest - 1, -1):  # smaller text before the section in focus is left out
        full, used = set(), 1 + len(sections)
        for section in sorted(sections, key=lambda s: abs(sections.index(s) - sections.index(focus))):
            if used + len(section.fields) <= _rows(rect.height, size, strip_h):
                full.add(section.name)
                used += len(section.fields)
        if focus.name in full:
            break
    return size, [[(s, s.name in full) for s in sections]]


def columns_that_fit(columns: tuple[ColumnView, ...], width: int, size: int) -> tuple[ColumnView, ...]:
    """As many columns as `width` holds legibly beside the field names, the active one among them: with many
    players the others' columns make way (their totals stay in the strip below)."""
    room = max(1, int(width // (size * NARROWEST_COLUMN)))
    if len(columns) <= room:
        return columns
    active = next(i for i, c in enumerate(columns) if c.active)
    first = min(max(0, active - room // 2), len(columns) - room)
    return columns[first : first + room]


def names_width(sheet: SheetView, size: int) -> int:
    """What the widest field name needs ("11 large straight")."""
    return max(draw.font(size).size(f"{f.number:>2} {f.name}")[0] for s in sheet.sections for f in s.fields) + 12


def strip_rows(players: int, width: int, size: int) -> int:
    return -(-players // max(1, min(players, int(width // (size * STRIP_CELL)))))


def draw_sheet(surface, rect: pygame.Rect, sheet: SheetView, size: int, smallest: int) -> None:
    """The sheet in `rect`: the framed cells, else the one in focus, in view."""
    strip_size, strip = size, strip_rows(len(sheet.standings), rect.width, size)  # the totals at full size
    focus = sheet.highlight[0] if sheet.highlight else sheet.focus
    size, shown = blocks_shown(
        sheet, focus_section(sheet, focus), rect, size, smallest, len(sheet.columns), strip * row_height(strip_size)
    )
    width = rect.width // len(shown)
    columns = columns_that_fit(sheet.columns, width - names_width(sheet, size), size)
    row_h = row_height(size)
    bottom = rect.y
    for b, sections in enumerate(shown):
        block = pygame.Rect(rect.x + b * width, rect.y, width - (size if b < len(shown) - 1 else 0), rect.height)
        bottom = max(bottom, _draw_block(surface, block, sections, sheet, columns, size, row_h))
    pygame.draw.line(surface, draw.GRID, (rect.x, bottom + 2), (rect.right, bottom + 2), 2)
    _players_strip(
        surface, pygame.Rect(rect.x, bottom + 6, rect.width, rect.bottom - bottom - 6), sheet, strip_size, strip
    )


def _draw_block(surface, rect, sections, sheet: SheetView, columns, size, row_h) -> int:
    """One block: the header, then per section its fields (when in full) and its summary row."""
    col_w = min((rect.width - names_width(sheet, size)) // len(columns), size * WIDEST_COLUMN)
    name_w = rect.width - len(columns) * col_w
    x_cols = [rect.x + name_w + c * col_w for c in range(len(columns))]
    y = rect.y
    draw.text(
        surface, draw.abbreviated(sheet.title, size, name_w - 8, bold=True), (rect.x + 4, y), size, draw.DIM, bold=True
    )
    for x, column in zip(x_cols, columns):
        draw.text(
            surface,
            draw.abbreviated(column.header, size, col_w - 4),
            (x + col_w // 2, y),
            size,
            draw.ACCENT if column.active and sheet.every_player else draw.DIM,
            anchor="midtop",
        )
    y += row_h
    for section, full in sections:
        for field in section.fields if full else ():
            _field_row(surface, rect, y, row_h, size, field, x_cols, col_w, columns, sheet.highlight, sheet.options)
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
        entry = column.entries.get(field.number)
        if entry is not None:
            number = draw.text(surface, str(entry.total), cell.center, size, draw.TEXT, bold=True, anchor="center")
            if entry.slam:  # a slam: a dot beside the number
                pygame.draw.circle(
                    surface, draw.ACCENT, (number.right + max(3, size // 4), number.centery), max(2, size // 6)
                )
        elif mine and key in options:  # open for this throw: what it would score
            draw.text(
                surface,
                str(options[key]),
                cell.center,
                size,
                draw.ACCENT if key in highlight else draw.GOOD,
                anchor="center",
            )


def _section_row(surface, rect, y, row_h, size, section, x_cols, col_w, columns) -> None:
    pygame.draw.rect(surface, draw.PANEL, (rect.x, y, rect.width, row_h - 1))
    label = f"section {section.name}" if len(section.name) == 1 else section.name
    if (
        section.threshold
        and draw.font(size).size(f"{label} (+{section.bonus} at {section.threshold})")[0] <= x_cols[0] - rect.x - 8
    ):  # the bonus rule where it fits; each column's cell says how far it is
        label += f" (+{section.bonus} at {section.threshold})"
    draw.text(surface, label, (rect.x + 4, y), size, draw.DIM)
    for x, column in zip(x_cols, columns):
        entries = column.sections[section.name].entries
        if section.threshold and column.sections[section.name].bonus:
            value, colour = f"{entries}+{section.bonus}", draw.GOOD
        elif section.threshold:
            value, colour = f"{entries}/{section.threshold}", draw.DIM
        else:
            value, colour = str(entries), draw.TEXT
        if draw.font(size).size(value)[0] > col_w - 4:  # a narrow column: the sum, green once the bonus is in
            value = str(entries)
        draw.text(surface, value, (x + col_w // 2, y), size, colour, anchor="midtop")


def _players_strip(surface, rect, sheet: SheetView, size: int, rows: int) -> None:
    """Every player's place, name and total, in as many rows as it takes (names shortened to their cell)."""
    per_row = -(-len(sheet.standings) // rows)
    width = rect.width // per_row
    for i, (rank, name, points) in enumerate(sheet.standings):
        colour = draw.ACCENT if i == sheet.player else draw.TEXT
        bold = i == sheet.player
        place, total = f"{rank}. ", f" {points}"
        room = width - 8 - draw.font(size, bold).size(place + total)[0]
        x, y = rect.x + (i % per_row) * width + 4, rect.y + (i // per_row) * row_height(size)
        draw.text(surface, place + draw.abbreviated(name, size, room, bold) + total, (x, y), size, colour, bold=bold)
