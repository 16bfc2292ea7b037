"""The fixture set's game scripts, as data: each names its game, players, seed and what happens.

Sheet games: "turns", each a list of "attempts" ({"throw": values} then {"hold": values, "throw":
values}) and the "field" chosen ("best", a field number, or [column label, number]). An attempt may add
"cocked": k or "outside": k (die k first lands cocked / outside and is thrown again), "hand": true (a
hand passes over the still dice before OK), "misread": {"die": i, "read_as": v} (the reader is told to
misread die i of the rest's labels; the player corrects it), "touching": true.
Train Wreck: "steps": {"roll": values}, {"set_aside": values}, {"action": "bank" | "accept" | "reroll" |
"start_salvage" | "decline_salvage"}.
"""

from __future__ import annotations

SCENARIOS = [
    {
        "id": "dice-poker-holds",
        "game": "dice-poker",
        "players": ["Ann"],
        "seed": 101,
        "turns": [
            {
                "attempts": [
                    {"throw": [6, 6, 2, 3, 1], "touching": True},
                    {"hold": [6, 6], "throw": [6, 4, 4]},
                    {"hold": [6, 6, 6], "throw": [6, 6]},
                ],
                "field": "best",
            }
        ],
    },
    {
        "id": "pentakubus-slam",
        "game": "pentakubus",
        "players": ["Ann", "Bob"],
        "seed": 102,
        "turns": [
            {"attempts": [{"throw": [3, 3, 3, 5, 5]}], "field": ["middle", 22]},  # full house in one: slam
            {"attempts": [{"throw": [4, 4, 1, 2, 6]}, {"hold": [4, 4], "throw": [4, 2, 2]}], "field": ["middle", 22]},
        ],
    },  # held 4s: no slam
    {
        "id": "hexakubus-six-d10",
        "game": "hexakubus",
        "players": ["Ann"],
        "seed": 103,
        "mixed": True,
        "turns": [
            {"attempts": [{"throw": [10, 3, 7, 7, 1, 9]}, {"hold": [7, 7], "throw": [7, 6, 9, 2]}], "field": "best"}
        ],
    },
    {
        "id": "train-wreck-turns",
        "game": "train-wreck",
        "players": ["Ann", "Bob"],
        "seed": 104,
        "size": [720, 540],
        "steps": [
            {"roll": [3]},
            {"roll": [5]},  # roll-off: Bob starts
            {"roll": [1, 1, 1, 2, 6]},
            {"set_aside": [1, 1, 1]},  # a triple: confirmed with two dice
            {"roll": [3, 5]},  # no 1 among them: confirmed, the 5 scores
            {"action": "bank"},
            {"roll": [1, 5, 2, 3, 3]},
            {"set_aside": [1, 5]},  # Ann: singles set aside
            {"roll": [2, 4, 6]},
            {"action": "start_salvage"},  # a train wreck: the salvage
            {"roll": [2, 2, 4, 6, 6]},
            {"set_aside": [2]},
            {"roll": [3, 3, 4, 6]},
            {"set_aside": [3]},
            {"roll": [4, 1, 1]},
            {"set_aside": [4]},
            {"roll": [5, 6]},
            {"set_aside": [5]},
            {"roll": [6]},
            {"set_aside": [6]},
        ],
    },
    {
        "id": "cocked-die",
        "game": "dice-poker",
        "players": ["Ann"],
        "seed": 105,
        "turns": [{"attempts": [{"throw": [2, 5, 5, 1, 4], "cocked": 2}], "field": "best"}],
    },
    {
        "id": "die-outside",
        "game": "dice-poker",
        "players": ["Ann"],
        "seed": 106,
        "turns": [{"attempts": [{"throw": [3, 3, 6, 1, 2], "outside": 4}], "field": "best"}],
    },
    {
        "id": "hand-over-still-dice",
        "game": "pentakubus",
        "players": ["Ann"],
        "seed": 107,
        "turns": [{"attempts": [{"throw": [1, 2, 3, 4, 6], "hand": True}], "field": "best"}],
    },
    {
        "id": "misread-corrected",
        "game": "dice-poker",
        "players": ["Ann"],
        "seed": 108,
        "turns": [{"attempts": [{"throw": [5, 5, 5, 2, 2], "misread": {"die": 3, "read_as": 3}}], "field": "best"}],
    },
]

# A complete game per game id that fits the size budget: Dice Poker, 1 player, 13 turns, one attempt each.
DICE_POKER_GAME = {
    "id": "game-dice-poker",
    "game": "dice-poker",
    "players": ["Ann"],
    "seed": 201,
    "size": [640, 480],
    "turns": [
        {"attempts": [{"throw": t}], "field": "best"}
        for t in (
            [1, 1, 1, 2, 3],
            [2, 2, 4, 5, 6],
            [3, 3, 3, 1, 6],
            [4, 4, 4, 4, 2],
            [5, 5, 1, 2, 6],
            [6, 6, 6, 3, 3],
            [1, 2, 3, 4, 5],
            [2, 3, 4, 5, 6],
            [5, 5, 5, 5, 5],
            [6, 6, 6, 6, 1],
            [2, 2, 2, 5, 5],
            [1, 3, 4, 6, 6],
            [4, 5, 6, 1, 1],
        )
    ],
}
# Train Wreck to 500 for one player, short: every roll banked or lost in few steps.
TRAIN_WRECK_GAME = {
    "id": "game-train-wreck",
    "game": "train-wreck",
    "players": ["Ann"],
    "seed": 202,
    "size": [640, 480],
    "variants": {"goal": 500},
    "steps": [
        {"roll": [5, 5, 5, 5, 5]},
        {"set_aside": [5, 5, 5, 5, 5]},  # quintuple of 5s: 500
        {"roll": [2, 3, 4, 6, 6]},
        {"action": "decline_salvage"},  # all five again: a wreck
    ],
}

GAMES = [DICE_POKER_GAME, TRAIN_WRECK_GAME]
