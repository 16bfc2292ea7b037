"""The event log: every decision of a game night, in SQLite, written before the screen shows it.

WAL with synchronous=FULL: an event that `append` returned from survives a power cut. A game's
state is never stored, only its events; the table rebuilds the state by replaying them. The screen
state (what the buttons were doing) is written in the same transaction as the decision it follows
(`transaction`), so that no stop can come between the two.

Every game row and event is sealed: a hash over its content and the seal before it in its game (a
chain per game); a finished game's result has its own seal. After each commit a small file beside
the log (`games.sqlite-head`) says how far the log got, so that writes SQLite itself drops (a cut or
garbled -wal) are noticed too. Opening verifies all of it; open_log keeps a damaged file aside and
starts a new log with every game and event that still verifies, and says which entries were lost.

Over 400 lines on purpose: the log's tables, its seals and its recovery from damage are one contract with the
SD card; split, each part would have to know the others' tables.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from appliance.base.errors import DiceTableError
from appliance.base.files import write_atomically

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,      -- JSON list of names, in turn order
    variants TEXT NOT NULL,     -- JSON object
    started TEXT NOT NULL,
    finished TEXT,              -- NULL while the game is open
    result TEXT,                -- JSON: [{"name", "total", "rank"}], or {"abandoned": true}
    seal TEXT,                  -- over the row's first five columns
    end_seal TEXT               -- over the seal, finished and result, once finished
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    args TEXT NOT NULL,         -- JSON array: the decision's arguments, in order
    seal TEXT                   -- over the seal before it in its game (the game's, for the first) and the row
);
CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, id);
CREATE TABLE IF NOT EXISTS screen (  -- what the buttons were doing between decisions: one row
    id INTEGER PRIMARY KEY CHECK (id = 1),
    state TEXT NOT NULL,        -- JSON
    seal TEXT
);
"""
SEALS = {"games": ("seal", "end_seal"), "events": ("seal",), "screen": ("seal",)}  # logs of older versions lack them


class LogError(DiceTableError, RuntimeError):
    """The log file cannot be opened or written: the table shows it and keeps the game it has."""


class LogDamaged(LogError):
    """The log file is no sound SQLite database (a card that failed mid-write, a file copied over it), or a
    row does not match its seal, or the last writes are missing."""


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
    return datetime.now(UTC).isoformat(timespec="seconds")


def _seal(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=repr).encode()).hexdigest()[:32]


def _text(data: bytes) -> str:
    """Text as SQLite holds it; bytes that are no UTF-8 (a damaged row) kept as they are, so its seal fails."""
    return data.decode("utf-8", "surrogateescape")


# A malformed database; UnicodeDecodeError: SQLite's message on a damaged schema quotes the damaged bytes, which
# Python's sqlite3 then fails to decode
DAMAGED = (sqlite3.DatabaseError, UnicodeDecodeError)
GAME_ROW = "id, game, players, variants, started, finished, result, seal, end_seal"
EVENT_ROW = "id, game_id, at, action, args, seal"


