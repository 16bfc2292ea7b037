"""The table's learnt dice (appliance.learning): where they are kept, how a confirmation counts, the main
loop teaching them, the menu that counts and forgets them."""

import json
import threading
from dataclasses import replace

import numpy as np
import pytest

from appliance.event_log import EventLog
from appliance.learning import LearntDice, folder_for, how_confirmed
from appliance.main_loop import Appliance
from appliance.table import Table
from hardware.buttons import Press, ScriptedPanel
from hardware.replay import ReplaySource
from tests.table.test_main_loop import reading, write_recording
from vision.rest import RestDetector
from vision.types import KEEP, OUTSIDE, ROLL, Die

OK, NEXT, HOLD_BACK = Press("OK"), Press("NEXT"), Press("BACK", long=True)


def test_how_a_die_was_confirmed():
    sure, unsure = Die("d6", 4, (0, 0, 9, 9), ROLL, 0.95), Die("d6", 4, (0, 0, 9, 9), ROLL, 0.4)
    assert [how_confirmed(sure, 4), how_confirmed(unsure, 4), how_confirmed(sure, 5), how_confirmed(unsure, 2)] == [
        "sure",
        "flagged",
        "corrected",
        "corrected",
    ]


def test_each_calibration_learns_apart_beside_its_profile(tmp_path):
    profile = tmp_path / "calibration.toml"
    night_one = folder_for(profile, "2026-11-20T20:15:00")
    assert night_one == tmp_path / "calibration.learnt" / "2026-11-20T20-15-00"
    assert folder_for(profile, "2026-11-20T20:15:00") == night_one  # the same profile: the same dice
    assert folder_for(profile, "2026-11-26T19:00:00") != night_one  # calibrated anew: starts fresh
    assert folder_for(profile, "") == tmp_path / "calibration.learnt" / "undated"


class Teach:
    """A stand-in for LearntDice that records what it is taught, at once (its worker thread is tested below), or
    fails to keep it with `fail`."""

    def __init__(self, fail=""):
        self.taught, self.fail, self.failed = [], fail, []

    def meanwhile(self, frame, dice, values):
        if self.fail:
            self.failed.append(self.fail)
        else:
            self.taught.append((frame.shape, [d.value for d in dice], list(values)))

    def failures(self):
        said, self.failed = self.failed, []
        return said

    def settle(self):
        pass


def one_throw(tmp_path, learnt, read):
    """A first throw of Dice Poker come to rest in a recording, read, and confirmed with OK."""
    write_recording(
        tmp_path / "game",
        [("moving", None, 5), ("still", 1, 10)],
        presses=[],
        game={"game": "dice-poker", "players": ["Ann"]},
    )
    table = Table(EventLog(tmp_path / "log.sqlite"))
    table.start("dice-poker", ["Ann"])
    app = Appliance(
        ReplaySource(tmp_path / "game", realtime=False),
        ScriptedPanel([]),
        table,
        read=read,
        rest=RestDetector(),
        wait=lambda s: None,
        learnt=learnt,
    )
    while table.review is None and app.step():
        pass
    table.press(OK)
    app.step()  # a pass after the confirmation: what went wrong learning it is said
    return app


def test_a_confirmed_reading_teaches_the_learnt_dice_with_its_frame(tmp_path):
    taught = Teach()
    one_throw(tmp_path, taught, lambda frame, kind: reading((1, 2, 3, 4, 6)))
    assert taught.taught == [((240, 320, 3), [1, 2, 3, 4, 6], [1, 2, 3, 4, 6])]


