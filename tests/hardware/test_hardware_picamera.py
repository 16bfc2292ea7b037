"""The Pi camera against a stand-in picamera2 module that holds the code to picamera2's documented API.

The stand-in keeps picamera2's real signatures (Picamera2(camera_num=0, ...), create_video_configuration(main={},
lores=None, ...), configure, set_controls, start(config=None, show_preview=False), capture_array(s)(..., wait=None,
signal_function=None), stop, close), so a misspelt method or keyword fails with TypeError/AttributeError here,
and it checks what picamera2's check_camera_config checks: stream dicts with a known format, sizes as tuples of
even numbers, lores YUV and not larger than main; plus the order configure -> start -> capture.
"""

import sys
import types

import numpy as np
import pytest

from hardware.frame_source import LOST, OK
from hardware.picamera import PiCamera, locked_controls

RGB_FORMATS = {"XBGR8888", "XRGB8888", "RGB888", "BGR888"}
YUV_FORMATS = {"YUV420", "YVU420", "NV12", "NV21", "YUYV", "UYVY"}
CONTROL_TYPES = {
    "AeEnable": bool,
    "ExposureTime": int,
    "AnalogueGain": float,
    "AwbEnable": bool,
    "ColourGains": tuple,
    "FrameDurationLimits": tuple,
}


def check_stream(stream, name):
    assert type(stream) is dict, f"{name} stream should be a dictionary"
    assert stream["format"] in RGB_FORMATS | YUV_FORMATS, f"bad format {stream['format']} in {name}"
    size = stream["size"]
    assert type(size) is tuple and len(size) == 2, f"size in {name} stream should be (width, height)"
    assert size[0] % 2 == 0 and size[1] % 2 == 0, "width and height should be even"


def check_controls(controls):
    for name, value in controls.items():
        assert name in CONTROL_TYPES, f"unknown control {name}"
        assert type(value) is CONTROL_TYPES[name], f"{name} should be {CONTROL_TYPES[name].__name__}"
    if "FrameDurationLimits" in controls:
        assert all(type(us) is int for us in controls["FrameDurationLimits"]), "frame durations are whole µs"


class World:
    """The camera hardware the stand-in pretends to have; tests unplug and replug it."""

    def __init__(self):
        self.plugged = True
        self.sensors = 2  # cameras on the ports (a Pi 5 has two), while plugged
        self.webcams = 0  # USB webcams, which libcamera lists too (picamera2 sorts them last)
        self.cameras = []  # every Picamera2 made
        self.frame_number = 0


