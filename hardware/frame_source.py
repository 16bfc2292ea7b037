"""What every frame source shares: the Frame, the status the table shows, and reconnection with back-off.

A live camera is a `ReconnectingSource` around a small device (open it, grab a frame, close it). When a
grab fails, times out or keeps returning the very same picture, the source closes the device, reports
"lost-retrying" with a message, returns None from read() and reopens it later with growing delays, so the
table never crashes and never shows a frozen picture as if it were live.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from appliance.base.errors import DiceTableError

OK = "ok"
LOST = "lost-retrying"
ENDED = "ended"  # a replay that finished, or a recording that cannot be played: nothing more will come


@dataclass(frozen=True)
class Frame:
    image: np.ndarray  # BGR, full resolution, for reading the dice
    small: np.ndarray  # grey uint8 (h, w), low resolution, for rest detection
    t: float  # seconds; only differences matter (monotonic clock for cameras, recorded time for replays)
    metadata: dict | None = None  # what the camera reports of this frame (picamera2: ExposureTime, ColourGains...)


@dataclass(frozen=True)
class SourceStatus:
    state: str  # OK, LOST or ENDED
    message: str = ""  # for the screen: "camera lost, retrying in 2 s (no frame from /dev/video0)"
    unread: int = 0  # frames just before this one that could not be read (a replay's missing files)

    @property
    def ok(self) -> bool:
        return self.state == OK


class FrameSource(Protocol):
    status: SourceStatus

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


class Device(Protocol):
    """One opened camera. grab() raises on any failure; the source decides what happens next."""

    def grab(self) -> tuple[np.ndarray, np.ndarray]: ...  # (BGR image, grey small)

    # A device may also keep `metadata`: the camera's report on the frame it grabbed last.

    def close(self) -> None: ...


class CameraError(DiceTableError, RuntimeError):
    """A camera that cannot be opened or read; the message says which and why."""


def small_grey(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The low-resolution grey picture rest detection compares from frame to frame."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if (grey.shape[1], grey.shape[0]) == tuple(size):
        return grey
    return cv2.resize(grey, tuple(size), interpolation=cv2.INTER_AREA)


class ReconnectingSource:
    """A live camera that survives being unplugged: see the module docstring.

    open_device() returns a Device or raises; `name` goes into the messages ("USB camera 0").
    Retry delays double from `first_retry_s` up to `max_retry_s`. `frozen_after_s` is how long byte-identical
    small pictures may repeat before the camera counts as frozen (None: never; a live sensor always has noise).
    `can_lock_exposure`: the camera can be opened again with the calibration's exposure locked (the Pi camera).
    """

    def __init__(
        self,
        name: str,
        open_device: Callable[[], Device],
        *,
        first_retry_s: float = 0.5,
        max_retry_s: float = 10.0,
        frozen_after_s: float | None = 5.0,
        clock: Callable[[], float] = time.monotonic,
        can_lock_exposure: bool = False,
    ):
        self.name = name
        self.can_lock_exposure = can_lock_exposure
        self._open_device = open_device
        self._first_retry_s = first_retry_s
        self._max_retry_s = max_retry_s
        self._frozen_after_s = frozen_after_s
        self._clock = clock
        self._device: Device | None = None
        self._failures = 0
        self._next_attempt = clock()
        self._last_small: np.ndarray | None = None
        self._last_change = clock()
        self.status = SourceStatus(OK, f"{name}: opening")
        self._try_open()

    def read(self) -> Frame | None:
        if self._device is None and not self._try_open():
            return None
        try:
            image, small = self._device.grab()
        except Exception as error:  # any driver failure is a lost camera, never a crash
            self._lose(describe(error))
            return None
        now = self._clock()
        if self._is_frozen(small, now):
            self._lose(f"the picture has not changed for {self._frozen_after_s:g} s")
            return None
        self._failures = 0
        self.status = SourceStatus(OK)
        return Frame(image, small, now, getattr(self._device, "metadata", None))

    def close(self) -> None:
        self._close_device()
        self.status = SourceStatus(ENDED, f"{self.name}: closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _try_open(self) -> bool:
        if self._clock() < self._next_attempt:
            return False
        try:
            self._device = self._open_device()
        except Exception as error:
            self._lose(describe(error))
            return False
        self._last_small, self._last_change = None, self._clock()
        return True

    def _lose(self, reason: str) -> None:
        self._close_device()
        delay = min(self._max_retry_s, self._first_retry_s * 2**self._failures)
        self._failures += 1
        self._next_attempt = self._clock() + delay
        self.status = SourceStatus(LOST, f"{self.name} lost, retrying in {delay:g} s ({reason})")

    def _is_frozen(self, small: np.ndarray, now: float) -> bool:
        if self._frozen_after_s is None:
            return False
        if self._last_small is None or not np.array_equal(small, self._last_small):
            self._last_small, self._last_change = small, now
            return False
        return now - self._last_change > self._frozen_after_s

    def _close_device(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            try:
                device.close()
            except Exception:  # closing a camera that already went away may fail too; it is gone either way
                pass


def describe(error: BaseException) -> str:
    text = str(error).strip()
    return text if text else type(error).__name__
