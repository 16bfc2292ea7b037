"""Game scripts played out: rendered frames, the button presses a player makes, and the sheet the table
must end with.

A script is data: the game, the players, and for each turn the true dice of every throw, the holds and
the field (sheet games), or the rolls and decisions (Train Wreck). Playing it renders the tray and
runs the real table (appliance.table) on readings built from the labels (the TRUE dice, as a perfect
reader would report them), so the presses are the ones the table's button protocol asks for. The
expected sheet comes from the rules alone (appliance.games) applied to the script, and must equal the
table's: a check of the script, of this driver and of the table at once.

It lives in appliance because it drives the table; the renderer (vision.lab.render) imports no appliance.

Over 400 lines on purpose: the player of every game's script, one turn machine per game kind beside
the renders they drive.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from appliance.event_log import EventLog
from appliance.final_sheet import final_sheet
from appliance.games.catalog import DICE_FACES, DICE_KIND
from appliance.games.sheet_game import SheetGame
from appliance.games.train_wreck import Phase
from appliance.session import new_game
from appliance.table import Table
from hardware.buttons import Press
from vision.lab.render import dice_d6, dice_d10
from vision.lab.render.scene import Scene, grey
from vision.lab.render.sequence import Sequence, Spec
from vision.types import Die, Reading

OK, NEXT, PREV, BACK = Press("OK"), Press("NEXT"), Press("PREV"), Press("BACK")
OK_LONG, NEXT_LONG, PREV_LONG = Press("OK", True), Press("NEXT", True), Press("PREV", True)


class ScriptError(AssertionError):
    """The script and the table disagree: the script asks for something the table does not do."""


CONTRAST = 50  # grey levels between dice and felt in the fixtures (see the report: the rest detector needs it)


def dice_set(kind: str, scene: Scene, rng: np.random.Generator, count: int, mixed: bool = False):
    """The dice of one game: one look for all (or several, `mixed`), of the scene's size, standing out
    from both felts in grey (render_training_set has no such restriction)."""
    felts = scene.felt_greys()
    looks = [
        look
        for look in (dice_d6.LOOKS if kind == "d6" else dice_d10.LOOKS)
        if all(abs(grey(look.body) - f) >= CONTRAST for f in felts)
    ] or list(dice_d6.LOOKS[:1])
    make = dice_d6.make_d6 if kind == "d6" else dice_d10.make_d10
    first = int(rng.integers(len(looks)))
    return [make(looks[(first + (i if mixed else 0)) % len(looks)], scene.die_mm, seed=i) for i in range(count)]


class Player:
    """Plays one script: owns the Sequence (frames), the Table (presses) and the rules-only replay."""

    def __init__(self, script: dict, sink, scene: Scene | None = None):
        self.script = script
        self.game_id = script["game"]
        self.kind = DICE_KIND[self.game_id]
        self.scene = scene or Scene.random(script.get("seed", 0), size=tuple(script.get("size", (800, 600))))
        rng = np.random.default_rng(script.get("seed", 0))
        self.solids = dice_set(self.kind, self.scene, rng, 6, mixed=script.get("mixed", False))
        self.seq = Sequence(self.scene, sink, seed=script.get("seed", 0))
        self._tmp = tempfile.TemporaryDirectory()
        self.log = EventLog(Path(self._tmp.name) / "games.sqlite")
        players = script["players"]
        variants = script.get("variants", {})
        self.table = Table(self.log, players=players, default_game=self.game_id, variants={self.game_id: variants})
        self.rules = new_game(self.game_id, players, variants)  # the rules-only replay of the script
        self.presses: list[dict] = []
        self.misreads: list[dict] = []
        self.frame = -1  # presses go after this frame: before the first one while setting up
        self._press(OK)  # the game chooser opens on the default game
        self._press(OK)  # as many players as named
        self._check(self.table.mode == "play", "the game did not start")

    # -- presses and readings ---------------------------------------------------------------------
    def _press(self, press: Press) -> None:
        self.table.press(press)
        self.presses.append({"frame": self.frame, "press": str(press)})

    def _check(self, ok: bool, what: str) -> None:
        if not ok:
            raise ScriptError(f"{self.script.get('id', self.game_id)}: {what} (table says: {self.table.message!r})")

    def _rest(self, misread: dict | None = None) -> Reading:
        """Dice at rest: label the rest and hand the table the reading a perfect reader would give."""
        image = self.seq.rest()
        entry = self.seq.images[image]
        self.frame = entry["frame"]
        dice = []
        for i, d in enumerate(entry["dice"]):
            value = d["value"]
            if misread and misread["die"] == i:
                value = misread["read_as"]
                self.misreads.append(
                    {"image": image, "frame": self.frame, "die": i, "value": d["value"], "read_as": value}
                )
            dice.append(Die(d["kind"], None if d["cocked"] else value, tuple(d["box"]), d["zone"], 0.99, d["cocked"]))
        reading = Reading(tuple(dice), entry["width"], entry["height"])
        self.table.reading(reading)
        return reading

    def _confirm(self, true_values: dict) -> None:
        """OK on a review; first fixing a misread die with long NEXT/PREV, as a player would."""
        review = self.table.review
        self._check(review is not None, "no reading to confirm")
        for j, die in enumerate(review.dice):
            want = true_values.get(die.box)
            if want is None or want == review.values[j]:
                continue
            while self.table.review.cursor != j:
                self._press(NEXT)
            faces = DICE_FACES[self.game_id]
            up = (want - review.values[j]) % faces
            for _ in range(up if up <= faces - up else faces - up):
                self._press(NEXT_LONG if up <= faces - up else PREV_LONG)
        self._press(OK)

    def _choose(self, key) -> None:
        chooser = self.table.chooser
        keys = [c.key for c in chooser.choices]
        self._check(key in keys, f"{key} is not offered ({keys[:6]}...)")
        i = keys.index(key)
        steps, press = (i, NEXT) if i <= len(keys) - i else (len(keys) - i, PREV)
        for _ in range(steps):
            self._press(press)
        self._press(OK)

    # -- the physical tray --------------------------------------------------------------------------
    def _throw(self, values, attempt: int, extras: dict) -> dict:
        """Throw dice showing `values`; a scripted accident (cocked, outside) is thrown again first."""
        in_tray = [id(self.seq.dice[i].solid) for i in self.seq.dice]
        free = [s for s in self.solids if id(s) not in in_tray]
        specs = [Spec(free[k], v) for k, v in enumerate(values)]
        accident = None
        if "cocked" in extras:
            k = extras["cocked"]
            specs[k] = Spec(free[k], values[k], lean_deg=28.0, wall="right")
            accident = "not lie flat"
        elif "outside" in extras:
            k = extras["outside"]
            specs[k] = Spec(free[k], values[k], outside="right")
            accident = "outside the tray"
        if extras.get("touching") and len(specs) > 1:
            specs[1].near = -1  # resolved below: touches the first die of this throw
        ids = self._throw_specs(specs, attempt)
        if accident:
            self._rest()
            self._check(
                self.table.review is None and accident in self.table.message,
                f"the table did not see the die {accident}",
            )
            k = extras.get("cocked", extras.get("outside"))
            self.seq.pick_up([ids[k]])
            ids[k] = self.seq.throw([Spec(specs[k].solid, values[k])], attempt)[0]
        if extras.get("hand"):
            self._rest()
            reach = np.mean([self.seq.dice[i].centre[:2] for i in ids], axis=0)
            self.seq.hand_visit((float(reach[0]), float(reach[1])), side="right")
        self._rest(extras.get("misread"))
        return {tuple(d["box"]): d["value"] for d in self.seq.images[-1]["dice"]}

    def _throw_specs(self, specs, attempt):
        if any(s.near == -1 for s in specs):
            first = self.seq.throw(specs[:1], attempt, frames=self.seq.throw_frames)
            for s in specs[1:]:
                if s.near == -1:
                    s.near = first[0]
            # the first die is already down; the rest follow in the same throw's time
            return first + self.seq.throw(specs[1:], attempt, frames=max(3, self.seq.throw_frames // 2))
        return self.seq.throw(specs, attempt)

    def _in_zone(self, zone: str) -> list[int]:
        return [i for i, d in self.seq.dice.items() if self.scene.tray.zone(d.centre[0], d.centre[1]) == zone]

    # -- sheet games ----------------------------------------------------------------------------
    def play_sheet_turn(self, turn: dict) -> None:
        self.seq.pick_up(list(self.seq.dice))  # a new turn: all dice back in the hand
        rules_dice: list[int] = []
        for a, attempt in enumerate(turn["attempts"], start=1):
            extras = {k: attempt[k] for k in ("cocked", "outside", "hand", "misread", "touching") if k in attempt}
            if a == 1:
                truth = self._throw(attempt["throw"], 1, extras)
                self._check(self.table.review is not None, "the first throw was not read")
                self._confirm(truth)
                rules_dice = list(attempt["throw"])
                self.rules = self.rules.start_throw(rules_dice)
                continue
            held_values = list(attempt.get("hold", []))
            if self._hold(held_values):
                self._rest()  # the table sees the dice in the keep zone
            self._press(OK)  # holds confirmed (none: all dice thrown again)
            self._check(
                self.table.held is not None
                and sorted(self.table.game.throw.dice[i] for i in self.table.held) == sorted(held_values),
                f"holds {held_values} not taken",
            )
            self.seq.pick_up(self._in_zone("roll"))
            truth = self._throw(attempt["throw"], a, extras)
            self._check(self.table.review is not None, f"attempt {a} was not read")
            self._confirm(truth)
            kept = _match(rules_dice, held_values)
            thrown = [i for i in range(len(rules_dice)) if i not in kept]
            self.rules = self.rules.rethrow(thrown, attempt["throw"])
            rules_dice = list(self.rules.throw.dice)
        self._check(
            Counter(self.table.game.throw.dice) == Counter(self.rules.throw.dice),
            "the table holds other dice than the script",
        )
        key = self._field_key(turn.get("field", "best"))
        if self.table.choosing != "field":
            self._press(NEXT)  # the field list
        self._choose(key)
        self.rules = self.rules.enter(*key)

    def _hold(self, values: list[int]) -> bool:
        """Push dice showing `values` into the keep zone (those already there stay). True if any die moved:
        with nothing new to push, a kept die is nudged so the table reads the keep zone again."""
        in_keep = self._in_zone("keep")
        wanted = Counter(values)
        for i in in_keep:
            v = self.seq.dice[i].value
            if wanted[v] > 0:
                wanted[v] -= 1
        moves = {}
        for i in self._in_zone("roll"):
            v = self.seq.dice[i].value
            if wanted[v] > 0:
                wanted[v] -= 1
                moves[i] = "keep"
        self._check(not +wanted, f"the tray does not show {values} to hold")
        if not moves and values:
            d = self.seq.dice[in_keep[0]]
            moves = {in_keep[0]: (d.centre[0] + self.scene.die_mm * 0.3, d.centre[1])}
        if moves:
            self.seq.push(moves)
        return bool(moves)

    def _field_key(self, field) -> tuple[int, int]:
        options = self.rules.options()
        if field == "best":
            return (options[0].column, options[0].field)
        if isinstance(field, int):
            return (0, field)
        column, number = field
        labels = [self.rules.rules.column_label(c) for c in range(len(self.rules.rules.columns))]
        return (labels.index(column) if isinstance(column, str) else column, number)

    # -- Train Wreck ----------------------------------------------------------------------------
    def play_train_wreck_step(self, step: dict) -> None:
        game = self.table.game
        if "roll" in step:
            values = step["roll"]
            n = 1 if game.phase == Phase.ROLL_OFF else game.expected_dice
            self._check(len(values) == n, f"{n} dice are due, the script rolls {values}")
            self._make_room(n)
            truth = self._throw(values, 1, {k: step[k] for k in ("hand", "misread", "touching") if k in step})
            self._confirm(truth)
            self._rules_roll(values)
            return
        if "set_aside" in step:
            values = tuple(sorted(step["set_aside"]))
            self._check(self.table.choosing == "set-aside", "no set-aside list open")
            self._choose(values)
            self.rules = self.rules.set_aside(values)
            self._set_aside_physically(values)
            return
        action = step["action"]
        press = {"bank": OK_LONG, "accept": OK, "reroll": NEXT, "start_salvage": OK, "decline_salvage": BACK}[action]
        self._press(press)
        self.rules = self.rules.apply(action)

    def _rules_roll(self, values) -> None:
        if self.rules.phase == Phase.ROLL_OFF:
            self._roll_off.append(values[0])
            if len(self._roll_off) == len(self.rules.contenders):
                self.rules = self.rules.roll_off(self._roll_off)
                self._roll_off = []
            return
        self.rules = self.rules.roll(values)

    _roll_off: list = []

    def _set_aside_physically(self, values) -> None:
        want = Counter(values)
        moves = {}
        for i in self._in_zone("roll"):
            v = self.seq.dice[i].value
            if want[v] > 0:
                want[v] -= 1
                moves[i] = "keep"
        self.seq.push(moves)

    def _make_room(self, n: int) -> None:
        """Before a roll of n dice: the rolling area is emptied, and the keep zone holds at most 5 - n."""
        self.seq.pick_up(self._in_zone("roll") + self._in_zone("outside"))
        keep = self._in_zone("keep")
        if len(keep) > 5 - n:
            self.seq.pick_up(keep[: len(keep) - (5 - n)])

    # -- the whole script -------------------------------------------------------------------------
    def play(self) -> dict:
        self._roll_off = []
        if self.game_id == "train-wreck":
            for step in self.script["steps"]:
                self.play_train_wreck_step(step)
        else:
            for turn in self.script["turns"]:
                self.play_sheet_turn(turn)
        expected = expected_sheet(self.rules)
        table_sheet = expected_sheet(self.table.game)
        self._check(table_sheet == expected, f"the table ends with {table_sheet}, the rules with {expected}")
        record = self.seq.finish()
        out = {
            "game": {
                "game": self.game_id,
                "players": list(self.script["players"]),
                "variants": dict(self.script.get("variants", {})),
            },
            "script": self.script,
            "presses": self.presses,
            "expected": expected,
        }
        if self.misreads:
            out["misreads"] = self.misreads
        self.log.close()
        self._tmp.cleanup()
        return {"record": record, "extra": out}


def expected_sheet(game) -> dict:
    """The sheet a game state ends with, in the format `dicetable replay --json` prints."""
    sheet = final_sheet(game.rules.id if isinstance(game, SheetGame) else "train-wreck", game)
    del sheet["game"]  # labels.json names the game under "game" already
    return sheet


def _match(dice, values) -> list[int]:
    free, chosen = list(range(len(dice))), []
    for v in values:
        i = next(i for i in free if dice[i] == v)
        free.remove(i)
        chosen.append(i)
    return chosen


def play_script(script: dict, folder, quality: int = 80) -> dict:
    """Render and write one script's recording folder; returns its labels.json content (without frames)."""
    from vision.lab.render.folder import FolderSink, write_recording

    sink = FolderSink(folder, quality)
    player = Player(script, sink)
    result = player.play()
    write_recording(folder, player.scene, result["record"], **result["extra"])
    return result