class EventLog:
    def __init__(self, path: str | Path, read_only: bool = False):
        """The log at `path`, made if missing (and sealed, if an older version made it); `read_only` (to look at
        the games) opens an existing one only. Raises LogDamaged for damage the seals or the head file show."""
        self.path = Path(path).expanduser()
        self.head_path = Path(f"{self.path}-head")
        self.chains: dict[int, tuple[str, int]] = {}  # game id -> (the seal its next event chains to, its events)
        self._in_transaction = False
        try:
            if read_only:
                self._scratch = tempfile.TemporaryDirectory(prefix="dicetable-log-")  # removed with the log
                self.db = _open_read_only(self.path, Path(self._scratch.name))
                if not self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
                    raise sqlite3.DatabaseError("no games table")
                _check_columns(self.db)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(self.path, isolation_level=None)  # autocommit, or one `transaction`
                self.db.text_factory = _text
                _check_columns(self.db)  # before anything is written to a file that is no game log
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.executescript(SCHEMA)
                self._add_seals()
            damage = self.db.execute("PRAGMA quick_check").fetchone()[0]
            if damage == "ok" and not read_only:
                damage = self._verify()
        except (sqlite3.OperationalError, OSError) as error:  # no room, no permission: not the file's fault
            self._close_quietly()
            raise LogError(f"cannot open the game log {self.path}: {error}") from error
        except DAMAGED as error:  # not a database, or a malformed one
            damage = str(error) if isinstance(error, sqlite3.Error) else "malformed database schema, unreadable text"
        if damage != "ok":
            self._close_quietly()
            raise LogDamaged(f"the game log {self.path} is damaged ({damage})")

    def _verify(self) -> str:
        """ "ok", or what is wrong: every row against its seal, the log against its head file."""
        kept = sound(*_read(self.db, strict=True), _read_head(self.head_path))
        self.chains = kept.chains
        return "what it holds is not what was written" if kept.lost else "ok"

    def _add_seals(self) -> None:
        """A log of an older version, without seals: its rows are sealed as they are (once, in one transaction)."""
        if "seal" in {row[1] for row in self.db.execute("PRAGMA table_info(events)")}:
            return
        with self.transaction():
            for table, columns in SEALS.items():
                for column in columns:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
            chains = {}
            for row in self.db.execute(f"SELECT {GAME_ROW} FROM games ORDER BY id").fetchall():
                chains[row[0]] = seal = _game_seal(row)
                self.db.execute(
                    "UPDATE games SET seal = ?, end_seal = ? WHERE id = ?",
                    (seal, _end_seal(seal, row[5], row[6]) if row[5] is not None else None, row[0]),
                )
            for row in self.db.execute(f"SELECT {EVENT_ROW} FROM events ORDER BY id").fetchall():
                chains[row[1]] = seal = _event_seal(chains.get(row[1], ""), row)
                self.db.execute("UPDATE events SET seal = ? WHERE id = ?", (seal, row[0]))
            for (state,) in self.db.execute("SELECT state FROM screen").fetchall():
                self.db.execute("UPDATE screen SET seal = ?", (_seal("screen", state),))

    def _close_quietly(self) -> None:
        if hasattr(self, "db"):
            self.db.close()

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """The writes inside are one: all of them are in the log, or none (whatever stops the table between
        them). A LogError for a write that failed; nothing of the transaction is then written."""
        if self._in_transaction:  # part of the one around it
            yield
            return
        self._in_transaction = True
        try:
            self.db.execute("BEGIN IMMEDIATE")
            yield
            self.db.execute("COMMIT")
        except BaseException as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise LogError(f"cannot write the game log {self.path}: {error}") from error
            raise
        finally:
            self._in_transaction = False
        self._committed()

    @property
    def in_transaction(self) -> bool:
        return self._in_transaction

    def _committed(self) -> None:
        """After each commit: the head file says how far the log got (written whole, then renamed over the old
        one). A head that cannot be written is only a check the next start does without."""
        head = json.dumps(_head(self.db)).encode("ascii")
        with suppress(OSError):
            write_atomically(self.head_path, head, mode=0o600)

    def _write(self, sql: str, params: tuple) -> int:
        try:
            with self.transaction():
                return self.db.execute(sql, params).lastrowid
        except sqlite3.Error as error:
            raise LogError(f"cannot write the game log {self.path}: {error}") from error

    def start_game(self, game: str, players: list[str] | tuple[str, ...], variants: dict[str, Any]) -> int:
        with self.transaction():
            row = (game, json.dumps(list(players)), json.dumps(variants), _now())
            game_id = self._write("INSERT INTO games (game, players, variants, started) VALUES (?, ?, ?, ?)", row)
            seal = _game_seal((game_id, *row))
            self._write("UPDATE games SET seal = ? WHERE id = ?", (seal, game_id))
        self.chains[game_id] = (seal, 0)
        return game_id

    def append(self, game_id: int, action: str, args: list[Any]) -> None:
        before, count = self.chains[game_id]
        with self.transaction():
            row = (game_id, _now(), action, json.dumps(args))
            event_id = self._write("INSERT INTO events (game_id, at, action, args) VALUES (?, ?, ?, ?)", row)
            seal = _event_seal(before, (event_id, *row))
            self._write("UPDATE events SET seal = ? WHERE id = ?", (seal, event_id))
        self.chains[game_id] = (seal, count + 1)

    def events(self, game_id: int) -> list[tuple[str, list[Any]]]:
        """The game's events; ValueError for a row whose args are no JSON (the table then cannot resume it)."""
        rows = self.db.execute("SELECT action, args FROM events WHERE game_id = ? ORDER BY id", (game_id,))
        try:
            return [(action, json.loads(args)) for action, args in rows]
        except RecursionError:  # JSON nested deeper than Python follows
            raise ValueError("an event's arguments are nested too deeply") from None

    def save_screen(self, state: dict[str, Any]) -> None:
        """The table's transient state (a reading under review, an open list), so a restart comes
        back to the same screen. Not a decision: it is overwritten, never replayed."""
        text = json.dumps(state)
        self._write("INSERT OR REPLACE INTO screen (id, state, seal) VALUES (1, ?, ?)", (text, _seal("screen", text)))

    def load_screen(self) -> dict[str, Any]:
        """The saved screen state, or {} when there is none, or its row is no JSON object or does not match its
        seal (it is only a convenience: the game itself is in the events)."""
        row = self.db.execute("SELECT state, seal FROM screen WHERE id = 1").fetchone()
        if not row or row[1] != _seal("screen", row[0]):
            return {}
        try:
            state = json.loads(row[0])
        except (TypeError, ValueError, RecursionError):
            return {}
        return state if isinstance(state, dict) else {}

    def finish(self, game_id: int, result: Any) -> None:
        finished, text = _now(), json.dumps(result)
        seal = self.db.execute("SELECT seal FROM games WHERE id = ?", (game_id,)).fetchone()
        self._write(
            "UPDATE games SET finished = ?, result = ?, end_seal = ? WHERE id = ?",
            (finished, text, _end_seal(seal[0] if seal else None, finished, text), game_id),
        )

    def open_game(self) -> GameRecord | None:
        """The game that was being played when the table stopped, if any."""
        row = self.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return _record(row) if row else None

    def history(self, limit: int = 20) -> list[GameRecord]:
        """Finished games, newest first (abandoned ones left out, and rows the card damaged)."""
        rows = self.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NOT NULL AND result NOT LIKE '{{%' "
            "ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        return [record for record in map(_record, rows) if _ranking(record.result)]

    def restore(self, kept: Kept) -> None:
        """What `sound` kept of a damaged log, with its ids, into this new one."""
        with self.transaction():
            self.db.executemany(f"INSERT INTO games ({GAME_ROW}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", kept.games)
            self.db.executemany(f"INSERT INTO events ({EVENT_ROW}) VALUES (?, ?, ?, ?, ?, ?)", kept.events)
            self.db.executemany("INSERT INTO screen (id, state, seal) VALUES (1, ?, ?)", kept.screen)
        self.chains = kept.chains


