"""Display setup for pygame, and layouts for the two screens the table is built for.

    open_display("auto" | "kiosk" | "window" | "dummy", size) -> pygame.Surface
    layout_for(surface.get_size()) -> Layout

kiosk:  fullscreen through SDL's KMSDRM driver on a Pi without a desktop, mouse cursor hidden
window: a window on a desktop (X11 or Wayland)
dummy:  no screen at all (tests, screenshots, CI)
auto:   kiosk when there is no desktop but a DRM device (/dev/dri), window when a desktop is running,
        dummy otherwise.
This is the only place that sets SDL variables.
"""
from __future__ import annotations

import glob
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from appliance.base.errors import DiceTableError
from hardware.buttons import BUTTONS, read_events

MODES = ("auto", "kiosk", "window", "dummy")
SDL_DRIVER = {"kiosk": "kmsdrm", "dummy": "dummy"}  # window: SDL's own choice (x11 or wayland)
INVISIBLE_DRIVERS = ("offscreen", "dummy")

HOW_TO_FIX = {
    "kiosk": "no KMSDRM display: connect a screen (official touchscreen or HDMI) before booting, make sure "
    "/dev/dri/card* exists (dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt) and that the user is in the "
    "`video` and `render` groups; or set display.mode = \"window\" on a desktop",
    "window": "no desktop to open a window on: run from a desktop session (DISPLAY or WAYLAND_DISPLAY set), "
    "or set display.mode = \"kiosk\" on a Pi without a desktop",
    "dummy": "SDL's dummy driver is missing from this pygame build; reinstall pygame",
}


# pip's pygame wheels bring their own SDL, built without KMSDRM; apt's python3-pygame uses the system's SDL
NO_KMSDRM = ("this pygame brings its own SDL, which has no KMSDRM driver (a pip wheel): sudo apt install "
             "python3-pygame, then sudo /opt/dicetable/venv/bin/pip uninstall -y pygame so that the table uses it "
             "(install.sh does both)")


class DisplayError(DiceTableError, RuntimeError):
    """The display could not be opened; the message says how to fix it."""


def pygame_brings_its_own_sdl() -> bool:
    """True when pygame runs on the SDL library its pip wheel carries (in pygame.libs beside the package)."""
    spec = importlib.util.find_spec("pygame")
    return bool(spec and spec.origin) and any((Path(spec.origin).parents[1] / "pygame.libs").glob("libSDL2-*"))


def drm_devices() -> list[str]:
    return sorted(glob.glob("/dev/dri/card*"))


def choose_mode(mode: str = "auto", env: Mapping[str, str] | None = None, drm: list[str] | None = None) -> str:
    """The concrete mode 'auto' stands for here; other modes are returned as they are."""
    if mode not in MODES:
        raise ValueError(f"display mode {mode!r} is not one of {', '.join(MODES)}")
    if mode != "auto":
        return mode
    env = os.environ if env is None else env
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return "window"
    return "kiosk" if (drm_devices() if drm is None else drm) else "dummy"


def open_display(mode: str = "auto", size: tuple[int, int] = (800, 480), caption: str = "The dice table"):
    """Initialise pygame's display in `mode` and return the screen surface.

    In kiosk mode the surface takes the screen's own resolution (size is only a fallback); in window and
    dummy mode it is `size`. Raises DisplayError with the fix when SDL cannot open the display.
    """
    import pygame

    concrete = choose_mode(mode)
    if pygame.display.get_init():
        pygame.display.quit()  # the driver is chosen at init time, so start afresh
    driver = SDL_DRIVER.get(concrete)
    if driver:
        os.environ["SDL_VIDEODRIVER"] = driver
    elif os.environ.get("SDL_VIDEODRIVER") in SDL_DRIVER.values():
        del os.environ["SDL_VIDEODRIVER"]  # left over from a kiosk or dummy start in this process
    try:
        pygame.display.init()
        if concrete == "kiosk":
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)  # (0, 0): the screen's own size
            pygame.mouse.set_visible(False)
        else:
            screen = pygame.display.set_mode(tuple(size))
    except pygame.error as error:
        fix = HOW_TO_FIX[concrete]
        if concrete == "kiosk" and pygame_brings_its_own_sdl():
            fix = f"{NO_KMSDRM}; else {fix}"
        raise DisplayError(f"cannot open the {concrete} display ({error}): {fix}") from None
    # only what the table reads is queued: SDL's queue is finite, and a full one would drop key presses and
    # the QUIT a SIGTERM becomes (the button panels say what they read: KeyboardPanel, TouchPanel)
    pygame.event.set_blocked(None)
    pygame.event.set_allowed([pygame.QUIT, *read_events()])
    if concrete == "window" and pygame.display.get_driver() in INVISIBLE_DRIVERS:
        # SDL falls back to drawing off screen when it finds no desktop: a window nobody can see
        pygame.display.quit()
        raise DisplayError(f"cannot open a window (SDL found no desktop): {HOW_TO_FIX['window']}")
    pygame.display.set_caption(caption)
    return screen


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
        name=name, size=size, scale=scale,
        margin=round(12 * scale),
        font_title=round(30 * text), font_body=round(20 * text), font_small=round(16 * text),
        die_size=round(48 * scale), button_bar=round(56 * scale),
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