def standin_module(world: World) -> types.ModuleType:
    class Picamera2:
        @staticmethod
        def global_camera_info():
            sensor = {"Model": "imx708", "Location": 2, "Rotation": 180, "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a"}
            webcam = {
                "Model": "HD Pro Webcam C920",
                "Location": 2,
                "Rotation": 0,
                "Id": "/base/axi/pcie@120000/rp1/usb@200000-1:1.0-046d:082d",
            }
            cameras = [sensor] * world.sensors if world.plugged else []
            return [{**c, "Num": i} for i, c in enumerate(cameras + [webcam] * world.webcams)]

        def __init__(self, camera_num=0, verbose_console=None, tuning=None):
            if not world.plugged:
                raise RuntimeError("Camera __init__ sequence did not complete.")
            Picamera2.global_camera_info()[camera_num]  # as picamera2 does: IndexError for a camera not there
            self.camera_num = camera_num
            self.calls = []
            self.config = None
            self.started = self.closed = False
            world.cameras.append(self)

        def create_video_configuration(
            self,
            main={},
            lores=None,
            raw={},
            transform=None,
            colour_space=None,
            buffer_count=6,
            controls={},
            display="main",
            encode="main",
            queue=True,
            sensor={},
            use_case="video",
        ):
            self.calls.append(("create_video_configuration", main, lores, controls))
            check_stream(main, "main")
            check_controls(controls)
            if lores is not None:
                check_stream(lores, "lores")
                assert lores["format"] in YUV_FORMATS, "lores stream must be YUV"
                assert lores["size"][0] <= main["size"][0] and lores["size"][1] <= main["size"][1], (
                    "lores stream dimensions may not exceed main stream"
                )
            return {
                "use_case": "video",
                "main": dict(main),
                "lores": dict(lores) if lores else None,
                "raw": raw,
                "controls": dict(controls),
                "buffer_count": buffer_count,
            }

        def configure(self, camera_config=None):
            assert not self.started, "Camera must be stopped before configuring"
            assert isinstance(camera_config, dict) and camera_config["use_case"] == "video"
            self.calls.append(("configure",))
            self.config = camera_config

        def set_controls(self, controls):
            check_controls(controls)
            self.calls.append(("set_controls", dict(controls)))

        def start(self, config=None, show_preview=False):
            assert self.config is not None, "Camera has not been configured"
            self.calls.append(("start",))
            self.started = True

        def _array(self, name):
            assert self.started, "capture before start"
            if not world.plugged:
                raise TimeoutError("camera timed out")
            stream = self.config[name]
            w, h = stream["size"]
            if stream["format"] == "YUV420":  # Y plane, then U and V: (h * 3 / 2, w)
                array = np.full((h * 3 // 2, w), 128, np.uint8)
                array[:h, :w] = (np.arange(w, dtype=np.uint16)[None, :] + world.frame_number) % 200
                return array
            array = np.zeros((h, w, 3), np.uint8)
            array[..., 0] = 200  # RGB888 arrives in B, G, R order: strong blue
            return array

        def capture_array(self, name="main", wait=None, signal_function=None):
            self.calls.append(("capture_array", name, wait))
            return self._array(name)

        def capture_arrays(self, names=["main"], wait=None, signal_function=None):
            self.calls.append(("capture_arrays", list(names), wait))
            world.frame_number += 1
            return [self._array(name) for name in names], {"SensorTimestamp": world.frame_number}

        def stop(self):
            self.calls.append(("stop",))
            self.started = False

        def close(self):
            self.calls.append(("close",))
            self.closed = True

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2
    return module


@pytest.fixture
def world(monkeypatch):
    world = World()
    monkeypatch.setitem(sys.modules, "picamera2", standin_module(world))
    return world


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_pi_camera_configures_two_streams_locks_exposure_and_white_balance_then_reads(world):
    source = PiCamera(
        1,
        size=(1280, 720),
        small_size=(320, 180),
        exposure_us=12000,
        analogue_gain=2.0,
        colour_gains=(1.9, 1.6),
        timeout_s=2.0,
        clock=Clock(),
    )
    frame = source.read()
    camera = world.cameras[0]
    assert camera.camera_num == 1
    assert camera.calls[:4] == [
        (
            "create_video_configuration",
            {"size": (1280, 720), "format": "RGB888"},
            {"size": (320, 180), "format": "YUV420"},
            {"FrameDurationLimits": (33333, 33333)},
        ),  # 30 frames a second, the default
        ("configure",),
        (
            "set_controls",
            {
                "AeEnable": False,
                "ExposureTime": 12000,
                "AnalogueGain": 2.0,
                "AwbEnable": False,
                "ColourGains": (1.9, 1.6),
            },
        ),
        ("start",),
    ]
    assert camera.calls[4] == ("capture_arrays", ["main", "lores"], 2.0)  # one request: both from the same instant
    assert source.status.state == OK
    assert frame.image.shape == (720, 1280, 3) and frame.image[0, 0, 0] == 200
    assert frame.small.shape == (180, 320)  # the Y plane only, not the U and V rows below it
    assert frame.small[0, 5] == (5 + 1) % 200
    assert frame.metadata == {"SensorTimestamp": 1}  # the camera's report, for the wizard's exposure lock
    assert source.can_lock_exposure  # the wizard may open it again with the exposure it measured locked


def test_the_frame_rate_is_asked_for_and_slowed_only_for_a_locked_exposure_longer_than_a_frame(world):
    for fps, exposure_us, frame_us in ((15, None, 66667), (30, 20000, 33333), (30, 100000, 100000)):
        PiCamera(fps=fps, exposure_us=exposure_us, analogue_gain=1.0, clock=Clock()).read()
        configuration = world.cameras[-1].calls[0]
        assert configuration[3] == {"FrameDurationLimits": (frame_us, frame_us)}


def test_a_pi_camera_number_libcamera_does_not_list_is_named_and_nothing_is_opened(world):
    world.sensors = 1
    source = PiCamera(1, clock=Clock())
    assert source.read() is None
    assert source.status.state == LOST and "no Pi camera 1, libcamera lists 1" in source.status.message
    assert world.cameras == []  # no half-opened Picamera2 left behind at each retry


def test_a_usb_webcam_that_libcamera_lists_is_no_pi_camera(world, monkeypatch):
    world.sensors, world.webcams = 0, 1
    source = PiCamera(0, clock=Clock())
    assert source.read() is None and "no Pi camera 0, libcamera lists 0" in source.status.message
    assert world.cameras == []  # the webcam was not opened as a Pi camera (its one stream has no lores)
    from hardware import probe

    monkeypatch.setattr(probe.importlib.util, "find_spec", lambda name: object())  # picamera2 "installed"
    pi_camera = next(f for f in probe.probe_cameras(0) if f.part == "Pi camera")
    assert not pi_camera.ok and "no Pi camera 0" in pi_camera.found


def test_without_calibration_values_exposure_and_white_balance_stay_automatic(world):
    PiCamera(clock=Clock()).read()
    assert not [c for c in world.cameras[0].calls if c[0] == "set_controls"]
    assert locked_controls(8000, None, None) == {"AeEnable": False, "ExposureTime": 8000, "AnalogueGain": 1.0}


def test_an_unplugged_pi_camera_is_lost_then_reopened_after_the_back_off(world):
    clock = Clock()
    source = PiCamera(clock=clock, first_retry_s=1)
    assert source.read() is not None

    world.plugged = False
    assert source.read() is None
    assert source.status.state == LOST and "camera timed out" in source.status.message
    assert world.cameras[0].calls[-2:] == [("stop",), ("close",)]  # the dead camera is released
    clock.now += 1
    assert source.read() is None and "no Pi camera 0, libcamera lists 0" in source.status.message

    world.plugged = True
    clock.now += 2
    assert source.read() is not None and source.status.state == OK
    assert len(world.cameras) == 2 and world.cameras[1].calls[2] == ("start",)  # no locked controls here


def test_a_configuration_picamera2_rejects_is_a_lost_camera_and_the_camera_is_closed(world):
    source = PiCamera(size=(1280, 720), small_size=(1920, 1080), clock=Clock())  # lores larger than main
    assert source.read() is None
    assert source.status.state == LOST and "may not exceed main" in source.status.message
    assert world.cameras[0].closed


def test_without_picamera2_the_status_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 now raises ImportError
    source = PiCamera(clock=Clock())
    assert source.read() is None
    assert source.status.state == LOST and "sudo apt install python3-picamera2" in source.status.message
