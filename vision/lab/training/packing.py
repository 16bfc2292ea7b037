"""Labeled photos in one file, to train or measure on a machine that does not hold ../shared/datasets (a lent GPU).

    python -m vision.lab.training.cross_source pack --datasets ../shared/datasets --out /tmp/xs/pack.npz
    python -m vision.lab.training.train faces --pack /tmp/xs/pack.npz ...

`pack` places the unboxed die of a one-die crop with the packaged finder (data.lone_die_box) and shrinks photos
whose median die is bigger than `die_px` (the reader sees 40 px crops), stored as JPEG or WebP. Each photo keeps
its scale, so that examples found on the full-size photo (vision.lab.training.mine) still point at their dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ...reader import DiceReader
from . import data

PACK_DIE_PX = 40.0  # the measure's default: a packed photo's median die is at most this many pixels
PACK_QUALITY = 65  # the measure's default JPEG quality
CODECS = {".jpg": cv2.IMWRITE_JPEG_QUALITY, ".webp": cv2.IMWRITE_WEBP_QUALITY}  # WebP: about 40% smaller


@dataclass
class Packed:
    photo: data.Photo
    held_out: bool
    scale: float = 1.0  # packed pixels per pixel of the photo in its set

    @property
    def source(self) -> str:
        return self.photo.source


def pack(
    datasets: Path,
    sets: list[str],
    out: Path,
    die_px: float = PACK_DIE_PX,
    quality: int = PACK_QUALITY,
    codec: str = ".jpg",
    splits: tuple[str, ...] = ("train", "heldout"),
) -> int:
    """The sets' photos in `splits` into `out` (.npz), encoded by `codec` (CODECS) at `quality`; returns how many."""
    place = data.lone_die_box(DiceReader())
    packed = [Packed(p, split == "heldout") for split in splits for p in data.load_photos(datasets, sets, split, place)]
    save(packed, out, die_px, quality, codec)
    return len(packed)


def save(
    packed: list[Packed], out: Path, die_px: float = PACK_DIE_PX, quality: int = PACK_QUALITY, codec: str = ".jpg"
) -> None:
    packed = [shrunk(k, die_px) for k in packed]
    blobs = [cv2.imencode(codec, k.photo.image, [CODECS[codec], quality])[1] for k in packed]
    np.savez(
        out,
        jpeg=np.concatenate(blobs),
        ends=np.cumsum([len(b) for b in blobs]),
        boxes=np.concatenate([k.photo.boxes for k in packed]),
        values=np.concatenate([k.photo.values for k in packed]),
        counts=np.int64([len(k.photo.boxes) for k in packed]),
        names=np.array([k.photo.name for k in packed]),
        augmented=np.bool_([k.photo.augmented for k in packed]),
        held_out=np.bool_([k.held_out for k in packed]),
        scales=np.float64([k.scale for k in packed]),
    )


def shrunk(packed: Packed, die_px: float) -> Packed:
    """The photo scaled down so that its median die is at most `die_px` (never up)."""
    photo = packed.photo
    if not len(photo.boxes):
        return packed
    die = float(np.median(np.maximum(photo.boxes[:, 2] - photo.boxes[:, 0], photo.boxes[:, 3] - photo.boxes[:, 1])))
    scale = min(1.0, die_px / die)
    if scale == 1.0:
        return packed
    image = cv2.resize(photo.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = data.Photo(image, photo.boxes * scale, photo.values, photo.name, photo.augmented)
    return Packed(small, packed.held_out, packed.scale * scale)


def unpack(path: Path) -> list[Packed]:
    z = np.load(path)
    starts = np.concatenate([[0], z["ends"][:-1]])
    box_ends = np.cumsum(z["counts"])
    scales = z["scales"] if "scales" in z else np.ones(len(starts))  # packs from before scales were kept
    out = []
    for k, (a, b) in enumerate(zip(starts, z["ends"])):
        image = cv2.imdecode(z["jpeg"][a:b], cv2.IMREAD_COLOR)
        dice = slice(box_ends[k] - z["counts"][k], box_ends[k])
        photo = data.Photo(image, z["boxes"][dice], z["values"][dice], str(z["names"][k]), bool(z["augmented"][k]))
        out.append(Packed(photo, bool(z["held_out"][k]), float(scales[k])))
    return out


def rescaled(examples: list[dict], packed: list[Packed]) -> list[dict]:
    """Examples mined on the sets' photos (photo, cx, cy, side), moved onto the packed photos; others dropped."""
    scale = {k.photo.name: k.scale for k in packed}
    return [
        dict(e, cx=e["cx"] * s, cy=e["cy"] * s, side=e["side"] * s)
        for e in examples
        if (s := scale.get(e["photo"])) is not None
    ]
