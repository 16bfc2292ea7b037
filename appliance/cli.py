"""The `dicetable` command: one entry point, one module per subcommand.

Each subcommand lives in `appliance.commands.<name>` and provides HELP, configure(parser) and
run(args) -> exit code. Command modules import the library (OpenCV, the display) inside run(), so
`dicetable rules` starts without loading them.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = (
    "read",
    "evaluate",
    "bench",
    "rules",
    "run",
    "demo",
    "replay",
    "history",
    "doctor",
    "calibrate",
    "record",
    "advise",
    "dice",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dicetable", description="Keeps score while people play with real dice.")
    parser.add_argument("--version", action="version", version=f"dicetable {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        module = importlib.import_module(f"appliance.commands.{name}")
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(command)
        command.set_defaults(run=module.run)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dicetable")
    except PackageNotFoundError:  # run from a checkout that was not installed
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    from appliance.base.errors import DiceTableError

    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except DiceTableError as error:  # bad input a command did not answer itself: named, never a traceback
        print(f"dicetable {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `dicetable ... | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
