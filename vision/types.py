"""The facts vision reports: dice, readings of a frame, rest states of a stream, and the tray calibration.

Plain data only: the table, the tests and the commands build and compare these without OpenCV.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

import numpy as np

# Zones a die can be in. Without a calibration the whole frame counts as the rolling area.
ROLL, KEEP, OUTSIDE = "roll", "keep", "outside"

# Rest states of the stream.
MOVING, AT_REST, EMPTY, HAND = "moving", "at_rest", "empty", "hand"

# Below this confidence a reading is flagged uncertain, so the table can ask the player. Measured on the
# real d6 photos (2,422 matched dice): 0.60 flags 11 of the 17 misreads and asks about 3% of the right
# readings; 0.80 caught only 2 more misreads but asked about 8.5% of them, a question nearly every throw.
# On the rendered d10 held-out set 0.60 flags 12 of 15 misreads and 11 of 248 right readings.
UNCERTAIN_BELOW = 0.60

# The kinds of dice vision reads, and how many faces each has (a die's values are 1..faces).
FACES = {"d6": 6, "d10": 10}


@dataclass(frozen=True)
class Die:
    kind: str  # a kind of FACES: "d6" or "d10"
    value: int | None  # 1..FACES[kind]; None when cocked (not read)
    box: tuple[float, float, float, float]  # xmin, ymin, xmax, ymax in frame pixels
    zone: str  # ROLL, KEEP or OUTSIDE
    confidence: float  # 0..1, how sure the value is
    cocked: bool = False  # not lying flat: reported, never read
    # The reader network's share for each of its classes (no die, each value, then its other class: a d6's
    # leaning, a d10 reader's six-sided die) as it read this die, scaled by how sure the reader is of the die's
    # kind; () where no network read it (a die made by hand, or rebuilt from a saved row of a review).
    probs: tuple[float, ...] = field(default=(), compare=False, repr=False)

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def centred_on(self, other: Die) -> bool:
        """Whether this die's centre lies in `other`'s box (a find on a die: its pip or side face)."""
        (x, y), (x0, y0, x1, y1) = self.centre, other.box
        return x0 <= x <= x1 and y0 <= y <= y1

    @property
    def uncertain(self) -> bool:
        return not self.cocked and self.confidence < UNCERTAIN_BELOW

    def to_json(self) -> dict:
        out = asdict(self)
        del out["probs"]  # the reader's working: the reading is the value and its confidence
        out["box"] = [round(v, 1) for v in self.box]
        out["centre"] = [round(v, 1) for v in self.centre]
        out["confidence"] = round(self.confidence, 3)
        out["uncertain"] = self.uncertain
        return out


@dataclass(frozen=True)
class Reading:
    """All dice found in one frame."""

    dice: tuple[Die, ...]
    width: int
    height: int
    ms: float = 0.0
    # Finds the reader took for no die but that may be one, likeliest die first (none leaning): a die unlike those
    # the reader learnt from (a numeral, a die seen from low down) is doubted, not read. Where fewer dice lie in
    # the rolling area than were thrown, the table asks about these (`looked_for`); dice learnt may vouch for one.
    doubted: tuple[Die, ...] = ()

    @property
    def values(self) -> list[int]:
        return sorted(d.value for d in self.dice if d.value is not None)

    def looked_for(self, missing: int) -> Reading:
        """The reading with the `missing` likeliest doubted finds in the rolling area taken as dice, so that the
        table asks about them: each is asked, however sure of its value the learnt dice are (whether it is a die
        at all, only they may vouch: learnt.reread_found). None centred on a die read (its pip or side face)."""
        free = [d for d in self.doubted if d.zone == ROLL and not any(d.centred_on(die) for die in self.dice)]
        candidates = free[: max(missing, 0)]
        if not candidates:
            return self
        rest = tuple(d for d in self.doubted if not any(d is c for c in candidates))
        asked = tuple(replace(d, confidence=min(d.confidence, UNCERTAIN_BELOW / 2)) for d in candidates)
        return replace(self, dice=self.dice + asked, doubted=rest)

    @property
    def needs_attention(self) -> bool:
        """A cocked or uncertain die: the table should ask before scoring."""
        return any(d.cocked or d.uncertain for d in self.dice)

    def to_json(self) -> dict:
        return {
            "width": self.width,
            "height": self.height,
            "ms": round(self.ms, 2),
            "dice": [d.to_json() for d in self.dice],
            "doubted": [d.to_json() for d in self.doubted],
        }


@dataclass(frozen=True)
class RestState:
    """What the stream shows now. `frame` is set only on the one AT_REST state that starts a rest."""

    state: str  # MOVING, AT_REST, EMPTY or HAND
    frame: np.ndarray | None = field(default=None, repr=False, compare=False)
    motion: float = 0.0  # fraction of pixels that changed since the last frame

    @property
    def read_now(self) -> bool:
        return self.state == AT_REST and self.frame is not None


@dataclass
class TrayCalibration:
    """What a tray profile tells vision. Polygons are (N, 2) pixel corners in the full frame."""

    tray: np.ndarray
    keep: np.ndarray | None = None
    die_px: float | None = None  # edge of a die's top face, in full-frame pixels
    empty: np.ndarray | None = None  # BGR picture of the empty tray, full frame size
    frame_size: tuple[int, int] | None = None  # (width, height) of the frames it was made on; None: not known

    @classmethod
    def whole(cls, width: int, height: int, die_px: float) -> TrayCalibration:
        """A frame read at a known die size and nothing else known: the whole picture is the tray."""
        return cls([(0, 0), (width, 0), (width, height), (0, height)], die_px=die_px, frame_size=(width, height))

    def __post_init__(self):
        self.tray = np.asarray(self.tray, dtype=np.float32).reshape(-1, 2)
        if self.keep is not None:
            self.keep = np.asarray(self.keep, dtype=np.float32).reshape(-1, 2)
