"""What hardware this machine has, for `dicetable doctor`: each probe returns Findings, none raises or blocks
for long, and each missing part comes with the fix."""

from __future__ import annotations

import glob
import importlib.util
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from hardware.display import HOW_TO_FIX, NO_KMSDRM, choose_mode, drm_devices, pygame_brings_its_own_sdl
from hardware.picamera import PICAMERA2_FIX, listed_pi_cameras


@dataclass(frozen=True)
class Finding:
    part: str  # "camera", "buttons", "display", ...
    ok: bool
    found: str  # what is there (or is not)
    fix: str = ""  # what to do when not ok

    def as_dict(self) -> dict:
        return asdict(self)


def pi_model() -> str | None:
    """'Raspberry Pi 5 Model B Rev 1.0', or None when this is not a Raspberry Pi."""
    try:
        with open("/proc/device-tree/model", encoding="utf-8", errors="replace") as f:
            model = f.read().strip("\0\n ")
    except OSError:
        return None
    return model if "Raspberry Pi" in model else None


USB_CAMERA_DRIVER = "uvcvideo"  # a Pi's own video devices (the Pi camera's capture nodes, codec, ISP) have others


def video_devices() -> dict[str, str]:
    """Each /dev/video* device and the kernel driver behind it ("uvcvideo" for a USB camera; "" if unknown)."""
    paths = sorted(glob.glob("/dev/video*"), key=lambda p: (len(p), p))
    return {path: _driver(path) for path in paths}


def _driver(device: str) -> str:
    link = f"/sys/class/video4linux/{os.path.basename(device)}/device/driver"
    return os.path.basename(os.path.realpath(link)) if os.path.exists(link) else ""


def probe_cameras(picamera_number: int = 0, usb_device: int | str = 0) -> list[Finding]:
    """The Pi camera through picamera2 and USB cameras through /dev/video*; opens nothing."""
    findings = []
    if importlib.util.find_spec("picamera2") is None:
        fix = (
            PICAMERA2_FIX
            if pi_model()
            else 'the Pi camera needs a Raspberry Pi: use a USB camera here (camera.source = "usb")'
        )
        findings.append(Finding("Pi camera", False, "picamera2 is not installed", fix))
    else:
        try:
            cameras = listed_pi_cameras()
        except Exception as error:  # libcamera can fail in many ways; the doctor reports, never crashes
            cameras, error_text = [], f" ({error})"
        else:
            error_text = ""
        if len(cameras) > picamera_number:
            model = cameras[picamera_number].get("Model", "unknown model")
            findings.append(Finding("Pi camera", True, f"Pi camera {picamera_number}: {model}"))
        else:
            findings.append(
                Finding(
                    "Pi camera",
                    False,
                    f"no Pi camera {picamera_number} found by libcamera{error_text}",
                    "connect the camera ribbon (contacts facing the right way, power off first) and check "
                    "`rpicam-hello --list-cameras`; on a Pi 5 the ports are labelled CAM/DISP 0 and 1, and "
                    "camera.picamera_number must name the one in use",
                )
            )
    devices = video_devices()
    cameras = [path for path, driver in devices.items() if driver == USB_CAMERA_DRIVER]
    listed = ", ".join(f"{path} ({driver or 'driver unknown'})" for path, driver in devices.items())
    wanted = f"/dev/video{usb_device}" if isinstance(usb_device, int) else usb_device
    if not wanted.startswith("/dev/"):  # a URL or a file OpenCV opens: nothing here to check
        findings.append(Finding("USB camera", True, f"camera.device = {wanted}"))
    elif os.path.realpath(wanted) in cameras:
        findings.append(Finding("USB camera", True, f"{wanted} is a USB camera; video devices: {listed}"))
    else:
        found = f"{wanted} is not a USB camera; video devices: {listed}" if devices else "no /dev/video* devices"
        fix = (
            f"set camera.device to one of {', '.join(cameras)}"
            if cameras
            else "plug in a USB camera (check `ls /dev/video*`), or use the Pi camera; "
            'a replay (camera.source = "replay") needs no camera'
        )
        findings.append(Finding("USB camera", False, found, fix))
    return findings


def probe_gpio(env: Mapping[str, str] | None = None) -> Finding:
    env = os.environ if env is None else env
    chips = sorted(glob.glob("/dev/gpiochip*"))
    factories = [name for name in ("lgpio", "RPi.GPIO", "pigpio") if _importable(name)]
    if env.get("GPIOZERO_PIN_FACTORY"):
        factories.insert(0, f"GPIOZERO_PIN_FACTORY={env['GPIOZERO_PIN_FACTORY']}")
    found = f"GPIO chips: {', '.join(chips) or 'none'}; pin libraries: {', '.join(factories) or 'none'}"
    if chips and factories:
        access = all(os.access(chip, os.R_OK | os.W_OK) for chip in chips)
        if access:
            return Finding("buttons", True, found)
        return Finding(
            "buttons", False, found, "add the user to the `gpio` group: sudo usermod -aG gpio $USER, then log in again"
        )
    if not chips:
        fix = (
            "GPIO is not visible: check that this runs on the Pi itself, not in a container without /dev/gpiochip*"
            if pi_model()
            else "no GPIO on this machine: the keyboard works instead (arrows = PREV/NEXT, Enter = OK, "
            "Backspace = BACK, hold or Shift for a long press)"
        )
        return Finding("buttons", False, found, fix)
    return Finding(
        "buttons",
        False,
        found,
        "install a pin library: sudo apt install python3-lgpio (venv with --system-site-packages) or pip install lgpio",
    )


def probe_display(mode: str = "auto", env: Mapping[str, str] | None = None) -> Finding:
    env = os.environ if env is None else env
    desktop = env.get("WAYLAND_DISPLAY") or env.get("DISPLAY")
    drm = drm_devices()
    concrete = choose_mode(mode, env, drm)
    found = f"mode {mode} -> {concrete}; desktop: {desktop or 'none'}; DRM devices: {', '.join(drm) or 'none'}"
    if concrete == "window":
        return Finding("display", bool(desktop), found, "" if desktop else HOW_TO_FIX["window"])
    if concrete == "kiosk":
        usable = [card for card in drm if os.access(card, os.R_OK | os.W_OK)]
        if usable and pygame_brings_its_own_sdl():
            return Finding("display", False, found, NO_KMSDRM)
        return Finding("display", bool(usable), found, "" if usable else HOW_TO_FIX["kiosk"])
    return Finding(
        "display",
        False,
        found + " (dummy: nothing is shown)",
        "connect a screen: with no desktop the table needs /dev/dri/card* (KMSDRM, a Pi with a screen and "
        "dtoverlay=vc4-kms-v3d); on a desktop set DISPLAY/WAYLAND_DISPLAY; the dummy driver is for tests only",
    )


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing ("RPi" of "RPi.GPIO")
        return False
