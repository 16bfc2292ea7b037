"""The replay of a recorded throw: a folder with labels.json, the frames it lists, and a calibration profile.

labels.json: {"frames": [{"file": "frames/000001.jpg", "t": 0.0}, ...],
              "images": [labeled at-rest frames, format of shared/datasets/README.md],
              "calibration": "calibration.toml"}
Keys it does not know are ignored, as the dataset format asks.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from appliance.base.errors import DiceTableError
from appliance.base.images import read_picture
from hardware.frame_source import ENDED, LOST, OK, Frame, SourceStatus, small_grey

DEFAULT_GAP_S = 1 / 30  # between the last frame and the first of the next loop, when there is only one frame
# A longer wait between two recorded frames is played this long: a time labels.json has wrong (t = 1e9) must
# not freeze the table for years or overflow sleep(). Frame.t keeps the recorded times.
MAX_PAUSE_S = 10.0


class RecordingError(DiceTableError, ValueError):
    """A folder that is not a usable recording; the message names the folder and what is wrong."""


@dataclass(frozen=True)
class Recording:
    folder: Path
    frames: tuple[tuple[Path, float], ...]  # (image file, seconds), in time order
    images: tuple[dict, ...]  # labeled at-rest frames, as stored
    calibration: Path | None
    labels: dict = field(repr=False)  # the whole labels.json, for the keys read above this layer (a game, presses)

    @property
    def period_s(self) -> float:
        """How long one pass takes, including the usual gap before the next frame."""
        first, last = self.frames[0][1], self.frames[-1][1]
        gap = (last - first) / (len(self.frames) - 1) if len(self.frames) > 1 else DEFAULT_GAP_S
        return last - first + gap

    def missing_frames(self) -> list[Path]:
        """The listed frame files that are not there, in time order."""
        return [path for path, _ in self.frames if not path.is_file()]


def load_recording(folder: str | Path, labels: dict | None = None) -> Recording:
    """The recording in `folder`; `labels`: its labels.json, when the caller has read it already."""
    folder = Path(folder)
    labels_path = folder / "labels.json"
    try:
        labels = json.loads(labels_path.read_text(encoding="utf-8")) if labels is None else labels
    except FileNotFoundError:
        raise RecordingError(f"{folder}: no labels.json, so this is not a recorded throw") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RecordingError(f"{labels_path}: cannot be read ({error})") from None
    except RecursionError:
        raise RecordingError(f"{labels_path}: cannot be read (JSON nested too deeply)") from None
    try:
        frames = sorted(((folder / entry["file"], float(entry["t"])) for entry in labels["frames"]), key=lambda f: f[1])
        if not all(math.isfinite(t) for _, t in frames):
            raise ValueError("a time that is no number of seconds")
    except (KeyError, TypeError, ValueError) as error:
        raise RecordingError(
            f'{labels_path}: "frames" must be a list of {{"file": ..., "t": seconds}} ({error!r})'
        ) from None
    if not frames:
        raise RecordingError(f"{labels_path}: the recording has no frames")
    calibration, images = labels.get("calibration"), labels.get("images", [])
    if not isinstance(calibration, (str, type(None))):
        raise RecordingError(f'{labels_path}: "calibration" must name the profile file, such as "calibration.toml"')
    if not (isinstance(images, list) and all(isinstance(image, dict) for image in images)):
        raise RecordingError(f'{labels_path}: "images" must be a list of labeled frames (docs/RECORDINGS.md)')
    return Recording(
        folder=folder,
        frames=tuple(frames),
        images=tuple(images),
        calibration=folder / calibration if calibration else None,
        labels=labels,
    )


class ReplaySource:
    """Plays a recording as a FrameSource: at the recorded pace (read() waits until the frame is due, as a
    camera would) or as fast as possible, once or in a loop. Frame.t keeps growing across loops.
    It plays a loaded Recording, or the recording in a folder: a folder that is not a recording gives
    status "ended" with the reason, never an exception."""

    def __init__(
        self,
        recording: Recording | str | Path,
        *,
        realtime: bool = True,
        loop: bool = False,
        small_size: tuple[int, int] = (320, 180),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self._realtime, self._loop, self._small_size = realtime, loop, small_size
        self._clock, self._sleep = clock, sleep
        self._index = 0
        self._start: float | None = None
        self.unreadable: set[str] = set()  # frames skipped because they are no image (missing or damaged)
        try:
            self.recording: Recording | None = (
                recording if isinstance(recording, Recording) else load_recording(recording)
            )
            self.status = SourceStatus(OK)
        except RecordingError as error:
            self.recording = None
            self.status = SourceStatus(ENDED, f"cannot replay: {error}")

    def read(self) -> Frame | None:
        if self.recording is None or self.status.state == ENDED:
            return None
        frames = self.recording.frames
        unread: list[str] = []
        for _ in frames:  # skip unreadable frames, but give up for this call after one pass of them
            loops, position = divmod(self._index, len(frames))
            if loops and not self._loop:
                self.status = SourceStatus(ENDED, "end of the recording")
                return None
            self._index += 1
            path, recorded_t = frames[position]
            # a missing file is not handed to OpenCV, which would print a warning for each one
            image = read_picture(path) if path.is_file() else None
            if image is None:  # skipped at once, not waited for: the buttons, the screen and the watchdog go on
                unread.append(path.name)
                self.unreadable.add(path.name)
                continue
            self._wait_until_due(recorded_t + loops * self.recording.period_s)
            more = f" and {len(unread) - 1} more" if len(unread) > 1 else ""
            self.status = SourceStatus(OK, f"skipped unreadable frame {unread[0]}{more}" if unread else "", len(unread))
            return Frame(image, small_grey(image, self._small_size), recorded_t + loops * self.recording.period_s)
        self.status = SourceStatus(
            LOST,
            f"none of the {len(frames)} frames of the recording {self.recording.folder} "
            "can be read (moved or deleted?)",
            len(unread),
        )
        return None

    def close(self) -> None:
        self.status = SourceStatus(ENDED, "replay closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _wait_until_due(self, t: float) -> None:
        if not self._realtime:
            return
        first_t = self.recording.frames[0][1]
        if self._start is None:
            self._start = self._clock()
        delay = self._start + (t - first_t) - self._clock()
        if delay > MAX_PAUSE_S:  # the frames after it move up as much
            self._start -= delay - MAX_PAUSE_S
            delay = MAX_PAUSE_S
        if delay > 0:
            self._sleep(delay)
