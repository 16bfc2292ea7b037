"""Vision's runtime and its lab kept apart: what the table imports never loads the lab, pygame or torch, and the
lab draws its dice (sans numerals included) without pygame."""

import subprocess
import sys

RUNTIME = """
import sys, vision
from pathlib import Path
root = Path(vision.__file__).parent
names = [".".join(("vision",) + p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
         for p in root.rglob("*.py") if p.relative_to(root).parts[0] != "lab"]
for name in names:
    __import__(name)
assert {"vision.reader", "vision.d10.reader", "vision.learnt.store", "vision.labels"} <= set(names), names
bad = sorted(m for m in sys.modules if m.split(".")[:2] == ["vision", "lab"] or m.split(".")[0] in ("pygame", "torch"))
print(bad)
sys.exit(1 if bad else 0)
"""

SANS_D10 = """
import dataclasses, sys
sys.modules["pygame"] = None   # any import of pygame now fails
import numpy as np
from vision.lab.render import dice_d10
look = dataclasses.replace(dice_d10.LOOKS[0], font="sans-italic")
kite = np.float32([[64, 8], [120, 70], [64, 124], [8, 70]])
texture, _ = dice_d10.kite_texture(4, look, kite, np.random.default_rng(0))
plain = dataclasses.replace(look, ink=look.body)   # numerals the colour of the body: no numeral shows
blank, _ = dice_d10.kite_texture(4, plain, kite, np.random.default_rng(0))
sys.exit(0 if np.abs(texture - blank).max() > 100 else 1)
"""


# Vision and its lab (its benches run on machines without the appliance) load nothing of the appliance but its
# base, no hardware, no pygame and no torch.
OTHERS = """
import sys, vision, vision.lab.bench
bad = sorted(m for m in sys.modules if m.split('.')[0] in ('appliance', 'hardware', 'pygame', 'torch')
             and m not in ('appliance', 'appliance.base') and not m.startswith('appliance.base.'))
print(bad)
sys.exit(1 if bad else 0)
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_the_runtime_imports_no_lab_and_neither_pygame_nor_torch():
    done = _run(RUNTIME)
    assert done.returncode == 0, done.stdout + done.stderr


def test_vision_and_its_bench_load_neither_the_appliance_nor_the_hardware():
    """Only the bottom of the house (appliance.base: errors, files) may be loaded."""
    done = _run(OTHERS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_d10_with_sans_numerals_is_drawn_without_pygame():
    done = _run(SANS_D10)
    assert done.returncode == 0, done.stdout + done.stderr
