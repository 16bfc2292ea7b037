"""Learnt dice: the look (features from the packaged readers), the adapter (classifier and blend), the store
and Learnt as the table uses it."""
import cv2
import numpy as np
import pytest

import vision
from vision import synthetic
from vision.learnt import Learnt
from vision.learnt.adapter import HOW, MIN_SEEN, Adapter, Examples
from vision.learnt.look import Look, feature_layer
from vision.types import UNCERTAIN_BELOW


def examples(features, values, how="sure"):
    n = len(values)
    return Examples(np.asarray(features, np.float32), np.asarray(values, np.int16),
                    np.full(n, HOW.index(how), np.int8), np.zeros((n, 2, 2, 3), np.uint8))


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
    layers = list(look.net.getLayerNames())
    after = layers[layers.index(feature_layer(look.net)) + 1]
    assert look.net.getLayer(look.net.getLayerId(after)).type in ("Gemm", "InnerProduct")


def test_a_die_turned_by_a_quarter_turn_has_the_same_features(look):
    frame, dice = synthetic.six_dice_frame(seed=3)
    reading = vision.read(frame)
    crops = look.crops(frame, list(reading.dice[:2]))
    features, values = look.see(crops + [cv2.rotate(c, cv2.ROTATE_90_CLOCKWISE) for c in crops])
    assert features.shape == (4, 96) and values.shape == (4, 6)
    assert np.allclose(np.linalg.norm(features, axis=1), 1, atol=1e-5)
    assert np.allclose(features[:2], features[2:], atol=1e-4)
    # the network's own reading of these flat dice: their values, surely
    assert list(values[:2].argmax(axis=1) + 1) == [d.value for d in reading.dice[:2]]


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
    test, truth = clusters(5, seed=0)   # the same dice seen again
    wrong = np.zeros((len(truth), 6))
    wrong[np.arange(len(truth)), truth % 6] = 0.97   # the reader surely reads each die as the next value
    wrong[np.arange(len(truth)), truth - 1] = 0.01
    blended = adapter.blend(test, wrong)
    assert list(blended.argmax(axis=1) + 1) == list(truth)
    assert (blended.max(axis=1) >= UNCERTAIN_BELOW).all()


def test_where_classifier_and_reader_disagree_early_the_table_asks():
    features, values = clusters(2 * MIN_SEEN)   # few dice learnt: the reader still weighs most
    adapter = Adapter(6)
    adapter.fit(examples(features, values, "corrected"))
    reader = np.zeros((6, 6))
    reader[np.arange(6), np.arange(1, 7) % 6] = 0.97
    blended = adapter.blend(clusters(1)[0], reader)
    wrong = blended.argmax(axis=1) + 1 != np.arange(1, 7)
    assert (blended.max(axis=1)[wrong] < UNCERTAIN_BELOW).all()   # never the reader's value without asking


def test_a_value_seen_too_few_times_is_left_to_the_reader():
    features, values = clusters(10)
    seen = values != 6   # no six learnt, and one seen fewer than MIN_SEEN times
    adapter = Adapter(6)
    adapter.fit(examples(np.vstack([features[seen], features[values == 6][:MIN_SEEN - 1]]),
                         np.concatenate([values[seen], [6] * (MIN_SEEN - 1)])))
    assert list(adapter.seen) == [True] * 5 + [False]
    six = np.array([[0.0, 0.0, 0.0, 0.0, 0.05, 0.9]])
    blended = adapter.blend(clusters(1)[0][5:6], six)
    assert blended.argmax() == 5 and blended[0, 5] == pytest.approx(0.9)   # the reader's share, untouched


def test_a_correction_outweighs_a_sure_ok_on_the_same_die():
    features, values = clusters(10)
    twin = np.repeat(unit(np.random.default_rng(9).normal(size=(1, 16))), 3, axis=0)   # a new look, thrice confirmed
    adapter = Adapter(6)
    adapter.fit(examples(features, values) + examples(twin[:1], [2], "corrected") + examples(twin[1:], [3, 3], "sure"))
    assert adapter.blend(twin[:1], np.full((1, 6), 1 / 6)).argmax() + 1 == 2   # one correction beats two OKs
    flagged = Adapter(6)
    flagged.fit(examples(features, values) + examples(twin[:1], [2], "sure") + examples(twin[1:2], [3], "flagged"))
    assert flagged.blend(twin[:1], np.full((1, 6), 1 / 6)).argmax() + 1 == 3   # a confirmed question beats an OK
