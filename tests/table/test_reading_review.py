"""The review of a reading (appliance.reading_review): dice checked before OK takes them, dice that only moved,
dice followed to where they lie; on its own and at the table."""

from appliance.event_log import EventLog
from appliance.games.train_wreck import Phase
from appliance.reading_review import Review, as_confirmed_in, follow, match, not_thrown, pushed_from, still
from appliance.table import Table
from tests.table.play import BACK, HOLD_NEXT, HOLD_OK, NEXT, OK, PREV, dice, moved, pushed, reading, start, throw
from vision.types import KEEP, ROLL, Die, Reading


def die(value, x, y=100, zone=ROLL, size=40, confidence=0.99, cocked=False):
    return Die("d6", value, (x, y, x + size, y + size), zone, confidence, cocked)


# ---------------------------------------------------------------------- on its own
def test_match_finds_each_value_once_in_the_throw():
    assert match((6, 2, 6, 3), [6, 6]) == [0, 2]
    assert match((6, 2, 6, 3), [3, 2]) == [3, 1]
    assert match((6, 2, 6, 3), [6, 6, 6]) is None  # the throw holds two 6s only
    assert match((6, 2, 6, 3), []) == []


def test_a_die_is_still_within_a_third_of_its_size_and_showing_its_value():
    before = [die(4, 100)]  # 40 px: still within 40/3 = 13.3 px of where it lay
    assert still(die(4, 113), before) and not still(die(4, 114), before)
    assert not still(die(5, 100), before)  # the same place, another value: it was thrown


def test_most_dice_lying_where_they_lay_were_not_thrown():
    lying = [die(1, 0), die(2, 100), die(3, 200)]
    two_stayed = Reading((die(1, 0), die(2, 100), die(5, 400)), 1280, 960)
    one_stayed = Reading((die(1, 0), die(6, 300), die(5, 400)), 1280, 960)
    assert not_thrown(two_stayed, lying) and not not_thrown(one_stayed, lying)
    kept_aside = Reading((die(1, 0, zone=KEEP), die(6, 300), die(5, 400)), 1280, 960)
    assert not not_thrown(kept_aside, lying)  # the keep zone's dice say nothing: of the two rolled none stayed


def test_following_dice_a_die_that_stayed_keeps_its_place_before_a_look_alike_moved_away():
    a, b = die(6, 0), die(6, 100)
    b_nudged, a_pushed_far = die(6, 102), die(6, 300)
    assert follow([a, b], [b_nudged, a_pushed_far]) == [a_pushed_far, b_nudged]  # nearest first would swap them


def test_a_reading_with_more_of_the_reviewed_dice_in_the_keep_zone_is_a_push():
    review = Review.of("start_throw", [die(1, 0), die(1, 100), die(4, 200)])
    push = Reading((die(1, 900, zone=KEEP), die(1, 100), die(4, 200)), 1280, 960)
    assert pushed_from(push, review)
    assert not pushed_from(Reading((die(1, 0), die(1, 100), die(4, 200)), 1280, 960), review)  # none kept
    assert not pushed_from(Reading((die(1, 900, zone=KEEP), die(1, 100), die(5, 200)), 1280, 960), review)  # a 5
    cocked = Reading((die(1, 900, zone=KEEP), die(1, 100), die(4, 200, cocked=True)), 1280, 960)
    assert not pushed_from(cocked, review)


def test_dice_pushed_during_the_review_carry_the_values_the_player_confirmed():
    review = Review.of("start_throw", [die(6, 0), die(3, 100)])
    review.values[1] = 5  # the 3 was a misread 5
    push = Reading((die(6, 900, zone=KEEP), die(3, 101)), 1280, 960)
    assert [(d.value, d.zone) for d in as_confirmed_in(push, review).dice] == [(6, KEEP), (5, ROLL)]


def test_ok_confirms_each_unsure_die_then_takes_the_reading():
    review = Review.of("roll", [die(2, 0), die(3, 100, confidence=0.3), die(4, 200, confidence=0.3)])
    assert review.cursor == 1 and review.unconfirmed == [1, 2]
    assert review.ok() == "next" and review.cursor == 2
    review.move(-2)  # onto the sure 2: OK there points back to the die still unsure
    assert review.ok() == "first" and review.cursor == 2
    assert review.ok() == "done" and review.ok() == "take"


