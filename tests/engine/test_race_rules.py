"""1000 Mile Race rules, one behaviour per test, on stacked decks (docs/rules/race.md).

Red (Ann, seat 0) holds ``RED`` and Blue (Bob, seat 1) ``BLUE`` unless a test says otherwise;
Red's 100 beats Blue's 25 in the reveal, so Red starts and has drawn her first card.
"""

from __future__ import annotations

import pytest

from bot.engine.core import IllegalMove, NotYourTurn
from bot.engine.race.cards import TYPE_OF, deck_counts, full_deck
from bot.engine.race.state import Phase, RaceState
from tests.engine.race_helpers import (
    BLUE_CHEATS,
    G,
    act,
    empty_library,
    hazard_on,
    lay_miles,
    legal,
    red_first,
    refused,
    snapshot,
    start,
    to_hand,
    trump_for,
)

# --- choosing the first player --------------------------------------------------------------


def test_higher_revealed_miles_goes_first() -> None:
    """Both reveal until a miles card; the higher miles card starts."""
    state = start(["flat-tire", "75"], ["100"])
    assert state.reveal == (("flat-tire", "75"), ("100",))
    assert state.first_player == 1 and state.turn == 1


def test_tied_reveal_continues_from_where_each_stopped() -> None:
    """A tie repeats the reveal, each player carrying on from the card after their miles."""
    state = start(["50", "gasoline", "25"], ["accident", "50", "100"])
    assert state.reveal == (("50", "gasoline", "25"), ("accident", "50", "100"))
    assert state.first_player == 1


def test_a_reveal_tied_to_the_end_lets_red_start() -> None:
    """Two identically stacked whole decks tie on every miles card: Red starts."""
    state = G.new_game(["Ann", "Bob"], seed=1, deck=full_deck())
    assert state.reveal[0] == state.reveal[1] and len(state.reveal[0]) == 60
    assert state.first_player == 0


def test_random_deal_starts_the_higher_revealed_miles() -> None:
    """In shuffled deals the last card each player revealed is miles and the higher starts."""
    for seed in range(20):
        state = G.new_game(["Ann", "Bob"], seed=seed)
        last = [int(state.reveal[seat][-1]) for seat in (0, 1)]
        assert last[0] != last[1]
        assert state.first_player == (0 if last[0] > last[1] else 1)


def test_the_opening_line_says_why_the_reveal_chose_who_starts() -> None:
    """A newcomer sees two lists of revealed cards: the line says which miles cards decided,
    ties included, and the rule (higher miles starts). Before the fix it only listed the cards
    ("…; Bob revealed accident, 50 miles, 100 miles. Bob goes first.")."""
    state = start(["flat-tire", "75"], ["100"])
    assert "revealed 100 miles. 100 miles beats 75 miles: " in state.caption, state.caption
    tied = start(["50", "gasoline", "25"], ["accident", "50", "100"])
    assert "A tie at 50 miles, then 100 miles beats 25 miles: " in tied.caption, tied.caption
    whole = G.new_game(["Ann", "Bob"], seed=1, deck=full_deck())
    assert "No miles card differed, so Red starts: Ann goes first." in whole.caption


def test_seven_cards_each_and_the_first_player_draws_too() -> None:
    """Both start with seven; the first player's turn begins with an automatic draw."""
    state = red_first()
    assert [len(side.hand) for side in state.sides] == [8, 7]
    assert "75" in state.sides[0].hand
    assert [len(side.library) for side in state.sides] == [52, 53]


# --- one miles, one hazard, one removal per turn ---------------------------------------------


def test_second_miles_card_in_a_turn_is_refused() -> None:
    """After one miles card, a second one is refused with a sentence."""
    state = act(red_first(), 0, "play 100")
    assert "already played a miles card" in refused(state, 0, "play 50")


def test_one_removal_hazard_and_miles_in_any_order() -> None:
    """Removal, hazard and miles can all be played in one turn, in any order."""
    state = red_first()
    hazard_on(state, 0, "flat-tire")
    state = act(state, 0, "play spare-tire", "play flat-tire", "play 100")
    assert state.sides[0].total == 100 and state.sides[1].hazards == ["flat-tire"]
    assert state.sides[0].hazards == []


def test_second_hazard_in_a_turn_is_refused() -> None:
    """Only one hazard per turn."""
    red = ["100", "flat-tire", "accident", "extra-tank"]
    state = act(red_first(red), 0, "play flat-tire")
    assert "already played a hazard" in refused(state, 0, "play accident")


def test_trumps_and_pit_crew_are_free_and_unlimited() -> None:
    """Trumps and Pit Crew never use up the turn's plays, before or after them."""
    state = act(red_first(), 0, "play 100", "play extra-tank", "play pit-crew")
    assert state.sides[0].trumps == ["extra-tank"]
    assert len(state.sides[0].hand) == 8 - 3 + 2
    assert "play flat-tire" in legal(state, 0)


# --- cycling ---------------------------------------------------------------------------------


def test_cycle_of_three_cards_of_two_types_draws_two() -> None:
    """Junking 25, 50 and Flat Tire (miles and hazard) draws two cards."""
    state = act(red_first(), 0, "cycle 25 50 flat-tire")
    me = state.sides[0]
    assert len(me.hand) == 8 - 3 + 2
    assert sorted(me.junkyard) == ["25", "50", "flat-tire"]
    assert "50" in me.hand and "200" in me.hand  # the next two draws


def test_cycle_draws_one_per_type_not_per_card() -> None:
    """Three miles cards are one type: one draw."""
    state = act(red_first(), 0, "cycle 25 50 100")
    assert len(state.sides[0].hand) == 8 - 3 + 1


