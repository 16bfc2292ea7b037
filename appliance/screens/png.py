"""Screens as PNG files: drawn on surfaces of their own (no display needed), saved, gathered in contact sheets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from appliance.screen_model import Picture, Screen
    from appliance.screens.layout import Layout

SHEET_BACKGROUND = (60, 60, 60)
SHEET_GAP, SHEET_LABEL, SHEET_LABEL_TEXT = 8, 22, 15  # pixels between cells, above each cell, the label's size


def drawn(screen: Screen, layout: Layout, picture: Picture | None = None) -> pygame.Surface:
    """`screen` drawn at `layout`'s size on a surface of its own."""
    from appliance.screens.render import render

    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(layout.size)
    render(surface, screen, layout, picture)
    return surface


def save(surface: pygame.Surface, path: str | Path) -> None:
    """`surface` written as a PNG file; a file that cannot be written (a full or read-only disk) raises OSError."""
    try:
        pygame.image.save(surface, str(path))
    except pygame.error as error:
        raise OSError(str(error)) from None


def contact_sheet(out: Path, cells, rows: int, columns: int, cell: tuple[int, int]) -> Path:
    """`cells`, (row, column, label, surface) each, in one PNG at `out`: each surface shrunk to `cell` under its
    label, in a grid of `rows` by `columns`, to look over at once."""
    from appliance.screens import draw

    sheet = pygame.Surface(((cell[0] + SHEET_GAP) * columns, (cell[1] + SHEET_LABEL + SHEET_GAP) * rows))
    sheet.fill(SHEET_BACKGROUND)
    for row, column, label, surface in cells:
        x, y = column * (cell[0] + SHEET_GAP), row * (cell[1] + SHEET_LABEL + SHEET_GAP)
        draw.text(sheet, label, (x + 4, y + 2), SHEET_LABEL_TEXT)
        sheet.blit(pygame.transform.smoothscale(surface, cell), (x, y + SHEET_LABEL))
    out.parent.mkdir(parents=True, exist_ok=True)
    save(sheet, out)
    return out
