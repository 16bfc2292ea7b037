"""The settings file: TOML, read with tomllib, checked key by key into typed settings.

The defaults and their documentation live in one place, default_settings.toml beside this module; this
module holds what each key allows. A wrong value never stops the table: that key keeps its default and a
warning names the file, the key, the value and what is allowed. A file that is not valid TOML gives a
warning with its line; the tables of it that can be read alone are used, the others take the defaults.

Where the file is looked for: $DICETABLE_SETTINGS, ~/.config/dicetable/settings.toml,
/etc/dicetable/settings.toml; none of them: the built-in defaults.

One module over 400 lines on purpose: a key's rule, its typed setting and its checks are what a new key changes.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.base.files import NotToml, read_toml
from appliance.games import GAME_IDS, MAX_PLAYERS
from appliance.games.variants import VARIANTS, VariantError, resolve
from appliance.words import plainly
from hardware.display import MODES as DISPLAY_MODES

BUTTON_KEYS = ("prev", "next", "ok", "back")  # [buttons.pins] keys; the panel's buttons are these in capitals
DEFAULT_FILE = Path(__file__).with_name("default_settings.toml")
SEARCH_PATH = ("~/.config/dicetable/settings.toml", "/etc/dicetable/settings.toml")
ENV_VAR = "DICETABLE_SETTINGS"


# -- what each key allows ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    check: Callable[[Any], Any]  # returns the value as the settings hold it, raises ValueError if not allowed
    allowed: str  # said in the warning
    # for a value refused whole: what of it can still be kept, and what was left out (None: nothing, the default)
    salvage: Callable[[Any], tuple[Any, str] | None] = lambda value: None


def _rule(allowed: str, ok: Callable[[Any], bool], convert: Callable[[Any], Any] = lambda v: v) -> Rule:
    def check(value: Any) -> Any:
        if not ok(value):
            raise ValueError(allowed)
        return convert(value)

    return Rule(check, allowed)


SHOWN = 80  # characters of a value a warning shows: a value of megabytes must not fill the journal
SHOWN_ITEMS = 8  # a longer list is shown cut, with its length


def _show(value: Any) -> str:
    """A value as it would be written in the TOML file, a long list cut short and the whole cut after SHOWN
    characters."""
    if isinstance(value, list) and len(value) > SHOWN_ITEMS:
        return _show(value[:SHOWN_ITEMS])[:-1] + f", … ({len(value)} in all)]"
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except TypeError:
        shown = str(value)
    except ValueError:  # an integer of more than 4300 digits, which Python does not write out
        return "(a number too long to show)"
    shown = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in shown)  # an invisible character, seen
    return shown if len(shown) <= SHOWN else f"{shown[:SHOWN]}… ({len(shown):,} characters)"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # TOML true is not a number


def one_of(*choices: Any) -> Rule:
    return _rule(
        "one of " + ", ".join(_show(c) for c in choices), lambda v: any(type(v) is type(c) and v == c for c in choices)
    )


def integer(low: int, high: int) -> Rule:
    return _rule(f"a whole number from {low} to {high}", lambda v: _is_int(v) and low <= v <= high)


def number(low: float, high: float) -> Rule:
    return _rule(
        f"a number from {low:g} to {high:g}", lambda v: (_is_int(v) or isinstance(v, float)) and low <= v <= high, float
    )


def boolean() -> Rule:
    return _rule("true or false", lambda v: isinstance(v, bool))


def size(low: tuple[int, int], high: tuple[int, int]) -> Rule:
    def ok(v: Any) -> bool:
        return (
            isinstance(v, list)
            and len(v) == 2
            and all(_is_int(n) and n % 2 == 0 for n in v)
            and low[0] <= v[0] <= high[0]
            and low[1] <= v[1] <= high[1]
        )

    return _rule(f"[width, height] in even pixels from {low[0]}x{low[1]} to {high[0]}x{high[1]}", ok, tuple)


def file_path(allowed: str, empty: bool = True) -> Rule:
    """A path; one starting with ~NAME must name a user of this machine."""

    def ok(v: Any) -> bool:
        return isinstance(v, str) and "\0" not in v and (empty or v.strip() != "") and not _names_no_user(v)

    return _rule(allowed, ok)


def expanded(value: str | Path) -> Path | None:
    """~ and ~NAME expanded; None when NAME is no user here (or there is no home to expand ~ to)."""
    try:
        return Path(value).expanduser()
    except RuntimeError:
        return None


def _names_no_user(value: str) -> bool:
    head = value.split("/", 1)[0]
    return head.startswith("~") and head != "~" and expanded(value) is None


def device() -> Rule:
    return _rule(
        "a camera index (0, 1, ...), a device path or a video file",
        lambda v: (_is_int(v) and v >= 0) or (isinstance(v, str) and "\0" not in v and v.strip() != ""),
    )


PIN_NAME = re.compile(r"^(GPIO|BCM|BOARD|J8:|WPI)?(\d+)$", re.IGNORECASE)
# The 40-pin header's physical pins that carry a GPIO (gpiozero's "BOARD29" or "J8:29") and its BCM number.
HEADER_BCM = {
    3: 2,
    5: 3,
    7: 4,
    8: 14,
    10: 15,
    11: 17,
    12: 18,
    13: 27,
    15: 22,
    16: 23,
    18: 24,
    19: 10,
    21: 9,
    22: 25,
    23: 11,
    24: 8,
    26: 7,
    27: 0,
    28: 1,
    29: 5,
    31: 6,
    32: 12,
    33: 13,
    35: 19,
    36: 16,
    37: 26,
    38: 20,
    40: 21,
}
BUTTON_GPIOS = range(2, 28)  # GPIO 0 and 1 are the header's ID EEPROM pins, and no Pi header has GPIO 28 or more


def _pin_id(value: int | str) -> str | None:
    """One spelling per pin (5, "GPIO5", "BCM5", "BOARD29" and "J8:29" are the same pin), None for a name
    that is none (a header pin without a GPIO a button may use); wiringPi numbers stay as written."""
    text = str(value).strip().upper()
    match = PIN_NAME.match(text)
    if not match:
        return None
    scheme, number = match.group(1) or "BCM", int(match.group(2))
    if scheme == "WPI":
        return text
    gpio = HEADER_BCM.get(number) if scheme in ("BOARD", "J8:") else number
    return f"BCM{gpio}" if gpio in BUTTON_GPIOS else None


def pin() -> Rule:
    return _rule(
        'a BCM GPIO number from 2 to 27, or a gpiozero pin name such as "GPIO5" or "BOARD29"',
        lambda v: (_is_int(v) or isinstance(v, str)) and _pin_id(v) is not None,
    )


def player_names(most: int = MAX_PLAYERS, longest: int = 20) -> Rule:
    def good(n: Any) -> bool:  # the screen must be able to draw it
        return isinstance(n, str) and 1 <= len(n.strip()) <= longest and n.strip().isprintable()

    def ok(v: Any) -> bool:  # the games tell players apart by name
        return (
            isinstance(v, list)
            and 1 <= len(v) <= most
            and all(good(n) for n in v)
            and len({n.strip() for n in v}) == len(v)
        )

    def salvage(v: Any) -> tuple[tuple[str, ...], str] | None:
        """The good names, each once and at most `most` of them, if any: one bad name costs only itself."""
        if not isinstance(v, list):
            return None
        kept: list[str] = []
        left_out: list[Any] = []
        for n in v:
            if good(n) and n.strip() not in kept and len(kept) < most:
                kept.append(n.strip())
            else:
                left_out.append(n)
        return (tuple(kept), f"left out {_show(left_out)[1:-1]}") if kept else None

    allowed = (
        f"a list of 1 to {most} names, each its own, of 1 to {longest} characters, "
        "none of them invisible or a control character"
    )
    return Rule(_rule(allowed, ok, lambda v: tuple(n.strip() for n in v)).check, allowed, salvage)


def variant(game: str, key: str, allowed: str) -> Rule:
    def check(value: Any) -> Any:
        try:
            return resolve(game, {key: value})[key]
        except VariantError:
            raise ValueError(allowed) from None

    return Rule(check, allowed)


RULES: dict[str, Rule] = {
    "camera.source": one_of("auto", "picamera", "usb", "replay"),
    "camera.picamera_number": integer(0, 1),
    "camera.device": device(),
    "camera.replay_folder": file_path('a folder path (or "" for none), with ~NAME only for a user of this machine'),
    "camera.size": size((320, 240), (4056, 3040)),
    "camera.small_size": size((64, 48), (1280, 960)),
    "camera.fps": number(1, 120),
    "buttons.long_press_s": number(0.3, 5),
    "buttons.debounce_s": number(0, 0.2),
    "buttons.pull_up": boolean(),
    "buttons.touch": boolean(),
    **{f"buttons.pins.{key}": pin() for key in BUTTON_KEYS},
    "display.mode": one_of(*DISPLAY_MODES),
    "display.size": size((320, 240), (3840, 2160)),
    "calibration.profile": file_path("a file path, with ~NAME only for a user of this machine", empty=False),
    "players.names": player_names(),
    "game.default": one_of(*GAME_IDS),
    "game.advice": one_of("off", "ask", "show"),
    # each game's variants, checked by the rules' own parser
    **{f"games.{game}.{v.key}": variant(game, v.key, v.allowed) for game, vs in VARIANTS.items() for v in vs},
}


# -- the typed settings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CameraSettings:
    source: str
    picamera_number: int
    device: int | str
    replay_folder: Path | None
    size: tuple[int, int]
    small_size: tuple[int, int]
    fps: float


@dataclass(frozen=True)
class ButtonSettings:
    pins: Mapping[str, int | str]  # {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}, as GpioPanel takes them
    long_press_s: float
    debounce_s: float
    pull_up: bool
    touch: bool  # also four soft buttons along the bottom of a touchscreen


@dataclass(frozen=True)
class DisplaySettings:
    mode: str
    size: tuple[int, int]


@dataclass(frozen=True)
class GameSettings:
    default: str
    variants: Mapping[str, Mapping[str, Any]]  # game id -> {variant key: value}, for the rules to apply
    advice: str = "ask"  # the advisor: "off", "ask" (from the menu) or "show" (all the time)


@dataclass(frozen=True)
class Settings:
    camera: CameraSettings
    buttons: ButtonSettings
    display: DisplaySettings
    calibration_profile: Path
    players: tuple[str, ...]
    game: GameSettings
    file: Path | None = None  # the file these came from; None: the built-in defaults


# -- loading ----------------------------------------------------------------------------------------


def flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"camera": {"fps": 30}} -> {"camera.fps": 30}; lists, other values and a setting whose value is a table
    (games.hexakubus.slam = {21 = 12}) are leaves."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and name not in RULES:
            flat |= flatten(value, name + ".")
        else:
            flat[name] = value
    return flat


def _written_defaults() -> dict[str, Any]:
    """The defaults as default_settings.toml writes them (slam = "none", where the rules make {} of it)."""
    return flatten(read_toml(DEFAULT_FILE.read_text(encoding="utf-8")))


WRITTEN_DEFAULTS = _written_defaults()
DEFAULTS = {key: RULES[key].check(value) for key, value in WRITTEN_DEFAULTS.items()}


def find_settings_file(env: Mapping[str, str] | None = None) -> Path | None:
    """$DICETABLE_SETTINGS (even when missing, so the warning says so), else the first file of SEARCH_PATH."""
    env = os.environ if env is None else env
    if env.get(ENV_VAR):
        return expanded(env[ENV_VAR]) or Path(env[ENV_VAR])  # ~NAME of no user: not found, and said so
    return next((path for path in map(expanded, SEARCH_PATH) if path and path.is_file()), None)


def default_settings() -> Settings:
    """The built-in settings (appliance/default_settings.toml), whatever files the machine has."""
    return _build(dict(DEFAULTS), None)


def load_settings(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> tuple[Settings, list[str]]:
    """The settings from `path` (default: found by find_settings_file) and the warnings to show."""
    path = (expanded(path) or Path(path)) if path is not None else find_settings_file(env)
    if path is None:
        return default_settings(), []
    lost: list[str] = []  # what a broken file loses
    try:
        if path.exists() and not path.is_file():  # a folder, a named pipe (reading one would wait forever)
            return default_settings(), [f"settings file {path} is not a file; using the built-in defaults"]
        text = path.read_bytes().decode("utf-8")
        raw = read_toml(text)
    except FileNotFoundError:
        return default_settings(), [f"settings file {path} not found; using the built-in defaults"]
    except NotToml as error:
        where = f" (the file ends at line {text.count(chr(10)) + 1})" if "end of document" in str(error) else ""
        raw, broken = _readable_tables(text)
        if not raw:
            return default_settings(), [
                f"settings file {path} is not valid TOML: {error}{where}; using the built-in defaults"
            ]
        kept = (
            f"the built-in defaults for {', '.join(broken)}, the rest of the file as written"
            if broken
            else "each [table] read on its own, a later one over an earlier one"
        )  # a table given twice, say
        lost = [f"settings file {path} is not valid TOML: {error}{where}; {kept}"]
    except (OSError, UnicodeDecodeError) as error:
        return default_settings(), [
            f"settings file {path} cannot be read ({plainly(error)}); using the built-in defaults"
        ]
    values, warnings = check_values(flatten(raw))
    return _build(values, path), lost + [f"settings {path}: {w}" for w in warnings]


TABLE_HEADER = re.compile(r"\s*\[\[?\s*[A-Za-z_\"][\w.\-\" ]*\]\]?\s*(#.*)?$")


def _readable_tables(text: str) -> tuple[dict[str, Any], list[str]]:
    """What a broken file still says: each [table] read on its own (one typo must not lose the calibration
    path or the button pins set elsewhere in the file), and the tables that could not be read."""
    chunks, lines = [], []
    for line in text.splitlines(keepends=True):
        if TABLE_HEADER.match(line) and lines:
            chunks.append(lines)
            lines = []
        lines.append(line)
    chunks.append(lines)
    raw: dict[str, Any] = {}
    broken = []
    for chunk in chunks:
        try:
            table = read_toml("".join(chunk))
        except NotToml:
            header = chunk[0].strip() if TABLE_HEADER.match(chunk[0]) else "the keys before the first [table]"
            broken.append(header)
            continue
        for key, value in table.items():  # [a] and later [a.b] both add to table a
            raw[key] = raw[key] | value if isinstance(raw.get(key), dict) and isinstance(value, dict) else value
    return raw, broken


def check_values(given: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Defaults overlaid with each given value its rule allows; a warning for every other one."""
    values, warnings = dict(DEFAULTS), []
    for key, value in given.items():
        rule = RULES.get(key)
        if rule is None:
            problem = _unknown(key)
            warnings.append(f"{key} = {_show(value)} {problem}; ignored")
            continue
        try:
            values[key] = rule.check(value)
        except ValueError:
            salvaged = rule.salvage(value)
            if salvaged:
                values[key], left_out = salvaged
                instead = f"{left_out}, using the rest: {_show(list(values[key]))}"
            else:
                instead = f"using the default {_show(WRITTEN_DEFAULTS[key])}"
            warnings.append(f"{key} = {_show(value)} is not allowed ({rule.allowed}); {instead}")
    warnings += _check_together(values)
    return values, warnings


