"""Drawing primitives shared by the screens: colours, fonts, text, dice."""
from __future__ import annotations

import unicodedata
from functools import lru_cache

import pygame

from vision.pips import PIPS

BACKGROUND = (16, 22, 28)
PANEL = (28, 38, 48)
GRID = (60, 74, 88)
TEXT = (236, 240, 244)
DIM = (140, 152, 164)
ACCENT = (255, 206, 84)  # the cursor, the highlighted field
GOOD = (110, 210, 130)  # reached bonuses, legal fields
WARN_COLOUR = (255, 150, 70)
ERROR_COLOUR = (255, 90, 90)
DIE_FACE = (244, 244, 238)
DIE_PIP = (20, 20, 24)
HELD = (90, 170, 255)
LEVEL_COLOURS = {"info": TEXT, "warn": WARN_COLOUR, "error": ERROR_COLOUR}



def printable(what: str) -> str:
    """`what` without the characters no font draws: control and format characters (a NUL, a zero-width space),
    surrogates. Settings refuse them in names, but a name an older version took lives on in its game's log."""
    return "".join(c for c in what if unicodedata.category(c)[0] != "C")


class Font(pygame.font.Font):
    """pygame's font, measuring and drawing only what it can draw (pygame raises for a NUL, and for a text
    that draws nothing: the screen would fail at every start)."""

    def size(self, text: str) -> tuple[int, int]:
        return super().size(printable(text))

    def render(self, text: str, *args) -> pygame.Surface:
        try:
            return super().render(printable(text), *args)
        except pygame.error:   # "Text has zero width": combining marks alone, say
            return super().render("", *args)


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():  # a display opened without pygame.init(): the fonts still work
        pygame.font.init()
    f = Font(None, max(8, round(size * 1.3)))  # the default font draws small for its size
    f.set_bold(bold)
    return f


def text(surface, what: str, pos, size: int, colour=TEXT, bold=False, anchor="topleft", max_width=None) -> pygame.Rect:
    f = font(size, bold)
    if max_width is not None:
        while what and f.size(what)[0] > max_width:  # shorten rather than spill into the next column
            what = what[:-2] + "…" if len(what) > 2 else ""
    image = f.render(what, True, colour)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


def fitting_size(what: str, size: int, width: int, smallest: int, bold: bool = False) -> int:
    """The largest text size from `size` down to `smallest` at which `what` fits in `width` pixels."""
    while size > smallest and font(size, bold).size(what)[0] > width:
        size -= 1
    return size


def wrap(what: str, size: int, width: int) -> list[str]:
    f = font(size)
    lines, line = [], ""
    for word in what.split():
        trial = f"{line} {word}".strip()
        if f.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    return lines + ([line] if line else [])


def lines(what: str, size: int, width: int, max_lines: int) -> list[str]:
    """`what` wrapped in at most `max_lines` lines, the last ending in "..." when there was more (so that a
    cut message does not look whole)."""
    wrapped = wrap(what, size, width)
    if len(wrapped) <= max_lines:
        return wrapped
    words = wrapped[max_lines - 1].split()
    while len(words) > 1 and font(size).size(" ".join(words) + " ...")[0] > width:
        words.pop()
    return wrapped[:max_lines - 1] + [" ".join(words) + " ..."]


def paragraph(surface, what: str, pos, size: int, width: int, colour=TEXT, max_lines=3) -> int:
    """Wrapped text (`lines`); returns the y below it."""
    x, y = pos
    for line in lines(what, size, width, max_lines):
        rect = text(surface, line, (x, y), size, colour)
        y = rect.bottom + 2
    return y


def paragraph_height(what: str, size: int, width: int, max_lines=3) -> int:
    """How tall `paragraph` draws this text."""
    return len(lines(what, size, width, max_lines)) * (font(size).get_height() + 2)


def die(surface, rect: pygame.Rect, value: int | None, kind: str = "d6", held=False, uncertain=False,
        selected=False, dim=False) -> None:
    face = tuple(c // 2 for c in DIE_FACE) if dim else DIE_FACE
    pygame.draw.rect(surface, face, rect, border_radius=rect.width // 6)
    if value is None:
        text(surface, "?", rect.center, rect.width // 2, DIE_PIP, bold=True, anchor="center")
    elif kind == "d6":
        radius = max(2, rect.width // 11)
        for fx, fy in PIPS[value]:  # -1..1 across the face: the pips a quarter of the face in from the edges
            pygame.draw.circle(surface, DIE_PIP, (rect.centerx + fx * rect.width / 4, rect.centery + fy * rect.height / 4),
                               radius)
    else:
        text(surface, str(value), rect.center, rect.width // 2, DIE_PIP, bold=True, anchor="center")
    border = next((colour for flag, colour in ((selected, ACCENT), (uncertain, WARN_COLOUR), (held, HELD)) if flag), None)
    if border:
        pygame.draw.rect(surface, border, rect.inflate(8, 8), width=max(3, rect.width // 14), border_radius=rect.width // 5)
    if uncertain:
        text(surface, "?", (rect.right, rect.top), rect.width // 3, WARN_COLOUR, bold=True, anchor="center")
