"""Timings of learnt dice for `dicetable bench vision`: adapting after a confirmed throw of six dice (features,
refit, the throw written to disk) with a full night learnt, and reading a frame with the adapted reader."""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from . import Learnt
from .adapter import HOW, Examples
from .store import MOST


def run(frame: np.ndarray, reader, median_ms, repeats: int) -> dict:
    """{"adapt_ms", "read_adapted_ms"} on `frame` (six dice), `reader` (a DiceReader), `median_ms(fn, repeats)`."""
    reading = reader.read(frame)
    dice, values = list(reading.dice), [d.value for d in reading.dice]
    with tempfile.TemporaryDirectory() as folder:
        learnt = Learnt(Path(folder))
        look = learnt.look("d6")
        features, _ = look.see(look.crops(frame, dice))
        rng = np.random.default_rng(0)   # a full store: the throw's dice seen MOST times, a little differently
        many = np.resize(np.arange(len(dice)), MOST)
        noisy = features[many] + 0.05 * rng.normal(size=(MOST, features.shape[1])).astype(np.float32)
        learnt.examples["d6"] = Examples(noisy / np.linalg.norm(noisy, axis=1, keepdims=True),
                                         np.array(values, np.int16)[many], np.full(MOST, HOW.index("sure"), np.int8),
                                         np.array(values, np.int16)[many],
                                         np.zeros((MOST, *look.crops(frame, dice[:1])[0].shape), np.uint8))
        learnt.adapters["d6"].fit(learnt.examples["d6"])
        adapt_ms = median_ms(lambda: learnt.learn(frame, dice, values, ["sure"] * len(dice)), repeats)
        read_adapted_ms = median_ms(lambda: learnt.adapt(frame, reader.read(frame)), repeats)
    return {"adapt_ms": adapt_ms, "read_adapted_ms": read_adapted_ms}
