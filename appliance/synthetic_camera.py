"""`--source synthetic`: a drawn tray (vision/lab/render/tray.py) as a camera, to try the wizard or the table
on a machine without one."""

from __future__ import annotations

from dataclasses import dataclass, field

from hardware.frame_source import ENDED, OK, Frame, SourceStatus, small_grey
from vision.lab.render.tray import TrayScene, spread_dice


@dataclass
class SyntheticTraySource:
    """A FrameSource over a TrayScene for trying the wizard without a camera. It shows the empty tray
    until `stage("dice")` (the wizard's runner calls it when a step asks for dice on the felt), and reports
    the exposure a Pi camera would have chosen, so the wizard's lock step has something to lock."""

    scene: TrayScene = field(default_factory=TrayScene)
    die_px: float = 56.0
    small_size: tuple[int, int] = (320, 180)

    def __post_init__(self):
        self.status = SourceStatus(OK, "synthetic tray")
        self._dice: tuple = ()
        self._frames: dict = {}
        self._t = 0.0

    metadata = {"ExposureTime": 16000, "AnalogueGain": 2.0, "ColourGains": (1.9, 1.6)}

    def stage(self, what: str) -> None:
        self._dice = spread_dice(self.die_px) if what == "dice" else ()

    def read(self):
        key = self._dice
        if key not in self._frames:  # rendering is the slow part; the scene is still
            self._frames[key] = self.scene.render(self._dice)
        image = self._frames[key].copy()
        self._t += 1 / 30
        return Frame(image, small_grey(image, self.small_size), self._t)

    def close(self) -> None:
        self.status = SourceStatus(ENDED, "closed")
