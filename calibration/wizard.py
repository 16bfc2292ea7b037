"""The calibration wizard as a step machine: fed camera frames and button presses, it answers with a
WizardScreen (title, instruction, message, button legend, outlines to draw over the picture) and in the
end saves a profile. No camera, screen or GPIO in here: appliance/wizard_loop.py runs it on a live camera
(appliance/screens/wizard.py draws its screens) and the tests on rendered frames.

One module over 400 lines: the steps share one state (the outline and its corners, the empty tray, the
die size, the reading), and each step's presses, instruction, buttons and outlines read it; apart, each part
would reach into the others' state.

Steps: find the tray -> nudge its corners -> lock exposure and white balance -> learn the empty tray ->
measure the die size -> check a test throw -> saved -> (optional) teach your dice. BACK goes one step back,
BACK held leaves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from calibration.find import DieSize, FindError, TrayOutline, find_tray, measure_die_size
from calibration.profile import Exposure, Profile, convex, save_profile
from hardware.buttons import BACK, NEXT, OK, PREV, Press

STEPS = ("find", "nudge", "lock", "empty", "dice", "check", "done", "teach")
TITLES = {
    "find": "Find the tray",
    "nudge": "Adjust the corners",
    "lock": "Lock the exposure",
    "empty": "Learn the empty tray",
    "dice": "Measure the dice",
    "check": "Test throw",
    "done": "Calibrated",
    "teach": "Teach your dice",
}
NUDGE_PX = (2.0, 16.0)  # a short and a long press move a corner this far (frame pixels)
EMPTY_FRAMES = 8  # frames averaged (median) into the empty-tray picture
STILL_LEVEL = 30  # grey-level change of a pixel from the frames' median that is not noise
STILL_AREA = 0.0005  # share of such pixels in any frame above which something moved (a small die)
FIND_EVERY = 5  # look for the tray on every n-th frame (it takes a while on a Pi)
NO_DIE = 0  # teach: the value a player gives what is not a die (shown "-"); a die's values follow it, 1..6


@dataclass(frozen=True)
class Overlay:
    points: tuple  # ((x, y), ...) in frame pixels; one point: a marker
    kind: str  # "tray", "keep", "die", "handle", "selected"
    label: str = ""


@dataclass(frozen=True)
class WizardScreen:
    step: str
    number: int  # 1-based step number, of `steps`
    steps: int
    title: str
    instruction: str
    message: str  # a result or a problem to show prominently; "" for none
    problem: bool  # the message is a problem (drawn in warning colour)
    buttons: Mapping[str, str]  # button -> what it does now
    overlays: tuple
    frame: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass
class _Corners:
    """The tray's four corners and the keep zone's (sharing two with the tray), as movable handles."""

    tray: np.ndarray
    keep: np.ndarray | None

    def handles(self) -> list[tuple[str, int]]:
        """Tray corners, then the keep zone's corners that are not tray corners."""
        own = [] if self.keep is None else [("keep", i) for i, p in enumerate(self.keep) if not self._shared(p)]
        return [("tray", i) for i in range(4)] + own

    def point(self, handle) -> np.ndarray:
        polygon, i = handle
        return (self.tray if polygon == "tray" else self.keep)[i]

    def move(self, handle, dx: float, dy: float) -> _Corners:
        polygon, i = handle
        tray, keep = self.tray.copy(), None if self.keep is None else self.keep.copy()
        if polygon == "tray":
            if keep is not None:  # a keep corner on this tray corner goes with it
                keep[np.all(np.abs(keep - tray[i]) < 0.5, axis=1)] += (dx, dy)
            tray[i] += (dx, dy)
        else:
            keep[i] += (dx, dy)
        return _Corners(tray, keep)

    def _shared(self, p) -> bool:
        return bool(np.any(np.all(np.abs(self.tray - p) < 0.5, axis=1)))


