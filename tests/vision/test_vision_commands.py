"""The vision subcommands of `dicetable`: read, evaluate, bench."""

import json

import cv2
import numpy as np
import pytest

from appliance.cli import main
from tests.support import FIXTURES
from vision.lab.render import flat


def write_six_dice(path, seed):
    frame, truth = flat.six_dice_frame(1280, 960, seed=seed)
    cv2.imwrite(str(path), frame)
    return truth


def test_read_prints_the_dice_of_each_image(tmp_path, capsys):
    truths = [write_six_dice(tmp_path / "a.png", 1), write_six_dice(tmp_path / "b.png", 2)]
    assert main(["read", str(tmp_path / "a.png"), str(tmp_path / "b.png"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["image"] for r in out["images"]] == [str(tmp_path / "a.png"), str(tmp_path / "b.png")]
    for result, truth in zip(out["images"], truths):
        assert len(result["dice"]) == 6
        assert {"kind", "value", "box", "zone", "confidence", "cocked", "uncertain"} <= set(result["dice"][0])
        for value, box in truth:  # each die: read right, or flagged so the table asks
            die = next(
                d for d in result["dice"] if box[0] <= d["centre"][0] <= box[2] and box[1] <= d["centre"][1] <= box[3]
            )
            assert die["value"] == value or die["uncertain"], die


def test_read_names_where_it_took_a_die_for_no_die(tmp_path, capsys):
    """White dice with black numerals, which the reader was never taught: it takes most for no die, and says where
    (what the table asks about when a die is missing), likeliest first, in the JSON too."""
    from vision.lab.numerals import write_numeral_set
    from vision.labels import load_labeled_set

    (image,) = load_labeled_set(write_numeral_set(tmp_path, photos=1, look="white", seed=2))
    assert main(["read", str(image.path), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["images"]
    placed = [
        d
        for d in result["doubted"]
        if any(b.box[0] <= d["centre"][0] <= b.box[2] and b.box[1] <= d["centre"][1] <= b.box[3] for b in image.dice)
    ]
    assert len(result["dice"]) + len(placed) >= len(image.dice) and placed, result
    assert all(d["uncertain"] for d in result["doubted"])
    assert main(["read", str(image.path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = result["doubted"][0]["centre"]
    assert lines[-1].startswith(f"  taken for no die, likeliest dice first: ({first[0]:.0f}, {first[1]:.0f})")


def test_read_reports_an_unreadable_file(tmp_path, capsys):
    (tmp_path / "broken.jpg").write_bytes(b"not an image")
    assert main(["read", str(tmp_path / "broken.jpg"), "--json"]) == 1
    assert "error" in json.loads(capsys.readouterr().out)["images"][0]


def test_evaluate_scores_a_labeled_folder(tmp_path, capsys, monkeypatch):
    import vision
    from vision import Die, Reading

    images, drawn = [], {}
    for i in range(2):
        truth = write_six_dice(tmp_path / f"{i}.png", 10 + i)
        dice = [{"kind": "d6", "value": v, "box": list(b)} for v, b in truth]
        dice[0]["value"] = 6 if dice[0]["value"] != 6 else 5  # one label the reading must disagree with
        images.append({"file": f"{i}.png", "width": 1280, "height": 960, "dice": dice})
        drawn[i] = truth
    (tmp_path / "labels.json").write_text(json.dumps({"images": images}))

    # the command's plumbing, not the networks: a reader that reports exactly what was drawn
    frames = iter(range(2))

    def what_was_drawn(frame, calibration=None):
        truth = drawn[next(frames)]
        return Reading(tuple(Die("d6", v, b, "roll", 1.0) for v, b in truth), frame.shape[1], frame.shape[0])

    monkeypatch.setattr(vision, "read", what_was_drawn)

    assert main(["evaluate", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "labeled",
        "correct",
        "accuracy",
        "phantoms",
        "missed",
        "ms_per_image",
        "confusion",
        "right",
        "asked",
        "silent",
        "sure_phantoms",
        "right_rate",
        "asked_rate",
        "silent_rate",
        "sure_phantoms_rate",
        "illegible",
    }
    assert (out["labeled"], out["correct"], out["phantoms"], out["missed"]) == (12, 10, 0, 0)
    assert out["confusion"]["6"]["1"] == 2
    # every die read at 1.0: none asked, the two labels it disagrees with are read wrong without asking
    assert (out["right"], out["asked"], out["silent"], out["sure_phantoms"]) == (10, 0, 2, 0)
    assert out["silent_rate"] == round(2 / 12, 4)

    frames = iter(range(2))
    assert main(["evaluate", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()  # for people: what the table would do comes first
    assert lines[0].startswith(
        "of 12 labeled dice: 10 right without asking (83.3%), 0 asked (0.0%), "
        "2 read wrong without asking (16.7%), 0 sure phantoms (0.0%)"
    ), lines[0]
    assert "10/12 dice read correctly" in lines[1]


def test_bench_vision_prints_every_timing(capsys):
    assert main(["bench", "vision", "--repeats", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "read_ms",
        "read_tray_ms",
        "rest_ms",
        "read_d10_ms",
        "adapt_ms",
        "adapt_corrected_ms",
        "read_adapted_ms",
    }
    assert 0 < out["rest_ms"] < out["read_ms"]
    assert min(out["read_tray_ms"], out["read_d10_ms"], out["adapt_ms"], out["read_adapted_ms"]) > 0
    assert out["adapt_corrected_ms"] > out["adapt_ms"]  # a corrected die is also seen nudged


def _read_json(path, *options, capsys):
    assert main(["read", str(path), "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)["images"][0]["dice"]


def _assert_read(found, truth, shift=(0, 0), zoom=1.0):
    """Each labeled die (value, box in the first frame) found where the photo shows it, read right or flagged."""
    assert len(found) == len(truth), found
    for value, box in truth:
        x0, y0, x1, y1 = ((c - shift[k % 2]) * zoom for k, c in enumerate(box))
        die = next(d for d in found if x0 <= d["centre"][0] <= x1 and y0 <= d["centre"][1] <= y1)
        assert die["value"] == value or die["uncertain"], die


def test_read_finds_dice_whatever_their_size_in_a_bare_photo(tmp_path, capsys):
    frame, truth = flat.six_dice_frame(400, 300, seed=4)
    # the same dice in a photo four times as wide: 1/48 of its long side, a few pixels at the finder's first look
    cv2.imwrite(str(tmp_path / "wide.png"), cv2.copyMakeBorder(frame, 0, 900, 0, 1200, cv2.BORDER_REPLICATE))
    _assert_read(_read_json(tmp_path / "wide.png", capsys=capsys), truth)
    # a close-up of four of them, enlarged: each die about a third of the photo's side, where the first look
    # sees pips the size of small dice
    close = cv2.resize(frame[50:250, 30:260], None, fx=2.5, fy=2.5, interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(tmp_path / "close.png"), close)
    inside = [(v, b) for v, b in truth if b[2] < 260]
    _assert_read(_read_json(tmp_path / "close.png", capsys=capsys), inside, shift=(30, 50), zoom=2.5)


def test_read_at_a_given_die_size(tmp_path, capsys):
    frame, truth = flat.six_dice_frame(400, 300, seed=4)
    cv2.imwrite(str(tmp_path / "wide.png"), cv2.copyMakeBorder(frame, 0, 900, 0, 1200, cv2.BORDER_REPLICATE))
    _assert_read(_read_json(tmp_path / "wide.png", "--die-px", "40", capsys=capsys), truth)

    cv2.imwrite(str(tmp_path / "felt.png"), cv2.blur(frame[0:60, 0:60], (9, 9)))  # no die in it
    assert main(["read", str(tmp_path / "felt.png")]) == 0
    assert "--die-px" in capsys.readouterr().out  # no dice found: the text says what to try


def test_read_rejects_a_die_size_that_is_not_one(tmp_path, capsys):
    for wrong in ("0", "-3", "big", "0.5", "4", "inf", "nan"):  # under 8 px: too few pixels to read
        with pytest.raises(SystemExit):
            main(["read", str(tmp_path / "any.png"), "--die-px", wrong])
        assert "not a die size" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["d6", "d10"])
def test_small_dice_in_a_big_frame_never_ask_for_a_huge_finder_input(kind):
    """8 px dice in a Pi HQ camera frame would be brought to 22 px: an input of 11,000 x 8,400 (gigabytes)."""
    import vision
    import vision.d10
    from vision.preprocess import FINDER_MOST_SIDE, finder_scale

    assert finder_scale((3040, 4056, 3), 8) * 4056 == FINDER_MOST_SIDE
    assert finder_scale((960, 1280, 3), 40) == 22 / 40  # usual frames keep the usual look
    frame = np.full((3040, 4056, 3), 90, np.uint8)
    calibration = vision.TrayCalibration(tray=[(0, 0), (4056, 0), (4056, 3040), (0, 3040)], die_px=8)
    reading = (vision.read if kind == "d6" else vision.d10.read_d10)(frame, calibration)
    assert reading.dice == ()  # read (a felt with no die), not crashed


def test_read_says_which_photo_is_too_small_for_the_die_size(tmp_path, capsys):
    frame, _ = flat.six_dice_frame(400, 300, seed=4)
    cv2.imwrite(str(tmp_path / "big.png"), frame)
    cv2.imwrite(str(tmp_path / "small.png"), frame[:90, :120])  # a third of 90 px is under 40
    assert main(["read", str(tmp_path / "big.png"), str(tmp_path / "small.png"), "--die-px", "40", "--json"]) == 1
    big, small = json.loads(capsys.readouterr().out)["images"]
    assert len(big["dice"]) == 6
    assert "too big for this 120x90 photo" in small["error"]


@pytest.mark.parametrize(
    "labels, problem",
    [
        ("{not json", "is not JSON"),
        ('[{"file": "a.png"}]', "holds no list of images"),
        ('{"images": [{"file": "a.png", "height": 50, "dice": []}]}', "image 1: no key 'width'"),
        (
            '{"images": [{"file": "a.png", "width": 80, "height": 50, "dice": [{"kind": "d6", "value": 7}]}]}',
            "a die labeled 'd6' 7",
        ),
        (
            '{"images": [{"file": "a.png", "width": 80, "height": 50, '
            '"dice": [{"kind": "d6", "value": 2, "box": [0, 0, 9]}]}]}',
            "box [0.0, 0.0, 9.0] is not [xmin, ymin, xmax, ymax]",
        ),
        ('{"images": [{"file": "gone.png", "width": 80, "height": 50, "dice": []}]}', "cannot read image"),
        (
            '{"images": [{"file": "a.png", "width": 80, "height": 50, "dice": [{"kind": "d6", "value": true}]}]}',
            "a die labeled 'd6' True",
        ),
        (
            '{"images": [{"file": "a.png", "width": 80, "height": 50, "dice": [{"kind": "d6", "value": 2, '
            '"box": [100, 60, 120, 80]}]}]}',
            "box [100.0, 60.0, 120.0, 80.0] lies outside its 80x50 image",
        ),
        ('{"images": [{"file": "a.png", "width": 1e400, "height": 50, "dice": []}]}', "image 1: cannot convert"),
    ],
)
def test_evaluate_names_what_is_wrong_with_a_labeled_set(tmp_path, capsys, labels, problem):
    (tmp_path / "labels.json").write_text(labels)
    assert main(["evaluate", str(tmp_path)]) == 2
    assert problem in capsys.readouterr().err


def test_evaluate_names_a_labels_file_that_is_not_text(tmp_path, capsys):
    (tmp_path / "labels.json").write_bytes(b'{"images": [\xff\xfe]}')
    assert main(["evaluate", str(tmp_path)]) == 2
    assert f"{tmp_path / 'labels.json'} is not JSON" in capsys.readouterr().err


def test_bench_needs_at_least_one_run(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "vision", "--repeats", "0"])
    assert "give 1 or more" in capsys.readouterr().err


def test_read_ten_sided_dice(capsys):
    from vision.labels import load_labeled_set

    heldout = FIXTURES / "d10-heldout"
    image = next(i for i in load_labeled_set(heldout) if i.path.name == "heldout_7000005.jpg")
    found = _read_json(image.path, "--kind", "d10", capsys=capsys)
    assert all(d["kind"] == "d10" for d in found), found
    _assert_read(found, [(label.value, label.box) for label in image.dice])


def test_evaluate_reads_a_set_labeled_d10_with_the_ten_sided_reader(capsys):
    # the committed held-out set is labeled d10: without --kind it is not scored by the six-sided reader
    d10 = FIXTURES / "d10-heldout"
    assert main(["evaluate", str(d10), "--split", "all", "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert main(["evaluate", str(d10), "--kind", "d10", "--json"]) == 0
    named = json.loads(capsys.readouterr().out)
    assert default["correct"] == named["correct"] > 0.9 * named["labeled"]


def test_evaluate_adapt_plays_a_night_on_house_dice(tmp_path, capsys):
    """House dice whose faces the players read one higher than the reader does (labels: value % 6 + 1): with
    nothing learnt every die is read wrong without asking; once the night's first dice are confirmed, the reader
    no longer says its own value without asking about any of them."""
    images = []
    for i in range(8):
        truth = write_six_dice(tmp_path / f"{i}.png", 20 + i)
        images.append(
            {
                "file": f"{i}.png",
                "width": 1280,
                "height": 960,
                "dice": [{"kind": "d6", "value": v % 6 + 1, "box": list(b)} for v, b in truth],
            }
        )
    images.append({"file": "copy.png", "width": 1280, "height": 960, "augmented": True, "dice": images[0]["dice"]})
    (tmp_path / "labels.json").write_text(json.dumps({"images": images}))
    assert main(["evaluate", str(tmp_path), "--adapt", "24", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"adapt", "before", "after", "curve"} and out["adapt"] == 24 and out["confirmed"] == 24
    assert out["photos_scored"] == 4 and out["confirmed_wrong"] == 0  # 8 photos (the augmented copy left out)
    assert [p["adapt"] for p in out["curve"]] == [0, 10, 24]
    assert out["before"]["labeled"] == out["after"]["labeled"] == 24
    assert out["before"]["right"] == 0 and out["before"]["silent"] >= 20  # the rest asked: unsure anyway
    assert out["after"]["silent"] == 0 and out["after"]["right"] + out["after"]["asked"] == 24
    assert main(["evaluate", str(tmp_path), "--adapt", "6", "--careless", "0.5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["confirmed_wrong"] == 3  # exactly the share asked for
    assert main(["evaluate", str(tmp_path), "--adapt", "6", "--careless", "0.5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("a night of 8 photos: 6 dice confirmed in the first 1, 50% of them wrong")
    assert lines[1].startswith("after 0 dice: of 42 labeled dice: 0 right without asking")


@pytest.mark.parametrize(
    "options, problem",
    [
        (["--careless", "0.1"], "--careless needs --adapt"),
        (["--adapt", "10", "--careless", "2"], "not a share"),
        (["--adapt", "ten"], "not a number of dice"),
        (["--adapt", "10", "--stream"], "--adapt: for labeled photo sets"),
    ],
)
def test_evaluate_adapt_names_a_wrong_option(tmp_path, capsys, options, problem):
    with pytest.raises(SystemExit) as exit:
        main(["evaluate", str(tmp_path), *options])
    assert exit.value.code == 2 and problem in capsys.readouterr().err
