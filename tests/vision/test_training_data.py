"""Training material (PyTorch: only with the `train` extra, so these skip without it)."""

import numpy as np
import pytest

pytest.importorskip("torch", reason="PyTorch is only installed for training (pip install -e '.[train]')")

import vision  # noqa: E402
from vision.lab.render import flat  # noqa: E402
from vision.lab.training import data  # noqa: E402


def test_a_photo_turned_by_any_angle_keeps_each_box_on_its_die():
    frame = flat.surface(240, 320, seed=2)
    dice = (((60, 60), 2), ((250, 180), 6))
    boxes = np.float32([flat.die(frame, centre, 34, value) for centre, value in dice])
    for seed in range(4):
        picture, turned = data.turn_any(frame, boxes, np.random.default_rng(seed))
        found = sorted(vision.read(picture).dice, key=lambda d: d.value)
        assert [d.value for d in found] == [2, 6]
        for die, (x0, y0, x1, y1) in zip(found, turned):
            assert x0 < die.centre[0] < x1 and y0 < die.centre[1] < y1
        assert np.allclose(turned[:, 2:] - turned[:, :2], boxes[:, 2:] - boxes[:, :2])  # sizes kept
