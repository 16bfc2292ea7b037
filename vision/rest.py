"""Rest detection over a stream of small frames (e.g. 320x240): moving, at rest, empty tray, hand in view.

Classical and cheap: the small frames are compared in grey at their own size (a die is ~15 px across
at 320 wide; halving them lost dark dice on dark felt). A frame is still when almost nothing changed
since the previous one; after SETTLE still frames in a row the dice are at rest and the one
AT_REST state that starts the rest carries the frame to read. Nothing is read again until something
moves. With a picture of the empty tray, the detector also tells an empty tray from a tray with dice,
and a hand or arm from dice: anything much bigger than a heap of dice. Without it, a hand is a large
change reaching the frame's edge.
"""

from __future__ import annotations

import cv2
import numpy as np

from .types import AT_REST, EMPTY, HAND, MOVING, RestState

SETTLE = 4  # still frames in a row before the dice count as at rest (~0.13 s at 30 fps)
MOTION_LEVEL = 16  # grey-level change between frames that counts as movement (above sensor noise)
MOTION_SHARE = 0.0008  # share of changed pixels above which the frame is moving
FOREGROUND_LEVEL = 32  # grey-level difference from the empty tray that counts as "something there"
DIE_SHARE = 0.0015  # smallest blob, as a share of the frame, that could be a die
HAND_SHARE = 0.04  # a blob this large is a hand or an arm (six touching dice cover ~1%)


def _prepare(frame: np.ndarray) -> np.ndarray:
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(grey, (5, 5), 0)


class RestDetector:
    """detector = RestDetector(empty_small_frame); state = detector.update(small_frame, full_frame)."""

    def __init__(self, empty: np.ndarray | None = None, settle: int = SETTLE):
        self.empty = _prepare(empty) if empty is not None else None
        self.settle = settle
        self.previous: np.ndarray | None = None
        self.still = 0
        self.rested = False

    def update(self, frame: np.ndarray, full_frame: np.ndarray | None = None) -> RestState:
        """Feed the next small frame; `full_frame` (if the camera gives one) is what AT_REST hands over."""
        current = _prepare(frame)
        if self.previous is None or self.previous.shape != current.shape:
            self.previous = current
            self.still = 0
            return RestState(MOVING, motion=1.0)
        changed = cv2.absdiff(current, self.previous) > MOTION_LEVEL
        self.previous = current
        motion = float(np.count_nonzero(changed)) / changed.size

        blobs = self._blobs(current) if self.empty is not None else None
        if self._hand_in_view(blobs, changed, motion):
            return self._reset(HAND, motion)
        if motion > MOTION_SHARE:
            return self._reset(MOVING, motion)
        self.still += 1
        if blobs is not None and not self._any_die(blobs, current.size):
            self.rested = False  # an empty tray: the next dice to settle are a new rest
            return RestState(EMPTY, motion=motion)
        if self.still < self.settle:
            return RestState(MOVING, motion=motion)
        if self.rested:
            return RestState(AT_REST, motion=motion)
        self.rested = True
        return RestState(AT_REST, frame=full_frame if full_frame is not None else frame, motion=motion)

    def _reset(self, state: str, motion: float) -> RestState:
        self.still = 0
        self.rested = False
        return RestState(state, motion=motion)

    def _blobs(self, current: np.ndarray) -> np.ndarray:
        """Stats (x, y, w, h, area) of the regions that differ from the empty tray."""
        foreground = (cv2.absdiff(current, self.empty) > FOREGROUND_LEVEL).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(foreground, connectivity=8)
        return stats[1:]

    @staticmethod
    def _any_die(blobs: np.ndarray, pixels: int) -> bool:
        return bool((blobs[:, cv2.CC_STAT_AREA] >= DIE_SHARE * pixels).any())

    def _hand_in_view(self, blobs: np.ndarray | None, changed: np.ndarray, motion: float) -> bool:
        h, w = changed.shape
        if blobs is not None:  # a dark sleeve can match the table at the edge: size alone decides
            return bool((blobs[:, cv2.CC_STAT_AREA] >= HAND_SHARE * h * w).any())
        if motion < HAND_SHARE:  # no empty tray to compare with: a large change reaching the edge
            return False
        _, _, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
        x, y, bw, bh, area = (stats[1:, i] for i in range(5))
        at_edge = (x == 0) | (y == 0) | (x + bw >= w) | (y + bh >= h)
        return bool((at_edge & (area >= HAND_SHARE * h * w)).any())
