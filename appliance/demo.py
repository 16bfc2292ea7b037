"""The demo (`dicetable demo`): the whole appliance without hardware, on recorded games with scripted presses,
then a tour of every other kind of screen."""

from __future__ import annotations

import sys
import tempfile
from functools import partial
from pathlib import Path

DEMO_SCREENS = Path("~/.cache/dicetable/demo-screens")  # without a screen: each run's PNGs, the last run's replaced
TOUR_S = 3.0  # in a window, each screen of the tour stays this long


def fresh_folder(folder: Path) -> Path:
    """`folder` (~ expanded), made if missing, with the PNGs an earlier run left there removed."""
    folder = folder.expanduser()
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder


def tour(output, pause_s: float, playing) -> None:
    """Every screen of the gallery (appliance/gallery.py), which the recorded games do not all reach, each for
    `pause_s` while the window stays open."""
    from appliance.gallery import PICTURES, SCREENS

    for name, build in SCREENS.items():
        table = build()
        output.show(table.screen(), PICTURES[name]() if name in PICTURES else None)
        table.log.close()
        if not paused(pause_s, playing):
            return


def paused(seconds: float, playing) -> bool:
    """Wait `seconds` (the screen stays as it is) unless the window is closed first; whether it is still open."""
    import time

    until = time.monotonic() + seconds
    while playing() and time.monotonic() < until:
        time.sleep(0.05)
    return playing()


def play_demo(recordings: list[Path] | None = None, headless: Path | None = None, fast: bool = False) -> int:
    """`recordings` (default: the project's demo games) played through the appliance, then the tour; in a window,
    or with `headless` (or no screen) as PNG files; `fast`: as fast as possible. The exit status."""
    from appliance.assemble import demo_recordings, open_output
    from appliance.replay_game import ReplayError, replay_game
    from appliance.settings import load_settings
    from hardware.display import choose_mode, window_open

    recordings = recordings or demo_recordings()
    if not recordings:
        print("dicetable demo: no recorded games found (tests/fixtures/throws in the repository)", file=sys.stderr)
        return 2
    settings, warnings = load_settings()
    notes: list[str] = []
    folder = headless
    if folder is None and choose_mode(settings.display.mode) == "dummy":  # no screen: PNGs where the last run's were
        folder = fresh_folder(DEMO_SCREENS)
        notes.append(f"no screen here: the screens are written to {folder} (the last demo's are replaced)")
    output = open_output(settings, folder, notes)
    for note in warnings + notes:
        print(note)
    # until the window is closed or Escape pressed (polled every frame, which keeps the window answering)
    playing = partial(window_open, escape_closes=True) if output.flip else (lambda: True)
    failed = 0
    for folder in recordings:
        try:
            with tempfile.TemporaryDirectory(prefix="dicetable-demo-") as scratch:  # the demo keeps no history
                sheet, table = replay_game(
                    folder,
                    Path(scratch) / "games.sqlite",
                    output=output,
                    realtime=not (fast or headless),
                    keep_going=playing,
                )
                table.log.close()
        except ReplayError as error:  # said, and the other recordings still play
            print(f"dicetable demo: {error}", file=sys.stderr)
            failed += 1
            continue
        totals = ", ".join(f"{p['name']} {p['total']}" for p in sheet["players"])
        print(f"{folder.name}: {sheet['game']}: {totals}")
        if not paused(0 if (fast or headless) else TOUR_S, playing):  # the game's last screen, a while
            break
    if playing():
        tour(output, 0 if (fast or headless) else TOUR_S, playing)
    if output.png_dir:
        print(f"{len(output.saved)} screens written to {output.png_dir}")
    return 2 if failed else 1 if output.write_error else 0
