"""A renderer of the tray as the camera sees it: felt, wall, keep zone, perspective and lens, light and
shadows, d6 and d10 dice rolling and at rest, a hand and arm. Deterministic from a seed.

    from vision.lab.render import Scene, render_frame, DiePose
    scene = Scene.random(seed)                       # tray, camera, light, looks
    frame, labels = render_frame(scene, dice=[...])  # one BGR frame and each die's label

Recorded-throw folders (docs/RECORDINGS.md) come from vision.lab.render.sequence; the committed fixture set
from `python -m appliance.rendered_games.make OUT_DIR`; training material from
vision.lab.render.training.render_training_set. Only numpy and OpenCV here (the TrueType numerals come from a
shipped glyph atlas: glyphs.py); dice drawn flat, without the camera, in flat.py. The game scripts and the
driver that plays them through the table live in appliance.rendered_games.
"""

from .camera import Camera
from .scene import Scene, Tray

__all__ = ["Camera", "Scene", "Tray"]
