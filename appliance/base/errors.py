"""The root of the dice table's own errors, as gpiozero's GPIOZeroError is of its: `except DiceTableError`
catches every error the project raises to say what is wrong, and nothing else.

Each error also derives from the builtin it is a case of (ValueError for bad input or a damaged file,
RuntimeError for a device or a log that fails), so a handler written for the builtin still catches it.
Two are left outside on purpose: fault_soak's Killed stands for the process dying (a handler of real
errors that caught it would measure a kill that never happened), and rendered_games' ScriptError is an
AssertionError (a script and the table disagree: a bug to see, not a problem to tell a player).
"""


class DiceTableError(Exception):
    """An error the dice table raises on purpose; str() says what is wrong."""
