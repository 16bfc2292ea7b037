"""`dicetable calibrate`: the calibration wizard on the screen, driven by the buttons with the camera live.

    dicetable calibrate                       the camera, buttons and display of the settings
    dicetable calibrate --check               is the profile there and usable? (exit 0 yes, 1 no)
    dicetable calibrate --source synthetic --display window     try it on a desktop with a drawn tray
    dicetable calibrate --source synthetic --display dummy --script "OK,OK long,OK,1:OK,2:OK,OK long,OK"
                                              the same with scripted presses (N:PRESS waits until second N)

The wizard itself is calibration.wizard, its loop appliance/wizard_loop.py.
"""

from __future__ import annotations

import argparse

from hardware.display import MODES

from . import output_folder, user_path

HELP = "Set up the tray: find it and its keep zone, lock the camera, learn the empty tray and the die size."

SOURCES = ("settings", "picamera", "usb", "replay", "synthetic")
SCRIPT_FORMAT = (
    'presses separated by commas, e.g. "OK,OK long,NEXT,2.5:OK" (the buttons are PREV, NEXT, OK and '
    "BACK; T:PRESS waits until T seconds after the start)"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--settings", metavar="FILE", help="settings file (default: the one the table uses)")
    parser.add_argument(
        "--profile",
        type=user_path,
        metavar="FILE",
        help="where the profile goes (default: calibration.profile of the settings)",
    )
    parser.add_argument(
        "--check", action="store_true", help="only check the profile: say what it holds or what is wrong with it"
    )
    parser.add_argument(
        "--source",
        choices=SOURCES,
        default="settings",
        help="where frames come from (default: camera.source of the settings); synthetic: a "
        "drawn tray, to try the wizard without a camera",
    )
    parser.add_argument("--replay", metavar="FOLDER", help="recorded-throw folder for --source replay")
    parser.add_argument("--display", choices=MODES, help="display mode (default: display.mode of the settings)")
    parser.add_argument(
        "--script",
        type=_script,
        metavar="PRESSES",
        help=f"play these presses instead of reading buttons: {SCRIPT_FORMAT}",
    )
    parser.add_argument(
        "--screenshots", type=output_folder, metavar="DIR", help="save a PNG of the screen at each step"
    )


def run(args: argparse.Namespace) -> int:
    from appliance.wizard_loop import calibrate

    return calibrate(
        args.settings,
        args.profile,
        check=args.check,
        source=args.source,
        replay=args.replay,
        display_mode=args.display,
        script=args.script,
        screenshots=args.screenshots,
    )


def parse_script(script: str) -> list:
    """'OK, OK long, 2.5:NEXT' -> [Press OK, Press OK long, (2.5, Press NEXT)]; a ValueError names a bad entry."""
    from hardware.buttons import Press

    steps = []
    for entry in filter(None, (e.strip() for e in script.split(","))):
        at, _, text = entry.rpartition(":")
        try:
            press = Press.parse(text)
            if str(press).lower() != " ".join(text.split()).lower():  # "OK twice" would pass as a short OK
                raise ValueError(text)
            steps.append((float(at), press) if at else press)
        except ValueError:
            raise ValueError(f"{entry!r} is not a press: give {SCRIPT_FORMAT}") from None
    return steps


def _script(text: str) -> list:
    try:
        return parse_script(text)
    except ValueError as error:  # argparse shows an ArgumentTypeError's own words
        raise argparse.ArgumentTypeError(str(error)) from None