def test_turning_a_value_goes_round_the_faces_and_confirms_it():
    review = Review.of("roll", [die(6, 0, confidence=0.3)])
    review.turn(+1, faces=6)
    assert review.values == [1] and review.confirmed == [True]
    review.turn(-1, faces=6)
    assert review.values == [6]


def test_a_review_saved_and_read_back_is_the_same():
    review = Review.of("rethrow", [die(2, 0), die(5, 100, confidence=0.3)], held=(0, 3), kept=[die(6, 900, zone=KEEP)])
    review.turn(+1, faces=6)
    assert Review.of_row(review.row()) == review


# ---------------------------------------------------------------------- at the table
def test_a_misread_die_is_changed_before_confirming(log):
    table = start(log, "dice-poker")
    table.reading(reading((1, 2, 3, 4, 4)))
    table.press(NEXT)  # the cursor to the second die
    table.press(HOLD_NEXT)  # 2 -> 3
    table.press(HOLD_NEXT)  # 3 -> 4
    table.press(OK)
    assert table.game.throw.dice == (1, 4, 3, 4, 4)


def test_a_low_confidence_die_must_be_confirmed(log):
    table = start(log, "dice-poker")
    unsure = Die("d6", 5, (900, 100, 940, 140), ROLL, 0.4)
    table.reading(reading((1, 2, 3, 4), extra=[unsure]))
    screen = table.screen()
    assert [d.uncertain for d in screen.dice] == [False] * 4 + [True] and screen.dice[4].selected
    table.press(OK)  # confirms the unsure die only
    assert table.game.throw is None and table.review.unconfirmed == []
    table.press(OK)
    assert table.game.throw.dice == (1, 2, 3, 4, 5)


def test_train_wreck_leftover_dice_pushed_not_thrown_are_not_a_roll(log):
    """Set-aside dice pushed into the keep zone, the other two untouched: that is no confirmation roll
    (taking it would make 3 4 a scoreless confirmation, a train wreck)."""
    table = start(log, "train-wreck")
    first = throw(table, (2, 2, 2, 3, 4))
    table.press(OK)  # the triple of 2s (20) is set aside; the 3 and the 4 confirm it
    events = log.events(table.record.id)
    table.reading(pushed(first, 2, 2, 2))
    assert table.review is None and "only moved" in table.message and "roll 2 dice" in table.message
    assert table.game.phase == Phase.CONFIRM_TRIPLE and log.events(table.record.id) == events
    throw(table, (5, 3), keep=(2, 2, 2))  # now thrown: no 2, so the triple stands and the 5 scores with it
    assert table.game.phase == Phase.ROLL and table.game.turn.points == 20 + 5


def test_train_wreck_dice_pushed_aside_while_the_roll_is_checked_ask_for_nothing(log):
    """Scoring dice pushed aside before OK: after OK the set-aside list is the next step, and the push was no roll
    taken too early."""
    table = start(log, "train-wreck")
    first = reading((1, 5, 2, 3, 4))
    table.reading(first)
    table.reading(pushed(first, 1, 5))
    table.press(OK)
    assert table.choosing == "set-aside" and "first choose" not in table.message
    assert table.lying and all(d.zone == KEEP for d in table.lying if d.value in (1, 5))


def test_train_wreck_leftover_dice_thrown_again_are_a_roll_even_showing_the_same(log):
    table = start(log, "train-wreck")
    first = throw(table, (2, 2, 2, 3, 4))
    table.press(OK)
    table.reading(pushed(first, 2, 2, 2))
    throw(table, (3, 4), keep=(2, 2, 2))  # thrown, landing elsewhere on 3 and 4: nothing scores
    assert table.game.phase == Phase.TRAIN_WRECK  # RULINGS: confirmation dice scoring nothing is a train wreck