def test_a_die_the_reader_doubted_is_asked_about_when_one_is_missing_and_learnt_once_confirmed(tmp_path):
    """Four dice read of five thrown: the likeliest find the reader took for no die in the rolling area (not one
    outside the tray, nor one on a die read) is the fifth die, asked about; confirmed, it is learnt with the
    others."""
    taught = Teach()
    doubted = (
        Die("d6", 2, (5, 5, 35, 35), ROLL, 0.45),  # centred on the first die read: its pip, not a die
        Die("d6", 5, (250, 100, 290, 140), OUTSIDE, 0.45),
        Die("d6", 6, (250, 0, 290, 40), ROLL, 0.3),
        Die("d6", 1, (0, 100, 40, 140), ROLL, 0.2),
    )
    four = replace(reading((1, 2, 3, 4)), doubted=doubted)
    table = Table(EventLog(tmp_path / "alone.sqlite"))
    table.start("dice-poker", ["Ann"])
    hard = replace(four.dice[1], confidence=0.4)  # a die read unsurely too: the question is about the fifth
    table.reading(replace(four, dice=(four.dice[0], hard, *four.dice[2:])))
    assert "missing" in table.screen().message and "throw again" in table.screen().message  # it may be no die
    assert table.review.cursor == 4 and table.review.dice[4].centre == (270, 20) and table.review.dice[1].uncertain
    app = one_throw(tmp_path, taught, lambda frame, kind: four)  # its OK confirms the asked die: one more takes it
    review = app.table.review
    assert [d.value for d in review.dice] == [1, 2, 3, 4, 6] and review.dice[-1].uncertain and taught.taught == []
    app.table.press(OK)
    app.step()
    assert taught.taught == [((240, 320, 3), [1, 2, 3, 4, 6], [1, 2, 3, 4, 6])]


def test_learnt_dice_that_cannot_be_saved_leave_the_game_going(tmp_path):
    full = Teach(fail="learnt dice not saved ([Errno 28] No space left on device)")
    app = one_throw(tmp_path, full, lambda frame, kind: reading((1, 2, 3, 4, 6)))
    assert app.table.game.throw is not None and app.table.game.throw.attempt == 1  # the throw was taken
    assert app.table.screen().message.startswith("learnt dice not saved ([Errno 28] No space left on device)")
    assert "the game goes on" in app.table.screen().message


class Slow:
    """A stand-in for vision.learnt.Learnt whose learning of a throw takes until `go` is set, or fails with the
    fault its first value names; it records what it did, in order."""

    def __init__(self):
        self.go, self.learning, self.did = threading.Event(), threading.Event(), []
        self.faults = {
            0: OSError(28, "No space left on device"),
            -1: ValueError("a fault"),
            -2: SystemExit("what no `except Exception` takes"),
        }

    def learn(self, frame, dice, values, hows):
        self.learning.set()
        if not self.go.wait(10):
            raise TimeoutError("never let go")
        if values[0] in self.faults:
            raise self.faults[values[0]]
        self.did.append(("learnt", list(values), hows))

    def adapt(self, frame, reading, played=None):
        self.did.append(("read", played))
        return reading

    def counts(self):
        self.did.append(("counted",))
        return {"d6": {1: len([d for d in self.did if d[0] == "learnt"])}}

    def to_learn(self, kind):
        self.did.append(("to learn", kind))
        return []

    def forget(self):
        self.did.append(("forgot",))


def slow_learning():
    learning = LearntDice(None)
    learning.learnt = Slow()
    return learning, learning.learnt


THROW = [Die("d6", 3, (10, 10, 50, 50), ROLL, 0.95), Die("d6", 5, (60, 10, 100, 50), ROLL, 0.95)]
FRAME = np.full((240, 320, 3), 60, np.uint8)


def test_a_throw_confirmed_at_the_table_is_learnt_while_the_game_goes_on_and_read_with_once_learnt():
    learning, slow = slow_learning()
    learning.meanwhile(FRAME, THROW, [3, 6])  # returns while the worker learns
    assert slow.learning.wait(5) and slow.did == []
    threading.Timer(0.2, slow.go.set).start()
    learning.adapt(FRAME, reading((3, 5)), "d6")  # the next reading waits for it
    assert slow.did == [("learnt", [3, 6], ["sure", "corrected"]), ("read", "d6")]
    assert learning.count() == 1 and learning.failures() == []


