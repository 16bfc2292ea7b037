"""Any camera OpenCV can open: a USB webcam by index (0) or device path (/dev/video0), or a video file."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import cv2
import numpy as np

from hardware.frame_source import CameraError, ReconnectingSource, small_grey


class _OpenCVDevice:
    def __init__(self, device: int | str, size: tuple[int, int] | None, small_size: tuple[int, int], fps: float | None):
        missing = _missing_path(device)
        if missing:
            raise CameraError(f"{missing} does not exist (unplugged?)")
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"OpenCV cannot open {device!r}")
        # Requests only: a camera that cannot do the size or rate delivers what it can.
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if fps is not None:
            self._capture.set(cv2.CAP_PROP_FPS, fps)
        self._small_size = small_size

    def grab(self) -> tuple[np.ndarray, np.ndarray]:
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraError("no frame from the camera")
        if image.ndim == 2:  # some cameras deliver grey; the rest of the table expects BGR
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        return image, small_grey(image, self._small_size)

    def close(self) -> None:
        self._capture.release()


def _missing_path(device: int | str) -> str | None:
    """The device file or video file that is not there, so the message can say so plainly."""
    if isinstance(device, int):
        path = f"/dev/video{device}"  # how Linux names camera N; elsewhere let OpenCV find it
        return path if sys.platform.startswith("linux") and not os.path.exists(path) else None
    if "://" in device:  # a stream URL: let OpenCV try
        return None
    return device if not os.path.exists(device) else None


def OpenCVCamera(
    device: int | str = 0,
    *,
    size: tuple[int, int] | None = (1280, 720),
    small_size: tuple[int, int] = (320, 180),
    fps: float | None = 30,
    first_retry_s: float = 0.5,
    max_retry_s: float = 10.0,
    frozen_after_s: float | None = 5.0,
    clock: Callable[[], float] = time.monotonic,
) -> ReconnectingSource:
    """A FrameSource reading `device` through cv2.VideoCapture. A video file plays like a camera that is
    lost at its end and reopened from the start."""
    name = f"camera {device}" if isinstance(device, int) else f"camera {os.path.basename(device) or device}"
    return ReconnectingSource(
        name,
        lambda: _OpenCVDevice(device, size, small_size, fps),
        first_retry_s=first_retry_s,
        max_retry_s=max_retry_s,
        frozen_after_s=frozen_after_s,
        clock=clock,
    )
