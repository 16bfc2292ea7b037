"""The d10 reader: real photos, the held-out rendered set, 6 and 9, six-sided dice reported as such,
the recorded Hexakubus throw. Expected values come from the sets' labels."""

import cv2
import numpy as np
import pytest

from calibration.profile import load_profile
from tests.support import FIXTURES, dataset
from tests.vision.support import OTHER_CAMERAS, as_seen_by, kinds_reported
from vision.d10 import D10Reader
from vision.d10.crops import READ_SIZE, read_crop
from vision.d10.reader import _outranked
from vision.lab.render.flat import turned
from vision.lab.scoring import evaluate, match
from vision.labels import load_labeled_set
from vision.preprocess import TURNS

# The targets are not met by the packaged models yet (figures in vision/models/README-d10.md);
# those tests stay, marked strict xfail so that meeting a target turns them red until the mark goes.
NOT_YET = pytest.mark.xfail(strict=True, reason="issue 4 target not met by the current d10 models")

HELDOUT = FIXTURES / "d10-heldout"
THROWS = FIXTURES / "throws"


@pytest.fixture(scope="module")
def reader():
    return D10Reader()


def load(path):
    return cv2.imread(str(path))


def test_reads_every_real_cloth_photo(reader):
    images = load_labeled_set(dataset("cloth-d10-photos"))
    score = evaluate(images, reader.read, load)
    assert score.phantoms == 0
    assert score.correct == score.labeled == 10, score.to_json()["confusion"]


@pytest.mark.parametrize("camera", sorted(OTHER_CAMERAS))
def test_reads_every_real_cloth_photo_by_another_camera(reader, camera):
    """At half and twice the resolution, under a warm lamp and under cold daylight, all ten are read. Under
    cold daylight the 3 was read as the neighbouring face's 7 until unsure dice were looked at wider too."""
    score = evaluate(load_labeled_set(dataset("cloth-d10-photos")), as_seen_by(reader.read, camera), load)
    assert score.phantoms == 0
    assert score.correct == score.labeled == 10, score.to_json()["confusion"]


def _turn(frame, turn):
    return frame if turn is None else cv2.rotate(frame, turn)


def _cloth_photos_turned():
    for image in load_labeled_set(dataset("cloth-d10-photos")):
        frame = load(image.path)
        for turn in TURNS:
            yield image, turn, _turn(frame, turn)


def test_each_cloth_photo_shows_one_die_however_it_is_turned(reader):
    """A close-up photo turned on its side is still one die: found whole, once (the finder's fine look
    used to box half of it, or find it twice)."""
    for image, turn, frame in _cloth_photos_turned():
        dice = reader.read(frame).dice
        assert len(dice) == 1, f"{image.path.name} turned {turn}: {[(d.value, d.box) for d in dice]}"


def test_a_hand_over_the_tray_does_not_hide_the_die_under_its_middle(reader):
    """heldout_7000011: looking for close-up dice, the finder boxes the hand (250 px), its middle on the
    purple 8. The hand used to stand as a die read 7 (0.51), and the 8 (0.98) was taken for its numeral."""
    image = next(i for i in load_labeled_set(HELDOUT) if i.path.name == "heldout_7000011.jpg")
    pairs, phantoms, missed = match(reader.read(load(image.path)).dice, image.dice)
    assert not phantoms and not missed
    assert [
        (d.value, max(d.box[2] - d.box[0], d.box[3] - d.box[1]) < 60) for d, label in pairs if label.value == 8
    ] == [(8, True)]


def test_of_a_die_and_a_much_smaller_one_on_it_the_big_one_stands_unless_only_the_small_one_is_read_surely():
    big, numeral = (100, 100, 120, 120, 0.6), (95, 90, 30, 30, 0.5)  # (cx, cy, w, h, reading's certainty)
    assert _outranked(numeral, [big, numeral]) and not _outranked(big, [big, numeral])
    sure_numeral = (95, 90, 30, 30, 0.95)  # a close-up whose numeral reads surely
    assert _outranked(sure_numeral, [(100, 100, 120, 120, 0.92), sure_numeral])
    hand, die = (100, 100, 250, 250, 0.5), (95, 90, 40, 40, 0.98)
    assert _outranked(hand, [hand, die]) and not _outranked(die, [hand, die])
    apart = (400, 400, 40, 40, 0.5)
    assert not _outranked(hand, [hand, apart]) and not _outranked(apart, [hand, apart])