@pytest.mark.parametrize(
    "ask, did",
    [
        (lambda learning: learning.count(), ("counted",)),
        (lambda learning: learning.to_learn(), ("to learn", "d6")),
        (lambda learning: learning.forget(), ("forgot",)),  # the throw confirmed before is forgotten too
        (lambda learning: learning.confirmed(FRAME, THROW, [4, 5]), ("learnt", [4, 5], ["corrected", "sure"])),
    ],
    ids=["count", "to_learn", "forget", "confirmed"],
)
def test_what_counts_forgets_or_learns_at_once_waits_for_the_throws_confirmed_before_it(ask, did):
    learning, slow = slow_learning()
    learning.meanwhile(FRAME, THROW, [3, 6])
    assert slow.learning.wait(5) and slow.did == []
    threading.Timer(0.2, slow.go.set).start()
    ask(learning)
    assert slow.did == [("learnt", [3, 6], ["sure", "corrected"]), did]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the worker stopping
def test_a_worker_stopped_by_what_no_except_takes_is_started_anew():
    learning, slow = slow_learning()
    slow.go.set()
    learning.meanwhile(FRAME, THROW, [-2, 5])
    learning.settle()
    learning._worker.join(5)  # it stopped
    learning.meanwhile(FRAME, THROW, [3, 5])
    settled = threading.Thread(target=learning.settle, daemon=True)  # with no worker it would wait for ever
    settled.start()
    settled.join(5)
    assert not settled.is_alive() and slow.did == [("learnt", [3, 5], ["sure", "sure"])]


def test_a_throw_that_cannot_be_learnt_is_said_once_and_the_next_one_is_learnt(capsys):
    learning, slow = slow_learning()
    slow.go.set()
    for values in ([0, 5], [-1, 5], [3, 5]):
        learning.meanwhile(FRAME, THROW, values)
    learning.settle()
    assert learning.failures() == [
        "learnt dice not saved ([Errno 28] No space left on device)",
        "a throw could not be learnt (ValueError: a fault)",
    ]
    assert learning.failures() == [] and slow.did == [("learnt", [3, 5], ["sure", "sure"])]
    assert "ValueError: a fault" in capsys.readouterr().err  # the fault's traceback, for `journalctl -u dicetable`


def test_the_throw_confirmed_last_is_learnt_before_the_table_stops(tmp_path):
    learning, slow = slow_learning()
    app = one_throw(tmp_path, learning, lambda frame, kind: reading((1, 2, 3, 4, 6)))
    assert slow.learning.wait(5) and slow.did == []  # confirmed, being learnt
    threading.Timer(0.2, slow.go.set).start()
    app.run(keep_going=lambda: False)  # the window closed, the service stopped
    assert slow.did == [("learnt", [1, 2, 3, 4, 6], ["sure"] * 5)]


def test_a_throw_confirmed_last_that_cannot_be_saved_is_said_in_the_journal(tmp_path, capsys):
    learning, slow = slow_learning()
    slow.faults[1] = OSError(5, "Input/output error")
    app = one_throw(tmp_path, learning, lambda frame, kind: reading((1, 2, 3, 4, 6)))
    slow.go.set()
    app.run(keep_going=lambda: False)
    assert "dicetable: learnt dice not saved ([Errno 5] Input/output error)" in capsys.readouterr().err


def test_the_thrown_dice_are_learnt_and_kept_on_the_device(tmp_path):
    learnt = LearntDice(tmp_path / "calibration.learnt" / "night")
    frame = np.full((240, 320, 3), 60, np.uint8)
    dice = [
        Die("d6", 3, (10, 10, 50, 50), ROLL, 0.95),
        Die("d6", 5, (60, 10, 100, 50), ROLL, 0.4),
        Die("d6", 2, (110, 10, 150, 50), KEEP, 0.99),
    ]  # the kept die was learnt when it was thrown
    learnt.confirmed(frame, dice, [4, 5, 2])
    assert learnt.count() == 2
    again = LearntDice(tmp_path / "calibration.learnt" / "night")
    assert again.count() == 2 and again.learnt.counts() == {"d6": {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 0}}
    hows = again.learnt.examples["d6"].how
    assert [("corrected", "flagged", "sure")[h] for h in hows] == ["corrected", "flagged"]


