"""Training material: the labeled photos (train split only) plus rendered scenes, with augmentation.

Augmentation aims at surfaces and dice the photos do not show: hue rotation, colour casts, inverted
brightness, uneven light, blur, noise, any rotation; rendered scenes add felt, wood, cloth and
cardboard surfaces with dice of random colours, translucent and marbled.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ... import finder
from ...labels import load_labeled_set
from ...preprocess import FACE_CONTEXT, FACE_SIZE, FINDER_LONG_SIDE, face_crop
from ..render import flat
from ..splits import in_split
from .nets import COCKED

WIDE_DIE_PX = (8.0, 96.0)  # die sizes (px at the finder's scale) of the finder's wide-scale samples


@dataclass
class Photo:
    image: np.ndarray  # BGR
    boxes: np.ndarray  # (N, 4) float32
    values: np.ndarray  # (N,) int
    name: str = ""  # "set/file" for photos, "" for renders
    augmented: bool = False  # a training copy its source altered (vision.lab.scoring.LabeledImage.augmented)

    @property
    def source(self) -> str:
        """The set the photo comes from."""
        return self.name.split("/")[0]


def load_photos(datasets: Path, sets: list[str], split: str, place=None) -> list[Photo]:
    """The six-sided dice of the sets' photos in `split` (vision.lab.splits.in_split: each set's own split where it
    has one; its altered training copies count as its training photos). A photo of one die labeled without a box
    (a crop of one die, a frame with one die in it) is kept where `place(image) -> box or None` places the die
    (the finder's surest find: `lone_die_box`), else left out: its die, unboxed, would teach "no die"."""
    photos = []
    for name in sets:
        for item in load_labeled_set(datasets / name):
            if not in_split(item, split):
                continue
            image = cv2.imread(str(item.path))
            dice = [d for d in item.dice if d.kind == "d6"]
            boxes = [d.box for d in dice]
            if None in boxes:
                box = place(image) if place and len(item.dice) == 1 else None
                if box is None:
                    continue
                boxes = [box]
            photos.append(
                Photo(
                    image,
                    np.float32(boxes).reshape(-1, 4),
                    np.int64([d.value for d in dice]),
                    f"{name}/{item.path.name}",
                    item.augmented,
                )
            )
    return photos


def lone_die_box(reader):
    """place(image) for load_photos: the box of the surest die a DiceReader's finder finds, or None."""

    def place(image: np.ndarray):
        finds = reader.find(image)
        if not finds:
            return None
        cx, cy, w, h, _ = max(finds, key=lambda f: f[4])
        return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)

    return place


# ---------------------------------------------------------------- photometric augmentation


def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = img.astype(np.float32)
    if rng.random() < 0.6:  # rotate hue: a red die becomes green, a grey tray stays grey
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        sat = rng.uniform(0.8, 1.3)  # not much less: coloured pips on a coloured die differ by hue
        hsv[..., 1] = np.clip(hsv[..., 1] * sat, 0, 255).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    out *= rng.uniform(0.75, 1.25, 3).astype(np.float32)  # colour cast
    out = (out - 128) * rng.uniform(0.6, 1.3) + 128 + rng.uniform(-40, 40)  # contrast, brightness
    if rng.random() < 0.5:  # uneven light: a broad gradient across the frame
        h, w = out.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, 2 * np.pi)
        ramp = np.cos(a) * xx / w + np.sin(a) * yy / h
        out *= (1 + rng.uniform(-0.45, 0.45) * (ramp - ramp.mean()))[..., None]
    out = np.clip(out, 0, 255)
    if rng.random() < 0.3:
        gamma = rng.uniform(0.6, 1.6)
        out = 255 * (out / 255) ** gamma
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    if rng.random() < 0.4:
        out += rng.normal(0, rng.uniform(2, 9), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:  # JPEG artefacts
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 90))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


# ---------------------------------------------------------------- rendered scenes


