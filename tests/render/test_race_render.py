"""The 1000 Mile Race renderers: fixed sizes, PNG budget, purity, every phase of real games.

Tables come from seeded playouts that prefer plays (so hazards, trumps, answers, hand-limit
discards and wins show up), searched until the wanted situation appears.
"""

from __future__ import annotations

import ast
import io
import itertools
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from bot.engine.race.cards import CODES, TYPE_OF
from bot.engine.race.state import Phase, RaceState
from bot.render import race
from bot.render.common import RGB, card_radius
from bot.render.race import (
    HAND_IMAGE_SIZE,
    TABLE_SIZE,
    TYPE_COLOURS,
    card_face,
    hand_png,
    junkyard_summary,
    render_hand,
    render_table,
    table_png,
)
from tests.engine.race_helpers import G, act, hazard_on, red_first, start
from tests.engine.test_race_playouts import _prefer_plays
from tests.render.colour_vision import ciede2000, closest_seen, worst_contrast
from tests.render.drawn import words_drawn

RACE_RENDERER = Path(__file__).resolve().parents[2] / "bot" / "render" / "race.py"
BLUE_CHEATS = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]


def _states(seeds: range) -> list[RaceState]:
    """Every state of purposeful playouts, the final one included."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state: RaceState = G.new_game(["Ann", "Bob"], seed=seed)
        while G.outcome(state) is None:
            found.append(state)
            seat = min(G.to_act(state))
            state = G.apply(
                state, seat, _prefer_plays(state, seat, G.legal_actions(state, seat), rng)
            )
        found.append(state)
    return found


def _first(wanted: Callable[[RaceState], bool]) -> RaceState:
    for state in _states(range(40)):
        if wanted(state):
            return state
    raise AssertionError("no playout reached the wanted table")


@pytest.fixture(scope="module")
def playout_states() -> list[RaceState]:
    return _states(range(3))


def _png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data))


def test_fresh_table_and_hands_have_fixed_sizes() -> None:
    """A fresh game's table and both hands have their fixed sizes."""
    state = G.new_game(["Ann", "Bob"], seed=3)
    assert render_table(G.public_view(state)).size == TABLE_SIZE
    for seat in (0, 1):
        assert render_hand(G.private_view(state, seat)).size == HAND_IMAGE_SIZE


@pytest.mark.parametrize("phase", [Phase.PLAY, Phase.REACT, Phase.DISCARD, Phase.OVER])
def test_every_phase_renders_within_budget(phase: Phase) -> None:
    """A table and the acting seat's hand in each phase: fixed sizes, PNG under 250 KB."""
    state = _first(lambda s: s.phase is phase and len(s.sides[0].hazards) + len(s.stack) > 0)
    table = table_png(G.public_view(state))
    assert len(table) < 250_000 and _png(table).size == TABLE_SIZE
    seat = min(G.to_act(state)) if G.to_act(state) else 0
    hand = hand_png(G.private_view(state, seat))
    assert len(hand) < 250_000 and _png(hand).size == HAND_IMAGE_SIZE


def test_states_along_whole_games_all_render(playout_states: list[RaceState]) -> None:
    """Every tenth state of three whole games renders for the table and both hands."""
    for state in playout_states[::10]:
        assert render_table(G.public_view(state)).size == TABLE_SIZE
        for seat in (0, 1):
            assert render_hand(G.private_view(state, seat)).size == HAND_IMAGE_SIZE


def test_a_three_deep_chain_shows_on_the_road() -> None:
    """The cards waiting for an answer change the table image."""
    red = ["100", "flat-tire", "jammer"]
    state = act(start(red, BLUE_CHEATS, ["75"]), 0, "play flat-tire")
    state = act(state, 1, "react coup-fourre")
    deeper = act(state, 0, "react jammer")
    assert len(deeper.stack) == 3
    assert table_png(G.public_view(deeper)) != table_png(G.public_view(state))


def test_a_draw_renders() -> None:
    """A game ending in a draw renders its result banner."""
    state = start(["100"], ["25"])
    for seat in (0, 1):
        side = state.sides[seat]
        side.junkyard.extend(side.library)
        side.library = []
        side.reshuffled = True
    state = act(act(state, 0, "end"), 1, "end")
    view = G.public_view(state)
    assert view.winners == ()
    assert _png(table_png(view)).size == TABLE_SIZE


