"""The whole suite runs headless: pygame draws on SDL's dummy driver and plays no sound.

Each group of tests (rules, vision, hardware, calibration, table, commands, house) is a folder of its own, with a
conftest where it has fixtures; helpers for all groups are in tests/support.py. OpenCV and vision are imported by
the helpers that need them: a test of the rules or the table loads neither."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
