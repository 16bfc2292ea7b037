"""The reader on the real labeled photo sets in ../shared/datasets (skipped when they are absent).

Targets from issue 3: tray-d6-photos accuracy >= 99.0% with phantoms <= 0.5% of labeled dice;
wood-webcam-d6 accuracy >= 98%. The held-out split (photos the models never trained on) must meet the
same figures, or the full-set figure would only show that the models remember their training photos.

The accuracy targets are not all met yet: the sets and splits in NOT_MET are marked xfail (strict, so
meeting one shows as a failure until it is moved out of NOT_MET), and FLOORS guard against falling back
below where the reader stands (a regression guard, under the measured held-out figures, not a target).
"""

import cv2
import pytest

import vision
from tests.support import dataset, photos
from tests.vision.support import OTHER_CAMERAS, as_seen_by
from vision.lab import scoring
from vision.lab.closeups import close_up, moved, write_close_ups
from vision.labels import box_holds, load_labeled_set

TARGETS = {"tray-d6-photos": 0.990, "wood-webcam-d6": 0.980}
FLOORS = {"tray-d6-photos": 0.96, "wood-webcam-d6": 0.96}
NOT_MET = {("tray-d6-photos", "all"), ("tray-d6-photos", "heldout")}
PHANTOM_SHARE = 0.005  # tray-d6-photos

_scores = {}


def score(name, split):
    if (name, split) not in _scores:
        _scores[name, split] = scoring.evaluate(
            photos(name, split), vision.read, lambda p: cv2.imread(str(p))
        ).to_json()
    return _scores[name, split]


SPLITS = ["all", "heldout"]


@pytest.mark.parametrize(
    "name, split",
    [
        pytest.param(
            name,
            split,
            marks=[pytest.mark.xfail(reason="issue 3 target not met yet (vision/models/README.md)", strict=True)]
            if (name, split) in NOT_MET
            else [],
        )
        for name in sorted(TARGETS)
        for split in SPLITS
    ],
)
def test_accuracy_target(name, split):
    out = score(name, split)
    assert out["accuracy"] >= TARGETS[name], out


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", sorted(FLOORS))
def test_accuracy_does_not_fall_below_the_floor(name, split):
    out = score(name, split)
    assert out["labeled"] > 0
    assert out["accuracy"] >= FLOORS[name], out


@pytest.mark.parametrize("split", SPLITS)
def test_tray_phantoms_within_target(split):
    out = score("tray-d6-photos", split)
    assert out["phantoms"] <= PHANTOM_SHARE * out["labeled"], out


# Issue 41's trust targets for the held-out photos of a set the models learned from (its right target, 99% read
# right without asking, is not met: 95.3% on tray, 98.0% on wood, the rest asked; vision/models/README.md, "Trust").
HELD_OUT_SILENT, HELD_OUT_SURE_PHANTOMS, HELD_OUT_RIGHT = 0.002, 0.005, 0.99


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_held_out_photos_are_seldom_read_wrong_or_seen_where_no_die_is_without_asking(name):
    out = score(name, "heldout")
    assert out["silent_rate"] <= HELD_OUT_SILENT and out["sure_phantoms_rate"] <= HELD_OUT_SURE_PHANTOMS, out


@pytest.mark.xfail(reason="issue 41 target not met yet (vision/models/README.md, Trust)", strict=True)
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_held_out_photos_are_read_right_without_asking(name):
    assert score(name, "heldout")["right_rate"] >= HELD_OUT_RIGHT


@pytest.mark.parametrize("die_share", [1 / 3, 1 / 2, 0.8])
def test_a_close_up_is_read_about_as_well_as_the_photo(die_share):
    """Each held-out tray die, photographed from close by: read as one die, not as its pips (which the wide
    finder, knowing dice up to a third of its look, took for dice), nearly as often as in the photo itself.
    At 0.8 the picture is a crop of the die, which only the quarter look sees whole (`reader.BARE_LOOKS`)."""
    images = photos("tray-d6-photos", "heldout")
    right = 0
    for image in images:
        frame = cv2.imread(str(image.path))
        for die in image.dice:
            picture, move = close_up(frame, die.box, die_share, 900)
            box = moved(die.box, move)
            pairs, _, _ = scoring.match(vision.read(picture).dice, [type(die)(die.kind, die.value, box)])
            right += any(found.value == die.value for found, _ in pairs)
    in_photo = score("tray-d6-photos", "heldout")
    assert right / in_photo["labeled"] >= in_photo["accuracy"] - 0.04, (right, in_photo)


