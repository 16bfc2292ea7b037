"""`dicetable doctor` on this machine and on pretend ones: every missing part is named with its fix; exit 1 when
the table cannot run without one of them."""

import json

import pytest

from appliance.cli import build_parser
from appliance.commands import doctor
from hardware import probe


def run_doctor(capsys, *argv):
    args = build_parser().parse_args(["doctor", *argv])
    code = args.run(args)
    return code, capsys.readouterr().out


@pytest.fixture
def bare_machine(monkeypatch, tmp_path):
    """No Pi, no camera, no GPIO, no screen, no settings file, no calibration: this container."""
    monkeypatch.setattr(probe, "pi_model", lambda: None)
    monkeypatch.setattr(probe.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(probe, "drm_devices", lambda: [])
    monkeypatch.setattr(probe, "_importable", lambda name: False)
    monkeypatch.setattr(probe.importlib.util, "find_spec", lambda name: None)
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "GPIOZERO_PIN_FACTORY", "DICETABLE_SETTINGS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_doctor_on_a_bare_machine_says_what_is_missing_and_how_to_fix_it(capsys, bare_machine):
    code, out = run_doctor(capsys)
    assert code == 1  # no camera, no calibration, no screen: the table cannot run
    assert "not a Raspberry Pi" in out
    assert "camera      MISSING" in out and "no /dev/video* devices" in out and "plug in a USB camera" in out
    assert "buttons     MISSING" in out and "no GPIO on this machine: the keyboard works instead" in out
    assert "display     MISSING" in out and "connect a screen" in out
    assert "calibration MISSING" in out and "dicetable calibrate" in out
    assert "settings    ok" in out
    assert "summary: 1 of 5 ready (settings); missing: camera, buttons, display, calibration" in out
    # the keyboard stands in for the buttons off a Pi: not needed
    assert out.strip().endswith("the table cannot run without: camera, display, calibration (exit status 1)")


def test_doctor_json_holds_the_same_facts(capsys, bare_machine):
    code, out = run_doctor(capsys, "--json")
    report = json.loads(out)
    assert code == 1 and report["needed_missing"] == ["camera", "display", "calibration"]
    assert report["missing"] == ["camera", "buttons", "display", "calibration"] and report["ready"] == ["settings"]
    camera = next(p for p in report["parts"] if p["part"] == "camera")
    assert [f["part"] for f in camera["findings"]] == ["Pi camera", "USB camera"]
    assert all(f["fix"] for f in camera["findings"])


def a_profile(path):
    """A real profile of a drawn tray, as the wizard saves it."""
    import numpy as np

    from calibration.profile import Profile, save_profile

    tray = np.array([[100, 80], [1180, 80], [1180, 640], [100, 640]], np.float32)
    return save_profile(Profile((1280, 720), tray, 48.0, np.full((720, 1280, 3), 90, np.uint8)), path)


def test_doctor_reports_settings_warnings_and_a_found_calibration(capsys, bare_machine):
    profile = a_profile(bare_machine / "tray.toml")
    settings = bare_machine / "settings.toml"
    settings.write_text(f'[camera]\nfps = 0\n[calibration]\nprofile = "{profile}"\n')
    code, out = run_doctor(capsys, "--settings", str(settings))
    assert code == 1  # no camera
    assert "settings    MISSING" in out and "camera.fps = 0 is not allowed" in out
    assert "calibration ok" in out and str(profile) in out

    settings.write_text(f'[camera]\nsize = [1920, 1080]\n[calibration]\nprofile = "{profile}"\n')
    code, out = run_doctor(capsys, "--settings", str(settings))
    assert (
        "calibration MISSING" in out
        and f"profile {profile}: the tray was calibrated on 1280x720 pictures but "
        "the camera's are 1920x1080: set camera.size = [1280, 720]"
        in out
    )


def pretend_pi(monkeypatch, tmp_path, wheel_pygame=False):
    """A pretend Pi: the probes see camera, GPIO and a DRM screen; only readiness is asserted, not real access."""
    monkeypatch.setattr(probe, "pygame_brings_its_own_sdl", lambda: wheel_pygame)
    monkeypatch.setattr(probe, "pi_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    monkeypatch.setattr(
        probe.glob, "glob", lambda p: {"/dev/video*": ["/dev/video0"], "/dev/gpiochip*": ["/dev/gpiochip0"]}.get(p, [])
    )
    monkeypatch.setattr(probe, "_driver", lambda device: "uvcvideo")
    monkeypatch.setattr(probe, "drm_devices", lambda: ["/dev/dri/card1"])
    monkeypatch.setattr(probe.os, "access", lambda path, mode: True)
    monkeypatch.setattr(probe, "_importable", lambda name: name == "lgpio")
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "DICETABLE_SETTINGS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".config/dicetable").mkdir(parents=True)
    a_profile(tmp_path / ".config/dicetable/calibration.toml")
    return doctor.examine()


def test_doctor_finds_a_pi_with_everything(monkeypatch, tmp_path):
    report = pretend_pi(monkeypatch, tmp_path)
    assert report["missing"] == [] == report["needed_missing"]  # camera.source "auto": /dev/video0 is enough
    assert report["machine"] == "Raspberry Pi 5 Model B Rev 1.0"
    display = next(p for p in report["parts"] if p["part"] == "display")
    assert "auto -> kiosk" in display["findings"][0]["found"]


def test_doctor_says_when_pygame_cannot_show_a_kiosk(monkeypatch, tmp_path):
    report = pretend_pi(monkeypatch, tmp_path, wheel_pygame=True)  # pip's wheel: its SDL has no KMSDRM
    assert report["missing"] == ["display"] == report["needed_missing"]
    display = next(p for p in report["parts"] if p["part"] == "display")
    assert "sudo apt install python3-pygame" in display["findings"][0]["fix"]


def test_doctor_on_this_very_machine_runs(capsys):
    code, out = run_doctor(capsys)
    assert "summary:" in out and code == (1 if "the table cannot run without" in out else 0)


def test_doctor_says_what_is_wrong_with_a_damaged_profile(capsys, bare_machine):
    profile = bare_machine / "tray.toml"
    profile.write_text("[tray]\ncorners = [[0, 0], [10, 0], [10, 10], [0, 10]]\n")  # TOML, but no profile
    settings = bare_machine / "settings.toml"
    settings.write_text(f'[calibration]\nprofile = "{profile}"\n')
    code, out = run_doctor(capsys, "--settings", str(settings))
    assert code == 1 and "calibration MISSING" in out and str(profile) in out and "dicetable calibrate" in out


def test_a_pi_cameras_own_video_device_is_not_taken_for_a_usb_camera(monkeypatch, tmp_path):
    """On a Pi, /dev/video0 is the Pi camera's capture node (unicam, rp1-cfe): opened through OpenCV it gives
    no picture. Nor does a Pi play recorded throws when it finds no camera (they would be scored into a real
    game): it keeps trying its Pi camera, and the journal and the screen say what is missing."""
    import sys

    from appliance import assemble
    from appliance.settings import load_settings
    from hardware.frame_source import LOST

    devices = {"/dev/video0": "unicam", "/dev/video10": "bcm2835-codec", "/dev/video2": "uvcvideo"}
    monkeypatch.setattr(probe, "pi_model", lambda: "Raspberry Pi 4 Model B Rev 1.5")
    monkeypatch.setattr(probe.glob, "glob", lambda p: list(devices) if p == "/dev/video*" else [])
    monkeypatch.setattr(probe, "_driver", devices.get)
    monkeypatch.setattr(probe.importlib.util, "find_spec", lambda name: None)  # no picamera2
    monkeypatch.setitem(sys.modules, "picamera2", None)
    usb = next(f for f in probe.probe_cameras() if f.part == "USB camera")
    assert not usb.ok and "/dev/video0 (unicam)" in usb.found and usb.fix == "set camera.device to one of /dev/video2"

    settings_file = tmp_path / "settings.toml"
    settings_file.write_text("")
    settings, notes = load_settings(settings_file)
    source = assemble.open_camera(settings, notes)
    try:
        assert source.read() is None and source.status.state == LOST
        assert "picamera2 is not installed" in source.status.message
        assert notes == ["picamera2 is not installed: " + probe.PICAMERA2_FIX]
    finally:
        source.close()


def test_doctor_exits_1_only_for_a_part_the_settings_need(monkeypatch, tmp_path, capsys):
    """A Pi without GPIO buttons cannot be played, unless the touchscreen's soft buttons replace them."""
    pretend_pi(monkeypatch, tmp_path)
    monkeypatch.setattr(probe.glob, "glob", lambda p: {"/dev/video*": ["/dev/video0"]}.get(p, []))
    code, out = run_doctor(capsys)
    assert code == 1 and out.strip().endswith("the table cannot run without: buttons (exit status 1)")
    settings = tmp_path / "touch.toml"
    settings.write_text("[buttons]\ntouch = true\n")
    code, out = run_doctor(capsys, "--settings", str(settings))
    assert code == 0 and "buttons     MISSING" in out and "cannot run without" not in out
