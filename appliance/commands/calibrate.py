"""`dicetable calibrate`: the calibration wizard on the screen, driven by the buttons with the camera live.

    dicetable calibrate                       the camera, buttons and display of the settings
    dicetable calibrate --check               is the profile there and usable? (exit 0 yes, 1 no)
    dicetable calibrate --source synthetic --display window     try it on a desktop with a drawn tray
    dicetable calibrate --source synthetic --display dummy --script "OK,OK long,OK,1:OK,2:OK,OK long,OK"
                                              the same with scripted presses (N:PRESS waits until second N)

The wizard itself is calibration.wizard; this module opens the parts and runs the loop
(run_wizard() is what `dicetable run` can call when the profile is missing or damaged).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

from hardware.display import MODES, DisplayError, choose_mode, layout_for, open_display

from . import output_folder, user_path

HELP = "Set up the tray: find it and its keep zone, lock the camera, learn the empty tray and the die size."

SOURCES = ("settings", "picamera", "usb", "replay", "synthetic")
IDLE_FRAMES_AFTER_SCRIPT = 90   # a scripted run that has not finished this many frames after its last press failed
SCRIPT_FORMAT = ('presses separated by commas, e.g. "OK,OK long,NEXT,2.5:OK" (the buttons are PREV, NEXT, OK and '
                 'BACK; T:PRESS waits until T seconds after the start)')

NO_SCREEN = ("no screen here: the wizard shows each step on a screen and waits for the buttons. Connect a screen "
             "(or run it from a desktop session), or drive it without one: --display dummy --script PRESSES")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--settings", metavar="FILE", help="settings file (default: the one the table uses)")
    parser.add_argument("--profile", type=user_path, metavar="FILE",
                        help="where the profile goes (default: calibration.profile of the settings)")
    parser.add_argument("--check", action="store_true", help="only check the profile: say what it holds or "
                                                             "what is wrong with it")
    parser.add_argument("--source", choices=SOURCES, default="settings",
                        help="where frames come from (default: camera.source of the settings); synthetic: a "
                             "drawn tray, to try the wizard without a camera")
    parser.add_argument("--replay", metavar="FOLDER", help="recorded-throw folder for --source replay")
    parser.add_argument("--display", choices=MODES,
                        help="display mode (default: display.mode of the settings)")
    parser.add_argument("--script", type=_script, metavar="PRESSES",
                        help=f"play these presses instead of reading buttons: {SCRIPT_FORMAT}")
    parser.add_argument("--screenshots", type=output_folder, metavar="DIR", help="save a PNG of the screen at each step")


def run(args: argparse.Namespace) -> int:
    from appliance.settings import load_settings
    from calibration.profile import ProfileError, ProfileMissing, load_profile, size_problem

    settings, warnings = load_settings(args.settings)
    for warning in warnings:
        print(f"dicetable calibrate: {warning}", file=sys.stderr)
    path = args.profile or settings.calibration_profile
    try:
        profile = load_profile(path)
        known = f"{path}: {profile.summary()}"
    except ProfileMissing:
        known = None
        if args.check:
            print(f"no calibration profile at {path}: run `dicetable calibrate` with the camera above the tray")
            return 1
    except ProfileError as error:
        print(f"{error}", file=sys.stderr if not args.check else sys.stdout)
        if args.check:
            print("run `dicetable calibrate` to make a new one")
            return 1
        print("the wizard makes a new profile in its place", file=sys.stderr)
        known = None
    if args.check:
        print(known)
        if problem := size_problem(profile.frame_size, settings.camera.size):   # the table would read no frame with it
            print(problem)
            return 1
        return 0
    return run_from_settings(settings, path, args)


def run_from_settings(settings, path: Path, args: argparse.Namespace) -> int:
    from appliance.assemble import open_buttons, open_camera

    mode = choose_mode(args.display or settings.display.mode)
    if mode == "dummy" and args.script is None:   # nobody could see the steps it waits on: say so, never hang
        print(f"dicetable calibrate: {NO_SCREEN}", file=sys.stderr)
        return 2
    notes: list[str] = []
    try:
        source = open_camera(settings, notes, kind=None if args.source == "settings" else args.source,
                             replay=args.replay)
    except ValueError as error:
        print(f"dicetable calibrate: {error}", file=sys.stderr)
        return 2
    try:
        screen = open_display(mode, settings.display.size, "Calibrate the dice table")
    except DisplayError as error:
        source.close()
        print(f"dicetable calibrate: {error}", file=sys.stderr)
        return 2
    frame_clock = FrameClock() if args.script is not None else None
    if frame_clock:
        from appliance.assemble import Panels
        from hardware.buttons import ScriptedPanel

        panel = Panels([ScriptedPanel(args.script, clock=frame_clock)])
    else:
        panel = open_buttons(settings, keyboard=True, notes=notes, layout=layout_for(screen.get_size()))
    for note in notes:
        print(f"dicetable calibrate: {note}", file=sys.stderr)
    try:
        outcome = run_wizard(lambda: screen, panel, source, path, settings=settings, screenshots=args.screenshots,
                             frame_clock=frame_clock)
    finally:
        panel.close()
        source.close()
    print(outcome.message, file=sys.stdout if outcome.saved else sys.stderr)
    return 0 if outcome.saved else 1


# -- the parts --------------------------------------------------------------------------------------

def parse_script(script: str) -> list:
    """'OK, OK long, 2.5:NEXT' -> [Press OK, Press OK long, (2.5, Press NEXT)]; a ValueError names a bad entry."""
    from hardware.buttons import Press

    steps = []
    for entry in filter(None, (e.strip() for e in script.split(","))):
        at, _, text = entry.rpartition(":")
        try:
            press = Press.parse(text)
            if str(press).lower() != " ".join(text.split()).lower():   # "OK twice" would pass as a short OK
                raise ValueError(text)
            steps.append((float(at), press) if at else press)
        except ValueError:
            raise ValueError(f"{entry!r} is not a press: give {SCRIPT_FORMAT}") from None
    return steps


def _script(text: str) -> list:
    try:
        return parse_script(text)
    except ValueError as error:   # argparse shows an ArgumentTypeError's own words
        raise argparse.ArgumentTypeError(str(error)) from None


# -- the loop ---------------------------------------------------------------------------------------

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
    if settings is None or not getattr(source, "can_lock_exposure", False):   # replays and the like have no such flag
        return None
    from appliance.assemble import open_camera

    return lambda exposure: open_camera(settings, [], kind="picamera", exposure=exposure)


def run_wizard(surface: Callable, panel, source, profile_path: Path, *, settings=None, read=None,
               screenshots: str | None = None, fps: float = 30.0, frame_clock: FrameClock | None = None,
               watchdog: Callable[[], None] = lambda: None) -> Outcome:
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
        if camera.current is not source:   # reopened with locked exposure here: ours to close
            camera.current.close()


def _learnt_dice(profile):
    """The dice learnt with a profile the wizard saved: its last step teaches them."""
    from appliance.learning import LearntDice, folder_for

    return LearntDice(folder_for(profile.path, profile.created))


def _loop(wizard, surface, panel, camera, shots, fps, frame_clock, watchdog) -> Outcome:
    import pygame

    from calibration.wizard_screen import draw

    clock = pygame.time.Clock()
    last_step, idle = None, 0
    while not (wizard.finished or wizard.cancelled):
        if pygame.event.get(pygame.QUIT):
            return Outcome(False, "calibration stopped without saving", stopped=True)
        frame = camera.current.read()
        if frame is None and camera.current.status.state == "ended":
            return Outcome(False, f"the camera stopped: {camera.current.status.message}")
        image = None if frame is None else frame.image
        if frame is not None and frame_clock is not None:
            frame_clock.frames += 1
        metadata = getattr(frame, "metadata", None) or getattr(camera.current, "metadata", None)
        presses = panel.poll() if wizard.step == last_step else []   # each step is drawn once before a press moves on
        screen = wizard.feed(image, presses, metadata)
        request = wizard.take_camera_request()
        if request is not None:
            camera.lock(request)
        if hasattr(camera.current, "stage"):
            camera.current.stage("dice" if wizard.wants_dice else "empty")
        if frame is None and camera.current.status.message:
            screen = _with_problem(screen, camera.current.status.message)
        surface_now = surface()
        draw(surface_now, screen)
        pygame.display.flip()
        watchdog()
        if shots and screen.step != last_step:
            pygame.image.save(surface_now, str(shots / f"{screen.number}-{screen.step}.png"))
        last_step = screen.step
        idle = idle + 1 if getattr(panel, "done", False) else 0
        if idle > IDLE_FRAMES_AFTER_SCRIPT:
            return Outcome(False, f"the script ended at step '{wizard.step}' before the wizard finished "
                                  f"({screen.message or screen.instruction})")
        clock.tick(fps)
    if wizard.cancelled:
        return Outcome(False, "calibration left without saving")
    return Outcome(True, f"calibration saved: {wizard.profile.path}: {wizard.profile.summary()}", wizard.profile)


def _with_problem(screen, message: str):
    from dataclasses import replace

    return replace(screen, message=message, problem=True)
