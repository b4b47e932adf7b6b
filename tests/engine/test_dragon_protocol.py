"""Dragon Mille Bornes and the engine protocol: info, options, notation, saves, leaving,
default actions, views and hidden-card resampling."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.core import BadOption, CorruptSave, IllegalMove, NotationError
from bot.engine.dragon.cards import SPECS, full_cw_deck
from bot.engine.dragon.notation import Action
from bot.engine.dragon.state import Phase
from bot.engine.mille.cards import Card
from tests.engine.dragon_helpers import G, act, legal, moving, rig, start

# --- info and options ----------------------------------------------------------------------


def test_game_info() -> None:
    """Key, title, 2–6 players, a rating ladder that also counts kills."""
    info = G.info
    assert (info.key, info.title, info.min_players, info.max_players) == (
        "dragon",
        "Dragon Mille Bornes",
        2,
        6,
    )
    ranking = info.ranking
    figures = getattr(ranking, "figures", None) or [f for f, _ in getattr(ranking, "totals", ())]
    assert ranking.kind == "rating" and tuple(figures) == ("kills",)


def test_default_options() -> None:
    """Oil Slick is off by default; the BSD Mille Bornes deck; English names."""
    s = G.new_game(["A", "B"], seed=1)
    assert s.options == {"oil_slick": "off", "deck": "bsd", "names": "en"}


def test_bad_option_value_is_refused() -> None:
    """A wrong option value is refused with the choices."""
    with pytest.raises(BadOption, match="off, on"):
        G.new_game(["A", "B"], seed=1, options={"oil_slick": "maybe"})


@pytest.mark.parametrize("count", [1, 7])
def test_player_count_is_two_to_six(count: int) -> None:
    """Fewer than 2 or more than 6 players are refused."""
    with pytest.raises(BadOption, match="2 to 6"):
        G.new_game([f"P{i}" for i in range(count)], seed=1)


def test_car_wars_deck_is_the_table_of_rulings() -> None:
    """The Car Wars deck: 110 cards, 112 with the two Oil Slicks."""
    assert len(full_cw_deck(False)) == 110 and len(full_cw_deck(True)) == 112
    assert sum(1 for c in full_cw_deck(False) if SPECS[c].kind == "armor") == 28


def test_seed_decides_the_deal() -> None:
    """The same seed deals the same cards; another seed deals others."""
    a, b, c = (G.new_game(["A", "B", "C"], seed=n) for n in (4, 4, 5))
    assert G.to_dict(a) == G.to_dict(b) and G.to_dict(a) != G.to_dict(c)


def test_stacked_deck_with_too_many_copies_is_refused() -> None:
    """A stacked deck cannot hold more copies than the real decks."""
    with pytest.raises(BadOption, match="too many"):
        G.new_game(["A", "B"], seed=1, deck=["spin"] * 3)
    with pytest.raises(BadOption, match="not a card"):
        G.new_game(["A", "B"], seed=1, deck=["banana"])


# --- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("mg-front @2", "mg-front @2"),
        ("Machine Gun Front @ 2", "mg-front @2"),
        ("fire ac-l at 1", "ac-left @1"),
        ("called shot @3 left", "called-shot @3 left"),
        ("tire-shot @1", "tire-shot @1"),
        ("stampede", "stampede"),
        ("play stop @2", "play stop @2"),
        ("Feu rouge @2", "play stop @2"),
        ("100", "play 100"),
        ("discard 25", "discard 25"),
        ("discard swerve spin", "cw-discard swerve spin"),
        ("cw-discard spin swerve", "cw-discard swerve spin"),
        ("cw-discard all", "cw-discard all"),
        ("armor front", "armor front"),
        ("armour f", "armor front"),
        ("swerve", "swerve"),
        ("oil slick", "oil-slick"),
        ("pass", "pass"),
        ("no", "pass"),
        ("side left", "side left"),
        ("left", "side left"),
        ("skid @1", "skid @1"),
        ("drop tank", "drop tank"),
        ("end", "end"),
        ("play driving-ace", "play driving-ace"),
        ("jam @2", "jam @2"),
        ("fireproof armor", "fireproof"),
        ("défausser essence", "discard gasoline"),  # "jouer feu rouge" was read, this refused
    ],
)
def test_notation_is_forgiving_and_canonical(text: str, canonical: str) -> None:
    """Notation reads names, aliases and spacing, and prints one canonical form."""
    action = G.parse_action(text)
    assert G.format_action(action) == canonical
    assert G.parse_action(canonical) == action


@pytest.mark.parametrize("text", ["", "fly to the moon", "play", "@@@", "called-shot @1"])
def test_bad_notation_is_a_readable_error(text: str) -> None:
    """Garbage is a NotationError with a sentence."""
    with pytest.raises(NotationError):
        G.parse_action(text)


def test_refusals_never_echo_long_input() -> None:
    """An error quotes at most a short piece of what was typed."""
    with pytest.raises(NotationError) as error:
        G.parse_action("zz" * 90)
    assert len(str(error.value)) < 200


@pytest.mark.parametrize("names", ["en", "fr"])
def test_a_move_typed_as_its_suggestion_reads_is_that_move(names: str) -> None:
    """A member types into /move the words they read in its suggestions or on a button
    ("Safety: Véhicule prioritaire", "Limite de vitesse on Bob", "Rocket (Front) on Bob").
    Before the fix Dragon refused each: "I don't understand 'Limite de vitesse on Bob'"
    (Mille Bornes and Solo read them)."""
    rng = random.Random(4)
    state = G.new_game(["Ann", "Bob", "Cy"], 4, {"names": names})
    checked = 0
    for _ in range(60):
        if G.outcome(state) is not None:
            break
        for seat in sorted(G.to_act(state)):
            actions = G.legal_actions(state, seat)
            words = [G.describe_action(state, seat, a) for a in actions]
            for action, label in zip(actions, words, strict=True):
                if words.count(label) == 1:  # a label two moves share names neither
                    assert G.parse_for(state, seat, label) == action, label
                    checked += 1
        seat = rng.choice(sorted(G.to_act(state)))
        state = G.apply(state, seat, rng.choice(G.legal_actions(state, seat)))
    assert checked > 200, checked


def test_a_move_typed_with_its_accents_is_aimed_at_the_car_it_names() -> None:
    """Zoé and Zoe may share a table. Without accents their attacks read alike, so a typed
    "Feu rouge on Zoe" is Zoe's attack only because the text as typed comes first; "Feu rouge
    on Zoé" is Zoé's."""
    state = moving(start(mb=[["stop"], (), ()], mb_draw=["25"], names="fr"), 1, 2)
    state.players = ("Ann", "Zoé", "Zoe")
    assert G.parse_for(state, 0, "Feu rouge on Zoé") == Action("play", "stop", 1)
    assert G.parse_for(state, 0, "Feu rouge on Zoe") == Action("play", "stop", 2)


