"""Measuring the vision pipeline on recorded-throw folders, as the appliance would run it.

The frames are replayed (hardware.replay, as fast as possible) through the RestDetector with the
folder's empty-tray picture; where it says "read now", the reader reads the full frame with the
folder's calibration. Against the truth kept in labels.json:
- rest latency: frames from the last frame in which anything moved to the frame the rest was detected;
- readings while moving: "read now" on a frame in which a die moves or a hand is in view (must be 0);
- missed rests: labeled rests the detector never reported;
- zones: each labeled die's zone against the reading's die whose centre its box holds; and, without a
  reader, the calibration's zone of each labeled box centre (the geometry alone);
- values: dice read correctly / labeled dice at the detected rests (vision.scoring's rule).
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional


@dataclass
class StreamFigures:
    folders: int = 0
    frames: int = 0
    rests: int = 0
    detected: int = 0
    latencies: list = field(default_factory=list)
    read_while_moving: int = 0
    labeled_dice: int = 0
    correct: int = 0
    zone_checked: int = 0
    zone_errors: int = 0
    geometry_zone_errors: int = 0
    reader: str = "none"
    notes: list = field(default_factory=list)

    def to_json(self) -> dict:
        lat = self.latencies
        return {
            "folders": self.folders, "frames": self.frames, "rests": self.rests, "rests_detected": self.detected,
            "rest_latency_frames": {"max": max(lat) if lat else None, "median": statistics.median(lat) if lat else None,
                                    "over_5": sum(1 for v in lat if v > 5)},
            "readings_while_moving": self.read_while_moving,
            "reader": self.reader,
            "labeled_dice": self.labeled_dice,
            "value_accuracy": round(self.correct / self.labeled_dice, 4) if self.labeled_dice else None,
            "zone_errors": self.zone_errors if self.reader != "none" else None, "zone_checked": self.zone_checked,
            "geometry_zone_errors": self.geometry_zone_errors,
            "notes": self.notes,
        }


def measure_folder(folder: str | Path, read: Optional[Callable] = None, figures: Optional[StreamFigures] = None,
                   small_size: tuple[int, int] | None = None) -> StreamFigures:
    """Replay one folder through the rest detector (and `read(frame, calibration, kind)` if given); small frames
    of the cameras' default size (`camera.small_size`), as the appliance feeds the detector."""
    import cv2

    from appliance.settings import DEFAULTS

    from appliance.assemble import recording_calibration
    from hardware.frame_source import small_grey
    from hardware.replay import ReplaySource, load_recording
    from vision import geometry
    from vision.rest import RestDetector
    from vision.scoring import LabeledDie, LabeledImage, Score, match

    folder = Path(folder)
    small_size = small_size or DEFAULTS["camera.small_size"]
    figures = figures or StreamFigures()
    labels = json.loads((folder / "labels.json").read_text())
    calibration, problem = recording_calibration(load_recording(folder))
    if calibration is None:   # the zones and the empty tray are what is measured
        raise ValueError(problem or f"{folder}: its labels.json names no calibration profile")
    kind = next((d["kind"] for image in labels["images"] for d in image["dice"]), "d6")  # which reader
    detector = RestDetector(small_grey(calibration.empty, small_size))
    truth = labels["frames"]
    rests = {tuple(image["rest_frames"]): image for image in labels["images"] if "rest_frames" in image}
    seen = set()
    source = ReplaySource(folder, realtime=False, small_size=small_size)
    index = -1
    while (frame := source.read()) is not None:
        index += 1
        state = detector.update(frame.small, frame.image)
        if not state.read_now:
            continue
        if truth[index].get("moving") or truth[index].get("hand"):
            figures.read_while_moving += 1
            continue
        rest = next(((span, image) for span, image in rests.items() if span[0] <= index <= span[1]), None)
        if rest is None:
            figures.notes.append(f"{folder.name}: a rest detected at frame {index} that is not labeled")
            continue
        (first, _), image = rest
        if first in seen:
            continue
        seen.add(first)
        last_motion = max((k for k in range(first) if truth[k].get("moving")), default=0)
        figures.latencies.append(index - last_motion)
        dice = [LabeledDie(d["kind"], int(d["value"]), tuple(d["box"])) for d in image["dice"] if not d.get("cocked")]
        for d in image["dice"]:   # the geometry: the calibration's zone of each labeled box centre
            cx, cy = (d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2
            figures.geometry_zone_errors += geometry.zone_of(cx, cy, calibration) != d["zone"]
        if read is None:
            continue
        reading = read(state.frame, calibration, kind)
        score = Score()
        score.add(reading, LabeledImage(folder / image["file"], image["width"], image["height"], tuple(dice)), 0.0)
        figures.labeled_dice += score.labeled
        figures.correct += score.correct
        pairs, _, _ = match(reading.dice, [LabeledDie(d["kind"], int(d["value"]), tuple(d["box"])) for d in image["dice"]])
        zones = {tuple(d["box"]): d["zone"] for d in image["dice"]}
        for det, lab in pairs:
            figures.zone_checked += 1
            figures.zone_errors += det.zone != zones[lab.box]
    figures.folders += 1
    figures.frames += index + 1
    figures.rests += len(rests)
    figures.detected += len(seen)
    missed = sorted(span[0] for span in rests if span[0] not in seen)
    if missed:
        figures.notes.append(f"{folder.name}: rests starting at frames {missed} not detected")
    del cv2
    return figures


def recording_folders(root: str | Path) -> list[Path]:
    """The folder itself if it is a recording, else every recording below it (still sets have no frames)."""
    root = Path(root)
    found = [root] if (root / "labels.json").exists() else sorted(p.parent for p in root.rglob("labels.json"))
    return [f for f in found if "frames" in json.loads((f / "labels.json").read_text())]   # not still sets


def measure(root: str | Path, read: Optional[Callable] = None) -> StreamFigures:
    """All recordings under `root`; `read=None` measures rest detection and zone geometry only."""
    figures = StreamFigures(reader="given" if read else "none")
    for folder in recording_folders(root):
        try:
            measure_folder(folder, read, figures)
        except (KeyError, TypeError, IndexError, ValueError) as error:   # its labels.json: say which recording
            raise ValueError(f"{folder}: {error if isinstance(error, ValueError) else repr(error)}") from None
    return figures


def packaged_reader() -> Callable:
    """read(frame, calibration, kind): the packaged d6 or d10 reader."""
    from vision.d10 import read_d10
    from vision.reader import read

    readers = {"d6": read, "d10": read_d10}
    return lambda frame, calibration, kind: readers[kind](frame, calibration)
