"""The Mille Bornes presenter: which buttons go on the public table and which in a hand."""

from __future__ import annotations

from typing import Any

from bot.engine.mille.cards import Card
from bot.games import MoveChoice, bundle, title_of
from bot.games.bundle import ButtonSpec
from tests.engine.mille_helpers import G, act, start

MILLE = bundle("mille").presenter


def _hand_buttons(state: Any, seat: int) -> list[ButtonSpec]:
    """The seat's hand buttons, from its legal moves in the engine's own words."""
    view = G.private_view(state, seat)
    moves = [
        MoveChoice(G.format_action(a), G.describe_action(state, seat, a))
        for a in G.legal_actions(state, seat)
    ]
    buttons = MILLE.hand_pickers(view, moves)
    assert all(isinstance(b, ButtonSpec) for b in buttons)
    return buttons  # type: ignore[return-value]


FILLER = ["75", "75", "75", "50", "50", "50"]


def test_public_table_shows_no_move_during_play() -> None:
    """While a player plays, the table offers no move buttons that could reveal a hand."""
    s = start(["go", *FILLER[:5]], FILLER, ["25"] * 4)
    assert MILLE.table_pickers(G.public_view(s)) == []


def test_extension_question_is_asked_on_the_table() -> None:
    """Landing on 700 puts Yes/No extension buttons on the table."""
    s = act(start(["go", "100", *FILLER[:4]], FILLER, ["25"] * 6), 0, "play go")
    s = act(s, 1, "discard 75")
    s.tableaus[0].miles = [Card.D100] * 6
    s = act(s, 0, "play 100")
    notations = [b.notation for b in MILLE.table_pickers(G.public_view(s))]  # type: ignore[union-attr]
    assert notations == ["extend yes", "extend no"]


def test_coup_fourre_is_offered_in_the_hand() -> None:
    """A possible coup fourré appears as a button in the victim's private hand."""
    s = start(["go", "driving-ace", *FILLER[:4]], ["accident", *FILLER[:5]], ["25"] * 5)
    s = act(act(s, 0, "play go"), 1, "play accident")
    labels = [b.label for b in _hand_buttons(s, 0)]
    assert labels == ["Draw", "Coup fourré! Driving Ace"]


def test_hand_buttons_cover_every_legal_move() -> None:
    """The hand has one button per legal move, within Discord's 25."""
    s = start(["go", "100", "stop", "extra-tank", "75", "50"], FILLER, ["25"] * 4)
    view = G.private_view(s, 0)
    buttons = _hand_buttons(s, 0)
    assert [b.notation for b in buttons] == list(view.legal) and len(buttons) <= 25


def test_hazard_buttons_name_whom_they_hit() -> None:
    """A hazard button in the hand says whom it hits, as Dragon's target picker does."""
    s = start(["go", "stop", "out-of-gas", *FILLER[:3]], ["go", *FILLER[:5]], ["25"] * 6)
    s = act(act(s, 0, "play go"), 1, "play go")
    labels = {b.notation: b.label for b in _hand_buttons(s, 0)}
    assert labels["play stop"] == "Stop on Bob"
    assert labels["play out-of-gas"] == "Out of Gas on Bob"


def test_hint_is_a_legal_move_with_a_reason() -> None:
    """The Mille Bornes hint names a legal move and says why."""
    s = start(["go", *FILLER[:5]], FILLER, ["25"] * 4)
    view = G.private_view(s, 0)
    assert MILLE.hint is not None
    suggestion = MILLE.hint(view)
    assert suggestion is not None and suggestion[0] in view.legal and suggestion[1]


def test_hint_takes_the_coup_fourre() -> None:
    """Offered a coup fourré, the hint takes it and explains the bonus."""
    s = start(["go", "driving-ace", *FILLER[:4]], ["accident", *FILLER[:5]], ["25"] * 5)
    s = act(act(s, 0, "play go"), 1, "play accident")
    assert MILLE.hint is not None
    assert MILLE.hint(G.private_view(s, 0)) == (
        "play driving-ace",
        "a coup fourré scores 300 more and clears the Accident on you at once.",
    )


def test_the_dragon_arena_text_says_whose_turn_in_words() -> None:
    """The arena's text is also its image's alt text. Found by a newcomer's review: it opened
    with the engine's phase name ("Dragon Mille Bornes · turn", "· react"), which a screen
    reader reads out as a code; it now says who is to play."""
    found = bundle("dragon")
    state = found.game.new_game(["Ann", "Bob", "Cy"], 3)
    text = found.presenter.console_table(found.game.public_view(state))
    first = text.splitlines()[0]
    assert first == "── Dragon Mille Bornes · Ann to play ──", first


def _race_table_heading(state: Any) -> str:
    race = bundle("race")
    return race.presenter.console_table(race.game.public_view(state)).splitlines()[0]


