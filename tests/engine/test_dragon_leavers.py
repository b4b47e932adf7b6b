"""Dragon Mille Bornes: a car leaving in the middle of a reaction chain (docs/rules/dragon.md,
Rulings, Leaving). A car that has left takes no more hits and earns no kill; the chain goes on
for the cars still in it, and its caption says whose car the hits land on.
"""

from __future__ import annotations

from bot.engine.dragon.state import DragonState, Phase
from tests.engine.dragon_helpers import G, act, moving, rig, start


def _backfired(seats: int = 4) -> DragonState:
    """Ann fires an autocannon at Bob's front and Bob backfires: Ann, whose front is breached
    and whose driver is one hit from death, may armor her front."""
    cw = [["ac-front", "armor-front"], ["backfire"], *([[]] * (seats - 2))]
    s = start(cw=cw, seats=seats)
    s = rig(s, 0, hits=[12, 0, 0, 0], driver=4)
    s = act(s, 0, "ac-front @1")
    s = act(s, 1, "backfire")
    assert s.phase is Phase.BACKFIRE and G.to_act(s) == {0}
    return s


def test_a_backfire_goes_on_after_the_backfirer_left() -> None:
    """Bob backfires and leaves before Ann answers: Ann still decides on her armor, and the
    backfire still strikes her front (she is still in the chain)."""
    s = G.leave(_backfired(), 1)
    assert s.phase is Phase.BACKFIRE and G.to_act(s) == {0}
    s = act(s, 0, "armor-front")
    # 4 hits, 3 stopped: the one left goes through the breached front to Ann's driver.
    assert s.cars[0].driver == 5 and not s.cars[0].alive


def test_a_backfire_kill_is_credited_to_the_backfirer_who_left() -> None:
    """The backfire of a player who has left kills Ann: the kill is still Bob's, as every kill
    is the card's player's, on the table and in the result's kills."""
    s = act(G.leave(_backfired(seats=3), 1), 0, "pass")
    assert not s.cars[0].alive and s.cars[0].killed_by == 1
    assert "a kill for Bob" in s.caption
    outcome = G.outcome(s)  # Cy is the last driver alive
    assert outcome is not None and outcome.winners == (2,) and outcome.places == (1, 2, 0)
    assert [seat["kills"] for seat in outcome.seat_details] == [0, 1, 0]


def test_the_backfire_caption_after_a_leave_names_the_car_hit() -> None:
    """Bob left; Ann's answer lands the backfire. The caption said "Bob left the arena. 4 hits
    to the breached front.", as if the leaver's car was hit: it names Ann's front."""
    s = act(G.leave(_backfired(), 1), 0, "pass")
    assert s.caption.startswith(
        "Bob left the game and will finish 4th; the car is out and its cards are discarded. "
        "Ann, Cy and Di race on. The backfire still strikes the front of Ann."
    )


def test_a_bystander_leaving_keeps_the_shot_named() -> None:
    """Ann shoots Bob; Cy leaves while Bob may armor. Bob lets it pass: the caption names the
    shot and its target before the hits, not "Cy left the arena. 5 hits to the front."."""
    s = act(start(cw=[["rocket-front"], ["armor-front"], []]), 0, "rocket-front @1")
    s = act(G.leave(s, 2), 1, "pass")
    assert s.cars[1].hits[0] == 5
    assert s.caption == (
        "Cy left the game and will finish 3rd; the car is out and its cards are discarded. "
        "Ann and Bob race on. The Rocket from Ann still comes at the front of Bob. "
        "5 hits to the front."
    )


def _oil_skid(seats: int = 4) -> DragonState:
    """Ann shoots Bob, who drops an Oil Slick; Ann's roll fails, and she must pick the side
    that hits the wall. Her driver is one hit from death and every side is breached."""
    cw = [["mg-front"], ["oil-slick"], *([[]] * (seats - 2))]
    s = start(cw=cw, seats=seats, oil_slick="on")
    s = moving(rig(s, 0, hits=[12, 12, 12, 12], driver=4), 0, 1)
    s = act(s, 0, "mg-front @1")
    s = act(s, 1, "oil-slick")
    assert s.phase is Phase.WALL and G.to_act(s) == {0}, s.caption
    return s


def test_an_oil_slick_skid_kill_is_credited_to_the_car_that_left() -> None:
    """Bob drops an Oil Slick; Ann's roll fails and she must pick a side for the wall. Bob
    leaves before she does, and the wall kills her: the kill is still Bob's."""
    s = _oil_skid()
    s = act(G.leave(s, 1), 0, "side front")
    assert not s.cars[0].alive and s.cars[0].killed_by == 1 and s.cars[1].kills == 1


