"""The display: opening it (pygame on SDL), showing what was drawn, and its events and clock.

    open_display("auto" | "kiosk" | "window" | "dummy", size) -> pygame.Surface
    flip()                    shows what was drawn on the display's surface
    window_open()             False once the window is closed or the process asked to stop
    quit_asked(), pace(fps)   the calibration wizard's loop: a stop asked for, a frame's wait

kiosk:  fullscreen through SDL's KMSDRM driver on a Pi without a desktop, mouse cursor hidden
window: a window on a desktop (X11 or Wayland)
dummy:  no screen at all (tests, screenshots, CI)
auto:   kiosk when there is no desktop but a DRM device (/dev/dri), window when a desktop is running,
        dummy otherwise.
This is the only place that sets SDL variables. What is drawn on it, and at what sizes, is the screens' part
(appliance/screens).
"""

from __future__ import annotations

import glob
import importlib.util
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from appliance.base.errors import DiceTableError
from hardware.buttons import read_events

MODES = ("auto", "kiosk", "window", "dummy")
SDL_DRIVER = {"kiosk": "kmsdrm", "dummy": "dummy"}  # window: SDL's own choice (x11 or wayland)
INVISIBLE_DRIVERS = ("offscreen", "dummy")

HOW_TO_FIX = {
    "kiosk": "no KMSDRM display: connect a screen (official touchscreen or HDMI) before booting, make sure "
    "/dev/dri/card* exists (dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt) and that the user is in the "
    '`video` and `render` groups; or set display.mode = "window" on a desktop',
    "window": "no desktop to open a window on: run from a desktop session (DISPLAY or WAYLAND_DISPLAY set), "
    'or set display.mode = "kiosk" on a Pi without a desktop',
    "dummy": "SDL's dummy driver is missing from this pygame build; reinstall pygame",
}


# pip's pygame wheels bring their own SDL, built without KMSDRM; apt's python3-pygame uses the system's SDL
NO_KMSDRM = (
    "this pygame brings its own SDL, which has no KMSDRM driver (a pip wheel): sudo apt install "
    "python3-pygame, then sudo /opt/dicetable/venv/bin/pip uninstall -y pygame so that the table uses it "
    "(install.sh does both)"
)


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
    pygame.key.set_repeat(0)  # a held key is one long press (KeyboardPanel times it), never repeated presses
    return screen


def flip() -> None:
    """What was drawn on the display's surface, shown."""
    import pygame

    pygame.display.flip()


def window_open(escape_closes: bool = False) -> bool:
    """False once a desktop window is closed or the process is asked to stop (SIGTERM, SIGINT: SDL's own
    handlers turn them into a QUIT event, which stays queued: every later call sees it too). Escape closes it
    only with `escape_closes` (the demo, where no panel reads the keys): at the table the keyboard panel takes
    the key events, and Escape is its BACK button."""
    import pygame

    if escape_closes:  # the demo's own event reading, which also keeps its window answering
        # open_display queues only the events some panel reads, and the demo's scripted presses read none
        pygame.event.set_allowed(pygame.KEYDOWN)
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                pygame.event.post(pygame.event.Event(pygame.QUIT))  # queued again: closed from now on
                break
    return not pygame.event.peek(pygame.QUIT)


def quit_asked() -> bool:
    """Whether a QUIT came (a closed window, SIGTERM), taken from the queue."""
    import pygame

    return bool(pygame.event.get(pygame.QUIT))


def pace(fps: float) -> Callable[[], None]:
    """wait(): called once a frame, it waits until 1/fps has passed since the last call."""
    import pygame

    clock = pygame.time.Clock()
    return lambda: clock.tick(fps)
