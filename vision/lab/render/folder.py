"""Writing a recorded-throw folder (docs/RECORDINGS.md): frames/NNNNNN.jpg, labels.json, and the
calibration profile (calibration.toml + calibration.empty.png, the format of calibration/profile.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from .frame import render_frame

JPEG_QUALITY = 85


class FolderSink:
    """sink(index, image): writes frames/<index + 1>.jpg (six digits) under the folder."""

    def __init__(self, folder: str | Path, quality: int = JPEG_QUALITY):
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        self.quality = quality

    def __call__(self, index: int, image: np.ndarray) -> None:
        cv2.imwrite(
            str(self.folder / "frames" / f"{index + 1:06d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, self.quality]
        )


def _corners(points) -> str:
    return "[" + ", ".join(f"[{x:.1f}, {y:.1f}]" for x, y in np.asarray(points, float)) + "]"


def calibration_toml(scene, picture: str = "calibration.empty.png") -> str:
    """The profile `dicetable calibrate` would write for this scene, from its geometry."""
    w, h = scene.camera.size
    lines = [
        "# Rendered scene: tray and keep-zone corners and die size from the scene's geometry.",
        "version = 1",
        f"frame_size = [{w}, {h}]",
        'created = "rendered"',
        "checked = true",
        "",
        "[tray]",
        f"corners = {_corners(scene.tray_polygon())}",
    ]
    keep = scene.keep_polygon()
    if keep is not None:
        lines += ["", "[keep]", f"corners = {_corners(keep)}"]
    lines += ["", "[dice]", f"die_px = {scene.die_px():.2f}", "", "[empty]", f'picture = "{picture}"', ""]
    return "\n".join(lines)


def write_recording(folder: str | Path, scene, record: dict, **extra) -> Path:
    """labels.json (frames, images, calibration and any extra keys: game, presses, expected...) and the
    calibration files. The frames themselves were written by a FolderSink while rendering."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    # the calibration wizard keeps an average of several empty frames: far less noise than one frame
    quiet = scene.with_(light=replace(scene.light, noise=scene.light.noise / 4))
    empty, _ = render_frame(quiet, [], None, noise_seed=scene.seed * 100003 - 1)
    cv2.imwrite(str(folder / "calibration.empty.png"), empty)
    (folder / "calibration.toml").write_text(calibration_toml(scene))
    labels = {"calibration": "calibration.toml", **extra, "frames": record["frames"], "images": record["images"]}
    (folder / "labels.json").write_text(json.dumps(labels, indent=1) + "\n")
    return folder
