"""Vision's runtime and its lab kept apart: what the table imports never loads the lab, pygame or torch."""
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


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_the_runtime_imports_no_lab_and_neither_pygame_nor_torch():
    done = _run(RUNTIME)
    assert done.returncode == 0, done.stdout + done.stderr

