"""The recorder writes a folder that the replay source, the labeled-set loader and the profile loader read."""

import json

import numpy as np
import pytest

from appliance.recording import Recorder
from hardware.replay import ReplaySource, load_recording
from vision.labels import load_labeled_set
from vision.types import Die


def test_frames_and_confirmed_readings_become_a_recording(tmp_path):
    rec = Recorder(tmp_path / "r")
    images = [np.full((60, 80, 3), v, np.uint8) for v in (10, 120, 240)]
    for k, image in enumerate(images):
        rec.frame(image, 1000.0 + k / 30)
    dice = [Die("d6", 2, (1, 2, 11, 12), "roll", 0.9), Die("d6", 5, (30, 2, 40, 12), "keep", 0.4)]
    rec.confirmed(2, dice, [2, 6], attempt=1)  # the player fixed the second die: 6, not 5
    rec.press("OK")
    rec.close()
    recording = load_recording(tmp_path / "r")
    assert [round(t, 4) for _, t in recording.frames] == [0.0, 0.0333, 0.0667]
    (labeled,) = load_labeled_set(tmp_path / "r")
    assert labeled.path.name == "000003.jpg" and [d.value for d in labeled.dice] == [2, 6]
    raw = json.loads((tmp_path / "r" / "labels.json").read_text())
    assert raw["images"][0]["dice"][1] == {
        "kind": "d6",
        "value": 6,
        "box": [30, 2, 40, 12],
        "zone": "keep",
        "cocked": False,
        "thrown_in": 1,
    }
    assert raw["presses"] == [{"frame": 2, "press": "OK"}]
    source = ReplaySource(tmp_path / "r", realtime=False)
    grey = [int(source.read().image.mean()) for _ in range(3)]
    assert grey == pytest.approx([10, 120, 240], abs=3)


def test_the_calibration_profile_is_copied_with_its_picture(tmp_path):
    import cv2

    from calibration.profile import load_profile
    from vision.lab.render.folder import calibration_toml
    from vision.lab.render.scene import Scene

    scene = Scene.random(1, size=(320, 240))
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "tray.toml").write_text(calibration_toml(scene, picture="tray.empty.png"))
    cv2.imwrite(str(tmp_path / "p" / "tray.empty.png"), np.zeros((240, 320, 3), np.uint8))
    rec = Recorder(tmp_path / "r", tmp_path / "p" / "tray.toml")
    rec.frame(np.zeros((240, 320, 3), np.uint8), 5.0)
    rec.close()
    profile = load_profile(tmp_path / "r" / "calibration.toml")
    assert profile.frame_size == (320, 240)
    assert json.loads((tmp_path / "r" / "labels.json").read_text())["calibration"] == "calibration.toml"


def test_a_confirmation_of_an_unrecorded_frame_is_refused(tmp_path):
    rec = Recorder(tmp_path / "r")
    with pytest.raises(IndexError):
        rec.confirmed(0, [], [])


def test_a_game_played_while_recording_becomes_a_replayable_recording(tmp_path):
    """The table with a recorder: the stream, the confirmed readings as labels, the presses and the
    game; replaying what was recorded ends with the same sheet."""
    from appliance.replay_game import replay_game
    from tests.table.test_main_loop import reading, write_recording

    write_recording(
        tmp_path / "played",
        [("moving", None, 5), ("still", 1, 10), ("moving", None, 5), ("still", 2, 10)],
        presses=[(1, "OK"), *[(3, "NEXT")] * 3, (3, "NEXT long"), (3, "OK"), (3, "NEXT"), (3, "OK")],
        game={"game": "dice-poker", "players": ["Ann"]},
    )
    readings = [reading((1, 2, 3, 4, 6)), reading((6, 6, 6, 5, 6))]  # the player corrects the 4th die: 5 -> 6
    played = iter(readings)
    recorder = Recorder(tmp_path / "recorded")
    sheet, table = replay_game(
        tmp_path / "played", tmp_path / "a.sqlite", read=lambda frame: next(played), recorder=recorder
    )
    recorder.close()
    assert sheet["players"][0]["entries"] == {"12": 50}  # five 6s once corrected
    labels = json.loads((tmp_path / "recorded" / "labels.json").read_text())
    assert len(labels["frames"]) == 30 and labels["game"]["game"] == "dice-poker"
    assert [sorted(d["value"] for d in image["dice"]) for image in labels["images"]] == [[1, 2, 3, 4, 6], [6] * 5]
    assert [d["thrown_in"] for d in labels["images"][1]["dice"]] == [2] * 5
    again = iter(readings)
    resheet, _ = replay_game(tmp_path / "recorded", tmp_path / "b.sqlite", read=lambda frame: next(again))
    assert resheet == sheet


def test_a_recording_that_cannot_be_written_stops_and_the_game_goes_on(tmp_path, monkeypatch, capsys):
    """A full disk while recording: the recording stops, said on screen; the game keeps every decision."""
    from appliance.replay_game import replay_game
    from tests.table.test_main_loop import reading, write_recording

    write_recording(
        tmp_path / "played",
        [("moving", None, 5), ("still", 1, 10), ("moving", None, 5), ("still", 2, 10)],
        presses=[(1, "OK"), (3, "OK"), (3, "NEXT"), (3, "OK")],
        game={"game": "dice-poker", "players": ["Ann"]},
    )
    played = iter([reading((1, 2, 3, 4, 6)), reading((6, 6, 6, 6, 6))])
    recorder = Recorder(tmp_path / "recorded")
    written = []

    def frame(image, t):
        if len(written) == 12:  # the disk fills up while the first throw lies still
            raise OSError(28, "No space left on device")
        written.append(t)
        return len(written) - 1

    monkeypatch.setattr(recorder, "frame", frame)
    sheet, table = replay_game(
        tmp_path / "played", tmp_path / "a.sqlite", read=lambda f: next(played), recorder=recorder
    )
    assert sheet["players"][0]["entries"] == {"12": 50}  # the game went on to the end
    assert len(written) == 12 and "recording stopped: [Errno 28] No space left on device" in capsys.readouterr().err
