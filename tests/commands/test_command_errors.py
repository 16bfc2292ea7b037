"""Mistakes a person makes at the command line: each gets a message naming the problem and the fix, exit 2
for bad arguments or input, 1 for a failure, and never a traceback or OpenCV's own warnings."""

import json
import shutil
from pathlib import Path

import pytest

from appliance.cli import main
from tests.support import FIXTURES, too_many_pixels

THROWS = FIXTURES / "throws"
GAME = THROWS / "misread-corrected"  # a small recorded game: 15 frames


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    # `record` past its arguments would start the table, which plays until stopped
    monkeypatch.setattr("appliance.run_table.run_table", lambda args: pytest.fail("the table started"))


def usage_error(capsys, *argv) -> str:
    """What argparse says about a bad argument, having checked it exits 2."""
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    assert exit_.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["history", "--log"],
        ["run", "--log"],
        ["record", "--log"],
        ["calibrate", "--profile"],
        ["demo", "--headless"],
        ["replay", "x", "--screens"],
        ["record"],
    ],
)
def test_a_path_in_the_home_of_no_such_user_is_a_usage_error(capsys, argv):
    """~pi/... on a Pi set up with another user name: the shell leaves it as it is, and Python cannot expand it."""
    err = usage_error(capsys, *argv, "~nosuchuser/games")
    assert "there is no user nosuchuser on this machine" in err and "Traceback" not in err


def game_labels(folder: Path, game: dict) -> Path:
    folder.mkdir()
    (folder / "labels.json").write_text(json.dumps({"game": game, "frames": [{"file": "frames/000001.jpg", "t": 0}]}))
    return folder


# -- 1. recorded games that are not what replay and demo need ---------------------------------------


@pytest.mark.parametrize("command", [["replay"], ["demo", "--headless", "{tmp}/screens", "--recording"]])
def test_a_recorded_game_of_an_unknown_game_lists_the_known_ones(tmp_path, capsys, command):
    folder = game_labels(tmp_path / "game", {"game": "yahtzee", "players": ["Ann"]})
    assert main([a.format(tmp=tmp_path) for a in command] + [str(folder)]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'yahtzee'" in err and "dice-poker, pentakubus, hexakubus, train-wreck" in err


def test_the_demo_plays_the_other_recordings_after_one_it_cannot(tmp_path, capsys):
    bad = game_labels(tmp_path / "game", {"game": "yahtzee", "players": ["Ann"]})
    assert (
        main(
            [
                "demo",
                "--headless",
                str(tmp_path / "screens"),
                "--recording",
                str(bad),
                "--recording",
                str(THROWS / "die-outside"),
            ]
        )
        == 2
    )
    out, err = capsys.readouterr()
    assert "unknown game 'yahtzee'" in err and "die-outside: dice-poker: Ann 15" in out


@pytest.mark.parametrize("players", [None, [], ["Ann", "Ann"], ["Ann", ""], ["Ann", 7]])
def test_a_recorded_game_without_its_own_players_says_so(tmp_path, capsys, players):
    spec = {"game": "dice-poker"} | ({} if players is None else {"players": players})
    assert main(["replay", str(game_labels(tmp_path / "game", spec))]) == 2
    assert '"players" must be a list of 1 to 8 names, each its own' in capsys.readouterr().err


def test_replaying_a_still_set_says_its_labels_name_no_game(capsys):
    assert main(["replay", str(THROWS / "stills-d10")]) == 2
    err = capsys.readouterr().err
    assert "labels.json names no game" in err and "not a recorded game" in err and "KeyError" not in err


# -- 1. output folders checked when the arguments are read ------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", str(GAME), "--screens", "{file}"],
        ["demo", "--headless", "{file}"],
        ["calibrate", "--screenshots", "{file}"],
        ["record", "{file}"],
    ],
)
def test_an_output_folder_that_is_a_file_is_a_usage_error(tmp_path, capsys, argv):
    (tmp_path / "file").write_text("in the way")
    err = usage_error(capsys, *[a.format(file=tmp_path / "file") for a in argv])
    assert f"{tmp_path / 'file'} is a file, not a folder" in err