def random_surface(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    kind = rng.integers(0, 4)
    colour = cv2.cvtColor(
        np.uint8([[[rng.integers(0, 180), rng.integers(0, 200), rng.integers(40, 240)]]]), cv2.COLOR_HSV2BGR
    )[0, 0]
    base = np.empty((h, w, 3), np.float32)
    base[:] = colour
    if kind == 0:  # felt: fine grain
        base += rng.normal(0, rng.uniform(3, 10), (h, w, 1))
    elif kind == 1:  # wood: wavy stripes
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, np.pi)
        t = np.cos(a) * xx + np.sin(a) * yy
        warp = cv2.GaussianBlur(rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32), (0, 0), 3)
        warp = cv2.resize(warp, (w, h)) * 60
        stripes = np.sin((t + warp) / rng.uniform(3, 12))
        base *= (1 + rng.uniform(0.03, 0.12) * stripes)[..., None]
    elif kind == 2:  # cloth: soft folds
        folds = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        base *= (1 + 0.15 * folds)[..., None]
        base += rng.normal(0, 4, (h, w, 1))
    else:  # cardboard: speckles
        base += rng.normal(0, 3, (h, w, 1))
        speck = (rng.random((h, w)) < 0.002).astype(np.float32)
        base -= 60 * cv2.GaussianBlur(speck, (3, 3), 0)[..., None]
    return np.clip(base, 0, 255).astype(np.uint8)


def random_look(rng: np.random.Generator) -> flat.Look:
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(15, 256)]]])
    body = tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    light = sum(body) / 3 > 120
    pip_hsv = np.uint8(
        [[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(0, 60) if light else rng.integers(190, 256)]]]
    )
    pip = tuple(int(v) for v in cv2.cvtColor(pip_hsv, cv2.COLOR_HSV2BGR)[0, 0])
    second = None
    if rng.random() < 0.25:
        second = tuple(int(v) for v in np.clip(np.array(body) + rng.integers(-90, 90, 3), 0, 255))
    alpha = 1.0 if rng.random() < 0.7 else float(rng.uniform(0.55, 0.9))
    return flat.Look("drawn", body, pip, second, alpha, float(rng.uniform(0.8, 1.35)))


def render_scene(rng: np.random.Generator, h: int = 480, w: int = 640, cocked_share: float = 0.0) -> Photo:
    img = random_surface(h, w, rng)
    n = int(rng.integers(1, 14))
    size = rng.uniform(24, 70)
    boxes, values, centres = [], [], []
    angle = float(rng.uniform(0, 90))
    for _ in range(n * 4):
        if len(values) == n:
            break
        if centres and rng.random() < 0.35:  # touching the previous die, edge to edge, as dice often lie
            side = rng.choice([-1, 1]) * size * rng.uniform(1.0, 1.08)
            a = np.radians(angle + 90 * int(rng.integers(0, 4)))
            c = centres[-1] + side * np.float32([np.cos(a), np.sin(a)])
            if not (size <= c[0] <= w - size and size <= c[1] <= h - size):
                continue
            if any(np.hypot(*(c - o)) < size * 0.95 for o in centres):
                continue
        else:
            c = rng.uniform([size, size], [w - size, h - size])
            angle = float(rng.uniform(0, 90))
            if any(np.hypot(*(c - o)) < size * rng.uniform(1.05, 1.5) for o in centres):
                continue
        s = size * rng.uniform(0.95, 1.05)
        value = int(rng.integers(1, 7))
        if rng.random() < cocked_share:  # leaning over: two faces foreshortened, label "cocked"
            box = flat.cocked_die(
                img,
                c,
                s,
                value,
                int(rng.integers(1, 7)),
                float(rng.uniform(15, 45)),
                float(rng.uniform(0, 360)),
                random_look(rng),
                float(rng.uniform(0, 0.5)),
            )
            value = COCKED
        else:
            box = flat.die(
                img,
                c,
                s,
                value,
                angle + float(rng.normal(0, 3)),
                random_look(rng),
                rng,
                shadow=float(rng.uniform(0, 0.5)),
            )
        centres.append(c)
        boxes.append(box)
        values.append(value)
    return Photo(img, np.float32(boxes).reshape(-1, 4), np.int64(values))


