"""The main loop's wiring: frames to rest detection, one reading per rest, presses timed by frames."""

import json
import tempfile

import cv2
import numpy as np
import pygame
import pytest

from appliance.event_log import EventLog
from appliance.main_loop import PLAYING, Appliance, Output
from appliance.replay_game import replay_game
from appliance.screen_model import Screen
from appliance.table import Table
from hardware.buttons import ScriptedPanel
from hardware.frame_source import LOST, OK, SourceStatus
from hardware.replay import ReplaySource
from vision.rest import RestDetector
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
    for kind, value, count in scenes:
        for _ in range(count):
            image = still(value) if kind == "still" else moving(i)
            name = f"frames/{i:06d}.jpg"
            cv2.imwrite(str(folder / name), image)
            frames.append({"file": name, "t": round(i / 30, 4)})
            i += 1
        ends.append(i - 1)
    labels = {
        "frames": frames,
        "images": [],
        "game": game,
        "presses": [{"frame": ends[s], "press": p} for s, p in presses],
    }
    (folder / "labels.json").write_text(json.dumps(labels))


def reading(values):
    return Reading(
        tuple(Die("d6", v, (60 * i, 0, 60 * i + 40, 40), ROLL, 0.99) for i, v in enumerate(values)), 320, 240
    )


def test_one_reading_per_rest_and_presses_after_their_frame(tmp_path):
    write_recording(
        tmp_path / "game",
        [
            ("moving", None, 5),
            ("still", 1, 10),  # first throw comes to rest
            ("moving", None, 5),
            ("still", 2, 10),  # all five thrown again
        ],
        presses=[(1, "OK"), (3, "OK"), (3, "NEXT"), (3, "OK")],
        game={"game": "dice-poker", "players": ["Ann"]},
    )
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
    assert sheet == {
        "game": "dice-poker",
        "players": [{"name": "Ann", "entries": {"12": 50}, "bonuses": 0, "total": 50}],
    }


class LostCamera:
    """A camera that is gone: read() answers at once with nothing, as ReconnectingSource does between retries."""

    status = SourceStatus(LOST, "USB camera 0 lost, retrying in 2 s (no camera)")

    def read(self):
        return None

    def close(self):
        pass


def test_while_the_camera_is_lost_each_pass_waits_a_frame_instead_of_spinning(tmp_path):
    waits, statuses = [], []
    camera = LostCamera()
    app = Appliance(
        camera,
        ScriptedPanel([]),
        Table(EventLog(tmp_path / "log.sqlite")),
        read=None,
        rest=None,
        wait=waits.append,
        status=statuses.append,
    )
    assert all(app.step() for _ in range(3))
    assert waits == [pytest.approx(1 / 30)] * 3
    assert "lost" in app.table.screen().camera  # and the table says so meanwhile
    assert statuses == [LostCamera.status.message]  # so does `systemctl status`, once
    camera.status = SourceStatus(OK, "")
    app.step()
    assert app.table.screen().camera == "" and statuses[1:] == [PLAYING]

    write_recording(
        tmp_path / "game",
        [("moving", None, 3), ("still", 1, 5)],
        presses=[],
        game={"game": "dice-poker", "players": ["Ann"]},
    )
    waited = []
    app = Appliance(
        ReplaySource(tmp_path / "game", realtime=False),
        ScriptedPanel([]),
        Table(EventLog(tmp_path / "replay.sqlite")),
        read=lambda frame, kind: reading((1, 2, 3, 4, 5)),
        rest=RestDetector(),
        wait=waited.append,
    )
    app.run()
    assert app.frames == 8 and waited == []  # frames coming, or the end: no waiting


def test_a_headless_table_keeps_only_its_latest_screen(tmp_path):
    import pygame

    from appliance.screens.layout import LAYOUTS
    from hardware.display import open_display

    surface = open_display("dummy", LAYOUTS["touchscreen"].size)
    output = Output(surface, LAYOUTS["touchscreen"], tmp_path / "screens", flip=False, latest_only=True)
    for title in ("one", "two", "three"):
        output.show(Screen("choose-game", title))
    assert list((tmp_path / "screens").iterdir()) == [tmp_path / "screens" / "screen.png"] == output.saved
    written = pygame.surfarray.array3d(pygame.image.load(str(output.saved[0])))
    assert np.array_equal(written, pygame.surfarray.array3d(surface))  # the last screen drawn
    pygame.display.quit()


