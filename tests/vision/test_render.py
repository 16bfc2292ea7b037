"""The renderer: geometry of the dice, the lens, labels that say where each die is drawn, determinism,
and a rendered throw that the rest detector sees come to rest (expected values from geometry and the
scripts, never from the renderer's own output)."""

import cv2
import numpy as np
import pytest

from vision.lab.render import dice_d6, dice_d10, glyphs, layout
from vision.lab.render.camera import Camera
from vision.lab.render.frame import DieState, render_frame
from vision.lab.render.scene import Scene
from vision.lab.render.sequence import Sequence, Spec
from vision.lab.render.solid import UP

SMALL = (320, 240)


def _orientation(face, pts):
    """Sign of the turn uv[0]->uv[1]->uv[3] in the texture times the same in the picture: + not mirrored."""

    def turn(p):
        a, b = p[1] - p[0], p[3] - p[0]
        return a[0] * b[1] - a[1] * b[0]

    return np.sign(turn(face.uv) * turn(pts[list(face.vertices)]))


@pytest.mark.parametrize(
    "make, looks, faces, opposite_sum",
    [
        (dice_d6.make_d6, dice_d6.LOOKS, 6, 7),
        (dice_d10.make_d10, dice_d10.LOOKS, 10, None),
        (dice_d10.make_d10, (dice_d10.Look("sans", (232, 234, 236), (25, 25, 25), font="sans"),), 10, None),
    ],
)
def test_every_value_rests_flat_on_top_and_reads_the_right_way_round(make, looks, faces, opposite_sum):
    solid = make(looks[0], 16.0)
    scene = Scene()
    assert sorted(f.value for f in solid.faces) == list(range(1, faces + 1))
    for value in range(1, faces + 1):
        rotation = solid.resting(value)
        top = solid.face_up(rotation)
        assert top.value == value
        normal = rotation @ solid.normals[solid.faces.index(top)]
        assert normal @ UP == pytest.approx(1.0, abs=1e-9)  # flat: the top face is horizontal
        pts = scene.camera.project((rotation @ solid.vertices.T).T + [0, 0, -solid.lowest(rotation)])
        assert _orientation(top, pts) > 0
        bottom = int(np.argmin((rotation @ solid.normals.T).T @ UP))
        if opposite_sum:
            assert solid.faces[bottom].value + value == opposite_sum
        else:  # d10: printed digits of opposite faces add up to 9 (a 10 is a printed 0)
            assert (value % 10) + (solid.faces[bottom].value % 10) == 9


@pytest.mark.parametrize("italic", [False, True])
def test_a_truetype_numeral_is_drawn_where_asked_as_tall_as_asked_and_bolder_with_more_weight(italic):
    inked = {}
    for weight in (0.7, 1.0, 1.8):
        ink = np.zeros((128, 128), np.uint8)
        x0, y0, x1, y1 = glyphs.draw(ink, "4", (70, 60), 40, weight, italic)
        assert (y1 - y0, (x0 + x1) / 2, (y0 + y1) / 2) == (40, pytest.approx(70, abs=1), pytest.approx(60, abs=1))
        ys, xs = np.nonzero(ink)
        assert x0 <= xs.min() and xs.max() < x1 and y0 <= ys.min() and ys.max() < y1
        inked[weight] = int(ink.sum())
    assert inked[0.7] < inked[1.0] < inked[1.8]
    # ten different numerals: no two glyphs alike
    shapes = [cv2.resize(glyphs.glyph(str(d), italic), (16, 24), interpolation=cv2.INTER_AREA) for d in range(10)]
    assert min(np.abs(a - b).mean() for i, a in enumerate(shapes) for b in shapes[i + 1 :]) > 0.05


def test_the_d10_face_gap_is_its_size_and_its_faces_are_planar_kites():
    solid = dice_d10.make_d10(dice_d10.LOOKS[0], 18.0)
    rotation = solid.resting(4)
    z = (rotation @ solid.vertices.T)[2]
    assert z.max() - z[list(solid.face_up(rotation).vertices)].mean() == pytest.approx(18.0, abs=1e-6)
    for face, n in zip(solid.faces, solid.normals):
        p = solid.vertices[list(face.vertices)]
        assert np.abs((p - p[0]) @ n).max() < 1e-9
        # a kite: the pole and the blunt vertex are equally far from both side vertices
        assert np.linalg.norm(p[1] - p[0]) == pytest.approx(np.linalg.norm(p[3] - p[0]))
        assert np.linalg.norm(p[1] - p[2]) == pytest.approx(np.linalg.norm(p[3] - p[2]))


