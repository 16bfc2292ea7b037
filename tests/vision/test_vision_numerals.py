"""Six-sided dice with numerals instead of pips (vision.lab.numerals): a rendered set of dice the readers were
never taught, and what the table makes of them (issue 39)."""

import contextlib
import io
import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.lab.numerals import LOOKS, main, write_numeral_set
from vision.lab.render import flat
from vision.labels import load_labeled_set


def share_near(pixels: np.ndarray, colour) -> float:
    """The share of `pixels` (N x 3) within 40 of `colour` in every channel."""
    return float((np.abs(pixels.astype(int) - colour).max(axis=1) < 40).mean())


def test_each_numeral_photo_holds_its_dice_where_its_labels_say(tmp_path):
    """Each labeled box holds a die: its middle is the look's body with the look's ink (the digit) on it, never the
    felt; no two dice touch."""
    look = LOOKS["black"]
    images = load_labeled_set(write_numeral_set(tmp_path, photos=6, look="black", seed=3))
    assert len(images) == 6 and all(2 <= len(i.dice) <= 5 for i in images)
    for image in images:
        frame = cv2.imread(str(image.path))
        for k, die in enumerate(image.dice):
            x0, y0, x1, y1 = die.box
            assert 0 <= x0 < x1 <= image.width and 0 <= y0 < y1 <= image.height and 1 <= die.value <= 6
            w, h = x1 - x0, y1 - y0
            middle = frame[int(y0 + h / 3) : int(y1 - h / 3), int(x0 + w / 3) : int(x1 - w / 3)].reshape(-1, 3)
            assert share_near(middle, look.body) > 0.2 and share_near(middle, look.ink) > 0.1, (image.path.name, k)
            for other in image.dice[k + 1 :]:
                assert other.box[0] > x1 or other.box[2] < x0 or other.box[1] > y1 or other.box[3] < y0


def test_a_numeral_face_is_its_digit_not_its_pips():
    faces = [flat.face(v, LOOKS["white"])[0] for v in range(1, 7)]
    pips = [flat.face(v, flat.WHITE)[0] for v in range(1, 7)]
    for v, face in enumerate(faces, 1):
        assert all(np.abs(face - other).max() > 100 for other in faces[v:]), v
        assert np.abs(face - pips[v - 1]).max() > 100, v


def test_a_symbol_die_has_a_skull_on_the_1_a_crest_on_the_6_and_pips_between():
    look = LOOKS["skull"]
    faces = [flat.face(v, look)[0] for v in range(1, 7)]
    pips = [flat.face(v, replace(look, pip_style="round"))[0] for v in range(1, 7)]
    for v, face in enumerate(faces, 1):
        assert all(np.abs(face - other).max() > 100 for other in faces[v:]), v
        assert (np.abs(face - pips[v - 1]).max() > 100) == (v in (1, 6)), v
    ink = [share_near(face.reshape(-1, 3), look.ink) for face in faces]
    assert ink[0] > 2 * ink[1] and ink[5] > ink[4]  # a skull is more ink than two pips, a crest than five


def test_the_command_writes_the_set_and_refuses_what_it_cannot_draw(tmp_path, capsys):
    assert main([str(tmp_path / "set"), "--photos", "2", "--look", "red"]) == 0
    assert "2 photos of red dice (red-numerals)" in capsys.readouterr().out
    assert len(json.loads((tmp_path / "set" / "labels.json").read_text())["images"]) == 2
    for wrong in (["--photos", "0"], ["--look", "gold"]):
        with pytest.raises(SystemExit):
            main([str(tmp_path / "x"), *wrong])
        assert wrong[0] in capsys.readouterr().err


@pytest.fixture(scope="module")
def white_night(tmp_path_factory):
    """`dicetable evaluate` of 120 photos of white dice with black numerals, --adapt 30 (its JSON)."""
    from appliance.cli import main as dicetable

    folder = tmp_path_factory.mktemp("white")
    write_numeral_set(folder, photos=120, look="white")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert dicetable(["evaluate", str(folder), "--adapt", "30", "--json"]) == 0
    return json.loads(out.getvalue())


def test_numeral_dice_the_reader_doubts_are_asked_about_and_learning_them_adds_no_silent_mistakes(white_night):
    """The face reader takes most white numeral dice for no die; a night, like the table, knows how many dice were
    thrown, so it asks about them (Reading.looked_for) rather than miss them: before that, 132 of 146 were missed.
    Learning them never raises the silent rate."""
    before, after = white_night["before"], white_night["after"]
    assert before["labeled"] >= 300 and after["missed"] <= 0.05 * after["labeled"], after
    assert after["silent_rate"] <= before["silent_rate"] <= 0.03, (before, after)


