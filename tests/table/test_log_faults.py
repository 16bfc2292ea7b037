"""Faults as a demanding user injects them: the table killed right after each write of its log, logs damaged on the
card (cut, zeroed pages, random bytes in the file and in its -wal, a changed value in a logged throw), old logs, and
names no screen can draw. Every kill resumes to the uninterrupted sheet; every damage is detected, the damaged file
kept and what was lost said; nothing crashes at start. (`dicetable bench faults` runs the same at random, longer.)"""

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from appliance import assemble
from appliance.event_log import EventLog, open_log
from appliance.fault_soak import Figures, Killed, KillingLog, Recorded, Where, contents, play, start
from appliance.table import Table
from hardware.buttons import Press

GAMES = ("dice-poker-holds", "pentakubus-slam", "hexakubus-six-d10", "game-train-wreck")  # four games


@pytest.fixture(scope="module")
def recorded():
    return {name: Recorded(assemble.RECORDINGS / name) for name in GAMES}


class Kinds(KillingLog):
    """The log, naming each write as it commits: a game started, which decision, or only the screen."""

    def __init__(self, path):
        super().__init__(path)
        self.kinds = []

    def _committed(self):
        super()._committed()
        games, events = self.db.execute("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events)").fetchone()
        last = self.db.execute("SELECT action FROM events ORDER BY id DESC LIMIT 1").fetchone()
        before = self.kinds[-1][1:] if self.kinds else (0, 0)
        kind = "start" if games > before[0] else last[0] if events > before[1] else "screen"
        self.kinds.append((kind, games, events))


@pytest.mark.parametrize("name", GAMES)
def test_a_kill_right_after_any_write_resumes_to_the_uninterrupted_sheet(recorded, name, tmp_path):
    game = recorded[name]
    probe = Kinds(tmp_path / "whole.sqlite")
    expected, _ = play(game, probe)
    kinds = [kind for kind, _, _ in probe.kinds]
    assert {"start", "screen"} <= set(kinds) and len(set(kinds)) >= 4, kinds  # a start, screens, decisions
    for n, kind in enumerate(kinds, 1):
        path, where = tmp_path / f"killed-{n}.sqlite", Where()
        with pytest.raises(Killed):
            play(game, KillingLog(path, kill_at=n), where)
        resumed, _ = play(game, EventLog(path), where)
        assert resumed == expected, f"{name}: killed right after write {n} ({kind})"


def test_the_kill_of_the_issue_a_throw_logged_and_its_screen_not_yet(recorded, tmp_path):
    """Hexakubus: the throw was logged, then the table stopped before the screen state was saved (two writes then):
    the resting dice were taken as a new attempt and 51 points became 38."""
    game = recorded["hexakubus-six-d10"]
    probe = Kinds(tmp_path / "whole.sqlite")
    expected, _ = play(game, probe)
    n = next(i for i, (kind, _, _) in enumerate(probe.kinds, 1) if kind == "start_throw")
    where = Where()
    with pytest.raises(Killed):
        play(game, KillingLog(tmp_path / "killed.sqlite", kill_at=n), where)
    assert EventLog(tmp_path / "killed.sqlite").load_screen()["game"][1] == 1  # the screen is the throw's
    assert play(game, EventLog(tmp_path / "killed.sqlite"), where)[0] == expected
    assert expected["players"][0]["total"] == 51


# ---------------------------------------------------------------------------------------------------- damage
@pytest.fixture(scope="module")
def snapshot(recorded, tmp_path_factory):
    """A log as a power cut leaves it ("open"): Pentakubus played and finished, the table restarted (so that game is
    in the file), Hexakubus stopped after frame 30 with its writes in the -wal; and the same log closed ("closed":
    all in the file, where damage to it reaches the games)."""
    folder = tmp_path_factory.mktemp("snapshot")
    live = folder / "live" / "games.sqlite"
    log = EventLog(live)
    _, table = play(recorded["pentakubus-slam"], log)
    log.finish(table.record.id, [{"rank": r, "name": n, "total": t} for r, n, t in table.game.ranking])
    log.close()
    log = EventLog(live)
    with pytest.raises(Killed):
        play(recorded["hexakubus-six-d10"], log, stop_after_frame=30)
    kept = {"open": folder / "open" / "games.sqlite", "closed": folder / "closed" / "games.sqlite"}
    copy_of(live, kept["open"].parent)
    log.close()  # all of it in the file now, no -wal
    copy_of(live, kept["closed"].parent)
    return kept


