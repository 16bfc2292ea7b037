"""Rest detection on synthetic 320x240 streams drawn with OpenCV."""

import cv2
import numpy as np

from vision import AT_REST, EMPTY, HAND, MOVING, RestDetector
from vision.lab.render import flat

W, H = 320, 240


def tray(seed=0):
    return flat.surface(H, W, seed=seed)


def with_dice(positions, seed=0):
    frame = tray(seed)
    for i, (x, y) in enumerate(positions):
        flat.die(frame, (x, y), 22, 1 + i % 6, angle=17.0 * i)
    return frame


def noisy(frame, rng, sigma=3.0):
    """Sensor noise: every camera frame differs a little even when nothing moves."""
    return np.clip(frame + rng.normal(0, sigma, frame.shape), 0, 255).astype(np.uint8)


def feed(detector, frames):
    return [detector.update(f) for f in frames]


def rolling(steps, rng):
    """Three dice travelling across the tray, one step per frame."""
    return [
        noisy(with_dice([(40 + 9 * t, 60 + 4 * t), (200 - 6 * t, 80 + 5 * t), (100 + 3 * t, 180 - 7 * t)]), rng)
        for t in range(steps)
    ]


def test_moving_dice_are_never_read_then_exactly_one_reading_per_rest():
    rng = np.random.default_rng(1)
    detector = RestDetector(tray())
    moving = feed(detector, rolling(12, rng))
    assert all(s.state == MOVING and s.frame is None for s in moving)
    still_frame = with_dice([(40 + 9 * 11, 60 + 4 * 11), (200 - 6 * 11, 80 + 5 * 11), (100 + 3 * 11, 180 - 7 * 11)])
    rest = feed(detector, [noisy(still_frame, rng) for _ in range(20)])
    readings = [s for s in rest if s.read_now]
    assert len(readings) == 1, [s.state for s in rest]
    assert rest[-1].state == AT_REST
    first_rest = next(i for i, s in enumerate(rest) if s.state == AT_REST)
    assert 2 <= first_rest <= 6, "rest should be declared after a short settling time, not at once nor late"


def test_a_new_throw_gives_a_new_reading():
    rng = np.random.default_rng(2)
    detector = RestDetector(tray())
    a = with_dice([(60, 60), (160, 120)])
    b = with_dice([(250, 170), (100, 190)])
    states = feed(detector, [noisy(a, rng) for _ in range(10)] + rolling(6, rng) + [noisy(b, rng) for _ in range(10)])
    reads = [s for s in states if s.read_now]
    assert len(reads) == 2
    assert reads[0].frame is not reads[1].frame


def test_at_rest_hands_over_the_full_frame_when_given():
    detector = RestDetector(tray())
    small = with_dice([(100, 100)])
    full = cv2.resize(small, (1280, 960))
    states = [detector.update(small, full) for _ in range(8)]
    reads = [s for s in states if s.read_now]
    assert len(reads) == 1 and reads[0].frame.shape == (960, 1280, 3)


def test_a_still_empty_tray_is_empty_not_a_rest():
    rng = np.random.default_rng(3)
    detector = RestDetector(tray())
    states = feed(detector, [noisy(tray(), rng) for _ in range(10)])
    assert [s.state for s in states[1:]] == [EMPTY] * 9
    assert not any(s.read_now for s in states)


def test_a_hand_reaching_in_is_reported_as_hand():
    rng = np.random.default_rng(4)
    detector = RestDetector(tray())
    dice = with_dice([(80, 80), (200, 150)])
    feed(detector, [noisy(dice, rng) for _ in range(8)])
    states = []
    for reach in range(60, 200, 20):  # an arm coming in from the right edge
        frame = dice.copy()
        cv2.ellipse(frame, (W, 120), (reach, 35), 0, 0, 360, (120, 150, 205), -1)
        states.append(detector.update(noisy(frame, rng)))
    assert all(s.state == HAND for s in states)
    # the hand stays still over the dice: still a hand, never a rest to read
    states = feed(detector, [noisy(frame, rng) for _ in range(8)])
    assert all(s.state == HAND and not s.read_now for s in states)


def test_without_an_empty_tray_it_still_finds_rest():
    rng = np.random.default_rng(5)
    detector = RestDetector()
    states = feed(detector, rolling(8, rng) + [noisy(with_dice([(50, 50)]), rng) for _ in range(10)])
    assert sum(s.read_now for s in states) == 1
    assert not any(s.read_now for s in states[:8])


def test_a_die_still_wobbling_is_moving():
    rng = np.random.default_rng(6)
    detector = RestDetector(tray())
    frames = []
    for t in range(20):  # a single die rocking a few degrees back and forth
        frame = tray()
        flat.die(frame, (160, 120), 22, 5, angle=10 + 8 * (-1) ** t)
        frames.append(noisy(frame, rng))
    states = feed(detector, frames)
    assert all(s.state == MOVING for s in states)


def test_small_dark_dice_on_dark_felt_are_dice_not_an_empty_tray():
    """Black dice ~14 px across on charcoal felt: a faint, small change from the empty tray."""
    rng = np.random.default_rng(7)
    dark = flat.surface(180, 320, colour=(70, 72, 74), seed=7)
    frame = dark.copy()
    for i, centre in enumerate([(80, 60), (200, 120)]):
        flat.die(frame, centre, 14, 2 + i, angle=20.0 * i, look=flat.BLACK, shadow=0.0)
    detector = RestDetector(dark)
    states = feed(detector, [noisy(frame, rng) for _ in range(10)])
    assert EMPTY not in [s.state for s in states]
    assert sum(s.read_now for s in states) == 1


def test_a_hand_held_still_whose_sleeve_matches_the_table_is_a_hand():
    """The arm's blob stops short of the frame's edge where a dark sleeve meets a dark table."""
    rng = np.random.default_rng(8)
    detector = RestDetector(tray())
    dice = with_dice([(80, 80), (200, 150)])
    hand = dice.copy()
    cv2.ellipse(hand, (230, 120), (80, 40), 0, 0, 360, (120, 150, 205), -1)  # palm and forearm, no sleeve
    states = feed(detector, [noisy(dice, rng) for _ in range(8)] + [noisy(hand, rng) for _ in range(10)])
    assert all(s.state == HAND and not s.read_now for s in states[8:])
