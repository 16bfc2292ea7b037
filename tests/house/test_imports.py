"""The rules, the advice and the table import without OpenCV: a Python where cv2 cannot be imported loads them,
and no module of theirs even tries to import it (a try that caught the ImportError would hide a heavy start)."""

import subprocess
import sys

import pytest

from tests.support import REPO

# A meta-path finder ahead of all others: every attempt to import cv2 is noted and refused.
WITHOUT_OPENCV = """
import sys

class NoOpenCV:
    tried = []

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "cv2":
            NoOpenCV.tried.append(name)
            raise ImportError("cv2 is blocked here")
        return None

sys.meta_path.insert(0, NoOpenCV())
try:
    {code}
finally:
    if NoOpenCV.tried:
        sys.exit("tried to import " + ", ".join(NoOpenCV.tried))
"""


def without_opencv(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_OPENCV.format(code=code)], cwd=REPO, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    "module",
    [
        "appliance.games",
        "appliance.games.catalog",
        "appliance.session",
        "appliance.strategy",
        "appliance.table",
        "appliance.advice_view",
        "appliance.learning",
        "vision",
    ],
)
def test_imports_without_opencv(module):
    run = without_opencv(f"import {module}")
    assert run.returncode == 0, run.stderr


def test_the_check_fails_where_opencv_is_imported():
    run = without_opencv("import vision.reader")
    assert run.returncode != 0 and "tried to import cv2" in run.stderr


def test_the_check_fails_where_an_import_of_opencv_is_caught():
    run = without_opencv("try:\n        import cv2\n    except ImportError:\n        pass")
    assert run.returncode != 0 and "tried to import cv2" in run.stderr


def test_a_rules_test_runs_without_opencv():
    """The shared test setup (conftest.py) loads OpenCV only in the helpers that need it."""
    run = without_opencv(
        "import pytest; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', "
        "'tests/rules/test_sheet_rulings.py', 'tests/rules/test_train_wreck.py']))"
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
