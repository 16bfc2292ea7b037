"""The table's commands as a person runs them: a demo without hardware, a replay, clear errors."""

import json
import tempfile

from appliance.cli import main
from hardware.buttons import Press
from tests.support import FIXTURES

THROWS = FIXTURES / "throws"


def test_demo_headless_writes_the_screens(tmp_path, capsys):
    assert (
        main(["demo", "--headless", str(tmp_path / "screens"), "--recording", str(THROWS / "misread-corrected")]) == 0
    )
    out = capsys.readouterr().out
    shots = sorted((tmp_path / "screens").glob("0*.png"))
    assert len(shots) > 5 and f"{len(shots)} screens written" in out
    assert "misread-corrected: dice-poker" in out
    names = [png.name for png in shots]  # named by what they show, the tour's screens after the game's
    assert names[0] == "0001-dice-poker-ann-throw-all-5-dice.png"
    for shown in ("check-the-dice", "names-player", "choose-the-field", "menu", "set-aside", "game-over"):
        assert any(shown in name for name in names), shown


def test_the_demo_without_a_screen_replaces_its_last_screens(tmp_path, capsys, monkeypatch):
    """Each run without a screen once left 20 MB of PNGs in a new temporary folder."""
    settings = tmp_path / "settings.toml"
    settings.write_text('[display]\nmode = "dummy"\n')
    monkeypatch.setenv("DICETABLE_SETTINGS", str(settings))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    folder = tmp_path / ".cache/dicetable/demo-screens"
    counts = []
    for _ in range(2):
        assert main(["demo", "--fast", "--recording", str(THROWS / "misread-corrected")]) == 0
        assert f"the screens are written to {folder}" in capsys.readouterr().out
        counts.append(len(list(folder.glob("*.png"))))
    assert counts[0] == counts[1] > 5
    assert not [p for p in (tmp_path / "tmp").iterdir() if p.name.startswith("dicetable-")]


def test_escape_closes_the_demo_window():
    """The demo's presses are scripted, so no panel asked for key events: Escape never reached it."""
    import pygame

    from hardware.display import open_display, window_open

    open_display("dummy", (320, 200))
    assert window_open(escape_closes=True)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
    assert not window_open(escape_closes=True)
    pygame.display.quit()