def test_an_output_folder_that_cannot_be_made_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "file").write_text("in the way")
    err = usage_error(capsys, "demo", "--headless", str(tmp_path / "file" / "screens"))
    assert f"cannot make the folder {tmp_path / 'file' / 'screens'}" in err


@pytest.mark.parametrize("script, entry", [("OK,FOO", "'FOO'"), ("x:OK", "'x:OK'"), ("OK twice", "'OK twice'")])
def test_a_bad_calibration_script_names_the_entry_and_the_format(capsys, script, entry):
    err = usage_error(capsys, "calibrate", "--source", "synthetic", "--display", "dummy", "--script", script)
    assert f"{entry} is not a press" in err and "separated by commas" in err


# -- 2. a recording is never written over -----------------------------------------------------------


@pytest.mark.parametrize("kept", ["labels.json", "calibration.toml"])
def test_record_refuses_a_folder_that_holds_a_recording(tmp_path, capsys, kept):
    (tmp_path / kept).write_text("kept")
    assert "already holds a recording" in usage_error(capsys, "record", str(tmp_path))
    assert (tmp_path / kept).read_text() == "kept"


def test_a_recorder_refuses_a_recording_but_takes_an_empty_folder(tmp_path):
    from appliance.commands import recording_folder
    from appliance.recording import Recorder

    (tmp_path / "old" / "frames").mkdir(parents=True)
    (tmp_path / "old" / "frames" / "000001.jpg").write_bytes(b"a frame")
    with pytest.raises(FileExistsError, match="already holds a recording"):
        Recorder(tmp_path / "old")
    (tmp_path / "empty").mkdir()
    assert recording_folder(str(tmp_path / "empty")) == tmp_path / "empty"
    Recorder(tmp_path / "empty").close()
    assert (tmp_path / "empty" / "labels.json").exists()


# -- 3. frames listed but missing -------------------------------------------------------------------


def game_without_frames(tmp_path: Path, *numbers: int) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(GAME, folder)
    for n in numbers:
        (folder / "frames" / f"{n:06d}.jpg").unlink()
    return folder


@pytest.mark.parametrize("command", [["replay"], ["demo", "--headless", "{tmp}/screens", "--recording"]])
def test_a_recorded_game_with_missing_frames_is_refused(tmp_path, capfd, command):
    folder = game_without_frames(tmp_path, 3, 4)
    assert main([a.format(tmp=tmp_path) for a in command] + [str(folder)]) == 2
    err = capfd.readouterr().err
    assert "2 of the 15 frames listed in labels.json are missing" in err and "000003.jpg" in err
    assert "WARN" not in err


