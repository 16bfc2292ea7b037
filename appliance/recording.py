"""The recorder: saves the camera stream of real play as a recorded-throw folder (docs/RECORDINGS.md).

    recorder = Recorder(out_dir, profile_path)        # copies the calibration profile and its picture
    i = recorder.frame(image, t)                      # every frame: frames/NNNNNN.jpg; returns its index
    recorder.confirmed(i, dice, values, attempt=2)    # the player confirmed this reading of frame i
    recorder.press("OK")                              # optional: the button presses, after the last frame
    recorder.close()                                  # labels.json (also rewritten after each confirmation)

Labels come from what the player confirmed (the reading's boxes and zones, the confirmed values), so an
appliance grows its own fixture set from real play.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from appliance.base.files import read_toml, write_atomically
from vision.labels import label_row

JPEG_QUALITY = 85


def refuse_existing_recording(folder: Path) -> None:
    """FileExistsError if `folder` holds a recording already, or part of one: a new one would write over its
    frames, labels and calibration profile."""
    frames = folder / "frames"
    if any((folder / name).exists() for name in ("labels.json", "calibration.toml")) or (
        frames.is_dir() and any(frames.iterdir())
    ):
        raise FileExistsError(
            f"{folder} already holds a recording (labels.json, calibration.toml, frames): "
            f"name a new or empty folder, or move that recording away first"
        )


class Recorder:
    def __init__(
        self,
        folder: str | Path,
        profile: str | Path | None = None,
        quality: int = JPEG_QUALITY,
        game: dict | None = None,
    ):
        self.folder = Path(folder)
        refuse_existing_recording(self.folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        self.quality = quality
        self.frames: list[dict] = []
        self.images: list[dict] = []
        self.presses: list[dict] = []
        self.game = game
        self.size: tuple[int, int] | None = None
        self._t0: float | None = None
        self.calibration = self._copy_profile(Path(profile)) if profile else None

    def _copy_profile(self, profile: Path) -> str:
        """The profile as calibration.toml, its empty-tray picture beside it under the name it gives."""
        raw = read_toml(profile.read_text(encoding="utf-8"))
        picture = raw.get("empty", {}).get("picture")
        shutil.copyfile(profile, self.folder / "calibration.toml")
        if picture:
            shutil.copyfile(profile.parent / picture, self.folder / Path(picture).name)
        return "calibration.toml"

    def frame(self, image, t: float) -> int:
        import cv2

        index = len(self.frames)
        name = f"frames/{index + 1:06d}.jpg"
        if not cv2.imwrite(str(self.folder / name), image, [cv2.IMWRITE_JPEG_QUALITY, self.quality]):
            raise OSError(f"cannot write {self.folder / name}")
        self.size = (image.shape[1], image.shape[0])
        if self._t0 is None:
            self._t0 = float(t)  # recorded times start at 0 whatever clock the camera uses
        self.frames.append({"file": name, "t": round(float(t) - self._t0, 4)})
        return index

    def confirmed(self, frame: int, dice: Sequence, values: Sequence[int], attempt: int | None = None) -> None:
        """Frame `frame` was read as `dice` (vision Die objects) and the player confirmed `values` for them."""
        if not 0 <= frame < len(self.frames):
            raise IndexError(f"no frame {frame} recorded (0..{len(self.frames) - 1})")
        labels = [
            label_row(die.kind, value, die.box, die.zone, die.cocked, attempt) for die, value in zip(dice, values)
        ]
        w, h = self.size
        self.images.append(
            {
                "file": self.frames[frame]["file"],
                "width": w,
                "height": h,
                "frame": frame,
                "t": self.frames[frame]["t"],
                "dice": labels,
            }
        )
        self.save()

    def press(self, press) -> None:
        """A button press, delivered after the last recorded frame."""
        self.presses.append({"frame": len(self.frames) - 1, "press": str(press)})

    def labels(self) -> dict:
        out = {"frames": self.frames, "images": self.images}
        if self.calibration:
            out["calibration"] = self.calibration
        if self.game:
            out["game"] = self.game
        if self.presses:
            out["presses"] = self.presses
        return out

    def save(self) -> None:
        """labels.json through a temporary file: a power cut leaves the previous one whole."""
        write_atomically(self.folder / "labels.json", (json.dumps(self.labels(), indent=1) + "\n").encode("utf-8"))

    def close(self) -> None:
        self.save()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
