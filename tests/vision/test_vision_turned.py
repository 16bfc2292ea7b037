"""Reading a crop at four quarter turns, only when its first reading is unsure (vision.preprocess.read_turned)."""

import numpy as np

from vision.preprocess import SURE, read_turned


class CornerNet:
    """A stand-in network whose logits come from the crop's top-left pixel, so each turn of a crop reads
    differently; it records how many crops it was given each time."""

    def __init__(self):
        self.calls = []

    def setInput(self, blob):
        self.blob = blob
        self.calls.append(blob.shape[0])

    def forward(self):
        corner = self.blob[:, :, 0, 0]  # N x 3, in 0..1
        return corner * 8.0  # three classes


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def crop(top_left, others=(0, 0, 0)):
    c = np.zeros((8, 8, 3), np.uint8)
    c[:] = others
    c[0, 0] = top_left
    return c


def test_a_sure_crop_is_read_once_as_it_lies():
    net = CornerNet()
    sure = crop((255, 0, 0))  # class 0 at ~0.9993
    probs = read_turned(net, [sure, sure])
    assert net.calls == [2]
    assert np.argmax(probs[0]) == 0 and probs[0, 0] > SURE


def test_an_unsure_crop_is_read_at_four_turns_and_the_readings_averaged():
    net = CornerNet()
    unsure = crop((120, 110, 100))  # first reading about 0.4 / 0.33 / 0.27
    unsure[0, -1] = (0, 255, 0)  # what the corner shows after a quarter turn one way
    unsure[-1, 0] = (0, 0, 255)  # ... and the other way
    sure = crop((255, 0, 0))
    probs = read_turned(net, [sure, unsure])
    assert net.calls == [2, 3]  # only the unsure crop is turned, three more times
    readings = [softmax(np.rot90(unsure, k)[0, 0] / 255.0 * 8.0) for k in range(4)]
    assert np.allclose(probs[1], np.mean(readings, axis=0), atol=1e-5)
    assert not np.allclose(probs[1], readings[0], atol=1e-2)  # the turns did change the answer
    assert probs[0, 0] > SURE
