"""Button panels: four buttons (PREV, NEXT, OK, BACK), each with a short and a long press.

Every panel has a non-blocking poll() -> list[Press]:
    GpioPanel(pins)           push buttons on the Pi's GPIO through gpiozero
    KeyboardPanel()           arrows, Enter, Backspace/Escape on a desktop (pygame key events)
    TouchPanel(regions)       taps on screen areas (pygame mouse/touch events), an optional extra
    ScriptedPanel(script)     a fixed sequence, for tests and the demo
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

PREV, NEXT, OK, BACK = "PREV", "NEXT", "OK", "BACK"
BUTTONS = (PREV, NEXT, OK, BACK)

DEFAULT_LONG_PRESS_S = 0.8
DEFAULT_DEBOUNCE_S = 0.03


@dataclass(frozen=True)
class Press:
    button: str  # one of BUTTONS
    long: bool = False

    def __post_init__(self):
        if self.button not in BUTTONS:
            raise ValueError(f"unknown button {self.button!r}; the buttons are {', '.join(BUTTONS)}")

    @classmethod
    def parse(cls, text: str) -> Press:
        """'OK' or 'OK long' (any case), as scripts write them."""
        name, *rest = text.split()
        return cls(name.upper(), long=[word.lower() for word in rest] == ["long"])

    def __str__(self) -> str:
        return f"{self.button} long" if self.long else self.button


class HoldTimer:
    """Turns downs and ups of named buttons into presses: a long press as soon as a button has been down for
    `long_press_s` (so the player feels it while still holding), a short press on release otherwise; a
    contact shorter than `debounce_s` is bounce and counts for nothing."""

    def __init__(
        self,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        debounce_s: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.long_press_s, self.debounce_s, self._clock = long_press_s, debounce_s, clock
        self._down: dict[str, float] = {}  # button -> when it went down
        self._fired_long: set[str] = set()

    def down(self, button: str) -> None:
        self._down.setdefault(button, self._clock())

    def up(self, button: str) -> list[Press]:
        since = self._down.pop(button, None)
        fired = button in self._fired_long
        self._fired_long.discard(button)
        if since is None or fired or self._clock() - since < self.debounce_s:
            return []
        return [Press(button, long=self._clock() - since >= self.long_press_s)]

    def hold(self, button: str) -> list[Press]:
        """The button has been down long enough by the caller's clock (gpiozero's hold_time): a long press,
        once per press."""
        if button not in self._down or button in self._fired_long:
            return []
        self._fired_long.add(button)
        return [Press(button, long=True)]

    def held(self) -> list[Press]:
        """Long presses that became due since the last call, for buttons still down."""
        now = self._clock()
        due = [b for b, since in self._down.items() if now - since >= self.long_press_s]
        return [press for button in due for press in self.hold(button)]


class ScriptedPanel:
    """Plays presses from a script: entries are Press, 'OK' / 'OK long', or (seconds, press) to release a press
    only once that much time has passed since the panel was made. Untimed entries come one per poll()."""

    def __init__(self, script: Iterable, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._start = clock()
        self._steps = deque(_timed_step(entry) for entry in script)

    @property
    def done(self) -> bool:
        return not self._steps

    def poll(self) -> list[Press]:
        presses: list[Press] = []
        elapsed = self._clock() - self._start
        while self._steps:
            at, press = self._steps[0]
            if at is None:
                if not presses:
                    presses.append(self._steps.popleft()[1])
                break
            if at > elapsed:
                break
            presses.append(self._steps.popleft()[1])
        return presses

    def close(self) -> None:
        self._steps.clear()


def _timed_step(entry) -> tuple[float | None, Press]:
    at, press = entry if isinstance(entry, tuple) else (None, entry)
    return at, press if isinstance(press, Press) else Press.parse(press)


_READ_EVENTS: set[int] = set()  # the pygame events some panel reads: open_display queues only these and QUIT


def read_events() -> set[int]:
    return set(_READ_EVENTS)


class _PygameEventPanel:
    """Shared by the keyboard and touch panels: the app may hand every pygame event to handle(); if it does
    not, poll() takes the panel's own event types off pygame's queue itself (leaving QUIT and the rest)."""

    event_types: tuple[int, ...] = ()

    def __init__(self, long_press_s: float, clock: Callable[[], float], pump: bool):
        self._timer = HoldTimer(long_press_s, clock=clock)
        self._pending: list[Press] = []
        self._pump = pump

    def _take(self, event_types: tuple[int, ...]) -> None:
        """Read these events from now on (open_display queues only the events panels read, and QUIT)."""
        import pygame

        self.event_types = event_types
        _READ_EVENTS.update(event_types)
        if pygame.display.get_init():
            pygame.event.set_allowed(event_types)

    def handle(self, event) -> bool:
        """Feed one pygame event; True when it was one of this panel's."""
        return False

    def poll(self) -> list[Press]:
        if self._pump:
            import pygame

            if pygame.display.get_init():
                for event in pygame.event.get(self.event_types):
                    self.handle(event)
        presses, self._pending = self._pending + self._timer.held(), []
        return presses

    def close(self) -> None:
        self._pending.clear()


