"""The engine protocol for Mille Bornes: options, notation, saves and errors."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.core import BadOption, CorruptSave, GameError, NotationError
from bot.engine.mille.cards import Card, full_deck
from bot.engine.mille.state import Action
from bot.games import get_game
from tests.engine.mille_helpers import G


def test_registry_knows_mille() -> None:
    """The game is registered under its key."""
    assert get_game("mille") is G and get_game(" Mille ") is G


def test_unknown_game_is_a_readable_error() -> None:
    """Asking for a game that does not exist names the games that do."""
    with pytest.raises(BadOption, match="no game called 'chess'"):
        get_game("chess")


def test_default_options() -> None:
    """Defaults: BSD deck, a match, English names."""
    s = G.new_game(["A", "B"], seed=1)
    assert s.options == {"deck": "bsd", "length": "match", "names": "en"}


def test_bad_option_value() -> None:
    """A garbage option value is refused with the choices."""
    with pytest.raises(BadOption, match="bsd, modern"):
        G.new_game(["A", "B"], seed=1, options={"deck": "tarot"})


def test_unknown_option() -> None:
    """An option the game does not have is refused."""
    with pytest.raises(BadOption, match="no option called 'speed'"):
        G.new_game(["A", "B"], seed=1, options={"speed": "fast"})


def test_wrong_number_of_players() -> None:
    """Mille Bornes needs exactly two players."""
    with pytest.raises(BadOption, match="exactly 2"):
        G.new_game(["A"], seed=1)


def test_bsd_deck_has_101_cards_and_modern_106() -> None:
    """Deck compositions from docs/rules/mille.md (The cards)."""
    assert len(full_deck("bsd")) == 101 and len(full_deck("modern")) == 106
    s = G.new_game(["A", "B"], seed=1, options={"deck": "modern"})
    assert len(s.draw_pile) + sum(len(t.hand) for t in s.tableaus) == 106


def test_seed_decides_the_deal() -> None:
    """The same seed deals the same cards; another seed deals others."""
    a, b = G.new_game(["A", "B"], seed=5), G.new_game(["A", "B"], seed=5)
    c = G.new_game(["A", "B"], seed=6)
    assert G.to_dict(a) == G.to_dict(b) and G.to_dict(a) != G.to_dict(c)


def test_stacked_deck_with_too_many_copies_is_refused() -> None:
    """A stacked deck cannot hold more copies of a card than the deck has."""
    with pytest.raises(BadOption, match="only has 1"):
        G.new_game(["A", "B"], seed=1, deck=["extra-tank"] * 12)


def test_notation_round_trips_for_every_action() -> None:
    """format then parse gives the same action, for every card and verb."""
    actions = [Action("draw"), Action("extend", extend=True), Action("extend", extend=False)]
    actions += [Action(verb, card) for verb in ("play", "discard") for card in Card]
    for action in actions:
        assert G.parse_action(G.format_action(action)) == action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PLAY Right of Way", Action("play", Card.RIGHT_OF_WAY)),
        ("play feu rouge", Action("play", Card.STOP)),
        ("d 25", Action("discard", Card.D25)),
        ("défausser essence", Action("discard", Card.GASOLINE)),  # as "jouer" plays
        ("play citerne", Action("play", Card.EXTRA_TANK)),  # the French card's short name
        ("go", Action("play", Card.GO)),
        ("extend", Action("extend", extend=True)),
        ("extension no", Action("extend", extend=False)),
    ],
)
def test_notation_is_forgiving(text: str, expected: Action) -> None:
    """Case, French names, short verbs and bare card names are understood."""
    assert G.parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("play vehicule prioritaire", Card.RIGHT_OF_WAY),
        ("play reparations", Card.REPAIRS),
        ("discard REPARATIONS", Card.REPAIRS),
        ("play VÉHICULE PRIORITAIRE", Card.RIGHT_OF_WAY),
    ],
)
def test_a_french_name_typed_without_its_accents_is_understood(text: str, card: Card) -> None:
    """A keyboard without accents types "vehicule prioritaire" for Véhicule prioritaire.
    Before the fix: "There is no Mille Bornes card called 'vehicule prioritaire'."."""
    assert G.parse_action(text).card is card


def test_a_suggestion_typed_without_its_accents_is_that_move() -> None:
    """Bob holds Véhicule prioritaire and types the button's words on a keyboard without
    accents, "Safety: Vehicule prioritaire". Before the fix: "I don't understand 'Safety:
    Vehicule prioritaire'" (the words with their accents were played)."""
    state = G.new_game(["Ann", "Bob"], seed=1, options={"names": "fr"})
    state.tableaus[0].hand[0] = Card.RIGHT_OF_WAY
    typed = G.parse_for(state, 0, "Safety: Vehicule prioritaire")
    assert typed == Action("play", Card.RIGHT_OF_WAY)


@pytest.mark.parametrize("text", ["", "fly", "play unicorn", "discard", "extend maybe"])
def test_unknown_notation_is_a_notation_error(text: str) -> None:
    """Text that is not a move gives a NotationError with advice."""
    with pytest.raises(NotationError):
        G.parse_action(text)


@pytest.mark.parametrize("text", ["coup fourré", "play coup-fourre", "coup"])
def test_a_coup_fourre_typed_alone_says_to_play_its_safety(text: str) -> None:
    """/rules says "Coup fourré: … play it before drawing", so a newcomer types "/move coup
    fourré". Before the fix: "There is no Mille Bornes card called 'fourré'." (or 'coup-fourre',
    or "Say which card to play, for example 'play 100'."), which never says what to type."""
    with pytest.raises(NotationError, match="played with its safety") as refused:
        G.parse_action(text)
    assert "'play extra-tank'" in str(refused.value)
    assert G.parse_action("coup fourré extra tank") == Action("play", Card.EXTRA_TANK)


