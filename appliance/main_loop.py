"""The appliance's loop: a frame from the camera, rest detection, a reading when the dice rest,
the buttons, then the screen. One pass per frame, so the systemd watchdog is fed per frame."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from appliance.screen_model import Picture, Screen
from appliance.table import Table
from calibration.profile import size_problem
from hardware.frame_source import ENDED, FrameSource
from vision.types import Reading, RestState


class Panel(Protocol):
    def poll(self) -> list: ...

    def close(self) -> None: ...


class Rest(Protocol):
    def update(self, frame: np.ndarray, full_frame: np.ndarray | None = None) -> RestState: ...


LATEST_SCREEN = "screen.png"  # the one PNG of an Output that keeps only the latest screen
LOOK_FOR_SCREEN_S = 10.0  # a screen that was missing at start (a TV still off) is looked for this often


class Output:
    """Where screens go: the display, PNG files, or both. Draws only when the screen changed.
    PNGs are numbered and named by what they show, one per screen (the demo's), or with `latest_only` one file
    written over each time (a table left running without a screen must not fill the SD card)."""

    def __init__(
        self,
        surface=None,
        layout=None,
        png_dir: Path | None = None,
        flip: bool = True,
        latest_only: bool = False,
        look_for_screen: Callable[[], tuple] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        """`look_for_screen`, when the screen could not be opened and PNGs stand in for it: tries again and
        returns (surface, layout, why it is still missing or ""); until found, the surface is the stand-in's."""
        self.surface, self.layout, self.flip, self.latest_only = surface, layout, flip, latest_only
        self.png_dir = Path(png_dir) if png_dir else None
        self.look_for_screen, self.clock = look_for_screen, clock
        self.next_look = clock() + LOOK_FOR_SCREEN_S
        self.last: Screen | None = None
        self.last_picture: Picture | None = None
        self.saved: list[Path] = []
        self.write_error = ""  # why the PNGs stopped, if they did
        if self.png_dir:
            self.png_dir.mkdir(parents=True, exist_ok=True)

    def screen_surface(self):
        """The surface to draw on: the screen's, once a screen missing at the start is found."""
        if self.look_for_screen and self.clock() >= self.next_look:
            self._look_for_screen()
        return self.surface

    def show(self, screen: Screen, picture: Picture | None = None) -> None:
        if self.screen_surface() is None or (screen == self.last and picture is self.last_picture):
            return
        from appliance.screens import png
        from appliance.screens.render import render
        from hardware import display

        self.last, self.last_picture = screen, picture
        render(self.surface, screen, self.layout, picture)
        if self.flip:
            display.flip()
        if self.png_dir:
            if self.latest_only:  # one file, written over: only it is kept
                self.saved.clear()
            path = self.png_dir / (LATEST_SCREEN if self.latest_only else png_name(len(self.saved) + 1, screen))
            try:
                png.save(self.surface, path)
            except OSError as error:  # a full or read-only disk: the game goes on without PNGs
                self.write_error = f"cannot write the screens to {self.png_dir} ({error}): no more are written"
                print(f"dicetable: {self.write_error}", file=sys.stderr)
                self.png_dir = None
                return
            self.saved.append(path)

    def _look_for_screen(self) -> None:
        self.next_look = self.clock() + LOOK_FOR_SCREEN_S
        self.surface, self.layout, problem = self.look_for_screen()
        self.last = None  # drawn again, on whichever surface there is now
        if not problem:  # found: the table shows there from now on, and the PNG stand-in stops
            self.look_for_screen, self.png_dir = None, None


def png_name(number: int, screen: Screen) -> str:
    """A screen's PNG named by what it shows, numbered in order: "0007-pentakubus-ann-check-the-dice.png"."""
    words = re.sub(r"[^a-z0-9]+", "-", f"{screen.title} {screen.prompt}".lower()).strip("-")
    return f"{number:04d}-{words[:60].rstrip('-') or screen.kind}.png"


PLAYING = "camera and display up"  # systemd's status line while all is well


@dataclass
class Appliance:
    source: FrameSource
    panel: Panel
    table: Table
    read: Callable[[np.ndarray, str], Reading]  # (frame, the kind of dice the game is played with)
    rest: Rest
    output: Output = field(default_factory=Output)
    watchdog: Callable[[], None] = lambda: None  # systemd's WATCHDOG=1, once per processed frame
    status: Callable[[str], object] = lambda text: None  # systemd's STATUS=, when the camera is lost or back
    recorder: Any = None  # appliance.recording.Recorder: the stream, and each confirmed reading as labels
    learnt: Any = None  # appliance.learning.LearntDice: each confirmed reading teaches the reader the dice in use
    frames: int = 0
    t: float = 0.0  # the latest frame's time: scripted presses of a recording are timed by it
    picture: Picture | None = None  # shown beside the sheet
    picture_t: float = float("-inf")
    picture_every_s: float = 0.2  # the live picture is refreshed this often: drawing costs more than reading a frame
    wait: Callable[[float], None] = time.sleep  # after a pass that got no frame (tests: a fake)
    frame_interval_s: float = 1 / 30  # how long it waits: about one frame of the camera
    frame_size: tuple[int, int] | None = None  # (width, height) the calibration was made on; None: any

    def step(self) -> bool:
        """One pass. False when the source has ended (a replay played out)."""
        frame = self.source.read()
        status = self.source.status
        problem = "" if status.ok else status.message
        if frame is not None and (mismatch := self._size_problem(frame.image)):
            problem, frame = mismatch, None
        if problem != self.table.camera_note:  # `systemctl status dicetable` tells the admin too
            self.status(problem or PLAYING)
        self.table.camera(problem)
        if status.ok and status.unread:  # dice may have come to rest and gone unseen: a throw never read
            self.table.notice(f"the camera lost frames ({status.message}): if your dice were not read, throw again")
        if frame is not None:
            self.frames += 1
            self.t = frame.t
            index = self._recording(lambda: self.recorder.frame(frame.image, frame.t))
            state = self.rest.update(frame.small, frame.image)
            self.table.tray(state.state)
            if state.read_now:
                reading = self.read(state.frame, self.table.dice_kind)
                self.table.on_confirm = self._confirmed(state.frame, index)
                self.table.reading(reading)
                self.picture, self.picture_t = Picture.read(state.frame, reading), frame.t
            elif self.table.review is None and frame.t - self.picture_t >= self.picture_every_s:
                self.picture, self.picture_t = Picture(frame.image), frame.t  # live, unless a reading is checked
        for press in self.panel.poll():
            playing = self.table.record is not None
            self.table.press(press)
            if self.recorder and playing:  # the menus before a game are not part of its recording
                self.recorder.press(press)
        if self.learnt is not None:
            self._learning_failures()
        if self.recorder and self.recorder.game is None and self.table.record:
            record = self.table.record
            self.recorder.game = {"game": record.game, "players": list(record.players), "variants": record.variants}
        self.output.show(self.table.screen(), self.picture)
        self.watchdog()
        if frame is not None:
            return True
        if status.state == ENDED:
            return False
        self.wait(self.frame_interval_s)  # a lost camera answers at once: without this the loop spins a core
        return True

    def _confirmed(self, frame: np.ndarray, index: int | None) -> Callable:
        """What the player's confirmation of a reading of `frame` does: labels the recorded frame `index`, and
        teaches the learnt dice."""

        def confirmed(dice, values, attempt):
            if index is not None:
                self._recording(lambda: self.recorder.confirmed(index, dice, values, attempt))
            if self.learnt is not None:  # learnt by a worker thread while the game goes on
                self.learnt.meanwhile(frame, dice, values)

        return confirmed

    def _learning_failures(self) -> None:
        """Say what went wrong learning the throws confirmed (the card full or gone: the reader keeps what it
        learnt, the game goes on)."""
        for problem in self.learnt.failures():
            self.table.notice(f"{problem}; the game goes on")
            print(f"dicetable: {problem}", file=sys.stderr)

    def _recording(self, write: Callable[[], Any]) -> Any:
        """A write of the recorder, if one runs. One that fails (a full disk) ends the recording, not the game."""
        if self.recorder is None:
            return None
        try:
            return write()
        except OSError as error:
            self.recorder = None
            self.table.notice(f"recording stopped ({error}); the game goes on")
            print(f"dicetable: recording stopped: {error}", file=sys.stderr)
            return None

    def _size_problem(self, image: np.ndarray) -> str:
        if self.frame_size is None:
            return ""
        height, width = image.shape[:2]
        return size_problem(self.frame_size, (width, height))

    def run(self, keep_going: Callable[[], bool] = lambda: True) -> None:
        try:
            while keep_going() and self.step():
                pass
        finally:
            if self.learnt is not None:  # the throws confirmed last are kept before the program ends
                self.learnt.settle()
                self._learning_failures()