# ---------------------------------------------------------------- geometry shared by both samplers


def rotate90_flip(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator):
    k = int(rng.integers(0, 4))
    for _ in range(k):  # rotate 90 degrees clockwise
        h = img.shape[0]
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        boxes = np.stack([h - boxes[:, 3], boxes[:, 0], h - boxes[:, 1], boxes[:, 2]], axis=1)
    if rng.random() < 0.5:
        w = img.shape[1]
        img = img[:, ::-1].copy()
        boxes = np.stack([w - boxes[:, 2], boxes[:, 1], w - boxes[:, 0], boxes[:, 3]], axis=1)
    return img, boxes


def turn_any(img: np.ndarray, boxes: np.ndarray, rng: np.random.Generator):
    """The picture turned by a random angle (flat.turned), each box around its die's turned centre. A box
    keeps its size: how a die's own outline lies inside its box is not known."""
    img, m = flat.turned(img, float(rng.uniform(0, 360)))
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2 @ m[:, :2].T + m[:, 2]
    half = (boxes[:, 2:] - boxes[:, :2]) / 2
    return img, np.concatenate([centres - half, centres + half], axis=1).astype(np.float32)


def finder_sample(photo: Photo, rng: np.random.Generator, patch: int = 256, wide: float = 0.0, turn: float = 0.0):
    """(image patch HxWx3 uint8, heat, size, offset, mask) at the finder's working scale. A share `wide` of
    the samples shows the photo's dice at any size of WIDE_DIE_PX instead, so that the finder finds, and
    sizes, the dice of a bare photo however big they are in it; a share `turn` is turned by any angle."""
    img, boxes = photo.image, photo.boxes.copy()
    if len(boxes) and rng.random() < wide:
        die = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        scale = float(np.exp(rng.uniform(*np.log(WIDE_DIE_PX)))) / die
    else:
        scale = FINDER_LONG_SIDE / max(img.shape[:2]) * float(np.exp(rng.uniform(np.log(0.7), np.log(1.5))))
    img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    boxes = boxes * scale
    img, boxes = rotate90_flip(img, boxes, rng)
    if len(boxes) and rng.random() < turn:
        img, boxes = turn_any(img, boxes, rng)
    h, w = img.shape[:2]
    if h < patch or w < patch:
        ph, pw = max(0, patch - h), max(0, patch - w)
        # edge colour, as the reader pads: a mirror would show dice the labels do not name
        img = cv2.copyMakeBorder(img, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        h, w = img.shape[:2]
    y0, x0 = int(rng.integers(0, h - patch + 1)), int(rng.integers(0, w - patch + 1))
    img = img[y0 : y0 + patch, x0 : x0 + patch]
    boxes = boxes - [x0, y0, x0, y0]
    img = photometric(img, rng)
    return (img, *finder.targets(boxes, patch))


def face_sample(photo: Photo, rng: np.random.Generator, negative: bool):
    """(FACE_SIZE crop, class): class 0 = a crop centred where no die is, else the die's value."""
    img = photo.image
    if len(photo.boxes) == 0:
        negative = True
    sizes = (
        np.maximum(photo.boxes[:, 2] - photo.boxes[:, 0], photo.boxes[:, 3] - photo.boxes[:, 1])
        if len(photo.boxes)
        else np.float32([40])
    )
    if negative:
        side = float(rng.choice(sizes)) * rng.uniform(0.8, 1.6)
        h, w = img.shape[:2]
        for _ in range(20):
            if rng.random() < 0.5 and len(photo.boxes):  # beside a die: a half die, a gap between two
                b = photo.boxes[int(rng.integers(0, len(photo.boxes)))]
                a = rng.uniform(0, 2 * np.pi)
                r = max(b[2] - b[0], b[3] - b[1]) * rng.uniform(0.55, 1.1)
                cx, cy = (b[0] + b[2]) / 2 + r * np.cos(a), (b[1] + b[3]) / 2 + r * np.sin(a)
            else:
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            inside = (
                (photo.boxes[:, 0] <= cx)
                & (cx <= photo.boxes[:, 2])
                & (photo.boxes[:, 1] <= cy)
                & (cy <= photo.boxes[:, 3])
            ).any()
            if not inside:
                break
        label = 0
    else:
        i = int(rng.integers(0, len(photo.boxes)))
        b = photo.boxes[i]
        bw, bh = b[2] - b[0], b[3] - b[1]
        side = max(bw, bh) * FACE_CONTEXT * float(np.exp(rng.uniform(np.log(0.8), np.log(1.3))))
        cx = (b[0] + b[2]) / 2 + rng.uniform(-0.2, 0.2) * bw
        cy = (b[1] + b[3]) / 2 + rng.uniform(-0.2, 0.2) * bh
        label = int(photo.values[i])
    return augmented_crop(img, cx, cy, side, rng), label


def load_scene_examples(folder: Path) -> list[tuple[Photo, dict]]:
    """Examples from vision.lab.training.render3d, each with a patch of its frame around it (memory: the
    frames themselves are not kept): [(patch as a Photo, example in patch coordinates)]."""
    import json

    examples = json.loads((folder / "examples.json").read_text())
    out, frames = [], {}
    for e in examples:
        if e["photo"] not in frames:
            frames.clear()
            frames[e["photo"]] = cv2.imread(str(folder / e["photo"]))
        img = frames[e["photo"]]
        half = int(np.ceil(e["side"] * 1.15 * 1.5 * 0.75 + 0.1 * e["side"])) + 2
        patch = _crop_native(img, e["cx"], e["cy"], 2 * half)
        x0, y0 = int(round(e["cx"])) - half, int(round(e["cy"])) - half
        local = dict(e, cx=e["cx"] - x0, cy=e["cy"] - y0)
        out.append((Photo(patch, np.zeros((0, 4), np.float32), np.zeros(0, np.int64), e["photo"]), local))
    return out


def hard_sample(photo: Photo, example: dict, rng: np.random.Generator):
    """A crop where the reader went wrong (a phantom, label 0, or a misread die, label = true value)."""
    side = example["side"] * float(np.exp(rng.uniform(np.log(0.9), np.log(1.15))))
    cx = example["cx"] + rng.uniform(-0.08, 0.08) * side
    cy = example["cy"] + rng.uniform(-0.08, 0.08) * side
    return augmented_crop(photo.image, cx, cy, side, rng), int(example["label"])


def augmented_crop(img, cx, cy, side, rng):
    """Rotate around the centre at native resolution, then crop as at inference; flips and colours."""
    cx = float(np.clip(cx, 0, img.shape[1] - 1))
    cy = float(np.clip(cy, 0, img.shape[0] - 1))
    big = side * 1.5
    patch = face_crop(img, cx, cy, big) if big <= FACE_SIZE * 1.5 else _crop_native(img, cx, cy, big)
    m = cv2.getRotationMatrix2D((patch.shape[1] / 2, patch.shape[0] / 2), float(rng.uniform(0, 360)), 1.0)
    patch = cv2.warpAffine(patch, m, (patch.shape[1], patch.shape[0]), borderMode=cv2.BORDER_REFLECT)
    c = patch.shape[0] / 2
    crop = face_crop(patch, c, c, patch.shape[0] / 1.5)
    if rng.random() < 0.5:
        crop = crop[:, ::-1].copy()
    return photometric(crop, rng)


def _crop_native(img, cx, cy, side):
    half = int(np.ceil(side / 2))
    padded = cv2.copyMakeBorder(img, half, half, half, half, cv2.BORDER_REPLICATE)
    x, y = int(round(cx)) + half, int(round(cy)) + half
    return padded[y - half : y + half, x - half : x + half]