def copy_of(snapshot: Path, folder: Path) -> Path:
    path = folder / "games.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-head"):
        if Path(f"{snapshot}{suffix}").exists():
            shutil.copyfile(f"{snapshot}{suffix}", f"{path}{suffix}")
    return path


def changed(path: Path, where: str, at, new: bytes | None = None, cut: bool = False) -> None:
    """Bytes of the log (`where`: "" or "-wal") at `at` (a fraction of its length, or a byte offset) overwritten
    with `new`, or the file cut there."""
    target = Path(f"{path}{where}")
    data = bytearray(target.read_bytes())
    start = int(len(data) * at) if isinstance(at, float) else at % len(data)
    if cut:
        del data[start:]
    else:
        data[start : start + len(new)] = new
    target.write_bytes(bytes(data))


def a_throw_changed(path: Path) -> None:
    """Pentakubus's first throw with one die another value: a row that is still sound SQLite."""
    db = sqlite3.connect(path, isolation_level=None)
    id_, args = db.execute("SELECT id, args FROM events WHERE action = 'start_throw' ORDER BY id LIMIT 1").fetchone()
    dice = json.loads(args)
    dice[0][0] = dice[0][0] % 6 + 1
    db.execute("UPDATE events SET args = ? WHERE id = ?", (json.dumps(dice), id_))
    db.close()


PAGE = 4096
DAMAGE = {
    "the -wal cut in half": lambda p: changed(p, "-wal", 0.5, cut=True),
    "the -wal cut after its first page": lambda p: changed(p, "-wal", 32 + 24 + PAGE, cut=True),
    "the -wal's header zeroed": lambda p: changed(p, "-wal", 0, bytes(32)),
    "a page of the -wal zeroed": lambda p: changed(p, "-wal", 32 + 24 + PAGE, bytes(PAGE)),
    "random bytes in the -wal": lambda p: changed(p, "-wal", 0.6, random.Random(1).randbytes(40)),
    "the file cut in half": lambda p: changed(p, "", 0.5, cut=True),
    "a page of the file zeroed": lambda p: changed(p, "", PAGE, bytes(PAGE)),
    "random bytes at the end of the file": lambda p: changed(p, "", -64, random.Random(2).randbytes(64)),
    "random bytes over a logged throw": lambda p: changed(
        p, "", p.read_bytes().find(b"start_throw"), random.Random(3).randbytes(16)
    ),
    "a value in a logged throw changed": a_throw_changed,
}
IN_THE_FILE = (
    "the file cut in half",
    "a page of the file zeroed",
    "random bytes at the end of the file",
    "random bytes over a logged throw",
)


@pytest.mark.parametrize("what", DAMAGE)
def test_damage_is_detected_kept_aside_and_said_and_the_rest_replayed(snapshot, tmp_path, what):
    path = copy_of(snapshot["closed" if what in IN_THE_FILE else "open"], tmp_path)
    before = contents(path)
    DAMAGE[what](path)
    figures = Figures()
    table, note = start(path, figures, what)
    assert figures.start_crashes == 0, figures.examples
    [kept] = tmp_path.glob("games.damaged-*.sqlite")
    assert note.startswith("game log damaged") and f"the damaged one is kept as {kept.name}" in note
    assert "lost: " in note or "nothing of it could be read" in note
    table.log.close()
    games, events = contents(path)
    assert games == before[0][: len(games)] or [g[:5] for g in games] == [g[:5] for g in before[0][: len(games)]]
    for game_id in {row[0] for row in games}:  # each game kept with the first of its events, as they were
        mine = [e for e in events if e[0] == game_id]
        assert mine == [e for e in before[1] if e[0] == game_id][: len(mine)]
    again, note = start(path, figures, what + ", the next start")
    assert figures.start_crashes == 0 and note == "", figures.examples  # the new log is sound
    again.log.close()