class Wizard:
    """wizard = Wizard(profile_path); screen = wizard.feed(frame, presses, metadata) on every frame.

    read(frame, calibration) -> Reading reads the test throw (default: vision.read). When the wizard
    wants the camera reopened with locked exposure, take_camera_request() returns the Exposure once.
    `wants_dice` says whether the current step asks for dice on the felt. finished / cancelled end it;
    `profile` holds what was saved. `teach(profile)`, if given, offers the last step: the dice learnt with the
    saved profile (appliance.learning.LearntDice: adapt, confirmed, count), taught by throwing and confirming."""

    def __init__(
        self,
        profile_path: str | Path,
        read: Callable | None = None,
        now: Callable[[], str] = lambda: time.strftime("%Y-%m-%dT%H:%M:%S"),
        find_every: int = FIND_EVERY,
        teach: Callable | None = None,
    ):
        self.profile_path = Path(profile_path).expanduser()
        self._teach, self._learnt = teach, None
        self._steps = STEPS if teach else STEPS[:-1]
        self._values: list[int] = []  # teach: the values shown for the dice read, as the player sets them
        self._cursor = 0
        self._sure: dict[int, float] = {}  # teach: each face, how surely the table read it after it was taught
        self._read = read
        self._now = now
        self._find_every = find_every
        self.step = "find"
        self.finished = self.cancelled = False
        self.profile: Profile | None = None
        self._message, self._problem = "", False
        self._frames = 0
        self._size: tuple[int, int] | None = None
        self._image: np.ndarray | None = None
        self._outline: TrayOutline | None = None
        self._corners: _Corners | None = None
        self._handle, self._axis = 0, 0
        self._metadata: list[Mapping] = []
        self._exposure: Exposure | None = None
        self._camera_request: Exposure | None = None
        self._learning: list[np.ndarray] | None = None
        self._empty: np.ndarray | None = None
        self._die: DieSize | None = None
        self._reading = None
        self._read_as = None  # teach: the throw as read before what was learnt of it

    # -- what the runner uses -------------------------------------------------------------------------
    @property
    def wants_dice(self) -> bool:
        return self.step in ("dice", "check", "teach")

    def take_camera_request(self) -> Exposure | None:
        request, self._camera_request = self._camera_request, None
        return request

    def feed(self, image: np.ndarray | None, presses=(), metadata: Mapping | None = None) -> WizardScreen:
        if image is not None:
            self._take_frame(image, metadata)
        for press in presses:
            if self.finished or self.cancelled:
                break
            self._press(press if isinstance(press, Press) else Press.parse(press))
        return self.screen()

    # -- frames ---------------------------------------------------------------------------------------
    def _take_frame(self, image: np.ndarray, metadata: Mapping | None) -> None:
        size = (image.shape[1], image.shape[0])
        if self._size is not None and size != self._size and self.step not in ("find", "done"):
            self._restart(
                f"The camera's picture size changed ({self._size[0]}x{self._size[1]} to "
                f"{size[0]}x{size[1]}): starting again."
            )
        self._size = size
        self._image = image
        self._frames += 1
        if metadata:
            self._metadata = (self._metadata + [metadata])[-5:]
        if self.step == "find" and (self._outline is None or self._frames % self._find_every == 1):
            self._look_for_tray(image)
        if self._learning is not None:
            self._learn(image)

    def _look_for_tray(self, image: np.ndarray) -> None:
        try:
            self._outline = find_tray(image)
        except FindError as error:
            self._outline = None
            self._say(str(error), problem=True)
            return
        o = self._outline
        if o.keep is None:
            self._say(
                "Tray found, but no keep zone: mark one along a side (see docs/SETUP.md), or OK to go on without one.",
                problem=True,
            )
        else:
            self._say(f"Tray found, keep zone along its {o.keep_side} side ({o.keep_marking} marking).")

    def _learn(self, image: np.ndarray) -> None:
        self._learning.append(image.copy())
        if len(self._learning) < EMPTY_FRAMES:
            self._say(f"Learning the empty tray... {len(self._learning)}/{EMPTY_FRAMES}")
            return
        stack = np.stack(self._learning)
        self._learning = None
        median = np.median(stack, axis=0).astype(np.uint8)
        moved = max(float((np.abs(f.astype(np.int16) - median).max(axis=2) > STILL_LEVEL).mean()) for f in stack)
        if moved > STILL_AREA:
            self._say(
                "Something moved while the empty tray was learned: keep hands away and press OK again.", problem=True
            )
            return
        self._empty = median
        self._go("dice", "Empty tray learned.")

    # -- presses --------------------------------------------------------------------------------------
    def _press(self, press: Press) -> None:
        if press.button == BACK and press.long:
            self.cancelled = True
            return
        on_press = {
            "find": self._on_find,
            "nudge": self._on_nudge,
            "lock": self._on_lock,
            "empty": self._on_empty,
            "dice": self._on_dice,
            "check": self._on_check,
            "done": self._on_done,
            "teach": self._on_teach,
        }
        on_press[self.step](press)

    def _on_find(self, press: Press) -> None:
        if press.button == OK:
            if self._outline is None:
                self._say(
                    self._message or "No tray found yet: clear the tray and point the camera at it.", problem=True
                )
                return
            self._corners = _Corners(
                self._outline.tray.copy(), None if self._outline.keep is None else self._outline.keep.copy()
            )
            self._handle, self._axis = 0, 0
            self._go("nudge")
        elif press.button == BACK:
            self._say("Hold BACK to leave without saving.", problem=True)

    def _on_nudge(self, press: Press) -> None:
        handles = self._corners.handles()
        if press.button in (PREV, NEXT):
            step = NUDGE_PX[press.long] * (1 if press.button == NEXT else -1)
            moved = self._corners.move(handles[self._handle], *((step, 0) if self._axis == 0 else (0, step)))
            if not self._fits(moved):
                self._say("That would fold the outline or leave the picture: move another corner first.", problem=True)
                return
            self._corners = moved
            self._say("")
        elif press.button == OK and press.long:
            self._go("lock")
        elif press.button == OK:
            position = self._handle * 2 + self._axis + 1
            if position == len(handles) * 2:
                self._go("lock")
            else:
                self._handle, self._axis = divmod(position, 2)
        elif press.button == BACK:
            position = self._handle * 2 + self._axis - 1
            if position < 0:
                self._go("find")
            else:
                self._handle, self._axis = divmod(position, 2)

    def _fits(self, corners: _Corners) -> bool:
        w, h = self._size
        polygons = [corners.tray] + ([] if corners.keep is None else [corners.keep])
        inside = all(((p >= 0) & (p <= (w, h))).all() for p in polygons)
        return inside and all(convex(p) for p in polygons)

    def _on_lock(self, press: Press) -> None:
        if press.button == OK:
            self._exposure = _exposure_from(self._metadata)
            if self._exposure is None:
                self._go(
                    "empty",
                    "This camera does not report its exposure: it stays automatic. Keep the room's light as it is now.",
                )
            else:
                self._camera_request = self._exposure
                e = self._exposure
                gains = f", colour gains {e.colour_gains[0]:.2f}/{e.colour_gains[1]:.2f}" if e.colour_gains else ""
                self._go("empty", f"Locked: exposure {e.exposure_us} µs, gain {e.analogue_gain:.2f}{gains}.")
        elif press.button == BACK:
            self._go("nudge")

    def _on_empty(self, press: Press) -> None:
        if press.button == OK and self._learning is None:
            self._learning = []
            self._say(f"Learning the empty tray... 0/{EMPTY_FRAMES}")
        elif press.button == BACK:
            self._learning = None
            self._go("lock")

    def _on_dice(self, press: Press) -> None:
        if press.button == OK:
            try:
                self._die = measure_die_size(self._image, self._empty, self._corners.tray)
            except FindError as error:
                self._say(str(error), problem=True)
                return
            self._reading = None
            d = self._die
            self._go("check", f"A die measures {d.px:.1f} pixels ({d.dice} dice measured).")
        elif press.button == BACK:
            self._go("empty")

    def _on_check(self, press: Press) -> None:
        if press.button == OK and press.long:
            self._save(checked=False)
        elif press.button == OK and self._reading is None:
            self._read_throw()
        elif press.button == OK:
            self._save(checked=True)
        elif press.button == NEXT:
            self._reading = None
            self._say("Throw again, then OK to read.")
        elif press.button == BACK:
            self._go("dice")

    def _on_done(self, press: Press) -> None:
        if press.button == OK:
            self.finished = True
        elif press.button == NEXT and self._teach:
            self._learnt = self._learnt or self._teach(self.profile)
            self._reading = None
            self._go("teach")

    def _on_teach(self, press: Press) -> None:
        if press.button == BACK:
            self._go("done")
        elif self._reading is None:
            if press.button == OK:
                self._read_teaching_throw()
        elif press.button in (PREV, NEXT) and press.long:  # the die under the cursor shows another value, or none
            self._values[self._cursor] = (self._values[self._cursor] + (1 if press.button == NEXT else -1)) % 7
        elif press.button in (PREV, NEXT):
            self._cursor = (self._cursor + (1 if press.button == NEXT else -1)) % len(self._values)
        elif press.button == OK:
            self._teach_throw()

    def _read_teaching_throw(self) -> None:
        read = self._read
        if read is None:
            from vision.reader import read
        self._read_as = read(self._image, self.profile.to_tray_calibration())  # before what is learnt of it
        reading = self._learnt.adapt(self._image, self._read_as, "d6")  # the dice taught are six-sided
        flat = [d for d in reading.dice if d.zone == "roll" and not d.cocked]
        dice = tuple(d for d in flat if d.kind == "d6")
        # what the reader took for no die, or for a ten-sided die (a six-sided one with numerals, say), may be a die
        # unlike any it learnt from: the player says which it is
        other = tuple(replace(d, kind="d6", value=None, confidence=0.0, probs=()) for d in flat if d.kind != "d6")
        doubted = other + tuple(d for d in reading.doubted if d.zone == "roll" and d.kind == "d6")
        if not dice and not doubted:
            self._say(
                "No flat dice read in the rolling area: throw them there and wait until they lie still.", problem=True
            )
            return
        self._reading = replace(reading, dice=dice + doubted, doubted=())
        self._values, self._cursor = [d.value for d in dice] + [NO_DIE] * len(doubted), 0
        doubts = (
            " A frame marked - is what the table took for no die or for a die of another kind: give it its value"
            " where it is one."
        )
        self._say(
            "Correct any die that is read wrong (PREV/NEXT: which die, hold: its value; - for no die; ? marks a"
            " die the table is unsure of), then OK." + (doubts if doubted else "")
        )

    def _teach_throw(self) -> None:
        chosen = [(d, v) for d, v in zip(self._reading.dice, self._values) if v != NO_DIE]
        if not chosen:
            self._say("Every frame is marked - (no die): give the dice their values, or throw again.", problem=True)
            return
        dice, values = (list(t) for t in zip(*chosen))
        try:
            self._learnt.confirmed(self._image, dice, values)
        except OSError as error:
            self._say(f"The dice could not be kept ({error}); the profile is saved.", problem=True)
            return
        again = {d.box: d for d in self._learnt.adapt(self._image, self._read_as, "d6").dice}  # with what was learnt
        for die, value in zip(dice, values):  # a find still doubted is not read at all
            now = again.get(die.box)
            self._sure[value] = now.confidence if now is not None and now.value == value else 0.0
        faces = ", ".join(f"{v}: {self._sure[v]:.0%}" if v in self._sure else f"{v}: -" for v in range(1, 7))
        self._reading = None
        short = self._learnt.to_learn()  # a die likeliest one of these keeps its reading
        still = f" Faces seen too few times to read by yet: {', '.join(map(str, short))}." if short else ""
        self._say(
            f"Learnt {len(dice)} dice ({self._learnt.count()} in all). How sure it reads each face now: "
            f"{faces}.{still} Throw again, or BACK when done."
        )

    def _read_throw(self) -> None:
        read = self._read
        if read is None:
            from vision.reader import read
        try:
            self._reading = read(self._image, self._draft(checked=False).to_tray_calibration())
        except Exception as error:  # a reader that cannot run must not end the wizard: say why
            self._say(
                f"The dice reader failed ({type(error).__name__}: {error}). Hold OK to save without a test throw.",
                problem=True,
            )
            return
        dice = self._reading.dice
        if not dice:
            self._reading = None
            self._say("No dice read: throw them into the tray and wait until they lie still.", problem=True)
            return
        by_zone: dict[str, list[str]] = {}
        for d in dice:
            by_zone.setdefault(d.zone, []).append("cocked" if d.cocked else str(d.value))
        read_out = "; ".join(f"{zone}: {' '.join(sorted(values))}" for zone, values in sorted(by_zone.items()))
        self._say(f"Read {len(dice)} dice - {read_out}. Is that what the dice show?")

    # -- saving ---------------------------------------------------------------------------------------
    def _draft(self, checked: bool) -> Profile:
        return Profile(
            frame_size=self._size,
            tray=self._corners.tray.copy(),
            die_px=self._die.px,
            empty=self._empty,
            keep=None if self._corners.keep is None else self._corners.keep.copy(),
            exposure=self._exposure,
            created=self._now(),
            checked=checked,
        )

    def _save(self, checked: bool) -> None:
        profile = self._draft(checked)
        try:
            path = save_profile(profile, self.profile_path)
        except OSError as error:
            self._say(
                f"Cannot save to {self.profile_path}: {error.strerror or error}. Check the folder, "
                "then OK to try again.",
                problem=True,
            )
            return
        self.profile = profile.with_(path=path)
        note = "" if checked else " (without a confirmed test throw)"
        self._go("done", f"Saved to {path}{note}.")

    # -- the screen -----------------------------------------------------------------------------------
    def _go(self, step: str, message: str = "") -> None:
        self.step = step
        self._say(message)

    def _say(self, message: str, problem: bool = False) -> None:
        self._message, self._problem = message, problem

    def _restart(self, message: str) -> None:
        self.step, self._outline, self._corners, self._empty, self._die = "find", None, None, None, None
        self._learning, self._reading = None, None
        self._say(message, problem=True)

    def screen(self) -> WizardScreen:
        return WizardScreen(
            self.step,
            STEPS.index(self.step) + 1,
            len(self._steps),
            TITLES[self.step],
            self._instruction(),
            self._message,
            self._problem,
            self._buttons(),
            self._overlays(),
            self._image,
        )

    def _instruction(self) -> str:
        if self.step == "nudge":
            polygon, i = self._corners.handles()[self._handle]
            name = f"{'tray' if polygon == 'tray' else 'keep-zone'} corner {i + 1}"
            then = "OK: move it up/down" if self._axis == 0 else "OK: the next corner"
            return (
                f"Move the marked {name} onto the felt's real corner: PREV/NEXT move it "
                f"{'left/right' if self._axis == 0 else 'up/down'} (hold for big steps), {then}; hold OK when "
                f"all are right."
            )
        if self.step == "check" and self._reading is not None:
            return "OK if every die is read right; NEXT to throw again; BACK to measure the dice again."
        return {
            "find": "Clear the tray. The outline shows the tray found, the keep zone shaded.",
            "lock": "Light the room as it will be during play, keep the tray empty, then lock the camera's "
            "exposure and white balance.",
            "empty": "Take everything off the tray and keep your hands away while it is learned.",
            "dice": "Lay three to six dice flat on the felt, apart from each other and from the walls.",
            "check": "Throw the dice into the tray (some into the keep zone), wait until they lie still.",
            "done": "The table will use this profile from its next start."
            + (" Optionally, teach it your dice: NEXT." if self._teach else ""),
            "teach": "Throw all the dice into the rolling area, wait until they lie still, then OK to read them.",
        }[self.step]

    def _buttons(self) -> dict:
        if self.step == "nudge":
            ok = "up/down" if self._axis == 0 else "next corner"  # each corner: left/right, then up/down
            return {PREV: "-", NEXT: "+", OK: f"{ok} (hold: done)", BACK: "previous"}
        if self.step == "check":
            if self._reading is None:
                return {OK: "read (hold: save untested)", BACK: "back"}
            return {OK: "right: save", NEXT: "throw again", BACK: "back"}
        if self.step == "teach":
            if self._reading is None:
                return {OK: "read", BACK: "done"}
            return {PREV: "die (hold: value -)", NEXT: "die (hold: value +)", OK: "teach", BACK: "done"}
        if self.step == "done" and self._teach:
            return {OK: "finish", NEXT: "teach your dice"}
        return {
            "find": {OK: "use this tray", BACK: "hold: leave"},
            "lock": {OK: "lock", BACK: "back"},
            "empty": {OK: "learn", BACK: "back"},
            "dice": {OK: "measure", BACK: "back"},
            "done": {OK: "finish"},
        }[self.step]

    def _overlays(self) -> tuple:
        overlays = []
        if self.step == "find" and self._outline is not None:
            overlays += _polygons(self._outline.tray, self._outline.keep)
        elif self._corners is not None and self.step != "done":
            overlays += _polygons(self._corners.tray, self._corners.keep)
        if self.step == "nudge":
            handles = self._corners.handles()
            for k, handle in enumerate(handles):
                p = tuple(map(float, self._corners.point(handle)))
                overlays.append(
                    Overlay(
                        (p,),
                        "selected" if k == self._handle else "handle",
                        ("x" if self._axis == 0 else "y") if k == self._handle else "",
                    )
                )
        if self.step == "check" and self._die is not None and self._reading is None:
            overlays += [Overlay(tuple(map(tuple, o.tolist())), "die") for o in self._die.outlines]
        if self.step == "check" and self._reading is not None:
            for d in self._reading.dice:
                x0, y0, x1, y1 = d.box
                label = "?" if d.cocked else str(d.value)
                overlays.append(Overlay(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), "die", label))
        if self.step == "teach" and self._reading is not None:
            for k, (d, value) in enumerate(zip(self._reading.dice, self._values)):
                x0, y0, x1, y1 = d.box
                overlays.append(
                    Overlay(
                        ((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
                        "selected" if k == self._cursor else "die",
                        "-" if value == NO_DIE else f"{value}?" if d.uncertain and value == d.value else str(value),
                    )
                )
        return tuple(overlays)


def _polygons(tray: np.ndarray, keep: np.ndarray | None) -> list[Overlay]:
    out = [Overlay(tuple(map(tuple, tray.tolist())), "tray")]
    if keep is not None:
        out.append(Overlay(tuple(map(tuple, keep.tolist())), "keep", "keep"))
    return out


def _exposure_from(metadata: list[Mapping]) -> Exposure | None:
    """The settled automatic exposure: medians over the last frames' picamera2 metadata."""
    usable = [m for m in metadata if "ExposureTime" in m and "AnalogueGain" in m]
    if not usable:
        return None
    exposure = int(np.median([m["ExposureTime"] for m in usable]))
    gain = float(np.median([m["AnalogueGain"] for m in usable]))
    colour = [m["ColourGains"] for m in usable if m.get("ColourGains")]
    gains = tuple(float(v) for v in np.median(np.float64(colour), axis=0)) if colour else None
    return Exposure(max(1, exposure), max(1.0, gain), gains)
