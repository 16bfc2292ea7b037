"""The `dicetable` command: one entry point, one module per subcommand.

Each subcommand lives in `appliance.commands.<name>` and provides HELP, configure(parser) and
run(args) -> exit code. Command modules import heavy libraries (OpenCV, pygame) inside run(), so
`dicetable rules` starts without loading them.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# subcommand -> module under appliance.commands (the module name can differ: `read` is a builtin)
COMMANDS = {
    "read": "read",
    "evaluate": "evaluate",
    "bench": "bench",
    "rules": "rules",
    "run": "run",
    "demo": "demo",
    "replay": "replay",
    "history": "history",
    "doctor": "doctor",
    "calibrate": "calibrate",
    "record": "record",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dicetable", description="Keeps score while people play with real dice.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"appliance.commands.{module_name}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `dicetable ... | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
