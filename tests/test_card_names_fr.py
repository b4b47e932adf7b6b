"""French card names (``names: fr``): no English Mille Bornes card name reaches a player.

Mille Bornes, Mille Bornes Solo and Dragon Mille Bornes (for its Mille Bornes cards) may show the
cards by their French names (``Feu rouge``, ``Panne d'essence``…). A table that asked for them
must read them everywhere: captions, move labels, buttons and menus, /move's autocomplete (the
move labels), refusals of typed moves, hints, the console's text (the images' alt text), the
score sheet and every text drawn in the table, hand and result images (the replay GIF is made
of table images). Seeded random playouts collect all of it and look for an English name.

Names are matched as the engine spells them, case and word boundaries included, so "Go on to
1000!" (the extension's button) and "go" in a notation example are not the Go card. Accident is
the same word in French. Car Wars cards keep their English names. A distance card's English
name ("100 miles") is looked for only where a card is named, in move labels and pickers: there
the card is "100 bornes", as its button says ("Drive 100 bornes"; "Drive 100 miles" was missed,
found by a newcomer's review). Nor is the English unit said anywhere: the trip counts in bornes,
as those cards do ("drives 100 bornes (300 so far)", "+75 bornes", "350 / 700 bornes").
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageDraw

from bot.engine.core import GameError
from bot.engine.mille.cards import ENGLISH_NAMES, FRENCH_NAMES, Card
from bot.games import bundle
from bot.games.bundle import ButtonSpec, GroupSpec, MoveChoice, Picker, SelectSpec
from bot.render import common, mille_cards
from cogs.alt_text import described

GAMES = [("mille", 2, ""), ("solo", 1, ""), ("dragon", 2, ""), ("dragon", 4, "on")]
"""Key, seats and the Oil Slick option (Dragon's Oil Slick brings out the Driving Ace)."""
MOVES = 300
DRAW_EVERY = 25  # images are slow: one position in this many is drawn
TYPE_EVERY = 15  # and one in this many has every card typed at it, for the refusals
HINT_EVERY = 30  # the expert hints search: one in this many is asked

ENGLISH_ONLY = [
    ENGLISH_NAMES[card]
    for card in Card
    if not card.is_distance and ENGLISH_NAMES[card] != FRENCH_NAMES[card]
]
# Longest first, so "End of Limit" is reported as itself and not as a "Limit" inside it. Upper
# case too for the names of several words (a label drawn in capitals); "STOP" is the octagon
# painted on the Feu rouge card, as on the printed one, and "GO" a word of its own.
_SPELLINGS = sorted(
    {*ENGLISH_ONLY, *(n.upper() for n in ENGLISH_ONLY if " " in n)}, key=len, reverse=True
)
ENGLISH = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, _SPELLINGS)) + r")(?![\w'])")
ALLOWED = re.compile(r"\b(Go on to 1000|Stop at 700)")
DISTANCE = re.compile(
    r"(?<![\w'])("
    + "|".join(re.escape(ENGLISH_NAMES[card]) for card in Card if card.is_distance)
    + r")(?![\w'])"
)
"""A distance card by its English name ("100 miles"), looked for where cards are named."""
MILES = re.compile(r"\b(miles?|mi|milestones?)\b", re.IGNORECASE)
"""The English unit ("drives 100 miles", "350 mi", "YOUR MILES", the score sheet's
"Milestones"), said nowhere with the French names: the trip counts in bornes, as the distance
cards do."""
"""The extension question's words ("Go on to 1000!", "You reached 700! Go on to 1000?"), not
the cards."""


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn: through ``Canvas.text`` and straight on card faces (``ImageDraw``)."""
    seen: list[str] = []
    canvas_text = common.Canvas.text
    draw_text = ImageDraw.ImageDraw.text

    def on_canvas(self: common.Canvas, xy: Any, text: str, *a: Any, **k: Any) -> None:
        seen.append(text)
        canvas_text(self, xy, text, *a, **k)

    def on_draw(self: ImageDraw.ImageDraw, xy: Any, text: Any, *a: Any, **k: Any) -> None:
        if isinstance(text, str):
            seen.append(text)
        draw_text(self, xy, text, *a, **k)

    monkeypatch.setattr(common.Canvas, "text", on_canvas)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", on_draw)
    # Card faces are cached: draw them again so their names are seen.
    mille_cards.draw_card.cache_clear()
    yield seen
    mille_cards.draw_card.cache_clear()


def _picker_words(picker: Picker) -> list[str]:
    if isinstance(picker, ButtonSpec):
        return [picker.label]
    if isinstance(picker, SelectSpec):
        return [picker.placeholder, *(w for c in picker.choices for w in (c.label, c.description))]
    assert isinstance(picker, GroupSpec)
    return [picker.label, picker.prompt, *(w for o in picker.options for w in _picker_words(o))]


def _typed(key: str, seats: int) -> list[str]:
    """Moves a member might type, one per card and way of playing it (most are refused)."""
    codes = [card.value for card in Card]
    if key == "solo":
        return [f"clear {n} with {c}" for n in (1, 4, 7) for c in codes] + [
            f"sacrifice {c} on {n}" for n in (2, 5) for c in codes
        ]
    texts = [f"{verb} {c}" for verb in ("play", "discard") for c in codes]
    if key == "dragon":  # the Car Wars moves whose refusals speak of Mille Bornes cards
        texts += ["drop tank", "swerve", "spin", "fireproof", "side front", "armor front"]
    return texts + [f"play {c} @{s}" for c in codes for s in range(seats)]


def _said(key: str, seats: int, seed: int, oil: str = "") -> tuple[list[str], list[str]]:
    """What players read over one seeded random playout with French card names: everything,
    and the move labels and pickers among it (where a distance is a card, named as such)."""
    found = bundle(key)
    game, shown = found.game, found.presenter
    rng = random.Random(seed)
    options = {"names": "fr", **({"oil_slick": oil} if oil else {})}
    state = game.new_game([f"Player {s + 1}" for s in range(seats)], seed, options)
    said: list[str] = [shown.start_notice(game.resolve_options(options))]
    named: list[str] = []
    for step in range(MOVES + 1):
        public = game.public_view(state)
        said += [game.caption(state), described(shown.console_table(public))]
        named += [w for p in shown.table_pickers(public) for w in _picker_words(p)]
        if shown.result_text is not None:
            said.append(described(shown.result_text(public)))
        if step % DRAW_EVERY == 0 or game.outcome(state) is not None:
            shown.table_png(public)
            shown.result_png(public)
        if game.outcome(state) is not None or step == MOVES:
            break
        acting = sorted(game.to_act(state))
        for seat in acting:
            private = game.private_view(state, seat)
            legal = game.legal_actions(state, seat)
            moves = [_move(game, state, seat, a) for a in legal]
            named += [m.label for m in moves]
            named += [w for p in shown.hand_pickers(private, moves) for w in _picker_words(p)]
            said.append(described(shown.console_hand(private)))
            if step % DRAW_EVERY == 0 and found.info.private_hands:
                shown.hand_png(private)
            if step % HINT_EVERY == 0 and shown.hint is not None:
                hinted = shown.hint(private)
                if hinted is not None:
                    said.append(hinted[1])
            if step % TYPE_EVERY == 0:
                for text in _typed(key, seats):
                    try:
                        game.apply(state, seat, game.parse_for(state, seat, text))
                    except GameError as refused:
                        said.append(str(refused))
        seat = rng.choice(acting)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    outcome = game.outcome(state)
    if outcome is not None:
        said.append(outcome.reason)
    return [*said, *named], named


def _move(game: Any, state: Any, seat: int, action: Any) -> MoveChoice:
    """A legal move as the table offers it (its label is also /move's autocomplete choice)."""
    return MoveChoice(game.format_action(action), game.describe_action(state, seat, action))


def _english(texts: list[str]) -> list[str]:
    """The lines naming a Mille Bornes card in English (the extension question aside)."""
    return sorted(
        {
            line
            for text in texts
            for line in text.splitlines()
            if ENGLISH.search(ALLOWED.sub("", line))
        }
    )


def test_the_matcher_finds_names_and_spares_ordinary_words() -> None:
    assert ENGLISH.search("stopped (needs Go)")
    assert ENGLISH.search("Out of Gas on Player 2")
    assert ENGLISH.search("SPEED LIMIT")
    assert not ENGLISH.search(ALLOWED.sub("", "You reached 700! Go on to 1000?"))
    assert not ENGLISH.search("'clear 3 with go' or 'sacrifice 100 on 5'")
    assert not ENGLISH.search("Feu vert, Fin de limite, Accident, Machine Gun (Front)")
    assert not ENGLISH.search("STOP")


@pytest.mark.parametrize(("key", "seats", "oil"), GAMES, ids=[f"{k}-{n}" for k, n, _ in GAMES])
def test_french_names_are_used_everywhere(key: str, seats: int, oil: str, drawn: list[str]) -> None:
    playouts = [_said(key, seats, seed, oil) for seed in range(3)]
    texts = [text for said, _ in playouts for text in said]
    named = [text for _, labels in playouts for text in labels]
    # The collection works: French names were said, and drawn on the images' card faces.
    assert any("Feu vert" in text for text in texts)
    assert any(FRENCH_NAMES[Card.GO].startswith(text) for text in drawn if text)
    english = _english([*texts, *drawn])
    assert english == [], "\n".join(english[:40])
    # Distance cards by their French names too, wherever a move or a button names them.
    assert any("bornes" in text for text in named)
    miles = sorted({line for text in named for line in text.splitlines() if DISTANCE.search(line)})
    assert miles == [], "\n".join(miles[:40])
    # And the trip is counted in bornes, as those cards are, wherever it is spoken of.
    unit = sorted(
        {line for text in [*texts, *drawn] for line in text.splitlines() if MILES.search(line)}
    )
    assert unit == [], "\n".join(unit[:40])


@pytest.mark.parametrize("key", ["mille", "dragon"])
@pytest.mark.parametrize(("lang", "label"), [("fr", "Drive 100 bornes"), ("en", "Drive 100 miles")])
def test_a_distance_move_names_the_card_as_its_button_does(key: str, lang: str, label: str) -> None:
    """With French names the distance move read "Drive 100 miles" under a "100 bornes" button
    (Mille Bornes), or on its own button (Dragon); English names keep "miles"."""
    game = bundle(key).game
    state = game.new_game(["Ann", "Bob"], 1, {"names": lang})
    assert game.describe_action(state, 0, game.parse_action("play 100")) == label


@pytest.mark.parametrize("key", ["mille", "solo"])
def test_the_rules_say_which_french_name_each_card_has(key: str) -> None:
    """/rules speaks of Go, Stop, Right of Way…; a table with French names shows Feu vert,
    Feu rouge, Véhicule prioritaire… and nothing said which was which. /rules now pairs each
    English name with its French one."""
    rules = bundle(key).presenter.rules
    assert len(rules) <= 2000, len(rules)  # one Discord message, uncut
    for card in Card:
        if not card.is_distance and card is not Card.ACCIDENT:
            pair = f"{ENGLISH_NAMES[card]} = {FRENCH_NAMES[card]}"
            assert pair in rules, pair
    assert "25 miles = 25 bornes" in rules
