"""Ten-sided dice: `read_d10(frame, calibration=None) -> Reading` (see reader.py)."""

from .reader import D10Reader, read_d10

__all__ = ["D10Reader", "read_d10"]