def _unknown(key: str) -> str:
    """Why an unknown key is wrong."""
    parts = key.split(".")
    if parts[0] == "games" and len(parts) >= 2 and parts[1] not in GAME_IDS:
        return f"names no game (the games are {', '.join(GAME_IDS)})"
    section = key + "."
    if any(known.startswith(section) for known in RULES):
        return f"is not allowed (a [{key}] table)"
    siblings = sorted(k for k in RULES if k.rsplit(".", 1)[0] == key.rsplit(".", 1)[0])
    known = f" (known here: {', '.join(s.rsplit('.', 1)[-1] for s in siblings)})" if siblings else ""
    return f"is not a setting{known}"


def _check_together(values: dict[str, Any]) -> list[str]:
    """Rules between keys; the offending keys fall back to their defaults."""
    warnings = []
    small, full = values["camera.small_size"], values["camera.size"]
    if small[0] > full[0] or small[1] > full[1]:
        values["camera.small_size"] = DEFAULTS["camera.small_size"]
        warnings.append(
            f"camera.small_size = {_show(list(small))} is not allowed (not larger than camera.size "
            f"{_show(list(full))}); using the default {_show(list(DEFAULTS['camera.small_size']))}"
        )
    pin_keys = [f"buttons.pins.{k}" for k in BUTTON_KEYS]
    used: dict[str, str] = {}
    for key in pin_keys:
        pin_id = _pin_id(values[key])
        other = used.setdefault(pin_id, key)
        if other != key:
            warnings.append(
                f"{other} = {_show(values[other])} and {key} = {_show(values[key])} are the same pin "
                f"({pin_id.replace('BCM', 'GPIO')}), which is not allowed (each button needs its own "
                f"pin); using the default pins for all four buttons"
            )
            for k in pin_keys:
                values[k] = DEFAULTS[k]
            break
    return warnings


