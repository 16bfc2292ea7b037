"""Measuring the vision pipeline on recorded-throw folders, as the appliance would run it.

The frames are replayed (hardware.replay, as fast as possible) through the RestDetector with the
folder's empty-tray picture; where it says "read now", the reader reads the full frame with the
folder's calibration. Against the truth kept in labels.json:
- rest latency: frames from the last frame in which anything moved to the frame the rest was detected;
- readings while moving: "read now" on a frame in which a die moves or a hand is in view (must be 0);
- missed rests: labeled rests the detector never reported;
- zones: each labeled die's zone against the reading's die whose centre its box holds; and, without a
  reader, the calibration's zone of each labeled box centre (the geometry alone);
- values: dice read correctly / labeled dice at the detected rests, and the trust figures (right without asking,
  asked, read wrong without asking, sure phantoms), by vision.lab.scoring's rule.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from appliance.base.errors import DiceTableError

NO_REST_TRUTH = (
    "its rests have no truth (rest_frames: rendered recordings only; one made by `dicetable record` "
    "knows only the frames its players confirmed): score those with `dicetable evaluate` without --stream"
)


class RecordingProblem(DiceTableError, ValueError):
    """A recording that cannot be measured: `folder`, and `problem`, what is wrong with it. The problem does not
    name the folder again: the files in it are named relative to it (`labels.json`, `frames/000003.jpg`)."""

    def __init__(self, folder: str | Path, problem: str):
        self.folder, self.problem = Path(folder), _within(folder, problem)
        super().__init__(f"{self.folder}: {self.problem}")


def _within(folder: str | Path, message: str) -> str:
    """`message` (which the layers below may have begun with the folder, or with a path in it) without the folder."""
    folder = str(folder).rstrip("/") or "/"
    while message.startswith(f"{folder}: "):
        message = message[len(folder) + 2 :]
    return re.sub(r"(?<![\w./-])" + re.escape(folder.rstrip("/") + "/"), "", message)


@dataclass
class StreamFigures:
    folders: int = 0
    frames: int = 0
    rests: int = 0
    detected: int = 0
    latencies: list = field(default_factory=list)
    read_while_moving: int = 0
    values: object = field(default_factory=lambda: _score())  # vision.lab.scoring.Score of the dice at the rests
    zone_checked: int = 0
    zone_errors: int = 0
    geometry_zone_errors: int = 0
    reader: str = "none"  # "packaged" (the packaged d6 and d10 readers), "none" (rest detection and zones only)
    notes: list = field(default_factory=list)

    @property
    def labeled_dice(self) -> int:
        return self.values.labeled

    def to_json(self) -> dict:
        lat = self.latencies
        return {
            "folders": self.folders,
            "frames": self.frames,
            "rests": self.rests,
            "rests_detected": self.detected,
            "rest_latency_frames": {
                "max": max(lat) if lat else None,
                "median": statistics.median(lat) if lat else None,
                "over_5": sum(1 for v in lat if v > 5),
            },
            "readings_while_moving": self.read_while_moving,
            "reader": self.reader,
            "labeled_dice": self.labeled_dice,
            "value_accuracy": round(self.values.correct / self.labeled_dice, 4) if self.labeled_dice else None,
            **(self.values.trust() if self.reader != "none" else {}),
            "zone_errors": self.zone_errors if self.reader != "none" else None,
            "zone_checked": self.zone_checked,
            "geometry_zone_errors": self.geometry_zone_errors,
            "notes": self.notes,
        }


def _score():
    from vision.lab.scoring import Score  # vision loads OpenCV: only once something is measured

    return Score()


def measure_folder(
    folder: str | Path,
    read: Callable | None = None,
    figures: StreamFigures | None = None,
    small_size: tuple[int, int] | None = None,
    labels: dict | None = None,
) -> StreamFigures:
    """Replay one folder through the rest detector (and `read(frame, calibration, kind)` if given); small frames
    of the cameras' default size (`camera.small_size`), as the appliance feeds the detector. `labels`: the
    folder's labels.json, when read already."""
    from appliance.settings import DEFAULTS
    from hardware.replay import load_recording

    folder = Path(folder)
    small_size = small_size or DEFAULTS["camera.small_size"]
    figures = figures or StreamFigures()
    try:
        # a missing or damaged labels.json, said in the recording's words
        return _measure_recording(load_recording(folder, labels), read, figures, small_size)
    except RecordingProblem:
        raise
    except ValueError as error:  # the recording's own messages (hardware.replay, the calibration profile)
        raise RecordingProblem(folder, str(error)) from None
    except KeyError as error:  # its labels.json
        raise RecordingProblem(
            folder, f"its labels.json is not as docs/RECORDINGS.md describes (no key {error.args[0]!r})"
        ) from None
    except (TypeError, IndexError) as error:
        raise RecordingProblem(
            folder, f"its labels.json is not as docs/RECORDINGS.md describes ({type(error).__name__}: {error})"
        ) from None


