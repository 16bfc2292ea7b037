"""Drawing primitives shared by the screens: colours, fonts, text, dice."""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

import pygame

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


# The fonts shipped in fonts/ (licences beside them): DejaVu Sans Condensed for Latin, Greek, Cyrillic, Hebrew,
# Arabic and symbols, Droid Sans Fallback for Chinese, Japanese and Korean. A character neither has (most emoji)
# is drawn as MISSING, so that a name shows that something is there rather than an empty box.
FONTS = Path(__file__).with_name("fonts")
FACES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}
FALLBACK = "DroidSansFallback.ttf"
MISSING = "\ufffd"


@cache
def _covers(file: str, char: str) -> bool:
    """Whether the font file has a glyph for `char` (pygame.freetype says None for a missing one)."""
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    return _freetype(file).get_metrics(char)[0] is not None


@cache
def _freetype(file: str):
    import pygame.freetype

    return pygame.freetype.Font(str(FONTS / file), 12)


@lru_cache(maxsize=64)
def _font(file: str, size: int) -> pygame.font.Font:
    if not pygame.font.get_init():  # a display opened without pygame.init(): the fonts still work
        pygame.font.init()
    return pygame.font.Font(str(FONTS / file), size)


@lru_cache(maxsize=4096)  # a screen measures the same words many times while it fits them
def runs(what: str, bold: bool = False) -> tuple[tuple[str, str], ...]:
    """`what` cut into (font file, text) runs, each run in the first font that has its characters; control and
    format characters (a NUL, a zero-width space) left out: no font draws them."""
    main = FACES[bold]
    out: list[tuple[str, str]] = []
    for char in what:
        if unicodedata.category(char)[0] == "C":
            continue
        file = next((f for f in (main, FALLBACK) if _covers(f, char)), None)
        if file is None:
            file, char = main, MISSING
        if out and out[-1][0] == file:
            out[-1] = (file, out[-1][1] + char)
        else:
            out.append((file, char))
    return tuple(out)


class Face:
    """A text size: measures and draws text in the shipped fonts, each character in one that has it. `size`
    is the em in pixels (a capital letter is about three quarters of it)."""

    def __init__(self, size: int, bold: bool = False):
        self.size_px, self.bold = size, bold
        self.main = _font(FACES[bold], size)

    def get_height(self) -> int:
        return self.main.get_height()

    def size(self, what: str) -> tuple[int, int]:
        return sum(_font(f, self.size_px).size(t)[0] for f, t in runs(what, self.bold)), self.get_height()

    def render(self, what: str, colour) -> pygame.Surface:
        parts = [(_font(f, self.size_px), t) for f, t in runs(what, self.bold)]
        if len(parts) == 1 and parts[0][0] is self.main:
            return _rendered(self.main, parts[0][1], colour)
        ascent = self.main.get_ascent()
        image = pygame.Surface((max(1, self.size(what)[0]), self.get_height()), pygame.SRCALPHA)
        x = 0
        for f, t in parts:  # on the main font's baseline, in its line height (the ideographs fit in it)
            image.blit(_rendered(f, t, colour), (x, ascent - f.get_ascent()))
            x += f.size(t)[0]
        return image


def _rendered(f: pygame.font.Font, what: str, colour) -> pygame.Surface:
    try:
        return f.render(what, True, colour)
    except pygame.error:  # "Text has zero width": combining marks alone, say
        return f.render("", True, colour)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Face:
    return Face(max(8, size), bold)


def text(surface, what: str, pos, size: int, colour=TEXT, bold=False, anchor="topleft", max_width=None) -> pygame.Rect:
    f = font(size, bold)
    if max_width is not None:
        while what and f.size(what)[0] > max_width:  # shorten rather than spill into the next column
            what = what[:-2] + "…" if len(what) > 2 else ""
    image = f.render(what, colour)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


def abbreviated(what: str, size: int, width: int, bold: bool = False) -> str:
    """`what`, or as much of it as fits in `width` pixels ending in "…": a name shortened on purpose where
    its full form is shown elsewhere (a column header, the players strip)."""
    f = font(size, bold)
    if f.size(what)[0] <= width:
        return what
    while len(what) > 1 and f.size(what + "…")[0] > width:
        what = what[:-1]
    return what.rstrip(" -") + "…"


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
    return wrapped[: max_lines - 1] + [" ".join(words) + " ..."]


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


def die(
    surface, rect: pygame.Rect, value: int | None, pips=None, held=False, uncertain=False, selected=False, dim=False
) -> None:
    """A die showing `value`: its `pips` ({value: centres on a face spanning -1..1}) or, without them, its number."""
    face = tuple(c // 2 for c in DIE_FACE) if dim else DIE_FACE
    pygame.draw.rect(surface, face, rect, border_radius=rect.width // 6)
    if value is None:
        text(surface, "?", rect.center, rect.width // 2, DIE_PIP, bold=True, anchor="center")
    elif pips:
        radius = max(2, rect.width // 11)
        for fx, fy in pips[value]:  # -1..1 across the face: the pips a quarter of the face in from the edges
            pygame.draw.circle(
                surface, DIE_PIP, (rect.centerx + fx * rect.width / 4, rect.centery + fy * rect.height / 4), radius
            )
    else:
        text(surface, str(value), rect.center, rect.width // 2, DIE_PIP, bold=True, anchor="center")
    # three marks that never share a colour or a shape: held a blue frame, unsure an orange frame with a "?"
    # badge, the cursor a yellow pointer under the die (a selected die keeps the frame it has)
    border = WARN_COLOUR if uncertain else HELD if held else None
    if border:
        pygame.draw.rect(
            surface, border, rect.inflate(8, 8), width=max(3, rect.width // 14), border_radius=rect.width // 5
        )
    if uncertain:
        radius = max(9, rect.width // 4)
        centre = (rect.right, rect.top)
        pygame.draw.circle(surface, WARN_COLOUR, centre, radius)
        text(surface, "?", centre, round(radius * 1.5), DIE_PIP, bold=True, anchor="center")
    if selected:
        tip, half = rect.bottom + 8, max(6, rect.width // 6)
        pygame.draw.polygon(
            surface, ACCENT, [(rect.centerx, tip), (rect.centerx - half, tip + half), (rect.centerx + half, tip + half)]
        )
