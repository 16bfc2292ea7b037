"""A recorded throw rendered frame by frame: dice thrown in, rolling and coming to rest, pushed into the
keep zone, picked up, a hand passing over; every frame goes to a sink, every rest gets its labels.

    seq = Sequence(scene, sink)                  # sink(index, image) stores a frame
    ids = seq.throw([Spec(solid, 6), ...], attempt=1)
    seq.rest()                                   # labels the rest: images[] of the recording
    seq.push({ids[0]: "keep"}); seq.rest()
    seq.pick_up([ids[1], ids[2]]); seq.throw(...); seq.rest()
    meta = seq.finish()                          # {"frames": [...], "images": [...]}

Per frame the truth is kept beside the file: "moving" (something in the picture will still change:
a die not yet in its final pose, or a hand in view) and "hand". A labeled rest also names the frames
it spans, so a rest detector's choice can be checked against it.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence as Seq
from dataclasses import dataclass

import numpy as np

from . import layout
from .frame import DieState, render_frame
from .hand import SKINS, SLEEVES, Hand
from .motion import Throw, slide
from .solid import Solid

FPS = 30
REST_FRAMES = 6  # frames a rest lasts in the fixtures: the rest detector needs 4 still ones
THROW_FRAMES = 9  # frames the slowest die of a throw takes to stop


@dataclass
class Spec:
    """A die to throw: what it shows when it stops and, optionally, where and how it lies."""

    solid: Solid
    value: int
    end: tuple[float, float] | None = None
    yaw: float | None = None
    lean_deg: float = 0.0  # > 0: cocked, leaning by this much
    near: int | None = None  # id of a die it stops touching
    wall: str | None = None  # "left"/"right"/"top": stops against that wall
    outside: str | None = None  # "left"/"right": lands on the table beyond the wall


class Sequence:
    def __init__(
        self,
        scene,
        sink: Callable[[int, np.ndarray], None],
        seed: int = 0,
        rest_frames: int = REST_FRAMES,
        throw_frames: int = THROW_FRAMES,
    ):
        self.scene, self.sink = scene, sink
        self.rng = np.random.default_rng(seed)
        self.rest_frames, self.throw_frames = rest_frames, throw_frames
        self.dice: dict[int, DieState] = {}
        self.thrown_in: dict[int, int] = {}
        self.frames: list[dict] = []
        self.images: list[dict] = []
        self._signatures: list[tuple] = []
        self._next_id = 0
        self._labels: list = []
        hand_rng = np.random.default_rng(seed + 1)
        self.skin = SKINS[hand_rng.integers(len(SKINS))]
        self.sleeve = SLEEVES[hand_rng.integers(len(SLEEVES))]

    # -- frames ------------------------------------------------------------------------------
    def _emit(self, dice: Seq[DieState], hand: Hand | None = None) -> int:
        index = len(self.frames)
        image, self._labels = render_frame(self.scene, dice, hand, noise_seed=self.scene.seed * 100003 + index)
        self.sink(index, image)
        self.frames.append(
            {"file": f"frames/{index + 1:06d}.jpg", "t": round(index / FPS, 4), "hand": hand is not None}
        )
        self._signatures.append(
            (
                tuple(
                    (d.id, np.round(d.centre, 3).tobytes(), np.round(d.rotation, 4).tobytes())
                    for d in sorted(dice, key=lambda d: d.id)
                ),
                hand,
            )
        )
        return index

    def _still(self) -> list[DieState]:
        return list(self.dice.values())

    # -- what happens in the tray -------------------------------------------------------------
    def throw(self, specs: Seq[Spec], attempt: int = 1, frames: int | None = None) -> list[int]:
        """Throw dice in from the player's side; they come to rest as specified. Returns their ids."""
        frames = frames or self.throw_frames
        taken = [np.asarray(d.centre[:2]) for d in self.dice.values()]
        throws, ids = [], []
        t = self.scene.tray
        for spec in specs:
            yaw = spec.yaw if spec.yaw is not None else layout.yaw_for(self.rng)
            rotation = layout.resting_rotation(spec.solid, spec.value, yaw, spec.lean_deg, yaw)
            if spec.end is not None:
                end = np.asarray(spec.end, float)
            elif spec.outside:
                end = layout.beyond_wall(self.scene, spec.outside, float(self.rng.uniform(-40, 0)))
            elif spec.wall:
                end = layout.against_wall(self.scene, spec.solid, rotation, spec.wall, float(self.rng.uniform(-50, 0)))
            elif spec.near is not None:
                other = self.dice.get(spec.near) or next(th for th, i in zip(throws, ids) if i == spec.near)
                centre = other.centre if isinstance(other, DieState) else other.pose(other.frames)[1]
                end = layout.touching(spec.solid, np.asarray(centre[:2]), yaw, self.rng)
                rotation = layout.resting_rotation(spec.solid, spec.value, yaw)
            else:
                end = layout.free_spot(self.scene, spec.solid, taken, self.rng)
            taken.append(end)
            start = (float(self.rng.uniform(-t.width / 3, t.width / 3)), t.depth / 2 + t.wall_width + 20)
            n = frames if not throws else int(self.rng.integers(max(3, frames - 4), frames + 1))
            throws.append(
                Throw(
                    spec.solid,
                    rotation,
                    start,
                    (float(end[0]), float(end[1])),
                    n,
                    height=float(self.rng.uniform(50, 80)),
                    bounces=float(self.rng.choice([1.5, 2.5])),
                    spin=float(self.rng.uniform(-4, 4)),
                )
            )
            ids.append(self._new_id())
        frames = max(th.frames for th in throws)
        for k in range(1, frames + 1):
            moving = []
            for th, i in zip(throws, ids):
                rotation, centre = th.pose(k)
                before = th.pose(k - 1)[1]
                velocity = (0.0, 0.0, 0.0) if k >= th.frames else tuple(centre - before)
                moving.append(DieState(th.solid, rotation, tuple(centre), velocity, i))
            self._emit(self._still() + moving)
        for th, i in zip(throws, ids):
            rotation, centre = th.pose(th.frames)
            self.dice[i] = DieState(th.solid, rotation, tuple(centre), id=i)
            self.thrown_in[i] = attempt
        return ids

    def rest(self, frames: int | None = None, label: bool = True) -> int | None:
        """Nothing moves for a while; the last frame of the rest is labeled. Returns its index in images."""
        first = len(self.frames)
        for _ in range(frames or self.rest_frames):
            last = self._emit(self._still())
        if not label:
            return None
        dice = [lab.to_json(self.thrown_in[lab.id]) for lab in self._labels if lab.visible]
        w, h = self.scene.camera.size
        self.images.append(
            {
                "file": self.frames[last]["file"],
                "width": w,
                "height": h,
                "frame": last,
                "t": self.frames[last]["t"],
                "rest_frames": [first, last],
                "dice": dice,
            }
        )
        return len(self.images) - 1

    def push(self, moves: dict[int, object], frames: int = 4) -> None:
        """A hand pulls dice to new spots ("keep": the next free keep-zone spot, or an (x, y))."""
        targets = {}
        keep_taken = [np.asarray(d.centre[:2]) for i, d in self.dice.items() if i not in moves]
        for i, where in moves.items():
            if isinstance(where, str):
                where = layout.keep_slots(self.scene, self.dice[i].solid, 1, keep_taken)[0]
            keep_taken.append(np.asarray(where))
            targets[i] = np.asarray(where, float)
        starts = {i: np.asarray(self.dice[i].centre[:2]) for i in moves}
        centroid = np.mean(list(starts.values()), axis=0)
        goal = np.mean(list(targets.values()), axis=0)
        self._hand_in(centroid, frames=1)
        for k in range(1, frames + 1):
            moved = []
            for i in moves:
                d = self.dice[i]
                xy = slide(starts[i], targets[i], k, frames)
                prev = slide(starts[i], targets[i], k - 1, frames)
                moved.append(
                    DieState(
                        d.solid, d.rotation, (xy[0], xy[1], d.centre[2]), (xy[0] - prev[0], xy[1] - prev[1], 0.0), i
                    )
                )
            hand_at = slide(centroid, goal, k, frames) - np.array([0, self.scene.die_mm * 1.2])
            others = [d for i, d in self.dice.items() if i not in moves]
            self._emit(others + moved, self._hand(hand_at))
        for i in moves:
            d = self.dice[i]
            self.dice[i] = DieState(d.solid, d.rotation, (targets[i][0], targets[i][1], d.centre[2]), id=i)
        self._hand_out(goal, frames=1)

    def pick_up(self, ids: Seq[int], frames: int = 2) -> None:
        """A hand takes these dice out of the tray (to throw them again)."""
        if not ids:
            return
        where = np.mean([self.dice[i].centre[:2] for i in ids], axis=0)
        self._hand_in(where, frames=frames)
        for i in ids:
            del self.dice[i]
            self.thrown_in.pop(i, None)
        self._hand_out(where, frames=frames)

    def hand_visit(self, reach: tuple[float, float], side: str = "right", hold: int = 5) -> None:
        """A hand comes in, stays still over the tray for `hold` frames, and leaves; the dice stay put."""
        self._hand_in(np.asarray(reach), frames=3, side=side)
        for _ in range(hold):
            self._emit(self._still(), self._hand(np.asarray(reach), side))
        self._hand_out(np.asarray(reach), frames=3, side=side)

    # -- the hand -----------------------------------------------------------------------------
    def _hand(self, reach, side: str = "bottom", velocity=(0.0, 0.0)) -> Hand:
        return Hand(
            (float(reach[0]), float(reach[1])), side=side, skin=self.skin, sleeve=self.sleeve, velocity=velocity
        )

    def _hand_path(self, reach, frames: int, side: str, inwards: bool) -> None:
        t = self.scene.tray
        away = {"bottom": (0, t.depth), "top": (0, -t.depth), "left": (-t.width, 0), "right": (t.width, 0)}[side]
        outside = np.asarray(reach) + np.asarray(away, float)
        for k in range(1, frames + 1):
            s = k / frames if inwards else 1 - k / frames
            at = outside + (np.asarray(reach) - outside) * s
            step = (np.asarray(reach) - outside) / frames * (1 if inwards else -1) * 2
            self._emit(self._still(), self._hand(at, side, velocity=tuple(step)))

    def _hand_in(self, reach, frames: int = 3, side: str = "bottom") -> None:
        self._hand_path(reach, frames, side, inwards=True)

    def _hand_out(self, reach, frames: int = 3, side: str = "bottom") -> None:
        self._hand_path(reach, frames, side, inwards=False)

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- the record ---------------------------------------------------------------------------
    def finish(self) -> dict:
        """The frames (with the moving/hand truth) and the labeled rests."""
        sigs = self._signatures
        for k, frame in enumerate(self.frames):
            changes = k + 1 < len(sigs) and sigs[k][0] != sigs[k + 1][0]
            frame["moving"] = bool(changes or frame["hand"])
        return {"frames": self.frames, "images": self.images}
