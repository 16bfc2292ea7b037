"""The camera's picture on a screen (the table's, beside the sheet, and the calibration wizard's): the frame, the
dice read in it boxed and labeled, and the dice the advice keeps framed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pygame

from appliance.screen_model import CheckedDie, Picture, SeenDie
from appliance.screens import draw
from appliance.screens.layout import Layout


def draw_frame(surface, frame, rect) -> float | None:
    """A BGR camera frame drawn into `rect` (pygame.Rect) at its top left, as large as fits with its shape
    kept; the scale it was drawn at, or None when the rect has no room for a picture worth seeing."""
    import cv2

    height, width = frame.shape[:2]
    scale = min(rect.width / width, rect.height / height)
    size = (int(width * scale), int(height * scale))
    if min(size) < 16:
        return None
    rgb = cv2.cvtColor(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2RGB)
    surface.blit(pygame.image.frombuffer(rgb.tobytes(), size, "RGB"), rect.topleft)
    return scale


def picture(
    surface, rect, picture: Picture, layout: Layout, checked: tuple[CheckedDie, ...] = (), advised: tuple[int, ...] = ()
) -> None:
    """The camera's picture fitted into `rect`; the dice read boxed: green read, orange unsure, blue in the
    keep zone, red cocked or outside the tray. The dice under review (`checked`) are labeled with the value the
    player gave (a misread die corrected shows its new value); the dice showing the `advised` values to keep are
    framed once more, outside their box."""
    scale = draw_frame(surface, picture.image, rect)
    if scale is None:
        return
    dice = picture.dice
    given = {c.box: (c.value, c.confirmed) for c in checked}
    boxes = [
        pygame.Rect(
            rect.x + round(die.box[0] * scale),
            rect.y + round(die.box[1] * scale),
            max(4, round((die.box[2] - die.box[0]) * scale)),
            max(4, round((die.box[3] - die.box[1]) * scale)),
        )
        for die in dice
    ]
    shown = [given.get(die.box, (die.value, not die.uncertain)) for die in dice]
    labels = ["?" if value is None else str(value) for value, _ in shown]
    spots = label_spots(boxes, [draw.font(layout.font_small, True).size(t) for t in labels], rect)
    for die, (_, confirmed), box, label, spot in zip(dice, shown, boxes, labels, spots):
        colour = (
            draw.ERROR_COLOUR
            if die.cocked or die.zone == "outside"
            else draw.WARN_COLOUR
            if not confirmed
            else draw.HELD
            if die.zone == "keep"
            else draw.GOOD
        )
        pygame.draw.rect(surface, colour, box, width=2)
        draw.text(surface, label, spot.topleft, layout.font_small, colour, bold=True)
    for i in advised_dice(dice, advised):
        pygame.draw.rect(surface, draw.GOOD, boxes[i].inflate(10, 10), width=3, border_radius=4)


def advised_dice(dice: Sequence[SeenDie], values: Sequence[int]) -> list[int]:
    """Which dice of the picture show the values the advice keeps: one die per value, those lying in the keep zone
    first (a die already kept stays kept), then those in the rolling area; none outside the tray or cocked."""
    wanted = Counter(values)
    chosen = []
    for i in sorted(range(len(dice)), key=lambda i: dice[i].zone != "keep"):
        die = dice[i]
        if die.zone in ("keep", "roll") and not die.cocked and wanted[die.value] > 0:
            wanted[die.value] -= 1
            chosen.append(i)
    return sorted(chosen)


def label_spots(boxes: list[pygame.Rect], sizes: list[tuple[int, int]], bounds: pygame.Rect) -> list[pygame.Rect]:
    """Where each die's value goes: beside a corner of its box (above right first), the first corner whose
    label covers no other box or label, so that touching dice keep readable values; inside `bounds`."""
    taken = list(boxes)
    spots = []
    for box, (w, h) in zip(boxes, sizes):
        corners = [
            pygame.Rect(x, y, w, h).clamp(bounds)
            for x, y in (
                (box.right, box.top - h),
                (box.left - w, box.top - h),
                (box.right, box.bottom),
                (box.left - w, box.bottom),
            )
        ]
        others = [r for r in taken if r is not box]
        spot = next((c for c in corners if c.collidelist(others) < 0), corners[0])
        spots.append(spot)
        taken.append(spot)
    return spots
