"""The wizard step by step on rendered frames and scripted presses; its screen; the calibrate command."""

from dataclasses import replace

import numpy as np
import pygame
import pytest

from appliance.cli import main
from calibration.find import order_corners
from calibration.profile import Exposure, load_profile
from calibration.wizard import EMPTY_FRAMES, NUDGE_PX, Wizard
from hardware.buttons import NEXT, OK
from vision.lab.render.tray import TrayScene, spread_dice
from vision.types import Die, Reading

SCENE = TrayScene()
EMPTY = SCENE.render()
DICE = SCENE.render(spread_dice(56))
METADATA = {"ExposureTime": 12000, "AnalogueGain": 1.5, "ColourGains": (2.0, 1.5)}
TOLERANCE = 0.01 * float(np.hypot(*(SCENE.tray[2] - SCENE.tray[0])))


def reads(values):
    def read(frame, calibration):
        assert calibration.die_px and calibration.empty is not None  # the draft profile is used
        dice = tuple(
            Die("d6", v, (100.0 * i, 100.0, 100.0 * i + 56, 156.0), "roll", 0.99) for i, v in enumerate(values, 1)
        )
        return Reading(dice, frame.shape[1], frame.shape[0])

    return read


def feed(wizard, image, *presses, metadata=METADATA):
    return wizard.feed(image, presses, metadata)


def to_dice_step(wizard, metadata=METADATA):
    feed(wizard, EMPTY, metadata=metadata)
    feed(wizard, EMPTY, "OK", metadata=metadata)  # use the tray found
    feed(wizard, EMPTY, "OK long", metadata=metadata)  # the corners are right
    feed(wizard, EMPTY, "OK", metadata=metadata)  # lock
    feed(wizard, EMPTY, "OK", metadata=metadata)  # learn the empty tray ...
    for _ in range(EMPTY_FRAMES):
        screen = feed(wizard, EMPTY, metadata=metadata)
    assert screen.step == "dice", screen
    return screen


