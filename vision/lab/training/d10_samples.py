"""Training samples for the d10 finder and value reader.

Two sources, mixed: (1) dice drawn fresh per sample (d10_sprites.py) on random surfaces (felt, wood,
cardboard, soft and crumpled cloth), seen from above or at an angle, touching neighbours, any light;
(2) whole tray scenes rendered by vision.lab.render.training (d10 and d6), for the renderer's own
shadows, lens and trays. Then the shared photometric augmentation (hue, casts, gamma, uneven light,
blur, noise, JPEG). No flips: a mirrored numeral is not a numeral.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ... import finder
from ...d10.crops import READ_CONTEXT, read_crop
from . import d10_sprites as sprites
from . import data
from .d10_nets import D6_CLASS
from .data import Photo, photometric, random_surface


def surface(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A random surface; a third of them crumpled cloth (deep folds, strong shading), float32."""
    if rng.random() < 0.67:
        return random_surface(h, w, rng).astype(np.float32)
    level = rng.uniform(60, 220)
    tint = rng.uniform(0.85, 1.15, 3) * level
    folds = np.zeros((h, w), np.float32)
    for cells, amp in ((3, 0.35), (7, 0.2), (15, 0.08)):
        n = rng.normal(0, 1, (cells, cells)).astype(np.float32)
        folds += amp * cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
    out = np.clip(1 + rng.uniform(0.4, 1.0) * folds, 0.2, 1.8)[..., None] * tint.astype(np.float32)
    return out + rng.normal(0, 3, (h, w, 1)).astype(np.float32)


def class_of(kind: str, value: int) -> int:
    return value if kind == "d10" else D6_CLASS


def load_renders(folders: list[Path]) -> list[Photo]:
    """Rendered tray scenes in the labeled-image format; cocked dice are left out of the value labels."""
    from ...labels import load_labeled_set

    photos = []
    for folder in folders:
        for item in load_labeled_set(folder):
            image = cv2.imread(str(item.path))
            boxes = np.float32([d.box for d in item.dice]).reshape(-1, 4)
            labels = np.int64([class_of(d.kind, d.value) for d in item.dice])
            photos.append(Photo(image, boxes, labels, item.path.name))
    return photos


def _place(n: int, px: float, lo, hi, rng) -> list[np.ndarray]:
    spots = []
    for _ in range(n * 6):
        if len(spots) == n:
            break
        p = rng.uniform(lo, hi)
        if all(np.hypot(*(p - q)) > px * rng.uniform(0.8, 1.3) for q in spots):
            spots.append(p)
    return spots


def sprite_scene(pool, h: int, w: int, n: int, px_range, rng, centre=None, view=sprites.OVERHEAD):
    """A surface with n dice pasted; the first at `centre` if given. Returns (uint8 image, boxes, classes)."""
    canvas = surface(h, w, rng)
    px = float(np.exp(rng.uniform(*np.log(px_range))))
    spots = _place(n, px, [0, 0], [w, h], rng)
    if centre is not None:
        around = [
            centre + px * rng.uniform(0.8, 1.25) * np.array([np.cos(a), np.sin(a)])
            for a in rng.uniform(0, 2 * np.pi, int(rng.integers(0, 4)))
        ]
        spots = around + [np.asarray(centre, np.float64)]  # the die of interest last: on top
    boxes, classes = [], []
    for spot in spots:
        solid = pool[int(rng.integers(len(pool)))]
        sprite = sprites.draw_sprite(solid, px * rng.uniform(0.9, 1.1), rng, view)
        boxes.append(sprites.paste(canvas, sprite, spot[0], spot[1], rng))
        classes.append(class_of(sprite.kind, sprite.value))
    return np.clip(canvas, 0, 255).astype(np.uint8), np.float32(boxes).reshape(-1, 4), np.int64(classes)


# ---------------------------------------------------------------- finder


def finder_sample(pool, renders, rng, patch: int = 256):
    """(patch x patch image at the finder's scale, heat, size, offset, mask)."""
    if renders and rng.random() < 0.4:
        return data.finder_sample(renders[int(rng.integers(len(renders)))], rng, patch)
    img, boxes, _ = sprite_scene(pool, patch, patch, int(rng.integers(0, 9)), (11, 72), rng)
    return (photometric(img, rng), *finder.targets(boxes, patch))


# ---------------------------------------------------------------- value reader


def crop_around(img, box, rng, label):
    """A crop as the reader takes it at run time, with the finder's errors in centre and size."""
    bw, bh = box[2] - box[0], box[3] - box[1]
    side = max(bw, bh) * READ_CONTEXT * float(np.exp(rng.uniform(np.log(0.88), np.log(1.15))))
    cx = (box[0] + box[2]) / 2 + rng.uniform(-0.1, 0.1) * bw
    cy = (box[1] + box[3]) / 2 + rng.uniform(-0.1, 0.1) * bh
    return photometric(read_crop(img, cx, cy, side), rng), label


def negative_crop(img, boxes, rng):
    """No die under the centre: bare surface, a gap between dice, a die's rim."""
    h, w = img.shape[:2]
    sizes = (
        np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) if len(boxes) else np.float32([min(h, w) / 3])
    )
    side = float(rng.choice(sizes)) * rng.uniform(0.8, 1.5)
    for _ in range(20):
        if len(boxes) and rng.random() < 0.6:
            b = boxes[int(rng.integers(len(boxes)))]
            a, r = rng.uniform(0, 2 * np.pi), max(b[2] - b[0], b[3] - b[1]) * rng.uniform(0.6, 1.1)
            cx, cy = (b[0] + b[2]) / 2 + r * np.cos(a), (b[1] + b[3]) / 2 + r * np.sin(a)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        inside = (
            ((boxes[:, 0] <= cx) & (cx <= boxes[:, 2]) & (boxes[:, 1] <= cy) & (cy <= boxes[:, 3])).any()
            if len(boxes)
            else False
        )
        if not inside:
            break
    return photometric(read_crop(img, cx, cy, side), rng), 0