def test_the_oil_slick_skid_caption_after_a_leave_names_the_car() -> None:
    """Bob, whose Oil Slick made Ann skid, leaves before she picks her side: the caption says
    Ann still skids, so her side's hits do not read as Bob's."""
    s = G.leave(_oil_skid(), 1)
    assert s.caption.endswith(" Ann, Cy and Di race on. Ann still skids into the wall."), s.caption


def test_a_victim_leaving_after_its_oil_slick_takes_the_roll_with_it() -> None:
    """Bob drops an Oil Slick against Ann's shot and leaves while he may still armor: the shot
    is void, and so is his Oil Slick (Ann does not roll); her turn goes on."""
    s = start(cw=[["mg-front"], ["oil-slick", "armor-front"], []], oil_slick="on")
    s = act(s, 0, "mg-front @1")
    s = act(s, 1, "oil-slick")
    assert s.phase is Phase.REACT and G.to_act(s) == {1}
    s = G.leave(s, 1)
    assert s.phase is Phase.TURN and G.to_act(s) == {0} and s.rolls == 0
    assert s.caption.endswith(" Ann and Cy race on, Ann to play."), s.caption


def test_the_last_two_drivers_one_leaving_mid_chain() -> None:
    """Three cars, Cy already dead: Bob backfires Ann's shot and leaves before she answers.
    Ann is the last driver alive and wins; Cy (dead) places above Bob (left)."""
    s = _backfired(seats=3)
    s.cars[2].alive = False  # killed earlier
    s = G.leave(s, 1)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (0,) and outcome.places == (0, 2, 1)
    assert s.caption == "Bob left the arena. Ann is the last driver alive."


def test_a_shooter_leaving_in_the_victims_window_voids_the_shot() -> None:
    """Ann shoots Bob and leaves while Bob may armor: her shot is void (Bob takes nothing and
    keeps his armor), and the turn passes to Bob, so nobody waits on Ann."""
    s = act(start(cw=[["rocket-front"], ["armor-front"], []]), 0, "rocket-front @1")
    s = G.leave(s, 0)
    assert s.phase is Phase.TURN and s.turn == 1 and G.to_act(s) == {1}
    assert s.cars[1].hits == [0, 0, 0, 0] and "armor-front" in s.cars[1].cw_hand


def test_a_dodger_leaving_in_the_skid_window_closes_it() -> None:
    """Bob swerves Ann's shot; Ann may skid him into a wall, but Bob leaves first: the skid
    window closes (nobody is left to skid) and Ann's turn goes on, her Skid still in hand."""
    s = moving(start(cw=[["mg-front", "skid"], ["swerve"], []]), 0, 1)
    s = act(s, 0, "mg-front @1")
    s = act(s, 1, "swerve")
    assert s.phase is Phase.SKID and G.to_act(s) == {0}
    s = G.leave(s, 1)
    assert s.phase is Phase.TURN and G.to_act(s) == {0} and "skid" in s.cars[0].cw_hand


def test_leaving_on_its_turn_says_what_it_means_for_the_race() -> None:
    """Ann leaves on her turn at a table of four: the caption says where she will finish, what
    became of her car and cards, who races on and whose turn it is now (it said "Ann left the
    arena." and nothing more)."""
    s = G.leave(start(seats=4), 0)
    assert s.caption == (
        "Ann left the game and will finish 4th; the car is out and its cards are discarded. "
        "Bob, Cy and Di race on, Bob to play."
    )


def test_a_later_leaver_is_told_the_place_above_an_earlier_one() -> None:
    """Di left first (4th); Cy leaving next will finish 3rd, as the result then places them,
    and the caption names only the cars still racing."""
    s = G.leave(G.leave(start(seats=4), 3), 2)
    assert s.caption.startswith("Cy left the game and will finish 3rd;"), s.caption
    assert s.caption.endswith(" Ann and Bob race on, Ann to play."), s.caption
    s = G.leave(s, 1)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.places == (0, 1, 2, 3)


def test_a_dead_driver_is_not_said_to_race_on() -> None:
    """With Cy dead, Ann leaving at a table of four will finish 4th (below the dead driver),
    and only Bob and Di race on."""
    s = start(seats=4)
    s.cars[2].alive = False  # killed earlier
    s = G.leave(s, 0)
    assert s.caption == (
        "Ann left the game and will finish 4th; the car is out and its cards are discarded. "
        "Bob and Di race on, Bob to play."
    )