def test_the_race_table_text_says_who_acts_in_words() -> None:
    """The Race table's text is also its image's alt text. Found by a newcomer's review: its
    heading ended in the engine's phase name ("· play", "· react", "· discard"), read out as a
    code; it now says who is to play, who may react, who discards and when the race is over."""
    from bot.engine.race.state import Phase
    from tests.engine.race_helpers import act as race_act
    from tests.engine.race_helpers import start as race_start

    cheats = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]
    state = race_start(["100", "flat-tire"], cheats)
    assert _race_table_heading(state) == "── 1000 Mile Race · turn 1 · Ann to play ──"
    answering = race_act(state, 0, "play flat-tire")
    assert _race_table_heading(answering) == "── 1000 Mile Race · turn 1 · Bob may react ──"
    state.phase = Phase.DISCARD
    assert _race_table_heading(state) == "── 1000 Mile Race · turn 1 · Ann discards down to 10 ──"
    state.phase, state.winners = Phase.OVER, (0,)
    assert _race_table_heading(state) == "── 1000 Mile Race · turn 1 · the race is over ──"


def test_the_race_alt_text_says_what_the_acting_seat_does_as_the_image_does() -> None:
    """The image frames the seat acting with "▶ TO PLAY", "▶ MAY REACT" or "▶ DISCARDING"; its
    alt text read every one "to play: …" (Bob, asked only to react; Ann, cutting her hand to
    ten). It now says "may react: Bob (Blue): …" and "discarding: Ann (Red): …"; the console's
    own table keeps its "▶"."""
    from bot.engine.race.state import Phase
    from cogs.ui import table_alt
    from tests.engine.race_helpers import act as race_act
    from tests.engine.race_helpers import start as race_start

    race = bundle("race")
    cheats = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]
    state = race_start(["100", "flat-tire"], cheats)
    assert "\nto play: Ann (Red): " in table_alt(race.presenter, race.game.public_view(state))
    answering = race_act(state, 0, "play flat-tire")
    public = race.game.public_view(answering)
    alt = table_alt(race.presenter, public)
    assert "\nmay react: Bob (Blue): " in alt and "to play:" not in alt, alt
    assert "\n▶ Bob (Blue): " in race.presenter.console_table(public)
    state.phase = Phase.DISCARD
    alt = table_alt(race.presenter, race.game.public_view(state))
    assert "\ndiscarding: Ann (Red): " in alt and "to play:" not in alt, alt


def test_the_race_table_text_says_an_empty_junkyard_is_empty() -> None:
    """An empty junkyard read "junkyard 0 (top —)", a dash a screen reader names; it now reads
    "junkyard empty", and a junkyard with cards still names its top card."""
    from tests.engine.race_helpers import start as race_start

    race = bundle("race")
    state = race_start(["100", "flat-tire"], ["25"])
    text = race.presenter.console_table(race.game.public_view(state))
    assert "junkyard empty" in text and "(top —)" not in text, text
    state.sides[0].junkyard.append("flat-tire")
    text = race.presenter.console_table(race.game.public_view(state))
    assert "junkyard 1 (top Flat Tire)" in text, text


def test_a_game_is_named_by_its_title_and_an_uninstalled_one_by_its_key() -> None:
    """Saved games and lobbies outlive a plug-in: /mygames and lobby messages name a game by its
    title while it is installed, by the key they stored once it is not (no error)."""
    assert title_of("mille") == bundle("mille").info.title != "mille"
    assert title_of("gone-plugin") == "gone-plugin"


def test_the_race_cycle_menu_says_when_a_cycle_draws_nothing() -> None:
    """With Ann's library and its one reshuffle spent, every cycle in /move's list says
    "nothing left to draw", but the hand's cycle menu still read "Cycle: junk cards (draw one
    per card type junked)"; it says nothing is drawn now, and keeps its words while the
    junkyard can still come back."""
    from bot.games.bundle import SelectSpec
    from tests.engine.race_helpers import empty_library, red_first

    race = bundle("race")

    def cycle_menu(state: Any) -> str:
        moves = [
            MoveChoice(race.game.format_action(a), race.game.describe_action(state, 0, a))
            for a in race.game.legal_actions(state, 0)
        ]
        pickers = race.presenter.hand_pickers(race.game.private_view(state, 0), moves)
        (menu,) = [p for p in pickers if isinstance(p, SelectSpec) and p.prefix == "cycle"]
        assert any("nothing left to draw" in m.label for m in moves) == (
            "spent" in menu.placeholder
        )
        return menu.placeholder

    state = red_first()
    empty_library(state, 0, reshuffled=False)
    assert cycle_menu(state) == "Cycle: junk cards (draw one per card type junked)"
    empty_library(state, 0, reshuffled=True)
    assert cycle_menu(state) == "Cycle: junk cards (your library is spent: nothing is drawn)"
