"""Scoring a reading against labels: the rule from ../shared/datasets/README.md."""

import json

import cv2
import numpy as np

from tests.support import FIXTURES
from vision import Die, Reading
from vision.lab.scoring import Score, evaluate, match
from vision.labels import LabeledDie, load_labeled_set


def die(cx, cy, value, size=10.0, cocked=False, confidence=0.9):
    return Die(
        "d6",
        None if cocked else value,
        (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2),
        "roll",
        confidence,
        cocked,
    )


def label(x0, y0, x1, y1, value):
    return LabeledDie("d6", value, (x0, y0, x1, y1))


def test_a_detection_matches_the_box_holding_its_centre():
    pairs, phantoms, missed = match([die(15, 15, 3)], [label(0, 0, 10, 10, 1), label(10, 10, 20, 20, 3)])
    assert [(d.value, lab.value) for d, lab in pairs] == [(3, 3)]
    assert phantoms == [] and [lab.value for lab in missed] == [1]


def test_matching_is_one_to_one_and_extra_detections_are_phantoms():
    pairs, phantoms, missed = match([die(5, 5, 2), die(6, 6, 2)], [label(0, 0, 10, 10, 2)])
    assert len(pairs) == 1 and len(phantoms) == 1 and missed == []


def test_overlapping_boxes_pair_each_detection_with_the_nearer_box_centre():
    # two touching dice whose boxes overlap (x 8..12); both detections lie in the overlap
    labels = [label(0, 0, 12, 10, 4), label(8, 0, 20, 10, 5)]
    pairs, phantoms, missed = match([die(11, 5, 5), die(9, 5, 4)], labels)
    assert not phantoms and not missed
    assert sorted((d.value, lab.value) for d, lab in pairs) == [(4, 4), (5, 5)]


def test_a_label_without_a_box_matches_anywhere_in_the_image():
    pairs, phantoms, missed = match([die(500, 300, 7)], [LabeledDie("d10", 7, None)])
    assert len(pairs) == 1


def test_score_counts_correct_wrong_cocked_phantoms_and_missed():
    labels = [label(0, 0, 10, 10, 1), label(20, 0, 30, 10, 2), label(40, 0, 50, 10, 3), label(60, 0, 70, 10, 4)]
    reading = Reading((die(5, 5, 1), die(25, 5, 6), die(45, 5, 3, cocked=True), die(100, 100, 5)), 200, 200)
    from pathlib import Path

    from vision.labels import LabeledImage

    score = Score()
    score.add(reading, LabeledImage(Path("x.jpg"), 200, 200, tuple(labels)), 0.01)
    out = score.to_json()
    assert (out["labeled"], out["correct"], out["phantoms"], out["missed"]) == (4, 1, 1, 1)
    assert out["accuracy"] == 0.25
    assert out["confusion"] == {"1": {"1": 1}, "2": {"6": 1}, "3": {"cocked": 1}}
    assert (score.right, score.asked, score.silent) == (1, 1, 1)  # the 2 read as 6 surely; the cocked 3 asked
    assert out["sure_phantoms"] == 1 and out["sure_phantoms_rate"] == 0.25  # the 5 where no die lies


def test_a_misread_the_reader_was_unsure_of_is_flagged_not_unflagged():
    from pathlib import Path

    from vision import UNCERTAIN_BELOW
    from vision.labels import LabeledImage

    labels = (label(0, 0, 10, 10, 1), label(20, 0, 30, 10, 2), label(40, 0, 50, 10, 3))
    reading = Reading(
        (
            die(5, 5, 4, confidence=UNCERTAIN_BELOW - 0.1),
            die(25, 5, 5, confidence=UNCERTAIN_BELOW + 0.1),
            die(45, 5, 3, confidence=UNCERTAIN_BELOW - 0.1),
        ),
        200,
        200,
    )
    score = Score()
    score.add(reading, LabeledImage(Path("x.jpg"), 200, 200, labels), 0.01)
    assert (score.correct, score.silent) == (1, 1)  # only the sure 5 for a 2
    assert (score.right, score.asked) == (0, 2)  # the right 3, read unsure, is asked too


