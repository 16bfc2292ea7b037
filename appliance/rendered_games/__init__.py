"""Rendered games: the game scripts (as data), playing them through the real table to get the
presses and the expected sheet, and writing the fixture set.

    python -m appliance.rendered_games.make tests/fixtures/throws

It lives in `appliance` because it drives the table; the pictures come from vision.lab.render.
"""