def test_what_was_lost_is_named_game_and_entries(snapshot, tmp_path):
    path = copy_of(snapshot["open"], tmp_path / "throw")
    n = sum(1 for event in contents(path)[1] if event[0] == 1)
    a_throw_changed(path)  # its first entry: that one and all after it are lost (each follows from the one before)
    _, note = open_log(path)
    assert f"lost: Pentakubus of Ann, Bob (game 1): entries 1 to {n} of {n}" in note, note
    path = copy_of(snapshot["open"], tmp_path / "wal")
    n = sum(1 for event in contents(path)[1] if event[0] == 2)
    changed(path, "-wal", -(24 + PAGE), cut=True)  # its last frame: the last commit, Hexakubus's last throw
    log, note = open_log(path)
    assert note.startswith(f"game log damaged, lost: Hexakubus of Ann (game 2): entry {n}, the newest."), note
    table = Table(log)
    assert table.record.game == "hexakubus" and table.mode == "play"  # the rest of the open game replayed


def test_a_finished_game_made_open_again_by_the_card_is_said(snapshot, tmp_path):
    path = copy_of(snapshot["open"], tmp_path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE games SET finished = NULL WHERE id = 1")  # the 2-byte overwrite of the issue, as SQL
    db.close()
    Path(f"{path}-head").unlink()  # only the seals are left to see it
    _, note = open_log(path)
    assert "Pentakubus of Ann, Bob (game 1): its end and result" in note


def test_a_schema_whose_damage_python_cannot_even_decode_is_damage_too(tmp_path):
    """SQLite's message on a malformed schema quotes the damaged bytes; Python's sqlite3 then raised
    UnicodeDecodeError, and the table crashed at every start (found by the soak)."""
    path = tmp_path / "games.sqlite"
    log = EventLog(path)
    log.start_game("dice-poker", ["Ann"], {})
    log.close()
    path.write_bytes(path.read_bytes().replace(b"id INTEGER PRIMARY KEY,", b"id INTEGER PRIMARY \xd1(,", 1))
    figures = Figures()
    table, note = start(path, figures, "schema")
    assert figures.start_crashes == 0, figures.examples
    assert note.startswith("game log damaged") and "malformed database schema" in note


def test_random_damage_of_the_soak_never_crashes_a_start_and_is_never_unsaid(recorded, tmp_path):
    """Sixty faults of the soak's kinds at random places: what changed a game is said; no start crashes."""
    from appliance.fault_soak import damaged_logs

    figures = Figures()
    damaged_logs(list(recorded.values()), 18, random.Random(7), tmp_path, figures)
    assert figures.start_crashes == 0 and figures.undetected == 0, figures.examples
    assert figures.damage_changing_the_games > 0  # the damage did reach the games


# ---------------------------------------------------------------------------------------------------- old logs
OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, variants TEXT NOT NULL,
                    started TEXT NOT NULL, finished TEXT, result TEXT);
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER NOT NULL REFERENCES games(id),
                     at TEXT NOT NULL, action TEXT NOT NULL, args TEXT NOT NULL);
CREATE TABLE screen (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL);
"""


def old_log(path: Path) -> None:
    """A log of the version before seals: a finished game and an open one with a throw."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(OLD_SCHEMA)
    db.execute(
        "INSERT INTO games VALUES (1, 'dice-poker', '[\"Ann\"]', '{}', '2026-11-20T20:00:00+00:00', "
        '\'2026-11-20T21:00:00+00:00\', \'[{"rank": 1, "name": "Ann", "total": 12}]\')'
    )
    db.execute(
        "INSERT INTO games VALUES (2, 'dice-poker', '[\"Ann\", \"Bob\"]', '{}', '2026-11-21T20:00:00+00:00', "
        "NULL, NULL)"
    )
    db.execute(
        "INSERT INTO events (game_id, at, action, args) VALUES (2, '2026-11-21T20:01:00+00:00', 'start_throw', "
        "'[[6, 6, 6, 2, 1]]')"
    )
    db.close()


