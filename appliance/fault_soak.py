"""Faults injected as a demanding user would, and what the next start makes of them (`dicetable bench faults`).

Kills: a recorded game played through the table (the recorded frames, rest detection, the packaged reader and
the scripted presses), stopped right after one of its log writes or between two frames, then started again on
the same log with the frames and presses that came after; its final sheet must be the uninterrupted one.
Damage: a log copied as a power cut leaves it (a finished game, then an open one, the last part still in the
-wal), one fault put in (cut, zeroed page, random bytes in the file or in its -wal, a value of a logged throw
changed), then started as the table starts; every game and event that is not as it was must be said on screen,
and no start may crash (the first, which sets the damaged file aside, nor the one after).

Over 400 lines on purpose: one bench, its kills, its damages and what it checks after each read together.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from appliance import assemble
from appliance.base.images import read_picture
from appliance.event_log import PARTS, EventLog, open_log
from appliance.final_sheet import final_sheet
from appliance.games.catalog import DICE_FACES, DICE_KIND
from appliance.main_loop import Output
from appliance.replay_game import with_misreads
from appliance.screen_model import ERROR
from appliance.settings import default_settings
from appliance.table import Table
from hardware.buttons import Press
from hardware.frame_source import ENDED, OK, Frame, SourceStatus, small_grey

GAMES = ("game-dice-poker", "pentakubus-slam", "hexakubus-six-d10", "train-wreck-turns")  # one of each game
DAMAGE = (
    "cut-file",
    "cut-wal",
    "zero-page-file",
    "zero-page-wal",
    "bytes-file",
    "bytes-wal",
    "bytes-near-end",
    "two-bytes",
    "throw-value",
)
PAGE = 4096
AFTER_A_START = 30  # frames the camera sees still dice after a start again (1 s; rest detection needs 4)


class Killed(Exception):
    """The process stops here: nothing after it happens."""


class KillingLog(EventLog):
    """The event log, stopping the process right after its `kill_at`-th write (each a committed transaction)."""

    def __init__(self, path: Path, kill_at: int | None = None):
        super().__init__(path)
        self.kill_at, self.writes = kill_at, 0

    def _committed(self) -> None:
        super()._committed()
        self.writes += 1
        if self.writes == self.kill_at:
            raise Killed


@dataclass
class Recorded:
    """A recorded game, its frames made small and its rests read once (the soak replays it hundreds of times)."""

    folder: Path

    @cached_property
    def recording(self):
        from hardware.replay import load_recording

        return load_recording(self.folder)

    @property
    def spec(self) -> dict:
        return self.recording.labels["game"]

    @cached_property
    def calibration(self):
        calibration, problem = assemble.recording_calibration(self.recording)
        if problem:
            raise ValueError(problem)
        return calibration

    @cached_property
    def small(self) -> list:
        size = default_settings().camera.small_size
        return [small_grey(read_picture(path), size) for path, _ in self.recording.frames]

    @cached_property
    def presses(self) -> list[tuple[int, Press]]:
        return [(p["frame"], Press.parse(p["press"])) for p in self.recording.labels.get("presses", [])]

    @cached_property
    def resting(self) -> set[int]:
        """The frames in which the dice lie still (the labeled rests)."""
        spans = [image.get("rest_frames") or [image["frame"]] * 2 for image in self.recording.images]
        return {i for first, last in spans for i in range(first, last + 1)}

    @cached_property
    def readings(self) -> dict:
        return {}

    def reader(self, frame_index: Callable[[], int]):
        """read(frame, kind): the packaged reader's reading of the frame being played, each frame read once."""
        kind = DICE_KIND[self.spec["game"]]

        def read(frame, _kind):
            i = frame_index()
            if i not in self.readings:
                from vision import read_kind

                self.readings[i] = read_kind(read_picture(self.recording.frames[i][0]), self.calibration, kind)
            return self.readings[i]

        return with_misreads(read, self.recording.labels, frame_index)


