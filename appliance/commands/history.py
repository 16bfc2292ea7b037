"""`dicetable history`: the finished games kept in the log."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from appliance.commands import LOG_HELP, user_path

HELP = "List the finished games: date, game, players and scores."
MOST_GAMES = 1_000_000
KIOSK_HOME = Path("/var/lib/dicetable")  # the service user's HOME (systemd/dicetable.service): its log lives below


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log", type=user_path, metavar="FILE", help=LOG_HELP)
    parser.add_argument("--last", type=_count, default=20, metavar="N", help="how many games, newest first")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from appliance.event_log import DEFAULT_LOG, EventLog, LogError

    path = args.log or DEFAULT_LOG.expanduser()
    try:
        found = path.is_file()
    except OSError as error:  # a folder on the way that cannot be entered
        print(f"dicetable history: cannot look at {path} ({error.strerror})", file=sys.stderr)
        return 1
    if not found:  # only look: a typo must not leave folders and an empty log behind
        kiosk = (
            ""
            if args.log
            else (
                " (the default: this user's games). "
                "The kiosk service keeps its games in its own home: sudo -u dicetable "
                f"dicetable history --log {KIOSK_HOME / DEFAULT_LOG.relative_to('~')}"
            )
        )
        print(f"dicetable history: no game log at {path}{kiosk}", file=sys.stderr)
        return 1
    try:
        games = EventLog(path, read_only=True).history(args.last)
    except LogError as error:  # the table sets a damaged log aside when it starts; this only reads
        print(f"dicetable history: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([{"date": g.finished, "game": g.game, "players": g.result} for g in games]))
        return 0
    if not games:
        print("no finished games yet")
    for g in games:
        scores = ", ".join(f"{p['rank']}. {p['name']} {p['total']}" for p in g.result)
        print(f"{_local(g.finished)}  {g.game:<12} {scores}")
    return 0


def _local(stamp: str) -> str:
    """The log's UTC time as this machine's local time, to the minute."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        return str(stamp)[:16]


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MOST_GAMES:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of games: give 1 to {MOST_GAMES}, such as 20")
    return value