def _measure_recording(
    recording, read: Callable | None, figures: StreamFigures, small_size: tuple[int, int]
) -> StreamFigures:
    from appliance.assemble import recording_calibration, rest_detector
    from hardware.replay import ReplaySource
    from vision import geometry
    from vision.lab.scoring import match
    from vision.labels import LabeledImage, labeled_die

    folder, labels = recording.folder, recording.labels
    calibration, problem = recording_calibration(recording)
    if calibration is None:  # the zones and the empty tray are what is measured
        raise RecordingProblem(folder, problem or "its labels.json names no calibration profile")
    kind = next((d["kind"] for image in labels["images"] for d in image["dice"]), "d6")  # which reader
    detector = rest_detector(calibration, small_size)
    truth = labels["frames"]
    rests = {tuple(image["rest_frames"]): image for image in labels["images"] if "rest_frames" in image}
    if labels["images"] and not rests:  # what rest detection is measured against: only a rendering knows it
        raise RecordingProblem(folder, NO_REST_TRUTH)
    seen = set()
    source = ReplaySource(recording, realtime=False, small_size=small_size)
    index = -1
    while (frame := source.read()) is not None:
        _refuse_unreadable_frames(source, recording)
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
        for d in image["dice"]:  # the geometry: the calibration's zone of each labeled box centre
            cx, cy = (d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2
            figures.geometry_zone_errors += geometry.zone_of(cx, cy, calibration) != d["zone"]
        labeled = [labeled_die(d) for d in image["dice"]]  # checked even when nothing reads them
        if read is None:
            continue
        reading = read(state.frame, calibration, kind)
        lying_flat = tuple(die for die, d in zip(labeled, image["dice"]) if not d.get("cocked"))  # cocked: never read
        figures.values.add(
            reading, LabeledImage(folder / image["file"], image["width"], image["height"], lying_flat), 0.0
        )
        pairs, _, _ = match(reading.dice, labeled)
        zones = {die.box: d["zone"] for die, d in zip(labeled, image["dice"])}
        for det, lab in pairs:
            figures.zone_checked += 1
            figures.zone_errors += det.zone != zones[lab.box]
    _refuse_unreadable_frames(source, recording)
    figures.folders += 1
    figures.frames += index + 1
    figures.rests += len(rests)
    figures.detected += len(seen)
    missed = sorted(span[0] for span in rests if span[0] not in seen)
    if missed:
        figures.notes.append(f"{folder.name}: rests starting at frames {missed} not detected")
    return figures


def _refuse_unreadable_frames(source, recording) -> None:
    """The replay skips a missing or damaged frame; measured, every later frame would be held against the truth
    of the frame after it."""
    if source.unreadable:
        name = min(source.unreadable)
        path = next(path for path, _ in recording.frames if path.name == name)
        raise RecordingProblem(
            recording.folder, f"its frame {path.relative_to(recording.folder)} is missing or not an image"
        )


def recordings(root: str | Path) -> dict[Path, dict]:
    """The folder itself if it is a recording, else every recording below it, each with its labels.json (which
    lists frames: a still set's lists only images); RecordingProblem names a folder whose labels.json cannot be
    read."""
    root = Path(root)
    found = [root] if (root / "labels.json").exists() else sorted(p.parent for p in root.rglob("labels.json"))
    labels = {folder: _labels(folder) for folder in found}
    return {folder: kept for folder, kept in labels.items() if isinstance(kept, dict) and "frames" in kept}


def _labels(folder: Path):
    """The folder's labels.json, as JSON; RecordingProblem when it cannot be read."""
    try:
        return json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    except OSError as error:
        raise RecordingProblem(folder, f"its labels.json cannot be read ({error.strerror or error})") from None
    except ValueError as error:  # not JSON, or not text
        raise RecordingProblem(folder, f"its labels.json is not JSON ({error})") from None
    except RecursionError:
        raise RecordingProblem(folder, "its labels.json is not JSON (nested too deeply)") from None


def measure(root: str | Path, read: Callable | None = None) -> StreamFigures:
    """All recordings under `root`; `read=None` measures rest detection and zone geometry only. The figures'
    reader is "none" without a reader, "packaged" with packaged_reader()'s (else "custom").
    A recording that cannot be measured raises RecordingProblem, naming it."""
    figures = StreamFigures(reader="none" if read is None else "packaged" if read is packaged_reader() else "custom")
    for folder, labels in recordings(root).items():
        measure_folder(folder, read, figures, labels=labels)
    return figures


def packaged_reader() -> Callable:
    """read(frame, calibration, kind): the packaged d6 or d10 reader."""
    from vision import read_kind

    return read_kind