@dataclass
class Source:
    """The recording's small frames after `index` (the full picture is read, once, only when the dice rest).
    Started again while the dice rest, the camera sees them lie there for `still` frames before the
    recording goes on (a restart takes seconds; the players wait for the screen)."""

    recorded: Recorded
    index: int
    still: int = 0
    status: SourceStatus = SourceStatus(OK)

    def __post_init__(self):
        if self.index >= 0 and self.index + 1 in self.recorded.resting:
            self.index, self.still = self.index + 1, AFTER_A_START

    def read(self) -> Frame | None:
        if self.still:
            self.still -= 1
        elif self.index + 1 < len(self.recorded.small):
            self.index += 1
        else:
            self.status = SourceStatus(ENDED, "end of the recording")
            return None
        small = self.recorded.small[self.index]
        return Frame(small, small, self.recorded.recording.frames[self.index][1])

    def close(self) -> None:
        pass


@dataclass
class Panel:
    """The recorded presses after the first `done`, each given once its frame has been played."""

    recorded: Recorded
    source: Source
    done: int = 0

    def poll(self):
        presses = self.recorded.presses
        while self.done < len(presses) and presses[self.done][0] <= self.source.index and not self.source.still:
            self.done += 1  # counted as it is handed over: a stop inside its handling leaves it pressed
            yield presses[self.done - 1][1]

    def close(self) -> None:
        pass


@dataclass
class Where:
    """How far a run got: the last frame played, the presses handed over."""

    frame: int = -1
    presses: int = 0


def play(
    recorded: Recorded, log: EventLog, where: Where | None = None, stop_after_frame: int | None = None
) -> tuple[dict, Table]:
    """(final sheet, table) of the recording played on `log` from `where` on (a start again after a stop);
    raises Killed where the log or `stop_after_frame` stops it, with `where` telling how far it got."""
    where = where if where is not None else Where()
    spec = recorded.spec
    table = Table(log, variants={spec["game"]: spec.get("variants", {})})
    # a new recording starts its game, also where the last game's game-over screen came back; a start again after
    # a stop goes on with the game the log holds, finished or not
    if table.record is None or table.record.finished and where.frame < 0:
        table.start(spec["game"], spec["players"])
    source = Source(recorded, where.frame)
    panel = Panel(recorded, source, where.presses)
    app = assemble.appliance(default_settings(), source, panel, table, Output(), recorded.calibration)
    app.read, app.frame_size = recorded.reader(lambda: source.index), None
    try:
        while app.step():
            if source.index == stop_after_frame:
                raise Killed
            where.frame, where.presses = source.index, panel.done
    except Killed:
        where.frame, where.presses = source.index, panel.done
        raise
    for press in panel.poll():  # presses after the last frame
        table.press(press)
    return final_sheet(spec["game"], table.game), table


# ---------------------------------------------------------------------------------------------- kills
@dataclass
class Figures:
    kills: int = 0
    kills_after_a_write: int = 0
    kills_between_frames: int = 0
    sheets_changed: int = 0
    damaged: int = 0
    damage_changing_the_games: int = (
        0  # damage that lost or changed a game or an event (the rest SQLite or the log mends)
    )
    undetected: int = 0
    start_crashes: int = 0
    seconds: float = 0.0
    examples: list = field(default_factory=list)

    def failed(self, what: str) -> None:
        if len(self.examples) < 10:
            self.examples.append(what)


