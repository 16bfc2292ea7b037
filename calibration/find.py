"""Finding the tray, its keep zone and the size of a die in camera frames: plain OpenCV, no state.

Conventions (docs/SETUP.md explains them to the person building the tray):
- The camera looks down on the tray, and the middle of the picture is rolling felt.
- The rolling area is one felt colour and a plain four-cornered shape (its corners may be rounded).
- The keep zone is a strip across the full length of one side of the tray, 8% to 50% of the tray's
  depth, marked either with a felt of a clearly different colour, or with a tape line (any colour
  that stands out from the felt) separating it from the rolling area, same felt on both sides.
  Beyond the strip comes the tray's wall: the strip must end there, not run on into the table.

find_tray(frame) -> TrayOutline (tray and keep-zone corners in frame pixels) or raises FindError;
measure_die_size(frame_with_dice, empty_tray, tray) -> DieSize or raises FindError. Errors are
sentences for the screen: what was not found and what to do about it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from appliance.base.errors import DiceTableError

WORK_SIDE = 640  # frames are searched at this longer side (corners scaled back after)
LIGHTNESS_WEIGHT = 0.5  # light falls off towards the tray's corners: count lightness half
FELT_LEVEL = (16.0, 24.0)  # colour distance from the middle's felt still counted as felt (lowest, highest)
MIN_TRAY_AREA = 0.10  # of the frame: a smaller felt patch is not the tray seen from above
MIN_COLOUR_STEP = 14.0  # colour distance (Lab, lightness halved) that separates two felts
KEEP_DEPTH = (0.08, 0.50)  # keep strip depth, as a fraction of the rolling area's depth
TAPE_DEPTH = 0.10  # a tape line is at most this deep (fraction of the rolling depth)
UNIFORM = 0.75  # a row of felt: this share of its pixels close to the row's colour
SIDE_MARGIN = 0.12  # rows are sampled along a side without its ends (corners, shadows)
RECT = 400  # the rolling area is rectified to this many pixels across


class FindError(DiceTableError, ValueError):
    """Something the wizard could not find; the message says what the player should do."""


@dataclass(frozen=True)
class TrayOutline:
    tray: np.ndarray  # (4, 2) float32 frame pixels, clockwise from top-left; keep zone included
    keep: np.ndarray | None  # (4, 2) or None; shares its outer side with the tray
    rolling: np.ndarray  # (4, 2) the rolling felt alone
    keep_side: str | None  # "top", "right", "bottom" or "left" of the rolling area
    keep_marking: str | None  # "colour" or "tape"


@dataclass(frozen=True)
class DieSize:
    px: float  # edge of a die's top face in frame pixels (median over the dice)
    dice: int  # how many dice were measured
    outlines: tuple  # (4, 2) corner arrays of the measured dice, for the screen
    rejected: int = 0  # blobs that were not one flat die (touching, leaning, a hand)


# -- the tray ---------------------------------------------------------------------------------------


def find_tray(frame: np.ndarray) -> TrayOutline:
    """The tray and its keep zone in a frame of the empty tray."""
    scale = min(1.0, WORK_SIDE / max(frame.shape[:2]))
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame
    lab = _lab(small)
    rolling = find_rolling_area(lab)
    found = find_keep_zone(lab, rolling)
    back = np.float32(1 / scale)
    if found is None:
        return TrayOutline(rolling * back, None, rolling * back, None, None)
    tray, keep, side, marking = found
    return TrayOutline(tray * back, keep * back, rolling * back, side, marking)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Lab with the felt's grain smoothed away, lightness scaled by LIGHTNESS_WEIGHT."""
    lab = cv2.cvtColor(cv2.GaussianBlur(bgr, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= LIGHTNESS_WEIGHT
    return lab


def _distance(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    return np.sqrt(((lab - colour) ** 2).sum(axis=-1))


def find_rolling_area(lab: np.ndarray) -> np.ndarray:
    """Corners (4x2, work pixels) of the felt region around the middle of the picture."""
    h, w = lab.shape[:2]
    centre = lab[int(h * 0.45) : int(h * 0.55), int(w * 0.45) : int(w * 0.55)].reshape(-1, 3)
    felt = np.median(centre, axis=0)
    distance = _distance(lab, felt)
    spread = float(np.percentile(_distance(centre, felt), 90))
    if spread > 3 * MIN_COLOUR_STEP:
        raise FindError(
            "The middle of the picture is not one plain felt colour: clear the tray and point the camera at its middle."
        )
    # tight around the felt (its grain, the light falling off towards the corners), so that a wall of a
    # similar colour stays out; corners cut off by a darker light are restored by the straight sides
    level = min(max(2.5 * spread, FELT_LEVEL[0]), FELT_LEVEL[1])
    mask = (distance < level).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    label = labels[h // 2, w // 2]
    if label == 0:
        raise FindError("No felt in the middle of the picture: clear the tray and point the camera at it.")
    region = (labels == label).astype(np.uint8)
    if sum(int(edge.any()) for edge in (region[0], region[-1], region[:, 0], region[:, -1])) >= 2:
        raise FindError(
            "The felt runs out of the picture: raise the camera (or zoom out) until the whole "
            "tray and a little of its wall are in view."
        )
    if stats[label, cv2.CC_STAT_AREA] < MIN_TRAY_AREA * h * w:
        raise FindError(
            "The felt found is too small for a tray seen from above: bring the camera closer "
            "or point it at the tray's middle."
        )
    contour = max(cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    return quadrilateral(contour.reshape(-1, 2).astype(np.float32))


def quadrilateral(points: np.ndarray) -> np.ndarray:
    """The four corners of a roughly four-sided outline: a polygon fit to its hull, then each side
    refitted as a straight line through the outline's points along it (so rounded corners and dice
    lying on the edge do not pull the corners in)."""
    hull = cv2.convexHull(points).reshape(-1, 2)
    perimeter = cv2.arcLength(hull, True)
    approx = hull
    for fraction in np.linspace(0.01, 0.1, 19):
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True).reshape(-1, 2)
        if len(approx) <= 4:
            break
    if len(approx) != 4:
        raise FindError(
            "The felt's outline is not four-sided: the tray must be a plain rectangle seen from "
            "above, with nothing lying across its edge."
        )
    corners = order_corners(approx.astype(np.float32))
    lines = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        lines.append(_fit_side(points, a, b))
    refined = np.float32([_intersect(lines[i - 1], lines[i]) for i in range(4)])
    if not np.all(np.isfinite(refined)) or np.abs(refined - corners).max() > 0.1 * np.sqrt(cv2.contourArea(corners)):
        return corners  # the refit went astray (a very rounded shape): the polygon is the better guess
    return order_corners(refined)


def _fit_side(points: np.ndarray, a: np.ndarray, b: np.ndarray):
    """A line through the outline points near the middle 70% of side a-b."""
    ab = b - a
    length = float(np.hypot(*ab))
    t = ((points - a) @ ab) / (length**2)
    normal = np.float32([-ab[1], ab[0]]) / length
    off = np.abs((points - a) @ normal)
    near = points[(t > 0.15) & (t < 0.85) & (off < max(3.0, 0.03 * length))]
    if len(near) < 5:
        near = np.float32([a, b])
    vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.float32([x0, y0]), np.float32([vx, vy])


def _intersect(l1, l2) -> np.ndarray:
    (p, r), (q, s) = l1, l2
    cross = r[0] * s[1] - r[1] * s[0]
    if abs(cross) < 1e-6:
        return np.float32([np.nan, np.nan])
    t = ((q - p)[0] * s[1] - (q - p)[1] * s[0]) / cross
    return p + t * r


def order_corners(corners: np.ndarray) -> np.ndarray:
    """Clockwise (on screen) from the corner nearest the picture's top-left."""
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ordered = corners[np.argsort(angles)]  # y grows downwards: increasing angle is clockwise
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


# -- the keep zone ----------------------------------------------------------------------------------


def find_keep_zone(lab: np.ndarray, rolling: np.ndarray):
    """(tray, keep, side, marking) in work pixels, or None when no side of the rolling area has a keep strip.

    The rolling area is rectified (a RECT-wide rectangle, with room around it) so that the rows beyond
    each side run parallel to it; each side's rows are read outwards, and the strip is recognised from
    the sequence of plain rows: another felt colour right at the edge (colour marking), or a narrow band
    followed by the rolling felt again (tape marking), ending where the wall starts."""
    sides = np.hypot(*(rolling - np.roll(rolling, -1, axis=0)).T)
    width = RECT
    depth = int(round(RECT * (sides[1] + sides[3]) / (sides[0] + sides[2])))
    margin = int(KEEP_DEPTH[1] * max(width, depth) * 1.3)
    target = np.float32([[0, 0], [width, 0], [width, depth], [0, depth]]) + margin
    to_rect = cv2.getPerspectiveTransform(rolling.astype(np.float32), target)
    size = (width + 2 * margin, depth + 2 * margin)
    rect = cv2.warpPerspective(lab, to_rect, size, flags=cv2.INTER_LINEAR)
    valid = cv2.warpPerspective(np.ones(lab.shape[:2], np.uint8), to_rect, size, flags=cv2.INTER_NEAREST)
    felt = np.median(rect[margin : margin + depth, margin : margin + width].reshape(-1, 3), axis=0)

    best = None
    for side in ("top", "right", "bottom", "left"):
        rows, ok = _rows_outward(rect, valid, side, margin, width, depth)
        across = depth if side in ("top", "bottom") else width
        found = _read_strip(rows, ok, felt, across)
        if found and _ends_at_walls(rect, side, margin, width, depth, found):
            if best is None or found[0] > best[1][0]:
                best = (side, found)
    if best is None:
        return None
    side, (keep_depth, marking, _colour) = best
    x0, y0, x1, y1 = margin, margin, margin + width, margin + depth
    k = keep_depth
    keep_rect = {
        "top": (x0, y0 - k, x1, y0),
        "bottom": (x0, y1, x1, y1 + k),
        "left": (x0 - k, y0, x0, y1),
        "right": (x1, y0, x1 + k, y1),
    }[side]
    tray_rect = {
        "top": (x0, y0 - k, x1, y1),
        "bottom": (x0, y0, x1, y1 + k),
        "left": (x0 - k, y0, x1, y1),
        "right": (x0, y0, x1 + k, y1),
    }[side]
    back = np.linalg.inv(to_rect)
    tray = order_corners(_unrectify(tray_rect, back))
    keep = order_corners(_unrectify(keep_rect, back))
    return tray, keep, side, marking


def _unrectify(box, back) -> np.ndarray:
    x0, y0, x1, y1 = box
    pts = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, back).reshape(-1, 2)


def _side_view(array: np.ndarray, side: str, margin: int, width: int, depth: int) -> np.ndarray:
    """The part of the rectified picture beyond `side`, turned so that row 0 touches the rolling area and
    rows go outwards; columns run along the side."""
    x0, y0, x1, y1 = margin, margin, margin + width, margin + depth
    if side == "top":
        return array[:y0][::-1, x0:x1]
    if side == "bottom":
        return array[y1:, x0:x1]
    if side == "left":
        return np.swapaxes(array[y0:y1, :x0][:, ::-1], 0, 1)
    return np.swapaxes(array[y0:y1, x1:], 0, 1)


def _rows_outward(rect, valid, side, margin, width, depth):
    """Per row beyond the side: its median colour and whether it is plain (one colour along the side)."""
    view = _side_view(rect, side, margin, width, depth)
    inside = _side_view(valid, side, margin, width, depth)
    n = view.shape[1]
    cut = slice(int(n * SIDE_MARGIN), int(n * (1 - SIDE_MARGIN)))
    view, inside = view[:, cut], inside[:, cut]
    colours = np.median(view, axis=1)
    near = _distance(view, colours[:, None, :]) < MIN_COLOUR_STEP / 2
    plain = (near.mean(axis=1) >= UNIFORM) & (inside.mean(axis=1) > 0.98)
    return colours, plain


def _runs(colours, plain, start: int):
    """Consecutive plain rows of one colour, from `start` on: [(first, end, colour)]; stops at the first
    row that is not plain."""
    runs = []
    for i in range(start, len(colours)):
        if not plain[i]:
            break
        if runs and np.linalg.norm(colours[i] - runs[-1][2]) < MIN_COLOUR_STEP:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1, colours[i]])
    # a blurred edge between two colours leaves a row or two of in-between colour: not a band of its own
    runs = [r for k, r in enumerate(runs) if r[1] - r[0] > 2 or k == len(runs) - 1]
    merged = []
    for r in runs:
        if merged and np.linalg.norm(r[2] - merged[-1][2]) < MIN_COLOUR_STEP:
            merged[-1][1] = r[1]
        else:
            merged.append(r)
    return merged, i if len(colours) else 0


def _read_strip(colours, plain, felt, across):
    """(keep depth in rectified px, marking, colour) when the rows beyond a side read as a keep strip."""
    skip = max(2, int(0.01 * across))  # the edge itself is blurred
    runs, stop = _runs(colours, plain, skip)
    if not runs or stop >= len(colours) - 1:  # plain up to the picture's edge: a table, not a strip
        return None
    lo, hi = KEEP_DEPTH[0] * across, KEEP_DEPTH[1] * across
    first_is_felt = np.linalg.norm(runs[0][2] - felt) < MIN_COLOUR_STEP
    if not first_is_felt and lo <= runs[0][1] <= hi and _ends(runs, 0, stop):
        return runs[0][1], "colour", runs[0][2]
    # a tape line: a narrow band of another colour, then the rolling felt again, then the wall
    if not first_is_felt and runs[0][1] <= TAPE_DEPTH * across and len(runs) >= 2:
        after = runs[1]
        if np.linalg.norm(after[2] - felt) < MIN_COLOUR_STEP and lo <= after[1] <= hi and _ends(runs, 1, stop):
            return after[1], "tape", after[2]
    return None


def _ends(runs, index, stop) -> bool:
    """The strip ends in a change of colour or a row that is not plain, not at the edge of the view."""
    return index + 1 < len(runs) or runs[index][1] >= stop


def _ends_at_walls(rect, side, margin, width, depth, found) -> bool:
    """The strip stops at the tray's walls at both of its ends, unlike a table or a wide frame that
    continues past the rolling area's corners."""
    keep_depth, _, colour = found
    beyond = _beyond_ends(rect, side, margin, width, depth, keep_depth)
    if beyond is None:  # the ends are out of the picture: nothing speaks against the strip
        return True
    same = [np.linalg.norm(np.median(patch.reshape(-1, 3), axis=0) - colour) < MIN_COLOUR_STEP for patch in beyond]
    return not all(same)


def _beyond_ends(rect, side, margin, width, depth, keep_depth):
    """Two patches at the strip's middle depth, a little past each end of the side."""
    step = max(3, int(0.02 * (width if side in ("top", "bottom") else depth)))
    mid = int(keep_depth / 2)
    h, w = rect.shape[:2]
    x0, y0, x1, y1 = margin, margin, margin + width, margin + depth
    if side in ("top", "bottom"):
        y = y0 - mid if side == "top" else y1 + mid
        spots = [(x0 - step, y), (x1 + step, y)]
    else:
        x = x0 - mid if side == "left" else x1 + mid
        spots = [(x, y0 - step), (x, y1 + step)]
    r = 2
    patches = [
        rect[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1] for x, y in spots if 0 <= x < w and 0 <= y < h
    ]
    return patches if len(patches) == 2 else None


# -- the die size -----------------------------------------------------------------------------------

DIFFERENCE = 30  # grey levels from the empty tray that count as "something here" (as vision)
SHADOW_RATIO = 1.25  # a shadow darkens all channels alike: max/min of frame/empty below this
SQUARE = 1.25  # a flat die's outline: long side / short side at most this
SOLID = 0.75  # and it fills this share of its rectangle (rounded corners lose a little)


def measure_die_size(frame: np.ndarray, empty: np.ndarray, tray: np.ndarray | None = None) -> DieSize:
    """The edge of a die's top face, from dice lying apart on the felt, against the empty tray."""
    if frame.shape != empty.shape:
        raise FindError("The picture changed size since the empty tray was learned: go back and learn it again.")
    mask = _dice_mask(frame, empty)
    if tray is not None:
        inside = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(tray).astype(np.int32), 1)
        mask &= inside
    h, w = mask.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_area = max(30, 0.0002 * h * w)
    sizes, outlines, rejected = [], [], 0
    for label in range(1, n):
        area = stats[label, cv2.CC_STAT_AREA]
        if area < min_area:
            continue
        if area > 0.05 * h * w:
            raise FindError("Something large lies on the tray (a hand?): take it away, leave only the dice.")
        points = cv2.findNonZero((labels == label).astype(np.uint8))
        (cx, cy), (a, b), angle = cv2.minAreaRect(points)
        short, long = min(a, b), max(a, b)
        if long / max(short, 1) > SQUARE or area / max(a * b, 1) < SOLID:
            rejected += 1
            continue
        sizes.append((a + b) / 2)
        outlines.append(cv2.boxPoints(((cx, cy), (a, b), angle)).astype(np.float32))
    if not sizes and rejected:
        raise FindError(
            "The dice touch each other or lean against something: lay them flat, apart from "
            "each other and from the walls."
        )
    if len(sizes) < 2:
        raise FindError(
            "Fewer than two dice found: lay three to six dice flat on the felt, apart from each "
            "other, and keep your hands away."
        )
    return DieSize(float(np.median(sizes)), len(sizes), tuple(outlines), rejected)


def _dice_mask(frame: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Where the frame differs from the empty tray, without the dice's shadows."""
    f = cv2.GaussianBlur(frame, (3, 3), 0).astype(np.float32) + 1
    e = cv2.GaussianBlur(empty, (3, 3), 0).astype(np.float32) + 1
    different = np.abs(f - e).max(axis=2) > DIFFERENCE
    ratio = f / e
    shadow = (ratio.max(axis=2) / ratio.min(axis=2) < SHADOW_RATIO) & (ratio.mean(axis=2) < 1)
    mask = (different & ~shadow).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