def test_after_30_confirmed_numeral_dice_the_faces_learnt_are_read_without_asking(white_night):
    """After 30 dice every face has been met in this night, the fives fewer than three times: the classifier reads
    the faces it has learnt (before, until every face had been seen three times, it only doubted: none was read
    without asking; 59% now), and leaves the fives to the reader, which doubts them."""
    after = white_night["after"]
    assert after["right_rate"] >= 0.5 and after["silent_rate"] <= 0.005, after


@pytest.mark.xfail(
    strict=True,
    reason="issue 39 not met for numeral dice: the face reader doubts them, so the table asks about each until it "
    "has met every face once, and about a face until it has seen it three times; after 30 dice a face or two has "
    "not been (vision/README.md, learnt dice)",
)
def test_after_30_confirmed_numeral_dice_the_table_reads_them_as_issue_39_asks(white_night):
    """Issue 39's targets after 30 confirmed dice, right >= 90% and silent <= 0.5%, on white dice with black
    numerals, which a person reads without effort."""
    after = white_night["after"]
    assert after["right_rate"] >= 0.90 and after["silent_rate"] <= 0.005, after


def test_the_look_reads_a_numeral_die_the_ten_sided_reader_took_for_its_own_by_its_digits(tmp_path):
    """The ten-sided reader reads the digits of a six-sided die with numerals (a 5 as its 5); the pip reader sees a
    digit as pips (nearly all as a one). So the look of six-sided dice reads such a die as the ten-sided reader read
    the numbers 1 to 6, and a game of six-sided dice learns and reads it by its digits."""
    import vision
    from vision.lab.scoring import match
    from vision.learnt.look import Look

    look, taken = Look("d6"), []
    for colour in ("red", "black"):
        for image in load_labeled_set(write_numeral_set(tmp_path / colour, photos=20, look=colour)):
            frame = cv2.imread(str(image.path))
            for die, label in match(vision.read(frame).dice, image.dice)[0]:
                if die.kind == "d10":
                    crops = look.crops(frame, [die])
                    (digits,), (pips,) = look.see(crops, [die])[1], look.see(crops)[1]
                    assert np.allclose(digits, die.probs[1:7])
                    taken.append((label.value, digits.argmax() + 1, pips.argmax() + 1))
    assert len(taken) >= 20, taken
    by_digits, by_pips = sum(label == read for label, read, _ in taken), sum(label == read for label, _, read in taken)
    assert by_digits >= 2 / 3 * len(taken) and by_pips <= 1 / 3 * len(taken), taken


def test_numeral_dice_the_ten_sided_reader_takes_for_its_own_are_asked_about_then_read_as_six_sided(tmp_path):
    """The ten-sided reader reads many black dice with white numerals as ten-sided ones (a 5 as its 5). In a night of
    six-sided dice such a die is asked about as a six-sided die of the value it read (before: read wrong without
    asking, 5.08% of the dice, and at the table a throw the game refuses, which teaches nothing); once every face is
    learnt, the learnt dice read those like them. 120 photos: silent 0.28% with nothing learnt and after 60
    dice, right 0.3% -> 91.6% (79.0% after 30, where before nothing was)."""
    from appliance.cli import main as dicetable

    write_numeral_set(tmp_path, photos=120, look="black")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert dicetable(["evaluate", str(tmp_path), "--adapt", "60", "--json"]) == 0
    before, after = json.loads(out.getvalue())["before"], json.loads(out.getvalue())["after"]
    assert before["silent_rate"] <= 0.01, before
    assert after["silent_rate"] <= 0.01 and after["right_rate"] >= 0.85, after


def test_symbol_dice_are_asked_about_until_learnt_and_then_read(tmp_path):
    """Dice with a skull on the 1 and a crest on the 6 (issue 39: faces that are not pips): the readers never saw the
    pictures, so the table asks about them rather than read them, and once it has learnt them from 100 confirmed
    dice it reads them (150 photos: right 65.6% -> 95.5%; silent 0.24% both, a three read as a two)."""
    from appliance.cli import main as dicetable

    write_numeral_set(tmp_path, photos=150, look="skull")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert dicetable(["evaluate", str(tmp_path), "--adapt", "100", "--json"]) == 0
    before, after = json.loads(out.getvalue())["before"], json.loads(out.getvalue())["after"]
    assert before["asked_rate"] >= 0.25 and before["right_rate"] <= 0.75, before  # a third of the faces: pictures
    assert after["right_rate"] >= 0.90 and after["silent_rate"] <= max(before["silent_rate"], 0.005), after
