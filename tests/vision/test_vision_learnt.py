"""Learnt dice: the look (features from the packaged networks, values from the readers), the adapter (classifier
and blend), the store and Learnt as the table uses it."""

import json
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision
from tests.support import photos
from tests.vision.support import FixedNet
from vision.frame_reader import MODELS
from vision.lab import night
from vision.lab.render import flat
from vision.labels import load_labeled_set
from vision.learnt import Learnt
from vision.learnt.adapter import HOW, MIN_SEEN, Adapter, Examples, nudged
from vision.learnt.look import VIEWS, Look, apart, feature_layer, features_models, model_id, nudges
from vision.preprocess import FACE_CONTEXT, SURE, face_crop, softmax, to_blob
from vision.types import UNCERTAIN_BELOW


def examples(features, values, how="sure", read=None):
    """Confirmed dice; `read`: what the reader network read (default: the next value where corrected)."""
    n, values = len(values), np.asarray(values, np.int16)
    read = (values % 6 + 1 if how == "corrected" else values) if read is None else np.asarray(read, np.int16)
    return Examples(
        np.asarray(features, np.float32),
        values,
        np.full(n, HOW.index(how), np.int8),
        read,
        np.zeros((n, 2, 2, 3), np.uint8),
    )


def unit(rows):
    rows = np.asarray(rows, np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def clusters(per_value, faces=6, dims=16, seed=0):
    """Features of `per_value` dice of each value, each value a tight cluster of its own."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(faces, dims))
    values = np.repeat(np.arange(1, faces + 1), per_value)
    return unit(centres[values - 1] + 0.05 * rng.normal(size=(len(values), dims))), values


# -- the look
@pytest.fixture(scope="module")
def look():
    return Look("d6")


def test_the_feature_layer_is_the_input_of_the_last_fully_connected_layer(look):
    for net in look.nets:
        layers = list(net.getLayerNames())
        after = layers[layers.index(feature_layer(net)) + 1]
        assert net.getLayer(net.getLayerId(after)).type in ("Gemm", "InnerProduct")


def test_six_sided_features_are_the_first_readers_and_the_features_networks_joined(tmp_path):
    """The first face reader's features (96) beside the features network's (80); a lab folder holding one candidate
    face reader and no features network learns on that reader's alone. Their features mean different things, so
    their model ids differ (a store takes new features from its crops where they do)."""
    shutil.copy(MODELS / "faces.onnx", tmp_path / "faces.onnx")
    assert features_models("d6") == [MODELS / "faces.onnx", MODELS / "faces_features.onnx"]
    assert features_models("d6", tmp_path) == [tmp_path / "faces.onnx"]
    assert model_id("d6") != model_id("d6", tmp_path)
    frame, _ = flat.six_dice_frame(seed=3)
    dice = list(vision.read(frame).dice[:2])
    packaged, lab = Look("d6"), Look("d6", tmp_path)
    assert packaged.see(packaged.crops(frame, dice))[0].shape == (2, 96 + 80)
    assert lab.see(lab.crops(frame, dice))[0].shape == (2, 96)


def test_a_die_turned_by_a_quarter_turn_or_mirrored_has_the_same_features(look):
    frame, dice = flat.six_dice_frame(seed=3)
    reading = vision.read(frame)
    crops = look.crops(frame, list(reading.dice[:2]))
    turned = [cv2.rotate(c, cv2.ROTATE_90_CLOCKWISE) for c in crops]
    features, values = look.see(crops + turned + [cv2.flip(c, 0) for c in crops])
    assert features.shape == (6, 96 + 80) and values.shape == (6, 6)
    assert np.allclose(np.linalg.norm(features, axis=1), 1, atol=1e-5)
    assert np.allclose(features[:2], features[2:4], atol=1e-4) and np.allclose(features[:2], features[4:], atol=1e-4)
    assert not np.allclose(features[0], features[1], atol=1e-2)  # two dice, two looks
    # the network's own reading of these flat dice: their values, surely
    assert list(values[:2].argmax(axis=1) + 1) == [d.value for d in reading.dice[:2]]


def test_the_look_reads_a_six_sided_die_with_both_face_readers():
    """Its values are what both networks see, as in reading: a second one that reads every crop surely as a one
    leaves a die that is no one unsure; the features stay the features network's."""
    frame, _ = flat.six_dice_frame(seed=3)
    reading = vision.read(frame)
    die = next(d for d in reading.dice if d.value != 1)
    both = Look("d6")
    assert len(both.readers) == 2
    crops = both.crops(frame, [die])
    features, values = both.see(crops)
    both.readers[1:] = [FixedNet(np.log([0.01, 0.9, 0.015, 0.015, 0.015, 0.015, 0.015, 0.015]))]
    features_ones, values_ones = both.see(crops)
    assert values[0].argmax() + 1 == die.value and values[0].max() >= UNCERTAIN_BELOW
    assert values_ones[0].max() < UNCERTAIN_BELOW and np.allclose(features, features_ones)


def test_the_look_takes_a_read_die_as_unsure_as_the_reader_read_it(look):
    """tomitomi3-gray-d6 `v2_00210.bmp`: a black die showing two on a dark dish, boxed with the dish. The reader
    reads it as a one, unsurely, once also framed tighter and wider (`faces.FRAMINGS`); the look takes its values
    from what the reader read (`Die.probs`), and so does a night's. Its crop alone reads as a one at 0.74: what a
    blend would read surely."""
    image = next(i for i in photos("tomitomi3-gray-d6") if i.path.name == "v2_00210.bmp")
    frame = cv2.imread(str(image.path))
    (die,) = vision.read(frame).dice
    assert die.uncertain and len(die.probs) == 8
    crops = look.crops(frame, [die])
    _, values = look.see(crops, [die])
    assert np.allclose(values[0], die.probs[1:7], atol=1e-6) and values[0].max() == pytest.approx(die.confidence)
    _, alone = look.see(crops)
    assert alone[0].argmax() + 1 == 1 and alone[0].max() >= UNCERTAIN_BELOW
    seen = night.see(image, vision.read, lambda p: cv2.imread(str(p)), look)  # a night's look: the table's
    assert seen.adaptable[0] == 0 and np.allclose(seen.values[:1], values)  # the die first, then what was doubted


def test_reading_the_look_glances_at_a_die_the_reader_read_surely(look):
    """Reading (`glance`: the table's adapted read, a night's), a die the reader read surely is seen in its upright
    copy only, as the reader saw it; one it read unsurely in all its copies, as every die is seen when learnt."""
    frame, _ = flat.six_dice_frame(seed=3)
    sure = next(d for d in vision.read(frame).dice if max(d.probs[1:7]) >= SURE)
    unsure = replace(sure, probs=tuple(0.5 * p + 0.5 / len(sure.probs) for p in sure.probs))
    crops = look.crops(frame, [sure, unsure])
    glanced, _ = look.see(crops, [sure, unsure], glance=True)
    learnt, _ = look.see(crops, [sure, unsure])
    upright = []
    for net, layer in zip(look.nets, look.layers):  # each network's features of the upright crop, joined
        net.setInput(to_blob(crops[:1]))
        upright.append(net.forward(layer).reshape(-1))
    joined = np.concatenate([f / np.linalg.norm(f) for f in upright]) / np.sqrt(len(upright))
    assert len(upright) == 2 and np.allclose(glanced[0], joined, atol=1e-5)
    assert np.allclose(glanced[1], learnt[1]) and np.allclose(learnt[0], learnt[1])
    assert not np.allclose(glanced[0], learnt[0], atol=1e-3)  # the copies make other features


def test_a_kind_without_a_reader_is_named():
    with pytest.raises(ValueError, match="d8"):
        Look("d8")


# -- the adapter
def test_with_nothing_learnt_the_blend_is_the_readers():
    reader = np.array([[0.1, 0.7, 0.1, 0.05, 0.03, 0.02]])
    assert np.array_equal(Adapter(6).blend(unit(np.ones((1, 16))), reader), reader)


def test_the_classifier_overrules_a_reader_that_is_surely_wrong():
    features, values = clusters(20)
    adapter = Adapter(6)
    adapter.fit(examples(features, values, "corrected"))
    test, truth = clusters(5, seed=0)  # the same dice seen again
    wrong = np.zeros((len(truth), 6))
    wrong[np.arange(len(truth)), truth % 6] = 0.97  # the reader surely reads each die as the next value
    wrong[np.arange(len(truth)), truth - 1] = 0.01
    blended = adapter.blend(test, wrong)
    assert list(blended.argmax(axis=1) + 1) == list(truth)
    assert (blended.max(axis=1) >= UNCERTAIN_BELOW).all()


def test_where_classifier_and_reader_disagree_early_the_table_asks():
    features, values = clusters(2 * MIN_SEEN)  # few dice learnt: the reader still weighs most
    adapter = Adapter(6)
    adapter.fit(examples(features, values, "corrected"))
    reader = np.zeros((6, 6))
    reader[np.arange(6), np.arange(1, 7) % 6] = 0.97
    blended = adapter.blend(clusters(1)[0], reader)
    wrong = blended.argmax(axis=1) + 1 != np.arange(1, 7)
    assert (blended.max(axis=1)[wrong] < UNCERTAIN_BELOW).all()  # never the reader's value without asking


def test_a_value_seen_too_few_times_keeps_the_readers_reading():
    features, values = clusters(10)
    seen = values != 6  # no six learnt, and one seen fewer than MIN_SEEN times
    adapter = Adapter(6)
    adapter.fit(
        examples(
            np.vstack([features[seen], features[values == 6][: MIN_SEEN - 1]]),
            np.concatenate([values[seen], [6] * (MIN_SEEN - 1)]),
        )
    )
    assert list(adapter.seen) == [True] * 5 + [False]
    six = np.array([[0.0, 0.0, 0.0, 0.0, 0.05, 0.9]])
    blended = adapter.blend(clusters(1)[0][5:6], six)
    assert blended.argmax() == 5 and blended[0, 5] == pytest.approx(0.9)  # the reader's share (the classifier agrees)


def test_until_every_face_is_met_the_classifier_only_doubts():
    """A die of a face never met looks to the classifier like the face met that it is likest (rendered white dice
    with numerals, after 30 confirmed, sixes not learnt three times: 41 sixes read as fives without asking): until
    every face has been met, no die is read surer than the reader read it, not even one apart from the others
    (which the learnt dice vouch for as a die once every face is met), though one read wrong is still doubted;
    once every face has been learnt, the classifier reads it."""
    features, values = clusters(10)
    like_a_five = clusters(1, seed=0)[0][4:5]
    unsure = np.array([[0.02, 0.02, 0.02, 0.02, 0.45, 0.4]])  # the reader: a five or a six
    wrong = np.array([[0.0, 0.9, 0.0, 0.0, 0.02, 0.02]])  # the reader: surely a two
    all_but_sixes, every_face = Adapter(6), Adapter(6)
    all_but_sixes.fit(examples(features[values != 6], values[values != 6], "corrected"))
    every_face.fit(examples(features, values, "corrected"))
    early = all_but_sixes.blend(like_a_five, unsure)
    assert early.argmax() + 1 == 5 and early.max() <= 0.45 + 1e-6  # no surer than the reader: the table asks
    assert all_but_sixes.blend(like_a_five, wrong).max() < UNCERTAIN_BELOW  # the reader's two, doubted
    assert all_but_sixes.blend(like_a_five, unsure, apart=[True]).max() <= 0.45 + 1e-6  # apart: not vouched for
    late = every_face.blend(like_a_five, unsure)
    assert late.argmax() + 1 == 5 and late.max() >= UNCERTAIN_BELOW


def test_once_every_face_is_met_the_classifier_reads_the_faces_it_knows():
    """Every face seen at least once, the sixes fewer than MIN_SEEN times: a die like the learnt fives is read as one
    without asking (before every face was met, no surer than the reader read it), while a die like the sixes met, of
    which the classifier knows too little to speak, is left to the reader and doubted where the reader reads it as a
    learnt face (the classifier finds it likeliest a six: it is not a five because fives are what it knows best)."""
    features, values = clusters(10)
    few_sixes = np.flatnonzero(values == 6)[: MIN_SEEN - 1]
    met = np.concatenate([np.flatnonzero(values != 6), few_sixes])
    adapter = Adapter(6)
    adapter.fit(examples(features[met], values[met], "corrected"))
    assert list(adapter.seen) == [True] * 5 + [False] and adapter.met.all()
    like_a_five, like_a_six = clusters(1, seed=0)[0][4:6]
    unsure = np.array([[0.02, 0.02, 0.02, 0.02, 0.45, 0.4]])  # the reader: a five or a six
    five = adapter.blend(like_a_five[None], unsure)
    assert five.argmax() + 1 == 5 and five.max() >= UNCERTAIN_BELOW
    six = adapter.blend(like_a_six[None], unsure)
    assert six.max() < UNCERTAIN_BELOW  # asked
    misread = adapter.blend(like_a_six[None], np.array([[0.0, 0.0, 0.0, 0.0, 0.9, 0.05]]))  # surely a five
    assert misread.max() < UNCERTAIN_BELOW
    read_six = np.array([[0.0, 0.0, 0.0, 0.0, 0.02, 0.5]])  # a doubted find, or a die's digits, read as a six
    assert not adapter.vouches(like_a_six[None], read_six)[0] and not adapter.one_of_them(like_a_six[None], read_six)[0]
    assert adapter.vouches(like_a_five[None], read_six[:, [0, 1, 2, 3, 5, 4]])[0]  # every face met: vouched for


def test_a_correction_outweighs_a_sure_ok_on_the_same_die():
    features, values = clusters(10)
    twin = np.repeat(unit(np.random.default_rng(9).normal(size=(1, 16))), 3, axis=0)  # a new look, thrice confirmed
    adapter = Adapter(6)
    adapter.fit(examples(features, values) + examples(twin[:1], [2], "corrected") + examples(twin[1:], [3, 3], "sure"))
    assert adapter.blend(twin[:1], np.full((1, 6), 1 / 6)).argmax() + 1 == 2  # one correction beats two OKs
    flagged = Adapter(6)
    flagged.fit(examples(features, values) + examples(twin[:1], [2], "sure") + examples(twin[1:2], [3], "flagged"))
    assert flagged.blend(twin[:1], np.full((1, 6), 1 / 6)).argmax() + 1 == 3  # a confirmed question beats an OK


def test_a_die_apart_that_the_learnt_dice_know_is_a_die_though_the_reader_doubts_it():
    features, values = clusters(20)
    adapter = Adapter(6)
    adapter.fit(examples(features, values, "corrected"))  # the reader read every one wrong: the classifier says most
    known, value = clusters(1, seed=0)[0][2:3], 3  # a three like those learnt
    stranger = unit(np.random.default_rng(5).normal(size=(1, 16)))  # like no learnt die
    doubted = np.array([[0.05, 0.05, 0.45, 0.02, 0.02, 0.01]])  # a three, the reader 40% sure it is no die at all
    away = adapter.blend(known, doubted, apart=[True])
    beside = adapter.blend(known, doubted, apart=[False])
    assert away.argmax() + 1 == value and away.max() >= UNCERTAIN_BELOW  # read without asking
    assert beside.max() < UNCERTAIN_BELOW  # beside another find: perhaps a side face; the table asks
    assert away.sum() > beside.sum() == pytest.approx(doubted.sum(), abs=0.02)
    alone, among = (adapter.blend(stranger, doubted, apart=[where]) for where in (True, False))
    np.testing.assert_array_equal(alone, among)  # a die like none learnt: the reader's doubt, apart or not


def test_a_die_apart_read_as_a_value_the_classifier_has_not_seen_keeps_the_readers_doubt():
    """Rendered red dice with numerals (vision.lab.numerals), after 10 confirmed: the classifier had seen threes and
    fives, all alike, and the reader read most dice as ones, unsurely. Vouched for as dice like the learnt threes,
    they were read as ones without asking: 400 of 913 dice wrong, against 182 with nothing learnt."""
    features, values = clusters(20)
    keep = values != 1  # no one learnt
    adapter = Adapter(6)
    adapter.fit(examples(features[keep], values[keep], "corrected"))
    assert not adapter.seen[0] and adapter.seen[2]
    like_a_three = clusters(1, seed=0)[0][2:3]
    as_a_one = np.array([[0.45, 0.04, 0.05, 0.02, 0.02, 0.02]])  # a one, the reader 40% sure it is no die at all
    as_a_three = as_a_one[:, [2, 1, 0, 3, 4, 5]]
    one = adapter.blend(like_a_three, as_a_one, apart=[True])
    assert one.argmax() + 1 == 1 and one.max() < UNCERTAIN_BELOW  # the reader's one, and its doubt: the table asks
    np.testing.assert_allclose(one, adapter.blend(like_a_three, as_a_one, apart=[False]))
    three = adapter.blend(like_a_three, as_a_three, apart=[True])
    assert three.argmax() + 1 == 3 and three.max() < UNCERTAIN_BELOW  # not vouched for until every face is met
    every_face = Adapter(6)
    every_face.fit(examples(features, values, "corrected"))
    three = every_face.blend(like_a_three, as_a_three, apart=[True])
    assert three.argmax() + 1 == 3 and three.max() >= UNCERTAIN_BELOW  # read as the three it is like: vouched for


def doubted_die(x: float, value: int, die: float) -> vision.Die:
    """A find at `x` the reader took for no die: `die` of it a die of `value`, the rest no die."""
    probs = np.zeros(8)
    probs[value], probs[0] = die, 1 - die
    return vision.Die("d6", value, (x, 0.0, x + 50, 50.0), vision.ROLL, die, False, tuple(probs))


def test_a_doubted_find_like_the_learnt_dice_is_a_die_once_every_face_is_learnt():
    """A find the reader took for no die (a die unlike those it learnt) but that is like the learnt threes and
    apart from the other finds is a three; until every face has been learnt it stays doubted (the reader knows
    nothing of it, and a face not learnt would be read as the learnt one it is likest), and it is asked about when
    a die is missing, never read without asking."""
    from vision.learnt import reread_found

    features, values = clusters(20)
    reading = vision.Reading((doubted_die(0, 5, 0.95),), 400, 50, doubted=(doubted_die(200, 1, 0.3),))
    three = clusters(1, seed=0)[0][2:3]
    seen = np.array([[0.0, 0.0, 0.0, 0.0, 0.95, 0.0], [0.3, 0.0, 0.0, 0.0, 0.0, 0.0]])  # the reader's say
    stranger = unit(np.random.default_rng(5).normal(size=(1, 16)))
    everyone, all_but_sixes = Adapter(6), Adapter(6)
    everyone.fit(examples(features, values, "corrected"))  # the reader read every one wrong: the classifier says most
    all_but_sixes.fit(examples(features[values != 6], values[values != 6], "corrected"))
    for adapter, features_now, promoted in (
        (everyone, three, True),
        (all_but_sixes, three, False),
        (everyone, stranger, False),
    ):
        both = np.vstack([features[values == 5][:1], features_now])
        after = reread_found(reading, [0, 1], adapter, both, seen, "d6")
        if promoted:
            assert [(d.value, d.centre[0], d.uncertain) for d in after.dice] == [(5, 25.0, False), (3, 225.0, False)]
            assert after.doubted == ()
        else:
            assert [d.centre[0] for d in after.dice] == [25.0] and len(after.doubted) == 1
            asked = after.looked_for(1).dice[-1]
            assert asked.centre[0] == 225.0 and asked.uncertain
    assert reading.looked_for(0) is reading
    assert [d.box for d in reading.looked_for(2).dice[1:]] == [d.box for d in reading.doubted]
    # no die likelier than each value, not than all together (a die share of 0.7), beside the die: not vouched for,
    # it stays doubted whatever the classifier says, and is asked about
    spread = replace(doubted_die(60, 3, 0.7), probs=(0.3, *[0.7 / 6] * 6, 0.0), confidence=0.7 / 6)
    beside = vision.Reading(reading.dice, 400, 50, doubted=(spread,))
    for adapter in (everyone, all_but_sixes):
        both = np.vstack([features[values == 5][:1], three])
        after = reread_found(beside, [0, 1], adapter, both, np.array([seen[0], [0.7 / 6] * 6]), "d6")
        assert len(after.dice) == 1 and after.doubted[0].value == 3  # the classifier's value, surely: 0.64
        asked = after.looked_for(1).dice[-1]
        assert (asked.value, asked.centre[0], asked.uncertain) == (3, 85.0, True)


def ten_sided_read(value: int, sure: float = 0.97) -> vision.Die:
    """A die the ten-sided reader read as its `value`, `sure` of it."""
    probs = np.full(12, (1 - sure) / 11)
    probs[value] = sure
    return vision.Die("d10", value, (200.0, 0.0, 250.0, 50.0), vision.ROLL, sure, False, tuple(probs))


def test_in_a_game_of_six_sided_dice_a_die_read_as_a_ten_sided_one_like_the_learnt_dice_is_one_of_them():
    """The ten-sided reader reads a six-sided die with numerals as one of its own (a 3 as a ten-sided 3), and the
    table would refuse the throw as one holding a d10. In a game played with six-sided dice, such a die that the
    learnt six-sided dice take for one of theirs (like the learnt threes, apart, every face learnt) is read as a
    six-sided three, by its digits (what the look gives: the ten-sided reader's shares of 1 to 6, `Look.see`), and
    its reading stays theirs, so that it is learnt as they read it. Before every face is learnt, only where its
    digits read it as the value it is like: a die of a face not learnt yet (a 6 read as a 6, like the learnt fives)
    is like the learnt face it is likest. One unlike them, or read as a number no six-sided die shows (a 7 to 10,
    however like the learnt dice), the learnt dice leave as read (the test below: the table then asks about one read
    1 to 6). Only the kind played takes dice of another kind."""
    from vision.learnt import adaptable_found, reread_found

    features, values = clusters(20)
    three = features[values == 3][:1]
    stranger = unit(np.random.default_rng(5).normal(size=(1, 16)))
    everyone, all_but_sixes = Adapter(6), Adapter(6)
    everyone.fit(examples(features, values, "corrected"))
    all_but_sixes.fit(examples(features[values != 6], values[values != 6], "corrected"))
    five = features[values == 5][:1]
    cases = [(everyone, three, 3, ("d6", 3, False)), (all_but_sixes, three, 3, ("d6", 3, False))]
    cases += [(all_but_sixes, five, 6, ("d10", 6, False)), (all_but_sixes, three, 5, ("d10", 5, False))]
    cases += [(everyone, stranger, v, ("d10", v, False)) for v in range(1, 7)]
    cases += [(everyone, three, v, ("d10", v, False)) for v in (7, 8, 10)]
    for adapter, features_now, digit, read_as in cases:
        ten = ten_sided_read(digit)
        reading = vision.Reading((doubted_die(0, 5, 0.95), ten), 400, 50)
        mine = adaptable_found(reading, "d6", played=True)
        assert adaptable_found(reading, "d6") == [0] and mine == ([0, 1] if digit <= 6 else [0])
        digits = np.array([[0.0, 0.0, 0.0, 0.0, 0.95, 0.0], ten.probs[1:7]])[mine]  # as the look reads them
        both = np.vstack([features[values == 5][:1], features_now])[mine]
        after = reread_found(reading, mine, adapter, both, digits, "d6")
        assert [(d.kind, d.value, d.uncertain) for d in after.dice] == [("d6", 5, False), read_as], digit
        assert after.dice[1].box == ten.box and after.doubted == ()
        if read_as[0] == "d10":
            assert after.dice[1] is ten
        else:
            assert after.dice[1].probs[1:7] == ten.probs[1:7] and len(after.dice[1].probs) == 8
    reading = vision.Reading((doubted_die(0, 5, 0.95), ten_sided_read(3)), 400, 50)
    digits = np.array([[0.0, 0.0, 0.0, 0.0, 0.95, 0.0]])
    assert reread_found(reading, [0], everyone, features[values == 5][:1], digits, "d6").dice[1] is reading.dice[1]
    # the table's adapted read, before every face is learnt: the three is taken; in a game of ten-sided dice a
    # six-sided die (its pips read by no reader of numerals) waits for every face, whatever the ten-sided reader says
    from vision.learnt import Learnt

    learnt, three_read = Learnt(), ten_sided_read(3)
    learnt.adapters["d6"].fit(examples(features[values != 6], values[values != 6], "corrected"))
    learnt._looks["d6"] = SeenAs({three_read.box: three[0], (0.0, 0.0, 50.0, 50.0): features[values == 5][0]})
    reading = vision.Reading((doubted_die(0, 5, 0.95), three_read), 400, 50)
    frame = np.zeros((50, 400, 3), np.uint8)
    assert [(d.kind, d.value, d.uncertain) for d in learnt.adapt(frame, reading, "d6").dice] == [
        ("d6", 5, False),
        ("d6", 3, False),
    ]
    pips = np.array([[0.0, 0.0, 0.9, 0.0, 0.0, 0.0]])
    tens = Adapter(10)
    tens.fit(examples(unit(np.eye(16)[:9].repeat(3, axis=0)), np.arange(1, 10).repeat(3)))
    six_sided = replace(doubted_die(0, 3, 0.95), probs=(0.05, 0.0, 0.0, 0.95, 0.0, 0.0, 0.0, 0.0))
    d6_game = vision.Reading((six_sided,), 400, 50)
    like_a_three = unit(np.eye(16)[2:3])
    after = reread_found(d6_game, [0], tens, like_a_three, np.hstack([pips, np.zeros((1, 4))]), "d10")
    assert after.dice[0] is six_sided  # left as read


class SeenAs:
    """A look that sees each die (by its box) as the features given, read as its reader read it."""

    def __init__(self, features: dict):
        self.features = features

    def crops(self, frame, dice):
        return list(dice)

    def see(self, crops, dice=(), glance=False):
        values = np.array([d.probs[1:7] for d in dice])
        return np.array([self.features[d.box] for d in dice], np.float32), values


def test_a_die_the_learnt_dice_do_not_take_for_theirs_read_as_a_ten_sided_one_is_asked_about_as_a_six_sided_one():
    """In a game of six-sided dice, a die the ten-sided reader took for its own, read as a value six-sided dice show,
    and which the learnt dice do not take for one of theirs (nothing learnt, a face not learnt yet, or a die unlike
    them: the test above) is asked about as a six-sided die of that value: the table cannot tell a six-sided die with
    numerals from a ten-sided die, and a throw refused would teach it nothing, at every throw. One read as a value
    six-sided dice do not show (an 8) stays a d10, and the game says so. In a game of ten-sided dice, a six-sided die
    is never taken for one (its reader reads pips, not numerals)."""
    from vision.learnt import Learnt, asked_as_played

    five, eight = ten_sided_read(5), replace(ten_sided_read(8), box=(300.0, 0.0, 350.0, 50.0))
    reading = vision.Reading((doubted_die(0, 3, 0.95), five, eight), 400, 50)
    asked = asked_as_played(reading, "d6")
    read_as = [("d6", 3, False), ("d6", 5, True), ("d10", 8, False)]
    assert [(d.kind, d.value, d.uncertain) for d in asked.dice] == read_as
    assert asked.dice[0] is reading.dice[0] and asked.dice[1].box == five.box and asked.dice[2] is eight
    assert asked.dice[1].probs[1:7] == five.probs[1:7]  # learnt, if confirmed, as its digits were read
    six = vision.Die("d6", 4, (0.0, 0.0, 50.0, 50.0), vision.ROLL, 0.95, False, tuple([0.1] * 8))
    assert asked_as_played(vision.Reading((six,), 400, 50), "d10").dice == (six,)
    assert asked_as_played(replace(reading, dice=(reading.dice[0], eight)), "d6").dice == (reading.dice[0], eight)
    frame = np.zeros((50, 400, 3), np.uint8)  # nothing learnt: the table's adapted read asks too
    assert [d.kind for d in Learnt().adapt(frame, reading, "d6").dice] == ["d6", "d6", "d10"]
    assert Learnt().adapt(frame, reading).dice == reading.dice  # no game: as read
    features, values = clusters(20)  # every face learnt, the five like none of the learnt dice: asked about too
    learnt, stranger = Learnt(), unit(np.random.default_rng(5).normal(size=(1, 16)))
    learnt.adapters["d6"].fit(examples(features, values, "corrected"))
    learnt._looks["d6"] = SeenAs({five.box: stranger[0], reading.dice[0].box: features[values == 3][0]})
    assert learnt.to_learn("d6") == []
    after = learnt.adapt(frame, reading, "d6")
    assert [(d.kind, d.value, d.uncertain) for d in after.dice] == read_as


def test_a_die_of_another_kind_like_the_learnt_dice_but_between_two_of_their_values_is_asked_about():
    """A die read as a ten-sided 5 that is like the learnt dice but as much like their fives as their sixes (which
    look alike) is one of the dice in use, of a value the table cannot tell: in a game of six-sided dice the table
    asks which, rather than refusing the throw as one holding a d10."""
    from vision.learnt import reread_found

    rng = np.random.default_rng(0)
    centres = rng.normal(size=(6, 16))
    centres[4] = centres[5] + 0.25 * rng.normal(size=16)  # fives and sixes alike
    values = np.repeat(np.arange(1, 7), 20)
    features = unit(centres[values - 1] + 0.05 * rng.normal(size=(len(values), 16)))
    adapter = Adapter(6)
    adapter.fit(examples(features, values, "corrected"))
    between = unit((unit(centres[4:5]) + unit(centres[5:6])) / 2)
    assert adapter.one_of_them(between, np.array([[0.0, 0.0, 0.0, 0.0, 0.83, 0.02]]))[0]
    assert not adapter.vouches(between, np.array([[0.0, 0.0, 0.0, 0.0, 0.5, 0.4]]))[0]  # not surely a five
    ten = vision.Die("d10", 5, (200.0, 0.0, 250.0, 50.0), vision.ROLL, 0.83, False, tuple([0.01] * 12))
    reading = vision.Reading((doubted_die(0, 1, 0.95), ten), 400, 50)
    digits = np.array([[0.95, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.83, 0.02]])  # as the look reads them
    after = reread_found(reading, [0, 1], adapter, np.vstack([features[:1], between]), digits, "d6")
    assert [(d.kind, d.value, d.uncertain) for d in after.dice] == [("d6", 1, False), ("d6", 5, True)]


def test_a_die_is_apart_only_with_a_side_of_clear_felt_around_it():
    def die(x, y, side=50):
        return vision.Die("d6", 1, (x, y, x + side, y + side), vision.ROLL, 0.9, False)

    dice = [die(0, 0), die(90, 0), die(300, 0), die(300, 101), die(600, 600), die(690, 680, 20)]
    # the first two 40 apart (under a side); the third and fourth 51 (over one); the fifth has a small find 40 off,
    # under its side, and the small find is 40 from the fifth, more than its own side
    assert list(apart(dice, range(len(dice)))) == [False, False, True, True, False, True]
    assert list(apart(dice, [2, 0])) == [True, False]
    assert list(apart([die(0, 0), die(100, 0)], [0, 1])) == [True, True]  # exactly a side of felt between them


# -- the store
from vision.learnt import store as store_module  # noqa: E402
from vision.learnt.adapter import newest_balanced  # noqa: E402
from vision.learnt.store import Store  # noqa: E402


def throw(values, how="sure", dims=4, seed=0):
    rng = np.random.default_rng(seed)
    n = len(values)
    return Examples(
        unit(rng.normal(size=(n, dims))),
        np.asarray(values, np.int16),
        np.full(n, HOW.index(how), np.int8),
        np.asarray(values, np.int16),
        rng.integers(0, 255, (n, 5, 5, 3), dtype=np.uint8),
    )


def no_new_features(kind, crops, nudge):
    raise AssertionError("the model did not change: the stored features are used")


def test_throws_come_back_in_order_after_a_restart(tmp_path):
    store = Store(tmp_path, {"d6": "m1"}, no_new_features)
    first, second = throw([1, 2, 3]), throw([6, 6], "corrected", seed=1)
    store.add({"d6": first})
    store.add({"d6": second})
    back = Store(tmp_path, {"d6": "m1"}, no_new_features).load()["d6"]
    want = first + second
    for got, expected in zip(back.astuple(), want.astuple()):
        assert np.array_equal(got, expected)


def test_a_crash_loses_at_most_the_throw_in_progress(tmp_path):
    store = Store(tmp_path, {"d6": "m1"}, no_new_features)
    store.add({"d6": throw([4, 5])})
    (tmp_path / ".throw-00000001.npz.abc123").write_bytes(b"PK\x03\x04 half a file")  # the write a power cut cut
    assert list(Store(tmp_path, {"d6": "m1"}, no_new_features).load()["d6"].values) == [4, 5]


def test_a_damaged_file_is_named_and_set_aside_and_the_rest_kept(tmp_path):
    store = Store(tmp_path, {"d6": "m1"}, no_new_features)
    store.add({"d6": throw([1])})
    store.add({"d6": throw([2])})
    (tmp_path / "throw-00000000.npz").write_bytes(b"not a zip at all")
    again = Store(tmp_path, {"d6": "m1"}, no_new_features)
    assert list(again.load()["d6"].values) == [2]
    assert len(again.problems) == 1 and "throw-00000000.npz cannot be read" in again.problems[0]
    assert (tmp_path / "throw-00000000.npz.damaged").exists()


def test_throws_are_merged_keeping_the_newest_of_each_value(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "COMPACT_AFTER", 3)
    monkeypatch.setattr(store_module, "MOST", 12)  # two of each value
    store = Store(tmp_path, {"d6": "m1"}, no_new_features)
    store.add({"d6": throw([1, 1, 1, 2], seed=1)})
    store.add({"d6": throw([1, 3], seed=2)})
    store.add({"d6": throw([2, 2, 6], seed=3)})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["learnt.npz"]
    kept = store.load()["d6"]
    assert list(kept.values) == [1, 1, 3, 2, 2, 6]  # the oldest 1 and the oldest 2 dropped, order kept
    store.add({"d6": throw([5], seed=4)})  # numbering goes on after the merged throws
    assert (tmp_path / "throw-00000003.npz").exists()
    assert list(store.load()["d6"].values) == [1, 1, 3, 2, 2, 6, 5]


def test_throws_merged_before_a_crash_are_not_counted_twice(tmp_path, monkeypatch):
    store = Store(tmp_path, {"d6": "m1"}, no_new_features)
    store.add({"d6": throw([1, 2])})
    saved = (tmp_path / "throw-00000000.npz").read_bytes()
    store.compact()
    (tmp_path / "throw-00000000.npz").write_bytes(saved)  # the crash came before the throw file was deleted
    assert list(store.load()["d6"].values) == [1, 2]


def test_a_retrained_model_sees_the_stored_crops_anew(tmp_path):
    """As they were learnt: nudged too where they were not read surely (adapter.nudged)."""
    Store(tmp_path, {"d6": "old"}, no_new_features).add({"d6": throw([3, 4]) + throw([5], how="corrected")})
    seen = []

    def features(kind, crops, nudge):
        seen.append((kind, crops.shape, list(nudge)))
        return np.zeros((len(crops), 7), np.float32)

    back = Store(tmp_path, {"d6": "new"}, features).load()["d6"]
    assert seen == [("d6", (3, 5, 5, 3), [False, False, True])] and back.features.shape == (3, 7)
    again = Store(tmp_path, {"d6": "new"}, features).load()["d6"]  # kept as the new model sees them: not seen again
    assert len(seen) == 1 and np.array_equal(again.features, back.features) and list(again.values) == [3, 4, 5]
    assert [p.name for p in tmp_path.iterdir()] == ["learnt.npz"]


def test_a_card_that_takes_no_writes_leaves_the_dice_seen_anew_and_the_files_as_they_were(tmp_path, monkeypatch):
    """Merging what a retrained model saw anew fails on a full or read-only card: the table starts all the same,
    with the dice seen anew, the problem named, and every file as it was."""
    Store(tmp_path, {"d6": "old"}, no_new_features).add({"d6": throw([3, 4])})
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def full(self, path, arrays):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Store, "_write", full)
    store = Store(tmp_path, {"d6": "new"}, lambda kind, crops, nudge: np.zeros((len(crops), 7), np.float32))
    back = store.load()["d6"]
    assert list(back.values) == [3, 4] and back.features.shape == (2, 7)
    assert len(store.problems) == 1 and "No space left" in store.problems[0]
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_retrained_model_sees_anew_only_the_dice_the_adapter_fits(tmp_path):
    """Seeing 5,000 stored dice anew could keep a Raspberry Pi's table from starting within systemd's two minutes:
    a retrained model sees only the newest FIT_MOST dice, balanced by value (all the adapter fits), and lets the
    older ones of the old model go; dice learnt with the new model are all kept."""
    from vision.learnt.adapter import FIT_MOST

    per_value = FIT_MOST // 6
    old = np.tile(np.arange(1, 7), per_value + 10)  # 10 of each value more than the adapter fits
    store = Store(tmp_path, {"d6": "old"}, no_new_features)
    store.add({"d6": throw(old)})
    store.compact()
    Store(tmp_path, {"d6": "new"}, no_new_features).add({"d6": throw([1] * 5, seed=1, dims=7)})
    seen = []

    def features(kind, crops, nudge):
        seen.append(len(crops))
        return np.zeros((len(crops), 7), np.float32)

    back = Store(tmp_path, {"d6": "new"}, features).load()["d6"]
    # the adapter fits per_value of each value, the newest: of the ones, the 5 new ones and the newest old ones
    assert seen == [FIT_MOST - 5] and len(back) == FIT_MOST and back.features.shape == (FIT_MOST, 7)
    assert [int((back.values == v).sum()) for v in range(1, 7)] == [per_value] * 6
    rounds = np.arange(len(old)) // 6  # the old dice came in rounds of one of each value
    newest = rounds >= np.where(old == 1, len(rounds) // 6 - per_value + 5, len(rounds) // 6 - per_value)
    assert np.array_equal(back.crops[: FIT_MOST - 5], throw(old).crops[newest])


def test_a_die_learnt_as_boxed_and_nudged_is_known_however_the_finder_boxes_it(look, tmp_path):
    """The finder boxes dice it was never taught at sizes of its own (dice with numerals: 0.5-0.9 of their side).
    Thirty numeral dice learnt at their labels' boxes; the others read boxed at 0.8 of their side. Learnt in their
    nudged views too (look.NUDGES), the classifier reads them (98% against 78%, learnt as boxed only), and of what
    it misreads it finds few like the learnt dice (familiar: 1% of the dice against 13%), so the table asks."""
    from vision.lab.numerals import write_numeral_set

    write_numeral_set(tmp_path, photos=40, look="red", seed=5)
    learn, read, values = [], [], []
    for image in load_labeled_set(tmp_path):
        frame = cv2.imread(str(image.path))
        for d in image.dice:
            centre, side = ((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2), d.box[2] - d.box[0]
            learn.append(face_crop(frame, *centre, side * FACE_CONTEXT))
            read.append(face_crop(frame, *centre, 0.8 * side * FACE_CONTEXT))
            values.append(d.value)
    n, values = 30, np.array(values)
    learnt, (seen, _) = look.features(np.array(learn[:n])), look.see(read[n:])
    right, familiar_wrong = {}, {}
    for views in (VIEWS, 1):
        adapter = Adapter(6)
        adapter.fit(examples(learnt[:, :views], values[:n], "corrected"))
        _, likeliest, familiar = adapter._classified(seen)
        read_right = likeliest + 1 == values[n:]
        right[views] = (read_right.mean(), (read_right & (familiar >= 0.5)).mean())
        familiar_wrong[views] = (~read_right & (familiar >= 0.5)).mean()
    assert len(values) - n >= 100 and right[VIEWS][0] >= max(0.9, right[1][0] + 0.1), right
    assert right[VIEWS][1] > right[1][1] and familiar_wrong[VIEWS] < familiar_wrong[1] / 2, (right, familiar_wrong)


def test_a_die_read_surely_is_learnt_as_boxed_in_every_view(look):
    """Seeing a die nudged costs learning four times as much; the reader read a sure die as boxed (adapter.nudged)."""
    frame, _ = flat.six_dice_frame(seed=3)
    crops = np.array(look.crops(frame, list(vision.read(frame).dice)))
    learnt = look.features(crops, nudged(np.array([HOW.index(h) for h in ("sure", "corrected")] * 3)))
    for k in range(len(crops)):
        alike = [np.allclose(learnt[k, 0], view, atol=1e-5) for view in learnt[k, 1:]]
        assert alike == [k % 2 == 0] * (VIEWS - 1), k
    np.testing.assert_allclose(learnt[1::2], look.features(crops[1::2]), atol=1e-5)
    mixed = look.features(crops, nudged(np.array([HOW.index(h) for h in ("sure", "corrected")] * 3)), chunk=4)
    np.testing.assert_allclose(mixed, learnt, atol=1e-5)  # chunks cut across the sure and the corrected alike
    with pytest.raises(ValueError, match="5 dice said nudged or not for 6 crops"):
        look.features(crops, [True] * 5)


def test_the_table_learns_a_corrected_die_nudged_and_a_sure_one_as_boxed(tmp_path):
    frame, _ = flat.six_dice_frame(seed=3)
    dice = list(vision.read(frame).dice)[:2]
    learnt = Learnt(tmp_path / "learnt")
    learnt.learn(frame, dice, [d.value for d in dice], ["sure", "corrected"])
    views = learnt.examples["d6"].views()
    assert views.shape[:2] == (2, VIEWS)
    assert np.allclose(views[0], views[0, :1], atol=1e-5) and not np.allclose(views[1], views[1, :1], atol=1e-3)


def test_a_die_is_familiar_as_like_a_learnt_die_as_boxed_not_as_nudged():
    """Taken as familiar where like a nudged view, the grey crops' pips, boxed as dice, read as the learnt twos. Each
    value's dice lie along a direction of their own, their nudged views all along one direction more."""
    rng = np.random.default_rng(4)
    values = np.tile(np.arange(1, 7), 2 * MIN_SEEN)
    boxed = unit(np.eye(8)[values - 1] + 0.05 * rng.normal(size=(len(values), 8)))
    nudge = unit(np.eye(8)[np.full(len(values), 7)] + 0.05 * rng.normal(size=(len(values), 8)))
    adapter = Adapter(6)
    adapter.fit(examples(np.stack([boxed, nudge, nudge, nudge], axis=1), values, "corrected"))
    assert np.array_equal(adapter.known, boxed)
    assert (adapter.familiar(boxed, values - 1) == 1).all()
    like_a_nudge = unit(np.eye(8)[[7] * 6] + 0.05 * rng.normal(size=(6, 8)))
    assert (adapter.familiar(like_a_nudge, np.arange(6)) == 0).all()


def test_the_look_sees_many_stored_crops_a_few_at_a_time_as_it_sees_them_at_once(look):
    frame, _ = flat.six_dice_frame(seed=3)
    crops = np.array(look.crops(frame, list(vision.read(frame).dice)))
    assert len(crops) >= 4
    learnt = look.features(crops, chunk=3)
    assert learnt.shape == (len(crops), VIEWS, 96 + 80)
    np.testing.assert_allclose(learnt, look.features(crops, chunk=len(crops)), atol=1e-5)
    np.testing.assert_allclose(learnt[:, 0], look.see(list(crops))[0], atol=1e-5)  # as boxed: as the table reads it
    for k, crop in enumerate(crops):  # then nudged: as the finder might box the die
        np.testing.assert_allclose(learnt[k, 1:], look.see(nudges(crop, FACE_CONTEXT))[0], atol=1e-5)
    with pytest.raises(FileNotFoundError, match="no d6 reader"):
        Look("d6", Path("/nonexistent"))


def test_forgetting_deletes_every_learnt_file(tmp_path):
    store = Store(tmp_path, {"d6": "m1"}, no_new_features)
    store.add({"d6": throw([1])})
    store.compact()
    store.add({"d6": throw([2])})
    (tmp_path / "notes.txt").write_text("the players' own file")
    store.forget()
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"] and store.load() == {}


def test_balanced_keeps_what_a_scarce_value_has():
    kept = newest_balanced(throw([1] * 10 + [2]), 6, most=12)
    assert list(kept.values) == [1, 1, 2]


# -- Learnt, as the table uses it
def relabel(value):
    return value % 6 + 1  # dice whose faces this table's players read as the next value (a house die)


def test_confirmed_throws_teach_the_reader_its_dice(tmp_path):
    learnt = Learnt(tmp_path / "learnt")
    frames = [flat.six_dice_frame(seed=s)[0] for s in range(3)]
    readings = [vision.read(f) for f in frames]
    for _ in range(12):
        for frame, reading in zip(frames, readings):
            learnt.learn(
                frame, reading.dice, [relabel(d.value) for d in reading.dice], ["corrected"] * len(reading.dice)
            )
    frame = flat.six_dice_frame(seed=7)[0]  # dice not learnt
    before = vision.read(frame)
    after = learnt.adapt(frame, before)
    assert [d.box for d in after.dice] == [d.box for d in before.dice]
    taught = [not d.uncertain and d.value == relabel(b.value) for d, b in zip(after.dice, before.dice)]
    assert sum(taught) >= 5 and all(t or d.uncertain for t, d in zip(taught, after.dice))  # the rest: asked
    again = Learnt(tmp_path / "learnt")  # the next night, from the device
    assert again.counts() == learnt.counts() and sum(learnt.counts()["d6"].values()) == 12 * 18
    assert [d.value for d in again.adapt(frame, before).dice] == [d.value for d in after.dice]
    again.forget()
    assert again.counts() == {} and again.adapt(frame, before) is before


def test_only_flat_dice_inside_the_tray_are_learnt():
    from dataclasses import replace

    learnt = Learnt()
    frame = flat.six_dice_frame(seed=1)[0]
    dice = list(vision.read(frame).dice)
    dice[0] = replace(dice[0], zone=vision.OUTSIDE)
    dice[1] = replace(dice[1], cocked=True, value=None)
    learnt.learn(frame, dice, [d.value for d in dice], ["sure"] * 6)
    assert sum(learnt.counts()["d6"].values()) == 4
    with pytest.raises(ValueError, match="corrected, flagged, sure"):
        learnt.learn(frame, dice, [d.value for d in dice], ["guessed"] * 6)


def test_the_classifier_says_as_much_as_its_mistakes_beside_the_readers_allow():
    features, values = clusters(30)
    needed = Adapter(6)  # dice the reader misread, which the classifier tells apart: it takes over
    needed.fit(examples(features, values, "corrected"))
    rng = np.random.default_rng(5)
    guessing = Adapter(6)  # dice the reader read right, whose looks say nothing of their values: it keeps quiet
    guessing.fit(examples(unit(rng.normal(size=(180, 16))), rng.integers(1, 7, 180), "sure"))
    assert needed.say > 0.8 and guessing.say < 0.1


def mixed_dice(n=120, seed=6):
    """Features of dice whose values their looks only partly tell apart (clusters that overlap), as confirmed;
    alike as real dice's are (a network's activations after ReLU: all dice near one direction)."""
    rng = np.random.default_rng(seed)
    values = rng.integers(1, 7, n)
    centres = rng.normal(size=(6, 16))
    common = np.abs(rng.normal(size=16)) * 4
    return examples(unit(common + centres[values - 1] + 1.2 * rng.normal(size=(n, 16))), values, "flagged")


def loss(adapter, learnt):
    """The weighted cross-entropy and weight decay the classifier's fit minimises, on `learnt`."""
    from vision.learnt.adapter import RIDGE, WEIGHT, _inputs

    y = learnt.values.astype(int) - 1
    w = np.array([WEIGHT[h] for h in HOW])[learnt.how] / np.bincount(y, minlength=6)[y]
    p = softmax(_inputs(learnt.features) @ adapter.weights)
    return float(-(w / w.sum() * np.log(p[np.arange(len(y)), y])).sum() + RIDGE / 2 * (adapter.weights**2).sum())


def test_a_fit_settles_where_longer_fits_do():
    """Its steps are small enough to descend steadily: fitted for half its steps, its steps and three times as
    many, the loss falls each time, by under 5% in the last (with steps 17 times too big to stay steady, fits of 150
    to 4,000 steps landed anywhere)."""
    from vision.learnt import adapter as adapter_module

    learnt = mixed_dice()
    losses = []
    for steps in (adapter_module.STEPS // 2, adapter_module.STEPS, 3 * adapter_module.STEPS):
        adapter = Adapter(6)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(adapter_module, "STEPS", steps)
            adapter.fit(learnt)
        losses.append(loss(adapter, learnt))
    assert losses[0] >= losses[1] >= losses[2] >= 0.95 * losses[1], losses


def test_the_same_dice_learnt_throw_by_throw_or_at_once_read_alike():
    """A table restarted reads as the one that learnt throw by throw all night."""
    learnt = mixed_dice()
    night, restarted = Adapter(6), Adapter(6)
    for end in range(6, len(learnt) + 1, 6):
        night.fit(learnt.take(slice(0, end)))
    restarted.fit(learnt)
    probe = mixed_dice(30, seed=7)
    reader = np.full((30, 6), 1 / 6)
    np.testing.assert_allclose(night.blend(probe.features, reader), restarted.blend(probe.features, reader))


def test_classifiers_fitted_side_by_side_are_those_fitted_one_at_a_time():
    from vision.learnt.adapter import _inputs

    features, values = clusters(8, seed=3)
    adapter = Adapter(6)
    adapter.fit(examples(features, values))
    x, y = _inputs(features), values - 1
    rng = np.random.default_rng(4)
    w = rng.uniform(0.0, 1.0, size=(3, len(y)))
    w[0, ::3] = 0.0  # a fold's held-out dice weigh nothing
    together = adapter._train(x, y, w, 20)
    for fold in range(3):
        alone = adapter._train(x, y, w[fold], 20)
        np.testing.assert_allclose(together[fold], alone, rtol=1e-4, atol=1e-5)
    assert not np.allclose(together[0], together[1], atol=1e-3)


def test_finds_that_are_part_of_a_die_are_left_to_the_reader():
    from vision.learnt.look import adaptable

    def die(x, y, side, kind="d6", cocked=False):
        return vision.Die(kind, None if cocked else 1, (x, y, x + side, y + side), vision.ROLL, 0.9, cocked)

    dice = [
        die(0, 0, 50),
        die(200, 0, 48),
        die(20, 20, 20),  # a pip of the first die, found as a die
        die(400, 0, 18),
        die(600, 0, 30),  # a die's pip beside it; a die boxed small
        die(800, 0, 50, "d10"),
        die(900, 0, 50, cocked=True),
    ]
    assert adaptable(dice, "d6") == [1, 4]  # the first die too: which of it and its pip is the die, the reader says
    assert adaptable(dice, "d10") == [5]


# -- a night on real dice
def test_after_100_confirmed_grey_crops_the_table_reads_them_as_issue_39_asks(capsys):
    """Issue 39's targets after 100 confirmed dice (right >= 95%, silent <= 0.3%) and after 30 (right >= 90%, silent
    <= 0.5%), on tomitomi3-gray-d6, which no packaged model learnt from, by the project's command; in this night's
    order learning never adds silent mistakes there. Its 98% after 300 is not met yet (vision/README.md, learnt
    dice); 90% after 30 was not on the pip reader's features alone (89.1%)."""
    from appliance.cli import main
    from tests.support import dataset

    assert main(["evaluate", str(dataset("tomitomi3-gray-d6")), "--adapt", "100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    after, curve = out["after"], {point["adapt"]: point for point in out["curve"]}
    assert out["confirmed"] == 100 and after["labeled"] > 2000
    assert after["right_rate"] >= 0.95 and after["silent_rate"] <= 0.003, after
    assert curve[30]["right_rate"] >= 0.90 and curve[30]["silent_rate"] <= 0.005, curve[30]
    assert all(point["silent_rate"] <= out["before"]["silent_rate"] for point in curve.values()), curve