def test_pentakubus_die_thrown_again_landing_on_the_same_value_is_the_next_attempt(log):
    """Four 6s pushed, the 2 thrown again (without OK first) and landing 2 again, elsewhere: attempt 2.
    The 6s were not thrown in the final attempt, so field 23 pays 24 + 38 and no slam (+11)."""
    table = start(log, "pentakubus")
    first = throw(table, (6, 6, 6, 6, 2))
    table.reading(pushed(first, 6, 6, 6, 6))
    assert table.review is None and [d.held for d in table.screen().dice] == [True] * 4 + [False]
    table.reading(reading((2,), keep=(6, 6, 6, 6)))
    assert table.review is not None and table.review.action == "rethrow"
    table.press(OK)
    assert table.game.throw.attempt == 2 and table.game.throw.thrown_in == (1, 1, 1, 1, 2)
    table.press(NEXT)
    points = {c.label: c.points for c in table.chooser.choices}
    assert points["M 23 quadruplet"] == 24 + 38 and points["R 23 quadruplet"] == 24 + 38


def test_dice_not_thrown_after_the_holds_are_no_attempt(log):
    table = start(log, "pentakubus")
    lying = pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6)
    table.reading(lying)
    table.press(OK)  # holds the 6s
    table.reading(lying)  # read again before the other three were thrown (a hand passed over the tray)
    assert table.review is None and table.game.throw.attempt == 1 and "throw the 3 other dice" in table.message


def test_the_next_players_reading_of_the_dice_left_lying_is_no_throw(log):
    table = start(log, "dice-poker", players=2)
    ann = throw(table, (3, 3, 3, 2, 2))
    table.press(NEXT)
    table.press(OK)  # Ann enters; the dice still lie in the tray
    table.reading(ann)
    assert table.review is None and table.game.throw is None and "throw all 5 dice" in table.message
    assert table.screen().prompt == "throw all 5 dice"
    assert ("BACK", "correct the last entry") in [(h.button, h.does) for h in table.screen().hints]


def test_a_die_knocked_while_pushing_is_no_throw_and_hold_ok_banks(log):
    """Train Wreck: the 1 and 5 set aside are pushed, the 2 knocked half a die away, the 3s untouched: no roll
    (one OK would have scored 2 3 3 as a train wreck). The player's hold OK banks the 15."""
    table = start(log, "train-wreck")
    first = throw(table, (1, 5, 2, 3, 3))
    table.press(OK)  # the 1 and the 5
    table.reading(moved(pushed(first, 1, 5), 2, 20))
    assert table.review is None and "only moved" in table.message and "roll 3 dice" in table.message
    table.press(HOLD_OK)
    assert log.events(table.record.id)[-1] == ("bank", [])


def test_a_die_dragged_back_out_of_the_keep_zone_is_no_throw(log):
    table = start(log, "pentakubus")
    first = throw(table, (6, 6, 2, 3, 1))
    table.reading(pushed(first, 6, 6))
    table.reading(moved(pushed(first, 6, 6), 6, -500, zone=KEEP, dy=-400))  # one 6 back in the rolling area
    assert table.review is None and [d.value for d in table.screen().dice if d.held] == [6]
    table.press(OK)
    assert table.game.throw.attempt == 1 and [table.game.throw.dice[i] for i in table.held] == [6]


def test_the_dice_lie_with_the_values_the_player_confirmed(log):
    """A misread 3 corrected to 5; the four 6s pushed, the 5 untouched and now read right: no throw."""
    table = start(log, "dice-poker")
    misread = reading((6, 6, 6, 6, 3))
    table.reading(misread)
    for press in (PREV, HOLD_NEXT, HOLD_NEXT, OK):  # the last die: 3 -> 5
        table.press(press)
    assert table.game.throw.dice == (6, 6, 6, 6, 5)
    lying = pushed(misread, 6, 6, 6, 6)
    five = next(d for d in lying.dice if d.zone == ROLL)
    table.reading(
        Reading(tuple(d if d is not five else Die("d6", 5, d.box, ROLL, 0.99) for d in lying.dice), 1280, 960)
    )
    assert table.review is None and table.keep_view == (0, 1, 2, 3)


def test_a_dropped_reading_read_again_stays_dropped(log):
    table = start(log, "dice-poker")
    thrown = reading((1, 2, 3, 4, 5))
    table.reading(thrown)
    table.press(BACK)  # not a throw, says the player
    table.reading(thrown)
    assert table.review is None and table.game.throw is None and "only moved" in table.message