def photo_item(photo, rng):
    """From a real photo of six-sided dice: one of its dice (class "six-sided die"), seen with up to 1.3 x
    its labeled box (wood-webcam-d6 boxes cover only the top face; the finder's box holds the whole die),
    or, one time in five, a spot on it with no die."""
    if not len(photo.boxes) or rng.random() < 0.2:
        return negative_crop(photo.image, photo.boxes, rng)
    b = photo.boxes[int(rng.integers(len(photo.boxes)))]
    c, half = (b[:2] + b[2:]) / 2, (b[2:] - b[:2]) / 2 * rng.uniform(1.0, 1.3)
    return crop_around(photo.image, np.concatenate([c - half, c + half]), rng, D6_CLASS)


# ---------------------------------------------------------------- a bank of drawn dice for the reader
# Drawing a die costs ~35 ms, a training step wants 64 crops: so dice are drawn once into a bank of
# wider crops, and every epoch re-cuts them (the finder's centre and size errors) and re-colours them.

BANK_SIZE = 96
BANK_SIDE = 1.75  # a bank crop covers this many times the die's box: room for jitter


def bank_item(pool, rng, view=sprites.OVERHEAD):
    """(BANK_SIZE crop centred on a die or on no die, class, box side in bank pixels)."""
    px = float(np.exp(rng.uniform(np.log(26), np.log(75))))
    size = int(px * 3.2)
    img, boxes, classes = sprite_scene(pool, size, size, 0, (px, px * 1.001), rng, np.array([size / 2, size / 2]), view)
    if rng.random() < 0.12:
        crop, label = negative_crop(img, boxes, rng)  # already at READ_SIZE: scale up to the bank's size
        return cv2.resize(crop, (BANK_SIZE, BANK_SIZE)), 0, BANK_SIZE / BANK_SIDE
    b = boxes[-1]
    side = max(b[2] - b[0], b[3] - b[1])
    crop = read_crop(img, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, side * BANK_SIDE)
    return (
        cv2.resize(crop, (BANK_SIZE, BANK_SIZE), interpolation=cv2.INTER_AREA),
        int(classes[-1]),
        BANK_SIZE / BANK_SIDE,
    )


def from_bank(crop, label, rng):
    """Re-cut a bank crop as the reader would at run time, then re-colour it; now and then a close-up
    of part of the die instead, which is what a find of one face (not the whole die) looks like: no die."""
    box = BANK_SIZE / BANK_SIDE
    c = BANK_SIZE / 2
    if label and rng.random() < 0.1:
        a, r = rng.uniform(0, 2 * np.pi), box * rng.uniform(0.15, 0.4)
        side = box * rng.uniform(0.35, 0.65)
        return photometric(read_crop(crop, c + r * np.cos(a), c + r * np.sin(a), side), rng), 0
    return crop_around(crop, np.float32([c - box / 2, c - box / 2, c + box / 2, c + box / 2]), rng, label)


# ---------------------------------------------------------------- hard "no die" examples
# Close-up photos make the finder report one numeral (or one face) of a big die as a small die, and tray
# frames now and then a heap of touching dice as one die: the reader must call both "no die".


def closeup_item(pool, rng, px_range=(110, 200)):
    """A big die, drawn sharp, on a surface: (uint8 image, box). Numeral-sized crops of it are no-die examples."""
    px = float(rng.uniform(*px_range))
    size = int(px * 1.9)
    img, boxes, _ = sprite_scene(pool, size, size, 0, (px, px * 1.001), rng, centre=np.array([size / 2, size / 2]))
    return img, boxes[-1]


def numeral_crop(img, box, rng):
    """A sharp close-up of one numeral or a bit of one face of the die in `box`: no die."""
    side = max(box[2] - box[0], box[3] - box[1])
    a, r = rng.uniform(0, 2 * np.pi), side * rng.uniform(0, 0.3)
    cx, cy = (box[0] + box[2]) / 2 + r * np.cos(a), (box[1] + box[3]) / 2 + r * np.sin(a)
    return photometric(read_crop(img, cx, cy, side * rng.uniform(0.22, 0.6)), rng), 0


def heap_crop(img, boxes, rng):
    """A crop as the reader would take it for a find spanning two or more neighbouring dice: no die.
    None when no two dice lie close together."""
    if len(boxes) < 2:
        return None
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    i = int(rng.integers(len(boxes)))
    dist = np.hypot(*(centres - centres[i]).T)
    near = [j for j in np.argsort(dist)[1 : int(rng.integers(2, 4))] if dist[j] < 2.2 * sides[i]]
    if not near:
        return None
    group = boxes[[i, *near]]
    lo, hi = group[:, :2].min(axis=0), group[:, 2:].max(axis=0)
    side = float((hi - lo).max()) * READ_CONTEXT * rng.uniform(0.9, 1.25)
    if side < 1.6 * sides[i]:
        return None
    c = (lo + hi) / 2 + rng.uniform(-0.08, 0.08, 2) * side
    return photometric(read_crop(img, c[0], c[1], side), rng), 0
