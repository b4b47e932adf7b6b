"""Dragon Mille Bornes: rules of docs/rules/dragon.md (and the Mille Bornes card rules it
builds on) whose effect a third rules audit found unpinned; section names in parentheses.

Each test deals stacked hands (``dragon_helpers.start``); seat 0 starts.
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove
from bot.engine.dragon.state import Phase
from bot.engine.dragon.table import moving as is_moving
from bot.engine.mille.cards import Card
from tests.engine.dragon_helpers import G, act, legal, moving, rig, start

# --- the Mille Bornes card rules on a Dragon table (Mille Bornes on a crowded track) -------


def test_distance_needs_a_go() -> None:
    """A car with no Go showing (and no Right of Way) cannot drive; nothing changes."""
    s = start(mb=[["75"], []])
    assert "play 75" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="cannot move yet"):
        act(s, 0, "play 75")
    assert G.to_dict(s) == before


def test_right_of_way_lets_a_car_drive_with_no_go() -> None:
    """Right of Way works as a permanent Go: with an empty battle pile the car drives."""
    s = rig(start(mb=[["75"], []]), 0, safeties=["right-of-way"])
    s = act(s, 0, "play 75")
    assert s.cars[0].mb.mileage == 75


def test_a_battle_hazard_hits_a_right_of_way_car_with_no_go() -> None:
    """A car moving under Right of Way alone is a moving car: an Accident may hit it, and
    then it is stopped."""
    s = rig(start(mb=[["accident"], []]), 1, safeties=["right-of-way"])
    assert "play accident @1" in legal(s, 0)
    s = act(s, 0, "play accident @1")
    assert s.cars[1].mb.battle == [Card.ACCIDENT] and not is_moving(s.cars[1])


def test_a_speed_limit_on_a_limited_car_is_refused() -> None:
    """A Speed Limit goes only on a car that is not limited already; nothing changes."""
    s = start(mb=[["speed-limit"], []])
    s.cars[1].mb.speed = [Card.SPEED_LIMIT]
    assert "play speed-limit @1" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="already under a Speed Limit"):
        act(s, 0, "play speed-limit @1")
    assert G.to_dict(s) == before


def test_end_of_limit_without_a_limit_is_refused() -> None:
    """End of Limit goes only on a Speed Limit; nothing changes."""
    s = moving(start(mb=[["end-of-limit"], []]), 0)
    assert "play end-of-limit" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="not under a Speed Limit"):
        act(s, 0, "play end-of-limit")
    assert G.to_dict(s) == before


def test_a_go_on_a_go_is_refused() -> None:
    """A Go does not go on another Go (unless a skid stopped the car); nothing changes."""
    s = moving(start(mb=[["go"], []]), 0)
    assert "play go" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="already have a Go"):
        act(s, 0, "play go")
    assert G.to_dict(s) == before


def test_a_go_cannot_cover_an_accident() -> None:
    """A Go answers a Stop only: on an Accident it is refused; nothing changes."""
    s = rig(start(mb=[["go"], []]), 0, battle=["go", "accident"])
    assert "play go" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="Fix the Accident first"):
        act(s, 0, "play go")
    assert G.to_dict(s) == before


def test_right_of_way_coup_fourre_lifts_a_stop_and_a_speed_limit_at_once() -> None:
    """Right of Way clears both its hazards: played against a Stop while a Speed Limit shows,
    it removes both and the car moves on its Go."""
    s = moving(start(mb=[["stop"], ["right-of-way"]]), 1)
    s.cars[1].mb.speed = [Card.SPEED_LIMIT]
    s = act(act(s, 0, "play stop @1"), 1, "play right-of-way")
    car = s.cars[1]
    assert car.mb.battle == [Card.GO] and car.mb.speed == [] and is_moving(car)
    assert {Card.STOP, Card.SPEED_LIMIT} <= set(s.mb_discard)


def test_a_safety_in_your_own_turn_draws_no_card() -> None:
    """A safety in your turn gives the Mille Bornes move back, but nobody draws except at the
    start of a turn: the hand is one card shorter and the draw pile untouched (A turn)."""
    s = start(mb=[["driving-ace", "75"], []], mb_draw=["25"] * 3)
    assert len(s.cars[0].mb.hand) == 7 and len(s.mb_draw) == 2
    s = act(s, 0, "play driving-ace")
    assert len(s.cars[0].mb.hand) == 6 and len(s.mb_draw) == 2 and s.mb_left == 1


# --- Repairs and Spare Tire do both jobs at once (Repairs and Spare Tire) ------------------


def test_repairs_on_an_accident_also_clears_body_hits() -> None:
    """Repairs played on an Accident mends it and removes every body hit with the same card."""
    s = rig(start(mb=[["repairs"], []]), 0, battle=["go", "accident"], hits=[4, 0, 7, 0])
    s = act(s, 0, "play repairs")
    assert s.cars[0].mb.battle == [Card.REPAIRS] and s.cars[0].hits == [0, 0, 0, 0]


def test_spare_tire_on_a_flat_tire_also_clears_tire_hits() -> None:
    """A Spare Tire played on a Flat Tire mends it and removes every tire hit too."""
    s = rig(start(mb=[["spare-tire"], []]), 0, battle=["go", "flat-tire"], tires=6)
    s = act(s, 0, "play spare-tire")
    assert s.cars[0].mb.battle == [Card.SPARE_TIRE] and s.cars[0].tires == 0


# --- moving: swerves, skids and Right of Way (Mille Bornes on a crowded track) -------------


def test_right_of_way_with_no_go_lets_a_car_swerve() -> None:
    """'A green light or Right of Way': a car moving under Right of Way alone may swerve."""
    s = rig(start(cw=[["rocket-front"], ["swerve"]]), 1, safeties=["right-of-way"])
    s = act(s, 0, "rocket-front @1")
    assert s.phase is Phase.REACT and "swerve" in legal(s, 1)
    s = act(s, 1, "swerve")
    assert s.cars[1].hits == [0, 0, 0, 0]


def test_a_skidded_car_cannot_swerve() -> None:
    """A skid stops the car even with a Go showing, so it cannot swerve the next shot."""
    s = moving(start(cw=[["rocket-front"], ["swerve"]]), 1)
    s.cars[1].skidded = True
    s = act(s, 0, "rocket-front @1")
    assert s.phase is Phase.TURN and s.cars[1].hits[0] == 5 and "swerve" in s.cars[1].cw_hand


def test_a_skidded_right_of_way_car_drives_only_after_a_go() -> None:
    """Right of Way does not lift a skid: no miles until a Go, and the Go sets it moving."""
    s = rig(start(mb=[["go", "75"], []]), 0, safeties=["right-of-way"])
    s.cars[0].skidded = True
    with pytest.raises(IllegalMove, match="skidded"):
        act(s, 0, "play 75")
    s = act(s, 0, "play go")
    assert not s.cars[0].skidded and is_moving(s.cars[0])


def test_a_skid_after_a_spin_hits_and_stops_the_car() -> None:
    """Skid Into a Wall on a car that spun works as after a swerve: 3 hits on the side it
    picks, and it stops."""
    s = moving(start(cw=[["mg-front", "skid"], ["spin"]]), 1)
    s = act(act(act(s, 0, "mg-front @1"), 1, "spin"), 0, "skid @1")
    s = act(s, 1, "side right")
    assert s.cars[1].hits == [0, 0, 0, 3] and s.cars[1].skidded and not is_moving(s.cars[1])


def test_a_spin_bars_attacks_for_that_turn_only() -> None:
    """'May not attack again this turn': on the spun shooter's next turn it attacks again."""
    s = start(mb=[["75", "50"], ["25"]], cw=[["mg-front", "rocket-back"], ["spin"]])
    s = moving(s, 1)
    s = act(act(s, 0, "mg-front @1"), 1, "spin")
    s = act(s, 0, "discard 75")
    s = act(s, 1, "discard 25", "end")
    assert s.turn == 0 and not s.spun and "rocket-back @1" in legal(s, 0)


