"""Folders this user cannot enter, named to the commands: a clear error, never a traceback. The tests may run as
root, whom no folder is closed to, so the folder's refusal is played by os.stat, os.mkdir and os.access."""

import os

import pytest

from appliance.cli import main
from tests.support import FIXTURES

THROWS = FIXTURES / "throws"


@pytest.fixture
def locked(tmp_path, monkeypatch):
    """A folder whose contents cannot be looked at or made (mode 000 for another user than root)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    inside = str(folder) + os.sep
    real_stat, real_mkdir, real_access = os.stat, os.mkdir, os.access

    def refused(path) -> bool:
        return os.fspath(path).startswith(inside)

    def stat(path, *args, **kwargs):
        if refused(path):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_stat(path, *args, **kwargs)

    def mkdir(path, *args, **kwargs):
        if refused(path) or os.fspath(path) == str(folder):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setattr(os, "mkdir", mkdir)
    monkeypatch.setattr(
        os,
        "access",
        lambda path, mode, **kw: (
            not (refused(path) or os.fspath(path) == str(folder)) and real_access(path, mode, **kw)
        ),
    )
    return folder


@pytest.mark.parametrize(
    "command",
    [
        ["demo", "--fast", "--headless", "{}/screens"],
        ["replay", str(THROWS / "misread-corrected"), "--screens", "{}/screens"],
        ["calibrate", "--source", "synthetic", "--screenshots", "{}/shots"],
        ["record", "{}/game"],
        ["read", "{}/photo.jpg"],
        ["history", "--log", "{}/games.sqlite"],
    ],
)
def test_a_folder_that_cannot_be_entered_is_said_not_a_traceback(locked, command, capsys):
    args = [part.format(locked) for part in command]
    try:
        code = main(args)
    except SystemExit as exit:  # argparse: a usage error
        code = exit.code
    assert code not in (0, None)
    said = capsys.readouterr()
    said = said.out + said.err  # `read` lists each photo's problem with the others, on stdout
    assert str(locked) in said and "Permission denied" in said, said


def test_the_folder_itself_closed_is_said_too(locked, capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--fast", "--headless", str(locked)])
    assert f"cannot make the folder {locked} (Permission denied)" in capsys.readouterr().err
