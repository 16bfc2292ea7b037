"""The table as `dicetable run` and `dicetable record` start it: the parts opened from the settings, the
calibration wizard first when the profile is missing or damaged, then the loop until it is stopped."""

from __future__ import annotations

import sys
from pathlib import Path

from appliance import assemble, systemd_notify
from appliance.main_loop import PLAYING
from appliance.night import power_off
from appliance.settings import load_settings
from appliance.wizard_loop import locking_reopener, run_wizard
from hardware.display import window_open
from hardware.replay import ReplaySource

NOTES_SHOWN = 2  # more would cover the game: the journal (stdout) and `dicetable doctor` have them all
NO_SCREEN_TO_CALIBRATE = (
    "the table needs a calibration first, and its wizard a screen to show each step on: connect "
    "a screen (or run it from a desktop session), or calibrate without one with `dicetable "
    "calibrate --display dummy --script PRESSES`"
)


def run_table(settings_file: Path | None = None, log: Path | None = None, record: Path | None = None) -> int:
    """The table with the settings of `settings_file` (default: searched) on the game log `log` (default:
    DEFAULT_LOG), the camera stream saved in `record` if given; the exit status."""
    settings, warnings = load_settings(settings_file)
    notes: list[str] = []  # the camera, the screen, the buttons: said before the settings' warnings
    profile, problem = assemble.load_tray_profile(settings.calibration_profile)
    try:
        source = assemble.open_camera(settings, notes, exposure=profile.exposure if profile else None)
    except ValueError as error:
        print(f"dicetable run: {error}", file=sys.stderr)
        return 2
    output = assemble.open_output(settings, None, notes, latest_only=True)  # it runs for days: no PNG per screen
    panel = assemble.open_buttons(settings, keyboard=output.flip, notes=notes, layout=output.layout)
    learnt = None  # recorded throws teach nothing: the learnt dice are the live table's
    if isinstance(source, ReplaySource):  # recorded throws carry the calibration they were made with
        calibration, problem = assemble.recording_calibration(source.recording)
        notes += [f"{problem}: the dice are read without tray zones"] if problem else []
    else:
        if problem and not output.flip and settings.display.mode != "dummy":
            # no screen found: the wizard would wait on steps nobody sees (display.mode "dummy" asks for that)
            print(f"dicetable run: {problem}; {NO_SCREEN_TO_CALIBRATE}", file=sys.stderr)
            return 2
        if problem:  # never run a live camera on a profile that cannot be read: make one first
            print(f"dicetable run: {problem}; starting the calibration wizard", flush=True)
            profile, source, code = _calibrated(settings, source, panel, output)
            if profile is None:
                return code
        calibration = profile.to_tray_calibration()
        learnt = assemble.learnt_dice(profile, settings.calibration_profile, notes)
    table = assemble.table_for(settings, log, notes)  # a log it cannot open is said on the screen
    table.power_off = power_off  # the menu's "shut down the table"
    for note in warnings + notes:
        print(f"dicetable: {note}", flush=True)  # the journal keeps them
    if notes or warnings:
        table.notice(for_the_screen(notes + warnings))
    app = assemble.appliance(settings, source, panel, table, output, calibration)
    if learnt:
        learnt.attach(app)
    app.watchdog, app.status = systemd_notify.watchdog, _report
    if record:
        if isinstance(source, ReplaySource):  # recorded throws: the profile they were made with
            profile_path = source.recording.calibration if calibration is not None else None
        else:
            profile_path = settings.calibration_profile if profile else None
        if not _recording(app, record, profile_path):
            source.close()
            panel.close()
            return 2
    return _play(app, source, panel)


def _calibrated(settings, source, panel, output) -> tuple:
    """(the profile the wizard saved, the camera to play with, None), or (None, None, the exit status) when the
    wizard ended without one. The camera is reopened with the exposure the empty tray was learned with."""
    systemd_notify.ready("calibrating")
    outcome = run_wizard(
        output.screen_surface,
        panel,
        source,
        settings.calibration_profile,
        settings=settings,
        watchdog=systemd_notify.watchdog,
    )
    if not outcome.saved:
        print(f"dicetable run: {outcome.message}; the table needs a calibration", file=sys.stderr)
        return None, None, 0 if outcome.stopped else 1  # a stop asked for (systemctl stop) is no failed start
    profile = outcome.profile or assemble.load_tray_profile(settings.calibration_profile)[0]
    reopen = locking_reopener(settings, source)
    if reopen:  # the empty tray was learned with the exposure locked: play with it locked too
        source.close()
        source = reopen(profile.exposure)
    return profile, source, None


def _recording(app, folder: Path, profile_path: Path | None) -> bool:
    """Whether the table's recorder could start in `folder` (said if not: before the table starts)."""
    from appliance.recording import Recorder

    try:
        app.recorder = Recorder(folder, profile_path)
    except OSError as error:  # a read-only folder, a full disk
        print(f"dicetable record: cannot record to {folder} ({error})", file=sys.stderr)
        return False
    print(f"dicetable: recording to {folder}", flush=True)
    return True


def _play(app, source, panel) -> int:
    """The loop until the window is closed or the service stopped; the camera, buttons and recording closed."""
    systemd_notify.ready(PLAYING)
    try:
        app.run(keep_going=window_open)  # SDL turns SIGTERM (systemctl stop) into a QUIT event, screen or not
    finally:
        systemd_notify.stopping()
        if app.recorder:
            try:
                app.recorder.close()
            except OSError as error:
                print(f"dicetable: the recording's labels.json could not be written ({error})", file=sys.stderr)
        source.close()
        panel.close()
    return 0


def for_the_screen(notes: list[str]) -> str:
    """The first notes, and how many more there are, where the player sees them."""
    more = len(notes) - NOTES_SHOWN
    if more <= 0:
        return "; ".join(notes)
    return "; ".join(notes[:NOTES_SHOWN]) + f"; and {more} more: `dicetable doctor` lists them"


def _report(status: str) -> None:
    """The camera lost or back: `systemctl status` shows the latest, the journal keeps every one."""
    systemd_notify.status(status)
    print(f"dicetable: {status}", flush=True)