def test_the_latest_places_of_dice_read_again_under_review_are_the_ones_kept(log):
    """The review's dice nudged (same values) before OK: they lie where the latest reading saw them."""
    table = start(log, "dice-poker")
    first = reading((6, 6, 6, 6, 2))
    table.reading(first)
    nudged = moved(first, 2, 25)  # more than a third of the die
    table.reading(nudged)
    table.press(OK)
    table.reading(pushed(nudged, 6, 6, 6, 6))  # the 2 still where it was nudged to
    assert table.review is None and table.keep_view == (0, 1, 2, 3)


def test_a_restart_during_a_rethrow_review_keeps_its_kept_dice(log, tmp_path):
    table = start(log, "pentakubus")
    table.reading(pushed(throw(table, (6, 6, 2, 3, 1)), 6, 6))
    table.press(OK)
    table.reading(reading((4, 4, 4), keep=(6, 6)))
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    got = []
    again.on_confirm = lambda dice, values, attempt: got.append((sorted(values), attempt))
    again.press(OK)
    assert got == [([4, 4, 4, 6, 6], 2)]


def test_a_thrown_die_landing_where_one_of_its_value_lay_is_still_a_throw(log):
    """Every rolling-area die is thrown in a throw, so most still lying means no throw; one thrown die landing
    on a spot where a die of its value lay (it happens every few dozen throws) does not make it one."""
    table = start(log, "dice-poker")
    first = throw(table, (1, 2, 3, 4, 6))
    kept = pushed(first, 6)  # the 6 pushed, the other four where they lay: no throw
    table.reading(kept)
    assert table.review is None and table.keep_view
    four = first.dice[3]
    table.reading(Reading(tuple(dice((5, 5, 5), y=700)) + (four,) + kept.dice[4:], 1280, 960))  # the four thrown
    assert table.review is not None and table.review.action == "rethrow"


def test_dice_kept_while_the_reading_is_checked_are_held_once_it_is_confirmed(log):
    """Players push their keepers right after the throw, before OK: that push is no throw and no mistake."""
    table = start(log, "dice-poker")
    first = reading((1, 1, 1, 4, 5))
    table.reading(first)
    table.reading(pushed(first, 1, 1, 1))  # the 1s pushed while "check the dice" shows
    assert table.review is not None and table.review.action == "start_throw" and "take the" not in table.message
    table.press(OK)  # the reading confirmed: the 1s are seen kept
    assert table.game.throw.dice == (1, 1, 1, 4, 5) and sorted(table.keep_view) == [0, 1, 2]
    table.press(OK)  # held
    second = reading((2, 6), keep=(1, 1, 1))
    table.reading(second)
    table.reading(pushed(second, 2))  # again while the re-throw is checked: the 2 joins the 1s
    assert table.review is not None and table.review.action == "rethrow" and "does not hold" not in table.message
    table.press(OK)
    assert table.game.throw.dice == (1, 1, 1, 2, 6) and table.game.throw.attempt == 2
    assert sorted(table.keep_view) == [0, 1, 2, 3]
    table.press(OK)  # the 1s and the 2 held: the 6 is thrown for the last attempt
    throw(table, (3,), keep=(1, 1, 1, 2))
    assert table.game.throw.dice == (1, 1, 1, 2, 3) and table.game.throw.attempt == 3


def test_dice_kept_while_the_reading_is_checked_survive_a_restart(log, tmp_path):
    """The push is seen once; a restart before OK must not forget it (the dice lying still are read as such)."""
    table = start(log, "dice-poker")
    first = reading((1, 1, 1, 4, 5))
    table.reading(first)
    table.reading(pushed(first, 1, 1, 1))
    log.close()
    again = Table(EventLog(tmp_path / "games.sqlite"), players=["Ann"])
    assert again.review is not None and again.pushed is not None
    again.press(OK)
    assert again.game.throw.dice == (1, 1, 1, 4, 5) and sorted(again.keep_view) == [0, 1, 2]
    again.log.close()
