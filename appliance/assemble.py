"""Putting an appliance together from the settings: camera, buttons, screen, reader, log.

Each part degrades to something that still works, and says so: no camera → the recorded demo
throws; no GPIO → the keyboard; no screen → PNG files. The messages reach the screen.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from appliance.event_log import DEFAULT_LOG, LogError, RefusingLog, open_log
from appliance.main_loop import LATEST_SCREEN, LOOK_FOR_SCREEN_S, Appliance, Output
from appliance.screens.layout import Layout
from appliance.settings import Settings
from appliance.table import Table
from hardware.buttons import KeyboardPanel, Press, ScriptedPanel
from hardware.frame_source import small_grey
from vision.types import Reading

REPO = Path(__file__).resolve().parents[1]
RECORDINGS = REPO / "tests" / "fixtures" / "throws"


@dataclass
class Panels:
    """Several panels read as one (the GPIO buttons and a keyboard, say)."""

    panels: list = field(default_factory=list)

    def poll(self) -> list[Press]:
        return [press for panel in self.panels for press in panel.poll()]

    @property
    def done(self) -> bool:
        """Every scripted panel has played out (a keyboard or GPIO panel never has)."""
        return all(getattr(p, "done", False) for p in self.panels)

    def close(self) -> None:
        for panel in self.panels:
            panel.close()


# The demo's game night, in order: recorded games the packaged readers read right (tests/table/test_end_to_end.py
# plays every recording through the whole appliance).
DEMO = (
    "dice-poker-holds",
    "misread-corrected",
    "pentakubus-slam",
    "hexakubus-six-d10",
    "cocked-die",
    "hand-over-still-dice",
    "die-outside",
    "game-train-wreck",
    "train-wreck-turns",
)


def demo_recordings() -> list[Path]:
    """The recorded games the demo plays, in order."""
    return [RECORDINGS / name for name in DEMO if (RECORDINGS / name / "labels.json").exists()]


def load_tray_profile(path: Path):
    """(the calibration profile, None) or (None, what is wrong with it: missing or damaged)."""
    from calibration.profile import ProfileError, load_profile

    try:
        return load_profile(path), None
    except ProfileError as error:
        return None, str(error)


def recording_calibration(recording):
    """(the TrayCalibration a hardware.replay.Recording was made with, None); (None, None) when its labels name
    no calibration profile; (None, what is wrong) when the profile they name cannot be read."""
    if recording is None or recording.calibration is None:
        return None, None
    if not recording.calibration.exists():  # not a machine to calibrate: a file missing from the folder
        return None, (
            f"{recording.folder}: labels.json names the calibration profile {recording.calibration.name}, "
            "which is not in the folder: copy in the profile the recording was made with"
        )
    profile, problem = load_tray_profile(recording.calibration)
    return (profile.to_tray_calibration() if profile else None), problem


def open_camera(
    settings: Settings, notes: list[str], kind: str | None = None, replay: str | Path | None = None, exposure=None
):
    """The camera `kind` names (default: the settings' camera.source). "auto" takes the Pi camera,
    else a USB camera, else the recorded demo throws, looped; but a Raspberry Pi never plays recorded
    throws unless asked: there they would be scored into a real game, so it waits for its Pi camera
    and the screen says what is missing. "synthetic" is a drawn tray (for trying the calibration wizard).
    `exposure` (a calibration Exposure) locks the Pi camera's exposure."""
    from hardware.frames import OpenCVCamera, PiCamera, ReplaySource
    from hardware.probe import pi_model, probe_cameras

    cam = settings.camera
    kind = kind or cam.source
    if kind == "auto":
        found = {f.part: f for f in probe_cameras(cam.picamera_number, cam.device)}
        fallback = "picamera" if pi_model() and not replay else "replay"
        kind = next((k for k, part in (("picamera", "Pi camera"), ("usb", "USB camera")) if found[part].ok), fallback)
        if kind == "picamera" and not found["Pi camera"].ok:
            notes.append(f"{found['Pi camera'].found}: {found['Pi camera'].fix}")
        if kind == "replay" and not replay:
            notes.append("no camera found: playing recorded throws")
    if kind == "synthetic":
        from appliance.synthetic_camera import SyntheticTraySource

        return SyntheticTraySource(small_size=cam.small_size)
    if kind == "picamera":
        controls = exposure.controls() if exposure is not None else {}
        return PiCamera(cam.picamera_number, size=cam.size, small_size=cam.small_size, fps=cam.fps, **controls)
    if kind == "usb":
        return OpenCVCamera(cam.device, size=cam.size, small_size=cam.small_size, fps=cam.fps)
    folder = replay or cam.replay_folder or next(iter(demo_recordings()), None)
    if folder is None:
        raise ValueError(f"no camera and no recorded throws to replay (camera.replay_folder, or {RECORDINGS})")
    source = ReplaySource(folder, realtime=True, loop=True, small_size=cam.small_size)
    if source.recording is None:  # a camera may come back; a folder that is not a recording never will
        raise ValueError(source.status.message)
    return source


def open_buttons(settings: Settings, keyboard: bool, notes: list[str], layout: Layout | None = None) -> Panels:
    """The GPIO buttons (when this machine has GPIO), the keyboard (when asked, or as the fallback) and,
    with `buttons.touch`, taps on the soft buttons of `layout`'s screen."""
    import warnings

    from hardware.buttons import GpioPanel, TouchPanel
    from hardware.probe import probe_gpio

    panels = Panels()
    if probe_gpio().ok:
        b = settings.buttons
        try:
            with warnings.catch_warnings():  # gpiozero warns for every pin library it tries first
                warnings.simplefilter("ignore")
                panels.panels.append(
                    GpioPanel(b.pins, long_press_s=b.long_press_s, debounce_s=b.debounce_s, pull_up=b.pull_up)
                )
        except Exception as error:  # gpiozero raises many kinds: any of them means "no buttons"
            notes.append(f"the GPIO buttons failed ({type(error).__name__}: {error}): use the keyboard")
    if keyboard or not panels.panels:
        panels.panels.append(KeyboardPanel(long_press_s=settings.buttons.long_press_s))
    if settings.buttons.touch and layout is not None:
        panels.panels.append(TouchPanel(layout.soft_buttons(), long_press_s=settings.buttons.long_press_s))
    return panels


def open_output(
    settings: Settings,
    png_dir: Path | None,
    notes: list[str],
    latest_only: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> Output:
    """The screen of the settings; without one, PNG files in a new temporary folder: every screen, or
    with `latest_only` (the table, which runs for days) only the latest, in one file written over. A screen
    that fails to open is looked for again every LOOK_FOR_SCREEN_S (a TV switched on after the Pi)."""
    from appliance.screens.layout import layout_for
    from hardware.display import DisplayError, choose_mode, open_display

    size, touch = settings.display.size, settings.buttons.touch

    def look_for_screen() -> tuple:
        """(surface, layout, problem): the screen and "", or the stand-in opened (again: trying closed it) and
        why the screen did not open."""
        try:
            surface, problem = open_display(mode, size), ""
        except DisplayError as error:
            surface, problem = open_display("dummy", size), str(error)
        return surface, replace(layout_for(surface.get_size()), touch=touch), problem

    def written_to(folder: Path) -> str:
        if latest_only:
            return f"the latest screen is written to {folder / LATEST_SCREEN}"
        return f"the screens are written to {folder}"

    mode = "dummy" if png_dir else choose_mode(settings.display.mode)
    if mode == "dummy" and not png_dir:
        png_dir = Path(tempfile.mkdtemp(prefix="dicetable-screens-"))
        notes.append(f"no screen here: {written_to(png_dir)}")
    surface, layout, problem = look_for_screen()
    if problem:
        png_dir = png_dir or Path(tempfile.mkdtemp(prefix="dicetable-screens-"))
        notes.append(
            f"{problem}; {written_to(png_dir)} until the screen is found (looked for every {LOOK_FOR_SCREEN_S:.0f} s)"
        )
    return Output(
        surface,
        layout,
        png_dir,
        flip=mode != "dummy",
        latest_only=latest_only,
        look_for_screen=look_for_screen if problem else None,
        clock=clock,
    )


def reader(calibration) -> Callable[[np.ndarray, str], Reading]:
    """read(frame, kind): the packaged reader for the dice the game is played with (d6 or d10)."""
    from vision import read_kind

    return lambda frame, kind="d6": read_kind(frame, calibration, kind)


def rest_detector(calibration, small_size: tuple[int, int]):
    """A vision RestDetector comparing the small pictures of `small_size` with the calibration's empty tray (none:
    it learns the tray as it goes)."""
    from vision.rest import RestDetector

    empty = calibration.empty if calibration is not None else None
    # the empty tray made as the camera's small pictures are, so that the two compare
    return RestDetector(small_grey(empty, small_size) if empty is not None else None)


def table_for(settings: Settings, log_path: Path | None, notes: list[str]) -> Table:
    """The table on the game log; one that cannot be opened is said on screen (exiting instead would only have
    systemd start the table again and again, until it gives up and leaves a black screen)."""
    try:
        log, note = open_log(log_path or DEFAULT_LOG)
    except LogError as error:
        log, note = RefusingLog(error), f"{error}: no game can be kept, so none starts; fix it and restart the table"
    notes += [note] if note else []
    return Table(
        log,
        players=settings.players,
        default_game=settings.game.default,
        variants=settings.game.variants,
        advice=settings.game.advice,
    )


def appliance(settings: Settings, source, panel, table: Table, output: Output, calibration) -> Appliance:
    return Appliance(
        source,
        panel,
        table,
        reader(calibration),
        rest_detector(calibration, settings.camera.small_size),
        output,
        frame_interval_s=1 / settings.camera.fps,
        frame_size=calibration.frame_size if calibration is not None else None,
    )


def learnt_dice(profile, path: Path, notes: list[str]):
    """The dice learnt with the calibration profile saved at `path` (appliance.learning); files that could not be
    read are said in `notes`."""
    from appliance.learning import LearntDice, folder_for

    learnt = LearntDice(folder_for(profile.path or path, profile.created))
    notes += learnt.problems
    return learnt


def scripted_presses(labels: dict, clock: Callable[[], float], first_frame: int = 0) -> ScriptedPanel:
    """A recorded game's presses, each released once its frame has been processed (those of frames
    before `first_frame` were pressed by an earlier run)."""
    times = [frame["t"] for frame in labels.get("frames", [])]
    presses = [(times[p["frame"]], p["press"]) for p in labels.get("presses", []) if p["frame"] >= first_frame]
    return ScriptedPanel(presses, clock=clock)