def test_evaluate_reads_a_labeled_folder(tmp_path):
    image = np.zeros((50, 80, 3), np.uint8)
    cv2.imwrite(str(tmp_path / "a.png"), image)
    (tmp_path / "labels.json").write_text(
        json.dumps(
            {
                "images": [
                    {
                        "file": "a.png",
                        "width": 80,
                        "height": 50,
                        "extra": "ignored",
                        "dice": [
                            {"kind": "d6", "value": 2, "box": [0, 0, 20, 20]},
                            {"kind": "d6", "value": 5, "box": [40, 0, 60, 20]},
                        ],
                    }
                ]
            }
        )
    )
    images = load_labeled_set(tmp_path)

    def fake(frame):
        return Reading((die(10, 10, 2), die(50, 10, 4)), frame.shape[1], frame.shape[0])

    out = evaluate(images, fake, lambda p: cv2.imread(str(p))).to_json()
    assert out["labeled"] == 2 and out["correct"] == 1 and out["accuracy"] == 0.5
    assert out["confusion"] == {"2": {"2": 1}, "5": {"4": 1}}
    assert {"labeled", "correct", "accuracy", "phantoms", "missed", "ms_per_image", "confusion"} <= set(out)


def test_an_unsure_phantom_is_no_sure_phantom():
    from pathlib import Path

    from vision.labels import LabeledImage

    reading = Reading(
        (die(5, 5, 1), die(100, 100, 2, confidence=0.3), die(150, 150, 3, cocked=True), die(180, 180, 4)), 200, 200
    )
    score = Score()
    score.add(reading, LabeledImage(Path("x.jpg"), 200, 200, (label(0, 0, 10, 10, 1),)), 0.01)
    assert (score.phantoms, score.sure_phantoms) == (3, 1)


def test_a_die_no_person_can_read_is_right_when_asked_and_wrong_when_read_surely():
    from pathlib import Path

    from vision.labels import LabeledImage

    labels = tuple(LabeledDie("d10", v, (x, 0, x + 10, 10), legible=False) for v, x in ((3, 0), (4, 20), (5, 40)))
    reading = Reading(
        (
            Die("d10", 7, (0, 0, 10, 10), "roll", 0.3),
            Die("d10", 9, (20, 0, 30, 10), "roll", 0.95),
            Die("d10", 5, (40, 0, 50, 10), "roll", 0.95),
        ),
        200,
        200,
    )
    score = Score()
    score.add(reading, LabeledImage(Path("x.jpg"), 200, 200, labels), 0.01)
    assert (score.right, score.asked, score.silent, score.illegible) == (2, 0, 1, 3)


def test_legible_is_read_from_the_labels_and_must_be_true_or_false(tmp_path):
    import pytest

    from vision.labels import labeled_die

    assert labeled_die({"kind": "d10", "value": 3, "box": None, "legible": False}).legible is False
    assert labeled_die({"kind": "d6", "value": 3}).legible is True
    with pytest.raises(ValueError, match="legible"):
        labeled_die({"kind": "d6", "value": 3, "legible": "no"})


def test_the_rendered_d10_held_out_set_marks_its_four_dice_no_person_can_read():

    heldout = load_labeled_set(FIXTURES / "d10-heldout")
    marked = sorted((image.path.name, die.value) for image in heldout for die in image.dice if not die.legible)
    assert marked == [
        ("heldout_7000003.jpg", 1),
        ("heldout_7000003.jpg", 6),
        ("heldout_7000003.jpg", 8),
        ("heldout_7000053.jpg", 6),
    ]


def test_a_set_with_its_own_split_keeps_it_and_marks_its_altered_copies(tmp_path):
    from vision.lab.splits import in_split

    (tmp_path / "labels.json").write_text(
        json.dumps(
            {
                "images": [
                    {
                        "file": "a_jpg.rf.1.jpg",
                        "width": 8,
                        "height": 8,
                        "split": "train",
                        "augmented": True,
                        "dice": [],
                    },
                    {"file": "b_jpg.rf.2.jpg", "width": 8, "height": 8, "split": "valid", "dice": []},
                    {"file": "c_jpg.rf.3.jpg", "width": 8, "height": 8, "split": "test", "dice": []},
                    {"file": "IMG_5.jpg", "width": 8, "height": 8, "dice": []},
                ]
            }
        )
    )
    a, b, c, plain = load_labeled_set(tmp_path)
    assert (a.augmented, b.augmented, a.split, b.split) == (True, False, "train", "valid")
    assert [in_split(i, "heldout") for i in (a, b, c)] == [False, True, True]
    assert [in_split(i, "train") for i in (a, b, c)] == [True, False, False]
    assert all(in_split(i, "all") for i in (a, b, c, plain))
    from vision.lab.splits import is_held_out  # without a split of its own, a photo is split by its file name

    assert in_split(plain, "heldout") == is_held_out("IMG_5.jpg") != in_split(plain, "train")