def test_same_public_view_gives_identical_png() -> None:
    """Two states differing only in hidden cards render byte-identical tables."""
    state = _first(lambda s: s.turn_number > 8 and s.phase is Phase.PLAY)
    other = G.resample_hidden(state, None, random.Random(4))
    assert G.to_dict(other) != G.to_dict(state)
    assert table_png(G.public_view(other)) == table_png(G.public_view(state))


def test_png_round_trips_losslessly() -> None:
    """Decoding the PNG gives back exactly the rendered pixels."""
    view = G.public_view(_first(lambda s: s.turn_number > 6))
    image = render_table(view)
    assert _png(table_png(view)).tobytes() == image.tobytes()


def test_every_card_has_a_face() -> None:
    """Each card code draws a face, different from every other card's."""
    faces = {card_face(code, 64, 90).tobytes() for code in CODES}
    assert len(faces) == len(CODES)


def test_renderer_imports_views_and_the_kit_only() -> None:
    """bot/render/race.py never imports the race state or rules modules, discord or a store."""
    tree = ast.parse(RACE_RENDERER.read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not {"bot.engine.race.state", "bot.engine.race.rules", "bot.engine.race.game"} & modules
    assert not any(m and m.split(".")[0] in ("discord", "sqlite3", "aiosqlite") for m in modules)


def test_the_hand_lists_both_junkyards_cheats_first() -> None:
    """The junkyards are face up for everyone to look through; the table shows only their top
    cards, so the hand image lists them: spent cheats and trumps first, miles by value."""
    state = start(["25"], ["50"])  # a fresh game of our own: set its junkyard by hand
    state.sides[0].junkyard = ["100", "25", "jammer", "25", "extra-tank", "flat-tire"]
    side = G.public_view(state).sides[0]
    assert junkyard_summary(side) == "Jammer, Extra Tank, Flat Tire, 25 miles ×2, 100 miles"
    assert junkyard_summary(G.public_view(state).sides[1]) == "empty"


def test_a_reaction_is_called_a_reaction_in_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheats played out of turn are reactions, as the `react` move, the "No reaction"
    button and the server's reaction window call them; the hand said "Answer Ann's 100 miles?"
    and tagged the card "ANSWER!". The junkyards are "Junkyard of Bob", never "Bob's junkyard"
    (a seat such as "Computer (normal)" takes no "'s")."""
    drawn = words_drawn(monkeypatch)
    state = act(red_first(blue=BLUE_CHEATS), 0, "play 100")
    assert G.describe_action(state, 1, ("react", "roadblock")) == (
        "React with Roadblock: cancel the 100 miles"
    )
    render_hand(G.private_view(state, 1))
    assert "React to the 100 miles Ann played? (or pass)" in drawn
    assert "REACT!" in drawn and "ANSWER!" not in drawn
    assert any(t.startswith("Junkyard of Bob, 0 cards") for t in drawn), drawn
    drawn.clear()
    render_table(G.public_view(state))
    assert "▶ MAY REACT" in drawn


def test_a_long_name_is_cut_in_the_junkyard_line_not_its_card_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hand image's junkyard line keeps its card count whole: with a long seat name it read
    "Junkyard of Computer (normal), 2 car…", and 31 letters of name left no count at all."""
    drawn = words_drawn(monkeypatch)
    state = start(["25"], ["50"])
    state.players = ("Maximilian Wolfgang von Habsburg", "Computer (normal)")
    state.sides[1].junkyard = ["gasoline", "25"]
    render_hand(G.private_view(state, 0))
    heads = [t for t in drawn if t.startswith("Junkyard of")]
    assert heads[0].startswith("Junkyard of Maximilian") and heads[0].endswith("…, 0 cards: ")
    assert heads[1] in (
        "Junkyard of Computer (normal), 2 cards: ",
        "Junkyard of Computer, 2 cards: ",
    )


@pytest.mark.parametrize("kind", [k for k in TYPE_COLOURS if k != "miles"])
def test_a_cards_name_reads_on_its_body_to_a_colour_blind_player(kind: str) -> None:
    """A card's name and symbol stand out from its dark body by 4.5:1, to normal sight and
    under each colour blindness: a hazard's, in the band's red, was 2.9:1 to a protanope, who
    sees red darker, and its name is how they tell "Out of Gas" from "Gasoline"."""
    assert worst_contrast(race._name_ink(kind), race._CARD_BODY) >= 4.5


def _band_colours(code: str, w: int, h: int) -> tuple[RGB, RGB]:
    """The band's colour and its word's ink, read from a drawn face (a hand's card, or a
    table's ``card_tile``): the band is the colour most of its pixels have, the ink the one
    farthest from it."""
    tile = (w, h) == race._TILE
    face = (race.card_tile(code) if tile else card_face(code, w, h)).convert("RGB")
    band = 28 if tile else max(12, round(h * 0.17))
    inset = card_radius(w)
    pixels: list[RGB] = [
        face.getpixel((x, y))  # type: ignore[misc]
        for x in range(inset, w - inset)
        for y in range(2, band - 2)
    ]
    ground = Counter(pixels).most_common(1)[0][0]
    ink = max(pixels, key=lambda p: sum((a - b) ** 2 for a, b in zip(p, ground, strict=True)))
    return ground, ink


@pytest.mark.parametrize("size", [race._TILE, race._HAND_CARD])
@pytest.mark.parametrize("kind", list(TYPE_COLOURS))
def test_a_cards_type_band_reads_to_a_colour_blind_player(kind: str, size: tuple[int, int]) -> None:
    """The word on a card's type band ("HAZARD", "REMOVAL") stands out from the band by 4.5:1
    to normal sight and to protanopes, deuteranopes and tritanopes alike. Found in review: a
    hazard's dark word on its bright red band was 3.3:1 to a protanope, who sees red darker."""
    code = next(c for c in CODES if TYPE_OF[c] == kind)
    ground, ink = _band_colours(code, *size)
    assert ground == TYPE_COLOURS[kind]
    assert worst_contrast(ink, ground) >= 4.5, (code, ground, ink, worst_contrast(ink, ground))


def test_the_card_types_stay_apart_to_a_colour_blind_player() -> None:
    """The five types' colours (band and frame) stay at least 10 apart (CIEDE2000) to normal
    sight and under each colour blindness: the type band's word says the type, and its colour
    still tells a hazard from a removal at a glance (they were 8.6 apart to a protanope, the
    hazard's bright red beside the removal's green; it is 19 now, a darker red)."""
    colours = list(TYPE_COLOURS.values())
    normal = min(ciede2000(a, b) for a, b in itertools.combinations(colours, 2))
    assert min(normal, closest_seen(colours)) >= 10


@pytest.mark.parametrize("seat", [0, 1])
def test_a_card_backs_1000_reads_to_a_colour_blind_player(seat: int) -> None:
    """The cream "1000" on a library's card back stands out from what is under it by 4.5:1
    to normal sight and under each colour blindness: on the red deck it was 4.25:1 to a
    protanope, on the blue 4.45:1; it sits on a plate a shade darker than the deck now."""
    w, h = race._PILE
    back = race.card_back(seat, w, h).convert("RGB")
    m = round(w * 0.08)
    pixels: list[RGB] = [
        back.getpixel((x, y))  # type: ignore[misc]
        for x in range(m + 2, w - m - 2)
        for y in range(h // 2 - 6, h // 2 + 6)
    ]
    ground = Counter(pixels).most_common(1)[0][0]
    ink = max(pixels, key=lambda p: sum((a - b) ** 2 for a, b in zip(p, ground, strict=True)))
    assert worst_contrast(ink, ground) >= 4.5, (ground, ink, worst_contrast(ink, ground))


def test_the_stopped_chip_counts_the_hazard_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Accidents and a Red Light on Ann: the hazards column shows "Accident ×2" and "Red
    Light", the alt text three hazards; the chip beside her name read "Stopped · 2 hazards"
    (it counted the kinds). One kind alone, twice, still names it."""
    drawn = words_drawn(monkeypatch)
    state = start(["25"], ["50", "25", "75", "100", "200", "gasoline", "repairs"])
    hazard_on(state, 0, "accident", "red-light", "accident")
    render_table(G.public_view(state))
    assert "Stopped · 3 hazards" in drawn and "Stopped · 2 hazards" not in drawn, drawn
    drawn.clear()
    state = start(["25"], ["50", "25", "75", "100", "200", "gasoline", "repairs"])
    hazard_on(state, 0, "accident", "accident")
    render_table(G.public_view(state))
    assert "Stopped · Accident" in drawn, drawn