def test_the_whole_way_to_a_saved_profile(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml", read=reads([1, 2, 3, 4, 5, 6]), now=lambda: "2024-05-01T20:00:00")
    to_dice_step(wizard)
    assert wizard.take_camera_request() == Exposure(12000, 1.5, (2.0, 1.5))
    assert wizard.take_camera_request() is None  # asked once
    screen = feed(wizard, DICE, "OK")
    assert screen.step == "check" and "6 dice measured" in screen.message
    screen = feed(wizard, DICE, "OK")
    assert "1 2 3 4 5 6" in screen.message and [o.label for o in screen.overlays if o.kind == "die"] == list("123456")
    screen = feed(wizard, DICE, "OK")
    assert screen.step == "done" and str(tmp_path / "cal.toml") in screen.message
    feed(wizard, DICE, "OK")
    assert wizard.finished and not wizard.cancelled

    profile = load_profile(tmp_path / "cal.toml")
    assert np.abs(profile.tray - SCENE.tray).max() <= TOLERANCE
    assert np.abs(profile.keep - order_corners(SCENE.keep)).max() <= TOLERANCE
    assert abs(profile.die_px - 56) <= 0.05 * 56
    assert profile.exposure == Exposure(12000, 1.5, (2.0, 1.5)) and profile.checked
    assert np.abs(profile.empty.astype(int) - EMPTY).max() <= 1  # the still frames' median is the empty tray


def test_nudging_moves_the_selected_corner_and_the_keep_corner_on_it(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml")
    feed(wizard, EMPTY)
    screen = feed(wizard, EMPTY, "OK", *["OK"] * 6)  # tray used, then x and y of three corners: the 4th corner, x
    start = {o.kind: o for o in screen.overlays if o.kind in ("tray", "keep", "selected")}
    corner = np.float32(start["selected"].points[0])
    assert np.allclose(corner, start["tray"].points[3])  # the bottom-left corner ...
    assert any(np.allclose(corner, p) for p in start["keep"].points)  # ... is also the keep zone's
    screen = feed(wizard, EMPTY, "NEXT", "NEXT", "NEXT", "OK", "PREV long")
    moved = {o.kind: o for o in screen.overlays if o.kind in ("tray", "keep", "selected")}
    expected = corner + (3 * NUDGE_PX[0], -NUDGE_PX[1])
    assert np.allclose(moved["tray"].points[3], expected)
    assert any(np.allclose(expected, p) for p in moved["keep"].points)
    assert np.allclose(moved["tray"].points[:3], start["tray"].points[:3])  # the others stay


def test_the_ok_button_says_what_it_does_next_while_nudging(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml")
    feed(wizard, EMPTY)
    screen = feed(wizard, EMPTY, "OK")  # tray used: the first corner, left/right
    assert "move it left/right" in screen.instruction and screen.buttons[OK].startswith("up/down")
    assert "OK: move it up/down" in screen.instruction  # the instruction and the button say the same
    screen = feed(wizard, EMPTY, "OK")  # the same corner, up/down
    assert "move it up/down" in screen.instruction and screen.buttons[OK].startswith("next corner")
    assert "OK: the next corner" in screen.instruction


def test_no_tray_in_view_keeps_the_first_step_with_a_message(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml")
    table = np.full((720, 1280, 3), (165, 170, 175), np.uint8)
    screen = feed(wizard, table, "OK")
    assert screen.step == "find" and screen.problem and "out of the picture" in screen.message


def test_a_camera_without_exposure_data_stays_automatic(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml", read=reads([3]))
    to_dice_step(wizard, metadata=None)
    assert wizard.take_camera_request() is None
    feed(wizard, DICE, "OK", "OK", "OK")
    assert load_profile(tmp_path / "cal.toml").exposure is None


def test_movement_while_learning_the_empty_tray_is_refused(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml")
    feed(wizard, EMPTY, "OK", "OK long", "OK", "OK")
    frames = [EMPTY] * (EMPTY_FRAMES // 2) + [DICE] * (EMPTY_FRAMES - EMPTY_FRAMES // 2)  # dice thrown in meanwhile
    for frame in frames:
        screen = feed(wizard, frame)
    assert screen.step == "empty" and screen.problem and "moved" in screen.message


def test_no_dice_for_measuring_is_a_message(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml")
    to_dice_step(wizard)
    screen = feed(wizard, EMPTY, "OK")
    assert screen.step == "dice" and screen.problem and "dice" in screen.message


def test_a_wrong_reading_is_thrown_again_and_a_broken_reader_can_be_skipped(tmp_path):
    def broken(frame, calibration):
        raise RuntimeError("no model file")

    wizard = Wizard(tmp_path / "cal.toml", read=broken)
    to_dice_step(wizard)
    feed(wizard, DICE, "OK")
    screen = feed(wizard, DICE, "OK")
    assert screen.step == "check" and screen.problem and "no model file" in screen.message
    screen = feed(wizard, DICE, "OK long")
    assert screen.step == "done"
    assert not load_profile(tmp_path / "cal.toml").checked

    wizard = Wizard(tmp_path / "again.toml", read=reads([2, 2]))
    to_dice_step(wizard)
    feed(wizard, DICE, "OK", "OK")
    screen = feed(wizard, DICE, "NEXT")  # the player says the reading is wrong
    assert screen.step == "check" and "Throw again" in screen.message
    screen = feed(wizard, DICE, "BACK")
    assert screen.step == "dice" and not (tmp_path / "again.toml").exists()


def test_holding_back_leaves_without_saving(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml")
    to_dice_step(wizard)
    feed(wizard, DICE, "BACK long")
    assert wizard.cancelled and not (tmp_path / "cal.toml").exists()


def test_the_screen_draws_picture_outlines_and_buttons(tmp_path):
    from appliance.screens.wizard import COLOURS, draw

    wizard = Wizard(tmp_path / "cal.toml")
    screen = feed(wizard, EMPTY)
    surface = pygame.Surface((800, 480))
    draw(surface, screen)
    pixels = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    tray_colour = np.all(pixels == COLOURS["tray"], axis=2)
    assert tray_colour.sum() > 500  # the tray's outline is drawn
    ys, xs = np.nonzero(tray_colour)
    # the picture is scaled into the left part of the screen, keeping the frame's shape
    assert xs.max() < 0.62 * 800 and xs.min() > 0
    assert (xs.max() - xs.min()) / (ys.max() - ys.min()) == pytest.approx(
        np.ptp(SCENE.tray[:, 0]) / np.ptp(SCENE.tray[:, 1]), rel=0.05
    )
    bar = pixels[480 - 40 :, :, :]
    assert np.any(np.all(bar == COLOURS["bar"], axis=2))  # the button bar


@pytest.fixture
def dummy_display(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    pygame.display.quit()


def calibrate_drawn_tray(profile, *options) -> int:
    """`dicetable calibrate` on the drawn tray, on SDL's dummy display, saving to `profile`: its exit status."""
    return main(["calibrate", "--source", "synthetic", "--display", "dummy", "--profile", str(profile), *options])


def test_the_command_runs_the_wizard_on_a_drawn_tray_and_checks_the_profile(tmp_path, dummy_display, capsys):
    profile = tmp_path / "cal.toml"
    # OK: tray, OK long: corners, OK: lock; at 1 s OK: learn (8 frames); at 2 s OK: measure;
    # OK long: save without a test throw (the reader's models may not be there); OK: finish
    script = "OK,OK long,OK,1:OK,2:OK,OK long,OK"
    code = calibrate_drawn_tray(profile, "--script", script, "--screenshots", str(tmp_path / "shots"))
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "calibration saved" in out.out
    loaded = load_profile(profile)
    assert np.abs(loaded.tray - SCENE.tray).max() <= TOLERANCE and abs(loaded.die_px - 56) <= 0.05 * 56
    assert loaded.exposure is not None  # the synthetic camera reports one
    assert len(list((tmp_path / "shots").glob("*.png"))) >= 6
    assert (tmp_path / "shots" / "1-find.png").exists()  # the first press comes once the first step was shown

    assert main(["calibrate", "--check", "--profile", str(profile)]) == 0
    assert "die 5" in capsys.readouterr().out
    other = tmp_path / "settings.toml"
    other.write_text("[camera]\nsize = [640, 480]\n")  # a profile the table could not use at this size
    assert main(["calibrate", "--check", "--settings", str(other), "--profile", str(profile)]) == 1
    assert (
        "calibrated on 1280x720 pictures but the camera's are 640x480: set camera.size = [1280, 720]"
        in capsys.readouterr().out
    )
    profile.write_text(profile.read_text().replace("die_px", "die_size"))
    assert main(["calibrate", "--check", "--profile", str(profile)]) == 1
    out = capsys.readouterr().out
    assert str(profile) in out and "dice.die_px is missing" in out and "dicetable calibrate" in out
    assert main(["calibrate", "--check", "--profile", str(tmp_path / "none.toml")]) == 1
    assert "no calibration profile" in capsys.readouterr().out


def test_without_a_screen_the_wizard_says_so_instead_of_waiting_unseen(tmp_path, dummy_display, capsys):
    code = calibrate_drawn_tray(tmp_path / "c.toml")
    assert code == 2
    assert "no screen here" in capsys.readouterr().err and not (tmp_path / "c.toml").exists()


def test_a_script_that_stops_early_fails_with_the_step_it_reached(tmp_path, dummy_display, capsys):
    code = calibrate_drawn_tray(tmp_path / "c.toml", "--script", "OK")
    assert code == 1
    assert "step 'nudge'" in capsys.readouterr().err and not (tmp_path / "c.toml").exists()


# -- the wizard `dicetable run` starts on a Pi without a profile ----------------------------------------


def first_boot(tmp_path, monkeypatch, script):
    """`dicetable run` on a new Pi: no profile yet, a Pi camera (a drawn tray) that remembers the exposure
    it was opened with, and buttons playing `script` timed by the frames grabbed. Returns the settings
    file, the cameras opened (in order) and how many frames were grabbed."""
    import tempfile

    from appliance import assemble
    from appliance.commands.calibrate import parse_script
    from appliance.synthetic_camera import SyntheticTraySource
    from hardware.buttons import ScriptedPanel
    from hardware.frame_source import ReconnectingSource

    tray, grabbed, cameras = SyntheticTraySource(), [0], []

    class Device:
        metadata = tray.metadata

        def grab(self):
            grabbed[0] += 1
            frame = tray.read()
            return frame.image, frame.small

        def close(self):
            pass

    def open_camera(settings, notes, kind=None, replay=None, exposure=None):
        # a drawn tray never changes; a Pi camera is reopened with the exposure the wizard locks
        camera = ReconnectingSource("Pi camera 0", Device, frozen_after_s=None, can_lock_exposure=True)
        camera.exposure, camera.stage = exposure, tray.stage
        cameras.append(camera)
        return camera

    panel = assemble.Panels([ScriptedPanel(parse_script(script), clock=lambda: grabbed[0] / 30)])
    monkeypatch.setattr(assemble, "open_camera", open_camera)
    monkeypatch.setattr(assemble, "open_buttons", lambda settings, keyboard, notes, layout=None: panel)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the screens' folder
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    settings = tmp_path / "settings.toml"
    settings.write_text(f'[display]\nmode = "dummy"\n[calibration]\nprofile = "{tmp_path / "cal.toml"}"\n')
    return settings, cameras, lambda: grabbed[0]


def test_the_first_boot_wizard_keeps_the_systemd_watchdog_fed(tmp_path, monkeypatch, dummy_display):
    import socket

    from appliance import systemd_notify

    settings, _, frames = first_boot(tmp_path, monkeypatch, "2:BACK long")  # two seconds in the wizard, then leave
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(str(tmp_path / "notify"))
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    # a ping at most once a second, timed by the frames (30 a second) so the count is exact
    monkeypatch.setattr(systemd_notify, "_default", systemd_notify.Notifier(watchdog_gap_s=30, clock=frames))
    try:
        assert main(["run", "--settings", str(settings), "--log", str(tmp_path / "games.sqlite")]) == 1
        systemd.setblocking(False)
        messages = []
        while True:
            try:
                messages.append(systemd.recv(4096).decode())
            except BlockingIOError:
                break
    finally:
        systemd.close()
    assert frames() == 60
    assert messages == ["READY=1\nSTATUS=calibrating", "WATCHDOG=1", "WATCHDOG=1"]  # at frames 1 and 31


def test_the_first_boot_wizard_moves_to_a_screen_found_after_the_start(tmp_path, monkeypatch, dummy_display):
    """A TV switched on after the Pi: the wizard is drawn on the screen once the table finds it."""
    from appliance import assemble
    from appliance.main_loop import Output

    settings, _, frames = first_boot(tmp_path, monkeypatch, "2:BACK long")  # 60 frames, then leave
    stand_in, screen = pygame.display.set_mode((800, 480)), pygame.Surface((800, 480))  # SDL's dummy display
    looked = []

    def look_for_screen():
        looked.append(frames())
        return screen, None, ""

    # the clock counts frames as seconds: the screen is looked for after 10 of them
    output = Output(stand_in, None, flip=False, look_for_screen=look_for_screen, clock=frames)
    monkeypatch.setattr(assemble, "open_output", lambda *args, **kwargs: output)
    assert main(["run", "--settings", str(settings), "--log", str(tmp_path / "games.sqlite")]) == 1
    assert looked == [10]
    assert pygame.transform.average_color(screen)[:3] != (0, 0, 0)  # drawn on: the wizard's last screen


def test_a_stop_asked_for_during_the_first_boot_wizard_is_no_failure(tmp_path, monkeypatch, dummy_display, capsys):
    settings, _, frames = first_boot(tmp_path, monkeypatch, "")
    get = pygame.event.get
    stop = pygame.event.Event(pygame.QUIT)  # what SDL makes of systemctl stop's SIGTERM
    monkeypatch.setattr(pygame.event, "get", lambda *types: [stop] if frames() >= 10 else get(*types))
    assert main(["run", "--settings", str(settings), "--log", str(tmp_path / "games.sqlite")]) == 0
    assert frames() == 10 and not (tmp_path / "cal.toml").exists()
    assert "calibration stopped without saving" in capsys.readouterr().err


def test_after_the_first_boot_wizard_the_table_plays_with_the_exposure_it_locked(tmp_path, monkeypatch, dummy_display):
    from types import SimpleNamespace

    from appliance import assemble

    settings, cameras, _ = first_boot(tmp_path, monkeypatch, "OK,OK long,OK,1:OK,2:OK,OK long,OK")
    playing = []

    def appliance(settings, source, panel, table, output, calibration):
        playing.append((source, source.read() is not None))
        return SimpleNamespace(recorder=None, run=lambda keep_going: None, read=None, table=table)  # learnt dice attach

    monkeypatch.setattr(assemble, "appliance", appliance)
    assert main(["run", "--settings", str(settings), "--log", str(tmp_path / "games.sqlite")]) == 0
    exposure = load_profile(tmp_path / "cal.toml").exposure
    assert exposure is not None and cameras[0].exposure is None  # first opened before there was a profile
    [(camera, live)] = playing
    assert camera.exposure == exposure and live  # the empty tray was learned so


def test_the_last_step_teaches_the_table_the_dice_thrown(tmp_path):
    """After saving, NEXT offers "teach your dice": a throw read, a die corrected, OK teaches them to the dice
    learnt with the saved profile, and the screen says how surely each face is read now."""
    from appliance.learning import LearntDice, folder_for

    wizard = Wizard(
        tmp_path / "cal.toml",
        read=reads([1, 2, 3, 4, 5, 6]),
        now=lambda: "2024-05-01T20:00:00",
        teach=lambda profile: LearntDice(folder_for(profile.path, profile.created)),
    )
    to_dice_step(wizard)
    for _ in range(3):  # measure, read the test throw, save
        screen = feed(wizard, DICE, "OK")
    assert (
        screen.step == "done" and screen.buttons[NEXT] == "teach your dice" and (screen.number, screen.steps) == (7, 8)
    )
    screen = feed(wizard, DICE, "NEXT")
    assert screen.step == "teach" and wizard.wants_dice
    screen = feed(wizard, DICE, "OK")
    assert [o.label for o in screen.overlays if o.kind in ("die", "selected")] == list("123456")
    screen = feed(wizard, DICE, "NEXT long")  # the first die shows a 2, says the player
    assert [o.label for o in screen.overlays if o.kind in ("die", "selected")] == list("223456")
    screen = feed(wizard, DICE, "OK")
    assert screen.message.startswith("Learnt 6 dice (6 in all). How sure it reads each face now: 1: -, 2: ")
    assert "Faces seen too few times to read by yet: 1, 2, 3, 4, 5, 6." in screen.message  # none learnt 3 times yet
    kept = LearntDice(tmp_path / "cal.learnt" / "2024-05-01T20-00-00").learnt.counts()
    assert kept == {"d6": {1: 0, 2: 2, 3: 1, 4: 1, 5: 1, 6: 1}}
    screen = feed(wizard, DICE, "BACK")
    assert screen.step == "done"
    feed(wizard, DICE, "OK")
    assert wizard.finished


def teaching_throw(tmp_path, read):
    """A wizard calibrated and saved with `read`, at its teach step, the first throw read: (wizard, its screen)."""
    from appliance.learning import LearntDice, folder_for

    wizard = Wizard(
        tmp_path / "cal.toml",
        read=read,
        now=lambda: "2024-05-01T20:00:00",
        teach=lambda profile: LearntDice(folder_for(profile.path, profile.created)),
    )
    to_dice_step(wizard)
    for _ in range(3):  # measure, read the test throw, save
        feed(wizard, DICE, "OK")
    feed(wizard, DICE, "NEXT")
    return wizard, feed(wizard, DICE, "OK")


def test_teaching_offers_what_the_reader_took_for_no_die_and_learns_only_what_the_player_calls_a_die(tmp_path):
    """Dice the reader never learnt (numerals, say) are taken for no die: the teach step frames the rolling area's
    doubted finds marked "-" (none outside it), the player gives a die its value, a "-" is not learnt, and a
    die read can be marked "-" too."""
    from appliance.learning import LearntDice

    def read(frame, calibration):
        doubted = (
            Die("d6", 1, (300.0, 100.0, 356.0, 156.0), "roll", 0.3),
            Die("d6", 4, (400.0, 100.0, 456.0, 156.0), "outside", 0.3),
            Die("d6", 2, (500.0, 100.0, 556.0, 156.0), "roll", 0.2),
        )
        return replace(reads([5, 6])(frame, calibration), doubted=doubted)

    wizard, screen = teaching_throw(tmp_path, read)
    assert [o.label for o in screen.overlays if o.kind in ("die", "selected")] == ["5", "6", "-", "-"]
    assert "took for no die" in screen.message
    # the first doubted find is a 3; the second stays no die; the six read is no die either
    screen = feed(wizard, DICE, "NEXT", "NEXT", "NEXT long", "NEXT long", "NEXT long", "PREV", "NEXT long")
    assert [o.label for o in screen.overlays if o.kind in ("die", "selected")] == ["5", "-", "3", "-"]
    screen = feed(wizard, DICE, "OK")
    assert screen.message.startswith("Learnt 2 dice (2 in all).")
    kept = LearntDice(tmp_path / "cal.learnt" / "2024-05-01T20-00-00").learnt.counts()
    assert kept == {"d6": {1: 0, 2: 0, 3: 1, 4: 0, 5: 1, 6: 0}}
    screen = feed(wizard, DICE, "OK")  # the next throw: all marked no die, nothing to learn
    screen = feed(wizard, DICE, "NEXT long", "NEXT long", "NEXT", "NEXT long", "OK")
    assert screen.problem and "Every frame is marked -" in screen.message


def test_teaching_offers_a_die_the_reader_took_for_a_ten_sided_one_as_a_six_sided_die_to_give_its_value(tmp_path):
    """The ten-sided reader reads a six-sided die with numerals as one of its own; the dice taught are six-sided, so
    the teach step offers it as a six-sided die: of the value it read where a six-sided die shows it (a 5; asked, the
    table learns its dice from the players), else framed marked "-" like a find taken for no die (an 8). The values
    the player gives them are learnt as six-sided dice's."""
    from appliance.learning import LearntDice

    def read(frame, calibration):
        reading = reads([5, 6])(frame, calibration)
        tens = (
            Die("d10", 5, (300.0, 100.0, 356.0, 156.0), "roll", 0.97),
            Die("d10", 8, (400.0, 100.0, 456.0, 156.0), "roll", 0.97),
        )
        return replace(reading, dice=(*reading.dice, *tens))

    wizard, screen = teaching_throw(tmp_path, read)
    assert [o.label for o in screen.overlays if o.kind in ("die", "selected")] == ["5", "6", "5?", "-"]
    assert "a die of another kind" in screen.message
    screen = feed(wizard, DICE, "NEXT", "NEXT", "NEXT", *["NEXT long"] * 5, "OK")
    assert screen.message.startswith("Learnt 4 dice (4 in all).")
    kept = LearntDice(tmp_path / "cal.learnt" / "2024-05-01T20-00-00").learnt.counts()
    assert kept == {"d6": {1: 0, 2: 0, 3: 0, 4: 0, 5: 3, 6: 1}}


def test_without_a_place_for_learnt_dice_the_wizard_ends_at_calibrated(tmp_path):
    wizard = Wizard(tmp_path / "cal.toml", read=reads([1, 2]))
    to_dice_step(wizard)
    for _ in range(3):
        screen = feed(wizard, DICE, "OK")
    assert screen.step == "done" and NEXT not in screen.buttons and (screen.number, screen.steps) == (7, 7)
