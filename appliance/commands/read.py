"""`dicetable read IMAGE... [--kind d6|d10] [--die-px PX] [--json]`: the dice in each photo."""

from __future__ import annotations

import json

from . import add_reader_options, photo_reader, read_image

HELP = "read the dice in one or more photos"


def configure(parser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (any format OpenCV opens)")
    add_reader_options(parser)
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def run(args) -> int:
    import cv2

    cv2.setNumThreads(1)
    read = photo_reader(args)
    results, status = [], 0
    for path in args.images:
        frame, problem = read_image(path)
        if frame is None:
            results.append({"image": path, "error": problem})
            status = 1
            continue
        try:
            results.append({"image": path, **read(frame).to_json()})
        except ValueError as error:  # a die size this photo cannot hold
            results.append({"image": path, "error": str(error)})
            status = 1
    if args.json:
        print(json.dumps({"images": results}, indent=1))
        return status
    for result in results:
        if "error" in result:
            print(f"{result['image']}: {result['error']}")
            continue
        dice = result["dice"]
        print(f"{result['image']}: {len(dice)} {'die' if len(dice) == 1 else 'dice'}, {result['ms']:.0f} ms")
        if not dice and not args.die_px:
            other = "--kind d6" if args.kind == "d10" else "--kind d10"
            print(
                f"  (no dice found: if the photo shows {'six' if args.kind == 'd10' else 'ten'}-sided dice, read it "
                f"with {other}; if it shows dice, give their size in pixels with --die-px)"
            )
        for d in dice:
            shown = "cocked" if d["cocked"] else str(d["value"])
            if d["kind"] != args.kind:  # a six-sided die among ten-sided ones: said, not misread
                shown = f"{d['kind']} {shown}"
            flag = "  (uncertain)" if d["uncertain"] else ""
            print(
                f"  {shown:>6}  at ({d['centre'][0]:.0f}, {d['centre'][1]:.0f})"
                f"  {d['zone']}  confidence {d['confidence']:.2f}{flag}"
            )
        if result["doubted"]:  # what the table asks about where a die is missing (vision/README.md)
            spots = ", ".join(f"({d['centre'][0]:.0f}, {d['centre'][1]:.0f})" for d in result["doubted"])
            print(f"  taken for no die, likeliest dice first: {spots}")
    return status
