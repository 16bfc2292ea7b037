"""A person's blind read (vision.lab.blind): photos drawn and renamed with their labels apart, and what the
person read scored against those labels."""

import json

import cv2
import numpy as np
import pytest

from tests.support import FIXTURES
from vision.lab.blind import draw, main, score
from vision.labels import load_labeled_set

STILLS = FIXTURES / "throws" / "stills-d6"


def test_the_photos_drawn_are_the_sets_renamed_with_their_labels_beside_them(tmp_path):
    source = {image.path.name: image for image in load_labeled_set(STILLS)}
    assert draw(STILLS, tmp_path, count=3, seed=1) == 3
    photos = sorted(p.name for p in (tmp_path / "photos").iterdir())
    assert photos == ["00.png", "01.png", "02.png"]  # nothing in a name says what the photo shows
    rows = json.loads((tmp_path / "labels.json").read_text())["images"]
    assert len({row["from"] for row in rows}) == 3
    for image, row in zip(load_labeled_set(tmp_path), rows):
        original = source[row["from"]]
        assert [(d.value, d.box) for d in image.dice] == [(d.value, d.box) for d in original.dice]
        assert np.array_equal(cv2.imread(str(image.path)), cv2.imread(str(original.path)))
    assert draw(STILLS, tmp_path / "again", count=3, seed=1) == 3  # the same seed draws the same photos
    again = json.loads((tmp_path / "again" / "labels.json").read_text())["images"]
    assert [row["from"] for row in again] == [row["from"] for row in rows]


def test_a_person_is_right_where_sure_and_reading_every_die_of_a_photo(tmp_path):
    draw(STILLS, tmp_path, count=2, seed=1)
    first, second = load_labeled_set(tmp_path)
    truth = {image.path.stem: sorted(d.value for d in image.dice) for image in (first, second)}
    dice = sum(len(v) for v in truth.values())
    perfect = {name: {"values": values[::-1], "sure": True} for name, values in truth.items()}  # any order
    assert score(tmp_path, perfect) == (dice, dice, [])
    unsure = {**perfect, "00": {"values": truth["00"], "sure": False}}
    assert score(tmp_path, unsure)[0] == dice - len(truth["00"])
    one_off = {**perfect, "01": {"values": [*truth["01"][:-1], 7 - truth["01"][-1]], "sure": True}}
    right, _, differ = score(tmp_path, one_off)
    assert right == dice - 1 and len(differ) == 1 and differ[0].startswith("01: labeled")


def test_the_command_scores_a_file_and_names_a_photo_left_unread(tmp_path, capsys):
    assert main(["draw", str(STILLS), str(tmp_path / "b"), "--count", "2"]) == 0
    assert "give the person that folder alone" in capsys.readouterr().out
    reads = tmp_path / "reads.json"
    reads.write_text(json.dumps({"00": {"values": [], "sure": False}}))
    with pytest.raises(SystemExit):
        main(["score", str(tmp_path / "b"), str(reads)])
    assert "no read for photo 01" in capsys.readouterr().err
    truth = {i.path.stem: [d.value for d in i.dice] for i in load_labeled_set(tmp_path / "b")}
    reads.write_text(json.dumps({name: {"values": v, "sure": True} for name, v in truth.items()}))
    assert main(["score", str(tmp_path / "b"), str(reads)]) == 0
    assert "(100.0%)" in capsys.readouterr().out


def test_a_draw_never_mixes_with_an_earlier_one_and_bad_reads_are_named(tmp_path, capsys):
    assert draw(STILLS, tmp_path, count=100) == len(load_labeled_set(STILLS))  # no more than the set holds
    with pytest.raises(ValueError, match="already holds photos"):
        draw(STILLS, tmp_path, count=2)
    with pytest.raises(SystemExit):
        main(["draw", str(STILLS), str(tmp_path), "--count", "2"])
    assert "already holds photos" in capsys.readouterr().err
    for reads, named in (([], "the reads are"), ({"00": {"values": [3], "sure": "yes"}}, "photo 00")):
        with pytest.raises(ValueError, match=named):
            score(tmp_path, reads)
