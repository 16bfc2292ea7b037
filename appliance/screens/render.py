"""Draw a Screen model: a title bar, the game on the left, dice and choices on the right, the buttons below."""
from __future__ import annotations

import pygame

from appliance.games.catalog import DICE_KIND
from appliance.games.sheet_game import SheetGame
from appliance.games.train_wreck import ENTRY, TrainWreckGame
from appliance.screen_model import Picture, Screen
from appliance.screens import draw
from appliance.screens.sheet_view import draw_sheet
from hardware.display import Layout, draw_frame

SMALLEST_SHEET_TEXT = 13  # design pixels at 800x480: the sheet's text shrinks no further to fit
MENU_MESSAGE_LINES = 4     # a menu has room for a longer message (settings warnings at start, say)
# What the tray is doing, in the title bar's status corner: there it shows on every screen, and it does not
# push the prompt and the choices down each time the dice start or stop rolling
TRAY_STATUS = {"moving": "dice rolling…", "hand": "hand in the tray", "empty": "the tray is empty"}


def render(surface: pygame.Surface, screen: Screen, layout: Layout, picture: Picture | None = None) -> None:
    surface.fill(draw.BACKGROUND)
    w, h = surface.get_size()
    m = layout.margin
    title_h = layout.px(44)
    hints_h = layout.button_bar if layout.touch else layout.px(40)
    _title_bar(surface, pygame.Rect(0, 0, w, title_h), screen, layout)
    body = pygame.Rect(m, title_h + m // 2, w - 2 * m, h - title_h - hints_h - m)
    if screen.game is None or screen.kind in ("choose-game", "choose-players"):
        _menu(surface, body, screen, layout)
    else:
        split = round(body.width * (0.58 if layout.size[0] < 1200 else 0.7))
        left = pygame.Rect(body.x, body.y, split - m, body.height)
        right = pygame.Rect(body.x + split, body.y, body.width - split, body.height)
        _game_panel(surface, left, screen, layout)
        bottom = _side_panel(surface, right, screen, layout)
        if picture is not None and not screen.choices and screen.kind == "play":
            _picture(surface, pygame.Rect(right.x, bottom + layout.px(8), right.width, right.bottom - bottom - layout.px(8)),
                     picture, layout)
    (_soft_buttons if layout.touch else _hints_bar)(surface, pygame.Rect(0, h - hints_h, w, hints_h), screen, layout)


def _title_bar(surface, rect, screen: Screen, layout: Layout) -> None:
    pygame.draw.rect(surface, draw.PANEL, rect)
    # a camera problem gets more room, in two lines: its cause is what the player needs to read
    title_share, status_lines = (0.4, 2) if screen.camera else (0.6, 1)
    draw.text(surface, screen.title, (layout.margin, rect.centery), layout.font_title, bold=True, anchor="midleft",
              max_width=rect.width * title_share)
    status, colour = (screen.camera, draw.ERROR_COLOUR) if screen.camera else (TRAY_STATUS.get(screen.tray, ""), draw.DIM)
    width = rect.width * (0.98 - title_share) - layout.margin
    shown = draw.lines(status, layout.font_small, int(width), status_lines) if status else []
    line_h = draw.font(layout.font_small).get_height()
    y = rect.centery - line_h * (len(shown) - 1) / 2
    for line in shown:
        draw.text(surface, line, (rect.right - layout.margin, y), layout.font_small, colour, anchor="midright")
        y += line_h


def _hints_bar(surface, rect, screen: Screen, layout: Layout) -> None:
    pygame.draw.rect(surface, draw.PANEL, rect)
    x = layout.margin
    for hint in screen.hints:
        label = draw.text(surface, hint.button, (x, rect.centery), layout.font_small, draw.ACCENT, bold=True,
                          anchor="midleft")
        does = draw.text(surface, hint.does, (label.right + layout.px(6), rect.centery), layout.font_small,
                         anchor="midleft")
        x = does.right + layout.px(18)


def _soft_buttons(surface, rect, screen: Screen, layout: Layout) -> None:
    """The hints as four buttons to tap (a touchscreen): each shows its name, what a tap does and, below,
    what holding it does."""
    pygame.draw.rect(surface, draw.PANEL, rect)
    tap, hold = button_actions(screen.hints)
    line_h = draw.font(layout.font_small).get_height()
    for button, cell in layout.soft_buttons().items():
        cell = pygame.Rect(cell).inflate(-layout.px(6), -layout.px(6))
        used = button in tap or button in hold
        pygame.draw.rect(surface, draw.GRID if used else draw.PANEL, cell, width=2, border_radius=layout.px(8))
        x, y = cell.x + layout.px(8), cell.centery - (line_h if button in hold else line_h // 2)
        name = draw.text(surface, button, (x, y), layout.font_small, draw.ACCENT if used else draw.DIM, bold=True)
        if button in tap:
            draw.text(surface, tap[button], (name.right + layout.px(6), y), layout.font_small,
                      max_width=cell.right - name.right - layout.px(14))
        if button in hold:   # shrunk a little rather than cut short
            held, width = f"hold: {hold[button]}", cell.width - layout.px(16)
            size = draw.fitting_size(held, layout.font_small, width, round(layout.font_small * 0.8))
            draw.text(surface, held, (x, y + line_h), size, draw.DIM, max_width=width)


def button_actions(hints) -> tuple[dict[str, str], dict[str, str]]:
    """({button: what a tap does}, {button: what holding it does}) from hints such as "PREV/NEXT fewer/more"
    (PREV fewer, NEXT more), "PREV/NEXT select a die" (both) or "hold OK bank 350"."""
    tap, hold = {}, {}
    for hint in hints:
        actions = hold if hint.button.startswith("hold ") else tap
        buttons = hint.button.removeprefix("hold ").split("/")
        parts = hint.does.split("/")
        for i, button in enumerate(buttons):
            actions[button] = parts[i] if len(parts) == len(buttons) else hint.does
    return tap, hold


def _menu(surface, body, screen: Screen, layout: Layout) -> None:
    y = draw.paragraph(surface, screen.prompt, body.topleft, layout.font_body, body.width, draw.DIM)
    y = _choices(surface, pygame.Rect(body.x, y + layout.px(8), body.width // 2, body.bottom - y), screen, layout,
                 size=layout.font_title, show_cursor=screen.kind == "choose-game")
    if screen.message:   # above the hints, as many lines as it takes (up to MENU_MESSAGE_LINES)
        top = body.bottom - draw.paragraph_height(screen.message, layout.font_body, body.width, MENU_MESSAGE_LINES)
        draw.paragraph(surface, screen.message, (body.x, max(top, y)), layout.font_body, body.width,
                       draw.LEVEL_COLOURS[screen.level], max_lines=MENU_MESSAGE_LINES)


def _game_panel(surface, rect, screen: Screen, layout: Layout) -> None:
    game = screen.game
    if isinstance(game, SheetGame):
        player = screen.extra.get("sheet_player", game.current)
        options = {c.key: c.points for c in screen.choices} if screen.extra.get("choosing") in ("field", "correct") else {}
        focus = screen.highlight[0] if screen.highlight else screen.extra.get("focus")
        draw_sheet(surface, rect, game, player, screen.highlight, focus, options, layout.font_small,
                   layout.px(SMALLEST_SHEET_TEXT))
    else:
        _scoreboard(surface, rect, game, layout)


def _scoreboard(surface, rect, game: TrainWreckGame, layout: Layout) -> None:
    size = layout.font_body
    row = size * 2
    draw.text(surface, f"goal {game.goal}", (rect.x, rect.y), size, draw.DIM)
    for i, (name, score, on_board) in enumerate(zip(game.players, game.scores, game.on_scoreboard)):
        y = rect.y + row * (i + 1)
        current = i == game.current
        colour = draw.ACCENT if current else draw.TEXT
        draw.text(surface, name, (rect.x, y), size, colour, bold=current, max_width=rect.width * 0.35)
        bar = pygame.Rect(rect.x + rect.width * 0.38, y + 2, rect.width * 0.42, size)
        pygame.draw.rect(surface, draw.PANEL, bar, border_radius=4)
        filled = bar.copy()
        filled.width = round(bar.width * min(1.0, score / game.goal))
        pygame.draw.rect(surface, draw.GOOD if on_board else draw.DIM, filled, border_radius=4)
        draw.text(surface, str(score), (rect.right, y), size, colour, bold=True, anchor="topright")
        if not on_board:
            draw.text(surface, f"needs a turn of {ENTRY}", (bar.x + 4, y + size + 2), layout.font_small, draw.DIM)
    turn_y = rect.y + row * (len(game.players) + 1) + layout.px(10)
    if not game.is_over:
        draw.text(surface, f"this turn: {game.turn_points}", (rect.x, turn_y), layout.font_title, draw.ACCENT, bold=True)
        if game.turn.note:
            draw.text(surface, game.turn.note, (rect.x, turn_y + layout.font_title + layout.px(12)), size, draw.TEXT)


def _side_panel(surface, rect, screen: Screen, layout: Layout) -> int:
    """Dice, prompt, message and choices; returns the y below what it drew."""
    y = rect.y
    if screen.dice:
        kind = DICE_KIND.get(screen.game_id, "d6")
        n = len(screen.dice)
        side = min(layout.die_size, (rect.width - (n - 1) * layout.px(10)) // n)
        for i, view in enumerate(screen.dice):
            box = pygame.Rect(rect.x + i * (side + layout.px(10)) + 4, y + 6, side, side)
            draw.die(surface, box, view.value, kind, held=view.held, uncertain=view.uncertain and not view.confirmed,
                     selected=view.selected, dim=not view.fresh)
            if i in screen.extra.get("advised_keep", ()):  # the advisor keeps this die: framed below the strip
                pygame.draw.line(surface, draw.GOOD, (box.x, box.bottom + 9), (box.right, box.bottom + 9), 4)
        y += side + layout.px(18)
    y = draw.paragraph(surface, screen.prompt, (rect.x, y), layout.font_body, rect.width, draw.TEXT)
    if screen.extra.get("best"):
        y = draw.paragraph(surface, screen.extra["best"], (rect.x, y + 2), layout.font_small, rect.width, draw.GOOD)
    if screen.message:
        y = draw.paragraph(surface, screen.message, (rect.x, y + 4), layout.font_small, rect.width,
                           draw.LEVEL_COLOURS[screen.level])
    if screen.kind == "game-over":
        for rank, name, total in screen.ranking:
            y = draw.text(surface, f"{rank}. {name}  {total}", (rect.x, y + 6), layout.font_title,
                          draw.ACCENT if rank == 1 else draw.TEXT, bold=rank == 1).bottom
        for line in screen.extra.get("review", ()):  # the advisor's look back, one paragraph a player
            y = draw.paragraph(surface, line, (rect.x, y + 6), layout.font_small, rect.width, draw.DIM)
    elif screen.choices:
        y = _choices(surface, pygame.Rect(rect.x, y + layout.px(6), rect.width, rect.bottom - y), screen, layout,
                     size=layout.font_body, show_cursor=True)
    return y


def _picture(surface, rect, picture: Picture, layout: Layout) -> None:
    """The camera's picture fitted into `rect`; a reading's dice boxed: green read, orange unsure,
    blue in the keep zone, red cocked or outside the tray."""
    scale = draw_frame(surface, picture.image, rect)
    if scale is None:
        return
    dice = picture.reading.dice if picture.reading else ()
    boxes = [pygame.Rect(rect.x + round(die.box[0] * scale), rect.y + round(die.box[1] * scale),
                         max(4, round((die.box[2] - die.box[0]) * scale)),
                         max(4, round((die.box[3] - die.box[1]) * scale))) for die in dice]
    labels = ["?" if die.value is None else str(die.value) for die in dice]
    spots = label_spots(boxes, [draw.font(layout.font_small, True).size(t) for t in labels], rect)
    for die, box, label, spot in zip(dice, boxes, labels, spots):
        colour = (draw.ERROR_COLOUR if die.cocked or die.zone == "outside" else draw.WARN_COLOUR if die.uncertain
                  else draw.HELD if die.zone == "keep" else draw.GOOD)
        pygame.draw.rect(surface, colour, box, width=2)
        draw.text(surface, label, spot.topleft, layout.font_small, colour, bold=True)


def label_spots(boxes: list[pygame.Rect], sizes: list[tuple[int, int]], bounds: pygame.Rect) -> list[pygame.Rect]:
    """Where each die's value goes: beside a corner of its box (above right first), the first corner whose
    label covers no other box or label, so that touching dice keep readable values; inside `bounds`."""
    taken = list(boxes)
    spots = []
    for box, (w, h) in zip(boxes, sizes):
        corners = [pygame.Rect(x, y, w, h).clamp(bounds) for x, y in
                   ((box.right, box.top - h), (box.left - w, box.top - h), (box.right, box.bottom),
                    (box.left - w, box.bottom))]
        others = [r for r in taken if r is not box]
        spot = next((c for c in corners if c.collidelist(others) < 0), corners[0])
        spots.append(spot)
        taken.append(spot)
    return spots


def _choices(surface, rect, screen: Screen, layout: Layout, size: int, show_cursor: bool) -> int:
    """A list with the cursor kept in view; returns the y below it. The text shrinks (down to the small
    size) rather than cut a label short."""
    widest = max((c.label + (f"  ({c.detail})" if c.detail else "") + f"  {c.points}" for c in screen.choices),
                 key=len, default="")
    size = draw.fitting_size(widest, size, rect.width - 32, layout.font_small)
    row = round(size * 1.6)
    visible = max(1, (rect.height - layout.font_small * 2) // row)  # room for the "n of m" line
    first = min(max(0, screen.cursor - visible // 2), max(0, len(screen.choices) - visible))
    y = rect.y
    for i, choice in enumerate(screen.choices[first:first + visible], start=first):
        line = pygame.Rect(rect.x, y, rect.width, row - 4)
        if show_cursor and i == screen.cursor:
            pygame.draw.rect(surface, draw.ACCENT, line, width=3, border_radius=6)
        label = choice.label + (f"  ({choice.detail})" if choice.detail else "")
        points_w = 0
        if choice.points is not None:
            points_w = draw.text(surface, str(choice.points), (line.right - 8, line.centery), size, draw.ACCENT,
                                 bold=True, anchor="midright").width + 12
        draw.text(surface, label, (line.x + 8, line.centery), size, anchor="midleft",
                  max_width=line.width - points_w - 16)
        y += row
    if len(screen.choices) > visible:
        draw.text(surface, f"{screen.cursor + 1} of {len(screen.choices)}", (rect.right, y), layout.font_small,
                  draw.DIM, anchor="topright")
    return y
