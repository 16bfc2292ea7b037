"""The event log: every decision of a game night, in SQLite, written before the screen shows it.

WAL with synchronous=FULL: an event that `append` returned from survives a power cut. A game's
state is never stored, only its events; the table rebuilds the state by replaying them.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,      -- JSON list of names, in turn order
    variants TEXT NOT NULL,     -- JSON object
    started TEXT NOT NULL,
    finished TEXT,              -- NULL while the game is open
    result TEXT                 -- JSON: [{"name", "total", "rank"}], or {"abandoned": true}
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    args TEXT NOT NULL          -- JSON array: the decision's arguments, in order
);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, id);
CREATE TABLE IF NOT EXISTS screen (  -- what the buttons were doing between decisions: one row
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL         -- JSON
);
"""


class LogError(RuntimeError):
    """The log file cannot be opened or written: the table shows it and keeps the game it has."""


class LogDamaged(LogError):
    """The log file is no sound SQLite database (a card that failed mid-write, a file copied over it)."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: tuple[str, ...]
    variants: dict[str, Any]
    started: str
    finished: str | None
    result: Any


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class EventLog:
    def __init__(self, path: str | Path, read_only: bool = False):
        """The log at `path`, made if missing; `read_only` (to look at the games) opens an existing one only."""
        self.path = Path(path).expanduser()
        try:
            if read_only:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
                if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
                    raise sqlite3.DatabaseError("no games table")
                _check_columns(self.db)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(self.path, isolation_level=None)  # autocommit: each append is one transaction
                _check_columns(self.db)   # before anything is written to a file that is no game log
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.executescript(SCHEMA)
            damage = self.db.execute("PRAGMA quick_check").fetchone()[0]
        except (sqlite3.OperationalError, OSError) as error:   # no room, no permission: not the file's fault
            self._close_quietly()
            raise LogError(f"cannot open the game log {self.path}: {error}") from error
        except sqlite3.DatabaseError as error:                  # not a database, or a malformed one
            damage = str(error)
        if damage != "ok":
            self._close_quietly()
            raise LogDamaged(f"the game log {self.path} is damaged ({damage})")

    def _close_quietly(self) -> None:
        if hasattr(self, "db"):
            self.db.close()

    def close(self) -> None:
        self.db.close()

    def _write(self, sql: str, params: tuple) -> int:
        try:
            return self.db.execute(sql, params).lastrowid
        except sqlite3.Error as error:
            raise LogError(f"cannot write the game log {self.path}: {error}") from error

    def start_game(self, game: str, players: list[str] | tuple[str, ...], variants: dict[str, Any]) -> int:
        return self._write("INSERT INTO games (game, players, variants, started) VALUES (?, ?, ?, ?)",
                           (game, json.dumps(list(players)), json.dumps(variants), _now()))

    def append(self, game_id: int, action: str, args: list[Any]) -> None:
        self._write("INSERT INTO events (game_id, at, action, args) VALUES (?, ?, ?, ?)",
                    (game_id, _now(), action, json.dumps(args)))

    def events(self, game_id: int) -> list[tuple[str, list[Any]]]:
        """The game's events; ValueError for a row whose args are no JSON (the table then cannot resume it)."""
        rows = self.db.execute("SELECT action, args FROM events WHERE game_id = ? ORDER BY id", (game_id,))
        try:
            return [(action, json.loads(args)) for action, args in rows]
        except RecursionError:   # JSON nested deeper than Python follows
            raise ValueError("an event's arguments are nested too deeply") from None

    def save_screen(self, state: dict[str, Any]) -> None:
        """The table's transient state (a reading under review, an open list), so a restart comes
        back to the same screen. Not a decision: it is overwritten, never replayed."""
        self._write("INSERT OR REPLACE INTO screen (id, state) VALUES (1, ?)", (json.dumps(state),))

    def load_screen(self) -> dict[str, Any]:
        """The saved screen state, or {} when there is none or its row is no JSON object (it is only a
        convenience: the game itself is in the events)."""
        row = self.db.execute("SELECT state FROM screen WHERE id = 1").fetchone()
        try:
            state = json.loads(row[0]) if row else {}
        except (TypeError, ValueError, RecursionError):
            return {}
        return state if isinstance(state, dict) else {}

    def finish(self, game_id: int, result: Any) -> None:
        self._write("UPDATE games SET finished = ?, result = ? WHERE id = ?", (_now(), json.dumps(result), game_id))

    def open_game(self) -> GameRecord | None:
        """The game that was being played when the table stopped, if any."""
        row = self.db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return _record(row) if row else None

    def history(self, limit: int = 20) -> list[GameRecord]:
        """Finished games, newest first (abandoned ones left out, and rows the card damaged)."""
        rows = self.db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NOT NULL AND result NOT LIKE '{{%' "
                               "ORDER BY id DESC LIMIT ?", (limit,))
        return [record for record in map(_record, rows) if _ranking(record.result)]


DEFAULT_LOG = Path("~/.local/share/dicetable/games.sqlite")   # the player's; the kiosk's is under its HOME


def open_log(path: str | Path) -> tuple[EventLog, str]:
    """The log at `path` and "", or, if that file is damaged, a new log there and a note saying where the
    damaged file was kept (beside it, renamed, with its journal: nothing is deleted)."""
    try:
        return EventLog(path), ""
    except LogDamaged as error:
        path = Path(path).expanduser()
        kept = path.with_name(f"{path.stem}.damaged-{datetime.now():%Y%m%d-%H%M%S}{path.suffix}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{path}{suffix}")
            if part.exists():
                part.rename(f"{kept}{suffix}")
        return EventLog(path), f"{error}: kept as {kept.name}; a new game log was started"


GAME_COLUMNS = "id, game, players, variants, started, finished, result"
COLUMNS = {"games": GAME_COLUMNS.split(", "), "events": ["id", "game_id", "at", "action", "args"],
           "screen": ["id", "state"]}


def _check_columns(db: sqlite3.Connection) -> None:
    """sqlite3.DatabaseError naming the first column this log's tables lack (a database of another program, or
    another schema): read as a damaged log, not a traceback at the first query."""
    for table, columns in COLUMNS.items():
        found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        missing = [column for column in columns if column not in found]
        if found and missing:
            raise sqlite3.DatabaseError(f"its {table} table has no column {missing[0]}: not a game log of the table")


def _record(row) -> GameRecord:
    """A games row. JSON the card damaged reads as nothing: the table then cannot resume that game and says
    so, the history leaves it out."""
    id_, game, players, variants, started, finished, result = row
    players, variants = _json(players, []), _json(variants, {})
    names = isinstance(players, list) and all(isinstance(name, str) for name in players)
    return GameRecord(id_, game, tuple(players) if names else (),
                      variants if isinstance(variants, dict) else {}, started, finished, _json(result, None))


def _json(text: str | None, default: Any) -> Any:
    try:
        return json.loads(text) if text else default
    except (TypeError, ValueError, RecursionError):
        return default


def _ranking(result: Any) -> bool:
    """Whether a finished game's result is its ranking: [{"name", "total", "rank"}, ...]."""
    return isinstance(result, list) and bool(result) and all(
        isinstance(p, dict) and {"name", "total", "rank"} <= p.keys() for p in result)