def test_cycle_after_a_play_is_refused() -> None:
    """No cycling once a miles card was played this turn."""
    state = act(red_first(), 0, "play 100")
    assert "cannot cycle after playing" in refused(state, 0, "cycle 25")


def test_cycle_ends_the_play_phase_but_trumps_and_pit_crew_still_go() -> None:
    """After a cycle, miles are refused while a trump and Pit Crew are still allowed."""
    state = act(red_first(), 0, "cycle 25")
    assert "cycled this turn" in refused(state, 0, "play 100")
    assert "already cycled" in refused(state, 0, "cycle 50")
    state = act(state, 0, "play extra-tank", "play pit-crew")
    assert state.sides[0].trumps == ["extra-tank"]


def test_cycle_of_cards_not_held_is_refused() -> None:
    """Cycling two 25s while holding one is refused."""
    assert "you hold 1" in refused(red_first(), 0, "cycle 25 25")


def test_cancelled_miles_still_counts_as_the_turns_miles() -> None:
    """A miles card cancelled by Roadblock uses up the miles play and rules out cycling."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play 100")
    state = act(state, 1, "react roadblock")
    assert state.sides[0].total == 0
    assert "already played a miles card" in refused(state, 0, "play 50")
    assert "cannot cycle" in refused(state, 0, "cycle 25")


def test_legal_actions_list_every_distinct_cycle() -> None:
    """A hand of eight cards with one pair offers (2+1)·2^6 − 1 = 191 distinct cycles."""
    state = red_first(["100", "50", "25", "flat-tire", "spare-tire", "extra-tank", "50"])
    cycles = [text for text in legal(state, 0) if text.startswith("cycle")]
    assert len(cycles) == len(set(cycles)) == 3 * 2**6 - 1


# --- hazards, removals, trumps ---------------------------------------------------------------


def test_a_stopping_hazard_forbids_miles() -> None:
    """With a Flat Tire on you, miles cards are refused and not offered."""
    state = red_first()
    hazard_on(state, 0, "flat-tire")
    assert "Flat Tire targets you" in refused(state, 0, "play 100")
    assert not [t for t in legal(state, 0) if t in ("play 25", "play 50", "play 100")]


def test_speed_trap_allows_only_25_and_50() -> None:
    """Under a Speed Trap only 25 and 50 may be played."""
    state = red_first()
    hazard_on(state, 0, "speed-trap")
    assert "only play 25 or 50" in refused(state, 0, "play 100")
    assert {"play 25", "play 50"} <= set(legal(state, 0))
    assert act(state, 0, "play 50").sides[0].total == 50


def test_refused_miles_say_which_cards_clear_the_hazard() -> None:
    """A newcomer stopped by a hazard is told what clears it, not only that it stops them.
    Before the fix: "You cannot play miles while Accident targets you." and nothing more."""
    state = red_first()
    hazard_on(state, 0, "accident")
    assert refused(state, 0, "play 100") == (
        "You cannot play miles while Accident targets you: clear it first with Repairs, "
        "Tow Truck or Driving Ace."
    )
    trapped = red_first()
    hazard_on(trapped, 0, "speed-trap")
    said = refused(trapped, 0, "play 100")
    assert said.endswith("; End of Limit, Tow Truck or Right of Way clears it."), said


def test_hazards_stack_and_one_removal_clears_one() -> None:
    """Two Flat Tires stack; a Spare Tire clears one and the other still stops you."""
    state = red_first()
    hazard_on(state, 0, "flat-tire", "flat-tire")
    state = act(state, 0, "play spare-tire")
    assert state.sides[0].hazards == ["flat-tire"]
    assert "Flat Tire targets you" in refused(state, 0, "play 100")


def test_a_hazard_may_join_hazards_already_there() -> None:
    """A hazard is legal on an opponent already stopped by the same kind."""
    state = red_first()
    hazard_on(state, 1, "flat-tire")
    state = act(state, 0, "play flat-tire")
    assert state.sides[1].hazards == ["flat-tire", "flat-tire"]


def test_removal_needs_its_hazard() -> None:
    """A Spare Tire with no Flat Tire on you is refused."""
    assert "none targets you" in refused(red_first(), 0, "play spare-tire")


def test_removal_sends_each_card_to_its_owners_junkyard() -> None:
    """The removal goes to your junkyard, the hazard to its owner's."""
    state = red_first()
    hazard_on(state, 0, "flat-tire")
    state = act(state, 0, "play spare-tire")
    assert state.sides[0].junkyard == ["spare-tire"]
    assert state.sides[1].junkyard == ["flat-tire"]


def test_tow_truck_removes_the_hazard_named() -> None:
    """Tow Truck offers each hazard on you and removes only the one named."""
    state = red_first(["100", "tow-truck", "flat-tire"])
    hazard_on(state, 0, "red-light", "speed-trap")
    assert {"play tow-truck on red-light", "play tow-truck on speed-trap"} <= set(legal(state, 0))
    state = act(state, 0, "play tow-truck on speed-trap")
    assert state.sides[0].hazards == ["red-light"]


def test_tow_truck_refuses_a_hazard_that_is_not_there() -> None:
    """Tow Truck on a hazard that does not target you, or unnamed among two, is refused."""
    state = red_first(["100", "tow-truck", "flat-tire"])
    hazard_on(state, 0, "red-light", "speed-trap")
    assert "No Accident targets you" in refused(state, 0, "play tow-truck on accident")
    assert "Say which hazard" in refused(state, 0, "play tow-truck")


