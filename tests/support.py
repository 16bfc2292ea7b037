"""Helpers for every group of tests: where the shared data lives, how many random examples to play."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
SHARED = REPO.parent / "shared"
DATASETS = SHARED / "datasets"
RULES = SHARED / "rules"


def dataset(name: str) -> Path:
    """The labeled photo set `name` from ../shared/datasets, or skip the test saying why."""
    path = DATASETS / name
    if not (path / "labels.json").exists():
        pytest.skip(f"dataset {name!r} not found at {path} (it lives in ../shared/datasets beside the repository)")
    return path


def photos(name: str, split: str = "all") -> list:
    """The labeled photos of set `name` in the models' `split` ("all", "train", "heldout":
    vision.lab.splits.in_split)."""
    from vision.lab.splits import in_split
    from vision.labels import load_labeled_set

    return [image for image in load_labeled_set(dataset(name)) if in_split(image, split)]


def examples(local: int, ci: int) -> int:
    """How many random examples a property test plays: the full count in CI (CI=true), fewer on a
    developer's machine, so the suite stays quick to run while working."""
    return ci if os.environ.get("CI", "").lower() in ("1", "true", "yes") else local


def holds(expected, actual) -> bool:
    """Everything `expected` says is in `actual`, which may say more (a final sheet's bonuses, say)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and holds(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(map(holds, expected, actual))
    return expected == actual


def too_many_pixels() -> bytes:
    """A PNG whose header claims 60000x60000 pixels (a damaged size field): OpenCV raises instead of returning None."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(b"\0" * 1000))
        + chunk(b"IEND", b"")
    )
