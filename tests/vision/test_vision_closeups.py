"""Close-ups cut from a labeled set (vision.lab.closeups): each die blown up to its share of the picture, its
label moved with it, another die labeled only when wholly in view."""

import cv2
import numpy as np
import pytest

from tests.support import FIXTURES
from vision.lab.closeups import main, write_close_ups
from vision.labels import load_labeled_set

STILLS = FIXTURES / "throws" / "stills-d6"


def test_each_close_up_holds_its_die_where_its_label_says(tmp_path):
    written, cut = write_close_ups(STILLS, tmp_path, die_share=0.8, side=224)
    source = {image.path.stem: image for image in load_labeled_set(STILLS)}
    images = load_labeled_set(tmp_path)
    assert len(images) == written and written + cut == sum(len(i.dice) for i in source.values()), (written, cut)
    for image in images:
        stem, n = image.path.stem.rsplit("_", 1)
        photo, die = source[stem], source[stem].dice[int(n)]
        first = image.dice[0]
        assert (first.kind, first.value) == (die.kind, die.value)
        side = max(first.box[2] - first.box[0], first.box[3] - first.box[1])
        assert side >= 0.78 * max(image.width, image.height), (image.path.name, side)
        # the same pixels: the die's box in the close-up looks like the die's box in the photo
        x0, y0, x1, y1 = (int(round(v)) for v in first.box)
        a0, b0, a1, b1 = (int(round(v)) for v in die.box)
        there = cv2.imread(str(image.path))[max(0, y0) : y1, max(0, x0) : x1].reshape(-1, 3).mean(axis=0)
        here = cv2.imread(str(photo.path))[b0:b1, a0:a1].reshape(-1, 3).mean(axis=0)
        assert np.abs(there - here).max() < 12, (image.path.name, there, here)
        for other in image.dice[1:]:  # another die only when wholly in the picture
            assert 0 <= other.box[0] and 0 <= other.box[1]
            assert other.box[2] <= image.width and other.box[3] <= image.height


def test_the_command_says_what_it_wrote_and_refuses_a_share_that_is_none(tmp_path, capsys):
    assert main([str(STILLS), str(tmp_path / "close"), "--die-share", "0.5"]) == 0
    assert "close-ups in" in capsys.readouterr().out and (tmp_path / "close" / "labels.json").exists()
    with pytest.raises(SystemExit):
        main([str(STILLS), str(tmp_path / "x"), "--die-share", "1.5"])
    assert "--die-share" in capsys.readouterr().err
