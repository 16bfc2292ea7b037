"""`dicetable run`: the appliance itself, as the kiosk service starts it."""
from __future__ import annotations

import argparse
from pathlib import Path

HELP = "Run the table: camera, buttons and screen from the settings (the kiosk service runs this)."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--settings", type=Path, metavar="FILE", help="the settings file (default: searched)")
    parser.add_argument("--log", type=Path, metavar="FILE",
                        help="the game log (default: ~/.local/share/dicetable/games.sqlite)")


def run(args: argparse.Namespace) -> int:
    from appliance import assemble
    from appliance.settings import load_settings

    assemble.quiet_pygame()
    settings, notes = load_settings(args.settings)
    calibration = assemble.load_calibration(settings, notes)
    output = assemble.open_output(settings, None, notes)
    source = assemble.open_camera(settings, notes)
    panel = assemble.open_buttons(settings, keyboard=output.flip, notes=notes)
    table = assemble.table_for(settings, args.log)
    for note in notes:
        print(f"dicetable: {note}", flush=True)  # the journal keeps them
    if notes:
        table.notice("; ".join(notes))
    app = assemble.appliance(settings, source, panel, table, output, calibration)
    try:
        app.run(keep_going=assemble.window_open if output.flip else (lambda: True))
    finally:
        source.close()
        panel.close()
    return 0
