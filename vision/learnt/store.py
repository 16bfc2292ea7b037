"""Where the learnt dice are kept: a folder per calibration profile (the appliance chooses it), on this device
only. Each confirmed throw is one small file written whole or not at all (a temporary file, synced, then
renamed), so a crash or power cut loses at most the throw in progress; every COMPACT_AFTER throws they are
merged into learnt.npz (the same way), which keeps the newest MOST dice balanced by value. A file that cannot
be read (a damaged SD card) is named in `problems` and set aside, never fatal.

Files: learnt.npz (through = the last throw merged), throw-NNNNNNNN.npz; both hold, per kind, features (each die in
its four views, look.NUDGES: 5,000 six-sided dice about 14 MB), values, how (adapter.HOW), crops and the model the
features were taken from.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from appliance.base.files import write_atomically

from ..types import FACES
from .adapter import FIT_MOST, Examples, newest_balanced, newest_of_each, nudged

MOST = 5000  # dice kept per kind: the newest, the same number of each value where there are
COMPACT_AFTER = 50  # throw files before they are merged
MERGED = "learnt.npz"
THROW = re.compile(r"throw-(\d{8})\.npz$")
FIELDS = ("features", "values", "how", "read", "crops")


class Store:
    """store = Store(folder, models, features); examples = store.load(); store.add(throw); store.forget().

    `models`: each kind's model now (look.model_id); examples whose features another model gave get new
    ones from their crops, by `features(kind, crops, nudge)` (look.Look.features; `nudge`: adapter.nudged)."""

    def __init__(
        self, folder: Path, models: dict[str, str], features: Callable[[str, np.ndarray, np.ndarray], np.ndarray]
    ):
        self.folder = Path(folder)
        self.models, self.features = models, features
        self.problems: list[str] = []

    def _throws(self) -> list[tuple[int, Path]]:
        if not self.folder.is_dir():
            return []
        found = ((THROW.match(p.name), p) for p in self.folder.iterdir())
        return sorted((int(m.group(1)), p) for m, p in found if m)

    def load(self) -> dict[str, Examples]:
        """The examples of each kind, oldest first. Those a retrained model saw anew are merged as it sees them, so
        that the next start need not see them again."""
        examples, seen_anew = self._load()
        if seen_anew:
            try:
                self._merge(examples)
            except OSError as error:  # a full or read-only card: seen anew again at the next start, nothing lost
                self.problems.append(
                    f"{self.folder} could not be merged ({error}); the learnt dice are kept as they were"
                )
        return examples

    def _load(self) -> tuple[dict[str, Examples], bool]:
        parts: dict[str, list[tuple[Examples, bool]]] = {}  # per kind, each file's examples and whether stale
        through = -1
        merged = self.folder / MERGED
        for path in ([merged] if merged.exists() else []) + [p for n, p in self._throws()]:
            match = THROW.match(path.name)
            if match and int(match.group(1)) <= through:
                continue  # merged already (a crash between merging and deleting)
            data = self._read(path)
            if data is None:
                continue
            through = max(through, int(data.get("through", -1)))
            for kind in FACES:
                if f"{kind}_values" in data:
                    part = Examples(*(data[f"{kind}_{name}"] for name in FIELDS))
                    stale = str(data[f"{kind}_model"]) != self.models.get(kind)  # another model's features
                    parts.setdefault(kind, []).append((part, stale))
        examples = {kind: self._seen_anew(kind, each) for kind, each in parts.items()}
        return examples, any(stale for each in parts.values() for _, stale in each)

    def _seen_anew(self, kind: str, parts: list[tuple[Examples, bool]]) -> Examples:
        """A kind's examples, those another model saw seen anew from their crops by this one: only those the adapter
        fits (the newest FIT_MOST, balanced by value), as seeing all MOST again could take minutes on a Raspberry Pi
        before the table starts (systemd gives it two); older ones of another model are let go."""
        fits = newest_of_each(np.concatenate([part.values for part, _ in parts]), FACES[kind], FIT_MOST)
        ends = np.cumsum([len(part) for part, _ in parts])
        examples = Examples.empty()
        for (part, old), end in zip(parts, ends):
            if old:
                part = part.take(fits[end - len(part) : end])
                if len(part):
                    part.features = self.features(kind, part.crops, nudged(part.how))
            if len(part):  # (an emptied part of another model holds features of another length: not joined)
                examples = examples + part
        return examples

    def _read(self, path: Path) -> dict | None:
        try:
            with np.load(path, allow_pickle=False) as data:
                return {k: data[k] for k in data.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
            try:
                os.replace(path, path.with_name(path.name + ".damaged"))
                self.problems.append(f"{path} cannot be read ({error}); set aside as {path.name}.damaged")
            except OSError as why:  # a read-only card: left where it is, and said again at the next start
                self.problems.append(f"{path} cannot be read ({error}) nor set aside ({why}); left where it is")
            return None

    def add(self, throw: dict[str, Examples]) -> None:
        """One confirmed throw's examples (per kind), as a file of its own; merged when enough have gathered."""
        throws = self._throws()
        number = (throws[-1][0] + 1) if throws else self._through() + 1
        self._write(self.folder / f"throw-{number:08d}.npz", _arrays(throw, self.models))
        if len(throws) + 1 >= COMPACT_AFTER:
            self.compact()

    def compact(self) -> None:
        """Merge the throw files into learnt.npz, keeping the newest MOST of each kind balanced by value."""
        self._merge(self._load()[0])

    def _merge(self, examples: dict[str, Examples]) -> None:
        """`examples`, all the files hold, as learnt.npz alone."""
        throws = self._throws()
        kept = {kind: newest_balanced(e, FACES[kind], MOST) for kind, e in examples.items()}
        through = np.array(throws[-1][0] if throws else -1)
        self._write(self.folder / MERGED, {**_arrays(kept, self.models), "through": through})
        for _, path in throws:
            path.unlink(missing_ok=True)

    def _through(self) -> int:
        merged = self.folder / MERGED
        data = self._read(merged) if merged.exists() else None
        return int(data.get("through", -1)) if data else -1

    def forget(self) -> None:
        """Delete every learnt die (damaged files set aside too)."""
        if self.folder.is_dir():
            for path in self.folder.iterdir():
                if path.name == MERGED or THROW.match(path.name) or path.name.endswith(".damaged"):
                    path.unlink()

    def _write(self, path: Path, arrays: dict) -> None:
        """The arrays as `path`, whole or not at all."""
        self.folder.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        write_atomically(path, buffer.getvalue(), mode=0o600)  # read by the table's own user only


def _arrays(examples: dict[str, Examples], models: dict[str, str]) -> dict:
    out = {}
    for kind, e in examples.items():
        out.update({f"{kind}_{name}": a for name, a in zip(FIELDS, e.astuple())})
        out[f"{kind}_model"] = np.array(models[kind])
    return out
