"""The settings a host changes at the table, between games: Train Wreck's goal, Hexakubus's wrap-around
straights. OK on one turns it to its next value; the games started from then on are played with it. The
values chosen are kept beside the game log with the settings' values they replaced, as the names are
(appliance/name_entry.py): the next night starts with them until the settings file is changed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.games.catalog import GAME_NAMES
from appliance.games.train_wreck import GOALS
from appliance.games.variants import VARIANTS, spelled

# (game, variant): its values in the order OK turns through them, and what the list calls it
TURNABLE = {
    ("train-wreck", "goal"): (tuple(GOALS), "goal"),
    ("hexakubus", "wrap"): ((True, False), "wrap-around straights"),
}


def value(variants: Mapping[str, Mapping[str, Any]], game: str, key: str) -> Any:
    """The value a game would be played with: the one given, else the rules' default."""
    default = next(v.default for v in VARIANTS[game] if v.key == key)
    return variants.get(game, {}).get(key, default)


def labels(variants: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, tuple[str, str]]]:
    """("Train Wreck goal: 1000", (game, key)) for each setting the host may turn."""
    return [
        (f"{GAME_NAMES[game]} {name}: {spelled(value(variants, game, key))}", (game, key))
        for (game, key), (_, name) in TURNABLE.items()
    ]


def turned(variants: dict[str, dict[str, Any]], game: str, key: str) -> None:
    """The setting turned to its next value, in place."""
    values = TURNABLE[(game, key)][0]
    now = value(variants, game, key)
    variants[game][key] = values[(values.index(now) + 1) % len(values)] if now in values else values[0]


def chosen(variants: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The turnable settings as plain data: {"train-wreck.goal": 750, ...}."""
    return {f"{game}.{key}": value(variants, game, key) for game, key in TURNABLE}


def remembered(state: dict, variants: dict[str, dict[str, Any]]) -> None:
    """The values chosen at the table on an earlier night (kept in the saved screen `state`), put into `variants`
    in place while the settings still give the values they replaced."""
    saved = state.get("host_settings")
    if not isinstance(saved, dict) or saved.get("settings") != chosen(variants):
        return
    for (game, key), (values, _) in TURNABLE.items():
        picked = (saved.get("chosen") or {}).get(f"{game}.{key}")
        if picked in values and type(picked) is type(values[0]):
            variants[game][key] = picked
