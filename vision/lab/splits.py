"""The held-out split: which labeled photos the models never train on, so their figure stays honest.

Webcam sets hold runs of near-identical frames numbered in sequence, so photos are split in blocks of
five consecutive numbers: a held-out photo has no twin in training. A set whose labels carry its source's own
split (`"split": "train" | "valid" | "test"`) keeps it: its valid and test photos are held out (its training
photos may exist only as altered copies, and their originals among the others would be twins).
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

HELD_OUT_ONE_IN = 5  # 20% held out


def split_key(file_name: str) -> str:
    stem = Path(file_name).stem
    found = re.search(r"(\d+)$", stem)
    if not found:
        return stem
    return f"{stem[: found.start()]}{int(found.group(1)) // 5}"


def is_held_out(file_name: str) -> bool:
    return zlib.crc32(split_key(file_name).encode()) % HELD_OUT_ONE_IN == 0


SPLITS = {
    "all": lambda name: True,
    "train": lambda name: not is_held_out(name),
    "heldout": is_held_out,
}


def in_split(image, split: str) -> bool:
    """Whether a labeled image (vision.lab.scoring.LabeledImage) belongs to `split` of SPLITS: by its set's own split
    where the labels name one, else by its file name."""
    if split == "all" or image.split is None:
        return SPLITS[split](image.path.name)
    return (image.split != "train") == (split == "heldout")