def test_a_log_of_an_older_version_opens_is_sealed_and_then_guarded(tmp_path):
    path = tmp_path / "games.sqlite"
    old_log(path)
    log, note = open_log(path)
    assert note == ""
    assert [g.id for g in log.history()] == [1]
    table = Table(log, players=["Ann", "Bob"])
    assert table.record.id == 2 and table.game.throw.dice == (6, 6, 6, 2, 1)
    table.log.close()
    a_throw_changed(path)  # sealed now: a change is seen
    _, note = open_log(path)
    assert "lost: Dice Poker of Ann, Bob (game 2): entry 1 of 1" in note, note


def test_history_reads_a_log_and_its_wal_in_a_folder_it_cannot_write(tmp_path, monkeypatch, capsys):
    """SQLite cannot make the -shm it reads a -wal with there, and read the file without it (no games table).
    The tests may run as root, for whom no folder is closed: os.access plays the closed folder."""
    import os

    from appliance.cli import main

    path = tmp_path / "games.sqlite"
    log = EventLog(path)  # left open: its last writes are only in the -wal, as after a power cut
    game = log.start_game("dice-poker", ["Ann"], {})
    log.finish(game, [{"rank": 1, "name": "Ann", "total": 12}])
    real = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: False if Path(p) == tmp_path and mode & os.W_OK else real(p, mode, **kw)
    )
    assert main(["history", "--log", str(path), "--json"]) == 0
    assert [g["players"][0]["total"] for g in json.loads(capsys.readouterr().out)] == [12]


# ---------------------------------------------------------------------------------------------------- names
@pytest.mark.parametrize("name", ["Ann\x00", "\u200b", "Bo\u200bb", "Cy\x07", "\u00ad"])
def test_a_name_no_screen_can_draw_in_an_open_games_log_still_draws(tmp_path, name):
    """An older version took such a name from the settings; it lives on in the open game, whatever the settings
    say now: the screen drew it at every start and crashed."""
    from appliance.fault_soak import _draw

    log = EventLog(tmp_path / "games.sqlite")
    game = log.start_game("dice-poker", [name, "Bob"], {})
    log.append(game, "start_throw", [[6, 6, 6, 2, 1]])
    log.close()
    figures = Figures()
    table, note = start(tmp_path / "games.sqlite", figures, name)
    assert figures.start_crashes == 0, figures.examples
    assert table.record.players == (name, "Bob") and note == ""
    table.press(Press("NEXT"))  # the fields, with the name above them
    _draw(table)


# ---------------------------------------------------------------------------------------------------- the camera
def test_a_replay_camera_whose_frames_vanish_does_not_hold_up_the_loop(tmp_path):
    """Each frame used to be waited for before it was found missing: the loop (watchdog, buttons, screen) stood
    still for the whole recording's length. Now no time passes for them, and the camera is said lost."""
    from hardware.frame_source import LOST
    from hardware.replay import ReplaySource

    folder = tmp_path / "game"
    shutil.copytree(assemble.RECORDINGS / "misread-corrected", folder)
    now, waited = [0.0], []
    source = ReplaySource(folder, realtime=True, clock=lambda: now[0], sleep=waited.append)
    for frame in (folder / "frames").iterdir():
        frame.unlink()
    assert source.read() is None and waited == []
    assert source.status.state == LOST and "none of the 15 frames" in source.status.message


def test_a_rest_whose_frames_cannot_be_read_is_said(tmp_path):
    """The dice came to rest while the camera's frames could not be read: no throw is read, and the players are
    told to throw again rather than wait for a reading that never comes."""
    from appliance.main_loop import Appliance
    from hardware.replay import ReplaySource

    folder = tmp_path / "game"
    shutil.copytree(assemble.RECORDINGS / "misread-corrected", folder)
    for n in range(3, 10):
        (folder / "frames" / f"{n:06d}.jpg").unlink()
    table = Table(EventLog(tmp_path / "games.sqlite"))
    app = Appliance(
        ReplaySource(folder, realtime=False),
        type("Panel", (), {"poll": lambda self: []})(),
        table,
        read=lambda frame, kind: None,
        rest=type("Rest", (), {"update": lambda *a: _moving()})(),
    )
    for _ in range(4):
        app.step()
    assert "the camera lost frames (skipped unreadable frame 000003.jpg and 6 more)" in table.message
    assert "throw again" in table.message


def _moving():
    from vision.types import RestState

    return RestState("moving")