def test_finds_the_ten_sided_reader_takes_for_no_die_are_kept_as_doubted_ten_sided_dice(reader):
    """As the six-sided reader's (tests/vision/test_vision_reader.py): a find read likeliest as no die, likelier a
    d10 than a d6, is kept as a doubted d10, likeliest first; one likelier a d6 is not, nor one lying on a die
    (its numeral)."""

    def read_as(no_die, value=None, share=0.0, d6=0.0):
        p = np.zeros(12, np.float32)
        p[0], p[11] = no_die, d6
        if value:
            p[value] = share
        return p

    finds = [(60.0, 60.0, 40.0, 40.0, 0.9), (200.0, 60.0, 40.0, 40.0, 0.8), (300.0, 60.0, 40.0, 40.0, 0.8)]
    finds += [(400.0, 60.0, 40.0, 40.0, 0.8), (55.0, 55.0, 12.0, 12.0, 0.5)]
    probs = np.array(
        [
            read_as(0.02, 7, 0.98),
            read_as(0.6, 3, 0.3, 0.1),
            read_as(0.5, 9, 0.45, 0.05),
            read_as(0.6, 2, 0.1, 0.3),  # likelier a six-sided die
            read_as(0.55, 1, 0.45),  # on the seven: its numeral
        ]
    )
    dice, doubted = reader.judged(np.zeros((120, 480, 3), np.uint8), finds, probs, None)
    assert [(d.kind, d.value) for d in dice] == [("d10", 7)]
    assert [(d.kind, d.value, d.centre[0], d.uncertain) for d in doubted] == [
        ("d10", 9, 300.0, True),
        ("d10", 3, 200.0, True),
    ]


@NOT_YET
def test_reads_every_real_cloth_photo_however_it_is_turned(reader):
    read = [(image, turn, [d.value for d in reader.read(frame).dice]) for image, turn, frame in _cloth_photos_turned()]
    misread = [(image.path.name, turn, values) for image, turn, values in read if values != [image.dice[0].value]]
    assert not misread


# Other photos of the same die: turned by every 30 degrees, by the other cameras, blurred, compressed, lit darker
# or lighter, smaller. 210 readings; the packaged models read 197 (vision/models/README-d10.md).
RETAKES = {
    **{f"turned {a} degrees": lambda f, a=a: turned(f, a)[0] for a in range(0, 360, 30)},
    **{camera: change for camera, (change, _) in OTHER_CAMERAS.items()},
    "blurred": lambda f: cv2.GaussianBlur(f, (0, 0), 2.0),
    "JPEG quality 25": lambda f: cv2.imdecode(cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 25])[1], 1),
    "gamma 0.6": lambda f: (255 * (f / 255.0) ** 0.6).astype(np.uint8),
    "gamma 1.6": lambda f: (255 * (f / 255.0) ** 1.6).astype(np.uint8),
    "a quarter of the size": lambda f: cv2.resize(f, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA),
}


@NOT_YET
def test_reads_every_real_cloth_photo_however_it_is_taken(reader):
    misread = []
    for image in load_labeled_set(dataset("cloth-d10-photos")):
        frame = load(image.path)
        for retake, change in RETAKES.items():
            values = [d.value for d in reader.read(change(frame)).dice]
            if values != [image.dice[0].value]:
                misread.append(f"{image.path.name} {retake}: {values}")
    assert not misread, f"{len(misread)} of {10 * len(RETAKES)}: {misread}"


@NOT_YET
def test_heldout_rendered_set_is_read_to_target(reader):
    score = evaluate(load_labeled_set(HELDOUT), reader.read, load)
    assert score.labeled >= 150
    assert score.correct / score.labeled >= 0.995, score.to_json()
    assert score.phantoms <= 0.005 * score.labeled


def test_no_cloth_photo_is_read_wrong_without_asking(reader):
    """Issue 41: the cloth photos right or asked, none silent."""
    score = evaluate(load_labeled_set(dataset("cloth-d10-photos")), reader.read, load)
    assert (score.right + score.asked, score.silent, score.sure_phantoms) == (10, 0, 0), score.trust()


@pytest.mark.xfail(
    strict=True,
    reason="issue 41 target not met: 246 of 268 right (91.8%; with "
    "the 3 of the 4 no person can read that are asked), 1 silent (0.4%)",
)
def test_heldout_rendered_set_is_trusted_to_target(reader):
    """Issue 41: right (a die no person can read counts when asked) >= 98%, silent <= 0.3%."""
    score = evaluate(load_labeled_set(HELDOUT), reader.read, load)
    assert score.right >= 0.98 * score.labeled and score.silent <= 0.003 * score.labeled, score.trust()


