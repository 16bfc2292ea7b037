"""A replayed game stopped at any frame and restarted from its log ends with the same sheet."""

import json

import cv2
import numpy as np
import pytest

from appliance.replay_game import replay_game
from vision.types import KEEP, ROLL, Die, Reading

# (scene kind, what a reader sees when it rests there, presses after its last frame)
GAME = [
    ("moving", None, []),
    ("still", ((6, 6, 2, 3, 1), ()), ["OK"]),  # attempt 1, confirmed
    ("moving", None, []),
    ("still", ((2, 3, 1), (6, 6)), ["OK"]),  # the 6s pushed into the keep zone, holds confirmed
    ("moving", None, []),
    ("still", ((6, 4, 5), (6, 6)), ["OK", "NEXT", "NEXT", "OK"]),  # attempt 2, then the 2nd best field
    ("moving", None, []),
    ("still", ((1, 1, 1, 2, 2), ()), ["OK", "NEXT", "OK"]),  # the next turn: the best field
]


def scene_image(s: int, i: int, kind: str) -> np.ndarray:
    image = np.full((240, 320, 3), 40 + 20 * s, np.uint8)  # each scene its own grey: the stub reader's key
    if kind == "moving":
        cv2.circle(image, (30 + 41 * i % 260, 120), 30, (255, 255, 255), -1)
    return image


def write(folder):
    (folder / "frames").mkdir(parents=True)
    frames, presses, i = [], [], 0
    for s, (kind, _, scene_presses) in enumerate(GAME):
        for _ in range(6 if kind == "moving" else 10):
            name = f"frames/{i:06d}.jpg"
            cv2.imwrite(str(folder / name), scene_image(s, i, kind))
            frames.append({"file": name, "t": round(i / 30, 4)})
            i += 1
        presses += [{"frame": i - 1, "press": p} for p in scene_presses]
    (folder / "labels.json").write_text(
        json.dumps(
            {
                "frames": frames,
                "images": [],
                "presses": presses,
                "game": {"game": "dice-poker", "players": ["Ann", "Bob"]},
            }
        )
    )
    return i


def read(frame: np.ndarray) -> Reading:
    scene = round((float(frame[5:20, 5:20].mean()) - 40) / 20)
    roll, keep = GAME[scene][1]
    slots = range(5 - len(roll), 5)  # the dice left in the rolling area lie where they were thrown
    dice = [Die("d6", v, (50 * i, 10, 50 * i + 40, 50), ROLL, 0.99) for i, v in zip(slots, roll)]
    dice += [Die("d6", v, (50 * i, 150, 50 * i + 40, 190), KEEP, 0.99) for i, v in enumerate(keep)]
    return Reading(tuple(dice), 320, 240)


class Stop(Exception):
    pass


def stop_at(frame):
    def after(i):
        if i == frame:
            raise Stop  # the process dies here: nothing after this frame happens

    return after


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    folder = tmp_path_factory.mktemp("game")
    return folder, write(folder)


def test_uninterrupted_run(recording, tmp_path):
    folder, _ = recording
    sheet, table = replay_game(folder, tmp_path / "log.sqlite", read=read)
    # Ann's 6 6 6 4 5: 3 of a kind and chance both score 27; equal totals are listed by field,
    # so the second choice is field 13. Bob's 1 1 1 2 2 is best as a full house (25).
    ann, bob = sheet["players"]
    assert ann["entries"] == {"13": 27} and bob["entries"] == {"9": 25}  # Bob: 1 1 1 2 2 full house


def test_stopped_anywhere_and_restarted(recording, tmp_path):
    folder, frames = recording
    expected, _ = replay_game(folder, tmp_path / "whole.sqlite", read=read)
    for k in range(frames - 1):  # every frame of the game
        log = tmp_path / f"stopped-{k}.sqlite"
        with pytest.raises(Stop):
            replay_game(folder, log, read=read, after_frame=stop_at(k))
        resumed, _ = replay_game(folder, log, read=read, first_frame=k + 1)
        assert resumed == expected, f"stopped after frame {k}"


def test_an_open_game_whose_row_the_card_damaged_is_closed_and_said(tmp_path):
    from appliance.event_log import EventLog
    from appliance.table import Table

    log = EventLog(tmp_path / "games.sqlite")
    log.start_game("dice-poker", ["Ann"], {})
    log.db.execute("UPDATE games SET players = '[\"An'")  # no JSON: whose game it was is lost
    table = Table(log, players=["Ann"])
    assert table.mode == "choose-game" and table.screen().level == "error"
    assert "could not be resumed" in table.message and "kept in the log" in table.message
    assert log.open_game() is None  # closed, so the next start does not trip over it again


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE games SET players = '[1, 2]'",  # no names: the scoresheet could not draw them
        "UPDATE games SET game = 'hexakubus', variants = '{\"a-bonus\": [Infinity, 5]}'",  # int(inf)
        "UPDATE events SET args = '" + "[" * 5000 + "]" * 5000 + "'",  # deeper than Python's JSON reader goes
        "UPDATE events SET action = 'hold', args = '[]'",  # an event without its arguments
    ],
)
def test_an_open_game_whose_row_python_cannot_take_is_closed_and_said(tmp_path, damage):
    from appliance.event_log import EventLog
    from appliance.table import Table

    log = EventLog(tmp_path / "games.sqlite")
    game = log.start_game("dice-poker", ["Ann"], {})
    log.append(game, "start_throw", [[2, 5, 2, 5, 5]])
    log.db.execute(damage)
    table = Table(log, players=["Ann"])
    assert table.mode == "choose-game" and "could not be resumed" in table.message
    assert log.open_game() is None


def test_a_saved_screen_deeper_than_python_reads_is_no_saved_screen(tmp_path):
    from appliance.event_log import EventLog
    from appliance.table import Table

    log = EventLog(tmp_path / "games.sqlite")
    game = log.start_game("dice-poker", ["Ann"], {})
    log.append(game, "start_throw", [[2, 5, 2, 5, 5]])
    log.db.execute("INSERT INTO screen (id, state) VALUES (1, ?)", ("[" * 5000 + "]" * 5000,))
    assert log.load_screen() == {}
    assert Table(log, players=["Ann"]).mode == "play"
