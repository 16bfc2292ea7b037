"""Timings for `dicetable bench vision`: medians on one thread. The six-sided reader and rest detection on a frame
drawn flat (render.flat): read as a bare photo (`dicetable read`: no tray known, the finder looks at several scales)
and as the table reads it, with its tray's calibration (the dice's size known: one look); the ten-sided reader on a
rendered tray; and learnt dice, which only the table uses: adapting after a confirmed throw of six dice (features,
refit, the throw written to disk) with a full night learnt, and reading the frame as the table does with them."""

from __future__ import annotations

import statistics
import tempfile
import time
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from ..d10 import D10Reader
from ..learnt import Learnt
from ..learnt.adapter import HOW, Examples
from ..learnt.store import MOST
from ..reader import DiceReader
from ..rest import RestDetector
from ..types import TrayCalibration
from .render import dice_d10, flat, layout
from .render.frame import DieState, render_frame
from .render.scene import Scene

BENCH_SEED = 4242  # the ten-sided bench frame's scene


def median_ms(fn, repeats: int) -> float:
    """Median milliseconds of `fn()` over `repeats` calls, after one call to warm up."""
    fn()  # warm up (first dnn run allocates)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def run(repeats: int = 30) -> dict:
    cv2.setNumThreads(1)
    frame, _ = flat.six_dice_frame(1280, 960)
    reader, tray = DiceReader(), tray_of(frame)
    read_ms = median_ms(lambda: reader.read(frame), repeats)
    read_tray_ms = median_ms(lambda: reader.read(frame, tray), repeats)

    # a stream alternating between two small frames (dice moved), so every update does the full work
    empty = flat.surface(240, 320)
    small = [
        cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA),
        np.roll(cv2.resize(frame, (320, 240)), 7, axis=1),
    ]
    detector = RestDetector(empty)
    counter = iter(range(10**9))
    rest_ms = median_ms(lambda: detector.update(small[next(counter) % 2]), repeats * 10)
    learnt = learnt_ms(frame, reader, tray, repeats)
    return {"read_ms": read_ms, "read_tray_ms": read_tray_ms, "rest_ms": rest_ms, **learnt}


def tray_of(frame: np.ndarray) -> TrayCalibration:
    """The bench frame's calibration as the wizard would make it: the whole picture is the tray, its dice as drawn."""
    h, w = frame.shape[:2]
    return TrayCalibration.whole(w, h, w * flat.DIE_SHARE)


def learnt_ms(frame: np.ndarray, reader, tray: TrayCalibration, repeats: int) -> dict:
    """{"adapt_ms", "adapt_corrected_ms", "read_adapted_ms"} on `frame` (six dice) in `tray`, `reader` (a
    DiceReader): learning a throw of its dice read surely and confirmed, or all corrected (each also seen nudged,
    look.NUDGES: the dearest throw to learn), and reading it with what was learnt."""
    reading = reader.read(frame, tray)
    dice, values = list(reading.dice), [d.value for d in reading.dice]
    with tempfile.TemporaryDirectory() as folder:
        learnt = Learnt(Path(folder))
        look = learnt.look("d6")
        features = look.features(look.crops(frame, dice))
        rng = np.random.default_rng(0)  # a full store: the throw's dice seen MOST times, a little differently
        many = np.resize(np.arange(len(dice)), MOST)
        noisy = features[many] + 0.05 * rng.normal(size=(MOST, *features.shape[1:])).astype(np.float32)
        learnt.examples["d6"] = Examples(
            noisy / np.linalg.norm(noisy, axis=2, keepdims=True),
            np.array(values, np.int16)[many],
            np.full(MOST, HOW.index("sure"), np.int8),
            np.array(values, np.int16)[many],
            np.zeros((MOST, *look.crops(frame, dice[:1])[0].shape), np.uint8),
        )
        learnt.adapters["d6"].fit(learnt.examples["d6"])
        sure, corrected = (
            median_ms(lambda how=how: learnt.learn(frame, dice, values, [how] * len(dice)), repeats)
            for how in ("sure", "corrected")
        )
        read_adapted_ms = median_ms(lambda: learnt.adapt(frame, reader.read(frame, tray), "d6"), repeats)
    return {"adapt_ms": sure, "adapt_corrected_ms": corrected, "read_adapted_ms": read_adapted_ms}


@lru_cache(maxsize=2)
def six_d10_frame(width: int = 1280, height: int = 960, seed: int = BENCH_SEED) -> tuple[np.ndarray, tuple[int, ...]]:
    """A rendered tray with six flat d10s of several looks (frame, their values)."""
    rng = np.random.default_rng(seed)
    scene = Scene.random(seed, size=(width, height))
    dice, taken = [], []
    for i in range(6):
        solid = dice_d10.make_d10(dice_d10.LOOKS[i % len(dice_d10.LOOKS)], scene.die_mm, seed=i)
        value = int(rng.integers(1, 11))
        yaw = layout.yaw_for(rng)
        spot = layout.free_spot(scene, solid, taken, rng)
        taken.append(spot)
        rotation = layout.resting_rotation(solid, value, yaw)
        dice.append(DieState(solid, rotation, (spot[0], spot[1], -solid.lowest(rotation)), id=i))
    frame, labels = render_frame(scene, dice, noise_seed=seed)
    return frame, tuple(label.value for label in labels)


def read_d10_ms(repeats: int = 30) -> float:
    """Median milliseconds for D10Reader.read on the six-d10 frame (a 1280x960 frame with six d10s), one thread."""
    cv2.setNumThreads(1)
    frame, _ = six_d10_frame()
    reader = D10Reader()
    return median_ms(lambda: reader.read(frame), repeats)
