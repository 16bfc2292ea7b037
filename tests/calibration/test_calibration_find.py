"""Finding the tray, its keep zone and the die size on rendered frames whose geometry the test knows.

The scenes (vision.lab.render.tray.TrayScene) place the felt's corners in the frame through a known
perspective; the expected corners are those placements, never the finder's output.
"""

import numpy as np
import pytest

from calibration.find import FindError, find_tray, measure_die_size, order_corners
from vision.lab.render.tray import TrayScene, spread_dice

SCENE = TrayScene()


def close_enough(scene):
    """1% of the tray's diagonal (about 10 px at 1280x720): a corner the player need not nudge."""
    tray = scene.tray
    return 0.01 * float(np.hypot(*(tray[2] - tray[0])))


def assert_corners(found, expected, tolerance):
    expected = order_corners(expected)
    worst = float(np.abs(found - expected).max())
    assert worst <= tolerance, f"a corner is {worst:.1f} px off (allowed {tolerance:.1f}):\n{found}\nvs\n{expected}"


@pytest.mark.parametrize("side", ["bottom", "top", "left", "right"])
def test_tray_and_a_coloured_keep_strip_on_any_side(side):
    scene = SCENE.with_(keep_side=side)
    outline = find_tray(scene.render())
    assert outline.keep_side == side and outline.keep_marking == "colour"
    assert_corners(outline.tray, scene.tray, close_enough(scene))
    assert_corners(outline.keep, scene.keep, close_enough(scene))


@pytest.mark.parametrize("side", ["bottom", "left"])
def test_keep_zone_marked_by_a_tape_line_on_the_same_felt(side):
    scene = SCENE.with_(keep_side=side, keep_style="tape")
    outline = find_tray(scene.render())
    assert outline.keep_marking == "tape" and outline.keep_side == side
    assert_corners(outline.tray, scene.tray, close_enough(scene))
    assert_corners(outline.keep, scene.keep, close_enough(scene))


@pytest.mark.parametrize(
    "changes",
    [
        dict(felt_bgr=(120, 60, 20), keep_bgr=(30, 30, 30)),  # blue felt, black strip
        dict(corners=((300, 40), (1100, 150), (1020, 700), (200, 580))),  # tray turned under the camera
        dict(corners=((330, 120), (950, 110), (1150, 690), (120, 680))),  # camera far off the vertical
        dict(keep_fraction=0.10),  # a narrow strip
        dict(
            felt_bgr=(40, 40, 140), keep_style="tape", tape_bgr=(160, 90, 20), keep_side="right"
        ),  # red felt, wall alike
    ],
    ids=["blue-black", "turned", "tilted", "narrow", "red-felt-tape"],
)
def test_other_trays_and_camera_angles(changes):
    scene = SCENE.with_(**changes)
    outline = find_tray(scene.render())
    assert outline.keep_side == scene.keep_side
    assert_corners(outline.tray, scene.tray, close_enough(scene))
    assert_corners(outline.keep, scene.keep, close_enough(scene))


def test_a_tray_without_keep_zone_is_found_and_says_so():
    scene = SCENE.with_(keep_side=None)
    outline = find_tray(scene.render())
    assert outline.keep is None and outline.keep_side is None
    assert_corners(outline.tray, scene.tray, close_enough(scene))


@pytest.mark.parametrize(
    "frame, words",
    [
        (np.full((720, 1280, 3), (165, 170, 175), np.uint8), "runs out of the picture"),  # only the table
        (TrayScene(corners=((-60, -40), (1340, -30), (1340, 760), (-50, 770))).render(), "runs out of the picture"),
        (TrayScene(corners=((560, 300), (720, 300), (720, 420), (560, 420))).render(), "too small"),
    ],
)
def test_no_tray_in_view_is_a_message_not_a_crash(frame, words):
    with pytest.raises(FindError, match=words):
        find_tray(frame)


@pytest.mark.parametrize(
    "size, felt",
    [(56, (60, 110, 40)), (40, (60, 110, 40)), (80, (60, 110, 40)), (48, (40, 80, 30)), (64, (120, 60, 20))],
)
def test_die_size_within_5_percent_of_the_drawn_dice(size, felt):
    scene = SCENE.with_(felt_bgr=felt)
    measured = measure_die_size(scene.render(spread_dice(size)), scene.render(), scene.tray)
    assert measured.dice == 6
    assert abs(measured.px - size) <= 0.05 * size, f"{measured.px:.1f} px for dice drawn {size} px"


def test_die_size_needs_dice_and_says_so():
    empty = SCENE.render()
    with pytest.raises(FindError, match="Fewer than two dice"):
        measure_die_size(empty.copy(), empty, SCENE.tray)
    with pytest.raises(FindError, match="Fewer than two dice"):
        measure_die_size(SCENE.render(spread_dice(56, count=1)), empty, SCENE.tray)


def test_touching_dice_are_not_measured_as_one_big_die():
    empty = SCENE.render()
    u0, v0 = SCENE.plane_point(0.5, 0.5)
    u1, _ = SCENE.plane_point(0.6, 0.5)
    # two dice side by side, edges touching: their blob is twice as long as wide
    pair = ((0.5, 0.5, 56, 2, 0), (0.5 + 56 / (u1 - u0) * 0.1, 0.5, 56, 5, 0))
    with pytest.raises(FindError, match="touch"):
        measure_die_size(SCENE.render(pair), empty, SCENE.tray)
    with_singles = SCENE.render(pair + spread_dice(56)[:3])
    measured = measure_die_size(with_singles, empty, SCENE.tray)
    assert measured.dice == 3 and measured.rejected == 1 and abs(measured.px - 56) <= 0.05 * 56


def test_a_hand_over_the_tray_is_named():
    empty = SCENE.render()
    frame = empty.copy()
    frame[200:500, 400:700] = (120, 150, 200)  # a large skin-coloured blob
    with pytest.raises(FindError, match="hand"):
        measure_die_size(frame, empty, SCENE.tray)
