"""Tray profiles: saved and read back, every kind of damage refused with the file and the problem named."""

import numpy as np
import pytest

from calibration.profile import (
    Exposure,
    Profile,
    ProfileError,
    ProfileMissing,
    empty_picture_path,
    load_profile,
    save_profile,
    size_problem,
)
from tests.support import too_many_pixels
from vision.geometry import zone_of
from vision.types import KEEP, OUTSIDE, ROLL

TRAY = np.float32([[100, 80], [1180, 60], [1200, 680], [90, 660]])
KEEP_ZONE = np.float32([[94, 540], [1190, 550], [1200, 680], [90, 660]])


def make_profile(**changes):
    empty = np.zeros((720, 1280, 3), np.uint8)
    empty[:, :, 1] = 110
    empty[10, 20] = (1, 2, 3)  # a pixel to recognise after the round trip
    base = dict(
        frame_size=(1280, 720),
        tray=TRAY,
        die_px=56.25,
        empty=empty,
        keep=KEEP_ZONE,
        exposure=Exposure(16000, 2.5, (1.9, 1.6)),
        created="2024-05-01T20:15:00",
        checked=True,
    )
    return Profile(**{**base, **changes})


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "calibration.toml"
    save_profile(make_profile(), path)
    return path


def test_round_trip_keeps_every_value(saved):
    loaded = load_profile(saved)
    assert loaded.frame_size == (1280, 720)
    np.testing.assert_allclose(loaded.tray, TRAY, atol=0.05)
    np.testing.assert_allclose(loaded.keep, KEEP_ZONE, atol=0.05)
    assert loaded.die_px == pytest.approx(56.25)
    assert loaded.exposure == Exposure(16000, 2.5, (1.9, 1.6))
    assert loaded.checked and loaded.created == "2024-05-01T20:15:00"
    assert tuple(loaded.empty[10, 20]) == (1, 2, 3) and loaded.empty.shape == (720, 1280, 3)
    assert empty_picture_path(saved).name == "calibration.empty.png"
    assert loaded.exposure.controls() == {"exposure_us": 16000, "analogue_gain": 2.5, "colour_gains": (1.9, 1.6)}


def test_no_keep_zone_and_automatic_camera_are_allowed(tmp_path):
    path = save_profile(make_profile(keep=None, exposure=None), tmp_path / "p.toml")
    loaded = load_profile(path)
    assert loaded.keep is None and loaded.exposure is None


def test_to_tray_calibration_puts_points_in_the_right_zones(saved):
    calibration = load_profile(saved).to_tray_calibration()
    assert calibration.die_px == pytest.approx(56.25)
    assert zone_of(640, 300, calibration) == ROLL  # middle of the tray
    assert zone_of(640, 620, calibration) == KEEP  # inside the strip along the bottom
    assert zone_of(640, 20, calibration) == OUTSIDE  # above the tray
    assert zone_of(1250, 400, calibration) == OUTSIDE  # right of it


def test_a_missing_profile_is_its_own_error(tmp_path):
    with pytest.raises(ProfileMissing, match="dicetable calibrate") as error:
        load_profile(tmp_path / "none.toml")
    assert error.value.path == tmp_path / "none.toml"


def damage(path, old, new):
    text = path.read_text()
    assert old in text, f"{old!r} is not in the profile, the test is out of date"
    path.write_text(text.replace(old, new))


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ("version = 1", "version = 7", "version = 7"),
        ("version = 1", 'version = "one"', "version"),
        ("frame_size = [1280, 720]", "frame_size = [1280]", "frame_size"),
        ("[dice]\ndie_px = 56.25", "[dice]\ndie_px = 900", "dice.die_px = 900"),
        ("[dice]\ndie_px = 56.25", "[dice]\n", "dice.die_px is missing"),
        ("[1200.0, 680.0], [90.0, 660.0]]\n\n[keep]", "[90.0, 660.0], [1200.0, 680.0]]\n\n[keep]", "tray.corners"),
        ("[[100.0, 80.0],", "[[100.0, -80.0],", "outside the 1280x720 picture"),
        ("[[94.0, 540.0],", "[[20.0, 540.0],", "keep.corners"),
        ("exposure_us = 16000", "exposure_us = 0", "camera.exposure_us"),
        ("colour_gains = [1.9, 1.6]", "colour_gains = [1.9]", "camera.colour_gains"),
        ("corners = [[100.0", "corners = [[true", "tray.corners must be four"),
        ("[empty]", "[empty", "not valid TOML"),
    ],
)
def test_damaged_values_are_named(saved, old, new, problem):
    damage(saved, old, new)
    with pytest.raises(ProfileError) as error:
        load_profile(saved)
    assert not isinstance(error.value, ProfileMissing)
    assert str(saved) in str(error.value) and problem in str(error.value)


