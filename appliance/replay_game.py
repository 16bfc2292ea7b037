"""Replaying a recorded game: its frames through rest detection and the reader, its presses through
the buttons, exactly as on the appliance but as fast as the machine goes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from appliance import assemble
from appliance.base.errors import DiceTableError
from appliance.event_log import EventLog
from appliance.final_sheet import final_sheet
from appliance.main_loop import Output
from appliance.settings import default_settings, player_names
from appliance.table import Table
from appliance.words import count, plainly
from vision.labels import box_holds, labeled_die


class ReplayError(DiceTableError, ValueError):
    pass


def replay_game(
    folder: Path,
    log_path: Path,
    screens: Path | None = None,
    read=None,
    output: Output | None = None,
    realtime: bool = False,
    keep_going=lambda: True,
    first_frame: int = 0,
    after_frame: Callable[[int], None] | None = None,
    recorder=None,
) -> tuple[dict, Table]:
    """(the final sheet, the table) after playing `folder`. Screens go to `output`, or as PNGs to
    `screens`; `realtime` keeps the recorded pace; `read` replaces the reader (tests only).

    A log that holds an open game resumes it from `first_frame` (the frames before it were seen by
    the run that stopped); `after_frame(i)` is called once frame i is processed (to stop a run).
    """
    from hardware.replay import RecordingError, ReplaySource, load_recording

    labels_file = Path(folder) / "labels.json"
    try:
        labels = json.loads(labels_file.read_text())
    except (OSError, ValueError, RecursionError) as error:  # RecursionError: JSON nested too deeply
        raise ReplayError(f"{folder} is not a recorded game ({plainly(error)})") from None
    spec = _game(labels, labels_file)  # before the frames: a set of stills has none, and is no game
    try:
        recording = load_recording(folder, labels)
    except RecordingError as error:
        raise ReplayError(f"{folder} is not a recorded game: cannot replay: {error}") from None
    missing = recording.missing_frames()
    if missing:  # playing on would read nothing at those frames and print an empty sheet
        raise ReplayError(
            f"{folder}: {len(missing)} of the {count(len(recording.frames), 'frame')} listed in "
            f"labels.json {'is' if len(missing) == 1 else 'are'} missing (the first: {missing[0]})"
        )
    _check_script(labels, labels_file)
    calibration, problem = assemble.recording_calibration(recording)
    if problem:
        raise ReplayError(problem)
    table = Table(EventLog(log_path), variants={spec["game"]: spec.get("variants", {})})
    if table.record is None:
        table.start(spec["game"], spec["players"])
        if table.record is None:  # refused (a variant, the number of players): the screen says why
            raise ReplayError(f"{labels_file}: the game cannot start: {table.message}")
    if output is None and screens:
        from appliance.screens.layout import LAYOUTS
        from hardware.display import open_display

        output = Output(open_display("dummy", LAYOUTS["touchscreen"].size), LAYOUTS["touchscreen"], screens, flip=False)
    settings = default_settings()  # played as a table with the built-in settings would play it
    source = ReplaySource(recording, realtime=realtime, small_size=settings.camera.small_size)
    app = assemble.appliance(settings, source, None, table, output or Output(), calibration)
    if read is not None:
        app.read = lambda frame, kind: read(frame)
    app.read = with_misreads(app.read, labels, frame_index=lambda: first_frame + app.frames - 1)
    app.recorder = recorder
    for _ in range(first_frame):
        source.read()
    app.panel = assemble.scripted_presses(labels, clock=lambda: app.t, first_frame=first_frame)
    index = first_frame - 1

    def going() -> bool:
        nonlocal index
        if after_frame and index >= first_frame:
            after_frame(index)
        index += 1
        return keep_going()

    app.run(going)
    if source.unreadable:  # playing on without them has left out throws: the sheet would be wrong
        raise ReplayError(
            f"{folder}: {count(len(source.unreadable), 'frame is', 'frames are')} no image (the first: "
            f"{min(source.unreadable)}), so this recording cannot be played"
        )
    for press in app.panel.poll():  # presses timed after the last frame
        table.press(press)
    app.output.show(table.screen())
    if screens and app.output.write_error:  # the screens asked for are not all there
        raise ReplayError(app.output.write_error)
    return final_sheet(spec["game"], table.game), table


def _game(labels, labels_file: Path) -> dict:
    """The recorded game's {"game", "players", "variants"}, checked before a table is set up with it."""
    from appliance.games import GAME_IDS

    spec = labels.get("game") if isinstance(labels, dict) else None
    if spec is None:
        raise ReplayError(
            f"{labels_file} names no game: this is a set of labeled stills or throws, not a recorded game"
        )
    game = spec.get("game") if isinstance(spec, dict) else None
    if game not in GAME_IDS:
        raise ReplayError(f"{labels_file}: unknown game {game!r}; the games are {', '.join(GAME_IDS)}")
    rule = player_names()
    try:
        rule.check(spec.get("players"))
    except ValueError:
        raise ReplayError(
            f'{labels_file}: the game\'s "players" must be {rule.allowed}, such as ["Ann", "Bob"]'
        ) from None
    return spec


def _check_script(labels: dict, labels_file: Path) -> None:
    """The recording's presses and misreads (docs/RECORDINGS.md), checked before it plays: a damaged one
    would otherwise stop the replay halfway with a traceback."""
    from hardware.buttons import Press

    frames, images = len(labels.get("frames") or ()), labels.get("images") or []
    try:
        for press in labels.get("presses", []):
            if not (isinstance(press["frame"], int) and -1 <= press["frame"] < frames):
                raise ValueError(f"press at frame {press['frame']!r}, which is not one of its {frames} frames")
            Press.parse(press["press"])
        for misread in labels.get("misreads", []):
            labeled = images[misread["image"]]
            _rest_span(labeled)
            labeled_die(labeled["dice"][misread["die"]])  # the labeled die it names is there, and is one
            if not isinstance(misread["read_as"], int):
                raise ValueError(f"read_as {misread['read_as']!r} is no die value")
        if not isinstance(labels["game"].get("variants", {}), dict):
            raise ValueError('"variants" must be a table of variant: value')
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise ReplayError(f"{labels_file}: its script is damaged ({plainly(error)})") from None


def _rest_span(labeled: dict) -> tuple[int, int]:
    """The frames a labeled rest spans: its rest_frames, else its one frame."""
    span = labeled["rest_frames"] if "rest_frames" in labeled else [labeled["frame"]] * 2
    if not (isinstance(span, (list, tuple)) and len(span) == 2 and all(isinstance(i, int) for i in span)):
        raise ValueError(f"rest at frames {span!r}, which are not [first, last] frame numbers")
    return span[0], span[1]


def with_misreads(read, labels: dict, frame_index: Callable[[], int]):
    """The reader, with the recording's scripted misreads applied: at a rest listed in `misreads`,
    the die read inside that labeled die's box is given the `read_as` value, so the recorded
    correction presses always have a misread to correct, whatever the reader does."""
    misreads = labels.get("misreads", [])
    if not misreads:
        return read
    images = labels.get("images", [])

    def reading(frame, kind="d6"):
        result = read(frame, kind)
        index = frame_index()
        for misread in misreads:
            labeled = images[misread["image"]]  # the index of the labeled rest
            first, last = _rest_span(labeled)
            if first <= index <= last:
                box = labeled_die(labeled["dice"][misread["die"]]).box
                dice = tuple(
                    replace(d, value=misread["read_as"]) if box_holds(box, *d.centre) else d for d in result.dice
                )
                result = replace(result, dice=dice)
        return result

    return reading