class RefusingLog(EventLog):
    """Stands in for a log that cannot be opened (no permission, no room): the table starts and shows why,
    and no game starts, since none could be kept."""

    def __init__(self, error: LogError):
        super().__init__(":memory:")
        self.refusal = error

    @contextmanager
    def transaction(self) -> Iterator[None]:
        raise self.refusal
        yield


def _open_read_only(path: Path, scratch: Path) -> sqlite3.Connection:
    """The log opened to look only. In a folder closed to writing SQLite cannot make the -shm a WAL log is read
    with, and would read the file without its -wal: then a copy of both in `scratch` is read."""
    if not os.access(path.parent, os.W_OK) and Path(f"{path}-wal").is_file():
        for suffix in ("", "-wal"):
            shutil.copyfile(f"{path}{suffix}", scratch / f"games.sqlite{suffix}")
        path = scratch / "games.sqlite"
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    db.text_factory = _text
    return db


def _game_seal(row: tuple) -> str:
    return _seal("game", *row[:5])


def _end_seal(seal: str | None, finished: Any, result: Any) -> str:
    return _seal("end", seal, finished, result)


def _event_seal(before: str, row: tuple) -> str:
    return _seal(before, *row[2:5])


def _head(db: sqlite3.Connection) -> dict[str, int]:
    """How far the log got: its newest game and event, how many games are finished, and the newest event's game
    with its number of events."""
    games, events, finished = db.execute(
        "SELECT (SELECT max(id) FROM games), (SELECT max(id) FROM events), "
        "(SELECT count(*) FROM games WHERE finished IS NOT NULL)"
    ).fetchone()
    last = db.execute("SELECT game_id FROM events ORDER BY id DESC LIMIT 1").fetchone()
    entries = db.execute("SELECT count(*) FROM events WHERE game_id = ?", last).fetchone()[0] if last else 0
    return {
        "games": games or 0,
        "events": events or 0,
        "finished": finished,
        "game": last[0] if last else 0,
        "entries": entries,
    }


