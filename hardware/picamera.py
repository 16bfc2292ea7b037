"""The Raspberry Pi camera through picamera2 (imported only when a Pi camera is opened).

Two streams from the same sensor readout: `main` in RGB888 (which picamera2 delivers in BGR order, what
OpenCV expects) for reading the dice, and `lores` in YUV420 whose Y plane is the grey picture for rest
detection. Both come from one request (capture_arrays) so the rest decision and the picture read belong
to the same instant. Exposure and white balance are locked when the calibration profile gives them: an
auto exposure that drifts while a hand passes over the tray would change the colours the reader learned.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from hardware.frame_source import CameraError, ReconnectingSource

PICAMERA2_FIX = (
    "on Raspberry Pi OS run `sudo apt install python3-picamera2` and make the venv with --system-site-packages"
)
PICAMERA2_MISSING = f"picamera2 is not installed: {PICAMERA2_FIX}"


def locked_controls(
    exposure_us: int | None, analogue_gain: float | None, colour_gains: tuple[float, float] | None
) -> dict:
    """picamera2 controls that fix exposure and white balance; an empty dict leaves both automatic."""
    controls: dict = {}
    if exposure_us is not None:
        controls |= {"AeEnable": False, "ExposureTime": int(exposure_us), "AnalogueGain": float(analogue_gain or 1.0)}
    if colour_gains is not None:
        red, blue = colour_gains
        controls |= {"AwbEnable": False, "ColourGains": (float(red), float(blue))}
    return controls


def frame_duration_us(fps: float, exposure_us: int | None) -> int:
    """How long each frame takes: the asked rate, slowed down if need be so a locked exposure fits in a frame
    (picamera2's video configuration fixes 30 frames a second, which would cut any exposure over 33 ms short)."""
    return max(round(1_000_000 / fps), int(exposure_us or 0))


def listed_pi_cameras() -> list[dict]:
    """The Pi cameras libcamera lists, in Picamera2(n)'s order. It lists USB webcams too (picamera2 sorts them
    last; their Id has "/usb"): they are no Pi camera, and the table reads them through OpenCV instead."""
    from picamera2 import Picamera2

    return [camera for camera in Picamera2.global_camera_info() if "/usb" not in str(camera.get("Id", ""))]


class _PiCameraDevice:
    def __init__(self, number: int, size, small_size, fps: float, controls: dict, timeout_s: float):
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise CameraError(PICAMERA2_MISSING) from error
        # Picamera2(n) with no camera n fails halfway (an IndexError) and leaves what it opened behind,
        # once per retry; asking libcamera's list first opens nothing and says what is wrong.
        cameras = len(listed_pi_cameras())
        if cameras <= number:
            raise CameraError(
                f"no Pi camera {number}, libcamera lists {cameras}: check the ribbon cable and camera.picamera_number"
            )
        self._small_size = tuple(small_size)
        self._timeout_s = timeout_s
        self._camera = Picamera2(number)
        self.metadata: dict | None = None  # picamera2's report on the last frame (exposure, gains)
        frame_us = frame_duration_us(fps, controls.get("ExposureTime"))
        try:
            config = self._camera.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"},
                lores={"size": self._small_size, "format": "YUV420"},
                controls={"FrameDurationLimits": (frame_us, frame_us)},
            )
            self._camera.configure(config)
            if controls:
                self._camera.set_controls(controls)  # applied from the first frame on, as start() sends them
            self._camera.start()
        except Exception:
            try:
                self.close()
            except Exception:
                pass  # the configuration error is the one worth reporting
            raise

    def grab(self) -> tuple[np.ndarray, np.ndarray]:
        # A number for `wait` makes picamera2 raise TimeoutError instead of blocking on a dead camera.
        (image, lores), self.metadata = self._camera.capture_arrays(["main", "lores"], wait=self._timeout_s)
        width, height = self._small_size
        return image, lores[:height, :width]  # YUV420 array: Y rows first, then U and V

    def close(self) -> None:
        try:
            self._camera.stop()
        finally:
            self._camera.close()


def PiCamera(
    number: int = 0,
    *,
    size: tuple[int, int] = (1280, 720),
    small_size: tuple[int, int] = (320, 180),
    fps: float = 30.0,
    exposure_us: int | None = None,
    analogue_gain: float | None = None,
    colour_gains: tuple[float, float] | None = None,
    timeout_s: float = 2.0,
    first_retry_s: float = 0.5,
    max_retry_s: float = 10.0,
    frozen_after_s: float | None = 5.0,
    clock: Callable[[], float] = time.monotonic,
) -> ReconnectingSource:
    """A FrameSource on Pi camera `number` (0, or 1 for the second port of a Pi 5). Sizes are (width, height)
    and even; small_size may not exceed size; `fps` frames a second (fewer if a locked exposure is longer
    than a frame). exposure_us/analogue_gain and colour_gains (red, blue) come
    from the calibration profile; None leaves that one automatic (the calibration wizard measures them so)."""
    controls = locked_controls(exposure_us, analogue_gain, colour_gains)
    return ReconnectingSource(
        f"Pi camera {number}",
        lambda: _PiCameraDevice(number, size, small_size, fps, controls, timeout_s),
        first_retry_s=first_retry_s,
        max_retry_s=max_retry_s,
        frozen_after_s=frozen_after_s,
        clock=clock,
        can_lock_exposure=True,
    )
