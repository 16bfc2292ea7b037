"""A tray profile: what `dicetable calibrate` measured, in a TOML file with the empty-tray picture beside it.

    profile = load_profile(path)          # raises ProfileError naming the file and the problem
    vision.read(frame, profile.to_tray_calibration())
    PiCamera(..., **profile.exposure.controls())   # when the exposure was locked
    save_profile(profile, path)           # writes path and <stem>.empty.png beside it

The file (all pixel values in frame pixels of `frame_size`):

    version = 1
    frame_size = [1280, 720]
    created = "2024-05-01T20:15:00"
    checked = true                        # a test throw was read and confirmed
    [tray]
    corners = [[x, y], [x, y], [x, y], [x, y]]     # clockwise from top-left, keep zone included
    [keep]                                # absent: no keep zone
    corners = [[x, y], ...]
    [dice]
    die_px = 56.2                         # edge of a die's top face
    [camera]                              # keys absent: left automatic
    exposure_us = 16000
    analogue_gain = 2.0
    colour_gains = [1.9, 1.6]             # red, blue
    [empty]
    picture = "calibration.empty.png"     # relative to this file's folder

The appliance never runs on a profile it cannot read: every check that fails raises ProfileError.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from appliance.base.errors import DiceTableError
from appliance.base.files import NotToml, read_toml, write_atomically

VERSION = 1
LIMITS = {  # key: (lowest, highest, what it is)
    "exposure_us": (1, 10_000_000, "microseconds"),
    "analogue_gain": (1.0, 64.0, "times"),
    "colour_gains": (0.1, 32.0, "times"),
}
CORNER_SLACK = 2.0  # px a keep corner may lie outside the tray (rounding when nudged)
MIN_DIE_PX = 8.0  # a smaller die has too few pixels to read (the finders learned dice of 8 px and up)


def biggest_die_px(width: int, height: int) -> float:
    """The biggest die a picture of this size can be calibrated to: at least three dice across it."""
    return min(width, height) / 3


def size_problem(calibrated: tuple[int, int], actual: tuple[int, int]) -> str:
    """What is wrong, and the fix, when a profile made on pictures of `calibrated` (width, height) meets camera
    pictures of `actual`; "" when the sizes match. The profile's corners and die size are in its own pictures'
    pixels: on others they would land in the wrong places, so the table reads none."""
    if tuple(calibrated) == tuple(actual):
        return ""
    (w, h), (actual_w, actual_h) = calibrated, actual
    return (
        f"the tray was calibrated on {w}x{h} pictures but the camera's are {actual_w}x{actual_h}: "
        f"set camera.size = [{w}, {h}] or run `dicetable calibrate` again"
    )


class ProfileError(DiceTableError, ValueError):
    """A profile that cannot be used; str() names the file and the problem."""

    def __init__(self, path: Path | str, problem: str):
        self.path, self.problem = Path(path), problem
        super().__init__(f"calibration profile {path}: {problem}")


class ProfileMissing(ProfileError):
    """No profile at that path yet: the wizard should be offered, no damage to report."""


@dataclass(frozen=True)
class Exposure:
    """Locked camera settings, as picamera2 reports and takes them."""

    exposure_us: int
    analogue_gain: float
    colour_gains: tuple[float, float] | None = None  # red, blue; None: white balance stays automatic

    def controls(self) -> dict:
        """Keyword arguments for hardware.frames.PiCamera that lock these settings."""
        return {"exposure_us": self.exposure_us, "analogue_gain": self.analogue_gain, "colour_gains": self.colour_gains}


@dataclass(frozen=True)
class Profile:
    frame_size: tuple[int, int]
    tray: np.ndarray
    die_px: float
    empty: np.ndarray = field(repr=False)
    keep: np.ndarray | None = None
    exposure: Exposure | None = None
    created: str = ""
    checked: bool = False
    path: Path | None = None

    def to_tray_calibration(self):
        from vision.types import TrayCalibration

        keep = None if self.keep is None else self.keep.copy()
        return TrayCalibration(
            tray=self.tray.copy(), keep=keep, die_px=self.die_px, empty=self.empty, frame_size=self.frame_size
        )

    def summary(self) -> str:
        keep = "a keep zone" if self.keep is not None else "no keep zone"
        camera = (
            f"exposure {self.exposure.exposure_us} µs at gain {self.exposure.analogue_gain:g}"
            if self.exposure
            else "automatic exposure"
        )
        check = "test throw confirmed" if self.checked else "no test throw confirmed"
        return (
            f"{self.frame_size[0]}x{self.frame_size[1]}, tray with {keep}, die {self.die_px:.1f} px, {camera}, {check}"
        )

    def with_(self, **changes) -> Profile:
        return replace(self, **changes)


def empty_picture_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.empty.png")


# -- loading ----------------------------------------------------------------------------------------


def load_profile(path: str | Path) -> Profile:
    path = Path(path).expanduser()
    try:
        raw = read_toml(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise ProfileMissing(path, "no profile here yet; run `dicetable calibrate`") from None
    except NotToml as error:
        raise ProfileError(path, f"not valid TOML ({error})") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ProfileError(path, f"cannot be read ({error})") from None
    if key := _too_big(raw):  # no size, corner or camera setting is one; math.isfinite() and float() fail on it
        raise ProfileError(path, f"{key} holds a number too big for a float")
    check = _Checker(path, raw)
    version = check.get("version", int)
    if version != VERSION:
        check.fail(f"version = {version} is not a profile version this program knows (it reads {VERSION})")
    size = check.numbers("frame_size", 2, whole=True)
    if not all(16 <= v <= 20000 for v in size):
        check.fail(f"frame_size = {list(size)} is not a picture size (two whole numbers of pixels)")
    size = (int(size[0]), int(size[1]))
    tray = check.polygon("tray.corners", size)
    keep = check.polygon("keep.corners", size) if "keep" in raw else None
    if keep is not None:
        outside = [tuple(map(float, p)) for p in keep if _outside(tray, p) > CORNER_SLACK]
        if outside:
            check.fail(f"keep.corners {outside} lie outside the tray's corners")
    die_px = check.number("dice.die_px")
    if not MIN_DIE_PX <= die_px <= biggest_die_px(*size):
        check.fail(
            f"dice.die_px = {die_px:g} is not a die's size in a {size[0]}x{size[1]} picture "
            f"({MIN_DIE_PX:g} to {biggest_die_px(*size):g} pixels)"
        )
    exposure = _exposure(check) if "camera" in raw else None
    picture = path.parent / check.get("empty.picture", str)
    empty = _read_picture(path, picture, size)
    created = raw.get("created", "")
    checked = raw.get("checked", False)
    if not isinstance(created, str) or not isinstance(checked, bool):
        check.fail("created must be a string and checked true or false")
    return Profile(size, tray, die_px, empty, keep, exposure, created, checked, path)


def _too_big(value: Any, key: str = "") -> str:
    """The key of the first integer too big for a float in a TOML value, "" if none."""
    if isinstance(value, dict):
        return next(filter(None, (_too_big(v, f"{key}.{k}".lstrip(".")) for k, v in value.items())), "")
    if isinstance(value, list):
        return next(filter(None, (_too_big(v, key) for v in value)), "")
    return key if isinstance(value, int) and abs(value) > sys.float_info.max else ""


class _Checker:
    """Reads dotted keys out of the TOML table; every problem becomes a ProfileError naming the key."""

    def __init__(self, path: Path, raw: dict):
        self.path, self.raw = path, raw

    def fail(self, problem: str):
        raise ProfileError(self.path, problem)

    def get(self, key: str, kind: type) -> Any:
        value: Any = self.raw
        for part in key.split("."):
            if not isinstance(value, dict) or part not in value:
                self.fail(f"{key} is missing")
            value = value[part]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            self.fail(f"{key} = {value!r} is not {_KINDS[kind]}")
        return value

    def number(self, key: str) -> float:
        value: Any = self.raw
        for part in key.split("."):
            if not isinstance(value, dict) or part not in value:
                self.fail(f"{key} is missing")
            value = value[part]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.fail(f"{key} = {value!r} is not a number")
        return float(value)

    def numbers(self, key: str, count: int, whole: bool = False) -> list:
        value = self.get(key, list)
        good = len(value) == count and all(
            isinstance(v, int if whole else (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in value
        )
        if not good:
            self.fail(f"{key} = {value!r} is not a list of {count} {'whole numbers' if whole else 'numbers'}")
        return value

    def polygon(self, key: str, size: tuple[int, int]) -> np.ndarray:
        value = self.get(key, list)
        ok = len(value) == 4 and all(
            isinstance(p, list)
            and len(p) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in p)
            for p in value
        )
        if not ok:
            self.fail(f"{key} must be four [x, y] corners in pixels")
        corners = np.float32(value)
        w, h = size
        if (corners < 0).any() or (corners[:, 0] > w).any() or (corners[:, 1] > h).any():
            self.fail(f"{key} {value} reach outside the {w}x{h} picture")
        if not convex(corners) or _area(corners) < 0.01 * w * h:
            self.fail(f"{key} {value} are not the corners of a four-sided area in order (clockwise, no crossing)")
        return corners


_KINDS = {int: "a whole number", str: "a string", list: "a list", float: "a number", dict: "a table"}


def _exposure(check: _Checker) -> Exposure:
    exposure_us = check.get("camera.exposure_us", int)
    gain = check.number("camera.analogue_gain")
    gains = None
    if "colour_gains" in check.raw["camera"]:
        gains = tuple(float(v) for v in check.numbers("camera.colour_gains", 2))
    for key, value in (
        ("exposure_us", exposure_us),
        ("analogue_gain", gain),
        *(("colour_gains", g) for g in gains or ()),
    ):
        low, high, unit = LIMITS[key]
        if not low <= value <= high:
            check.fail(f"camera.{key} = {value:g} is out of range ({low:g} to {high:g} {unit})")
    return Exposure(int(exposure_us), float(gain), gains)


def _read_picture(profile: Path, picture: Path, size: tuple[int, int]) -> np.ndarray:
    from appliance.base.images import read_picture  # it loads OpenCV, which a profile without a picture needs not

    if not picture.is_file():
        raise ProfileError(profile, f"the empty-tray picture {picture} is missing")
    image = read_picture(picture)
    if image is None:
        raise ProfileError(profile, f"the empty-tray picture {picture} cannot be read (damaged?)")
    if (image.shape[1], image.shape[0]) != size:
        raise ProfileError(
            profile,
            f"the empty-tray picture {picture} is {image.shape[1]}x{image.shape[0]}, "
            f"not the profile's {size[0]}x{size[1]}",
        )
    return image


def _area(corners: np.ndarray) -> float:
    x, y = corners[:, 0], corners[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def convex(corners: np.ndarray) -> bool:
    """Clockwise on screen (y down) and convex: every turn goes the same way."""
    edges = np.roll(corners, -1, axis=0) - corners
    turns = edges[:, 0] * np.roll(edges[:, 1], -1) - edges[:, 1] * np.roll(edges[:, 0], -1)
    return bool((turns > 0).all())


def _outside(polygon: np.ndarray, point) -> float:
    """How far (px) a point lies outside a convex polygon; 0 or less inside."""
    import cv2

    return -cv2.pointPolygonTest(polygon.reshape(-1, 1, 2), (float(point[0]), float(point[1])), True)


# -- saving -----------------------------------------------------------------------------------------


def save_profile(profile: Profile, path: str | Path) -> Path:
    """Writes the picture, then the TOML, each through a temporary file, so a power cut while saving
    leaves the previous profile whole. Returns the path written."""
    import cv2

    path = Path(path).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    picture = empty_picture_path(path)
    ok, png = cv2.imencode(".png", profile.empty)
    if not ok:
        raise ProfileError(path, "the empty-tray picture could not be encoded as PNG")
    write_atomically(picture, png.tobytes())
    write_atomically(path, profile_toml(profile, picture.name).encode("utf-8"))
    return path


def profile_toml(profile: Profile, picture_name: str) -> str:
    w, h = profile.frame_size
    lines = [
        "# The dice table: tray profile written by `dicetable calibrate`. Run it again rather than editing;",
        "# pixel values are in frames of frame_size, corners clockwise from the top-left.",
        f"version = {VERSION}",
        f"frame_size = [{w}, {h}]",
        f'created = "{profile.created}"',
        f"checked = {'true' if profile.checked else 'false'}",
        "",
        "[tray]",
        f"corners = {_corners(profile.tray)}",
    ]
    if profile.keep is not None:
        lines += ["", "[keep]", f"corners = {_corners(profile.keep)}"]
    lines += ["", "[dice]", f"die_px = {profile.die_px:.2f}"]
    if profile.exposure is not None:
        e = profile.exposure
        lines += ["", "[camera]", f"exposure_us = {int(e.exposure_us)}", f"analogue_gain = {e.analogue_gain:.4g}"]
        if e.colour_gains is not None:
            lines.append(f"colour_gains = [{e.colour_gains[0]:.4g}, {e.colour_gains[1]:.4g}]")
    lines += ["", "[empty]", f'picture = "{picture_name}"', ""]
    return "\n".join(lines)


def _corners(corners: np.ndarray) -> str:
    return "[" + ", ".join(f"[{x:.1f}, {y:.1f}]" for x, y in np.asarray(corners, float)) + "]"
