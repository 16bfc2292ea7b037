"""One module per `dicetable` subcommand (registered in appliance/cli.py)."""
from __future__ import annotations

import json


def print_figures(figures: dict, as_json: bool) -> None:
    """A flat dict of measured figures: one JSON line, or one `name: value` line each."""
    if as_json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name}: {value}")
