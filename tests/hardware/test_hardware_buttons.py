"""Button panels: real gpiozero Buttons on MockFactory pins, pygame key and mouse events, scripts."""

import time

import pygame
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.buttons import BACK, NEXT, OK, PREV, GpioPanel, HoldTimer, KeyboardPanel, Press, ScriptedPanel, TouchPanel


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


# -- Press and the hold timer ---------------------------------------------------------------------


def test_press_parses_script_text_and_refuses_unknown_buttons():
    assert Press.parse("ok") == Press(OK)
    assert Press.parse("BACK long") == Press(BACK, long=True)
    assert str(Press(NEXT, long=True)) == "NEXT long"
    with pytest.raises(ValueError, match="PREV, NEXT, OK, BACK"):
        Press("MENU")


def test_hold_timer_gives_long_presses_while_held_and_short_ones_on_release():
    clock = Clock()
    timer = HoldTimer(long_press_s=0.8, debounce_s=0.03, clock=clock)
    timer.down(OK)
    clock.now = 0.5
    assert timer.held() == []
    assert timer.up(OK) == [Press(OK)]

    timer.down(BACK)
    clock.now = 1.4
    assert timer.held() == [Press(BACK, long=True)]
    assert timer.held() == []  # once per press
    clock.now = 3.0
    assert timer.up(BACK) == []  # the long press was already given

    timer.down(NEXT)
    clock.now = 3.01
    assert timer.up(NEXT) == []  # 10 ms contact: bounce


# -- the scripted panel ---------------------------------------------------------------------------


def test_scripted_panel_gives_untimed_presses_one_per_poll():
    panel = ScriptedPanel(["NEXT", "NEXT", Press(OK, long=True)])
    assert [panel.poll() for _ in range(4)] == [[Press(NEXT)], [Press(NEXT)], [Press(OK, long=True)], []]
    assert panel.done


def test_scripted_panel_releases_timed_presses_when_their_time_has_come():
    clock = Clock()
    panel = ScriptedPanel([(0.5, "OK"), (0.5, "NEXT"), (2.0, "BACK long")], clock=clock)
    assert panel.poll() == []
    clock.now = 0.6
    assert panel.poll() == [Press(OK), Press(NEXT)]
    clock.now = 1.9
    assert panel.poll() == [] and not panel.done
    clock.now = 2.0
    assert panel.poll() == [Press(BACK, long=True)] and panel.done


# -- keyboard and touch through real pygame events ----------------------------------------------------


@pytest.fixture
def pygame_display():
    pygame.display.init()
    pygame.display.set_mode((80, 48))
    pygame.event.clear()
    yield
    pygame.display.quit()


def key(kind, k, mod=0):
    return pygame.event.Event(kind, key=k, mod=mod, unicode="", scancode=0)


def test_keyboard_panel_maps_keys_and_leaves_other_events_in_the_queue(pygame_display):
    clock = Clock()
    panel = KeyboardPanel(clock=clock)
    for k, _button in [
        (pygame.K_LEFT, PREV),
        (pygame.K_RIGHT, NEXT),
        (pygame.K_RETURN, OK),
        (pygame.K_BACKSPACE, BACK),
    ]:
        pygame.event.post(key(pygame.KEYDOWN, k))
        clock.now += 0.1
        pygame.event.post(key(pygame.KEYUP, k))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pygame.event.post(key(pygame.KEYDOWN, pygame.K_a))  # not a button key
    presses = panel.poll()
    assert presses == [Press(PREV), Press(NEXT), Press(OK), Press(BACK)]
    assert pygame.event.peek(pygame.QUIT)  # the app still sees QUIT


def test_keyboard_long_press_by_holding_or_with_shift(pygame_display):
    clock = Clock()
    panel = KeyboardPanel(clock=clock, long_press_s=0.8, pump=False)
    assert panel.handle(key(pygame.KEYDOWN, pygame.K_RETURN))
    clock.now = 0.9
    assert panel.poll() == [Press(OK, long=True)]  # while the key is still down
    panel.handle(key(pygame.KEYUP, pygame.K_RETURN))
    assert panel.poll() == []
    panel.handle(key(pygame.KEYDOWN, pygame.K_ESCAPE, mod=pygame.KMOD_LSHIFT))
    panel.handle(key(pygame.KEYUP, pygame.K_ESCAPE))
    assert panel.poll() == [Press(BACK, long=True)]
    assert not panel.handle(pygame.event.Event(pygame.QUIT))


def test_touch_panel_turns_taps_in_regions_into_presses(pygame_display):
    clock = Clock()
    panel = TouchPanel({PREV: (0, 400, 200, 80), OK: (400, 400, 200, 80)}, clock=clock, pump=False)
    panel.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(450, 430), button=1))
    clock.now = 0.2
    panel.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(450, 430), button=1))
    panel.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(300, 100), button=1))  # outside every region
    panel.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(300, 100), button=1))
    panel.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 410), button=1))
    clock.now = 1.5
    assert panel.poll() == [Press(OK), Press(PREV, long=True)]


# -- GPIO through gpiozero's MockFactory --------------------------------------------------------------

PINS = {PREV: 5, NEXT: 6, OK: 13, BACK: 19}


@pytest.fixture
def factory():
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = previous


def test_gpio_panel_short_press_on_release(factory):
    panel = GpioPanel(PINS, long_press_s=0.3, debounce_s=0.01)
    pin = factory.pin(13)
    assert pin.state == 1  # pulled up: the button connects the pin to ground
    pin.drive_low()
    time.sleep(0.03)
    assert panel.poll() == []  # nothing until the button comes up (it could still become a long press)
    pin.drive_high()
    assert panel.poll() == [Press(OK)]
    assert panel.poll() == []
    panel.close()


def test_gpio_panel_long_press_while_held_through_gpiozero_hold(factory):
    panel = GpioPanel(PINS, long_press_s=0.1, debounce_s=0.01)
    pin = factory.pin(19)
    pin.drive_low()
    deadline = time.monotonic() + 2
    presses = []
    while not presses and time.monotonic() < deadline:
        time.sleep(0.02)
        presses = panel.poll()
    assert presses == [Press(BACK, long=True)]
    pin.drive_high()
    assert panel.poll() == []  # the release after a long press is not a short press too
    panel.close()


def test_gpio_panel_ignores_contact_bounce(factory):
    panel = GpioPanel(PINS, long_press_s=0.5, debounce_s=0.02)
    pin = factory.pin(6)
    for _ in range(3):  # chatter as the contacts close: microsecond pulses
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()  # one real press
    pin.drive_low()  # chatter as they open
    pin.drive_high()
    assert panel.poll() == [Press(NEXT)]
    panel.close()


def test_gpio_panel_with_pull_down_buttons(factory):
    panel = GpioPanel({OK: 17}, pull_up=False, debounce_s=0.0)
    pin = factory.pin(17)
    pin.drive_high()
    pin.drive_low()
    assert panel.poll() == [Press(OK)]
    panel.close()


def test_gpio_panel_releases_its_pins_on_close_and_on_a_failed_start(factory):
    GpioPanel(PINS).close()
    GpioPanel(PINS).close()  # the pins are free again
    with pytest.raises(ValueError, match="unknown buttons"):
        GpioPanel({"MENU": 7})
    from gpiozero import GPIOPinInUse

    with pytest.raises(GPIOPinInUse):
        GpioPanel({PREV: 5, NEXT: 5})
    GpioPanel(PINS).close()  # pin 5 was released when the panel above failed
