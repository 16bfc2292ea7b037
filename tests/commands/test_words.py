"""What the commands say: the version, a photo cut short, and what to try when no dice are found."""

import numpy as np
import pytest

from appliance.cli import main


def test_dicetable_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0 and capsys.readouterr().out.strip() == f"dicetable {version('dicetable')}"


def a_photo(path, shape=(240, 320, 3)) -> bytes:
    """Plain green felt: no dice."""
    import cv2

    image = np.full(shape, (40, 110, 50), np.uint8)
    assert cv2.imwrite(str(path), image)
    return path.read_bytes()


def test_a_jpeg_cut_short_is_said_so(tmp_path, capsys):
    whole = a_photo(tmp_path / "whole.jpg")
    (tmp_path / "cut.jpg").write_bytes(whole[: len(whole) // 2])
    assert main(["read", str(tmp_path / "cut.jpg")]) == 1
    captured = capsys.readouterr()
    assert "cut.jpg: is a JPEG cut short (the file ends before the picture does)" in captured.out
    assert "Premature end" not in captured.err  # libjpeg was not left to say it
    assert main(["read", str(tmp_path / "whole.jpg")]) == 0


@pytest.mark.parametrize("kind, suggested", [("d6", "--kind d10"), ("d10", "--kind d6")])
def test_no_dice_found_suggests_the_other_reader(tmp_path, capsys, kind, suggested):
    a_photo(tmp_path / "felt.png")
    main(["read", str(tmp_path / "felt.png"), "--kind", kind])
    out = capsys.readouterr().out
    assert "no dice found" in out and f"read it with {suggested}" in out and "--die-px" in out


def test_a_settings_warning_says_the_default_as_the_file_writes_it(tmp_path):
    from appliance.settings import load_settings

    path = tmp_path / "settings.toml"
    path.write_text("[games.hexakubus]\nslam = 5\na-bonus = 7\n[camera]\nreplay_folder = 5\n")
    _, warnings = load_settings(path)
    said = "\n".join(warnings)
    assert "slam = 5 is not allowed" in said and 'using the default "none"' in said
    assert "default {}" not in said and "default null" not in said
    assert "replay_folder = 5 is not allowed" in said and 'using the default ""' in said


def test_a_long_list_in_a_settings_warning_is_cut(tmp_path):
    from appliance.settings import load_settings

    path = tmp_path / "settings.toml"
    path.write_text("[players]\nnames = [" + ", ".join(f'"P{i}"' for i in range(500)) + "]\n")
    [warning] = load_settings(path)[1]
    # the value as given, cut; the names left out (all but the first eight), cut; the eight names kept
    assert '"P7", … (500 in all)]' in warning and '"P15", … (492 in all)' in warning and "P16" not in warning
    assert warning.endswith('using the rest: ["P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"]') and len(warning) < 500


def test_one_of_a_thing_is_said_in_the_singular(capsys):
    from appliance.words import count

    assert [count(1, "column"), count(2, "column"), count(1, "entry", "entries"), count(0, "entry", "entries")] == [
        "1 column",
        "2 columns",
        "1 entry",
        "0 entries",
    ]
    main(["rules", "dice-poker", "--optimum"])
    assert capsys.readouterr().out.strip().endswith("column 340, 1 column 340")  # it said "1 column(s)"


def test_run_without_a_calibration_or_a_screen_refuses_as_calibrate_does(tmp_path, capsys, monkeypatch):
    """It once started the wizard on no screen at all, waiting on buttons for steps nobody could see."""
    from hardware import display

    for var in ("DISPLAY", "WAYLAND_DISPLAY"):  # display.mode "auto" finds no screen here
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(display, "drm_devices", lambda: [])
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[camera]\nsource = "usb"\ndevice = 7\n[calibration]\nprofile = "{tmp_path / "none.toml"}"\n')
    assert main(["run", "--settings", str(settings), "--log", str(tmp_path / "games.sqlite")]) == 2
    err = capsys.readouterr().err
    assert "no profile here yet" in err and "connect a screen" in err and "dicetable calibrate --display dummy" in err


def test_a_log_that_refuses_a_write_is_said_in_the_journal_too(tmp_path, capsys, monkeypatch):
    """Once only on the screen: the journal (the service's stderr) did not know the games stopped being kept."""
    from appliance.event_log import EventLog, LogError
    from appliance.gallery import _reading
    from appliance.table import Table
    from hardware.buttons import Press

    log = EventLog(tmp_path / "games.sqlite")
    table = Table(log, players=["Ann"])
    table.start("dice-poker", ["Ann"])

    def read_only(*args):
        raise LogError("the game log is read-only")

    monkeypatch.setattr(log, "append", read_only)
    table.reading(_reading((1, 2, 3, 4, 5)))
    table.press(Press("OK"))  # the throw confirmed: not written, so not taken
    assert "read-only" in table.message and table.game.throw is None
    assert f"dicetable: {table.message}" in capsys.readouterr().err
    log.close()


def test_errors_are_said_without_pythons_words(tmp_path, capsys):
    from appliance.settings import load_settings

    assert main(["replay", str(tmp_path / "gone")]) == 2
    err = capsys.readouterr().err
    assert f"is not a recorded game (no such file or directory: {tmp_path / 'gone' / 'labels.json'})" in err
    assert "Errno" not in err and "FileNotFoundError" not in err
    (tmp_path / "settings.toml").mkdir()
    [warning] = load_settings(tmp_path / "settings.toml")[1]
    assert "Errno" not in warning and "Error" not in warning
