"""Shared test setup: headless pygame, single-threaded OpenCV, and where the shared data lives."""
import os
from collections import Counter
from pathlib import Path

import cv2
import pytest

from vision import match

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATASETS = SHARED / "datasets"
RULES = SHARED / "rules"


def dataset(name: str) -> Path:
    """The labeled photo set `name` from ../shared/datasets, or skip the test saying why."""
    path = DATASETS / name
    if not (path / "labels.json").exists():
        pytest.skip(f"dataset {name!r} not found at {path} (it lives in ../shared/datasets beside the repository)")
    return path


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


def kinds_reported(reader, images) -> Counter:
    """How a dice reader reports the labeled dice it finds: "d6", "d10", and "d6?"/"d10?" when it is unsure."""
    return Counter(det.kind + "?" * det.uncertain for image in images
                   for det, _ in match(reader.read(cv2.imread(str(image.path))).dice, image.dice)[0])
