"""appliance.base: TOML read with every failure named, files written whole or not at all, pictures read; and the
package at the bottom of the import graph, loading nothing else of the project."""

import ast
import os
import stat
import subprocess
import sys

import cv2
import numpy as np
import pytest

from appliance.base.errors import DiceTableError
from appliance.base.files import NotToml, read_toml, write_atomically
from appliance.base.images import read_picture


def test_toml_is_read():
    assert read_toml('a = 1\n[b]\nc = "d"\n') == {"a": 1, "b": {"c": "d"}}


@pytest.mark.parametrize(
    "text, problem",
    [
        ("a = \n", "line 1"),  # tomllib's own words, with the place
        ("a = 1\na = 2\n", "line 2"),
        ("a = " + "9" * 5000 + "\n", "a number too long to read"),  # Python reads no int of more than 4300 digits
        ("a = " + "[" * 100_000 + "]" * 100_000 + "\n", "arrays or tables nested too deeply"),
    ],
)
def test_text_that_is_no_toml_is_named_whichever_way_it_fails(text, problem):
    with pytest.raises(NotToml) as error:
        read_toml(text)
    assert problem in str(error.value)
    assert isinstance(error.value, ValueError) and isinstance(error.value, DiceTableError)


def test_a_file_is_written_whole_with_its_mode(tmp_path):
    path = tmp_path / "labels.json"
    path.write_bytes(b"old")
    write_atomically(path, b"new")
    assert path.read_bytes() == b"new" and stat.S_IMODE(path.stat().st_mode) == 0o644
    write_atomically(path, b"mine", mode=0o600)
    assert path.read_bytes() == b"mine" and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert os.listdir(tmp_path) == ["labels.json"]  # no temporary file left


@pytest.mark.parametrize("fails", ["fsync", "replace"])
def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch, fails):
    path = tmp_path / "calibration.toml"
    path.write_bytes(b"the old profile")

    def full_card(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, fails, full_card)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, b"the new profile, never seen in part")
    assert path.read_bytes() == b"the old profile"
    assert os.listdir(tmp_path) == ["calibration.toml"]


def test_a_picture_is_read_and_a_damaged_one_is_none(tmp_path):
    picture = np.zeros((20, 30, 3), np.uint8)
    picture[5:10, 5:10] = (10, 200, 30)
    cv2.imwrite(str(tmp_path / "empty.png"), picture)
    assert np.array_equal(read_picture(tmp_path / "empty.png"), picture)
    (tmp_path / "notes.png").write_text("not a picture")
    assert read_picture(tmp_path / "notes.png") is None


LOADED = (
    "import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] in "
    "('appliance', 'vision', 'hardware', 'calibration', 'cv2', 'numpy', 'pygame')))"
)


@pytest.mark.parametrize(
    "module, loads",
    [
        ("appliance.base.errors", ["appliance", "appliance.base", "appliance.base.errors"]),
        ("appliance.base.files", ["appliance", "appliance.base", "appliance.base.errors", "appliance.base.files"]),
    ],
)
def test_the_base_loads_nothing_else_of_the_project(module, loads):
    """vision, hardware and calibration import appliance.base: it must bring no other part along (nor OpenCV)."""
    done = subprocess.run([sys.executable, "-c", LOADED.format(module=module)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert ast.literal_eval(done.stdout) == loads


def test_reading_pictures_loads_opencv_and_nothing_of_the_project():
    done = subprocess.run(
        [sys.executable, "-c", LOADED.format(module="appliance.base.images")], capture_output=True, text=True
    )
    project = [m for m in ast.literal_eval(done.stdout) if m.split(".")[0] not in ("cv2", "numpy")]
    assert project == ["appliance", "appliance.base", "appliance.base.images"]