def test_a_pixels_ray_meets_the_felt_where_the_point_was_projected_from():
    camera = Camera(size=(640, 480), focal=800, distortion=(-0.12, 0.04, 0, 0, 0))
    points = np.array([[0, 0, 0], [120, -80, 0], [-150, 100, 0], [60, 90, 0]], float)
    pixels = camera.project(points)
    plane = camera.hit_plane(0.0)
    for p, (x, y) in zip(points, pixels):
        i, j = int(round(y)), int(round(x))
        assert np.linalg.norm(plane[i, j] - p[:2]) < 1.0  # mm; within one pixel's footprint


def _die(scene, kind, value, x, y, yaw=0.3):
    make, looks = (dice_d6.make_d6, dice_d6.LOOKS) if kind == "d6" else (dice_d10.make_d10, dice_d10.LOOKS)
    solid = make(looks[0], scene.die_mm)
    rotation = layout.resting_rotation(solid, value, yaw)
    return DieState(solid, rotation, (x, y, -solid.lowest(rotation)), id=1)


@pytest.mark.parametrize(
    "kind, value, x, y, zone",
    [("d6", 4, -60.0, -30.0, "roll"), ("d10", 10, 50.0, -20.0, "roll"), ("d6", 2, 20.0, 100.0, "keep")],
)
def test_a_label_says_what_the_die_shows_and_boxes_where_it_is_drawn(kind, value, x, y, zone):
    scene = Scene.random(3, size=SMALL)
    die = _die(scene, kind, value, x, y)
    image, (label,) = render_frame(scene, [die], noise_seed=1)
    empty, _ = render_frame(scene, [], noise_seed=1)
    assert (label.kind, label.value, label.zone, label.cocked) == (kind, value, zone, False)
    cx, cy = scene.camera.project([[x, y, die.centre[2]]])[0]
    x0, y0, x1, y1 = label.box
    assert x0 < cx < x1 and y0 < cy < y1
    diff = np.abs(image.astype(int) - empty.astype(int)).max(axis=2) > 30
    ys, xs = np.nonzero(diff)
    # what changed is the die (and its shadow, beside it): the box holds most of the change...
    inside = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
    assert inside.mean() > 0.6
    # ...and the die covers most of its box
    assert diff[int(y0) : int(y1), int(x0) : int(x1)].mean() > 0.4


def test_a_leaning_die_is_labeled_cocked_and_a_die_beyond_the_wall_outside():
    scene = Scene.random(4, size=SMALL)
    solid = dice_d6.make_d6(dice_d6.LOOKS[2], scene.die_mm)
    lean = layout.resting_rotation(solid, 5, 0.2, lean_deg=30)
    spot = layout.beyond_wall(scene, "right")
    flat = layout.resting_rotation(solid, 3, 0.0)
    dice = [
        DieState(solid, lean, (0.0, 0.0, -solid.lowest(lean)), id=1),
        DieState(solid, flat, (spot[0], spot[1], -solid.lowest(flat)), id=2),
    ]
    _, labels = render_frame(scene, dice)
    assert labels[0].cocked and not labels[1].cocked
    assert labels[1].zone == "outside" and labels[1].visible


def test_the_same_seed_renders_the_same_frame():
    a = render_frame(Scene.random(9, size=SMALL), [_die(Scene.random(9, size=SMALL), "d6", 6, 0, 0)], noise_seed=5)[0]
    b = render_frame(Scene.random(9, size=SMALL), [_die(Scene.random(9, size=SMALL), "d6", 6, 0, 0)], noise_seed=5)[0]
    c = render_frame(Scene.random(9, size=SMALL), [_die(Scene.random(9, size=SMALL), "d6", 6, 0, 0)], noise_seed=6)[0]
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_a_rendered_throw_comes_to_rest_and_the_rest_detector_sees_it_in_time():
    from hardware.frame_source import small_grey
    from vision.rest import RestDetector

    scene = Scene.random(11, size=(480, 360))
    frames = {}
    seq = Sequence(scene, lambda i, image: frames.__setitem__(i, image), seed=11)
    solid = [dice_d6.make_d6(dice_d6.LOOKS[0], scene.die_mm, seed=i) for i in range(3)]
    ids = seq.throw([Spec(s, v) for s, v in zip(solid, (1, 4, 6))], attempt=1)
    seq.rest()
    seq.push({ids[0]: "keep"})
    seq.rest()
    record = seq.finish()
    moving = [f["moving"] for f in record["frames"]]
    assert any(moving[: seq.throw_frames - 1]) and not any(moving[-4:])
    first_labels, second_labels = record["images"]
    assert sorted(d["value"] for d in first_labels["dice"]) == [1, 4, 6]
    assert all(d["thrown_in"] == 1 and d["zone"] == "roll" for d in first_labels["dice"])
    assert sorted(d["zone"] for d in second_labels["dice"]) == ["keep", "roll", "roll"]
    empty, _ = render_frame(scene, [], noise_seed=0)
    detector = RestDetector(small_grey(empty, (320, 180)))
    detected = []
    for i in range(len(frames)):
        state = detector.update(small_grey(frames[i], (320, 180)), frames[i])
        if state.read_now:
            assert not moving[i], f"read at frame {i} while something moved"
            detected.append(i)
    for labels, at in zip(record["images"], detected):
        last_motion = max(k for k in range(labels["rest_frames"][0]) if moving[k])
        assert 0 < at - last_motion <= 5
    assert len(detected) == 2