def test_state_survives_json() -> None:
    """A state written to JSON and read back is the same state."""
    s = G.new_game(["A", "B"], seed=3)
    data = json.loads(json.dumps(G.to_dict(s)))
    assert G.to_dict(G.from_dict(data)) == G.to_dict(s)


def test_resampling_deals_only_the_cards_a_seat_cannot_see_again() -> None:
    """Dealt again for Ann, her hand stays and Bob's hand and the draw pile change (Bob's hand
    keeps its size): the "decides from its view only" checks of the computers rely on it."""
    s = G.new_game(["Ann", "Bob"], seed=5)
    other = G.resample_hidden(s, 0, random.Random(2))
    assert other.tableaus[0].hand == s.tableaus[0].hand
    assert len(other.tableaus[1].hand) == len(s.tableaus[1].hand)
    assert G.census(other) == G.census(s)
    assert G.private_view(other, 0) == G.private_view(s, 0)
    assert (other.tableaus[1].hand, other.draw_pile) != (s.tableaus[1].hand, s.draw_pile)


def test_old_schema_is_refused() -> None:
    """A save from another format version is a CorruptSave with a sentence."""
    data = G.to_dict(G.new_game(["A", "B"], seed=3))
    data["schema_version"] = 0
    with pytest.raises(CorruptSave, match="cannot be resumed"):
        G.from_dict(data)


def test_a_save_naming_no_format_is_refused_in_words() -> None:
    """A save without its format version says so; it read "written in format None"."""
    data = G.to_dict(G.new_game(["A", "B"], seed=3))
    del data["schema_version"]
    with pytest.raises(CorruptSave) as refused:
        G.from_dict(data)
    assert str(refused.value) == (
        "This saved game is damaged: it does not say which format it is in."
    )


@pytest.mark.parametrize("damage", ["missing", "bad_card", "not_a_dict", "three_players"])
def test_damaged_save_is_refused(damage: str) -> None:
    """Missing fields, unknown cards and nonsense are CorruptSave, not crashes."""
    data: object = G.to_dict(G.new_game(["A", "B"], seed=3))
    assert isinstance(data, dict)
    if damage == "missing":
        del data["tableaus"]
    elif damage == "bad_card":
        data["draw_pile"][0] = "banana"
    elif damage == "three_players":
        data["players"] = ["A", "B", "C"]
    else:
        data = ["not", "a", "game"]
    with pytest.raises(CorruptSave):
        G.from_dict(data)  # type: ignore[arg-type]


def test_describe_actions_in_plain_words() -> None:
    """Menu labels read as plain words, with the opponent named for hazards."""
    s = G.new_game(
        ["Ann", "Bob"], seed=1, deck=["stop", "go", "100", "75", "75", "75", *["50"] * 6, "25"]
    )
    labels = [G.describe_action(s, 0, a) for a in G.legal_actions(s, 0)]
    assert "Play Go" in labels and "Discard Stop" in labels and "Discard 100 miles" in labels


def test_french_names_option() -> None:
    """With names=fr the menu uses the French card names."""
    s = G.new_game(
        ["Ann", "Bob"], seed=1, options={"names": "fr"}, deck=["go", *["75"] * 5, *["50"] * 6, "25"]
    )
    labels = [G.describe_action(s, 0, a) for a in G.legal_actions(s, 0)]
    assert "Play Feu vert" in labels


def test_french_names_in_refusals() -> None:
    """With names=fr a refusal names the cards as the hand and the table do. Before the fix it
    named them in English: "You cannot move yet: you need a Go (or Right of Way) …" beside a
    button "Feu vert", "You do not hold Stop." about the card shown as "Feu rouge"."""
    s = G.new_game(
        ["Ann", "Bob"],
        seed=1,
        options={"names": "fr"},
        deck=["go", "stop", "speed-limit", "gasoline", *["75"] * 2, *["50"] * 6, "25", "50", "go"],
    )

    def refusal(move: str) -> str:
        with pytest.raises(GameError) as refused:
            G.apply(s, 0, G.parse_action(move))
        return str(refused.value)

    assert refusal("play 75") == (
        "You cannot move yet: you need a Feu vert (or Véhicule prioritaire) with no hazard showing."
    )
    assert refusal("play stop") == "Bob is not moving, so Feu rouge cannot be played on them."
    assert refusal("play gasoline") == (
        "Essence only repairs Panne d'essence, and that is not on your battle pile."
    )
    assert refusal("play end-of-limit") == "You do not hold Fin de limite."
    assert refusal("discard 200") == "You do not hold 200 bornes."
    s = G.apply(s, 0, G.parse_action("play go"))
    s = G.apply(s, 1, G.parse_action("discard 50"))
    assert refusal("play go") == "You already have a Feu vert showing."


def test_outcome_reports_each_seats_best_hand() -> None:
    """A finished game tells each seat's best single hand, for personal bests."""
    s = G.new_game(["A", "B"], seed=8, options={"length": "hand"})
    rng = random.Random(8)
    while G.outcome(s) is None:
        (seat,) = G.to_act(s)
        s = G.apply(s, seat, rng.choice(G.legal_actions(s, seat)))
    outcome = G.outcome(s)
    assert outcome is not None
    assert outcome.seat_details == (
        {"best_hand": s.results[0].totals[0]},
        {"best_hand": s.results[0].totals[1]},
    )
