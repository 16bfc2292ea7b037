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


def test_side_views_are_rendered_and_with_side_asks_every_die_in_them_is_to_be_asked(tmp_path):
    import json

    from vision.lab.training import render3d
    from vision.lab.training.nets import COCKED

    def labels(*more):
        out = tmp_path / "-".join(more or ["plain"])
        render3d.main(
            ["--out", str(out), "--scenes", "3", "--seed", "710000", "--lean", "0", "--oblique", "1"]
            + ["--oblique-deg", "15", "25", *more]
        )
        return [e["label"] for e in json.loads((out / "examples.json").read_text())]

    read, asked = labels(), labels("--side-asks")
    assert len(read) == len(asked) and any(label > 0 for label in read)
    assert {label for label in read if label} <= set(range(1, 7))  # flat dice, their values
    assert {label for label in asked if label} == {COCKED}