def damaged_game(tmp_path: Path, change) -> Path:
    """The small recorded game, copied, its labels.json changed by `change(labels)`."""
    folder = tmp_path / "game"
    shutil.copytree(GAME, folder)
    labels = json.loads((folder / "labels.json").read_text())
    change(labels)
    (folder / "labels.json").write_text(json.dumps(labels))
    return folder


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda l: l["game"].update(variants={"slam": "41:5"}), "the game cannot start"),  # a variant the rules refuse
        (lambda l: l["presses"].append({"frame": 3, "press": "JUMP"}), "its script is damaged"),
        (lambda l: l["presses"].append({"press": "OK"}), "its script is damaged"),
        (lambda l: l.update(presses="OK"), "its script is damaged"),
        (lambda l: l["misreads"][0].update(image=99), "its script is damaged"),
        (lambda l: l["misreads"][0].update(read_as="six"), "its script is damaged"),
        # the labeled rest and die a misread names, used mid-replay: checked before it plays
        (lambda l: l["images"][0]["dice"][3].update(box="abcd"), "its script is damaged"),
        (lambda l: l["images"][0]["dice"][3].update(box=[1]), "its script is damaged"),
        (lambda l: l["images"][0].update(rest_frames=[14]), "its script is damaged"),
        (lambda l: l["images"][0].update(rest_frames="14"), "its script is damaged"),
        (lambda l: [l["images"][0].pop(key) for key in ("rest_frames", "frame")], "its script is damaged"),
        (lambda l: l.update(images="none"), '"images" must be a list'),
        (lambda l: l.update(calibration=5), '"calibration" must name the profile file'),
        (lambda l: l["frames"][2].update(t="nan"), '"frames" must be a list'),
    ],
)
def test_a_damaged_recording_is_refused_and_says_what_is_wrong(tmp_path, capsys, change, says):
    assert main(["replay", str(damaged_game(tmp_path, change))]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_frame_that_is_no_image_stops_the_replay_instead_of_a_wrong_sheet(tmp_path, capfd):
    folder = game_without_frames(tmp_path)
    last = sorted((folder / "frames").iterdir())[-1]
    last.write_bytes(b"not a jpeg")
    assert main(["replay", str(folder)]) == 2
    assert f"1 frame is no image (the first: {last.name})" in capfd.readouterr().err


def test_a_frame_whose_header_claims_too_many_pixels_is_skipped_like_a_damaged_one(tmp_path, capfd):
    from hardware.replay import ReplaySource

    folder = game_without_frames(tmp_path)
    (folder / "frames" / "000002.jpg").write_bytes(too_many_pixels())
    source = ReplaySource(folder, realtime=False)  # the table's camera when it plays recorded throws
    assert source.read().t == 0.0 and source.read() is not None
    assert "000002.jpg" in source.status.message
    assert main(["replay", str(folder)]) == 2
    assert "1 frame is no image (the first: 000002.jpg)" in capfd.readouterr().err


def test_a_missing_frame_is_skipped_without_opencv_warnings(tmp_path, capfd):
    from hardware.replay import ReplaySource

    source = ReplaySource(game_without_frames(tmp_path, 2), realtime=False)
    assert source.read().t == 0.0 and source.read() is not None
    assert "000002.jpg" in source.status.message
    assert "WARN" not in capfd.readouterr().err


# -- 4. history only reads --------------------------------------------------------------------------


def test_history_of_a_missing_log_says_so_and_creates_nothing(tmp_path, capsys):
    log = tmp_path / "typo" / "dir" / "games.sqlite"
    assert main(["history", "--log", str(log)]) == 1
    assert f"no game log at {log}" in capsys.readouterr().err
    assert not (tmp_path / "typo").exists()


def test_history_without_a_default_log_points_to_the_kiosks(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["history"]) == 1
    err = capsys.readouterr().err
    assert f"no game log at {tmp_path / '.local/share/dicetable/games.sqlite'}" in err
    assert "--log /var/lib/dicetable/.local/share/dicetable/games.sqlite" in err
    assert not (tmp_path / ".local").exists()


def test_history_does_not_write_to_a_file_that_is_no_log(tmp_path, capsys):
    (tmp_path / "games.sqlite").write_bytes(b"")
    assert main(["history", "--log", str(tmp_path / "games.sqlite")]) == 1
    assert "no games table" in capsys.readouterr().err
    assert (tmp_path / "games.sqlite").read_bytes() == b""


def test_history_of_a_database_of_another_schema_says_it_is_no_game_log(tmp_path, capsys):
    import sqlite3

    path = tmp_path / "games.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (name TEXT)")
    db.commit()
    db.close()
    data = path.read_bytes()
    assert main(["history", "--log", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"the game log {path} is damaged (its games table has no column id: not a game log" in err
    assert path.read_bytes() == data


@pytest.mark.parametrize("last", ["-3", "0", "many", "99999999999999999999"])
def test_history_wants_a_positive_number_of_games(capsys, last):
    assert "give 1 to 1000000" in usage_error(capsys, "history", "--last", last)


def test_history_leaves_out_rows_the_card_damaged_and_shows_local_time(tmp_path, capsys, monkeypatch):
    import time

    from appliance.event_log import EventLog

    log = EventLog(tmp_path / "games.sqlite")
    ranking = [{"rank": 1, "name": "Ann", "total": 90}]
    for result in (ranking, ranking, ranking):
        log.finish(log.start_game("dice-poker", ["Ann"], {}), result)
    log.db.execute("UPDATE games SET players = '[\"An' WHERE id = 1")  # players: no JSON
    log.db.execute("UPDATE games SET result = '[{\"name\": 1}]' WHERE id = 2")  # a result without its ranks
    log.db.execute("UPDATE games SET finished = '2026-11-22T05:20:00+00:00' WHERE id = 3")
    log.close()
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:
        assert main(["history", "--log", str(tmp_path / "games.sqlite")]) == 0
    finally:
        monkeypatch.undo()
        time.tzset()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2026-11-22 06:20  dice-poker   1. Ann 90"  # 05:20 UTC, in Berlin's winter time
    assert len(lines) == 2 and lines[1].endswith("1. Ann 90")  # game 1: its players damaged, its result sound


# -- 5. read says why a photo cannot be read --------------------------------------------------------


def test_read_says_which_photo_is_missing_a_folder_or_not_an_image(tmp_path, capfd):
    (tmp_path / "garbage.jpg").write_bytes(b"not an image")
    assert main(["read", str(tmp_path / "gone.jpg"), str(tmp_path), str(tmp_path / "garbage.jpg")]) == 1
    out, err = capfd.readouterr()
    assert f"{tmp_path / 'gone.jpg'}: no such file" in out
    assert f"{tmp_path}: is a folder, not an image" in out
    assert f"{tmp_path / 'garbage.jpg'}: not an image OpenCV can read" in out
    assert "WARN" not in err


def test_read_says_a_photo_claiming_too_many_pixels_cannot_be_read(tmp_path, capsys):
    (tmp_path / "huge.png").write_bytes(too_many_pixels())
    assert main(["read", str(tmp_path / "huge.png")]) == 1
    assert f"{tmp_path / 'huge.png'}: not an image OpenCV can read" in capsys.readouterr().out


# -- 6. evaluate with nothing to score --------------------------------------------------------------


def test_evaluate_of_a_set_without_images_has_nothing_to_score(tmp_path, capsys):
    (tmp_path / "labels.json").write_text('{"images": []}')
    assert main(["evaluate", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert "dicetable evaluate: nothing to score" in err and out == ""


def test_evaluate_stream_of_a_folder_without_recordings_has_nothing_to_measure(tmp_path, capsys):
    assert main(["evaluate", "--stream", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert f"dicetable evaluate: nothing to measure: no recorded throws in {tmp_path}" in err and out == ""


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_evaluate_of_a_folder_that_is_not_there_says_so_on_stderr(tmp_path, capsys, stream):
    """Errors go where the other commands put theirs, not among the figures a script reads from stdout."""
    assert main(["evaluate", str(tmp_path / "none"), *stream]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("dicetable evaluate: no ") and str(tmp_path / "none") in err and out == ""


def test_no_reader_without_stream_is_a_usage_error(tmp_path, capsys):
    """A photo set is always scored by a reader: --no-reader there would be ignored without a word."""
    (tmp_path / "labels.json").write_text('{"images": []}')
    err = usage_error(capsys, "evaluate", str(tmp_path), "--no-reader")
    assert "--no-reader needs --stream" in err


@pytest.mark.parametrize("option", [["--split", "heldout"], ["--kind", "d10"], ["--die-px", "40"]])
def test_photo_set_options_with_stream_are_a_usage_error(tmp_path, capsys, option):
    err = usage_error(capsys, "evaluate", str(tmp_path), "--stream", *option)
    assert f"{option[0]}: for labeled photo sets, not with --stream" in err


def recording_without_calibration(folder: Path) -> None:
    labels = json.loads((folder / "labels.json").read_text())
    del labels["calibration"]
    (folder / "labels.json").write_text(json.dumps(labels))


def recording_without_rest_truth(folder: Path) -> None:  # as `dicetable record` makes them
    labels = json.loads((folder / "labels.json").read_text())
    for image in labels["images"]:
        del image["rest_frames"]
    (folder / "labels.json").write_text(json.dumps(labels))


@pytest.mark.parametrize(
    "damage, says",
    [
        (recording_without_calibration, "its labels.json names no calibration profile"),
        (
            lambda f: (f / "calibration.toml").unlink(),
            "labels.json names the calibration profile calibration.toml, which is not in the folder",
        ),
        (
            lambda f: (f / "calibration.toml").write_text("frame_size = [800, \n"),
            "calibration profile calibration.toml: not valid TOML",
        ),
        (lambda f: (f / "labels.json").write_text('{"frames": ['), "its labels.json is not JSON"),
        (lambda f: (f / "labels.json").write_bytes(b'{"frames": [\xff]}'), "its labels.json is not JSON"),
        (
            lambda f: (f / "frames" / "000003.jpg").write_bytes(b"not a jpeg"),
            "its frame frames/000003.jpg is missing or not an image",
        ),
        (lambda f: (f / "frames" / "000015.jpg").unlink(), "its frame frames/000015.jpg is missing or not an image"),
        (
            lambda f: (f / "labels.json").write_text('{"frames": [{"file": "frames/000001.jpg"}]}'),
            'labels.json: "frames" must be a list',
        ),
        (recording_without_rest_truth, "its rests have no truth (rest_frames: rendered recordings only"),
    ],
)
def test_a_recording_that_cannot_be_measured_is_named_once(tmp_path, capsys, damage, says):
    """`cannot measure rec1: its ...`, not `rec1: rec1: rec1: its ...`; and a skipped frame is no measurement
    (every later frame would be held against the next frame's truth)."""
    folder = tmp_path / "rec1"
    shutil.copytree(GAME, folder)
    damage(folder)
    assert main(["evaluate", str(folder), "--stream", "--no-reader"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"dicetable evaluate: cannot measure {folder}: {says}"), err
    assert err.count(str(folder)) == 1 and "Traceback" not in err and out == ""


@pytest.mark.parametrize(
    "command, says",
    [
        (["replay"], "is not a recorded game"),
        (["evaluate", "--stream"], "its labels.json is not JSON (nested too deeply)"),
        (["evaluate"], "labels.json is not JSON: nested too deeply"),
    ],
)
def test_labels_nested_deeper_than_python_reads_are_said(tmp_path, capsys, command, says):
    from hardware.replay import ReplaySource

    (tmp_path / "labels.json").write_text('{"frames": ' + "[" * 5000 + "]" * 5000 + ', "images": []}')
    assert main(command + [str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
    assert "nested too deeply" in ReplaySource(tmp_path).status.message  # the table's replay camera


# -- 7. doctor on a settings file that cannot be used -----------------------------------------------


@pytest.mark.parametrize("name, content", [("missing.toml", None), ("folder", "dir"), ("broken.toml", "[camera")])
def test_doctor_says_the_named_settings_file_could_not_be_used(tmp_path, capsys, monkeypatch, name, content):
    monkeypatch.delenv("DICETABLE_SETTINGS", raising=False)
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif content:
        path.write_text(content)
    assert main(["doctor", "--settings", str(path)]) in (0, 1)  # 1: a camera or calibration this machine lacks
    out = capsys.readouterr().out
    assert f"{path} could not be used" in out and "the built-in defaults are used" in out
    assert "no file at $DICETABLE_SETTINGS" not in out


@pytest.mark.parametrize("command", [["replay", "--screens"], ["demo", "--recording", str(GAME), "--headless"]])
def test_screens_that_cannot_be_written_are_said_not_a_traceback(tmp_path, capsys, monkeypatch, command):
    import pygame

    def full_disk(surface, path):
        raise pygame.error("Error writing the PNG file")

    monkeypatch.setattr(pygame.image, "save", full_disk)
    argv = command + [str(tmp_path / "screens")] + ([str(GAME)] if command[0] == "replay" else [])
    assert main(argv) in (1, 2)
    err = capsys.readouterr().err
    assert f"cannot write the screens to {tmp_path / 'screens'}" in err and "Traceback" not in err


def test_a_damaged_recording_among_measured_throws_is_named(tmp_path, capsys):
    shutil.copytree(GAME, tmp_path / "throws" / "good")
    bad = damaged_game(tmp_path, lambda l: l["images"][0]["dice"][0].update(box="x"))
    shutil.move(str(bad), tmp_path / "throws" / "bad")
    assert main(["evaluate", str(tmp_path / "throws"), "--stream", "--no-reader"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"dicetable evaluate: cannot measure {tmp_path / 'throws' / 'bad'}: its labels.json is not as "
        "docs/RECORDINGS.md describes (IndexError: string index out of range)\n"
    )
