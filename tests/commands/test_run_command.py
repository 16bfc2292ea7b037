"""`dicetable run` as the kiosk service starts it, in a process of its own: stopping, and what it refuses."""

import json
import os
import signal
import subprocess
import sys
import time
import tomllib

from tests.support import FIXTURES

THROWS = FIXTURES / "throws"


def start_run(tmp_path, settings: str, command: tuple = ("run",)) -> subprocess.Popen:
    (tmp_path / "settings.toml").write_text(settings)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(HOME=str(tmp_path), TMPDIR=str(tmp_path), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "appliance.cli",
            *command,
            "--settings",
            str(tmp_path / "settings.toml"),
            "--log",
            str(tmp_path / "games.sqlite"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def test_systemctl_stop_ends_the_table_even_without_a_screen(tmp_path):
    """systemd stops the service with SIGTERM; SDL catches it as a QUIT event, which the table must heed
    with or without a screen (else systemd waits TimeoutStopSec and kills it)."""
    run = start_run(tmp_path, f'[camera]\nsource = "replay"\nreplay_folder = "{THROWS / "misread-corrected"}"\n')
    try:
        assert "no screen here" in run.stdout.readline()  # the table is up: it says where the screens go
        time.sleep(1)
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=10) == 0
    finally:
        run.kill()


def test_a_replay_folder_that_is_not_a_recording_is_refused_at_start(tmp_path):
    run = start_run(tmp_path, f'[camera]\nsource = "replay"\nreplay_folder = "{tmp_path / "nothere"}"\n')
    out, _ = run.communicate(timeout=60)
    assert run.returncode == 2  # systemd's Restart=on-failure and the journal both see it
    assert f"dicetable run: cannot replay: {tmp_path / 'nothere'}: no labels.json" in out


def test_recording_recorded_throws_keeps_the_profile_they_were_made_with(tmp_path):
    """Without a camera `record` records the replayed throws: its folder must carry their calibration, or it
    could be neither replayed nor measured."""
    run = start_run(
        tmp_path,
        f'[camera]\nsource = "replay"\nreplay_folder = "{THROWS / "misread-corrected"}"\n',
        command=("record", str(tmp_path / "rec")),
    )
    try:
        assert "no screen here" in run.stdout.readline()
        time.sleep(2)
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=10) == 0
    finally:
        run.kill()
    labels = json.loads((tmp_path / "rec" / "labels.json").read_text())
    assert labels["calibration"] == "calibration.toml"
    assert (tmp_path / "rec" / "calibration.toml").read_bytes() == (
        THROWS / "misread-corrected" / "calibration.toml"
    ).read_bytes()
    empty = tomllib.loads((tmp_path / "rec" / "calibration.toml").read_text())["empty"]["picture"]
    assert (tmp_path / "rec" / empty).exists()


def test_the_screen_names_the_first_notes_and_how_many_more_there_are():
    """Ten wrong settings would cover the game: the screen names two and counts the rest."""
    from appliance.run_table import for_the_screen

    notes = ["no camera found", "settings a.toml: camera.fps = 500 is not allowed", "x", "y"]
    assert for_the_screen(notes[:2]) == "no camera found; settings a.toml: camera.fps = 500 is not allowed"
    assert for_the_screen(notes) == (
        "no camera found; settings a.toml: camera.fps = 500 is not allowed; and 2 more: `dicetable doctor` lists them"
    )


def test_no_command_prints_pygames_greeting():
    """pygame greets on import unless told not to: it would open every command's output and the journal."""
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    out = subprocess.run(
        [sys.executable, "-c", "import appliance.commands.run, pygame"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert "pygame" not in out.stdout + out.stderr