def test_an_unnamed_tow_truck_is_told_the_hazards_on_you() -> None:
    """A Flat Tire and an Accident on Ann, "play tow-truck" unnamed: the refusal offered
    "e.g. 'play tow-truck on red-light'", which was refused in turn ("No Red Light targets
    you"); it names the hazards on her, and each one it names is played."""
    state = red_first(["100", "tow-truck", "flat-tire"])
    hazard_on(state, 0, "accident", "flat-tire")
    said = refused(state, 0, "play tow-truck")
    assert said == (
        "Say which hazard the Tow Truck removes: 'play tow-truck on flat-tire' or "
        "'play tow-truck on accident'."
    )
    for named in ("play tow-truck on flat-tire", "play tow-truck on accident"):
        assert act(state, 0, named).caption.startswith("Ann sends a Tow Truck"), named


def test_tow_truck_finds_the_only_hazard_by_itself() -> None:
    """With one kind of hazard on you, 'play tow-truck' needs no target."""
    state = red_first(["100", "tow-truck", "flat-tire"])
    hazard_on(state, 0, "accident")
    assert act(state, 0, "play tow-truck").sides[0].hazards == []


def test_trump_junks_every_hazard_of_its_kind() -> None:
    """Puncture-Proof clears both Flat Tires and stays in play."""
    state = red_first(["100", "puncture-proof"])
    hazard_on(state, 0, "flat-tire", "flat-tire", "accident")
    state = act(state, 0, "play puncture-proof")
    assert state.sides[0].hazards == ["accident"]
    assert state.sides[0].trumps == ["puncture-proof"]
    assert state.sides[1].junkyard == ["flat-tire", "flat-tire"]


def test_right_of_way_covers_red_light_and_speed_trap() -> None:
    """Right of Way clears Red Light and Speed Trap, nothing else."""
    state = red_first(["100", "right-of-way"])
    hazard_on(state, 0, "red-light", "speed-trap", "flat-tire")
    assert act(state, 0, "play right-of-way").sides[0].hazards == ["flat-tire"]


def test_a_trump_clearing_two_hazards_names_them_as_a_list() -> None:
    """Right of Way clearing a Red Light and a Speed Trap says so in a sentence. Before the fix
    the caption read "It clears Red Light, Speed Trap.", a list cut short."""
    state = red_first(["100", "right-of-way"])
    hazard_on(state, 0, "red-light", "speed-trap")
    state = act(state, 0, "play right-of-way")
    assert state.caption == "Ann plays the trump Right of Way. It clears Red Light and Speed Trap."


def test_a_trump_clearing_two_copies_of_a_hazard_counts_them() -> None:
    """Puncture-Proof clearing two Flat Tires says "2 Flat Tires". Before the fix the caption
    read "It clears Flat Tire, Flat Tire.", one card's name said twice."""
    state = red_first(["100", "puncture-proof"])
    hazard_on(state, 0, "flat-tire", "flat-tire")
    state = act(state, 0, "play puncture-proof")
    assert state.caption == "Ann plays the trump Puncture-Proof. It clears 2 Flat Tires."


def test_trump_gives_no_future_immunity() -> None:
    """An Out of Gas still lands on a player whose Extra Tank is in play."""
    state = act(red_first(), 0, "play extra-tank", "end")
    state = act(state, 1, "play out-of-gas")
    assert state.sides[0].hazards == ["out-of-gas"]


def test_trumps_only_in_your_own_turn() -> None:
    """During Blue's turn Red cannot play her trump."""
    state = act(red_first(), 0, "end")
    with pytest.raises(NotYourTurn):
        G.apply(state, 0, G.parse_action("play extra-tank"))
    assert legal(state, 0) == []


def test_legendary_pair_goes_to_both_junkyards_at_end_of_turn() -> None:
    """Both Extra Tanks stay until the end of the turn, the newcomer clearing its hazard first."""
    state = red_first()
    trump_for(state, 1, "extra-tank")
    hazard_on(state, 0, "out-of-gas")
    state = act(state, 0, "play extra-tank")
    assert state.sides[0].hazards == [] and state.sides[0].trumps == ["extra-tank"]
    assert state.sides[1].trumps == ["extra-tank"]
    state = act(state, 0, "end")
    assert state.sides[0].trumps == [] and state.sides[1].trumps == []
    assert "extra-tank" in state.sides[0].junkyard and "extra-tank" in state.sides[1].junkyard
    assert "out-of-gas" in state.sides[1].junkyard
    assert state.caption == (
        "Ann ends the turn. Both players have Extra Tank in play, so both Extra Tank cards go "
        "to the junkyards."
    )


# --- reactions -------------------------------------------------------------------------------


def test_coup_fourre_cancels_a_hazard() -> None:
    """Blue holding Coup Fourré is asked; answering junks both cards to their owners."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play flat-tire")
    assert G.to_act(state) == frozenset({1})
    assert legal(state, 1) == ["react coup-fourre", "pass"]
    state = act(state, 1, "react coup-fourre")
    assert state.sides[1].hazards == []
    assert state.sides[0].junkyard == ["flat-tire"]
    assert state.sides[1].junkyard == ["coup-fourre"]
    assert G.to_act(state) == frozenset({0})


def test_a_player_without_the_answer_is_not_asked() -> None:
    """Without Coup Fourré in hand no window opens: the hazard lands at once."""
    state = act(red_first(), 0, "play flat-tire")
    assert G.to_act(state) == frozenset({0})
    assert state.sides[1].hazards == ["flat-tire"]


def test_the_default_answer_is_no_reaction_in_a_window_only() -> None:
    """default_action is 'pass' for the asked seat and None for ordinary turns."""
    state = red_first(blue=BLUE_CHEATS)
    assert G.default_action(state, 0) is None
    state = act(state, 0, "play 100")
    assert G.default_action(state, 1) == ("pass",)
    assert G.default_action(state, 0) is None


def test_roadblock_cancels_a_miles_card() -> None:
    """Roadblock answers the opponent's miles: both junked, no miles gained."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play 100")
    state = act(state, 1, "react roadblock")
    assert state.sides[0].total == 0
    assert state.sides[0].junkyard == ["100"] and state.sides[1].junkyard == ["roadblock"]