def default_key_map() -> dict[int, str]:
    import pygame

    return {
        pygame.K_LEFT: PREV,
        pygame.K_UP: PREV,
        pygame.K_RIGHT: NEXT,
        pygame.K_DOWN: NEXT,
        pygame.K_TAB: NEXT,
        pygame.K_RETURN: OK,
        pygame.K_KP_ENTER: OK,
        pygame.K_SPACE: OK,
        pygame.K_BACKSPACE: BACK,
        pygame.K_ESCAPE: BACK,
    }


class KeyboardPanel(_PygameEventPanel):
    """The buttons on a desktop keyboard: Left/Up = PREV, Right/Down/Tab = NEXT, Enter/Space = OK,
    Backspace/Escape = BACK. Holding a key for long_press_s, or Shift with the key, is a long press."""

    def __init__(
        self,
        key_map: Mapping[int, str] | None = None,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        clock: Callable[[], float] = time.monotonic,
        pump: bool = True,
    ):
        import pygame

        super().__init__(long_press_s, clock, pump)
        self._take((pygame.KEYDOWN, pygame.KEYUP))
        self._keys = dict(key_map or default_key_map())

    def handle(self, event) -> bool:
        import pygame

        button = self._keys.get(getattr(event, "key", None))
        if event.type not in self.event_types or button is None:
            return False
        if event.type == pygame.KEYDOWN and getattr(event, "mod", 0) & pygame.KMOD_SHIFT:
            self._pending.append(Press(button, long=True))
        elif event.type == pygame.KEYDOWN:
            if not getattr(event, "repeat", False):  # key repeat (pygame.key.set_repeat) is not a new press
                self._timer.down(button)
        else:
            self._pending += self._timer.up(button)
        return True


class TouchPanel(_PygameEventPanel):
    """Taps on screen regions {button: pygame.Rect}, e.g. four soft buttons along the bottom of the
    touchscreen. SDL turns touches into mouse button events, so this works with a mouse too."""

    def __init__(
        self,
        regions: Mapping[str, object],
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        clock: Callable[[], float] = time.monotonic,
        pump: bool = True,
    ):
        import pygame

        super().__init__(long_press_s, clock, pump)
        self._take((pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP))
        self._regions = {button: pygame.Rect(rect) for button, rect in regions.items()}
        self._touched: str | None = None

    def handle(self, event) -> bool:
        import pygame

        if event.type not in self.event_types or getattr(event, "button", 1) != 1:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN:
            self._touched = next((b for b, rect in self._regions.items() if rect.collidepoint(event.pos)), None)
            if self._touched:
                self._timer.down(self._touched)
        elif self._touched:
            self._pending += self._timer.up(self._touched)
            self._touched = None
        return True


class GpioPanel:
    """Push buttons between a GPIO pin and ground, read through gpiozero Button objects.

    pins: {button: pin} with any pin gpiozero accepts (17, "GPIO17", "BOARD11"). Buttons use the Pi's
    internal pull-up unless pull_up is False. pin_factory: None for gpiozero's default (lgpio on a Pi),
    or e.g. MockFactory() in tests. Raises gpiozero's errors when there is no GPIO: `dicetable doctor`
    explains those, and the table falls back to the keyboard.
    """

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        pull_up: bool = True,
        pin_factory=None,
    ):
        from gpiozero import Button

        unknown = set(pins) - set(BUTTONS)
        if unknown:
            raise ValueError(f"unknown buttons {sorted(unknown)}; the buttons are {', '.join(BUTTONS)}")
        self._lock = threading.Lock()  # gpiozero calls back from its own threads
        self._timer = HoldTimer(long_press_s, debounce_s)
        self._presses: list[Press] = []
        self.buttons = {}
        try:
            for name, pin in pins.items():
                # Debounced here (HoldTimer), not with gpiozero's bounce_time: some pin factories then drop
                # the release edge, and a button that never comes up would block the table.
                button = Button(pin, pull_up=pull_up, hold_time=long_press_s, pin_factory=pin_factory)
                button.when_pressed = lambda _=None, n=name: self._event(self._timer.down, n)
                button.when_released = lambda _=None, n=name: self._event(self._timer.up, n)
                button.when_held = lambda _=None, n=name: self._event(self._timer.hold, n)
                self.buttons[name] = button
        except Exception:
            self.close()
            raise

    def _event(self, action: Callable[[str], list[Press] | None], name: str) -> None:
        with self._lock:
            self._presses += action(name) or []

    def poll(self) -> list[Press]:
        with self._lock:
            presses, self._presses = self._presses, []
        return presses

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons = {}