def _read_head(path: Path) -> dict[str, int] | None:
    """The head file, or None when there is none or it cannot be read (a log of an older version, a card that
    damaged it): then only the seals are checked."""
    try:
        head = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError):
        return None
    keys = ("games", "events", "finished", "game", "entries")
    if not isinstance(head, dict) or not all(type(head.get(key)) is int for key in keys):
        return None
    return head


class Kept(NamedTuple):
    """What of a log matches its seals, and what is lost, said for the players."""

    games: list[tuple]  # rows as GAME_ROW reads them
    events: list[tuple]  # rows as EVENT_ROW reads them: each game's up to its first that does not match
    screen: list[tuple]  # the screen state's row (state, seal), if it matches
    lost: list[str]
    chains: dict[int, tuple[str, int]]  # each kept game's last seal and number of events


def sound(games: list[tuple], events: list[tuple], screen: list[tuple], head: dict | None) -> Kept:
    """The rows of a log checked against their seals, and (`head`: its head file) the writes it lost at the end."""
    from appliance.games.catalog import GAME_NAMES

    kept_games, names, chains, lost = [], {}, {}, []
    for row in games:
        if row[7] != _game_seal(row):
            lost.append(f"game {row[0]}: its row is damaged, so all its entries")
            continue
        players = _json(row[2], [])
        names[row[0]] = (
            f"{GAME_NAMES.get(row[1], row[1])} of "
            f"{', '.join(map(str, players)) if isinstance(players, list) else '?'} (game {row[0]})"
        )
        if (row[5] is not None or row[8] is not None) and row[8] != _end_seal(row[7], row[5], row[6]):
            lost.append(f"{names[row[0]]}: its end and result (the game is open again)")
            row = (*row[:5], None, None, row[7], None)
        kept_games.append(tuple(row))
        chains[row[0]] = (row[7], 0)
    by_game: dict[int, list[tuple]] = {}
    for row in events:
        by_game.setdefault(row[1], []).append(row)
    kept_events = []
    for game_id, rows in by_game.items():
        if game_id not in chains:
            if game_id in names or not any(said.startswith(f"game {game_id}:") for said in lost):
                lost.append(f"game {game_id}: {len(rows)} entries of a game whose row is missing")
            continue
        seal, n = chains[game_id]
        for row in rows:
            if row[5] != _event_seal(seal, row):
                lost.append(f"{names[game_id]}: {_entries(n + 1, len(rows))} of {len(rows)}")
                break
            seal, n = row[5], n + 1
            kept_events.append(tuple(row))
        chains[game_id] = (seal, n)
    sealed = [row for row in screen if row[1] == _seal("screen", row[0])]
    if sealed != screen:  # a restart needs it: where the dice lay, a reading being checked
        lost.append("what the screen showed (where the dice lay, a reading being checked)")
    lost += _lost_at_the_end(head, games, events, names) if head else []
    return Kept(kept_games, kept_events, sealed, lost, chains)


def _lost_at_the_end(head: dict, games: list[tuple], events: list[tuple], names: dict[int, str]) -> list[str]:
    """What the head file says was written and the log no longer holds: its newest writes, dropped whole (a cut
    or garbled -wal)."""
    lost = []
    newest = max((row[0] for row in games), default=0)
    if head["games"] > newest:
        lost.append(
            f"game {newest + 1}"
            + (f" to {head['games']}" if head["games"] > newest + 1 else "")
            + ": started, then lost with everything in it"
        )
    have = sum(1 for row in events if row[1] == head["game"])
    if head["game"] > newest:
        pass  # its game is lost whole, said above
    elif head["entries"] > have:
        lost.append(
            f"{names.get(head['game'], 'game ' + str(head['game']))}: {_entries(have + 1, head['entries'])}, the newest"
        )
    elif head["events"] > max((row[0] for row in events), default=0):
        lost.append(f"the newest {head['events'] - max((row[0] for row in events), default=0)} entries")
    finished = sum(row[5] is not None for row in games)
    if head["finished"] > finished:
        lost.append(f"the end of {head['finished'] - finished} finished game(s), which are open again")
    return lost


def _entries(first: int, last: int) -> str:
    return f"entry {first}" if first == last else f"entries {first} to {last}"


DEFAULT_LOG = Path("~/.local/share/dicetable/games.sqlite")  # the player's; the kiosk's is under its HOME
PARTS = ("", "-wal", "-shm", "-head")  # the log's files: a damaged log is kept with all of them


