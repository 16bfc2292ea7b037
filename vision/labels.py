"""The label format of labeled photo sets and recorded throws (labels.json; ../shared/datasets/README.md):
reading it, checked, and writing a die as it holds it. The table's recorder writes it; scoring reads it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .types import FACES


@dataclass(frozen=True)
class LabeledDie:
    kind: str
    value: int
    box: tuple[float, float, float, float] | None  # None: the die is somewhere in the image
    legible: bool = True  # False: no person can read it (labels.json "legible": false)


@dataclass(frozen=True)
class LabeledImage:
    path: Path
    width: int
    height: int
    dice: tuple[LabeledDie, ...]
    split: str | None = None  # the set's own split ("train", "valid", "test") where its labels name one
    augmented: bool = False  # a training copy the set's source altered (crop, noise): labels' "augmented"


VALUES = {kind: range(1, faces + 1) for kind, faces in FACES.items()}  # the values a labeled die of a kind can show


def load_labeled_set(set_dir: str | Path) -> list[LabeledImage]:
    """The images and dice of a set's labels.json; a malformed file raises ValueError naming the entry."""
    set_dir = Path(set_dir)
    path = set_dir / "labels.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    except RecursionError:
        raise ValueError(f"{path} is not JSON: nested too deeply") from None
    entries = data.get("images") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError(
            f'{path} holds no list of images: {{"images": [{{"file", "width", "height", "dice": '
            f'[{{"kind", "value", "box"}}]}}]}}'
        )
    images = []
    for n, entry in enumerate(entries):
        try:
            image = LabeledImage(
                set_dir / entry["file"],
                int(entry["width"]),
                int(entry["height"]),
                tuple(labeled_die(d) for d in entry["dice"]),
                entry.get("split"),
                entry.get("augmented") is True,
            )
            outside = next((d.box for d in image.dice if d.box and not _inside(d.box, image.width, image.height)), None)
            if outside:
                raise ValueError(f"box {list(outside)} lies outside its {image.width}x{image.height} image")
            images.append(image)
        except (KeyError, TypeError, ValueError, OverflowError) as error:
            raise ValueError(f"{path}, image {n + 1}: {_problem(error)}") from None
    return images


def _inside(box, width: int, height: int) -> bool:
    """Whether a labeled box's middle lies in the image (its edges may be cut by the image's)."""
    return 0 <= (box[0] + box[2]) / 2 <= width and 0 <= (box[1] + box[3]) / 2 <= height


def labeled_die(d: dict) -> LabeledDie:
    """A die of labels.json, checked: ValueError (or KeyError, TypeError) when it is no die of the format."""
    kind, value = d["kind"], d["value"]
    if not (type(value) is int and value in VALUES.get(kind, ())):  # not bool: true is no die value
        raise ValueError(f"a die labeled {kind!r} {value!r}: kinds are d6 (values 1-6) and d10 (1-10)")
    box = tuple(float(v) for v in d["box"]) if d.get("box") else None
    if box is not None and not (len(box) == 4 and box[0] < box[2] and box[1] < box[3]):
        raise ValueError(f"box {list(box)} is not [xmin, ymin, xmax, ymax]")
    legible = d.get("legible", True)
    if type(legible) is not bool:
        raise ValueError(f'"legible": {legible!r} is neither true nor false')
    return LabeledDie(kind, value, box, legible)


def label_row(kind: str, value: int, box, zone: str, cocked: bool, thrown_in: int | None = None) -> dict:
    """A die as labels.json holds it (what labeled_die reads back): its box rounded to a tenth of a pixel;
    `thrown_in`, the attempt of the turn that threw it, only when known."""
    row = {
        "kind": kind,
        "value": int(value),
        "box": [round(float(v), 1) for v in box],
        "zone": zone,
        "cocked": bool(cocked),
    }
    if thrown_in is not None:
        row["thrown_in"] = thrown_in
    return row


def _problem(error: Exception) -> str:
    return f"no key {error.args[0]!r}" if isinstance(error, KeyError) else str(error)


def box_holds(box, x: float, y: float) -> bool:
    """Whether a labeled die's box holds the point (a die's centre); a box of None (somewhere in the image) holds
    every point."""
    return box is None or (box[0] <= x <= box[2] and box[1] <= y <= box[3])