def _path(value: str, base: Path | None) -> Path:
    """~ expanded; a relative path is relative to the settings file's folder."""
    path = expanded(value) or Path(value)  # the rules let no ~NAME of no user through; a default may have one
    return path if path.is_absolute() or base is None else base.parent / path


def _build(values: Mapping[str, Any], file: Path | None) -> Settings:
    variants: dict[str, dict[str, Any]] = {game: {} for game in GAME_IDS}
    for key, value in values.items():
        if key.startswith("games."):
            _, game, variant = key.split(".", 2)
            variants[game][variant] = value
    return Settings(
        camera=CameraSettings(
            source=values["camera.source"],
            picamera_number=values["camera.picamera_number"],
            device=values["camera.device"],
            replay_folder=_path(values["camera.replay_folder"], file) if values["camera.replay_folder"] else None,
            size=values["camera.size"],
            small_size=values["camera.small_size"],
            fps=values["camera.fps"],
        ),
        buttons=ButtonSettings(
            pins={key.upper(): values[f"buttons.pins.{key}"] for key in BUTTON_KEYS},
            long_press_s=values["buttons.long_press_s"],
            debounce_s=values["buttons.debounce_s"],
            pull_up=values["buttons.pull_up"],
            touch=values["buttons.touch"],
        ),
        display=DisplaySettings(mode=values["display.mode"], size=values["display.size"]),
        calibration_profile=_path(values["calibration.profile"], file),
        players=values["players.names"],
        game=GameSettings(default=values["game.default"], variants=variants, advice=values["game.advice"]),
        file=file,
    )
