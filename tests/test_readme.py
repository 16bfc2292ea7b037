"""The README's two commands are the ones the project really runs."""
import re

from conftest import REPO


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