def test_learnt_dice_put_to_work_in_an_appliance(tmp_path):
    learnt, seen = LearntDice(tmp_path / "learnt"), reading((1, 2, 3, 4, 6))
    app = Appliance(
        None, ScriptedPanel([]), Table(EventLog(tmp_path / "log.sqlite")), read=lambda frame, kind: seen, rest=None
    )
    learnt.attach(app)
    assert app.learnt is learnt and app.table.learnt is learnt
    assert app.read(np.full((240, 320, 3), 60, np.uint8), "d6") is seen  # nothing learnt: the reading as read
    played = []
    learnt.learnt.adapt = lambda frame, reading, kind=None: played.append(kind) or reading
    app.read(np.full((240, 320, 3), 60, np.uint8), "d10")
    assert played == ["d10"]  # the game's kind: its learnt dice may take a die read as another kind (Learnt.adapt)


def test_a_die_read_as_a_ten_sided_one_in_a_game_of_six_sided_dice_is_asked_about_not_refused(tmp_path):
    """A six-sided die with numerals that the ten-sided reader took for its own (a 5), in a game of six-sided dice, at
    a table whose learnt dice do not take it for one of theirs (here: nothing learnt yet): the table asks its value,
    so that the players' answer teaches it, instead of refusing the throw as one holding a d10; the answer teaches it
    the die as its digits were read. A d10 read as an 8 is still refused."""
    from appliance.table_words import reading_problem

    digits = tuple(0.97 if k == 5 else 0.003 for k in range(12))
    five = Die("d10", 5, (240.0, 0.0, 280.0, 40.0), ROLL, 0.97, False, digits)
    thrown = replace(reading((1, 2, 3, 4)), dice=(*reading((1, 2, 3, 4)).dice, five))
    app = Appliance(
        None, ScriptedPanel([]), Table(EventLog(tmp_path / "log.sqlite")), read=lambda frame, kind: thrown, rest=None
    )
    assert reading_problem(thrown, "pentakubus") == "Pentakubus is played with d6s, and I see 1 d10"
    learning = LearntDice(tmp_path / "learnt")
    learning.attach(app)
    read = app.read(np.full((240, 320, 3), 60, np.uint8), "d6")
    assert [(d.kind, d.value, d.uncertain) for d in read.dice][-1] == ("d6", 5, True)
    assert reading_problem(read, "pentakubus") == "" and read.needs_attention
    learning.confirmed(np.full((240, 320, 3), 60, np.uint8), read.dice, [1, 2, 3, 4, 5])  # learnt as its digits read
    assert list(learning.learnt.examples["d6"].read[-1:]) == [5]  # (the pip reader sees a digit as pips)
    eight = replace(five, value=8, probs=tuple(0.97 if k == 8 else 0.003 for k in range(12)))
    thrown = replace(thrown, dice=(*thrown.dice[:-1], eight))
    assert reading_problem(app.read(np.full((240, 320, 3), 60, np.uint8), "d6"), "pentakubus").endswith("1 d10")


class Counted:
    def __init__(self, n):
        self.n, self.forgotten = n, 0

    def count(self):
        return self.n

    def forget(self):
        self.forgotten += 1
        self.n = 0


def menu(table):
    table.press(HOLD_BACK)
    assert table.choosing == "menu"
    return [c.label for c in table.chooser.choices]


