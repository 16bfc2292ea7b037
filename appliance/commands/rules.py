"""`dicetable rules GAME`: the field table, combination frequencies and optima of a game."""

from __future__ import annotations

import argparse
import json
import sys

from appliance.games import GAME_IDS
from appliance.games.variants import VARIANTS, parse_assignments, resolve, spelled
from appliance.words import count

HELP = "Show a game's fields, how often each combination comes up, and the best possible scores."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=GAME_IDS)
    parser.add_argument(
        "--frequencies", action="store_true", help="for each combination field, how many of all possible rolls qualify"
    )
    parser.add_argument("--optimum", action="store_true", help="the best possible score per section and column")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game variant, e.g. wrap=off for hexakubus (see the field table for each game's variants)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="machine-readable output: one JSON document (with both --frequencies and --optimum, "
        '{"frequencies": ..., "optimum": ...}, each as the option alone prints it)',
    )


def run(args: argparse.Namespace) -> int:
    from appliance.games.analysis import frequencies, optimum
    from appliance.games.tables import BUILDERS, sheet_rules

    variants = parse_assignments(args.variant)
    if args.game not in BUILDERS:
        return _not_a_sheet_game(args, resolve(args.game, variants))
    rules = sheet_rules(args.game, variants)

    documents = {}  # with --json, what each option prints: one document, or both in one
    if args.frequencies:
        counts = frequencies(rules)
        if args.json:
            documents["frequencies"] = {str(k): v for k, v in counts.items()}
        else:
            rolls = rules.faces**rules.dice
            print(f"{rules.name}: rolls that qualify, of all {rolls:,} rolls of {rules.dice} d{rules.faces}")
            for number, rolled in counts.items():
                print(f"  {number:>3} {rules.field(number).name:<28} {rolled:>9,}  {1000 * rolled / rolls:6.1f} ‰")
    if args.optimum:
        best = optimum(rules)
        kinds = rules.columns
        report = {
            "game": rules.id,
            "sections": best["sections"],
            "columns": {rules.column_label(c): best["column"] for c in range(len(kinds))},
            "total": best["total"],
            "fields": {str(k): v for k, v in best["fields"].items()},
        }
        if args.json:
            documents["optimum"] = report
        else:
            sections = ", ".join(f"{name} {points}" for name, points in best["sections"].items())
            print(
                f"{rules.name} optimum per column: {sections}; column {best['column']}, "
                f"{count(len(kinds), 'column')} {best['total']}"
            )
    if documents:
        print(json.dumps(documents if len(documents) > 1 else next(iter(documents.values()))))
    if not (args.frequencies or args.optimum):
        _print_table(rules, args.json)
    return 0


def _print_table(rules, as_json: bool) -> None:
    rows = [
        {
            "field": f.number,
            "name": f.name,
            "section": f.section,
            "points": f.points
            if isinstance(f.points, int)
            else ("sum of all dice" if f.points == "all" else "sum of the dice taking part"),
            "bonus": f.bonus,
            "slam": f.slam,
        }
        for f in rules.fields
    ]
    sections = [
        {"section": s.name, "fields": [s.fields[0], s.fields[-1]], "threshold": s.threshold, "bonus": s.bonus}
        for s in rules.sections
    ]
    if as_json:
        print(
            json.dumps(
                {
                    "game": rules.id,
                    "variants": rules.variants,
                    "columns": list(rules.columns),
                    "fields": rows,
                    "sections": sections,
                }
            )
        )
        return
    print(
        f"{rules.name}: {rules.dice} d{rules.faces}, up to {rules.attempts} attempts"
        f", columns: {', '.join(rules.columns)}"
    )
    for row in rows:
        extra = "".join(f", +{row[k]} {k}" for k in ("bonus", "slam") if row[k])
        print(f"  {row['field']:>3} {row['name']:<28} [{row['section']}] {row['points']}{extra}")
    for s in sections:
        if s["threshold"]:
            print(
                f"  section {s['section']}: +{s['bonus']} when fields {s['fields'][0]}-{s['fields'][1]}"
                f" total {s['threshold']} or more"
            )
    _print_variants(rules.id, rules.variants)


def _not_a_sheet_game(args, variants: dict) -> int:
    if args.frequencies or args.optimum:
        print(
            f"dicetable rules: {args.game} has no scoresheet; --frequencies and --optimum are for "
            "dice-poker, pentakubus and hexakubus",
            file=sys.stderr,
        )
        return 2
    from appliance.games.train_wreck import describe

    rules = describe(goal=variants["goal"])
    if args.json:
        print(json.dumps(rules | {"variants": variants}))
        return 0

    def faces(points: dict) -> str:
        return ", ".join(f"{face}s {p}" for face, p in points.items())

    print(
        f"Train Wreck: {rules['dice']} d6, the first to {rules['goal']} points wins (others may still tie or pass); "
        f"a turn of {rules['entry']} or more gets a player on the scoreboard"
    )
    print("  single dice: " + ", ".join(f"a {face} {p}" for face, p in rules["singles"].items()))
    for name, points in rules["of_a_kind"].items():
        print(f"  {name}: {faces(points)}")
    print(f"  straight {' or '.join(rules['straights'])}: {next(iter(rules['straights'].values()))}")
    print(f"  a triple's other dice are rolled until none shows its value, at most {rules['confirmation_rolls']} rolls")
    print("  after a train wreck, one die set aside per roll, in five rolls:")
    straights = rules["sequential_straights"]
    print(f"    sequential straight {', '.join(straights)}: {next(iter(straights.values()))}")
    print(f"    sequential quintuple: {faces(rules['sequential_quintuples'])}")
    _print_variants(args.game, variants)
    return 0


def _print_variants(game: str, values: dict) -> None:
    """Each variant as --variant spells it, so the line can be copied."""
    for variant in VARIANTS[game]:
        print(f"  variant {variant.key}={spelled(values[variant.key])}: {variant.help} ({variant.allowed})")