def open_log(path: str | Path) -> tuple[EventLog, str]:
    """The log at `path` and "", or, if that file is damaged, a new log there with every game and event of it
    that still verifies, and a note saying which games and entries were lost and where the damaged file was
    kept (beside it, renamed, with its journal and head: nothing is deleted)."""
    try:
        return EventLog(path), ""
    except LogDamaged as error:
        path = Path(path).expanduser()
        kept = path.with_name(f"{path.stem}.damaged-{datetime.now():%Y%m%d-%H%M%S}{path.suffix}")
        try:
            for suffix in PARTS:
                part = Path(f"{path}{suffix}")
                if part.exists():
                    part.rename(f"{kept}{suffix}")
        except OSError as failed:  # a folder closed to writing: said, as a log that cannot be opened
            raise LogError(f"{error}, and it cannot be kept aside ({failed.strerror})") from failed
        rescued = rescue(kept)
        log = EventLog(path)
        log.restore(rescued)
        lost = "; ".join(rescued.lost) or "no game and no entry (the damage was outside them)"
        if not rescued.games:
            return (
                log,
                f"game log damaged, nothing of it could be read: a new log was started, the damaged one "
                f"is kept as {kept.name} ({error})",
            )
        return (
            log,
            f"game log damaged, lost: {lost}. The rest is replayed in a new log; the damaged one is kept "
            f"as {kept.name} ({error})",
        )  # what was lost first: the screen shows the first lines


def rescue(path: Path) -> Kept:
    """What can be read of the damaged log at `path` and matches its seals. Read from a copy (SQLite would mend
    the kept file while reading it), row by row where its pages fail."""
    with tempfile.TemporaryDirectory(prefix="dicetable-rescue-") as scratch:
        copy = Path(scratch) / "games.sqlite"
        for suffix in ("", "-wal"):
            if Path(f"{path}{suffix}").is_file():
                shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
        head = _read_head(Path(f"{path}-head"))
        db = sqlite3.connect(copy)
        db.text_factory = _text
        try:
            return sound(*_read(db, strict=False, head=head or {}), head)
        finally:
            db.close()


def _read(db: sqlite3.Connection, strict: bool, head: dict | None = None) -> tuple[list, list, list]:
    """The log's games, events and screen rows. `strict`: any error raises; else what can be read (a log
    without seals, of an older version, reads as nothing: its rows cannot be told from damaged ones)."""
    tables = (("games", GAME_ROW), ("events", EVENT_ROW), ("screen", "state, seal"))
    if strict:
        return tuple(db.execute(f"SELECT {columns} FROM {table} ORDER BY id").fetchall() for table, columns in tables)
    return tuple(_rows(db, table, columns, (head or {}).get(table, 1)) for table, columns in tables)


def _rows(db: sqlite3.Connection, table: str, columns: str, newest: int) -> list[tuple]:
    """A table's rows in id order: all at once, or where its pages fail, one id at a time up to the newest the
    head file or the table names."""
    try:
        return db.execute(f"SELECT {columns} FROM {table} ORDER BY id").fetchall()
    except DAMAGED:
        pass
    for query in (f"SELECT max(id) FROM {table}", f"SELECT seq FROM sqlite_sequence WHERE name = '{table}'"):
        try:
            newest = max(newest, (db.execute(query).fetchone() or [0])[0] or 0)
        except (*DAMAGED, TypeError):  # TypeError: a counter the card turned into text
            pass
    rows = []
    for id_ in range(1, min(newest, 1_000_000) + 1):
        try:
            rows += db.execute(f"SELECT {columns} FROM {table} WHERE id = ?", (id_,)).fetchall()
        except DAMAGED:
            continue
    return rows


GAME_COLUMNS = "id, game, players, variants, started, finished, result"
COLUMNS = {
    "games": GAME_COLUMNS.split(", "),
    "events": ["id", "game_id", "at", "action", "args"],
    "screen": ["id", "state"],
}


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
    return GameRecord(
        id_,
        game,
        tuple(players) if names else (),
        variants if isinstance(variants, dict) else {},
        started,
        finished,
        _json(result, None),
    )


def _json(text: str | None, default: Any) -> Any:
    try:
        return json.loads(text) if text else default
    except (TypeError, ValueError, RecursionError):
        return default


def _ranking(result: Any) -> bool:
    """Whether a finished game's result is its ranking: [{"name", "total", "rank"}, ...]."""
    return (
        isinstance(result, list)
        and bool(result)
        and all(isinstance(p, dict) and {"name", "total", "rank"} <= p.keys() for p in result)
    )
