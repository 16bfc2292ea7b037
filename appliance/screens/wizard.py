"""Draws a WizardScreen with pygame: the camera picture with the outlines found, the step's instruction
and message beside it, and what each button does along the bottom. Sizes follow the screens' Layout
(appliance/screens/layout.py), so the same code serves the 800x480 touchscreen and a TV."""

from __future__ import annotations

import pygame

from appliance.screens.camera import draw_frame
from appliance.screens.layout import Layout, layout_for
from calibration.wizard import WizardScreen

COLOURS = {
    "background": (24, 28, 32),
    "text": (235, 235, 235),
    "dim": (150, 155, 160),
    "good": (120, 220, 120),
    "problem": (255, 170, 60),
    "bar": (45, 50, 58),
    "tray": (255, 220, 60),
    "keep": (235, 70, 70),
    "die": (80, 220, 255),
    "handle": (255, 255, 255),
    "selected": (255, 80, 200),
}
_fonts: dict[int, pygame.font.Font] = {}


def _font(size: int) -> pygame.font.Font:
    if size not in _fonts:
        if not pygame.font.get_init():
            pygame.font.init()
        _fonts[size] = pygame.font.Font(None, size)
    return _fonts[size]


def draw(surface: pygame.Surface, screen: WizardScreen, layout: Layout | None = None) -> None:
    layout = layout or layout_for(surface.get_size())
    width, height = surface.get_size()
    m = layout.margin
    surface.fill(COLOURS["background"])
    header = _text(surface, f"{screen.number}/{screen.steps}  {screen.title}", (m, m), layout.font_title, "text")
    bar_top = height - layout.button_bar
    picture_box = pygame.Rect(m, header + m, int(width * 0.62) - 2 * m, bar_top - header - 2 * m)
    if screen.frame is not None:
        _picture(surface, screen, picture_box)
    x = picture_box.right + m
    column = width - x - m
    y = _wrapped(surface, screen.instruction, (x, header + m), column, layout.font_body, "text")
    if screen.message:
        _wrapped(surface, screen.message, (x, y + m), column, layout.font_body, "problem" if screen.problem else "good")
    _button_bar(surface, screen, layout, bar_top)


def _picture(surface: pygame.Surface, screen: WizardScreen, box: pygame.Rect) -> None:
    scale = draw_frame(surface, screen.frame, box)
    if scale is None:
        return

    def at(p):
        return (box.left + p[0] * scale, box.top + p[1] * scale)

    for overlay in screen.overlays:
        points = [at(p) for p in overlay.points]
        colour = COLOURS[overlay.kind]
        if overlay.kind == "keep":
            _hatch(surface, points, colour)
        if len(points) > 1:
            pygame.draw.lines(surface, colour, True, points, 3 if overlay.kind == "tray" else 2)
        else:
            radius = 9 if overlay.kind == "selected" else 5
            pygame.draw.circle(surface, colour, points[0], radius, 0 if overlay.kind == "selected" else 2)
        if overlay.label:
            cx = sum(p[0] for p in points) / len(points)
            cy = min(p[1] for p in points) - 18 if len(points) > 1 else points[0][1] - 26
            label = _font(22).render(overlay.label, True, colour)
            surface.blit(label, (cx - label.get_width() / 2, cy))


def _hatch(surface: pygame.Surface, points, colour) -> None:
    """A see-through fill, so the felt under the keep zone stays visible."""
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    pygame.draw.polygon(layer, (*colour, 70), points)
    surface.blit(layer, (0, 0))


def _text(surface, text: str, at, size: int, colour: str) -> int:
    rendered = _font(size).render(text, True, COLOURS[colour])
    surface.blit(rendered, at)
    return at[1] + rendered.get_height()


def _wrapped(surface, text: str, at, width: int, size: int, colour: str) -> int:
    """Text broken into lines that fit `width`; returns the y below it."""
    font, (x, y) = _font(size), at
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if font.size(trial)[0] > width and line:
            y = _text(surface, line, (x, y), size, colour) + 2
            line = word
        else:
            line = trial
    if line:
        y = _text(surface, line, (x, y), size, colour)
    return y


def _button_bar(surface, screen: WizardScreen, layout: Layout, top: int) -> None:
    pygame.draw.rect(surface, COLOURS["bar"], (0, top, surface.get_width(), layout.button_bar))
    for button, (x, _, cell, _) in layout.soft_buttons().items():
        action = screen.buttons.get(button)
        x += layout.margin
        _text(surface, button, (x, top + 4), layout.font_small, "dim")
        if action:
            _wrapped(
                surface, action, (x, top + 4 + layout.font_small), cell - 2 * layout.margin, layout.font_small, "text"
            )
