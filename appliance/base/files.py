"""Reading TOML and writing a file whole: what the settings, the calibration profile, recordings, the event
log's head and the learnt dice share. Imports nothing of the project but its errors, and no OpenCV."""

from __future__ import annotations

import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from appliance.base.errors import DiceTableError


class NotToml(DiceTableError, ValueError):
    """Text tomllib cannot read, whichever way it fails."""


def read_toml(text: str) -> dict[str, Any]:
    """The TOML document in `text`; NotToml saying why not. tomllib lets two failures through as other errors:
    an integer of more than 4300 digits (Python reads none) and nesting deeper than Python follows."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise NotToml(str(error)) from None
    except ValueError:
        raise NotToml("a number too long to read") from None
    except RecursionError:
        raise NotToml("arrays or tables nested too deeply") from None


def write_atomically(path: Path, data: bytes, mode: int = 0o644) -> None:
    """`data` as the file `path`, through a synced temporary file beside it: a crash or power cut leaves the
    previous file whole. `mode` 0o644 lets `dicetable doctor` run by another user read it; 0o600 keeps it
    to its owner (what the temporary file has)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
