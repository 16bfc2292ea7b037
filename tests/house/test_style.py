"""The code keeps one style: ruff's linter and formatter (pyproject.toml, [tool.ruff]) find nothing to change.

Before a commit: `.venv/bin/ruff check --fix . && .venv/bin/ruff format .`"""

import subprocess
import sys

import pytest

from tests.support import REPO


def ruff(*args):
    done = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=REPO, capture_output=True, text=True)
    if "No module named ruff" in done.stderr:
        pytest.fail("ruff is not installed: it comes with the dev extra (pip install -e '.[dev]')")
    return done


def test_the_linter_finds_nothing():
    done = ruff("check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr


def test_the_formatter_changes_nothing():
    done = ruff("format", "--check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr


def test_the_linter_would_fail_on_a_long_line(tmp_path):
    """The check can fail: the project's settings refuse a line over 120 characters."""
    (tmp_path / "long.py").write_text("x = " + "1 + " * 40 + "1\n")
    done = ruff("check", "--no-cache", "--config", str(REPO / "pyproject.toml"), str(tmp_path / "long.py"))
    assert done.returncode == 1 and "E501" in done.stdout
