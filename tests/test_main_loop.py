"""The main loop's wiring: frames to rest detection, one reading per rest, presses timed by frames."""
import json

import cv2
import numpy as np

from appliance.replay_game import replay_game
from vision.types import ROLL, Die, Reading


def still(value: int) -> np.ndarray:
    image = np.full((240, 320, 3), 60, np.uint8)
    cv2.putText(image, str(value), (100, 160), cv2.FONT_HERSHEY_SIMPLEX, 4, (255, 255, 255), 8)
    return image


def moving(i: int) -> np.ndarray:
    image = np.full((240, 320, 3), 60, np.uint8)
    cv2.circle(image, (20 + 37 * i % 280, 120), 30, (255, 255, 255), -1)
    return image


def write_recording(folder, scenes, presses, game):
    """scenes: (kind, value or None, frame count); presses: (scene index, press) after its last frame."""
    (folder / "frames").mkdir(parents=True)
    frames, ends, i = [], [], 0
    for s, (kind, value, count) in enumerate(scenes):
        for k in range(count):
            image = still(value) if kind == "still" else moving(i)
            name = f"frames/{i:06d}.jpg"
            cv2.imwrite(str(folder / name), image)
            frames.append({"file": name, "t": round(i / 30, 4)})
            i += 1
        ends.append(i - 1)
    labels = {"frames": frames, "images": [], "game": game,
              "presses": [{"frame": ends[s], "press": p} for s, p in presses]}
    (folder / "labels.json").write_text(json.dumps(labels))


def reading(values):
    return Reading(tuple(Die("d6", v, (60 * i, 0, 60 * i + 40, 40), ROLL, 0.99) for i, v in enumerate(values)), 320, 240)


def test_one_reading_per_rest_and_presses_after_their_frame(tmp_path):
    write_recording(tmp_path / "game", [
        ("moving", None, 5), ("still", 1, 10),  # first throw comes to rest
        ("moving", None, 5), ("still", 2, 10),  # all five thrown again
    ], presses=[(1, "OK"), (3, "OK"), (3, "NEXT"), (3, "OK")], game={"game": "dice-poker", "players": ["Ann"]})
    readings = iter([reading((1, 2, 3, 4, 6)), reading((6, 6, 6, 6, 6))])
    calls = []

    def read(frame):
        calls.append(frame)
        return next(readings)

    # attempt 1 confirmed (OK); after the second rest: no holds confirmed, so the new values come
    # as a re-throw of all five dice: OK confirms it, NEXT opens the fields, OK takes the best (50)
    sheet, table = replay_game(tmp_path / "game", tmp_path / "log.sqlite", read=read)
    assert len(calls) == 2
    assert table.game.sheets[0].entries[(0, 12)].total == 50
    assert sheet == {"game": "dice-poker", "players": [{"name": "Ann", "entries": {"12": 50}, "bonuses": 0, "total": 50}]}
