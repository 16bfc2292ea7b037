"""Putting an appliance together from the settings: camera, buttons, screen, reader, log.

Each part degrades to something that still works, and says so: no camera → the recorded demo
throws; no GPIO → the keyboard; no screen → PNG files. The messages reach the screen.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from appliance.event_log import EventLog
from appliance.main_loop import Appliance, Output
from appliance.settings import Settings
from appliance.table import Table
from hardware.buttons import KeyboardPanel, Press, ScriptedPanel
from vision.types import Reading

REPO = Path(__file__).resolve().parents[1]
RECORDINGS = REPO / "tests" / "fixtures" / "throws"
DEFAULT_LOG = Path("~/.local/share/dicetable/games.sqlite")


@dataclass
class Panels:
    """Several panels read as one (the GPIO buttons and a keyboard, say)."""

    panels: list = field(default_factory=list)

    def poll(self) -> list[Press]:
        return [press for panel in self.panels for press in panel.poll()]

    def close(self) -> None:
        for panel in self.panels:
            panel.close()


def demo_recordings() -> list[Path]:
    """The recorded games the demo plays, in order."""
    return sorted(p.parent for p in RECORDINGS.glob("*/labels.json") if (p.parent / "labels.json").exists())


def load_calibration(settings: Settings, notes: list[str]):
    """The tray calibration for vision, or None (the reader then works on the bare picture)."""
    path = settings.calibration_profile
    if not path.exists():
        notes.append(f"no tray calibration at {path}: run `dicetable calibrate` (reading without one)")
        return None
    try:
        from calibration.profile import ProfileError, load_profile
    except ImportError:
        return None
    try:
        return load_profile(path).to_tray_calibration()
    except ProfileError as error:
        notes.append(f"{error}: run `dicetable calibrate` (reading without a calibration)")
        return None


def open_camera(settings: Settings, notes: list[str]):
    """The camera the settings name; with "auto" and no camera, the recorded demo throws, looped."""
    from hardware.frames import OpenCVCamera, PiCamera, ReplaySource
    from hardware.probe import probe_cameras

    cam = settings.camera
    source = cam.source
    if source == "auto":
        found = {f.name: f for f in probe_cameras(cam.picamera_number, cam.device)}
        source = next((name for name in ("picamera", "usb") if name in found and found[name].ok), "replay")
    if source == "picamera":
        return PiCamera(cam.picamera_number, size=cam.size, small_size=cam.small_size)
    if source == "usb":
        return OpenCVCamera(cam.device, size=cam.size, small_size=cam.small_size, fps=cam.fps)
    folder = cam.replay_folder or next(iter(demo_recordings()), None)
    if folder is None:
        raise SystemExit(f"no camera and no recorded throws to replay (looked in {RECORDINGS})")
    if settings.camera.source == "auto":
        notes.append(f"no camera found: playing the recorded throws in {Path(folder).name}")
    return ReplaySource(folder, realtime=True, loop=True, small_size=cam.small_size)


def open_buttons(settings: Settings, keyboard: bool, notes: list[str]) -> Panels:
    from hardware.buttons import GpioPanel
    from hardware.probe import probe_gpio

    panels = Panels()
    if probe_gpio().ok:
        b = settings.buttons
        try:
            panels.panels.append(GpioPanel(b.pins, long_press_s=b.long_press_s, debounce_s=b.debounce_s,
                                           pull_up=b.pull_up))
        except Exception as error:  # gpiozero raises many kinds: any of them means "no buttons"
            notes.append(f"the GPIO buttons failed ({error}): use the keyboard")
    if keyboard or not panels.panels:
        panels.panels.append(KeyboardPanel(long_press_s=settings.buttons.long_press_s))
    return panels


def open_output(settings: Settings, png_dir: Path | None, notes: list[str]) -> Output:
    import pygame

    from hardware.display import DisplayError, choose_mode, layout_for, open_display

    mode = "dummy" if png_dir else choose_mode(settings.display.mode)
    if mode == "dummy" and not png_dir:
        png_dir = Path(tempfile.mkdtemp(prefix="dicetable-screens-"))
        notes.append(f"no screen here: the screens are written to {png_dir}")
    try:
        surface = open_display(mode, settings.display.size)
    except DisplayError as error:
        png_dir = png_dir or Path(tempfile.mkdtemp(prefix="dicetable-screens-"))
        notes.append(f"{error}; the screens are written to {png_dir}")
        surface = open_display("dummy", settings.display.size)
    pygame.key.set_repeat(0)
    return Output(surface, layout_for(surface.get_size()), png_dir, flip=mode != "dummy")


def reader(calibration) -> Callable[[np.ndarray], Reading]:
    from vision.reader import read

    return lambda frame: read(frame, calibration)


def table_for(settings: Settings, log_path: Path | None) -> Table:
    log = EventLog(log_path or DEFAULT_LOG)
    return Table(log, players=settings.players, default_game=settings.game.default, variants=settings.game.variants)


def appliance(settings: Settings, source, panel, table: Table, output: Output, calibration) -> Appliance:
    from vision.rest import RestDetector

    empty = calibration.empty if calibration is not None else None
    small_empty = None
    if empty is not None:
        import cv2

        small_empty = cv2.resize(cv2.cvtColor(empty, cv2.COLOR_BGR2GRAY), tuple(settings.camera.small_size))
    return Appliance(source, panel, table, reader(calibration), RestDetector(small_empty), output)


def scripted_presses(labels: dict, clock: Callable[[], float], first_frame: int = 0) -> ScriptedPanel:
    """A recorded game's presses, each released once its frame has been processed (those of frames
    before `first_frame` were pressed by an earlier run)."""
    times = [frame["t"] for frame in labels.get("frames", [])]
    presses = [(times[p["frame"]], p["press"]) for p in labels.get("presses", []) if p["frame"] >= first_frame]
    return ScriptedPanel(presses, clock=clock)


def quiet_pygame() -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def window_open() -> bool:
    """False once a desktop window is closed (the keyboard panel takes the key events)."""
    import pygame

    return not pygame.event.peek(pygame.QUIT)
