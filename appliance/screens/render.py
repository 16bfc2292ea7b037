"""Draw a Screen model: a title bar, the game on the left, dice and choices on the right, the camera's picture
(appliance/screens/camera.py) below them, the buttons at the bottom."""

from __future__ import annotations

import pygame

from appliance.screen_model import Picture, ScoreboardView, Screen
from appliance.screens import camera, draw
from appliance.screens.layout import Layout
from appliance.screens.sheet_view import draw_sheet

# Text sizes in design pixels at 800x480 (the font's em; capitals are three quarters of it): nothing a player
# reads is smaller than SMALLEST_TEXT, the totals and the places not smaller than SCORE_TEXT, the prompt not
# smaller than PROMPT_TEXT (tests/table/test_legibility.py measures every screen against them)
SMALLEST_TEXT, SCORE_TEXT, PROMPT_TEXT = 14, 16, 18
SMALLEST_SHEET_TEXT = SMALLEST_TEXT  # the sheet's text shrinks no further to fit
MENU_MESSAGE_LINES = 4  # a menu has room for a longer message (settings warnings at start, say)
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
    if screen.sheet is None and screen.scoreboard is None or screen.kind in ("choose-game", "choose-players"):
        _menu(surface, body, screen, layout)
    else:
        split = round(body.width * (0.58 if layout.size[0] < 1200 else 0.7))
        left = pygame.Rect(body.x, body.y, split - m, body.height)
        right = pygame.Rect(body.x + split, body.y, body.width - split, body.height)
        _game_panel(surface, left, screen, layout)
        bottom = _side_panel(surface, right, screen, layout)
        if picture is not None and not screen.choices and screen.kind == "play":
            camera.picture(
                surface,
                pygame.Rect(right.x, bottom + layout.px(8), right.width, right.bottom - bottom - layout.px(8)),
                picture,
                layout,
                screen.checked,
                advised_values(screen),
            )
    (_soft_buttons if layout.touch else _hints_bar)(surface, pygame.Rect(0, h - hints_h, w, hints_h), screen, layout)


def advised_values(screen: Screen) -> tuple[int, ...]:
    """The values of the dice the advice keeps (indices into the dice strip)."""
    return tuple(screen.dice[i].value for i in screen.advised_keep if screen.dice[i].value is not None)


def _title_bar(surface, rect, screen: Screen, layout: Layout) -> None:
    pygame.draw.rect(surface, draw.PANEL, rect)
    # a camera problem gets more room, in two lines: its cause is what the player needs to read
    title_share, status_lines = (0.4, 2) if screen.camera else (0.6, 1)
    room = round(rect.width * title_share)  # a long name: the title smaller, then shortened
    size = draw.fitting_size(screen.title, layout.font_title, room, layout.font_body, bold=True)
    draw.text(
        surface,
        draw.abbreviated(screen.title, size, room, bold=True),
        (layout.margin, rect.centery),
        size,
        bold=True,
        anchor="midleft",
    )
    tray = TRAY_STATUS.get(screen.tray, "") if screen.kind == "play" else ""  # only while dice are played
    status, colour = (screen.camera, draw.ERROR_COLOUR) if screen.camera else (tray, draw.DIM)
    width = rect.width * (0.98 - title_share) - layout.margin
    shown = draw.lines(status, layout.font_small, int(width), status_lines) if status else []
    line_h = draw.font(layout.font_small).get_height()
    y = rect.centery - line_h * (len(shown) - 1) / 2
    for line in shown:
        draw.text(surface, line, (rect.right - layout.margin, y), layout.font_small, colour, anchor="midright")
        y += line_h