def test_a_die_under_the_hand_or_under_another_die_is_not_labeled_visible():
    """Labels are for dice one can see: a die covered by the hand or by a die lying on it is left out."""
    from vision.lab.render.hand import Hand

    scene = Scene.random(3, size=SMALL)
    die = _die(scene, "d10", 7, 0.0, 0.0)
    _, (alone,) = render_frame(scene, [die])
    assert alone.visible and alone.showing == 1.0
    # the palm right over it (fingertips 40 mm beyond it): nothing of it shows
    _, (covered,) = render_frame(scene, [die], Hand((0.0, -40.0), side="bottom"))
    assert not covered.visible and covered.showing < 0.1
    # a hand reaching in from the far side of the tray leaves it alone
    _, (beside,) = render_frame(scene, [die], Hand((-150.0, 0.0), side="left"))
    assert beside.visible and beside.showing > 0.9
    # a second die resting on the first (nearer the camera, so drawn over it)
    on_top = DieState(die.solid, die.rotation, (0.0, 0.0, die.centre[2] - scene.die_mm * 1.5), id=2)
    _, (under, over) = render_frame(scene, [die, on_top])
    assert not under.visible and over.visible


def test_a_shorter_underline_under_a_6_loses_equal_ends_and_stays_centred_under_the_numeral():
    kite = np.array([(64, 8), (20, 70), (64, 120), (108, 70)], np.float64)  # pole, side, blunt, side
    ink = {}
    for share in (1.0, 0.5):
        look = dice_d10.Look("test", (230, 230, 230), (20, 20, 20), font="simplex", mark="underline", mark_len=share)
        tex, _ = dice_d10.kite_texture(6, look, kite, np.random.default_rng(1))
        ink[share] = 255 - tex.mean(axis=2)
    cut = ink[1.0] - ink[0.5] > 60
    rows = np.nonzero(cut.any(axis=1))[0]
    assert 0 < rows.max() - rows.min() <= 6  # only the underline changed
    bar = np.nonzero((ink[1.0][rows] > 60).any(axis=0))[0]
    lost = np.nonzero(cut.any(axis=0))[0]
    middle = (bar.min() + bar.max()) / 2
    left, right = (lost < middle).sum(), (lost > middle).sum()
    assert abs(int(left) - int(right)) <= 2
    assert left + right == pytest.approx(len(bar) / 2, abs=4)


@pytest.mark.parametrize("elevation", [30.0, 50.0, 65.0])
def test_a_camera_seen_from_the_side_keeps_its_distance_and_aim_at_the_asked_angle(elevation):
    from vision.lab.render.training import seen_from

    camera = Scene.random(3).camera
    side = seen_from(camera, elevation, azimuth=1.0)
    offset = np.subtract(side.position, side.target)
    assert np.isclose(np.linalg.norm(offset), np.linalg.norm(np.subtract(camera.position, camera.target)))
    assert offset[2] < 0 and np.isclose(np.degrees(np.arcsin(-offset[2] / np.linalg.norm(offset))), elevation)
    assert np.allclose(np.arctan2(offset[1], offset[0]), 1.0)
    # still aimed at its target: the target is drawn at the frame's centre (the lens distorts nothing there)
    assert np.allclose(side.project([side.target])[0], np.divide(side.size, 2), atol=0.5)
    # a square on the felt, seen from beside its x axis, is drawn shortened along x by the sine of the elevation
    along_x = seen_from(Camera(target=(0, 0, 0), distortion=(0, 0, 0, 0, 0)), elevation, azimuth=0.0)
    a, b, c = along_x.project([(-10, 0, 0), (10, 0, 0), (0, 20, 0)])
    assert np.isclose(np.linalg.norm(b - a) / np.linalg.norm(c - (a + b) / 2), np.sin(np.radians(elevation)), rtol=0.1)
