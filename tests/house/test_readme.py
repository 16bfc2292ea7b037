"""The README's two commands are the ones the project really runs."""

import re

from tests.support import REPO


def readme_commands():
    return re.findall(r"```sh\n(.+?)\n```", (REPO / "README.md").read_text())


def test_readme_opens_with_two_commands():
    commands = readme_commands()
    assert len(commands) >= 2
    assert commands[0].startswith("python3 -m venv .venv") and "dicetable" in commands[0]
    assert commands[1].endswith("python -m pytest")


def test_ci_runs_exactly_the_readme_test_command():
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert readme_commands()[1] in ci


def test_ci_runs_the_tests_with_ci_set():
    """The README says CI runs the property tests with CI=true (their full number of random games,
    tests/support.py: examples): .ci/run sets it itself, before the test command."""
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert "export CI=true" in ci
    assert ci.index("export CI=true") < ci.index(readme_commands()[1])
    assert "CI=true" in (REPO / "README.md").read_text()
