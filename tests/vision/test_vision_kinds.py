"""A die of the other kind is reported as what it is, not read as a die of the kind the reader expects
(issue 4): the six-sided reader reports the rendered held-out d10s as d10, and real six-sided dice stay d6 to
both readers on the held-out photos (the kinds reader learned from the others). Kinds come from the labels."""

import cv2
import numpy as np
import pytest

from tests.support import FIXTURES, photos
from tests.vision.support import FixedNet, kinds_reported
from vision import DiceReader
from vision.d10 import D10Reader
from vision.labels import load_labeled_set

HELDOUT_D10 = FIXTURES / "d10-heldout"


@pytest.fixture(scope="module")
def readers():
    return {"d6": DiceReader(), "d10": D10Reader()}


def test_the_six_sided_reader_reports_ten_sided_dice_as_d10(readers):
    images = load_labeled_set(HELDOUT_D10)
    kinds = kinds_reported(readers["d6"], images)
    found = kinds.total()
    assert found >= 0.8 * sum(len(i.dice) for i in images)
    assert kinds["d10"] + kinds["d10?"] >= 0.95 * found, kinds


@pytest.mark.parametrize("name", ["tray-d6-photos", "wood-webcam-d6"])
def test_real_six_sided_dice_are_six_sided_to_both_readers(readers, name):
    images = photos(name, "heldout")
    labeled = sum(len(i.dice) for i in images)
    six = kinds_reported(readers["d6"], images)
    assert six.total() >= 0.9 * labeled and six["d6"] + six["d6?"] >= 0.98 * six.total(), six
    # The ten-sided reader finds fewer of them (its finder knows d10s) and calls some unsure d10s, which the
    # table asks the player about; a sure d10 would be a silent misread.
    ten = kinds_reported(readers["d10"], images)
    assert ten.total() >= 0.6 * labeled, ten
    assert ten["d6"] + ten["d6?"] >= 0.85 * ten.total() and ten["d10"] <= 0.01 * ten.total(), ten


def test_a_six_sided_die_among_ten_sided_ones_is_read_by_the_face_reader_leaning_included():
    """The ten-sided reader hands a die it calls six-sided to the six-sided face reader, whose "cocked"
    stands as it does for the six-sided reader: reported, not read."""
    from vision.lab.render import flat

    frame, _ = flat.six_dice_frame(1280, 960, seed=4)
    six_sided = np.log([0.02] + [0.01] * 10 + [0.88])  # no die, d10 values 1..10, six-sided die
    reader = D10Reader()
    reader.reader, reader.kinds = FixedNet(six_sided), FixedNet(six_sided)
    reader._d6_faces = [FixedNet(np.log([0.02, 0.05, 0.05, 0.20, 0.05, 0.03, 0.05, 0.55]))]  # class 7: cocked
    dice = reader.read(frame).dice
    assert len(dice) == 6
    for die in dice:  # confidence: a die (0.98) but not a d10 (0.10), times the face reader's "cocked"
        assert (die.kind, die.value, die.cocked) == ("d6", None, True)
        assert die.confidence == pytest.approx((0.98 - 0.10) * 0.55, abs=1e-3)
    reader._d6_faces = [FixedNet(np.log([0.02, 0.05, 0.05, 0.70, 0.05, 0.03, 0.05, 0.05]))]  # a sure 3
    dice = reader.read(frame).dice
    assert {(d.kind, d.value, d.cocked) for d in dice} == {("d6", 3, False)}
    for die in dice:  # the face reader's shares, each as sure as the die is six-sided (what learnt dice blend with)
        assert len(die.probs) == 8 and sum(die.probs) == pytest.approx(0.98 - 0.10, abs=1e-3)
        assert die.probs[3] == pytest.approx(0.70 * (0.98 - 0.10), abs=1e-3) == die.confidence


def test_a_ten_sided_die_carries_the_ten_sided_readers_shares_for_each_class(readers):
    """`Die.probs` of a d10, to both readers: the ten-sided reader's shares (no die, 1..10, six-sided die), its
    value the likeliest of 1..10 and its share the die's confidence (what learnt dice blend with)."""
    image = load_labeled_set(HELDOUT_D10)[0]
    frame = cv2.imread(str(image.path))
    for kind, reader in readers.items():
        tens = [d for d in reader.read(frame).dice if d.kind == "d10"]
        assert tens, kind
        for die in tens:
            assert len(die.probs) == 12 and sum(die.probs) == pytest.approx(1, abs=1e-4)
            assert np.argmax(die.probs[1:11]) + 1 == die.value and die.probs[die.value] == die.confidence