def test_passing_lets_the_card_resolve() -> None:
    """'pass' closes the window and the miles land."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play 100")
    state = act(state, 1, "pass")
    assert state.sides[0].total == 100 and "roadblock" in state.sides[1].hand


def test_jammer_cancels_a_trump_which_never_counts_as_in_play() -> None:
    """A jammed trump clears nothing, never joins the field and forms no legendary pair."""
    state = red_first(blue=BLUE_CHEATS)
    hazard_on(state, 0, "out-of-gas")
    trump_for(state, 1, "extra-tank")
    state = act(state, 0, "play extra-tank")
    state = act(state, 1, "react jammer")
    assert state.sides[0].hazards == ["out-of-gas"] and state.sides[0].trumps == []
    state = act(state, 0, "end")
    assert state.sides[1].trumps == ["extra-tank"]


def test_jammer_cancels_a_removal() -> None:
    """A jammed Spare Tire leaves the Flat Tire and still uses the turn's removal."""
    state = red_first(["100", "spare-tire", "tow-truck"], BLUE_CHEATS)
    hazard_on(state, 0, "flat-tire")
    state = act(state, 0, "play spare-tire")
    state = act(state, 1, "react jammer")
    assert state.sides[0].hazards == ["flat-tire"]
    assert "already played a removal" in refused(state, 0, "play tow-truck on flat-tire")


def test_jammer_cancels_pit_crew() -> None:
    """A jammed Pit Crew draws nothing."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play pit-crew")
    state = act(state, 1, "react jammer")
    assert len(state.sides[0].hand) == 7
    assert state.sides[0].junkyard == ["pit-crew"]


def test_three_deep_chain_resolves_last_in_first_out() -> None:
    """Flat Tire, Coup Fourré, Jammer, Jammer: the last Jammer saves the Coup Fourré."""
    red = ["100", "flat-tire", "jammer"]
    state = act(red_first(red, BLUE_CHEATS), 0, "play flat-tire")
    state = act(state, 1, "react coup-fourre")
    assert G.to_act(state) == frozenset({0}) and legal(state, 0) == ["react jammer", "pass"]
    state = act(state, 0, "react jammer")
    assert G.to_act(state) == frozenset({1})
    state = act(state, 1, "react jammer")
    assert state.phase is Phase.PLAY and state.stack == []
    assert state.sides[1].hazards == []
    assert sorted(state.sides[0].junkyard) == ["flat-tire", "jammer"]
    assert sorted(state.sides[1].junkyard) == ["coup-fourre", "jammer"]


def test_an_unanswered_jammer_cancels_the_coup_fourre() -> None:
    """Blue passing on Red's Jammer lets the Flat Tire land after all."""
    red = ["100", "flat-tire", "jammer"]
    state = act(red_first(red, BLUE_CHEATS), 0, "play flat-tire")
    state = act(state, 1, "react coup-fourre")
    state = act(state, 0, "react jammer")
    state = act(state, 1, "pass")
    assert state.sides[1].hazards == ["flat-tire"]
    assert "jammer" in state.sides[1].hand


def test_the_active_player_may_jam_a_roadblock() -> None:
    """Red answers Blue's Roadblock with her own Jammer and keeps her miles."""
    red = ["100", "flat-tire", "jammer"]
    state = act(red_first(red, BLUE_CHEATS), 0, "play 100")
    state = act(state, 1, "react roadblock")
    state = act(state, 0, "react jammer")
    assert G.to_act(state) == frozenset({1})  # Blue could jam back, and declines
    state = act(state, 1, "pass")
    assert state.sides[0].total == 100
    assert sorted(state.sides[1].junkyard) == ["roadblock"]


def test_a_reaction_nobody_offered_is_refused() -> None:
    """Blue cannot react during Red's play phase, nor Red in her own."""
    state = red_first(blue=BLUE_CHEATS)
    assert "No reaction is waiting" in refused(state, 1, "react roadblock")
    assert "nothing to react to" in refused(state, 0, "react jammer")


def test_a_reaction_after_its_window_closed_is_refused() -> None:
    """Once Blue passed on the miles card, a Roadblock is refused and nothing changes."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play 100")
    state = act(state, 1, "pass")
    assert "window has closed" in refused(state, 1, "react roadblock")


def test_the_wrong_reaction_is_refused() -> None:
    """In a Coup Fourré window, Jammer cannot react to a hazard."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play flat-tire")
    assert "cannot react to Flat Tire" in refused(state, 1, "react jammer")


def test_nothing_but_a_reaction_while_a_window_is_open() -> None:
    """While Blue decides, Red may not go on playing and Blue may not play Pit Crew."""
    blue = [*BLUE_CHEATS[:6], "pit-crew"]
    state = act(red_first(blue=blue), 0, "play 100")
    assert "Waiting for Bob" in refused(state, 0, "play flat-tire")
    assert refused(state, 1, "play pit-crew") == (
        "First react to the 100 miles Ann played: 'react roadblock' or 'pass'."
    )
    assert legal(state, 1) == ["react roadblock", "pass"]


# --- winning and the end of the turn ---------------------------------------------------------


def test_exact_1000_at_the_end_of_your_turn_wins() -> None:
    """Reaching exactly 1000 ends the turn and the game: Red wins."""
    state = red_first()
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100"])
    state = act(state, 0, "play 100")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.scores == (1000, 0) and "exactly 1000" in outcome.reason
    assert G.to_act(state) == frozenset()


