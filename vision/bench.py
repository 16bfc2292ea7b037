"""Timings for `dicetable bench vision`: medians on one thread, on frames drawn by vision.synthetic."""
from __future__ import annotations

import statistics
import time

import cv2
import numpy as np

from . import synthetic
from .reader import DiceReader
from .rest import RestDetector


def median_ms(fn, repeats: int) -> float:
    """Median milliseconds of `fn()` over `repeats` calls, after one call to warm up."""
    fn()   # warm up (first dnn run allocates)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def run(repeats: int = 30) -> dict:
    cv2.setNumThreads(1)
    frame, _ = synthetic.six_dice_frame(1280, 960)
    reader = DiceReader()
    read_ms = median_ms(lambda: reader.read(frame), repeats)

    # a stream alternating between two small frames (dice moved), so every update does the full work
    empty = synthetic.felt(240, 320)
    small = [cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA), np.roll(cv2.resize(frame, (320, 240)), 7, axis=1)]
    detector = RestDetector(empty)
    counter = iter(range(10 ** 9))
    rest_ms = median_ms(lambda: detector.update(small[next(counter) % 2]), repeats * 10)
    from .learnt.bench import run as learnt_ms

    return {"read_ms": read_ms, "rest_ms": rest_ms, **learnt_ms(frame, reader, median_ms, repeats)}
