"""Frame sources: the reconnect mechanism, the OpenCV camera on a real video file, and replays."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from hardware.frame_source import ENDED, LOST, OK, CameraError, ReconnectingSource
from hardware.frames import OpenCVCamera, RecordingError, ReplaySource, load_recording


class Clock:
    """A clock the test moves by hand; sleep() advances it (so paced replays take no real time)."""

    def __init__(self, now=100.0):
        self.now = now
        self.slept = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def picture(n, size=(160, 120)):
    """A frame that differs from its neighbours: a square that moves with n, on a grey ground."""
    image = np.full((size[1], size[0], 3), 90, np.uint8)
    x = 10 + (n * 7) % (size[0] - 40)
    cv2.rectangle(image, (x, 30), (x + 30, 60), (40, 200, 240), -1)
    return image


# -- the reconnect mechanism, with a device the test controls ----------------------------------------


class FakeDevices:
    """open() fails while `plugged` is False; grab() fails once `unplug_after` frames were read."""

    def __init__(self, plugged=True, same_picture=False):
        self.plugged, self.same_picture = plugged, same_picture
        self.opened = self.closed = self.frames = 0

    def open(self):
        if not self.plugged:
            raise CameraError("no such camera")
        self.opened += 1
        return self

    def grab(self):
        if not self.plugged:
            raise CameraError("no frame from the camera")
        self.frames += 1
        image = picture(0 if self.same_picture else self.frames)
        return image, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

    def close(self):
        self.closed += 1


def test_a_lost_camera_reports_and_retries_with_growing_delays_then_recovers():
    clock, devices = Clock(), FakeDevices()
    attempts = []

    def open_device():
        attempts.append(clock.now)
        return devices.open()

    source = ReconnectingSource("camera X", open_device, first_retry_s=0.5, max_retry_s=2, clock=clock)
    assert source.read() is not None and source.status.state == OK

    devices.plugged = False
    lost_at = clock.now
    assert source.read() is None
    assert source.status.state == LOST
    assert source.status.message == "camera X lost, retrying in 0.5 s (no frame from the camera)"
    assert devices.closed == 1

    while clock.now < lost_at + 6:  # the table keeps calling read(); each failed reopen doubles the wait
        assert source.read() is None
        clock.now += 0.125
    retries = [round(t - lost_at, 3) for t in attempts[1:]]
    assert retries == [0.5, 1.5, 3.5, 5.5]  # waits of 0.5, 1, 2, then at most 2

    devices.plugged = True
    clock.now += 2
    frame = source.read()
    assert frame is not None and source.status.state == OK and source.status.message == ""
    assert frame.t == clock.now and frame.small.ndim == 2


def test_no_reopen_is_attempted_before_the_back_off_has_passed():
    clock, devices = Clock(), FakeDevices(plugged=False)
    source = ReconnectingSource("camera X", devices.open, first_retry_s=1, clock=clock)
    assert source.status.state == LOST  # the first open happens at construction, and fails quietly
    devices.plugged = True
    clock.now += 0.9
    assert source.read() is None and devices.opened == 0
    clock.now += 0.2
    assert source.read() is not None and devices.opened == 1


def test_a_picture_that_stops_changing_counts_as_a_lost_camera_not_a_live_one():
    clock, devices = Clock(), FakeDevices(same_picture=True)
    source = ReconnectingSource("camera X", devices.open, frozen_after_s=5, clock=clock)
    for _ in range(5):
        assert source.read() is not None
        clock.now += 1
    clock.now += 0.5
    assert source.read() is None
    assert source.status.state == LOST and "has not changed for 5 s" in source.status.message


def test_an_exception_of_any_kind_from_the_driver_is_a_state_not_a_crash():
    def broken():
        raise OSError(19, "No such device")

    source = ReconnectingSource("camera X", broken, clock=Clock())
    assert source.read() is None
    assert source.status.state == LOST and "No such device" in source.status.message


# -- the OpenCV camera on a video file written here ---------------------------------------------------


def write_video(path, frames=12, size=(160, 120)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, size)
    assert writer.isOpened(), "OpenCV cannot write MJPG here"
    for n in range(frames):
        writer.write(picture(n, size))
    writer.release()
    return path


def test_opencv_camera_reads_bgr_frames_and_a_small_grey_picture_from_a_video_file(tmp_path):
    video = write_video(tmp_path / "throw.avi")
    source = OpenCVCamera(str(video), size=None, small_size=(80, 60), fps=None, clock=Clock())
    frames = [source.read() for _ in range(12)]
    assert all(f is not None for f in frames) and source.status.ok
    assert frames[0].image.shape == (120, 160, 3) and frames[0].image.dtype == np.uint8
    assert frames[0].small.shape == (60, 80)
    # the square moved: the content really comes from the file, frame by frame
    assert not np.array_equal(frames[0].small, frames[1].small)
    # the orange square is orange: BGR order
    b, g, r = frames[0].image[45, 10 + 15]
    assert r > 200 and b < 100
    assert not source.can_lock_exposure  # a USB camera's exposure is not locked from here
    source.close()
    assert source.status.state == ENDED


def test_opencv_camera_whose_file_disappears_is_lost_and_comes_back_when_it_returns(tmp_path):
    video = write_video(tmp_path / "camera.avi", frames=4)
    clock = Clock()
    source = OpenCVCamera(str(video), size=None, fps=None, first_retry_s=1, clock=clock)
    assert [source.read() is not None for _ in range(4)] == [True] * 4
    away = video.rename(tmp_path / "unplugged.avi")  # the path disappears, as /dev/video0 does on unplugging

    assert source.read() is None  # end of what was open, and nothing to reopen
    assert source.status.state == LOST and "retrying" in source.status.message
    clock.now += 1
    assert source.read() is None
    assert "camera.avi does not exist (unplugged?)" in source.status.message

    away.rename(video)
    clock.now += 2
    frame = source.read()
    assert frame is not None and source.status.ok
    assert frame.image.shape == (120, 160, 3)


def test_opencv_camera_on_a_missing_device_says_so_and_does_not_raise(tmp_path):
    source = OpenCVCamera(str(tmp_path / "video9"), clock=Clock())
    assert source.read() is None
    assert source.status.state == LOST and "does not exist" in source.status.message


# -- replays --------------------------------------------------------------------------------------


def make_recording(folder, times=(0.0, 0.1, 0.25), calibration=True, extra=None):
    (folder / "frames").mkdir(parents=True)
    frames = []
    for n, t in enumerate(times):
        name = f"frames/{n + 1:06d}.jpg"
        cv2.imwrite(str(folder / name), picture(n))
        frames.append({"file": name, "t": t})
    labels = {
        "frames": frames,
        "images": [
            {
                "file": frames[-1]["file"],
                "width": 160,
                "height": 120,
                "dice": [{"kind": "d6", "value": 5, "box": [40.0, 30.0, 70.0, 60.0]}],
            }
        ],
        "calibration": "calibration.toml" if calibration else None,
        "attempts": [1, 1, 1],  # a key the reader does not know: ignored
        **(extra or {}),
    }
    (folder / "labels.json").write_text(json.dumps(labels))
    return folder


def test_load_recording_reads_frames_images_and_calibration(tmp_path):
    recording = load_recording(make_recording(tmp_path / "throw"))
    assert [t for _, t in recording.frames] == [0.0, 0.1, 0.25]
    assert recording.frames[0][0] == tmp_path / "throw" / "frames" / "000001.jpg"
    assert recording.images[0]["dice"][0]["value"] == 5
    assert recording.calibration == tmp_path / "throw" / "calibration.toml"


def test_replay_plays_at_the_recorded_pace(tmp_path):
    clock = Clock()
    source = ReplaySource(make_recording(tmp_path / "throw"), clock=clock, sleep=clock.sleep, small_size=(80, 60))
    start = clock.now
    frames = [source.read() for _ in range(3)]
    assert [f.t for f in frames] == [0.0, 0.1, 0.25]
    assert clock.now - start == pytest.approx(0.25)  # waited until each frame was due, like a camera
    assert frames[0].image.shape == (120, 160, 3) and frames[0].small.shape == (60, 80)
    assert source.read() is None and source.status.state == ENDED


@pytest.mark.parametrize("times", [(0.0, 0.1, 1e9, 1e9 + 0.1), (0.0, 0.1, 1e300, 1e300), (-1e300, 0.0, 0.1, 0.2)])
def test_replay_plays_a_pause_no_camera_makes_as_a_short_one(tmp_path, times):
    """A time labels.json has wrong: waiting it out would freeze the table for years (or overflow sleep())."""
    clock = Clock()
    source = ReplaySource(make_recording(tmp_path / "throw", times=times), clock=clock, sleep=clock.sleep)
    assert all(source.read() is not None for _ in times) and source.read() is None
    assert 0 < max(clock.slept) <= 10.0


def test_replay_as_fast_as_possible_never_waits(tmp_path):
    clock = Clock()
    source = ReplaySource(make_recording(tmp_path / "throw"), realtime=False, clock=clock, sleep=clock.sleep)
    assert sum(source.read() is not None for _ in range(5)) == 3
    assert clock.slept == []


def test_replay_loops_with_times_that_keep_growing(tmp_path):
    clock = Clock()
    source = ReplaySource(make_recording(tmp_path / "throw"), loop=True, realtime=False, clock=clock)
    times = [source.read().t for _ in range(7)]
    assert times == pytest.approx([0.0, 0.1, 0.25, 0.375, 0.475, 0.625, 0.75])  # period 0.25 + mean gap 0.125
    assert source.status.ok


def test_replay_skips_a_damaged_frame_and_says_so(tmp_path):
    folder = make_recording(tmp_path / "throw")
    (folder / "frames" / "000002.jpg").write_bytes(b"not a jpeg")
    source = ReplaySource(folder, realtime=False)
    assert source.read().t == 0.0
    assert source.read().t == 0.25
    assert "000002.jpg" in source.status.message


@pytest.mark.parametrize(
    "labels, expected",
    [
        (None, "no labels.json"),
        ("{not json", "cannot be read"),
        (json.dumps({"frames": [{"file": "a.jpg"}]}), '"frames" must be a list'),
        (json.dumps({"frames": []}), "no frames"),
    ],
)
def test_a_folder_that_is_not_a_recording_ends_with_the_reason(tmp_path, labels, expected):
    if labels is not None:
        (tmp_path / "labels.json").write_text(labels)
    with pytest.raises(RecordingError, match=expected):
        load_recording(tmp_path)
    source = ReplaySource(tmp_path)
    assert source.read() is None
    assert source.status.state == ENDED and expected in source.status.message


def test_importing_the_frame_sources_loads_neither_picamera2_nor_gpiozero():
    code = "import sys, hardware.frames, hardware.display; print('picamera2' in sys.modules, 'gpiozero' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