def test_miles_past_1000_are_refused() -> None:
    """At 950 a 100 is refused; a 50 finishes the race."""
    state = red_first()
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100", "50"])
    assert "past 1000" in refused(state, 0, "play 100")
    outcome = G.outcome(act(state, 0, "play 50"))
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (1000, 0)


def test_a_third_200_is_refused() -> None:
    """With two 200s in play a third is refused (possible only with a tuned deck)."""
    state = red_first()
    lay_miles(state, 0, ["200", "200"])
    state.sides[1].library.remove("200")  # a tuned deck would hold a third 200
    state.sides[0].hand.append("200")
    assert "two 200s" in refused(state, 0, "play 200")


def test_hand_limit_discards_one_chosen_card_at_a_time() -> None:
    """Ending with 12 cards asks for two discards, then Blue's turn begins."""
    state = act(red_first(), 0, "play pit-crew")
    to_hand(state, 0, 3)
    assert len(state.sides[0].hand) == 12
    state = act(state, 0, "end")
    assert state.phase is Phase.DISCARD and state.turn == 0
    assert state.caption.endswith("must discard 2 cards down to 10.")
    assert all(text.startswith("discard ") for text in legal(state, 0))
    assert "discard down to 10" in refused(state, 0, "end")
    state = act(state, 0, "discard 25")
    assert state.phase is Phase.DISCARD
    state = act(state, 0, "discard 50")
    assert state.turn == 1 and len(state.sides[0].hand) == 10
    assert state.sides[0].junkyard[-2:] == ["25", "50"]


def test_no_trump_or_pit_crew_during_the_hand_limit_discard() -> None:
    """The hand-limit discard comes after the turn has ended: a trump (or Pit Crew) held then
    waits for the next turn, since "any time in your turn" is over."""
    state = act(red_first(), 0, "play pit-crew")
    to_hand(state, 0, 3)
    assert "extra-tank" in state.sides[0].hand
    state = act(state, 0, "end")
    assert state.phase is Phase.DISCARD
    assert "discard down to 10 first" in refused(state, 0, "play extra-tank")
    assert "play extra-tank" not in legal(state, 0)


def test_discarding_outside_the_hand_limit_is_refused() -> None:
    """'discard' during the play phase is refused: cycle instead."""
    assert "cycle them" in refused(red_first(), 0, "discard 25")


def test_discarding_after_a_play_does_not_suggest_cycling() -> None:
    """Once a miles card is played cycling is closed, so the refusal of 'discard' does not
    send the player to it."""
    state = act(red_first(), 0, "play 100")
    said = refused(state, 0, "discard 25")
    assert (
        said
        == "Discarding is only for the hand limit at the end of your turn (more than 10 cards)."
    )
    assert refused(state, 0, "cycle 25").startswith("You cannot cycle after playing")


def test_the_win_is_checked_before_the_hand_limit() -> None:
    """Red reaching 1000 with 13 cards wins without discarding."""
    state = red_first()
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100"])
    to_hand(state, 0, 6)
    state = act(state, 0, "play 100")
    assert G.outcome(state) is not None and state.phase is Phase.OVER


def test_legendary_rule_comes_after_the_hand_limit() -> None:
    """During the hand-limit discard both trumps are still in play; then both are junked."""
    state = red_first()
    trump_for(state, 1, "extra-tank")
    to_hand(state, 0, 4)
    state = act(state, 0, "play extra-tank", "end")
    assert state.phase is Phase.DISCARD
    assert state.sides[1].trumps == ["extra-tank"] and state.sides[0].trumps == ["extra-tank"]
    state = act(state, 0, "discard 25")
    assert state.sides[0].trumps == [] and state.sides[1].trumps == []


# --- running out of cards --------------------------------------------------------------------


def test_an_empty_library_is_refilled_once_from_the_junkyard() -> None:
    """Red's next draw shuffles her junkyard into her library."""
    state = act(red_first(), 0, "end")
    empty_library(state, 0)
    junk = len(state.sides[0].junkyard)
    state = act(state, 1, "end")
    me = state.sides[0]
    assert me.reshuffled and me.junkyard == [] and len(me.library) == junk - 1
    assert "shuffles the junkyard" in state.caption


def test_the_reshuffle_happens_mid_cycle_with_the_cards_just_junked() -> None:
    """A cycle that empties the library reshuffles the junkyard, its own cards included."""
    state = red_first()
    me = state.sides[0]
    me.junkyard.extend(me.library[1:])
    del me.library[1:]
    before = len(me.junkyard)
    state = act(state, 0, "cycle 25 flat-tire spare-tire")
    me = state.sides[0]
    assert me.reshuffled and me.junkyard == []
    assert len(me.library) == before + 3 - 2
    assert len(me.hand) == 8 - 3 + 3


def test_the_reshuffle_is_used_even_with_an_empty_junkyard() -> None:
    """An empty library and junkyard use the reshuffle up: the draw is skipped."""
    state = act(red_first(), 0, "end")
    to_hand(state, 0, len(state.sides[0].library))
    size = len(state.sides[0].hand)
    state = act(state, 1, "end")
    me = state.sides[0]
    assert me.reshuffled and len(me.hand) == size
    assert "Ann has an empty library: 1 card is not drawn." in state.caption


def test_a_reshuffle_of_an_empty_junkyard_says_it_is_spent_not_that_it_shuffled() -> None:
    """Nothing was shuffled, but the one reshuffle is gone: the caption says that instead."""
    state = act(red_first(), 0, "end")
    to_hand(state, 0, len(state.sides[0].library))
    assert state.sides[0].junkyard == []
    state = act(state, 1, "end")
    assert "shuffles the junkyard" not in state.caption
    assert state.caption.endswith(
        "Ann has an empty library: 1 card is not drawn. The junkyard was empty too: the one "
        "reshuffle is spent."
    )