# Issue 41's close-up target, for the mistakes that are not asked: a die filling the picture was read as its pips,
# each surely a one (before the pips' holder was read as the die, `reader.DiceReader._pips_as_dice`: 2.9% of wood's
# held-out close-ups at half the picture read wrong without asking, 15.9% of the crops inside their top face).
CLOSE_UP_SILENT = {0.5: 0.02, 1.0: 0.05}


@pytest.mark.parametrize("die_share", sorted(CLOSE_UP_SILENT))
def test_a_close_up_of_a_wooden_die_is_not_read_as_its_pips_without_asking(tmp_path, die_share):
    """Wood's held-out dice seen close by (`vision.lab.closeups`), the top face half the picture with its sides and
    the desk around it, or the whole picture: the finder's looks may miss the die and find its pips, each of which
    reads as a one."""
    write_close_ups(dataset("wood-webcam-d6"), tmp_path, split="heldout", die_share=die_share)
    out = scoring.evaluate(load_labeled_set(tmp_path), vision.read, lambda p: cv2.imread(str(p))).to_json()
    assert out["labeled"] > 200 and out["silent_rate"] <= CLOSE_UP_SILENT[die_share], out


# Dice showing one, side by side, also read as a face of two or three taken together (at 0.90-0.96 here).
DICE_OF_ONE = {"IMG_20191209_100535.jpg": 2, "IMG_20191208_112951.jpg": 3}  # tray-d6-photos: how many ones


@pytest.mark.parametrize("share", [0.5, 0.7, 0.9])
@pytest.mark.parametrize("photo", sorted(DICE_OF_ONE))
def test_a_close_up_of_dice_showing_one_side_by_side_reads_each_as_a_one(photo, share):
    """Two or three dice showing one, cut out so that they span `share` of the picture, stay so many ones: they
    are not the pips of a two or a three (`reader.PIP_SHARE`, and each reads as a one more surely)."""
    image = next(image for image in photos("tray-d6-photos") if image.path.name == photo)
    ones = [die.box for die in image.dice if die.value == 1]
    assert len(ones) == DICE_OF_ONE[photo]
    around = (min(b[0] for b in ones), min(b[1] for b in ones), max(b[2] for b in ones), max(b[3] for b in ones))
    picture, move = close_up(cv2.imread(str(image.path)), around, share, 224)
    found = [
        die.value for die in vision.read(picture).dice if any(box_holds(moved(b, move), *die.centre) for b in ones)
    ]
    assert found == [1] * len(ones), found


# tomitomi3-gray-d6 (neither face network learnt from it): its black dice lie on a dark dish, and the finder boxes
# the dish with the die; framed so wide, a die showing two read as a one at 0.6-0.8 (49 of its 400 twos, most of its
# silent mistakes) until an unsure die was also read framed tighter and wider (`faces.FRAMINGS`).
DARK_TWOS_SILENT = 0.03  # of a quarter of its twos: before, 7 of 100; now 2


def test_a_dark_die_boxed_with_its_dark_dish_is_asked_about_rather_than_read_wrong():
    twos = [image for image in photos("tomitomi3-gray-d6") if image.dice[0].value == 2][::4]
    out = scoring.evaluate(twos, vision.read, lambda p: cv2.imread(str(p))).to_json()
    assert out["labeled"] == 100 and out["silent_rate"] <= DARK_TWOS_SILENT, out


def seen_by(name, camera):
    if (name, camera) not in _scores:
        _scores[name, camera] = scoring.evaluate(
            photos(name, "heldout"), as_seen_by(vision.read, camera), lambda p: cv2.imread(str(p))
        ).to_json()
    return _scores[name, camera]


@pytest.mark.parametrize("camera", sorted(OTHER_CAMERAS))
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_held_out_photos_read_alike_by_another_camera(name, camera):
    """The held-out photos at half and twice their resolution, and under a warm lamp or cold daylight, lose
    at most 2% of their dice: nothing is tuned to the pictures of the cameras that took them."""
    seen, as_taken = seen_by(name, camera), score(name, "heldout")
    assert seen["correct"] >= as_taken["correct"] - 0.02 * as_taken["labeled"], (seen, as_taken)


@pytest.mark.parametrize("camera", sorted(OTHER_CAMERAS))
def test_tray_photos_gain_no_phantoms_by_another_camera(camera):
    """Nor do phantoms come with another camera (counted on tray-d6-photos, whose boxes cover whole dice:
    wood-webcam-d6's cover only the top face, so there a die found a little off its top counts as a phantom)."""
    seen, as_taken = seen_by("tray-d6-photos", camera), score("tray-d6-photos", "heldout")
    assert seen["phantoms"] <= as_taken["phantoms"] + PHANTOM_SHARE * as_taken["labeled"], (seen, as_taken)