# --- flame damage taken through a breach (Shots and reactions) -----------------------------


def test_flame_through_a_breached_side_bars_fireproof_armor() -> None:
    """Flame that goes through a breached side onto the driver is flame damage taken:
    Fireproof Armor cannot go on afterwards."""
    s = start(mb=[["75"], ["50"]], cw=[["flame-left"], ["fireproof"]])
    s = rig(s, 1, hits=[0, 0, 12, 0])
    s = act(s, 0, "flame-left @1", "discard 75")
    assert s.turn == 1 and s.cars[1].driver == 2
    assert "fireproof" not in legal(s, 1)
    with pytest.raises(IllegalMove, match="flame damage"):
        act(s, 1, "fireproof")


def test_a_go_under_right_of_way_is_refused() -> None:
    """A car with Right of Way needs no Go and may not play one (only a skid calls for a Go);
    the refusal says why and changes nothing (Rulings: Skids)."""
    s = rig(start(mb=[["go"], []]), 0, safeties=["right-of-way"], battle=["repairs"])
    assert "play go" not in legal(s, 0)
    before = G.to_dict(s)
    with pytest.raises(IllegalMove, match="Right of Way already lets you go"):
        act(s, 0, "play go")
    assert G.to_dict(s) == before


# --- the arena closes (Rulings: Arena closes) ----------------------------------------------


def test_the_quiet_rounds_count_from_the_turn_a_car_last_drove() -> None:
    """The 25 rounds are counted from the turn in which a car last drove: with two cars the
    arena closes 50 turns after that turn began, the driving turn being the first."""
    from bot.engine.dragon.ending import QUIET_ROUNDS

    s = moving(start(mb=[["25"], ["50"]]), 0)
    s = act(s, 0, "play 25", "end")
    turns = 1
    while G.outcome(s) is None:
        seat = s.turn
        s = act(s, seat, next(a for a in legal(s, seat) if a.startswith("discard ")), "end")
        turns += 1
    outcome = G.outcome(s)
    assert outcome is not None and "arena closes" in outcome.reason and outcome.winners == (0,)
    assert turns == QUIET_ROUNDS * 2
