"""The two screens the table is built for, and any other size scaled from them.

layout_for(surface.get_size()) -> Layout
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.buttons import BUTTONS


# Sizes are designed on the 800x480 touchscreen and scaled; the TV is seen from further away, so its
# text is larger than the plain scale would make it.
@dataclass(frozen=True)
class Layout:
    name: str
    size: tuple[int, int]
    scale: float  # multiply design pixels (at 800x480) by this
    margin: int
    font_title: int  # pixel sizes for pygame.font
    font_body: int
    font_small: int
    die_size: int  # a die drawn on screen
    button_bar: int  # height of the soft button bar at the bottom
    touch: bool = False  # the screen takes taps: the table draws its soft buttons (the wizard always does)

    def px(self, design_pixels: float) -> int:
        """A design size at 800x480 in this layout's pixels."""
        return round(design_pixels * self.scale)

    def soft_buttons(self) -> dict[str, tuple[int, int, int, int]]:
        """{button: (x, y, width, height)}: the bottom bar in four equal cells, PREV NEXT OK BACK from the
        left; where the screens draw the buttons and where a TouchPanel takes their taps."""
        width, height = self.size
        edges = [round(i * width / len(BUTTONS)) for i in range(len(BUTTONS) + 1)]
        top = height - self.button_bar
        return {b: (x0, top, x1 - x0, self.button_bar) for b, x0, x1 in zip(BUTTONS, edges, edges[1:])}


def _layout(name: str, size: tuple[int, int], text_boost: float = 1.0) -> Layout:
    scale = min(size[0] / 800, size[1] / 480)
    text = scale * text_boost
    return Layout(
        name=name,
        size=size,
        scale=scale,
        margin=round(12 * scale),
        font_title=round(30 * text),
        font_body=round(20 * text),
        font_small=round(16 * text),
        die_size=round(48 * scale),
        button_bar=round(56 * scale),
    )


LAYOUTS = {
    "touchscreen": _layout("touchscreen", (800, 480)),
    "tv": _layout("tv", (1920, 1080), text_boost=1.15),
}


def layout_for(size: tuple[int, int]) -> Layout:
    """The named layout for its exact size, else one scaled from the touchscreen design (TV text boost for
    screens as large as the TV's)."""
    for layout in LAYOUTS.values():
        if layout.size == tuple(size):
            return layout
    big = size[1] >= 720
    return _layout("tv" if big else "touchscreen", tuple(size), text_boost=1.15 if big else 1.0)