def _hints_bar(surface, rect, screen: Screen, layout: Layout) -> None:
    """What each button does: in one line, smaller (down to the smallest text) when the hints are many, and
    in two lines when even that is too wide."""
    pygame.draw.rect(surface, draw.PANEL, rect)
    pairs = [(hint.button, hint.does) for hint in screen.hints]
    room = rect.width - layout.margin
    size = layout.font_small
    while size > layout.px(SMALLEST_TEXT) and _hints_width(pairs, size, layout) > room:
        size -= 1
    rows = [pairs]
    if _hints_width(pairs, size, layout) > room:
        split = max(i for i in range(1, len(pairs) + 1) if _hints_width(pairs[:i], size, layout) <= room)
        rows = [pairs[:split], pairs[split:]]
    line_h = draw.font(size).get_height()
    for r, row in enumerate(rows):
        x, y = layout.margin, rect.centery + (r - (len(rows) - 1) / 2) * line_h
        for button, does in row:
            label = draw.text(surface, button, (x, y), size, draw.ACCENT, bold=True, anchor="midleft")
            done = draw.text(surface, does, (label.right + layout.px(6), y), size, anchor="midleft")
            x = done.right + layout.px(14)


def _hints_width(pairs, size: int, layout: Layout) -> int:
    return sum(draw.font(size, True).size(b)[0] + draw.font(size).size(d)[0] + layout.px(20) for b, d in pairs)


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
        if button in tap:  # shrunk to the smallest text, then shortened, rather than cut
            room = cell.right - name.right - layout.px(14)
            size = draw.fitting_size(tap[button], layout.font_small, room, layout.px(SMALLEST_TEXT))
            draw.text(surface, draw.abbreviated(tap[button], size, room), (name.right + layout.px(6), y), size)
        if button in hold:  # shrunk a little rather than cut short
            held, width = f"hold: {hold[button]}", cell.width - layout.px(16)
            size = draw.fitting_size(held, layout.font_small, width, layout.px(SMALLEST_TEXT))
            draw.text(surface, draw.abbreviated(held, size, width), (x, y + line_h), size, draw.DIM)


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
    room = pygame.Rect(body.x, y + layout.px(8), body.width, body.bottom - y - layout.px(8))
    if screen.kind == "names":  # the wheel of letters along the bottom, the names above it
        wheel_h = draw.font(layout.font_title, True).get_height() + layout.px(16)
        _letter_wheel(surface, pygame.Rect(body.x, body.bottom - wheel_h, body.width, wheel_h), screen, layout)
        room.height -= wheel_h
    if screen.kind == "choose-players":
        y = _names(surface, room, [c.label for c in screen.choices], layout)
    else:
        y = _choices(
            surface,
            pygame.Rect(room.x, room.y, body.width // 2, room.height),
            screen,
            layout,
            size=layout.font_title,
            show_cursor=screen.kind in ("choose-game", "names"),
        )
    if screen.message:  # above the hints, as many lines as it takes (up to MENU_MESSAGE_LINES)
        top = body.bottom - draw.paragraph_height(screen.message, layout.font_body, body.width, MENU_MESSAGE_LINES)
        draw.paragraph(
            surface,
            screen.message,
            (body.x, max(top, y)),
            layout.font_body,
            body.width,
            draw.LEVEL_COLOURS[screen.level],
            max_lines=MENU_MESSAGE_LINES,
        )


def _letter_wheel(surface, rect, screen: Screen, layout: Layout) -> None:
    """The letters around the one OK adds, that one framed in the middle."""
    letters, chosen = screen.letters.letters, screen.letters.chosen
    size = layout.font_title
    cell = draw.font(size, True).size("W")[0] + layout.px(10)
    half = (rect.width // cell - 1) // 2
    for offset in range(-half, half + 1):
        letter = letters[(chosen + offset) % len(letters)]
        box = pygame.Rect(0, 0, cell, rect.height - layout.px(8))
        box.center = (rect.centerx + offset * cell, rect.centery)
        if offset == 0:
            pygame.draw.rect(surface, draw.ACCENT, box, width=3, border_radius=layout.px(6))
        draw.text(
            surface,
            "␣" if letter == " " else letter,
            box.center,
            size,
            draw.ACCENT if offset == 0 else draw.DIM,
            bold=offset == 0,
            anchor="center",
        )


def _names(surface, rect, names: list[str], layout: Layout) -> int:
    """The players in playing order, every one of them: in two columns, and smaller, when they are many."""
    size, columns = layout.font_title, 1
    while draw.font(size).get_height() * -(-len(names) // columns) > rect.height:
        if columns == 1:
            columns = 2
        elif size > layout.font_body:
            size -= 1
        else:
            break
    per_column = -(-len(names) // columns)
    width = rect.width // columns
    bottom = rect.y
    for i, name in enumerate(names):
        x, y = rect.x + (i // per_column) * width, rect.y + (i % per_column) * draw.font(size).get_height()
        bottom = max(
            bottom,
            draw.text(surface, f"{i + 1}. {draw.abbreviated(name, size, width - layout.px(40))}", (x, y), size).bottom,
        )
    return bottom


def _game_panel(surface, rect, screen: Screen, layout: Layout) -> None:
    if screen.sheet is not None:
        draw_sheet(surface, rect, screen.sheet, layout.font_small, layout.px(SMALLEST_SHEET_TEXT))
    else:
        _scoreboard(surface, rect, screen.scoreboard, layout)


def _scoreboard(surface, rect, board: ScoreboardView, layout: Layout) -> None:
    """The goal, a row per player (a bar towards the goal, or what it takes to get on the scoreboard), the one
    to act (to roll for the start, in the roll-off) marked, then this turn's points; the rows share what room
    the players leave."""
    size = layout.font_body
    line = draw.font(size).get_height()
    y = draw.text(surface, f"goal {board.goal}", (rect.x, rect.y), size, draw.DIM).bottom
    turn = board.turn_points is not None  # a turn is under way
    turn_h = draw.font(layout.font_title).get_height() + (line if board.note else 0) + 8 if turn else 0
    row = max(line, min(round(size * 1.8), (rect.bottom - y - turn_h) // len(board.rows)))
    for i, player in enumerate(board.rows):
        current = i == board.acting
        colour = draw.ACCENT if current else draw.TEXT
        draw.text(
            surface,
            draw.abbreviated(player.name, size, round(rect.width * 0.36), current),
            (rect.x, y),
            size,
            colour,
            bold=current,
        )
        bar = pygame.Rect(rect.x + rect.width * 0.38, y + (line - size) // 2, rect.width * 0.42, size)
        if player.on_scoreboard:
            pygame.draw.rect(surface, draw.PANEL, bar, border_radius=4)
            reached = round(bar.width * min(1.0, player.score / board.goal))
            pygame.draw.rect(surface, draw.GOOD, (bar.x, bar.y, reached, bar.h), border_radius=4)
        else:
            draw.text(
                surface,
                f"needs a turn of {board.entry}",
                (bar.x, bar.centery),
                layout.font_small,
                draw.DIM,
                anchor="midleft",
            )
        draw.text(surface, str(player.score), (rect.right, y), size, colour, bold=True, anchor="topright")
        y += row
    if turn:
        y = draw.text(
            surface, f"this turn: {board.turn_points}", (rect.x, y + 8), layout.font_title, draw.ACCENT, bold=True
        ).bottom
        if board.note:
            draw.text(surface, board.note, (rect.x, y), size, draw.TEXT)


def _side_panel(surface, rect, screen: Screen, layout: Layout) -> int:
    """Dice, prompt, message and choices; returns the y below what it drew."""
    y = rect.y
    if screen.dice:
        n = len(screen.dice)
        side = min(layout.die_size, (rect.width - (n - 1) * layout.px(10)) // n)
        for i, view in enumerate(screen.dice):
            box = pygame.Rect(rect.x + i * (side + layout.px(10)) + 4, y + side // 4, side, side)  # room for a "?"
            draw.die(
                surface,
                box,
                view.value,
                screen.pips,
                held=view.held,
                uncertain=view.uncertain and not view.confirmed,
                selected=view.selected,
                dim=not view.fresh,
            )
            if i in screen.advised_keep:  # the advisor keeps this die: underlined, above the cursor
                pygame.draw.line(surface, draw.GOOD, (box.x, box.bottom + 6), (box.right, box.bottom + 6), 3)
        y += side + side // 4 + max(6, side // 6) + layout.px(14)  # below the dice: the cursor's pointer
    y = draw.paragraph(surface, screen.prompt, (rect.x, y), layout.font_body, rect.width, draw.TEXT)
    if screen.best:
        y = draw.paragraph(surface, screen.best, (rect.x, y + 2), layout.font_small, rect.width, draw.GOOD)
    if screen.message:
        y = draw.paragraph(
            surface, screen.message, (rect.x, y + 4), layout.font_small, rect.width, draw.LEVEL_COLOURS[screen.level]
        )
    if screen.kind == "game-over":
        review, line = screen.review, draw.font(layout.font_small).get_height() + 2
        room = rect.bottom - y - 6 - len(review) * line  # the ranking shrinks to leave a line a player for the review
        y = _ranking(surface, pygame.Rect(rect.x, y + 6, rect.width, room), screen.ranking, layout)
        for said in review[
            : max(0, (rect.bottom - y) // line)
        ]:  # the advisor's look back: a line a player, points first
            y = draw.text(
                surface,
                draw.abbreviated(said, layout.font_small, rect.width),
                (rect.x, y + 2),
                layout.font_small,
                draw.DIM,
            ).bottom
    elif screen.choices:
        y = _choices(
            surface,
            pygame.Rect(rect.x, y + layout.px(6), rect.width, rect.bottom - y),
            screen,
            layout,
            size=layout.font_body,
            show_cursor=True,
        )
    return y


def _ranking(surface, rect, ranking, layout: Layout) -> int:
    """Places, names and totals, as large as the room for all of them allows (long names shortened); returns the
    y below them."""
    size = layout.font_title
    while size > layout.px(SCORE_TEXT) and draw.font(size).get_height() * len(ranking) > rect.height:
        size -= 1
    y = rect.y
    for rank, name, total in ranking:
        first = rank == 1
        place, points = f"{rank}. ", f"  {total}"
        room = rect.width - draw.font(size, first).size(place + points)[0]
        y = draw.text(
            surface,
            place + draw.abbreviated(name, size, room, first) + points,
            (rect.x, y),
            size,
            draw.ACCENT if first else draw.TEXT,
            bold=first,
        ).bottom
    return y


def _choices(surface, rect, screen: Screen, layout: Layout, size: int, show_cursor: bool) -> int:
    """A list with the cursor kept in view; returns the y below it. The text shrinks (down to the small
    size) rather than cut a label short."""
    widest = max(
        (c.label + (f"  ({c.detail})" if c.detail else "") + f"  {c.points}" for c in screen.choices),
        key=len,
        default="",
    )
    size = draw.fitting_size(widest, size, rect.width - 32, layout.px(SMALLEST_TEXT))
    row = round(size * 1.6)
    visible = max(1, (rect.height - layout.font_small * 2) // row)  # room for the "n of m" line
    first = min(max(0, screen.cursor - visible // 2), max(0, len(screen.choices) - visible))
    y = rect.y
    for i, choice in enumerate(screen.choices[first : first + visible], start=first):
        line = pygame.Rect(rect.x, y, rect.width, row - 4)
        if show_cursor and i == screen.cursor:
            pygame.draw.rect(surface, draw.ACCENT, line, width=3, border_radius=6)
        label = choice.label + (f"  ({choice.detail})" if choice.detail else "")
        points_w = 0
        if choice.points is not None:
            points_w = (
                draw.text(
                    surface,
                    str(choice.points),
                    (line.right - 8, line.centery),
                    size,
                    draw.ACCENT,
                    bold=True,
                    anchor="midright",
                ).width
                + 12
            )
        draw.text(
            surface,
            draw.abbreviated(label, size, line.width - points_w - 16),
            (line.x + 8, line.centery),
            size,
            anchor="midleft",
        )
        y += row
    if len(screen.choices) > visible:
        draw.text(
            surface,
            f"{screen.cursor + 1} of {len(screen.choices)}",
            (rect.right, y),
            layout.font_small,
            draw.DIM,
            anchor="topright",
        )
    return y
