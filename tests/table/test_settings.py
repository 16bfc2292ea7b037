"""The settings file: defaults from the documented file, one warning per wrong value, never a refusal to start."""

import tomllib
from pathlib import Path

import pytest

from appliance.settings import DEFAULT_FILE, DEFAULTS, RULES, find_settings_file, flatten, load_settings


def write(tmp_path, text, name="settings.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_documented_default_file_covers_every_setting_and_each_default_is_allowed():
    with DEFAULT_FILE.open("rb") as f:
        documented = flatten(tomllib.load(f))
    assert set(documented) == set(RULES)
    lines = DEFAULT_FILE.read_text().splitlines()
    for key in RULES:  # a comment right above each key, or above the block of keys it belongs to
        leaf = key.rsplit(".", 1)[-1]
        line = next(i for i, text in enumerate(lines) if text.startswith(f"{leaf} ="))
        while lines[line - 1].split(" =")[0].isidentifier():
            line -= 1
        assert lines[line - 1].startswith("#"), f"{key} is not documented"


def test_no_file_anywhere_gives_the_defaults_and_no_warnings(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("DICETABLE_SETTINGS", raising=False)
    if Path("/etc/dicetable/settings.toml").exists():
        pytest.skip("this machine has /etc/dicetable/settings.toml")
    settings, warnings = load_settings()
    assert warnings == [] and settings.file is None
    assert settings.camera.size == (1280, 720) and settings.camera.source == "auto"
    assert settings.buttons.pins == {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
    assert settings.display.mode == "auto" and settings.display.size == (800, 480)
    assert settings.players == ("Player 1", "Player 2")
    assert settings.game.default == "dice-poker"
    assert settings.game.variants["hexakubus"] == {"wrap": True, "a-bonus": None, "slam": {}}
    assert settings.game.variants["train-wreck"] == {"goal": 1000}
    assert settings.calibration_profile == tmp_path / ".config/dicetable/calibration.toml"


def test_search_order_environment_then_home_then_etc(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".config/dicetable").mkdir(parents=True)
    assert find_settings_file({}) in (None, Path("/etc/dicetable/settings.toml"))
    home_file = write(tmp_path, "", ".config/dicetable/settings.toml")
    assert find_settings_file({}) == home_file
    assert find_settings_file({"DICETABLE_SETTINGS": str(tmp_path / "mine.toml")}) == tmp_path / "mine.toml"
    settings, warnings = load_settings(env={"DICETABLE_SETTINGS": str(tmp_path / "mine.toml")})
    assert warnings == [f"settings file {tmp_path / 'mine.toml'} not found; using the built-in defaults"]


def test_good_values_are_taken_and_paths_are_relative_to_the_file(tmp_path):
    path = write(
        tmp_path,
        """
[camera]
source = "usb"
device = "/dev/video2"
size = [1920, 1080]
fps = 15
replay_folder = "throws/one"
[buttons]
long_press_s = 1
touch = true
[buttons.pins]
ok = "GPIO21"
[display]
mode = "kiosk"
[calibration]
profile = "tray.toml"
[players]
names = ["Ada", " Bo "]
[game]
default = "train-wreck"
[games.train-wreck]
goal = 500
[games.hexakubus]
wrap = false
slam = "21:12,30:10"
""",
    )
    settings, warnings = load_settings(path)
    assert warnings == []
    assert settings.file == path
    assert settings.camera.source == "usb" and settings.camera.device == "/dev/video2"
    assert settings.camera.size == (1920, 1080) and settings.camera.fps == 15.0
    assert settings.camera.replay_folder == tmp_path / "throws/one"
    assert settings.buttons.long_press_s == 1.0 and settings.buttons.pins["OK"] == "GPIO21" and settings.buttons.touch
    assert settings.display.mode == "kiosk"
    assert settings.calibration_profile == tmp_path / "tray.toml"
    assert settings.players == ("Ada", "Bo")
    assert settings.game.default == "train-wreck"
    # variants are checked and parsed by the rules' own variant parser
    assert settings.game.variants == {
        "dice-poker": {},
        "pentakubus": {},
        "hexakubus": {"wrap": False, "a-bonus": None, "slam": {21: 12, 30: 10}},
        "train-wreck": {"goal": 500},
    }


@pytest.mark.parametrize(
    "toml, key, value, allowed",
    [
        ("[camera]\nfps = 500", "camera.fps", "500", "a number from 1 to 120"),
        ('[camera]\nsource = "webcam"', "camera.source", '"webcam"', 'one of "auto", "picamera", "usb", "replay"'),
        ("[camera]\nsize = [1279, 720]", "camera.size", "[1279, 720]", "even pixels"),
        ("[camera]\ndevice = -1", "camera.device", "-1", "a camera index"),
        ('[buttons]\npull_up = "yes"', "buttons.pull_up", '"yes"', "true or false"),
        ("[buttons]\ntouch = 1", "buttons.touch", "1", "true or false"),
        (
            '[calibration]\nprofile = "a\\u0000b"',
            "calibration.profile",
            '"a\\u0000b"',
            "a file path",
        ),  # no path holds NUL
        ("[buttons.pins]\nok = 40", "buttons.pins.ok", "40", "from 2 to 27"),
        ('[display]\nmode = "fullscreen"', "display.mode", '"fullscreen"', '"kiosk"'),
        ('[players]\nnames = [""]', "players.names", '[""]', "of 1 to 20 characters"),
        # names no screen can draw (a NUL, a zero-width space, a bell), shown escaped so that the reader sees them
        ('[players]\nnames = ["\\u200b"]', "players.names", '["\\u200b"]', "none of them invisible"),
        ('[buttons.pins]\nok = "BOARD1"', "buttons.pins.ok", '"BOARD1"', '"BOARD29"'),  # pin 1 is 3.3 V
        ('[buttons.pins]\nok = "GPIO40"', "buttons.pins.ok", '"GPIO40"', "from 2 to 27"),  # named, as refused as 40
        ('[buttons.pins]\nok = "BOARD27"', "buttons.pins.ok", '"BOARD27"', "from 2 to 27"),  # GPIO 0: the ID EEPROM
        (
            '[game]\ndefault = "yahtzee"',
            "game.default",
            '"yahtzee"',
            '"dice-poker", "pentakubus", "hexakubus", "train-wreck"',
        ),
        ("[games.hexakubus]\nwrap = 1", "games.hexakubus.wrap", "1", "on or off"),
        ("[games.train-wreck]\ngoal = 800", "games.train-wreck.goal", "800", "1000, 750 or 500"),
        ("[games.train-wreck]\ngoal = 1000.0", "games.train-wreck.goal", "1000.0", "1000, 750 or 500"),
        ('[games.hexakubus]\nslam = "41:5"', "games.hexakubus.slam", '"41:5"', "fields 21-40"),
    ],
)
def test_a_wrong_value_names_key_value_and_what_is_allowed_and_keeps_the_default(tmp_path, toml, key, value, allowed):
    path = write(tmp_path, toml)
    settings, warnings = load_settings(path)
    assert len(warnings) == 1
    warning = warnings[0]
    assert str(path) in warning and f"{key} = {value}" in warning and allowed in warning
    assert "using the default" in warning
    defaults, _ = load_settings(write(tmp_path, "", "empty.toml"))
    assert settings == defaults.__class__(**{**defaults.__dict__, "file": path})


@pytest.mark.parametrize(
    "toml, kept, left_out",
    [
        ('names = ["A", "B", "C", "D", "E", "F", "G", "H", "I"]', ("A", "B", "C", "D", "E", "F", "G", "H"), '"I"'),
        ('names = ["Ann", "Bo", "Ann "]', ("Ann", "Bo"), '"Ann "'),
        # names no screen can draw (a NUL, a zero-width space, a bell), shown escaped so that the reader sees them
        ('names = ["Ann", "B\\u0000b"]', ("Ann",), '"B\\u0000b"'),
        ('names = ["Ann", "B\\u200bb", "Cy\\u0007", "Di"]', ("Ann", "Di"), '"B\\u200bb", "Cy\\u0007"'),
        ('names = [3, "Ann"]', ("Ann",), "3"),
    ],
)
def test_a_bad_player_name_costs_only_itself_and_is_named(tmp_path, toml, kept, left_out):
    path = write(tmp_path, "[players]\n" + toml)
    settings, [warning] = load_settings(path)
    assert settings.players == kept
    assert str(path) in warning and "players.names" in warning and "each its own" in warning
    assert f"left out {left_out}, using the rest" in warning


def test_unknown_keys_and_games_are_warned_about_and_ignored(tmp_path):
    path = write(tmp_path, "camera = 3\n[display]\nsise = [800, 480]\n[games.yatzy]\ngoal = 1\n")
    settings, warnings = load_settings(path)
    assert any("camera = 3 is not allowed (a [camera] table)" in w for w in warnings)
    assert any("display.sise" in w and "known here: mode, size" in w for w in warnings)
    assert any("games.yatzy.goal" in w and "names no game" in w for w in warnings)
    assert settings.camera.size == DEFAULTS["camera.size"] and "yatzy" not in settings.game.variants


def test_settings_that_contradict_each_other_fall_back_to_defaults(tmp_path):
    path = write(tmp_path, '[camera]\nsize = [320, 240]\nsmall_size = [640, 480]\n[buttons.pins]\nprev = "GPIO6"\n')
    settings, warnings = load_settings(path)
    assert settings.camera.small_size == (320, 180)
    assert settings.buttons.pins == {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
    assert any("camera.small_size = [640, 480]" in w and "not larger than camera.size" in w for w in warnings)
    assert any(
        'buttons.pins.prev = "GPIO6" and buttons.pins.next = 6 are the same pin (GPIO6)' in w and "own pin" in w
        for w in warnings
    )


def test_a_variant_given_as_a_table_is_one_setting(tmp_path):
    settings, warnings = load_settings(write(tmp_path, "[games.hexakubus]\nslam = {21 = 12, 30 = 10}\n"))
    assert warnings == [] and settings.game.variants["hexakubus"]["slam"] == {21: 12, 30: 10}


@pytest.mark.parametrize("ok", ["BOARD33", "J8:33", "bcm13"])
def test_a_pin_named_by_its_header_position_is_the_same_pin_as_its_gpio_number(tmp_path, ok):
    settings, warnings = load_settings(write(tmp_path, f'[buttons.pins]\nprev = 13\nok = "{ok}"\nnext = 6\n'))
    assert any(
        f'buttons.pins.prev = 13 and buttons.pins.ok = "{ok}" are the same pin (GPIO13)' in w and "own pin" in w
        for w in warnings
    )
    assert settings.buttons.pins == {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}


def test_the_header_table_agrees_with_gpiozero():
    from gpiozero.pins.data import PLUS_J8

    from appliance.settings import HEADER_BCM

    *_, pins = PLUS_J8
    assert HEADER_BCM == {n: int(p["gpio"][4:]) for n, p in pins.items() if "gpio" in p}


def test_a_file_that_is_not_toml_names_file_and_line_and_gives_the_defaults(tmp_path):
    path = write(tmp_path, "[camera]\nfps = 30\nsize = [1280, 720\n")
    settings, warnings = load_settings(path)
    assert len(warnings) == 1
    assert str(path) in warnings[0] and "not valid TOML" in warnings[0] and "line 4" in warnings[0]
    assert settings.camera.fps == 30 and settings.file is None
    _, warnings = load_settings(write(tmp_path, "[camera]\nfps = = 3\n"))
    assert "line 2" in warnings[0]


def test_one_broken_table_does_not_lose_the_rest_of_the_file(tmp_path):
    """The installer sets the calibration profile's path in the file: a typo among the player names must not
    send the kiosk to the calibration wizard, nor lose the button pins."""
    path = write(
        tmp_path,
        '[players]\nnames = ["Ann", "Bob"\n\n[buttons.pins]\nprev = 5\n\n'
        '[calibration]\nprofile = "/var/lib/dicetable/calibration.toml"\n',
    )
    settings, warnings = load_settings(path)
    assert settings.calibration_profile == Path("/var/lib/dicetable/calibration.toml")
    assert settings.buttons.pins["PREV"] == 5 and settings.players == DEFAULTS["players.names"]
    assert len(warnings) == 1 and "not valid TOML" in warnings[0] and "line 4" in warnings[0]
    assert "the built-in defaults for [players], the rest of the file as written" in warnings[0]
    assert settings.file == path


def test_a_file_that_is_not_text_is_a_message_too(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    settings, warnings = load_settings(path)
    assert len(warnings) == 1 and str(path) in warnings[0] and settings.file is None


def test_an_empty_profile_path_keeps_the_default(tmp_path):
    settings, warnings = load_settings(write(tmp_path, '[calibration]\nprofile = ""\n'))
    assert settings.calibration_profile == Path(DEFAULTS["calibration.profile"]).expanduser()
    assert warnings and "calibration.profile" in warnings[0] and "a file path" in warnings[0]


@pytest.mark.parametrize(
    "toml, key",
    [
        ("[games.hexakubus]\na-bonus = [inf, 5]\n", "games.hexakubus.a-bonus"),  # int(inf): OverflowError
        ("[games.hexakubus]\nslam = {21 = inf}\n", "games.hexakubus.slam"),
        ('[calibration]\nprofile = "~nosuchuser/calibration.toml"\n', "calibration.profile"),  # no such home folder
        ('[camera]\nreplay_folder = "~nosuchuser/throws"\n', "camera.replay_folder"),
        ("[camera]\nfps = 0x" + "f" * 4000 + "\n", "camera.fps"),  # read, but too long to write out in decimal
    ],
)
def test_a_value_python_cannot_convert_is_a_wrong_value_too(tmp_path, toml, key):
    settings, warnings = load_settings(write(tmp_path, toml))
    assert len(warnings) == 1 and f"{key} = " in warnings[0] and "using the default" in warnings[0]
    defaults, _ = load_settings(write(tmp_path, "", "empty.toml"))
    assert settings == defaults.__class__(**{**defaults.__dict__, "file": settings.file})


@pytest.mark.parametrize(
    "toml, says",
    [
        ("[camera]\nfps = " + "9" * 5000 + "\n", "a number too long to read"),  # past Python's 4300 digits
        ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n", "nested too deeply"),
    ],
)
def test_toml_that_python_cannot_read_is_a_file_that_is_not_toml(tmp_path, toml, says):
    path = write(tmp_path, toml + '[players]\nnames = ["Ann"]\n')
    settings, warnings = load_settings(path)
    assert len(warnings) == 1 and str(path) in warnings[0] and "not valid TOML" in warnings[0] and says in warnings[0]
    assert settings.players == ("Ann",)  # the tables it can read are used


def test_a_settings_path_in_the_home_of_no_such_user_is_not_found(tmp_path):
    settings, warnings = load_settings("~nosuchuser/settings.toml")
    assert warnings == ["settings file ~nosuchuser/settings.toml not found; using the built-in defaults"]
    _, warnings = load_settings(env={"DICETABLE_SETTINGS": "~nosuchuser/settings.toml"})
    assert warnings == ["settings file ~nosuchuser/settings.toml not found; using the built-in defaults"]


def test_a_table_given_twice_says_how_the_file_was_read(tmp_path):
    settings, warnings = load_settings(
        write(tmp_path, '[camera]\nfps = 10\n[players]\nnames = ["Ann"]\n[camera]\nfps = 20\n')
    )
    assert len(warnings) == 1 and "not valid TOML" in warnings[0] and "twice" in warnings[0]
    assert "the built-in defaults for ," not in warnings[0] and "each [table] read on its own" in warnings[0]
    assert settings.camera.fps == 20 and settings.players == ("Ann",)


def test_a_huge_value_is_cut_in_its_warning(tmp_path):
    """A value of megabytes was echoed whole into the journal at every start."""
    settings, [warning] = load_settings(write(tmp_path, f'[camera]\nsource = "{"x" * 5_000_000}"'))
    assert len(warning) < 400 and "(5,000,002 characters)" in warning and 'one of "auto"' in warning
    assert settings.camera.source == DEFAULTS["camera.source"]


def test_a_named_pipe_as_the_settings_file_is_said_and_does_not_hang_the_start(tmp_path):
    import os

    from appliance.settings import default_settings

    pipe = tmp_path / "settings.toml"
    os.mkfifo(pipe)  # reading it waits for a writer that never comes
    settings, [warning] = load_settings(pipe)
    assert f"settings file {pipe} is not a file; using the built-in defaults" == warning
    assert settings == default_settings()
