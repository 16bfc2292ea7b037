"""One module per `dicetable` subcommand (registered in appliance/cli.py): each a parser and one call into the
library. What several of them parse alike lives here; no command imports another."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from appliance.event_log import DEFAULT_LOG

LOG_HELP = f"the game log (default: {DEFAULT_LOG})"


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """--settings and --log: the settings file and the game log the table plays with (run, record)."""
    parser.add_argument("--settings", type=Path, metavar="FILE", help="the settings file (default: searched)")
    parser.add_argument("--log", type=user_path, metavar="FILE", help=LOG_HELP)


def print_figures(figures: dict, as_json: bool) -> None:
    """A flat dict of measured figures: one JSON line, or one `name: value` line each."""
    if as_json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name}: {value}")


def trust_line(figures: dict, labeled: int) -> str:
    """The trust figures (vision.lab.scoring.Score.trust) of `labeled` dice in a sentence: what the table would do."""
    if not labeled:
        return "no labeled dice read"
    illegible = f", {figures['illegible']} no person can read (right when asked)" if figures["illegible"] else ""
    return (
        f"of {labeled} labeled dice: {figures['right']} right without asking ({figures['right_rate']:.1%}), "
        f"{figures['asked']} asked ({figures['asked_rate']:.1%}), {figures['silent']} read wrong without asking "
        f"({figures['silent_rate']:.1%}), {figures['sure_phantoms']} sure phantoms "
        f"({figures['sure_phantoms_rate']:.1%}){illegible}"
    )


def add_reader_options(parser, kind_help: str = "the dice in the photos: which reader", kind_default="d6") -> None:
    """--kind and --die-px: which reader reads the photos, and at what die size (see `photo_reader`)."""
    parser.add_argument("--kind", default=kind_default, choices=["d6", "d10"], help=kind_help)
    parser.add_argument(
        "--die-px",
        type=_pixels,
        metavar="PX",
        help="the dice's size in pixels, when known. Without it the six-sided reader sizes them "
        "itself (dice of about 1/45 of the photo's long side up to one die filling it); the ten-sided "
        "reader looks with the long side at 320, 160 and 80 px",
    )


def photo_reader(args):
    """frame -> vision.Reading, with the reader for --kind, at the die size --die-px gives (if any)."""
    import vision
    from calibration.profile import biggest_die_px

    def read_bare(frame):
        return vision.read_kind(frame, None, args.kind)

    def read_at_die_size(frame):
        h, w = frame.shape[:2]  # the whole photo is the tray: only the die size is known
        if args.die_px > biggest_die_px(w, h):
            raise ValueError(
                f"--die-px {args.die_px:g} is too big for this {w}x{h} photo: at most "
                f"{biggest_die_px(w, h):g} (a third of its shorter side)"
            )
        return vision.read_kind(frame, vision.TrayCalibration.whole(w, h, args.die_px), args.kind)

    return read_at_die_size if args.die_px else read_bare


def _pixels(text: str) -> float:
    from calibration.profile import MIN_DIE_PX

    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not MIN_DIE_PX <= value < float("inf"):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a die size: give the dice's size in pixels, {MIN_DIE_PX:g} or more, such as 40"
        )
    return value


def user_path(text: str) -> Path:
    """argparse type for a path, ~ and ~NAME expanded: a ~NAME of no user here (~pi on a Pi set up with
    another user name, which the shell leaves as it is) is a usage error, not a traceback."""
    from appliance.settings import expanded

    path = expanded(text)
    if path is None:
        home = text.split("/")[0]
        raise argparse.ArgumentTypeError(
            f"{text}: there is no user {home[1:]} on this machine, so {home} is no home folder"
        )
    return path


def output_folder(text: str) -> Path:
    """argparse type for a folder a command writes into (screens, screenshots, a recording). It is made
    here, while the arguments are read: a file in the way, or a place where no folder can be made, is
    then a usage error before anything runs, not a traceback at the first file written."""
    path = user_path(text)
    try:
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is a file, not a folder: name a new folder or an existing one")
        path.mkdir(parents=True, exist_ok=True)
        if not os.access(path, os.W_OK | os.X_OK):  # there, but closed to this user
            raise PermissionError(13, "Permission denied")
    except OSError as error:  # no permission (to make it, or to enter a folder on the way), no room
        raise argparse.ArgumentTypeError(
            f"cannot make the folder {text} ({error.strerror}): name a folder in a place you can write to"
        ) from None
    return path


def recording_folder(text: str) -> Path:
    """argparse type for the folder a recording goes to: as output_folder, and never one that holds a
    recording already (its frames and labels would be written over)."""
    from appliance.recording import refuse_existing_recording

    path = output_folder(text)
    try:
        refuse_existing_recording(path)
    except FileExistsError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    except OSError as error:  # a folder it may make but not look into
        raise argparse.ArgumentTypeError(f"cannot look into the folder {text} ({error.strerror})") from None
    return path


def read_image(path: str | Path):
    """(the photo as OpenCV reads it, "") or (None, why not). Checked before OpenCV looks, which would
    only print a warning of its own and return nothing."""
    from appliance.base.images import read_picture

    path = Path(path)
    try:
        if path.is_dir():
            return None, "is a folder, not an image"
        if not path.exists():
            return None, "no such file"
    except OSError as error:  # a folder on the way that cannot be entered
        return None, f"cannot be looked at ({error.strerror})"
    if not os.access(path, os.R_OK):
        return None, "cannot be read: no permission"
    if truncated_jpeg(path):  # OpenCV would read the part there is with only libjpeg's own warning
        return None, "is a JPEG cut short (the file ends before the picture does): copy or save it again"
    image = read_picture(path)
    if image is None:
        return None, "not an image OpenCV can read"
    return image, ""


def truncated_jpeg(path: Path) -> bool:
    """A JPEG (it starts with the SOI marker) that does not end with the EOI marker (padding aside)."""
    with open(path, "rb") as file:
        if file.read(2) != b"\xff\xd8":
            return False
        file.seek(max(0, path.stat().st_size - 64))
        return b"\xff\xd9" not in file.read()
