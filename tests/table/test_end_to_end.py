"""Recorded games end to end: frames through rest detection, reading, the table and the rules, with
the recording's scripted presses. The sheet the table ends with must be the one the rules give for
the true dice and choices (labels.json "expected", computed when the recording was rendered)."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.replay_game import replay_game
from tests.support import FIXTURES, holds
from vision.types import Die, Reading

THROWS = FIXTURES / "throws"
GAMES = sorted(p.parent for p in THROWS.glob("*/labels.json") if "expected" in json.loads(p.read_text()))
GAME_IDS = {json.loads((g / "labels.json").read_text())["game"]["game"] for g in GAMES}


class LabelReader:
    """A perfect reader: the labeled dice of the rest whose picture this frame is."""

    def __init__(self, folder: Path):
        labels = json.loads((folder / "labels.json").read_text())
        self.rests = [(cv2.imread(str(folder / image["file"])).astype(np.int16), image) for image in labels["images"]]

    def __call__(self, frame: np.ndarray) -> Reading:
        picture, image = min(self.rests, key=lambda rest: np.abs(rest[0] - frame).mean())
        dice = tuple(
            Die(d["kind"], None if d["cocked"] else d["value"], tuple(d["box"]), d["zone"], 0.99, d["cocked"])
            for d in image["dice"]
        )
        return Reading(dice, image["width"], image["height"])


def test_every_game_has_a_recording():
    assert GAME_IDS == {"dice-poker", "pentakubus", "hexakubus", "train-wreck"}


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_rest_detection_table_and_rules_end_with_the_expected_sheet(folder, tmp_path):
    expected = json.loads((folder / "labels.json").read_text())["expected"]
    sheet, _ = replay_game(folder, tmp_path / "games.sqlite", read=LabelReader(folder))
    assert holds(expected, sheet), json.dumps(sheet)


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_the_whole_appliance_ends_with_the_expected_sheet(folder, tmp_path):
    """The real reader, through `dicetable replay --json` in a process of its own."""
    expected = json.loads((folder / "labels.json").read_text())["expected"]
    run = subprocess.run(
        [sys.executable, "-m", "appliance.cli", "replay", str(folder), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    sheet = json.loads(run.stdout)
    assert holds(expected, sheet), json.dumps(sheet)


def test_a_recording_whose_calibration_cannot_be_read_is_refused_by_name(tmp_path, capsys):
    """Replayed or measured without its tray zones, a recording would give figures that mean nothing."""
    import shutil

    from appliance.cli import main
    from appliance.replay_game import ReplayError

    folder = tmp_path / "misread-corrected"
    shutil.copytree(THROWS / "misread-corrected", folder)
    (folder / "calibration.toml").write_text("frame_size = [800, \n")
    with pytest.raises(ReplayError, match=r"calibration.toml: not valid TOML"):
        replay_game(folder, tmp_path / "games.sqlite", read=LabelReader(folder))
    assert main(["evaluate", str(folder), "--stream", "--no-reader"]) == 2
    assert "calibration.toml: not valid TOML" in capsys.readouterr().err


def test_a_recording_missing_the_calibration_it_names_says_so_not_to_calibrate(tmp_path):
    import shutil

    from appliance.replay_game import ReplayError

    folder = tmp_path / "misread-corrected"
    shutil.copytree(THROWS / "misread-corrected", folder)
    (folder / "calibration.toml").unlink()
    with pytest.raises(ReplayError, match="names the calibration profile calibration.toml, which is not in the folder"):
        replay_game(folder, tmp_path / "games.sqlite", read=LabelReader(folder))
