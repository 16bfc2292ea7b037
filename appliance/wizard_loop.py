"""The calibration wizard (calibration.wizard) on the screen, driven by the buttons with the camera live:
`dicetable calibrate`, and `dicetable run` when the profile is missing or damaged (run_wizard)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from appliance import assemble
from appliance.settings import load_settings
from calibration.profile import ProfileError, ProfileMissing, load_profile, size_problem
from hardware import display

IDLE_FRAMES_AFTER_SCRIPT = 90  # a scripted run that has not finished this many frames after its last press failed
NO_SCREEN = (
    "no screen here: the wizard shows each step on a screen and waits for the buttons. Connect a screen "
    "(or run it from a desktop session), or drive it without one: --display dummy --script PRESSES"
)


def calibrate(
    settings_file: str | None = None,
    profile_path: Path | None = None,
    *,
    check: bool = False,
    source: str = "settings",
    replay: str | None = None,
    display_mode: str | None = None,
    script: list | None = None,
    screenshots: Path | None = None,
) -> int:
    """`dicetable calibrate`: the wizard with the parts of the settings, its profile saved at `profile_path`
    (default: the settings' calibration.profile); with `check`, only what the profile there holds, or what is
    wrong with it. `source` other than "settings" names the camera; `script`: presses (hardware.buttons.Press,
    or (seconds, Press)) played instead of the buttons. The exit status."""
    settings, warnings = load_settings(settings_file)
    for warning in warnings:
        print(f"dicetable calibrate: {warning}", file=sys.stderr)
    path = profile_path or settings.calibration_profile
    try:
        profile = load_profile(path)
        known = f"{path}: {profile.summary()}"
    except ProfileMissing:
        known = None
        if check:
            print(f"no calibration profile at {path}: run `dicetable calibrate` with the camera above the tray")
            return 1
    except ProfileError as error:
        print(f"{error}", file=sys.stderr if not check else sys.stdout)
        if check:
            print("run `dicetable calibrate` to make a new one")
            return 1
        print("the wizard makes a new profile in its place", file=sys.stderr)
        known = None
    if check:
        print(known)
        if problem := size_problem(profile.frame_size, settings.camera.size):  # the table would read no frame with it
            print(problem)
            return 1
        return 0
    return _run_from_settings(settings, path, source, replay, display_mode, script, screenshots)


def _run_from_settings(settings, path: Path, source_kind, replay, display_mode, script, screenshots) -> int:
    from appliance.screens.layout import layout_for

    mode = display.choose_mode(display_mode or settings.display.mode)
    if mode == "dummy" and script is None:  # nobody could see the steps it waits on: say so, never hang
        print(f"dicetable calibrate: {NO_SCREEN}", file=sys.stderr)
        return 2
    notes: list[str] = []
    try:
        source = assemble.open_camera(
            settings, notes, kind=None if source_kind == "settings" else source_kind, replay=replay
        )
    except ValueError as error:
        print(f"dicetable calibrate: {error}", file=sys.stderr)
        return 2
    try:
        screen = display.open_display(mode, settings.display.size, "Calibrate the dice table")
    except display.DisplayError as error:
        source.close()
        print(f"dicetable calibrate: {error}", file=sys.stderr)
        return 2
    frame_clock = FrameClock() if script is not None else None
    if frame_clock:
        from hardware.buttons import ScriptedPanel

        panel = assemble.Panels([ScriptedPanel(script, clock=frame_clock)])
    else:
        panel = assemble.open_buttons(settings, keyboard=True, notes=notes, layout=layout_for(screen.get_size()))
    for note in notes:
        print(f"dicetable calibrate: {note}", file=sys.stderr)
    try:
        outcome = run_wizard(
            lambda: screen, panel, source, path, settings=settings, screenshots=screenshots, frame_clock=frame_clock
        )
    finally:
        panel.close()
        source.close()
    print(outcome.message, file=sys.stdout if outcome.saved else sys.stderr)
    return 0 if outcome.saved else 1


class Outcome:
    def __init__(self, saved: bool, message: str, profile=None, stopped: bool = False):
        # stopped: the process was asked to stop (SIGTERM, a closed window), which is no failure
        self.saved, self.message, self.profile, self.stopped = saved, message, profile, stopped


class _LockableSource:
    """The frame source, reopened with locked exposure when the wizard asks, if `reopen` (locking_reopener's) can."""

    def __init__(self, source, reopen):
        self.current, self._reopen = source, reopen

    def lock(self, exposure) -> None:
        if self._reopen is None:
            return
        self.current.close()
        self.current = self._reopen(exposure)


class FrameClock:
    """Scripted presses timed by the frames shown, not the wall clock: a slow machine plays a script
    the same way as a fast one."""

    def __init__(self, fps: float = 30.0):
        self.frames, self.fps = 0, fps

    def __call__(self) -> float:
        return self.frames / self.fps


def locking_reopener(settings, source):
    """How to reopen `source` with an exposure locked (exposure -> a new source), or None: the Pi camera
    only (others cannot be locked from here, and report no exposure)."""
    if settings is None or not getattr(source, "can_lock_exposure", False):  # replays and the like have no such flag
        return None
    return lambda exposure: assemble.open_camera(settings, [], kind="picamera", exposure=exposure)


def run_wizard(
    surface: Callable,
    panel,
    source,
    profile_path: Path,
    *,
    settings=None,
    read=None,
    screenshots: str | None = None,
    fps: float = 30.0,
    frame_clock: FrameClock | None = None,
    watchdog: Callable[[], None] = lambda: None,
) -> Outcome:
    """Runs the wizard with a panel and frame source until it saves or is left, drawing on `surface()` (asked
    on every pass: the table's screen may be found after the start). `watchdog` is called on every pass, as
    the table's loop does (systemd kills a service that stops pinging)."""
    from calibration.wizard import Wizard

    wizard = Wizard(profile_path, read=read, teach=_learnt_dice)
    camera = _LockableSource(source, locking_reopener(settings, source))
    shots = Path(screenshots) if screenshots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    try:
        return _loop(wizard, surface, panel, camera, shots, fps, frame_clock, watchdog)
    finally:
        if camera.current is not source:  # reopened with locked exposure here: ours to close
            camera.current.close()


def _learnt_dice(profile):
    """The dice learnt with a profile the wizard saved: its last step teaches them."""
    from appliance.learning import LearntDice, folder_for

    return LearntDice(folder_for(profile.path, profile.created))


def _loop(wizard, surface, panel, camera, shots, fps, frame_clock, watchdog) -> Outcome:
    from appliance.screens import png
    from appliance.screens.wizard import draw

    wait = display.pace(fps)
    last_step, idle = None, 0
    while not (wizard.finished or wizard.cancelled):
        if display.quit_asked():
            return Outcome(False, "calibration stopped without saving", stopped=True)
        frame = camera.current.read()
        if frame is None and camera.current.status.state == "ended":
            return Outcome(False, f"the camera stopped: {camera.current.status.message}")
        image = None if frame is None else frame.image
        if frame is not None and frame_clock is not None:
            frame_clock.frames += 1
        metadata = getattr(frame, "metadata", None) or getattr(camera.current, "metadata", None)
        presses = panel.poll() if wizard.step == last_step else []  # each step is drawn once before a press moves on
        screen = wizard.feed(image, presses, metadata)
        request = wizard.take_camera_request()
        if request is not None:
            camera.lock(request)
        if hasattr(camera.current, "stage"):
            camera.current.stage("dice" if wizard.wants_dice else "empty")
        if frame is None and camera.current.status.message:
            screen = replace(screen, message=camera.current.status.message, problem=True)
        surface_now = surface()
        draw(surface_now, screen)
        display.flip()
        watchdog()
        if shots and screen.step != last_step:
            png.save(surface_now, shots / f"{screen.number}-{screen.step}.png")
        last_step = screen.step
        idle = idle + 1 if getattr(panel, "done", False) else 0
        if idle > IDLE_FRAMES_AFTER_SCRIPT:
            return Outcome(
                False,
                f"the script ended at step '{wizard.step}' before the wizard finished "
                f"({screen.message or screen.instruction})",
            )
        wait()
    if wizard.cancelled:
        return Outcome(False, "calibration left without saving")
    return Outcome(True, f"calibration saved: {wizard.profile.path}: {wizard.profile.summary()}", wizard.profile)