def kill_once(
    recorded: Recorded,
    folder: Path,
    expected: dict,
    figures: Figures,
    kill_at: int | None = None,
    stop_after_frame: int | None = None,
) -> None:
    """One game stopped (after write `kill_at`, or after frame `stop_after_frame`) and played on after a start."""
    path = folder / f"kill-{figures.kills}.sqlite"
    where, name = Where(), recorded.folder.name
    what = f"{name}: stopped after write {kill_at}" if kill_at else f"{name}: stopped after frame {stop_after_frame}"
    figures.kills += 1
    try:
        play(recorded, KillingLog(path, kill_at), where, stop_after_frame)
    except Killed:
        pass
    else:
        return figures.failed(f"{what}: it never stopped")
    try:
        sheet, _ = play(recorded, EventLog(path), where)
    except Exception as error:  # noqa: BLE001 - any of them is a table that cannot start again
        figures.start_crashes += 1
        return figures.failed(f"{what}: {type(error).__name__}: {error}")
    if sheet != expected:
        figures.sheets_changed += 1
        figures.failed(f"{what}: {_totals(expected)} became {_totals(sheet)}")


def _totals(sheet: dict) -> str:
    return "/".join(str(p["total"]) for p in sheet["players"])


def kills(recordings: list[Recorded], n: int, rng: random.Random, folder: Path, figures: Figures) -> None:
    """`n` kills across the recordings in turn: every other one right after a write (each write of each game in
    turn, then again), the rest between two random frames."""
    plan = []
    for recorded in recordings:
        log = KillingLog(folder / f"whole-{recorded.folder.name}.sqlite")
        expected, _ = play(recorded, log)
        plan.append((recorded, expected, log.writes, len(recorded.small)))
    for i in range(n):
        turn, game = divmod(i // 2, len(plan))  # each game in turn, for each kind of kill
        recorded, expected, writes, frames = plan[game]
        if i % 2 == 0:
            figures.kills_after_a_write += 1
            kill_once(recorded, folder, expected, figures, kill_at=turn % writes + 1)
        else:
            figures.kills_between_frames += 1
            kill_once(recorded, folder, expected, figures, stop_after_frame=rng.randrange(frames - 1))


# ---------------------------------------------------------------------------------------------- damage
def contents(path: Path) -> tuple:
    """Every game row and its events as SQLite reads them (what the players confirmed)."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        games = db.execute(
            "SELECT id, game, players, variants, started, finished IS NOT NULL, result FROM games ORDER BY id"
        ).fetchall()
        events = db.execute("SELECT game_id, action, args FROM events ORDER BY id").fetchall()
    finally:
        db.close()
    return tuple(games), tuple(events)


def snapshot(recordings: list[Recorded], rng: random.Random, folder: Path) -> Path:
    """A log as a power cut leaves it: one game played to its end and the table restarted, then another stopped
    at a random frame with its last writes still in the -wal. The copy is taken while the log is open."""
    path = folder / "live.sqlite"
    for suffix in PARTS:
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    first, second = rng.sample(recordings, 2)
    log = EventLog(path)
    _, table = play(first, log)
    log.finish(table.record.id, [{"rank": r, "name": n, "total": t} for r, n, t in table.game.ranking])
    log.close()
    log = EventLog(path)
    try:
        play(second, log, stop_after_frame=rng.randrange(len(second.small) - 1))
    except Killed:
        pass
    kept = folder / f"snapshot-{rng.getrandbits(32):08x}.sqlite"
    for suffix in PARTS:
        if Path(f"{path}{suffix}").exists() and suffix != "-shm":
            shutil.copyfile(f"{path}{suffix}", f"{kept}{suffix}")
    log.close()
    return kept


def damage(path: Path, kind: str, rng: random.Random) -> None:
    """One fault of `kind` put into the log at `path` (or its -wal)."""
    if kind == "throw-value":
        return _change_a_throw(path, rng)
    wal = Path(f"{path}-wal")
    target = wal if kind.endswith("-wal") and wal.exists() and wal.stat().st_size else path
    data = bytearray(target.read_bytes())
    if not data:
        return
    if kind.startswith("cut"):
        del data[rng.randrange(len(data)) :]
    elif kind.startswith("zero-page"):
        start = rng.randrange(0, len(data), PAGE) if target == path else rng.randrange(len(data))
        data[start : start + PAGE] = bytes(len(data[start : start + PAGE]))
    else:
        size = 2 if kind == "two-bytes" else rng.randint(1, 64)
        low = int(len(data) * 0.9) if kind == "bytes-near-end" else 0
        start = rng.randrange(low, len(data))
        data[start : start + size] = rng.randbytes(len(data[start : start + size]))
    target.write_bytes(bytes(data))


def _change_a_throw(path: Path, rng: random.Random) -> None:
    """One die of one logged throw given another value (a row that still reads as sound SQLite)."""
    import json

    db = sqlite3.connect(path, isolation_level=None)
    try:
        rows = db.execute(
            "SELECT events.id, args, game FROM events JOIN games ON games.id = game_id "
            "WHERE action IN ('start_throw', 'rethrow', 'roll', 'roll_off')"
        ).fetchall()
        if rows:
            id_, args, game = rng.choice(rows)
            args = json.loads(args)
            values = args[-1]
            i = rng.randrange(len(values))
            values[i] = rng.choice([v for v in range(1, DICE_FACES[game] + 1) if v != values[i]])
            db.execute("UPDATE events SET args = ? WHERE id = ?", (json.dumps(args), id_))
    finally:
        db.close()


def start(path: Path, figures: Figures, what: str) -> tuple[Table | None, str]:
    """The table started on the log at `path` as `dicetable run` starts it, its screen drawn: (table, what it
    said of the log), or (None, "") for a start that crashed (counted)."""
    try:
        log, note = open_log(path)
        table = Table(log, players=("Ann", "Bob"))
        _draw(table)
        return table, note
    except Exception as error:  # noqa: BLE001 - any of them is a start that crashed
        figures.start_crashes += 1
        figures.failed(f"{what}: start crashed: {type(error).__name__}: {error}")
        return None, ""


def _draw(table: Table) -> None:
    from appliance.screens import png
    from appliance.screens.layout import LAYOUTS

    png.drawn(table.screen(), LAYOUTS["touchscreen"])


def damaged_logs(recordings: list[Recorded], n: int, rng: random.Random, folder: Path, figures: Figures) -> None:
    """`n` logs each with one fault of DAMAGE in turn, on a new snapshot every nine."""
    for i in range(n):
        if i % len(DAMAGE) == 0:
            base = snapshot(recordings, rng, folder)
            before = contents(base)
        kind = DAMAGE[i % len(DAMAGE)]
        path = folder / f"damaged-{i}" / "games.sqlite"
        path.parent.mkdir()
        for suffix in PARTS:
            if Path(f"{base}{suffix}").exists():
                shutil.copyfile(f"{base}{suffix}", f"{path}{suffix}")
        damage(path, kind, rng)
        figures.damaged += 1
        what = f"damage {kind} #{i}"
        table, note = start(path, figures, what)
        if table is None:
            continue
        said = bool(note) or table.level == ERROR
        table.log.close()
        try:
            after = contents(path)
        except sqlite3.Error as error:
            after = (str(error),)
        if after != before:
            figures.damage_changing_the_games += 1
            if not said:
                figures.undetected += 1
                figures.failed(f"{what}: games or events changed and nothing said")
        again, _ = start(path, figures, f"{what}, the start after")
        if again is not None:
            again.log.close()


def soak(kills_n: int, damaged_n: int, seed: int = 0) -> dict:
    """The figures of `kills_n` kills and `damaged_n` damaged logs (examples of failures on stderr)."""
    began = time.monotonic()
    rng = random.Random(seed)
    recordings = [Recorded(assemble.RECORDINGS / name) for name in GAMES]
    figures = Figures()
    with tempfile.TemporaryDirectory(prefix="dicetable-faults-") as scratch:
        if kills_n:
            kills(recordings, kills_n, rng, Path(scratch), figures)
        if damaged_n:
            damaged_logs(recordings, damaged_n, rng, Path(scratch), figures)
    figures.seconds = round(time.monotonic() - began, 1)
    for example in figures.examples:
        print(f"dicetable bench faults: {example}", file=sys.stderr)
    result = dict(vars(figures))
    del result["examples"]
    return result
