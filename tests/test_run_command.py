"""`dicetable run` as the kiosk service starts it, in a process of its own: stopping, and what it refuses."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

THROWS = Path(__file__).parent / "fixtures" / "throws"


def start_run(tmp_path, settings: str) -> subprocess.Popen:
    (tmp_path / "settings.toml").write_text(settings)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(HOME=str(tmp_path), TMPDIR=str(tmp_path), PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "appliance.cli", "run", "--settings", str(tmp_path / "settings.toml"),
                             "--log", str(tmp_path / "games.sqlite")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)


def test_systemctl_stop_ends_the_table_even_without_a_screen(tmp_path):
    """systemd stops the service with SIGTERM; SDL catches it as a QUIT event, which the table must heed
    with or without a screen (else systemd waits TimeoutStopSec and kills it)."""
    run = start_run(tmp_path, f'[camera]\nsource = "replay"\nreplay_folder = "{THROWS / "misread-corrected"}"\n')
    try:
        assert "no screen here" in run.stdout.readline()   # the table is up: it says where the screens go
        time.sleep(1)
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=10) == 0
    finally:
        run.kill()


def test_a_replay_folder_that_is_not_a_recording_is_refused_at_start(tmp_path):
    run = start_run(tmp_path, f'[camera]\nsource = "replay"\nreplay_folder = "{tmp_path / "nothere"}"\n')
    out, _ = run.communicate(timeout=60)
    assert run.returncode == 2   # systemd's Restart=on-failure and the journal both see it
    assert f"dicetable run: cannot replay: {tmp_path / 'nothere'}: no labels.json" in out