def test_the_empty_tray_picture_missing_damaged_or_the_wrong_size(saved):
    picture = empty_picture_path(saved)
    picture.write_bytes(b"\x89PNG not really")
    with pytest.raises(ProfileError, match="cannot be read"):
        load_profile(saved)
    picture.unlink()
    with pytest.raises(ProfileError, match="missing"):
        load_profile(saved)
    save_profile(make_profile(empty=np.zeros((480, 640, 3), np.uint8)), saved)
    with pytest.raises(ProfileError, match="640x480, not the profile's 1280x720"):
        load_profile(saved)


def test_binary_garbage_is_reported_not_raised_as_something_else(saved):
    saved.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ProfileError, match="cannot be read|not valid TOML"):
        load_profile(saved)


def test_saving_again_replaces_the_profile_whole(saved):
    save_profile(make_profile(die_px=60.0, checked=False), saved)
    loaded = load_profile(saved)
    assert loaded.die_px == pytest.approx(60.0) and not loaded.checked
    assert sorted(p.name for p in saved.parent.iterdir()) == ["calibration.empty.png", "calibration.toml"]


def test_the_profile_and_its_picture_can_be_read_by_other_users(saved):
    """The kiosk's own user writes them; `dicetable doctor` and `calibrate --check`, run by the admin, read them."""
    for path in (saved, empty_picture_path(saved)):
        assert path.stat().st_mode & 0o777 == 0o644, path


def test_a_profile_of_another_picture_size_says_what_differs_and_how_to_fix_it():
    assert size_problem((1280, 720), [1280, 720]) == ""  # a list and a tuple of the same size match
    assert size_problem((1280, 720), (640, 480)) == (
        "the tray was calibrated on 1280x720 pictures but the camera's "
        "are 640x480: set camera.size = [1280, 720] or run "
        "`dicetable calibrate` again"
    )


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ("frame_size = [1280, 720]", "frame_size = [" + "9" * 400 + ", 720]", "frame_size holds a number too big"),
        ("[dice]\ndie_px = 56.25", "[dice]\ndie_px = " + "9" * 400, "dice.die_px holds a number too big"),
        ("[[100.0, 80.0],", "[[" + "9" * 400 + ", 80.0],", "tray.corners holds a number too big"),
        ("exposure_us = 16000", "exposure_us = " + "9" * 400, "camera.exposure_us holds a number too big"),
        ("version = 1", "version = 0x" + "f" * 4000, "version holds a number too big"),
        ("frame_size = [1280, 720]", "frame_size = [" + "9" * 5000 + ", 720]", "not valid TOML"),  # past 4300 digits
        ("frame_size = [1280, 720]", "frame_size = " + "[" * 5000 + "]" * 5000, "not valid TOML"),
    ],
)
def test_numbers_python_cannot_take_and_nesting_it_cannot_follow_are_named(saved, old, new, problem):
    damage(saved, old, new)
    with pytest.raises(ProfileError) as error:
        load_profile(saved)
    assert str(saved) in str(error.value) and problem in str(error.value)


def test_an_empty_tray_picture_whose_header_claims_too_many_pixels_cannot_be_read(saved):
    """A JPEG or PNG whose size field was damaged: OpenCV raises rather than returning nothing."""
    empty_picture_path(saved).write_bytes(too_many_pixels())
    with pytest.raises(ProfileError, match="cannot be read"):
        load_profile(saved)
