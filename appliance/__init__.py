"""The table: where the dice readings, the buttons, the rules and the screens meet."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the display library's greeting on every command's output