def test_describe_action_uses_names() -> None:
    """Menus describe targets by player name."""
    s = start()
    assert G.describe_action(s, 0, G.parse_action("mg-front @1")) == "Machine Gun (Front) on Bob"
    assert G.describe_action(s, 0, G.parse_action("play stop @1")) == "Stop on Bob"


# --- saves ---------------------------------------------------------------------------------


def test_json_round_trip_mid_reaction() -> None:
    """A state with a pending reaction survives JSON unchanged."""
    s = act(start(cw=[["rocket-front"], ["armor-front"]]), 0, "rocket-front @1")
    back = G.from_dict(json.loads(json.dumps(G.to_dict(s))))
    assert G.to_dict(back) == G.to_dict(s) and back.phase is Phase.REACT


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"schema_version": 99},
        {"schema_version": 1},
        {"schema_version": 1, "game": "mille"},
    ],
)
def test_garbage_save_is_refused(data: object) -> None:
    """A damaged or foreign save raises CorruptSave."""
    with pytest.raises(CorruptSave):
        G.from_dict(data)  # type: ignore[arg-type]


def test_save_with_unknown_card_is_refused() -> None:
    """A save naming a card that does not exist is damaged."""
    data = G.to_dict(start())
    data["cars"][0]["cw_hand"] = ["banana"]
    with pytest.raises(CorruptSave):
        G.from_dict(data)


# --- leaving -------------------------------------------------------------------------------


def test_two_players_leaver_loses() -> None:
    """With two cars the leaver loses at once."""
    s = G.leave(start(), 0)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (1,) and outcome.places == (1, 0)


def test_three_players_leaver_drops_out() -> None:
    """With three cars the leaver drops out, its cards go to the discards, the others go on."""
    s = start(seats=3)
    census = G.census(s)
    s = G.leave(s, 1)
    assert G.outcome(s) is None and not s.cars[1].alive and s.cars[1].left
    assert s.cars[1].mb.hand == [] and s.cars[1].cw_hand == [] and G.census(s) == census
    assert 1 not in G.to_act(s)


def test_leaving_on_your_turn_passes_it() -> None:
    """A seat that leaves on its own turn hands the turn on."""
    s = G.leave(start(seats=3), 0)
    assert s.turn == 1 and G.to_act(s) == {1}


def test_game_ends_when_one_car_remains() -> None:
    """Leavers rank below everyone who stays, a later leaver above an earlier one."""
    s = start(seats=4)
    s.cars[3].alive = False  # died earlier
    s.cars[3].out_at = 0
    s = G.leave(G.leave(s, 1), 2)
    outcome = G.outcome(s)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.places == (0, 3, 2, 1)


def test_leaving_twice_is_refused() -> None:
    """A seat cannot leave twice, nor after the end."""
    s = G.leave(start(seats=3), 2)
    with pytest.raises(IllegalMove):
        G.leave(s, 2)
    s = G.leave(start(), 0)
    with pytest.raises(IllegalMove):
        G.leave(s, 1)