def test_a_skipped_draw_does_not_skip_the_turn() -> None:
    """With draws skipped, Red still plays her turn."""
    state = act(red_first(), 0, "end")
    empty_library(state, 0, reshuffled=True)
    state = act(state, 1, "end")
    assert state.turn == 0 and state.phase is Phase.PLAY
    assert len(state.sides[0].hand) == 8
    assert "play 100" in legal(state, 0)


def test_game_ends_when_neither_player_can_act_more_miles_wins() -> None:
    """Both libraries spent and both hands empty: the player with more miles wins."""
    state = red_first()
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    state.sides[1].junkyard.extend(state.sides[1].hand)
    state.sides[1].hand = []
    me = state.sides[0]
    me.junkyard.extend(c for c in me.hand if c != "100")
    me.hand = ["100"]
    state = act(state, 0, "play 100")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert "neither player can act" in outcome.reason


def test_neither_player_able_to_act_with_equal_miles_is_a_draw() -> None:
    """Both libraries spent, both hands empty and the miles level: the game is a draw."""
    state = red_first()
    lay_miles(state, 1, ["100"])
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    state.sides[1].junkyard.extend(state.sides[1].hand)
    state.sides[1].hand = []
    me = state.sides[0]
    me.junkyard.extend(c for c in me.hand if c != "100")
    me.hand = ["100"]
    state = act(state, 0, "play 100")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == () and outcome.is_draw
    assert "neither player can act" in outcome.reason and "equal" in outcome.reason


def test_two_idle_turns_end_the_game_and_equal_miles_draw() -> None:
    """With both draws skipped, two turns in a row without a play end the game: a draw."""
    state = red_first()
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    state = act(state, 0, "end")
    assert G.outcome(state) is None and state.idle_turns == 1
    state = act(state, 1, "end")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == () and outcome.is_draw
    assert "two turns in a row" in outcome.reason


def test_a_play_resets_the_idle_count() -> None:
    """A cycle between idle turns starts the count again."""
    state = red_first()
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    state = act(state, 0, "end")
    state = act(state, 1, "cycle 25")
    assert state.idle_turns == 0 and G.outcome(state) is None
    state = act(state, 0, "end")
    assert G.outcome(state) is None
    state = act(state, 1, "end")
    assert G.outcome(state) is not None


def test_a_trump_alone_makes_a_turn_count_as_played() -> None:
    """A turn whose only play is a trump resets the idle count."""
    state = red_first()
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    state.idle_turns = 1
    state = act(state, 0, "play extra-tank", "end")
    assert state.idle_turns == 0 and G.outcome(state) is None


def test_a_turn_with_nothing_to_do_ends_by_itself() -> None:
    """After a play, a hand with nothing playable and no cycle left ends the turn."""
    red = ["100", "flat-tire", "25", "50", "75", "spare-tire", "gasoline"]
    state = act(red_first(red), 0, "play 100", "play flat-tire")
    assert state.turn == 1 and state.turn_number == 2


def test_refused_moves_raise_readable_errors() -> None:
    """Out-of-turn play raises NotYourTurn, an unheld card IllegalMove."""
    state = red_first()
    with pytest.raises(NotYourTurn, match="It is not your turn: Ann is playing"):
        G.apply(state, 1, G.parse_action("play 25"))
    with pytest.raises(IllegalMove, match="You do not hold Roadblock"):
        G.apply(state, 0, ("play", "roadblock"))


# --- what the table says (a newcomer's review) -----------------------------------------------


def test_a_reaction_that_resolves_at_once_is_told_once() -> None:
    """A reaction nobody can react to cancels at once, in one sentence. Before the fix the
    caption said it twice: "Bob answers Ann's Flat Tire with Coup Fourré! Coup Fourré cancels
    Ann's Flat Tire." (and the same for Roadblock and Jammer)."""
    state = act(red_first(blue=BLUE_CHEATS), 0, "play flat-tire")
    state = act(state, 1, "react coup-fourre")
    assert state.caption == "Bob reacts with Coup Fourré and cancels the Flat Tire Ann played!"
    state = act(state, 0, "play 100")
    state = act(state, 1, "react roadblock")
    assert state.caption == "Bob reacts with Roadblock and cancels the 100 miles Ann played!"


def test_a_reaction_that_may_be_reacted_to_waits_and_then_says_what_it_cancelled() -> None:
    """A reaction the other player can jam cancels nothing yet; when the window closes, the
    resolution says what each card cancelled, the jammed reaction and the card beneath it."""
    red = ["100", "flat-tire", "jammer"]
    state = act(red_first(red, BLUE_CHEATS), 0, "play flat-tire")
    state = act(state, 1, "react coup-fourre")
    assert state.caption == (
        "Bob reacts with Coup Fourré to the Flat Tire Ann played! Waiting for Ann to react."
    )
    state = act(state, 0, "react jammer")
    assert state.caption == (
        "Ann reacts with Jammer to the Coup Fourré Bob played! Waiting for Bob to react."
    )
    state = act(state, 1, "react jammer")
    assert state.caption == (
        "Bob reacts with Jammer and cancels the Jammer Ann played! Coup Fourré cancels the "
        "Flat Tire Ann played."
    )


def test_a_trump_that_survives_reactions_is_named_when_it_clears() -> None:
    """Red's Extra Tank is jammed by Blue, whose Jammer Red jams back: the trump clears the Out
    of Gas. Before the fix the caption ended "… with Jammer! It clears Out of Gas.", where "it"
    read as the Jammer."""
    red = ["100", "extra-tank", "jammer"]
    state = red_first(red, BLUE_CHEATS)
    hazard_on(state, 0, "out-of-gas")
    state = act(state, 0, "play extra-tank")
    assert state.caption == "Ann plays the trump Extra Tank. Waiting for Bob to react."
    state = act(state, 1, "react jammer")
    state = act(state, 0, "react jammer")
    assert state.caption == (
        "Ann reacts with Jammer and cancels the Jammer Bob played! Extra Tank clears Out of Gas."
    )
    assert state.sides[0].trumps == ["extra-tank"] and state.sides[0].hazards == []


