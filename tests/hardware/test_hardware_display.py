"""Display setup: which mode 'auto' picks, the dummy display, a kiosk that cannot open, and the layouts."""

import os

import pygame
import pytest

from appliance.screens.layout import LAYOUTS, layout_for
from hardware import buttons, display
from hardware.buttons import KeyboardPanel
from hardware.display import DisplayError, choose_mode, open_display


@pytest.mark.parametrize(
    "env, drm, expected",
    [
        ({}, ["/dev/dri/card0"], "kiosk"),  # a Pi booted to the console with a screen
        ({"DISPLAY": ":0"}, ["/dev/dri/card0"], "window"),  # the Pi desktop
        ({"WAYLAND_DISPLAY": "wayland-1"}, [], "window"),
        ({}, [], "dummy"),  # a server or CI: nothing to show on
    ],
)
def test_auto_mode_follows_the_machine(env, drm, expected):
    assert choose_mode("auto", env, drm) == expected


def test_explicit_modes_are_kept_and_unknown_ones_refused():
    assert choose_mode("window", {}, []) == "window"
    with pytest.raises(ValueError, match="auto, kiosk, window, dummy"):
        choose_mode("fullscreen", {}, [])


@pytest.fixture
def sdl_env(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # restored after the test, whatever open_display set
    yield
    pygame.display.quit()


def test_dummy_display_opens_at_the_size_asked(sdl_env):
    screen = open_display("dummy", (800, 480))
    assert screen.get_size() == (800, 480)
    assert pygame.display.get_driver() == "dummy"
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"


def test_a_kiosk_without_a_screen_is_an_error_that_says_how_to_fix_it(sdl_env):
    if os.path.exists("/dev/dri"):
        pytest.skip("this machine has a DRM device; the kiosk might really open")
    with pytest.raises(DisplayError, match="kmsdrm|kiosk") as error:
        open_display("kiosk")
    assert "/dev/dri/card" in str(error.value) and "display.mode" in str(error.value)
    assert os.environ["SDL_VIDEODRIVER"] == "kmsdrm"


def test_a_window_without_a_desktop_is_an_error_not_an_invisible_window(sdl_env, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(DisplayError, match="DISPLAY or WAYLAND_DISPLAY"):
        open_display("window", (640, 480))  # SDL would fall back to its offscreen driver
    assert os.environ.get("SDL_VIDEODRIVER") is None  # the dummy driver set before was not kept for a window
    assert not pygame.display.get_init()


def test_layouts_for_the_touchscreen_and_the_tv():
    small, tv = LAYOUTS["touchscreen"], LAYOUTS["tv"]
    assert small.size == (800, 480) and small.scale == 1 and small.px(10) == 10
    assert tv.size == (1920, 1080) and tv.scale == pytest.approx(2.25)
    assert tv.font_body > small.font_body * 2.25  # read from the sofa: text a little larger than scaled
    assert layout_for((800, 480)) is small and layout_for((1920, 1080)) is tv
    other = layout_for((1280, 720))
    assert other.name == "tv" and other.scale == pytest.approx(1.5)


def test_only_the_events_the_table_reads_are_queued(sdl_env, monkeypatch):
    # SDL's queue holds 65,535 events: motion, window and touch-finger events nobody reads would fill it,
    # and then key presses and the QUIT of a SIGTERM would be dropped
    monkeypatch.setattr(buttons, "_READ_EVENTS", set())  # no panel made yet in this process
    open_display("dummy", (320, 240))
    pygame.event.clear()
    assert not pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(1, 1), buttons=(0, 0, 0)))
    assert not pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))  # no keyboard yet
    KeyboardPanel(pump=False)
    assert pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    assert pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert [e.type for e in pygame.event.get()] == [pygame.KEYDOWN, pygame.QUIT]
    open_display("dummy", (320, 240))  # opened again (a screen found later): the keyboard still reads
    assert pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))


def test_a_kiosk_on_a_pygame_without_kmsdrm_says_to_use_apts_pygame(sdl_env, monkeypatch):
    monkeypatch.setattr(display, "pygame_brings_its_own_sdl", lambda: True)
    monkeypatch.setattr(pygame.display, "init", lambda: (_ for _ in ()).throw(pygame.error("kmsdrm not available")))
    with pytest.raises(DisplayError) as error:
        open_display("kiosk")
    assert "apt install python3-pygame" in str(error.value) and "/dev/dri/card" in str(error.value)
