"""The camera's picture on a screen (the table's, beside the sheet, and the calibration wizard's)."""

from __future__ import annotations


def draw_frame(surface, frame, rect) -> float | None:
    """A BGR camera frame drawn into `rect` (pygame.Rect) at its top left, as large as fits with its shape
    kept; the scale it was drawn at, or None when the rect has no room for a picture worth seeing."""
    import cv2
    import pygame

    height, width = frame.shape[:2]
    scale = min(rect.width / width, rect.height / height)
    size = (int(width * scale), int(height * scale))
    if min(size) < 16:
        return None
    rgb = cv2.cvtColor(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2RGB)
    surface.blit(pygame.image.frombuffer(rgb.tobytes(), size, "RGB"), rect.topleft)
    return scale