def replay_labels(folder) -> dict:
    """Play a recording's labels through a fresh table, as a perfect reader would: at each labeled rest
    the labeled dice (with the folder's scripted misreads), then the presses after that frame. Returns
    the sheet the table ends with, to compare with labels["expected"]."""
    import json

    from hardware.buttons import Press as _Press

    folder = Path(folder)
    labels = json.loads((folder / "labels.json").read_text())
    game = labels["game"]
    misreads = {(m["frame"], m["die"]): m["read_as"] for m in labels.get("misreads", [])}
    with tempfile.TemporaryDirectory() as tmp:
        log = EventLog(Path(tmp) / "games.sqlite")
        table = Table(
            log, players=game["players"], default_game=game["game"], variants={game["game"]: game["variants"]}
        )
        presses: dict[int, list] = {}
        for p in labels.get("presses", []):
            presses.setdefault(p["frame"], []).append(_Press.parse(p["press"]))
        images = {image["frame"]: image for image in labels["images"]}
        for press in presses.get(-1, []):
            table.press(press)
        for index in range(len(labels["frames"])):
            image = images.get(index)
            if image is not None:
                dice = tuple(
                    Die(
                        d["kind"],
                        None if d["cocked"] else misreads.get((index, i), d["value"]),
                        tuple(d["box"]),
                        d["zone"],
                        0.99,
                        d["cocked"],
                    )
                    for i, d in enumerate(image["dice"])
                )
                table.reading(Reading(dice, image["width"], image["height"]))
            for press in presses.get(index, []):
                table.press(press)
        sheet = expected_sheet(table.game)
        log.close()
    return sheet