def test_replay_prints_the_final_sheet_as_json(capsys):
    assert main(["replay", str(THROWS / "misread-corrected"), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["game"] == "dice-poker" and [p["name"] for p in sheet["players"]] == ["Ann"]
    assert set(sheet["players"][0]) >= {"name", "entries", "bonuses", "total"}


def test_replay_of_a_folder_that_is_no_recording_says_so(tmp_path, capsys):
    assert main(["replay", str(tmp_path)]) == 2
    assert "is not a recorded game" in capsys.readouterr().err


def run_a_step(monkeypatch, tmp_path, log_path) -> list:
    """`dicetable run` on the replay camera with this game log, for one step of its loop; the appliances it made."""
    from appliance import assemble

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    settings = tmp_path / "settings.toml"
    settings.write_text('[display]\nmode = "dummy"\n[camera]\nsource = "replay"\n')
    real, apps = assemble.appliance, []

    def briefly(*parts):
        app = real(*parts)
        app.run = lambda keep_going: app.step()
        apps.append(app)
        return app

    monkeypatch.setattr(assemble, "appliance", briefly)
    assert main(["run", "--settings", str(settings), "--log", str(log_path)]) == 0
    return apps


def test_run_without_a_writable_log_says_why_on_screen_and_starts_no_game(tmp_path, capsys, monkeypatch):
    """Exiting would only have systemd start the table again and again (a crash loop, then a black screen)."""
    (tmp_path / "blocked").write_text("a file where the log's folder should be")
    apps = run_a_step(monkeypatch, tmp_path, tmp_path / "blocked" / "games.sqlite")
    table = apps[0].table
    assert "cannot open the game log" in table.message and "no game can be kept" in table.message
    assert "cannot open the game log" in capsys.readouterr().out  # the journal has it too
    table.press(Press("OK"))  # the game chosen
    table.press(Press("OK"))  # the players: it does not start
    assert table.record is None and "the game cannot be kept, so it does not start" in table.message


def test_evaluate_stream_measures_recorded_throws_without_a_reader(capsys):
    assert main(["evaluate", str(THROWS / "misread-corrected"), "--stream", "--no-reader", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["folders"] == 1 and figures["rests"] >= 1
    assert figures["rests_detected"] == figures["rests"] and figures["readings_while_moving"] == 0
    assert figures["rest_latency_frames"]["max"] <= 5  # issue 5: rest within 5 frames at 30 fps
    assert figures["reader"] == "none" and figures["zone_errors"] is None


def test_evaluate_stream_names_the_packaged_reader(capsys):
    """Which reader read the rests, in words a user knows: the packaged one (or "none", with --no-reader)."""
    assert main(["evaluate", str(THROWS / "misread-corrected"), "--stream", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["reader"] == "packaged" and figures["zone_errors"] == 0 and figures["labeled_dice"] == 5
    trust = (figures["right"], figures["asked"], figures["silent"], figures["sure_phantoms"])
    assert sum(trust[:3]) <= 5 and trust[1:] == (0, 0, 0), figures  # the recorded throws read without asking
    assert figures["right_rate"] == round(figures["right"] / 5, 4)


def test_evaluate_stream_without_a_reader_has_no_trust_figures(capsys):
    assert main(["evaluate", str(THROWS / "misread-corrected"), "--stream", "--no-reader", "--json"]) == 0
    assert "right" not in json.loads(capsys.readouterr().out)


def test_evaluate_stream_leads_with_the_trust_figures(capsys):
    assert main(["evaluate", str(THROWS / "misread-corrected"), "--stream"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("of 5 labeled dice: ") and "read wrong without asking" in first, first


def test_rules_with_frequencies_and_optimum_prints_one_json_document(capsys):
    """Both options with --json: one object holding each option's document as it prints alone."""
    assert main(["rules", "pentakubus", "--frequencies", "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert main(["rules", "pentakubus", "--optimum", "--json"]) == 0
    best = json.loads(capsys.readouterr().out)
    assert main(["rules", "pentakubus", "--frequencies", "--optimum", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out) == {"frequencies": counts, "optimum": best}
    assert set(counts) == {str(n) for n in range(13, 25)} and best["game"] == "pentakubus"


def test_run_without_a_screen_keeps_only_its_latest_screen(tmp_path, capsys, monkeypatch):
    """Left running headless overnight, the table must not fill the SD card with screenshots."""
    from appliance import assemble

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f'[display]\nmode = "dummy"\n[camera]\nsource = "replay"\nreplay_folder = "{THROWS / "misread-corrected"}"\n'
    )
    real, tables = assemble.appliance, []

    def briefly(*parts):
        app = real(*parts)
        app.run = lambda keep_going: [app.step() for _ in range(45)]  # a second and a half of camera time
        tables.append(app)
        return app

    monkeypatch.setattr(assemble, "appliance", briefly)
    assert main(["run", "--settings", str(settings), "--log", str(tmp_path / "games.sqlite")]) == 0
    [app] = tables
    folder = app.output.png_dir
    assert list(folder.iterdir()) == [folder / "screen.png"]  # redrawn several times, one file
    assert f"the latest screen is written to {folder / 'screen.png'}" in capsys.readouterr().out


def test_run_on_a_damaged_log_keeps_it_and_starts_a_new_one(tmp_path, capsys, monkeypatch):
    """A game log the SD card damaged must not stop the table (systemd would restart it until it gives up,
    leaving a black screen): the file is kept beside a new log and the screen says so."""
    damaged = b"SQLite format 3\x00" + bytes(range(256)) * 16
    (tmp_path / "games.sqlite").write_bytes(damaged)
    apps = run_a_step(monkeypatch, tmp_path, tmp_path / "games.sqlite")
    [kept] = tmp_path.glob("games.damaged-*.sqlite")
    assert kept.read_bytes() == damaged
    assert f"the game log {tmp_path / 'games.sqlite'} is damaged" in apps[0].table.message
    assert f"the damaged one is kept as {kept.name}" in apps[0].table.message
    assert main(["history", "--log", str(tmp_path / "games.sqlite")]) == 0  # the new log works
    assert main(["history", "--log", str(kept)]) == 1
    assert f"the game log {kept} is damaged" in capsys.readouterr().err


def test_the_log_options_name_the_log_the_table_keeps(capsys):
    """--log's help names the log the table opens when none is given."""
    import pytest

    from appliance.event_log import DEFAULT_LOG

    for command in ("run", "record", "history"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert f"the game log (default: {DEFAULT_LOG})" in " ".join(capsys.readouterr().out.split()), command