def test_frames_of_another_size_than_the_calibrations_are_not_read_and_the_screen_says_why(tmp_path):
    """A calibration's corners and die size are in its own frames' pixels: on 640x480 frames a 320x240
    calibration would put the keep zone and the dice in the wrong places, so nothing is read."""
    write_recording(
        tmp_path / "game",
        [("moving", None, 3), ("still", 1, 8)],
        presses=[],
        game={"game": "dice-poker", "players": ["Ann"]},
    )
    statuses, reads = [], []
    app = Appliance(
        ReplaySource(tmp_path / "game", realtime=False),
        ScriptedPanel([]),
        Table(EventLog(tmp_path / "log.sqlite")),
        read=lambda frame, kind: reads.append(frame),
        rest=RestDetector(),
        status=statuses.append,
        wait=lambda s: None,
        frame_size=(640, 480),
    )
    for _ in range(11):  # every frame of the recording, none left
        app.step()
    assert reads == []
    message = "the tray was calibrated on 640x480 pictures but the camera's are 320x240"
    assert message in app.table.screen().camera and statuses[0].startswith(message)
    assert "set camera.size = [640, 480] or run `dicetable calibrate` again" in statuses[0]

    app = Appliance(
        ReplaySource(tmp_path / "game", realtime=False),
        ScriptedPanel([]),
        Table(EventLog(tmp_path / "log2.sqlite")),
        read=lambda frame, kind: reads.append(frame) or reading((1, 2, 3, 4, 5)),
        rest=RestDetector(),
        frame_size=(320, 240),
    )
    app.run()
    assert len(reads) == 1  # the calibrated size: read as ever


def test_a_screen_missing_at_start_is_looked_for_until_it_is_there(tmp_path, monkeypatch):
    """A TV still off when the Pi boots: the table writes its screen to a PNG and looks for the screen
    every LOOK_FOR_SCREEN_S; once it opens, the table shows there (at the TV's layout)."""
    from appliance.assemble import open_output
    from appliance.main_loop import LOOK_FOR_SCREEN_S
    from appliance.settings import load_settings
    from hardware import display

    tries, real_open = [], display.open_display

    def open_display(mode, size=(800, 480), caption=""):
        if mode != "kiosk":
            return real_open(mode, size)
        tries.append(mode)
        if len(tries) < 3:  # off at start and at the first look
            raise display.DisplayError("cannot open the kiosk display (kmsdrm not available): connect a screen")
        return real_open("dummy", (1920, 1080))  # the TV, switched on

    monkeypatch.setattr(display, "open_display", open_display)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    (tmp_path / "settings.toml").write_text('[display]\nmode = "kiosk"\n')
    settings, _ = load_settings(tmp_path / "settings.toml")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    now, notes = [0.0], []
    output = open_output(settings, None, notes, latest_only=True, clock=lambda: now[0])
    table = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    try:
        assert "cannot open the kiosk display" in notes[0] and "until the screen is found" in notes[0]
        output.show(table.screen())
        png = output.saved[-1]
        assert png.name == "screen.png" and output.surface.get_size() == (800, 480)
        now[0] = LOOK_FOR_SCREEN_S  # still off: the stand-in again
        output.show(table.screen())
        assert len(tries) == 2 and output.png_dir == png.parent and output.surface.get_size() == (800, 480)
        png.unlink()
        now[0] = 2 * LOOK_FOR_SCREEN_S  # on: drawn there, the PNG no more
        output.show(table.screen())
        assert len(tries) == 3 and output.surface.get_size() == (1920, 1080) and output.layout.name == "tv"
        assert output.png_dir is None and not png.exists()
        assert output.surface.get_at((5, 5))[:3] != (0, 0, 0)  # the table drawn on the new screen
        now[0] = 10 * LOOK_FOR_SCREEN_S
        output.show(table.screen())
        assert len(tries) == 3  # found: not looked for again
    finally:
        pygame.display.quit()
