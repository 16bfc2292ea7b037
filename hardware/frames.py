"""Frame sources behind one interface: read() -> Frame | None, status, close().

    PiCamera(number, size=..., small_size=..., exposure_us=..., analogue_gain=..., colour_gains=...)
    OpenCVCamera(device, size=..., small_size=..., fps=...)
    ReplaySource(folder, realtime=True, loop=False)

A camera that fails is never an exception: read() returns None and `status` says "lost-retrying" with a
message for the screen, while the source reconnects with back-off.
"""

from hardware.frame_source import ENDED, LOST, OK, CameraError, Frame, FrameSource, SourceStatus
from hardware.opencv_camera import OpenCVCamera
from hardware.picamera import PiCamera
from hardware.replay import Recording, RecordingError, ReplaySource, load_recording

__all__ = [
    "OK",
    "LOST",
    "ENDED",
    "CameraError",
    "Frame",
    "FrameSource",
    "SourceStatus",
    "OpenCVCamera",
    "PiCamera",
    "ReplaySource",
    "Recording",
    "RecordingError",
    "load_recording",
]