def test_the_miles_that_reach_1000_are_told_once() -> None:
    """The last miles card and the win are one event. Before the fix the caption said "Ann
    plays 100 miles. Ann has 1000 miles. Ann reached exactly 1000 miles.", and Discord's
    message, which takes the reason out of the caption, kept "Ann has 1000 miles." above the
    result line ending "Ann reached exactly 1000 miles."."""
    state = red_first()
    lay_miles(state, 0, ["200", "200", "100", "100", "100", "100", "100"])
    state = act(state, 0, "play 100")
    assert state.caption == "Ann plays 100 miles. Ann reached exactly 1000 miles."


def test_draws_are_counted_in_cards_and_an_empty_library_draws_nothing() -> None:
    """A cycle and Pit Crew say "draws 2 cards" or "draws nothing", never "draws 0"."""
    state = act(red_first(), 0, "play pit-crew")
    assert state.caption == "Ann plays Pit Crew. Ann draws 2 cards."
    state = act(state, 0, "cycle 25 flat-tire")
    assert state.caption.startswith("Ann cycles 2 cards (25 miles, Flat Tire) and draws 2 cards.")
    state = act(red_first(), 0, "end")
    empty_library(state, 1, reshuffled=True)
    state = act(state, 1, "cycle 25")
    assert state.caption.startswith(
        "Bob cycles 1 card (25 miles) and draws nothing. Bob has an empty library: 1 card is "
        "not drawn."
    ), state.caption


def test_cycling_more_copies_than_held_says_copies() -> None:
    """Before the fix: "You cannot cycle 2 × 25 miles: you hold 1." (2 × 25 miles reads as
    50 miles) and, for a card not held at all, "… 7 × 25 miles: you hold 0."."""
    state = red_first()
    assert refused(state, 0, "cycle 25 25") == "You cannot cycle 2 copies of 25 miles: you hold 1."
    assert refused(state, 0, "cycle 200") == "You do not hold 200 miles."


# --- audit: the Rulings of docs/rules/race.md checked one by one -----------------------------

RULED_DECK = {
    **{"25": 6, "50": 8, "75": 6, "100": 8, "200": 2},
    **dict.fromkeys(("flat-tire", "out-of-gas", "accident", "red-light", "speed-trap"), 2),
    **dict.fromkeys(
        ("spare-tire", "gasoline", "repairs", "green-light", "end-of-limit", "tow-truck"), 2
    ),
    **dict.fromkeys(("puncture-proof", "extra-tank", "driving-ace", "right-of-way"), 1),
    **dict.fromkeys(("coup-fourre", "roadblock", "jammer", "pit-crew"), 1),
}


def test_the_deck_table_is_the_ruled_card_list() -> None:
    """Every card, its count and its type are exactly the ruled 60-card deck."""
    assert dict(deck_counts()) == RULED_DECK
    kinds = {code: TYPE_OF[code] for code in RULED_DECK}
    assert [c for c in kinds if kinds[c] == "miles"] == ["25", "50", "75", "100", "200"]
    assert [c for c in kinds if kinds[c] == "trump"] == [
        "puncture-proof",
        "extra-tank",
        "driving-ace",
        "right-of-way",
    ]
    assert [c for c in kinds if kinds[c] == "cheat"] == [
        "coup-fourre",
        "roadblock",
        "jammer",
        "pit-crew",
    ]


@pytest.mark.parametrize("hazard", ["flat-tire", "out-of-gas", "accident", "red-light"])
def test_each_stopping_hazard_forbids_even_25_miles(hazard: str) -> None:
    """Flat Tire, Out of Gas, Accident and Red Light each stop every miles card."""
    state = red_first()
    hazard_on(state, 0, hazard)
    assert "targets you" in refused(state, 0, "play 25")


@pytest.mark.parametrize(
    ("removal", "hazard", "other"),
    [
        ("spare-tire", "flat-tire", "out-of-gas"),
        ("gasoline", "out-of-gas", "accident"),
        ("repairs", "accident", "red-light"),
        ("green-light", "red-light", "speed-trap"),
        ("end-of-limit", "speed-trap", "flat-tire"),
    ],
)
def test_each_removal_clears_only_its_own_hazard(removal: str, hazard: str, other: str) -> None:
    """A removal is refused against another kind of hazard and clears its own."""
    state = red_first(["100", removal])
    hazard_on(state, 0, other)
    assert "none targets you" in refused(state, 0, f"play {removal}")
    hazard_on(state, 0, hazard)
    assert act(state, 0, f"play {removal}").sides[0].hazards == [other]


@pytest.mark.parametrize(
    ("trump", "hazard"),
    [("puncture-proof", "flat-tire"), ("extra-tank", "out-of-gas"), ("driving-ace", "accident")],
)
def test_each_trump_clears_only_its_own_hazard(trump: str, hazard: str) -> None:
    """Puncture-Proof, Extra Tank and Driving Ace each clear their hazard and no other."""
    state = red_first(["100", trump])
    hazard_on(state, 0, hazard, "red-light")
    assert act(state, 0, f"play {trump}").sides[0].hazards == ["red-light"]


def test_second_removal_in_a_turn_is_refused() -> None:
    """Only one removal per turn, even with a second hazard to clear."""
    state = red_first(["100", "spare-tire", "gasoline"])
    hazard_on(state, 0, "flat-tire", "out-of-gas")
    state = act(state, 0, "play spare-tire")
    assert "already played a removal" in refused(state, 0, "play gasoline")