def test_victim_leaving_mid_reaction_ends_the_chain() -> None:
    """If the victim leaves while its window is open, the shot fizzles and the turn goes on."""
    s = act(start(cw=[["rocket-front"], ["armor-front"], []]), 0, "rocket-front @1")
    s = G.leave(s, 1)
    assert s.phase is Phase.TURN and G.to_act(s) == {0}


def test_stampede_victim_leaving_is_no_longer_waited_for() -> None:
    """A stampede victim who leaves drops out of the waiting list."""
    s = act(start(cw=[["stampede"], [], []]), 0, "stampede")
    s = G.leave(s, 2)
    assert G.to_act(s) == {1}


# --- defaults, views, hidden cards ---------------------------------------------------------


def test_default_action_only_in_reaction_windows() -> None:
    """An ordinary turn has no default action; a reaction window defaults to 'pass'."""
    s = start(cw=[["mg-front"], ["armor-front"]])
    assert G.default_action(s, 0) is None
    s = act(s, 0, "mg-front @1")
    assert G.default_action(s, 1) == Action("pass")


def test_public_view_hides_hands() -> None:
    """The public view counts hands but never shows them; the private view shows its own."""
    s = start(mb=[["75"], []], cw=[["spin"], []])
    public = G.public_view(s)
    assert public.cars[0].mb_hand_count == 6 and public.cars[0].cw_hand_count == 5
    mine = G.private_view(s, 0)
    assert Card.D75 in mine.mb_hand and "spin" in mine.cw_hand and mine.legal
    assert G.private_view(s, 1).legal == () and G.private_view(s, 1).phase == "wait"


def test_public_view_says_who_must_react() -> None:
    """A pending reaction is public: who decides, and about what."""
    s = act(start(cw=[["rocket-front"], ["armor-front"]]), 0, "rocket-front @1")
    pending = G.public_view(s).pending
    assert pending is not None and pending.actor == 1
    assert pending.text == "Bob may react to the Rocket from Ann (5 hits on the front)."
    # The table in words (the image's alt text) calls it a reaction too, as the race does.
    from bot.games import bundle

    heading = bundle("dragon").presenter.console_table(G.public_view(s)).splitlines()[0]
    assert heading == "── Dragon Mille Bornes · waiting for a reaction ──"


def test_resampling_keeps_the_card_that_opened_the_window() -> None:
    """Resampling for another seat keeps a card that answers the pending shot."""
    s = moving(start(cw=[["rocket-front"], ["swerve"]], seats=3), 1)
    s = act(s, 0, "rocket-front @1")
    for seed in range(20):
        other = G.resample_hidden(s, 0, random.Random(seed))
        assert "swerve" in other.cars[1].cw_hand and legal(other, 1) == legal(s, 1)
        assert G.public_view(other) == G.public_view(s)


def test_resampling_changes_hidden_cards_only() -> None:
    """Resampling for a seat keeps its hand and every public card."""
    s = G.new_game(["A", "B", "C"], seed=9)
    other = G.resample_hidden(s, 1, random.Random(3))
    assert other.cars[1].mb.hand == s.cars[1].mb.hand and other.cars[1].cw_hand == s.cars[1].cw_hand
    assert G.census(other) == G.census(s) and G.private_view(other, 1) == G.private_view(s, 1)
    assert other.cars[0].mb.hand != s.cars[0].mb.hand or other.cw_draw != s.cw_draw


def test_outcome_reports_kills_and_miles() -> None:
    """Outcome.seat_details carries every seat's kills (the ladder's figure) and miles."""
    s = rig(start(cw=[["rocket-front"], []]), 1, hits=[12, 0, 0, 0], driver=4)
    s = rig(s, 0, miles=["100"])
    s = act(s, 0, "rocket-front @1")
    outcome = G.outcome(s)
    assert outcome is not None
    assert outcome.seat_details == ({"kills": 1, "miles": 100}, {"kills": 0, "miles": 0})


def test_rules_document_has_its_sections() -> None:
    """docs/rules/dragon.md: the title, an 'In short' of at most 1 700 characters, Rulings."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "dragon.md").read_text()
    assert text.startswith("# Dragon Mille Bornes\n")
    short = text.split("\n## In short\n", 1)[1].split("\n## ", 1)[0].strip()
    assert 200 < len(short) <= 1700
    assert "\n## Rulings\n" in text


def test_hand_built_actions_with_unknown_cards_are_refused() -> None:
    """Actions built by hand with cards that do not exist are refused with a sentence."""
    s = start()
    for action in (
        Action("play", "banana"),
        Action("cw", "banana", 1),
        Action("cw-discard", cards=("x",)),
    ):
        with pytest.raises(IllegalMove, match="not a"):
            G.apply(s, 0, action)