def test_the_menu_counts_the_learnt_dice_and_forgets_them(tmp_path):
    table = Table(EventLog(tmp_path / "log.sqlite"))
    table.start("dice-poker", ["Ann"])
    table.learnt = Counted(212)
    labels = menu(table)
    assert labels[-1] == "forget the 212 dice the table has learnt"
    while table.chooser.chosen.label != labels[-1]:
        table.press(NEXT)
    table.press(OK)
    assert table.learnt.forgotten == 1 and table.choosing == "" and "forgotten" in table.message
    assert menu(table)[-1] == "no dice learnt yet: each confirmed throw teaches the table"


def test_a_table_without_learnt_dice_has_no_such_menu_item(tmp_path):
    table = Table(EventLog(tmp_path / "log.sqlite"))
    table.start("dice-poker", ["Ann"])
    assert not any("learnt" in label for label in menu(table))


# -- `dicetable dice`
def a_profile(path, created):
    from calibration.profile import Profile, save_profile

    tray = np.array([[10, 10], [310, 10], [310, 230], [10, 230]], np.float32)
    return save_profile(Profile((320, 240), tray, 40.0, np.full((240, 320, 3), 90, np.uint8), created=created), path)


def test_dice_lists_what_the_profile_has_learnt_and_forgets_it(tmp_path, capsys):
    from appliance.cli import main

    profile = tmp_path / "calibration.toml"
    a_profile(profile, "2026-11-26T19:00:00")
    frame = np.full((240, 320, 3), 60, np.uint8)
    LearntDice(folder_for(profile, "2026-11-26T19:00:00")).confirmed(
        frame, [Die("d6", 3, (10, 10, 50, 50), ROLL, 0.95), Die("d6", 6, (60, 10, 100, 50), ROLL, 0.95)], [3, 6]
    )
    assert main(["dice", "--profile", str(profile), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dice"] == 2 and out["learnt"] == {"d6": {"1": 0, "2": 0, "3": 1, "4": 0, "5": 0, "6": 1}}
    assert out["too_few"] == {"d6": [1, 2, 3, 4, 5, 6]}  # none seen three times: what was learnt only doubts yet
    assert out["folder"] == str(tmp_path / "calibration.learnt" / "2026-11-26T19-00-00") and not out["forgotten"]
    assert main(["dice", "--profile", str(profile), "--forget"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"2 dice learnt with the calibration profile {profile} (made 2026-11-26T19:00:00)")
    assert lines[1] == "  d6: 1×0, 2×0, 3×1, 4×0, 5×0, 6×1 (seen too few times to read by yet: 1, 2, 3, 4, 5, 6)"
    assert lines[2].startswith("forgotten")
    assert main(["dice", "--profile", str(profile)]) == 0
    assert capsys.readouterr().out.startswith("0 dice learnt")


def test_dice_without_a_profile_says_why(tmp_path, capsys):
    from appliance.cli import main

    assert main(["dice", "--profile", str(tmp_path / "none.toml")]) == 1
    err = capsys.readouterr().err
    assert "none.toml" in err and "dice are learnt per calibration profile" in err


def test_a_face_learnt_three_times_is_no_longer_too_few(tmp_path):
    """The faces named "too few" are those learnt fewer than adapter.MIN_SEEN times: a die the learnt dice find
    likeliest one of them keeps the reader's reading (vision/learnt/adapter.py)."""
    from vision.learnt.adapter import MIN_SEEN

    learnt = LearntDice(tmp_path / "learnt")
    frame = np.full((240, 320, 3), 60, np.uint8)
    threes = [Die("d6", 3, (10 + 50 * k, 10, 50 + 50 * k, 50), ROLL, 0.95) for k in range(MIN_SEEN)]
    learnt.confirmed(frame, threes[:-1], [3] * (MIN_SEEN - 1))
    assert learnt.to_learn() == [1, 2, 3, 4, 5, 6]
    learnt.confirmed(frame, threes[-1:], [3])
    assert learnt.to_learn() == [1, 2, 4, 5, 6]