def test_the_rulings_example_cycle_draws_two() -> None:
    """Junking 25, 50 and Gasoline (miles and removal) draws two cards."""
    state = red_first(["100", "50", "25", "gasoline"])
    state = act(state, 0, "cycle 25 50 gasoline")
    assert len(state.sides[0].hand) == 8 - 3 + 2


def test_trumps_and_pit_crew_may_come_before_a_cycle() -> None:
    """A trump and Pit Crew played first leave the cycle open."""
    state = act(red_first(), 0, "play extra-tank", "play pit-crew")
    assert any(text.startswith("cycle ") for text in legal(state, 0))
    state = act(state, 0, "cycle 25")
    assert state.sides[0].junkyard[-1] == "25"


def test_an_empty_cycle_is_refused() -> None:
    """A cycle must junk at least one card."""
    assert "not a 1000 Mile Race move" in _refused_action(red_first(), 0, ("cycle",))


def test_a_cancelled_hazard_still_uses_the_turns_hazard() -> None:
    """A hazard cancelled by Coup Fourré uses up the hazard play and rules out cycling."""
    red = ["100", "flat-tire", "accident"]
    state = act(red_first(red, BLUE_CHEATS), 0, "play flat-tire")
    state = act(state, 1, "react coup-fourre")
    assert "already played a hazard" in refused(state, 0, "play accident")
    assert "cannot cycle" in refused(state, 0, "cycle 25")


def test_a_cancelled_removal_rules_out_cycling() -> None:
    """A removal cancelled by Jammer still rules out cycling."""
    state = red_first(["100", "spare-tire", "25"], BLUE_CHEATS)
    hazard_on(state, 0, "flat-tire")
    state = act(state, 0, "play spare-tire")
    state = act(state, 1, "react jammer")
    assert "cannot cycle" in refused(state, 0, "cycle 25")


@pytest.mark.parametrize(
    ("held", "played"),
    [
        ("jammer", "100"),
        ("jammer", "flat-tire"),
        ("roadblock", "flat-tire"),
        ("roadblock", "extra-tank"),
        ("coup-fourre", "100"),
        ("coup-fourre", "pit-crew"),
    ],
)
def test_only_the_matching_answer_opens_a_window(held: str, played: str) -> None:
    """Jammer never answers miles or hazards; Roadblock and Coup Fourré only their own kind."""
    state = act(red_first(blue=["25", "75", held]), 0, f"play {played}")
    assert state.phase is Phase.PLAY and G.to_act(state) == frozenset({0})


def test_jammer_cancels_a_jammer_on_a_trump() -> None:
    """Red jams Blue's Jammer on her trump: the trump lands and clears its hazard."""
    red = ["100", "extra-tank", "jammer"]
    state = red_first(red, BLUE_CHEATS)
    hazard_on(state, 0, "out-of-gas")
    state = act(state, 0, "play extra-tank")
    state = act(state, 1, "react jammer")
    state = act(state, 0, "react jammer")
    assert state.sides[0].trumps == ["extra-tank"] and state.sides[0].hazards == []


def test_reaction_cards_are_never_played_in_your_own_turn() -> None:
    """Coup Fourré held in your own play phase is refused as a play."""
    state = red_first(["100", "coup-fourre"])
    assert "only played as a reaction" in _refused_action(state, 0, ("play", "coup-fourre"))
    assert "play coup-fourre" not in legal(state, 0)


def test_reaction_cards_may_be_cycled_as_cheats() -> None:
    """Cycling Coup Fourré, Jammer and a 25 (cheat and miles) draws two."""
    state = red_first(["100", "25", "coup-fourre", "jammer"])
    state = act(state, 0, "cycle 25 coup-fourre jammer")
    assert sorted(state.sides[0].junkyard) == ["25", "coup-fourre", "jammer"]
    assert len(state.sides[0].hand) == 8 - 3 + 2


def test_pit_crew_only_in_your_own_turn() -> None:
    """During Red's turn Blue cannot play Pit Crew, and it is not offered to him."""
    state = red_first(blue=["25", "pit-crew"])
    with pytest.raises(NotYourTurn, match="Ann is playing"):
        G.apply(state, 1, ("play", "pit-crew"))
    assert legal(state, 1) == []


def test_different_trumps_in_play_form_no_legendary_pair() -> None:
    """Red's Extra Tank and Blue's Driving Ace both stay in play after the turn."""
    state = red_first()
    trump_for(state, 1, "driving-ace")
    state = act(state, 0, "play extra-tank", "end")
    assert state.sides[0].trumps == ["extra-tank"] and state.sides[1].trumps == ["driving-ace"]


def test_hand_limit_discards_do_not_reset_the_idle_count() -> None:
    """With both draws skipped, a turn of only hand-limit discards still counts as idle."""
    state = red_first()
    to_hand(state, 0, 3)
    for seat in (0, 1):
        empty_library(state, seat, reshuffled=True)
    state.idle_turns = 1
    state = act(state, 0, "end", "discard 25")
    outcome = G.outcome(state)
    assert outcome is not None and "two turns in a row" in outcome.reason


def test_junkyards_are_face_up() -> None:
    """The public view lists both junkyards card by card."""
    state = red_first()
    hazard_on(state, 0, "flat-tire")
    state = act(state, 0, "play spare-tire")
    public = G.public_view(state)
    assert public.sides[0].junkyard == ("spare-tire",)
    assert public.sides[1].junkyard == ("flat-tire",)


def _refused_action(state: RaceState, seat: int, action: tuple[str, ...]) -> str:
    """The refusal a raw action meets; asserts it leaves the state exactly as it was."""
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        G.apply(state, seat, action)
    assert snapshot(state) == before
    return str(info.value)
