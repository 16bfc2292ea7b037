"""The table's screen state: what the buttons were doing between decisions (a cursor, a reading under review, a
message), kept beside the log as plain data so that a restart, whenever it came, shows the same screen."""

from __future__ import annotations

from dataclasses import asdict

from appliance import host_settings
from appliance.name_entry import NameEntry
from appliance.reading_review import Review, die_of, die_row
from vision.types import Reading


def state_of(table) -> dict:
    """The state of `table` (appliance.table.Table) to save."""
    pushed = table.pushed
    return {
        "game": table.at,
        "mode": table.mode,
        "setup": [table.setup_game, table.count, table.order_shift],
        "keep_view": list(table.keep_view),
        "roll_off": list(table.roll_off),
        "lying": [die_row(d) for d in table.lying],
        "throw_seen": table.throw_seen,
        "choosing": table.choosing,
        "cursor": table.chooser.cursor if table.chooser else 0,
        "review": None if table.review is None else table.review.row(),
        "pushed": None
        if pushed is None
        else {"dice": [die_row(d) for d in pushed.dice], "size": [pushed.width, pushed.height]},
        "viewing": table.viewing,
        "asked": table.asked,
        "message": [table.message, table.level],
        "names": {"settings": table.settings_names, "entered": table.names},
        "entry": asdict(table.entry) if table.entry else None,  # copies: the names change in place
        "host_settings": {"settings": table.settings_variants, "chosen": host_settings.chosen(table.variants)},
    }


def attributes(state: dict) -> dict:
    """The table's attributes a saved `state` gives back (its list, cursor and message are the table's to reopen).
    KeyError, TypeError, ValueError or IndexError: not a row this version wrote."""
    mode = state["mode"]
    setup_game, count, order_shift = state["setup"]
    back = dict(
        mode=mode,
        setup_game=setup_game,
        count=count,
        order_shift=order_shift,
        keep_view=tuple(state["keep_view"]),
        roll_off=list(state["roll_off"]),
        lying=tuple(die_of(row) for row in state.get("lying", [])),  # rows of older versions have none
        throw_seen=bool(state.get("throw_seen", False)),
        viewing=int(state.get("viewing", 0)),  # rows of older versions have neither this nor "pushed"
        asked=bool(state.get("asked", False)),
    )  # nor the advice asked for
    if state["review"]:
        back["review"] = Review.of_row(state["review"])
        if pushed := state.get("pushed"):
            back["pushed"] = Reading(tuple(die_of(row) for row in pushed["dice"]), *pushed["size"])
    if mode == "names":
        back["entry"] = NameEntry(**state["entry"])
    return back
