"""`dicetable doctor`: what camera, buttons, display and calibration this machine has, and how to fix the rest."""

from __future__ import annotations

import argparse
import json
import platform
from dataclasses import dataclass, field

from appliance.words import count

HELP = (
    "List the camera, buttons, display, settings and calibration found here, and how to fix what is missing "
    "(exit status 1 when the table cannot run without a part that is missing)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--settings", metavar="FILE", help="settings file to check (default: the one the table would use)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")


@dataclass
class Part:
    name: str
    ok: bool
    findings: list = field(default_factory=list)  # hardware.probe.Finding


def examine(settings_path: str | None = None) -> dict:
    """Everything the doctor knows, as plain data (the text and the JSON are both made from this)."""
    from appliance.settings import ENV_VAR, SEARCH_PATH, find_settings_file, load_settings
    from hardware.probe import Finding, pi_model, probe_cameras, probe_display, probe_gpio

    settings, warnings = load_settings(settings_path)
    named = settings_path or find_settings_file()  # the file load_settings tried, if any
    fix = "correct the keys named in the warnings; each of them runs with its default meanwhile"
    if settings.file:
        source = str(settings.file)
    elif named:  # missing, a folder or not TOML: the warning says which
        source = f"{named} could not be used (the warning below says why): the built-in defaults are used"
        fix = f"make {named} a readable TOML settings file, or name another one"
    else:
        source = f"built-in defaults (no file at ${ENV_VAR}, {', '.join(SEARCH_PATH)})"
    settings_part = Part(
        "settings",
        not warnings,
        [Finding("settings", not warnings, f"{source}; {count(len(warnings), 'warning')}", fix if warnings else "")],
    )
    parts = [
        settings_part,
        _camera_part(settings, probe_cameras(settings.camera.picamera_number, settings.camera.device)),
        Part("buttons", *_one(probe_gpio())),
        Part("display", *_one(probe_display(settings.display.mode))),
        _calibration_part(settings.calibration_profile, settings.camera.size, Finding),
    ]
    model = pi_model()
    # what the table cannot run without, as these settings have it: a camera and its calibration always, a
    # screen unless display.mode is "dummy", the GPIO buttons on a Pi unless the touchscreen's replace them
    needed = (
        {"camera", "calibration"}
        | ({"display"} if settings.display.mode != "dummy" else set())
        | ({"buttons"} if model and not settings.buttons.touch else set())
    )
    return {
        "machine": model or f"not a Raspberry Pi ({platform.system()} {platform.machine()})",
        "parts": [{"part": p.name, "ok": p.ok, "findings": [f.as_dict() for f in p.findings]} for p in parts],
        "warnings": warnings,
        "ready": [p.name for p in parts if p.ok],
        "missing": [p.name for p in parts if not p.ok],
        "needed_missing": [p.name for p in parts if not p.ok and p.name in needed],
    }


def _one(finding) -> tuple:
    return finding.ok, [finding]


def _camera_part(settings, findings) -> Part:
    """Which finding decides depends on camera.source; a replay needs its folder, not a camera."""
    from hardware.probe import Finding
    from hardware.replay import RecordingError, load_recording

    source = settings.camera.source
    if source == "replay":
        folder = settings.camera.replay_folder
        try:
            recording = load_recording(folder) if folder else None
        except RecordingError as error:
            return Part(
                "camera",
                False,
                [Finding("replay", False, str(error), "set camera.replay_folder to a recorded-throw folder")],
            )
        if recording is None:
            return Part(
                "camera",
                False,
                [
                    Finding(
                        "replay",
                        False,
                        'camera.source is "replay" but camera.replay_folder is empty',
                        "set camera.replay_folder to a recorded-throw folder",
                    )
                ],
            )
        return Part("camera", True, [Finding("replay", True, f"{folder}: {count(len(recording.frames), 'frame')}")])
    wanted = {"picamera": ("Pi camera",), "usb": ("USB camera",), "auto": ("Pi camera", "USB camera")}[source]
    relevant = [f for f in findings if f.part in wanted]
    return Part("camera", any(f.ok for f in relevant), relevant)


def _calibration_part(profile, camera_size, Finding) -> Part:
    from calibration.profile import ProfileError, ProfileMissing, load_profile, size_problem

    fix = f"put the camera above the tray and run `dicetable calibrate` (the profile goes to {profile})"
    try:
        found = load_profile(profile)  # what the table itself would load: a readable file is not enough
    except ProfileMissing:
        return Part("calibration", False, [Finding("calibration", False, f"no profile at {profile}", fix)])
    except ProfileError as error:
        return Part("calibration", False, [Finding("calibration", False, str(error), fix)])
    if problem := size_problem(found.frame_size, camera_size):  # the table would not read a single frame
        return Part("calibration", False, [Finding("calibration", False, f"profile {profile}: {problem}")])
    return Part("calibration", True, [Finding("calibration", True, f"profile {profile}: {found.summary()}")])


def render(report: dict) -> str:
    lines = [f"dicetable doctor: {report['machine']}", ""]
    for part in report["parts"]:
        for i, finding in enumerate(part["findings"]):
            label = f"{part['part']:<12}{'ok' if part['ok'] else 'MISSING':<9}" if i == 0 else " " * 21
            lines.append(
                f"{label}{'' if finding['part'] == part['part'] else finding['part'] + ': '}{finding['found']}"
            )
            if finding["fix"] and not finding["ok"]:
                lines.append(f"{'':21}fix: {finding['fix']}")
    lines += [f"  warning: {w}" for w in report["warnings"]]
    ready, missing = report["ready"], report["missing"]
    lines += [
        "",
        f"summary: {len(ready)} of {len(ready) + len(missing)} ready"
        + (f" ({', '.join(ready)})" if ready else "")
        + (f"; missing: {', '.join(missing)}" if missing else "; everything is in place"),
    ]
    if report["needed_missing"]:
        lines.append(f"the table cannot run without: {', '.join(report['needed_missing'])} (exit status 1)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    report = examine(args.settings)
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 1 if report["needed_missing"] else 0  # 1: a script (or the installer) sees that the table cannot run
