"""The host's part of the table's menu: the night's games so far, and shutting the Pi down safely."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta

from appliance.games.catalog import GAME_NAMES

NIGHT_HOURS = 12  # a game night: the games finished in the last this many hours


def night_games(log, now: datetime | None = None) -> list[str]:
    """The games finished tonight, newest first: "21:14 Dice Poker: Ann 208, Bob 170"."""
    since = (now or datetime.now(UTC)) - timedelta(hours=NIGHT_HOURS)
    games = []
    for record in log.history(50):
        try:
            finished = datetime.fromisoformat(record.finished)
        except (TypeError, ValueError):  # a row the card damaged: left out
            continue
        if finished < since:
            break
        scores = ", ".join(f"{p['name']} {p['total']}" for p in record.result)
        games.append(f"{finished.astimezone():%H:%M} {GAME_NAMES.get(record.game, record.game)}: {scores}")
    return games


def power_off(command: tuple[str, ...] = ("systemctl", "poweroff")) -> str:
    """Ask systemd to shut the Pi down ("" once asked, else why not): the games are in the log already, and
    systemd stops the table first. The kiosk's user may do so by install.sh's polkit rule."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"cannot shut down ({error}): switch off at the socket once the screen is dark, or use `sudo poweroff`"
    if done.returncode:
        said = (done.stderr or done.stdout).strip().splitlines()
        return (
            f"cannot shut down ({said[-1] if said else f'exit status {done.returncode}'}): run install.sh again "
            f"(it allows the table to), or use `sudo poweroff`"
        )
    return ""