def test_a_crop_of_one_die_reads_as_that_die(reader, tmp_path):
    """Each held-out die cut out with a rim around it (the die 0.8 of the picture): too big for the 320 and 160
    px looks, seen whole by the 80 px one (reader.BARE_LOOKS). Before that look, 40 of 163 read right, 44
    missed."""
    from vision.lab.closeups import write_close_ups

    write_close_ups(HELDOUT, tmp_path, die_share=0.8, side=224)
    score = evaluate(load_labeled_set(tmp_path)[::2], reader.read, load)
    trust = score.trust()
    assert trust["right"] >= 0.85 * score.labeled and trust["silent"] <= 0.02 * score.labeled, trust
    assert score.missed <= 0.03 * score.labeled and trust["sure_phantoms"] == 0, score.to_json()


def test_no_six_nine_confusion_in_any_orientation(reader):
    """A frame turned by 90, 180 or 270 degrees shows the same dice: a 6 stays a 6, a 9 a 9."""
    sixes_and_nines = 0
    for image in load_labeled_set(HELDOUT):
        wanted = [d for d in image.dice if d.value in (6, 9)]
        if not wanted:
            continue
        frame = load(image.path)
        h, w = frame.shape[:2]
        for turn in TURNS:
            pairs, _, _ = match(reader.read(_turn(frame, turn)).dice, [_turned(d, turn, w, h) for d in wanted])
            for det, lab in pairs:
                sixes_and_nines += 1
                assert {det.value, lab.value} != {6, 9}, f"{image.path.name}: a {lab.value} read as {det.value}"
    assert sixes_and_nines >= 40


def _turned(die, turn, w, h):
    x0, y0, x1, y1 = die.box
    boxes = {
        None: (x0, y0, x1, y1),
        cv2.ROTATE_90_CLOCKWISE: (h - y1, x0, h - y0, x1),
        cv2.ROTATE_180: (w - x1, h - y1, w - x0, h - y0),
        cv2.ROTATE_90_COUNTERCLOCKWISE: (y0, w - x1, y1, w - x0),
    }
    return type(die)(die.kind, die.value, boxes[turn])


@NOT_YET
def test_six_sided_dice_are_reported_as_d6_not_read_as_d10(reader):
    images = load_labeled_set(THROWS / "stills-d6")  # six-sided dice only
    kinds = kinds_reported(reader, images)
    assert kinds.total() >= 0.9 * sum(len(i.dice) for i in images)
    assert kinds["d6"] + kinds["d6?"] >= 0.98 * kinds.total()


def test_recorded_hexakubus_rests_with_the_tray_calibration(reader):
    folder = THROWS / "hexakubus-six-d10"
    calibration = load_profile(folder / "calibration.toml").to_tray_calibration()
    images = load_labeled_set(folder)
    score = evaluate(images, lambda frame: reader.read(frame, calibration), load)
    assert score.labeled == 18
    assert score.correct == 18, score.to_json()


# Floors a little under what the packaged models measure (README-d10.md): a retrained model that reads
# worse than the one it replaces fails here.
FLOORS = {"d10-heldout": 0.94, "hexakubus-six-d10": 0.85, "stills-d6 kind": 0.60}


def test_packaged_models_keep_their_measured_figures(reader):
    heldout = evaluate(load_labeled_set(HELDOUT), reader.read, load)
    assert heldout.correct / heldout.labeled >= FLOORS["d10-heldout"], heldout.to_json()
    folder = THROWS / "hexakubus-six-d10"
    calibration = load_profile(folder / "calibration.toml").to_tray_calibration()
    hexakubus = evaluate(load_labeled_set(folder), lambda frame: reader.read(frame, calibration), load)
    assert hexakubus.correct / hexakubus.labeled >= FLOORS["hexakubus-six-d10"], hexakubus.to_json()
    images = load_labeled_set(THROWS / "stills-d6")
    kinds = kinds_reported(reader, images)
    assert (kinds["d6"] + kinds["d6?"]) / sum(len(i.dice) for i in images) >= FLOORS["stills-d6 kind"]


def test_crop_is_centred_and_sized_as_asked():
    frame = np.zeros((200, 300, 3), np.uint8)
    frame[90:110, 140:160] = 255  # a 20 px square at (150, 100)
    crop = read_crop(frame, 150, 100, 40)
    assert crop.shape == (READ_SIZE, READ_SIZE, 3)
    bright = np.argwhere(crop[..., 0] > 127)
    assert bright.min(axis=0).tolist() == [16, 16] and bright.max(axis=0).tolist() == [47, 47]
