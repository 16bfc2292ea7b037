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
from conftest import dataset

TARGETS = {"tray-d6-photos": 0.990, "wood-webcam-d6": 0.980}
FLOORS = {"tray-d6-photos": 0.96, "wood-webcam-d6": 0.96}
NOT_MET = {("tray-d6-photos", "all"), ("tray-d6-photos", "heldout"), ("wood-webcam-d6", "heldout")}
PHANTOM_SHARE = 0.005   # tray-d6-photos

_scores = {}


def score(name, split):
    if (name, split) not in _scores:
        keep = vision.SPLITS[split]
        images = [i for i in vision.load_labeled_set(dataset(name)) if keep(i.path.name)]
        _scores[name, split] = vision.evaluate(images, vision.read, lambda p: cv2.imread(str(p))).to_json()
    return _scores[name, split]


SPLITS = ["all", "heldout"]


@pytest.mark.parametrize("name, split", [
    pytest.param(name, split, marks=[pytest.mark.xfail(reason="issue 3 target not met yet (vision/models/README.md)",
                                                       strict=True)] if (name, split) in NOT_MET else [])
    for name in sorted(TARGETS) for split in SPLITS])
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
