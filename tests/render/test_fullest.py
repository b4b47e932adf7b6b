"""Every image at its most crowded: nothing written over anything else, nothing off the image.

Each game's table, hands and scores are drawn from real states with their busiest parts filled
to what the cards allow (every safety as a coup fourré, every Railyard colour, the longest piles
and stacks, 32-character, wide, CJK, emoji and right-to-left names, four- and five-digit and
negative figures, the longest captions). ``tests.render.drawn.marks_drawn`` records where each
text's ink and each pasted card lands; the tests check that no text's ink crosses another's or
lies under a card pasted after it, and that nothing reaches past the image's edges.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine.dragon import GAME as DRAGON
from bot.engine.dragon.cards import CW_HAND, SPECS
from bot.engine.dragon.views import PendingView
from bot.engine.mille.cards import SAFETIES, Card
from bot.engine.mille.state import HandResult, ScoreLine
from bot.engine.race import GAME as RACE
from bot.engine.race.views import StackCard
from bot.engine.ttr.ending import finish
from bot.games import bundle
from bot.render import dragon, leaderboard, mille, mille_cards, race, solo, stats, ttr
from bot.render.common import READABLE
from tests.engine.ttr_helpers import SOLO as TTR_SOLO
from tests.engine.ttr_helpers import G as TTR
from tests.render.drawn import (
    Mark,
    crossed_texts,
    marks_drawn,
    off_canvas,
    png_size,
    sizes_drawn,
    too_small,
    words_drawn,
)
from tests.render.test_dragon_render import _stampede_caption
from tests.render.test_hostile_names import LONG
from tests.render.test_leaderboard_render import _count

NAMES = [
    LONG[0],
    "W" * 32,  # the widest 32 letters
    "王小明" * 5 + "王",  # 16 wide letters
    "😀" * 16,
    "שלום עליכם חבר Bartholomew Mont",  # right to left, then left to right
    LONG[5],
]
CAPTION = (
    f"{NAMES[0]} played a Right of Way as a coup fourré against the Stop from {NAMES[5]}, "
    "drew a card and plays again; the deck is empty and the hand ends here with everything."
)

# Drawn over what they stamp, on purpose: a dead or departed car's panel.
_STAMPS = ("☠ DEAD", "LEFT", "the arena")


def _problems(marks: list[Mark], png: bytes) -> list[str]:
    size = png_size(png)
    found = [
        f"off the {size} image: {m.what or 'a card'} at {m.box}" for m in off_canvas(marks, size)
    ]
    for a, b in crossed_texts(marks, size):
        if a.what.startswith(_STAMPS) or b.what.startswith(_STAMPS) or "killed by" in b.what:
            continue
        found.append(f"{a.what!r} at {a.box} under {b.what or 'a card'!r} at {b.box}")
    return found


def _check(monkeypatch: pytest.MonkeyPatch, draw: Callable[[], bytes]) -> None:
    marks = marks_drawn(monkeypatch)
    png = draw()
    problems = _problems(marks, png)
    assert not problems, problems


# --- Mille Bornes --------------------------------------------------------------------------


def _mille_view(lang: str) -> Any:
    """Seat 0: every safety as a coup fourré, 23 distance cards (975 mi), long piles and a
    4-digit match total; seat 1: the rest of the distance cards and all but 10 points of 5000."""
    game = bundle("mille").game
    state = game.new_game(NAMES[:2], 1, {"names": lang})
    public = game.public_view(state)
    a, b = public.tableaus
    safeties = (Card.EXTRA_TANK, Card.PUNCTURE_PROOF, Card.DRIVING_ACE, Card.RIGHT_OF_WAY)
    battle = (Card.STOP, Card.GO, Card.ACCIDENT, Card.REPAIRS, Card.OUT_OF_GAS, Card.GASOLINE)
    a = dataclasses.replace(
        a,
        miles=(Card.D25,) * 10 + (Card.D50,) * 10 + (Card.D75,) * 3,
        mileage=975,
        safeties=safeties,
        coups=safeties,
        battle_pile=(*battle, Card.GO),
        speed_pile=(Card.SPEED_LIMIT, Card.END_OF_LIMIT) * 3,
        score=4990,
    )
    b = dataclasses.replace(
        b,
        miles=(Card.D75,) * 7 + (Card.D100,) * 12 + (Card.D200,) * 4,
        mileage=2525,
        two_hundreds=4,
        battle_pile=(*battle, Card.STOP),
        speed_pile=(Card.SPEED_LIMIT,),
        limited=True,
        score=4995,
    )
    return dataclasses.replace(
        public, tableaus=(a, b), caption=CAPTION, hand_number=99, match_target=5000
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_mille_table_at_its_fullest(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    _check(monkeypatch, lambda: mille.table_png(_mille_view(lang)))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_mille_table_has_no_small_text(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Every label on a full Mille Bornes table (in English and with French card names), the
    column titles, a coup fourré's mark, the status chips, the distance counts, the piles'
    counts, the "mi" of the mileage ("bornes" with the French names, as their distance cards
    say) and the last move, is at least the readable size: they were 13-18 px."""
    mille._table_background.cache_clear()  # the column titles drawn once on the cached felt
    drawn = sizes_drawn(monkeypatch)
    mille.render_table(_mille_view(lang))
    labels = set(drawn)
    assert not too_small(labels)
    words = {text for text, _ in labels}
    unit = {"en": "mi", "fr": "bornes"}[lang]
    assert {"BATTLE", "SAFETIES · 4 COUPS FOURRÉS", "CF", "= empty", "PTS", "×10", unit} <= words
    assert {"Deck 88", "Discard 0", "Hand 99", "Match to 5000", "▶ TO PLAY"} <= words


def _mille_hand_end(scores: tuple[int, int]) -> Any:
    """The state after the widest name declines the extension at 700 miles, the match's scores
    ``scores`` before that hand: the caption says the hand is over, why, and who starts the
    next (or, at 5000 points, the match is over)."""
    game = bundle("mille").game
    filler = ["75", "75", "75", "50", "50", "50"]
    deck = ["go", "100", *filler[:4], *filler, *["25"] * 6]
    state = game.new_game([NAMES[1], NAMES[0]], seed=1, deck=deck)
    state = game.apply(state, 0, game.parse_action("play go"))
    state = game.apply(state, 1, game.parse_action("discard 75"))
    state.tableaus[0].miles = [Card.D100] * 6
    state.scores = list(scores)
    for move in ("play 100", "extend no"):
        state = game.apply(state, 0, game.parse_action(move))
    return state


@pytest.mark.parametrize("scores", [(0, 0), (4900, 0)], ids=["next hand", "match over"])
def test_mille_table_writes_a_hand_end_at_the_readable_size(
    monkeypatch: pytest.MonkeyPatch, scores: tuple[int, int]
) -> None:
    """A hand's end said with the widest names (four lines at 20 px), and the match's end
    under its gold banner, are written whole at the readable size, the road growing: they
    shrank to 16 px and 12-19 px in a box of fixed size."""
    state = _mille_hand_end(scores)
    view = bundle("mille").game.public_view(state)
    assert "Hand 1 is over" in state.caption and (view.winners is not None) == (scores[0] > 0)
    drawn = sizes_drawn(monkeypatch)
    _check(monkeypatch, lambda: mille.table_png(view))
    assert not too_small(drawn)
    shown = " ".join(text for text, _ in drawn)
    assert state.caption.split(": ")[-1] in shown  # its end, not cut
    assert mille.render_table(view).size == mille.table_size(view)


def test_mille_hand_at_its_fullest(monkeypatch: pytest.MonkeyPatch) -> None:
    game = bundle("mille").game
    state = game.new_game(NAMES[:2], 1)
    seat = dataclasses.replace(game.private_view(state, 0), public=_mille_view("en"))
    _check(monkeypatch, lambda: mille.hand_png(seat))


def test_mille_hand_has_no_small_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text on a hand image, the status chips, the numbers players type and what each
    card can do (the widest, "COUP FOURRÉ!", "after drawing" and "discard only", included),
    is at least the readable size: the tags were 11-17 px, the numbers 19 and the chips 18."""
    game = bundle("mille").game
    seat = game.private_view(game.new_game(NAMES[:2], 1), 0)
    hand = (Card.RIGHT_OF_WAY, Card.EXTRA_TANK, Card.GO, Card.D25, Card.D200, Card.STOP)
    views = [
        dataclasses.replace(
            seat,
            public=_mille_view("en"),
            hand=hand,
            phase="act",
            coups=(),
            legal=(f"play {Card.GO.value}", f"discard {Card.D25.value}"),
        ),
        dataclasses.replace(
            seat,
            hand=hand,
            phase="draw",
            legal=(f"play {Card.RIGHT_OF_WAY.value}",),
            coups=(f"play {Card.RIGHT_OF_WAY.value}",),
        ),
        # With the French names the chip counts in bornes, as the distance cards do.
        dataclasses.replace(seat, public=_mille_view("fr"), hand=hand),
    ]
    drawn = sizes_drawn(monkeypatch)
    for view in views:
        mille.render_hand(view)
    assert not too_small(drawn)
    words = {text for text, _ in drawn}
    assert {"COUP FOURRÉ!", "after drawing", "discard only", "PLAY", "6", "975 / 700 mi"} <= words
    assert "975 / 700 bornes" in words


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_mille_hand_header_at_its_widest(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Before drawing, stopped by a hazard and limited, at 975 of 1000: the phase line beside
    "975 / 1000 mi", "Stopped · Out of Gas" and "Limited 50" shrank to 17 px, and with the
    French names ("975 / 1000 bornes", "Stopped · Panne d'essence") to 16 px, cut after "on
    t…". It is now written whole at the readable size, on two lines where one does not hold
    it."""
    game = bundle("mille").game
    seat = game.private_view(game.new_game(NAMES[:2], 1), 0)
    public = _mille_view(lang)
    a, b = public.tableaus
    a = dataclasses.replace(
        a, mileage=975, can_go=False, battle_pile=(Card.GO, Card.OUT_OF_GAS), limited=True
    )
    public = dataclasses.replace(public, tableaus=(a, b), target=1000)
    view = dataclasses.replace(
        seat, public=public, phase="draw", legal=(f"play {Card.EXTRA_TANK.value}",), coups=()
    )
    _check(monkeypatch, lambda: mille.hand_png(view))
    drawn = sizes_drawn(monkeypatch)
    mille.render_hand(view)
    assert not too_small(drawn)
    shown = " ".join(text for text, _ in drawn)
    assert "Before drawing you may play a safety on the hazard" in shown


def test_mille_score_sheet_at_its_fullest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line a hand can score (nine, 4600 points) and the match won by a long name."""
    lines = (
        ScoreLine("Milestones", 1000),
        ScoreLine("Safeties ×4", 400),
        ScoreLine("All four safeties", 300),
        ScoreLine("Coups fourrés ×4", 1200),
        ScoreLine("Trip completed", 400),
        ScoreLine("Safe trip (no 200s)", 300),
        ScoreLine("Delayed action", 300),
        ScoreLine("Extension", 200),
        ScoreLine("Shut-out", 500),
    )
    result = HandResult(
        99, (lines, (ScoreLine("Milestones", 0),)), f"{NAMES[0]} completed the trip at 1000 miles."
    )
    view = dataclasses.replace(
        _mille_view("en"),
        results=(result,),
        phase="over",
        winners=(0,),
        end_reason="5000 points reached.",
    )
    _check(monkeypatch, lambda: mille.result_png(view))
    _check(monkeypatch, lambda: mille.table_png(view))


@pytest.mark.parametrize("name", [0, 1], ids=["long name", "widest name"])
def test_mille_score_sheet_has_no_small_text(monkeypatch: pytest.MonkeyPatch, name: int) -> None:
    """Every word on the last hand's score sheet at its fullest, the winner's "★ WINNER" pill,
    the "Match to 5000" chip, why the match ended and the hand's reason, is at least the
    readable size (they were 16, 18, 18 px); the widest name's reason, too wide for one line
    at 20 px (it shrank), is written whole on two, nothing crossed or off the sheet."""
    lines = (ScoreLine("Milestones", 1000),) + (ScoreLine("Coups fourrés ×4", 1200),) * 8
    reason = f"{NAMES[name]} completed the trip at 1000 miles."
    result = HandResult(99, (lines, (ScoreLine("Milestones", 0),)), reason)
    view = dataclasses.replace(
        _mille_view("en"),
        results=(result,),
        phase="over",
        winners=(0,),
        end_reason="5000 points reached.",
    )
    drawn = sizes_drawn(monkeypatch)
    _check(monkeypatch, lambda: mille.result_png(view))
    assert not too_small(drawn)
    words = {text for text, _ in drawn}
    assert {"★ WINNER", "Match to 5000", "5000 points reached.", "Match total"} <= words
    assert reason in {" ".join(t for t, _ in drawn[i : i + k]) for i in range(3) for k in (1, 2)}


# --- Mille Bornes Solo ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("result", [None, "won", "lost"])
def test_solo_at_its_fullest(
    monkeypatch: pytest.MonkeyPatch, result: str | None, lang: str
) -> None:
    """At its fullest, and with the French names every distance card claimed: "YOUR BORNES",
    "3500 bornes" (the total moved left of the longer word)."""
    game = bundle("solo").game
    public = game.public_view(game.new_game([NAMES[1]], 4, {"names": lang}))
    claimed: tuple[Card, ...] = (Card.D25,) * 10 + (Card.D50,) * 10 + (Card.D75,) * 3
    if lang == "fr":
        claimed = (Card.D25,) * 10 + (Card.D50,) * 10 + (Card.D75,) * 10 + (Card.D100,) * 12
        claimed += (Card.D200,) * 4
    view = dataclasses.replace(
        public,
        players=(NAMES[0],),
        highways=tuple(dataclasses.replace(h, depth=7) for h in public.highways),
        miles=claimed,
        mileage=sum(card.miles for card in claimed),
        moves=9999,
        wipes=999,
        cleared=48,
        caption=CAPTION,
        last_move=CAPTION,
        events=(CAPTION,) * 3,
        result=result,
        end_reason=CAPTION if result else "",
    )
    _check(monkeypatch, lambda: solo.table_png(view))
    _check(monkeypatch, lambda: solo.hand_png(view))
    if result:
        _check(monkeypatch, lambda: solo.result_png(view))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_solo_table_has_no_small_text(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Every label on a Solo table (the title bar's chips, the road's titles, refuel and
    wipe chips, the distance counts and "mi", the hand row's titles) is at least the readable
    size: they were 16-18 px. So is a last move too long for two lines, the table growing: it
    shrank to 15 px, then was cut. With the French names the miles in front of you are
    bornes, as the distance cards say ("YOUR BORNES", "bornes")."""
    solo._table_background.cache_clear()
    game = bundle("solo").game
    public = game.public_view(game.new_game([NAMES[1]], 4, {"names": lang}))
    full = dataclasses.replace(
        public,
        miles=(Card.D25,) * 10 + (Card.D50,) * 10 + (Card.D200,) * 2,
        mileage=1050,
        wipes=999,
        refuel_limit=3,
        refuels_used=1,
        last_move=f"{CAPTION} {CAPTION}",  # four lines at 20 px
        events=(CAPTION,),
    )
    labels: set[tuple[str, int]] = set()
    for view in (public, full):
        drawn = sizes_drawn(monkeypatch)
        assert solo.render_table(view).size == solo.table_size(view)
        labels |= set(drawn)
    shown = "".join(text for text, _ in drawn).replace(" ", "")
    assert full.last_move.replace(" ", "") in shown  # whole, not cut
    assert not too_small(labels)
    words = {text for text, _ in labels}
    title, unit = {"en": ("YOUR MILES", "mi"), "fr": ("YOUR BORNES", "bornes")}[lang]
    assert {"CLEARED", title, unit, "×10", "Hands wiped 999", "Refuels left 2/3"} <= words
    assert {"No refuel (classic)", "HAND 7/7", "BSD deck"} <= words


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_solo_hand_has_no_small_text(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Every text on Solo's hand image, its status chips (the miles, the tank, the cleared
    count) included, is at least the readable size: the chips were 18 px. With the French
    names the miles chip counts in bornes, at 3500 as wide as it gets."""
    game = bundle("solo").game
    view = game.public_view(game.new_game([NAMES[1]], 4, {"names": lang}))
    if lang == "fr":
        view = dataclasses.replace(view, mileage=3500)
    drawn = sizes_drawn(monkeypatch)
    solo.render_hand(view)
    assert not too_small(drawn)
    chip = {"en": "0 mi", "fr": "3500 bornes"}[lang]
    assert {chip, "Cleared 0/49"} <= {text for text, _ in drawn}
    _check(monkeypatch, lambda: solo.hand_png(view))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("result", ["won", "lost"])
def test_solo_result_has_no_small_text(
    monkeypatch: pytest.MonkeyPatch, result: str, lang: str
) -> None:
    """Every word on Solo's result card (the preset's chip, "CARDS CLEARED", "MILES",
    "HIGHWAYS LEFT" and the highways' numbers, the run's chips, the note under them) is at
    least the readable size, at its fullest (chips on two rows) with nothing crossed: they
    were 18 px, 9 on a phone. With the French names the score is in bornes ("BORNES",
    "Score: 9975 bornes")."""
    game = bundle("solo").game
    options = {"preset": "classic", "names": lang}
    public = game.public_view(game.new_game([NAMES[1]], 4, options))
    view = dataclasses.replace(
        public,
        mileage=9975,
        moves=9999,
        wipes=999,
        refuel_limit=3,
        refuels_used=3,
        tank_count=48,
        cleared=48,
        require_fuel_left=True,
        result=result,
        end_reason=CAPTION,
    )
    drawn = sizes_drawn(monkeypatch)
    _check(monkeypatch, lambda: solo.result_png(view))
    assert not too_small(drawn)
    words = {text for text, _ in drawn}
    assert {"CARDS CLEARED", "HIGHWAYS LEFT", "7", "Win needs fuel left"} <= words
    unit = {"en": "MILES", "fr": "BORNES"}[lang]
    assert unit in words
    if lang == "fr":
        assert not [text for text in words if "mile" in text.lower()], words


# --- 1000 Mile Race ------------------------------------------------------------------------


def _race_fullest() -> tuple[Any, Any]:
    """Every hazard of a deck on each side, all four trumps, eleven cards in hand and five
    cards waiting on the stack: the game's state and that table's view."""
    state = RACE.new_game(NAMES[:2], 1)
    public = RACE.public_view(state)
    a, b = public.sides
    hazards = ("flat-tire", "out-of-gas", "accident", "red-light", "speed-trap") * 2
    junk = ("spare-tire", "gasoline", "repairs", "green-light", "end-of-limit", "tow-truck") * 2
    a = dataclasses.replace(
        a,
        miles=("25",) * 6 + ("50",) * 8 + ("75",) * 3,
        total=775,
        hazards=hazards,
        trumps=("puncture-proof", "extra-tank", "driving-ace", "right-of-way"),
        junkyard=junk,
        hand_count=11,
    )
    b = dataclasses.replace(
        b,
        miles=("100",) * 8 + ("200",) * 1,
        total=1000,
        hazards=hazards,
        junkyard=junk,
        library_count=0,
        reshuffled=True,
        skipped=True,
    )
    stack = tuple(
        StackCard(i % 2, card, "")
        for i, card in enumerate(("accident", "coup-fourre", "roadblock", "jammer", "pit-crew"))
    )
    view = dataclasses.replace(
        public, sides=(a, b), stack=stack, phase="react", reactor=1, caption=CAPTION
    )
    return state, view


def test_race_at_its_fullest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hazard of a deck on each side, all four trumps, eleven cards in hand and five
    cards waiting on the stack."""
    state, view = _race_fullest()
    _check(monkeypatch, lambda: race.table_png(view))
    hand = dataclasses.replace(
        RACE.private_view(state, 0), public=view, hand=view.sides[0].junkyard[:11]
    )
    _check(monkeypatch, lambda: race.hand_png(hand))
    over = dataclasses.replace(view, phase="over", winners=(1,), end_reason=CAPTION, stack=())
    _check(monkeypatch, lambda: race.table_png(over))


def test_race_table_has_no_small_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every label on a 1000 Mile Race table, at its start and at its fullest (the column
    titles, the chips, the hand size, the counts, the piles' sizes, the top bar with a
    32-letter name), is at least the readable size: they were 15-18 px. So is a long last
    move beside five cards waiting for an answer, the road growing: it shrank to 14 px."""
    race._table_background.cache_clear()  # the column titles drawn once on the cached felt
    labels: set[tuple[str, int]] = set()
    for view in (_race_view(), _race_fullest()[1]):
        drawn = sizes_drawn(monkeypatch)
        assert race.render_table(view).size == race.table_size(view)
        labels |= set(drawn)
    assert not too_small(labels)
    words = {text for text, _ in labels}
    assert {"HAZARDS ON THEM", "JUNKYARD", "Speed Trap: 25/50", "11 cards", "◀"} <= words
    assert [text for text in words if text.endswith("… to play")]  # the name cut, not the line


def test_race_table_cards_are_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every word on the 1000 Mile Race table's cards is at least 20 px, at its start and at
    its fullest: the hazards and trumps in play (each a line of its column now), the
    junkyard's top card and the cards waiting on the road (their type's word and name), the
    miles' figures, the library's "1000". On faces 64 and 70 px wide the names were 11 px
    and the type's word 9, 5 on a phone; the miles' "MILES" (9 px) is left out, the column's
    title says it."""
    for piece in (race.card_face, race.card_tile, race.card_strip, race.card_back):
        piece.cache_clear()
    race._empty_slot.cache_clear()
    faces = _face_sizes(monkeypatch)
    for view in (_race_view(), _race_fullest()[1]):
        race.render_table(view)
    assert not too_small(faces)
    said = {text for text, _ in faces}
    assert {"Flat Tire", "Puncture-Proof", "Roadblock", "HAZARD", "CHEAT", "×2"} <= said


def test_race_sides_keep_every_chip_at_the_readable_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 32-letter name that may react, stopped by four hazards under a Speed Trap, keeps its
    three chips at 20 px (the name is cut sooner): the third was left out."""
    drawn = words_drawn(monkeypatch)
    race.render_table(_race_fullest()[1])
    assert drawn.count("Speed Trap: 25/50") == 2
    assert "▶ MAY REACT" in drawn


def _race_hand(junk: tuple[str, ...]) -> Any:
    """The hand of the seat to play, every side's junkyard holding ``junk``."""
    state = RACE.new_game(NAMES[:2], 1)
    view = RACE.private_view(state, 1)
    sides = tuple(dataclasses.replace(side, junkyard=junk) for side in view.public.sides)
    return dataclasses.replace(view, public=dataclasses.replace(view.public, sides=sides))


_RACE_JUNK = (
    "spare-tire",
    "gasoline",
    "repairs",
    "green-light",
    "end-of-limit",
    "tow-truck",
    "puncture-proof",
    "accident",
    "25",
    "100",
) * 2


def test_race_hand_has_no_small_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text on a 1000 Mile Race hand image, the numbers players type, what a card can
    do now and the junkyard lines included, is at least the readable size (they were 16-17
    px)."""
    drawn = sizes_drawn(monkeypatch)
    race.render_hand(_race_hand(_RACE_JUNK))
    assert not too_small(drawn)
    assert {"1", "PLAY"} <= {text for text, _ in drawn}


def test_race_hand_lists_a_whole_junkyard_of_twenty_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A junkyard of ten kinds of card is listed whole on two lines: on one line it was cut
    after the sixth kind ("…")."""
    drawn = words_drawn(monkeypatch)
    race.render_hand(_race_hand(_RACE_JUNK))
    listed = [text for text in drawn if "×2" in text]  # the junkyards' lists
    assert listed and not [text for text in listed if "…" in text]
    assert "100 miles ×2" in listed[1] and "Puncture-Proof ×2" in listed[0]


# --- Dragon Mille Bornes -------------------------------------------------------------------


def _dragon_view(cars: int, over: bool, lang: str = "en") -> Any:
    """Every car with every mark: sides at 11 and breached, tires and driver one hit from
    gone, jammed, fireproof, flamed, skidded, full hands and piles; some dead, one left
    (``lang``: the Mille Bornes cards' names)."""
    state = DRAGON.new_game(NAMES[:cars], 2, {"names": lang})
    public = DRAGON.public_view(state)
    safeties = (Card.EXTRA_TANK, Card.PUNCTURE_PROOF, Card.DRIVING_ACE, Card.RIGHT_OF_WAY)
    views = []
    for i, car in enumerate(public.cars):
        dead = cars > 2 and i % 3 == 2
        views.append(
            dataclasses.replace(
                car,
                mb_hand_count=7,
                cw_hand_count=10,
                battle=(Card.STOP, Card.GO) * 3 + (Card.ACCIDENT,),
                speed=(Card.SPEED_LIMIT, Card.END_OF_LIMIT) * 3 + (Card.SPEED_LIMIT,),
                safeties=safeties if i == 0 else (),
                coups=safeties if i == 0 else (),
                miles=(Card.D25,) * 4 + (Card.D50,) * 4 + (Card.D100,) * 7,
                mileage=1000 if i == 0 else 400,
                two_hundreds=2,
                moving=False,
                limited=True,
                hits=(11, 12, 12, 11),
                breached=(False, True, True, False),
                tires=8,
                driver=4,
                jammed=True,
                fireproof=True,
                flamed=True,
                skidded=True,
                alive=not dead,
                left=cars > 2 and i == cars - 1,
                kills=cars - 1 if i == 0 else 1,
                killed_by=0 if dead else -1,
            )
        )
    caption = _stampede_caption(NAMES[:cars])
    if over:
        return dataclasses.replace(
            public,
            cars=tuple(views),
            caption=caption,
            phase="over",
            winners=(0,),
            places=tuple(range(cars)),
            end_reason=CAPTION,
        )
    pending = PendingView(
        "stampede", 1, 1, 0, "stampede", -1, 2, 0, True, tuple(range(1, cars)), CAPTION
    )
    return dataclasses.replace(
        public, cars=tuple(views), caption=caption, pending=pending, phase="stampede"
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("cars", [2, 6])
@pytest.mark.parametrize("over", [False, True])
def test_dragon_arena_at_its_fullest(
    monkeypatch: pytest.MonkeyPatch, cars: int, over: bool, lang: str
) -> None:
    _check(monkeypatch, lambda: dragon.table_png(_dragon_view(cars, over, lang)))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("over", [False, True])
def test_dragon_arena_has_no_small_text_at_six_cars(
    monkeypatch: pytest.MonkeyPatch, over: bool, lang: str
) -> None:
    """Every text on a full six-car arena, the panels' labels (pile titles, side letters, a
    car's tags, a coup fourré's mark, the hand sizes) and the last move's title included, is
    at least the readable size: on a phone the image is shown about half size, and these were
    drawn at 9-16 px. The miles bar's title is "BORNES" with the French names, as their
    distance cards count (it said "MILES")."""
    dragon._background.cache_clear()  # the labels drawn once on the cached panel
    dragon._panel_base.cache_clear()
    drawn = sizes_drawn(monkeypatch)
    dragon.render_table(_dragon_view(6, over, lang))
    small = sorted({(text, size) for text, size in drawn if size < dragon._READABLE})
    assert not small
    words = {t for t, _ in drawn}
    assert {"BATTLE", "SPEED", "F", "L", "FIREPROOF", "CF", "CW 10"} <= words
    assert {"en": "MILES", "fr": "BORNES"}[lang] in words
    assert {"en": "BORNES", "fr": "MILES"}[lang] not in words


def test_dragon_hand_at_its_fullest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven Mille Bornes cards and six Car Wars cards, the most a hand holds after the draw."""
    state = DRAGON.new_game(NAMES[:6], 2)
    view = dataclasses.replace(
        DRAGON.private_view(state, 1),
        public=_dragon_view(6, False),
        mb_hand=(Card.D25, Card.D50, Card.D75, Card.D100, Card.D200, Card.EXTRA_TANK, Card.GO),
        cw_hand=tuple(list(SPECS)[:CW_HAND]),
    )
    _check(monkeypatch, lambda: dragon.hand_png(view))


def _face_sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every text drawn straight on a card face from now on (faces are drawn with Pillow's
    own ``ImageDraw``, not ``Canvas.text``), with its font size."""
    drawn: list[tuple[str, int]] = []
    draw = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kw: Any) -> None:
        drawn.append((words, int(kw["font"].size)))
        draw(self, xy, words, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return drawn


def test_dragon_hand_has_no_small_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text on the hand image, over hands holding every card of both decks (the deck
    titles, each card's name, a Car Wars card's "hits"), is at least the readable size: the
    titles were 15 px, the names 16-17 px and "hits" 12 px, unreadable on a phone."""
    dragon.draw_cw_card.cache_clear()  # faces are cached: draw each one here
    mille_cards.draw_card.cache_clear()
    drawn = sizes_drawn(monkeypatch)
    faces = _face_sizes(monkeypatch)
    state = DRAGON.new_game(NAMES[:6], 2)
    mb, cw = list(Card), list(SPECS)
    for start in range(0, max(len(mb), len(cw)), CW_HAND):
        view = dataclasses.replace(
            DRAGON.private_view(state, 1),
            public=_dragon_view(6, False),
            mb_hand=tuple(mb[start : start + CW_HAND]),
            cw_hand=tuple(cw[start : start + CW_HAND]),
        )
        dragon.render_hand(view)
    small = sorted({(text, size) for text, size in drawn + faces if size < dragon._READABLE})
    assert not small
    names = {text for text, _ in faces}
    assert {"Flamethrower", "(Front)", "hits", "Extra Tank"} <= names
    assert {"MILLE BORNES", "CAR WARS"} <= {text for text, _ in drawn}


# --- Ticket to Ride ------------------------------------------------------------------------


def _ttr_state(seats: int) -> Any:
    """Every seat's Railyard holds all eight colours (a Locomotive in each set: sixteen
    Locomotives in all), with the deck's remaining colour cards spread over them."""
    game = TTR_SOLO if seats == 1 else TTR
    state = game.new_game(NAMES[:seats], 3)
    per_set = 10 // max(2, seats)  # each colour's ten cards shared between the seats
    yard_nat = [[per_set] * 8 for _ in range(seats)]
    yard_loco = [[16 // (8 * seats) or (1 if s < 2 else 0)] * 8 for s in range(seats)]
    yard_loco[0][6] = 2 if seats <= 2 else 1
    return dataclasses.replace(
        state,
        yard_nat=yard_nat,
        yard_loco=yard_loco,
        hands=[[0] * 9 for _ in range(seats)],
        track=[[1] * 9 for _ in range(seats)],
        phase="act",
        turn=0,
        caption=CAPTION,
    )


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_ttr_table_at_its_fullest(monkeypatch: pytest.MonkeyPatch, seats: int) -> None:
    game = TTR_SOLO if seats == 1 else TTR
    _check(monkeypatch, lambda: ttr.table_png(game.public_view(_ttr_state(seats))))


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_ttr_table_has_no_small_text(monkeypatch: pytest.MonkeyPatch, seats: int) -> None:
    """Every label on a full Ticket to Ride table (the top bar's chips, the draw area's
    titles and numbers, the solo's clock and hidden tickets, the names, the seats' chips, the
    Railyard and On-the-Track titles, the Railyard chips' counts and colour letters) is at
    least the readable size: they were 14-18 px. So is the last move (it shrank to 16 px)."""
    game = TTR_SOLO if seats == 1 else TTR
    drawn = sizes_drawn(monkeypatch)
    ttr.render_table(game.public_view(dataclasses.replace(_ttr_state(seats), final_round=True)))
    labels = set(drawn)
    assert not too_small(labels)
    words = {text for text, _ in labels}
    assert {"RAILYARD", "ON-THE-TRACK", "DRAW AREA", "TICKETS", "Bu", "L", "5"} <= words
    assert {"STATION CLOCK", "clock", "left"} <= words if seats == 1 else "FINAL TURNS" in words


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_ttr_scoring_at_its_fullest(monkeypatch: pytest.MonkeyPatch, seats: int) -> None:
    """Every ticket kept (sixteen a seat at most: the solo's six hidden ones aside) and every
    train card on the On-the-Track stacks."""
    view = _ttr_scored(seats)
    _check(monkeypatch, lambda: ttr.result_png(view))
    _check(monkeypatch, lambda: ttr.table_png(view))


def _ttr_scored(seats: int) -> Any:
    """A finished game with every ticket kept (sixteen a seat at most: the solo's six hidden
    ones aside) and every train card on the On-the-Track stacks, its view."""
    game = TTR_SOLO if seats == 1 else TTR
    per = min(16, (40 if seats == 1 else 46) // seats)
    track = [[0] * 9 for _ in range(seats)]
    for kind in range(9):
        for card in range(16 if kind == 8 else 10):
            track[card % seats][kind] += 1
    state = dataclasses.replace(
        game.new_game(NAMES[:seats], 3),
        tickets=[list(range(s * per, (s + 1) * per)) for s in range(seats)],
        track=track,
        offered=[[] for _ in range(seats)],
        hidden_tickets=list(range(40, 46)) if seats == 1 else [],
    )
    finish(state, CAPTION)
    return game.public_view(state)


@pytest.mark.parametrize(
    ("seats", "tie"), [(1, False), (2, False), (4, False), (2, True), (4, True)]
)
def test_ttr_scoring_has_no_small_text(
    monkeypatch: pytest.MonkeyPatch, seats: int, tie: bool
) -> None:
    """Every word on the final scoring at its fullest (and with all seats but one tied, the
    headline naming them; every seat level is a draw) is at least the readable size, nothing
    crossed or off the card:
    "ON-THE-TRACK" was 13 px, "BIG CITY BONUSES", "Hidden", "empty" and "nobody" 15, the
    cities, the ticket lines and "tickets +79 · Big Cities +75" 16, the "✓" 18, the stacks'
    chips 10-14 and a tie's headline 12. The card grows: a ticket's chips go under its route
    when they do not fit beside it, the headline and a Big City's winners take more lines."""
    view = _ttr_scored(seats)
    if tie:
        view = dataclasses.replace(view, winners=tuple(range(max(2, seats - 1))))
    drawn = sizes_drawn(monkeypatch)
    _check(monkeypatch, lambda: ttr.result_png(view))
    assert not too_small(drawn)
    words = {text for text, _ in drawn}
    assert {"ON-THE-TRACK", "BIG CITY BONUSES", "Los Angeles", "✓"} <= words
    assert "Hidden tickets" in words if seats == 1 else "✗" in words
    said = [text for text, _ in drawn]
    if tie and seats == 2:
        assert said[1] == "It's a draw!", said[:3]
    elif tie:  # the headline whole, on the lines after "FINAL SCORING"
        end = next(i for i, text in enumerate(said) if text.endswith("tie for the win!"))
        tied = " & ".join(NAMES[: seats - 1])
        assert " ".join(said[1 : end + 1]) == f"{tied} tie for the win!"


@pytest.mark.parametrize("seats", [1, 2])
def test_ttr_end_banner_holds_a_reason_of_two_lines(
    monkeypatch: pytest.MonkeyPatch, seats: int
) -> None:
    """A finished game's reason on two lines stays inside its gold banner: the second line
    was drawn across the banner's bottom edge, half of it on the felt."""
    game = TTR_SOLO if seats == 1 else TTR
    state = game.new_game(NAMES[:seats], 3)
    finish(state, CAPTION)
    marks = marks_drawn(monkeypatch)
    png = ttr.table_png(game.public_view(state))
    _, height = png_size(png)
    title = max(i for i, m in enumerate(marks) if m.what.endswith("★"))
    lines = marks[title + 1 :]  # the reason's lines, drawn after the banner's title
    shown = "".join(m.what for m in lines).replace(" ", "")
    assert len(lines) >= 2 and shown == state.end_reason.replace(" ", "")
    assert max(m.box[3] for m in lines) <= height - ttr._M - 6  # inside the banner's border


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_ttr_end_banner_has_no_small_text(monkeypatch: pytest.MonkeyPatch, seats: int) -> None:
    """A finished game's gold banner, a tie among every seat's long name (four at most) and
    a long reason, is written whole at the readable size, the table growing: the headline
    shrank to 10 px and the reason to 12."""
    game = TTR_SOLO if seats == 1 else TTR
    state = game.new_game(NAMES[:seats], 3)
    finish(state, CAPTION)
    view = game.public_view(state)
    drawn = sizes_drawn(monkeypatch)
    _check(monkeypatch, lambda: ttr.table_png(view))
    assert not too_small(drawn)
    shown = "".join(text for text, _ in drawn).replace(" ", "")
    assert state.end_reason.replace(" ", "") in shown


def test_ttr_hand_at_its_fullest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every train card in one hand, twenty tickets kept and four to choose from."""
    state = dataclasses.replace(
        TTR.new_game(NAMES[:2], 3),
        hands=[[10] * 8 + [16], [0] * 9],
        tickets=[list(range(20)), []],
        offered=[[20, 21, 22, 23], []],
        phase="keep",
        turn=0,
    )
    _check(monkeypatch, lambda: ttr.hand_png(TTR.private_view(state, 0)))


def test_ttr_hand_has_no_small_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text on a Ticket to Ride hand image, over every ticket of the game (codes, Big
    Cities, routes, the requirement chips' letters, "MUST KEEP") and every train card's name,
    is at least the readable size: they were 13-19 px, unreadable on a phone."""
    ttr.ticket_tile.cache_clear()  # a cached tile is pasted without drawing its words again
    drawn = sizes_drawn(monkeypatch)
    state = dataclasses.replace(
        TTR.new_game(NAMES[:2], 3),
        hands=[[10] * 8 + [16], [0] * 9],
        tickets=[list(range(42)), []],
        offered=[[42, 43, 44, 45], []],
        phase="keep",
        turn=0,
    )
    ttr.render_hand(TTR.private_view(state, 0))
    ttr.ticket_tile(0, mark="keep")
    assert not too_small(drawn)
    words = {text for text, _ in drawn}
    assert {"Locomotive", "T46", "MUST KEEP", "Bk", "New York · Chicago"} <= words


# --- boards and cards ----------------------------------------------------------------------


def test_leaderboard_at_its_fullest(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [
        leaderboard.LeaderboardRow(9990 + i, NAMES[i % 6], (-1) ** i * 12345, 99999, i % 2)
        for i in range(leaderboard.TOP_N)
    ]
    caller = leaderboard.LeaderboardRow(123456, NAMES[1], -99999, 123456, 0.999)
    _check(
        monkeypatch,
        lambda: leaderboard.leaderboard_png("Dragon Mille Bornes", rows, caller, "This month"),
    )


@pytest.mark.parametrize("solitaire", [False, True])
def test_stats_card_at_its_fullest(monkeypatch: pytest.MonkeyPatch, solitaire: bool) -> None:
    history = tuple(
        stats.RatingPoint(1_700_000_000 + i * 86_400, (-1) ** i * 3000 + i) for i in range(500)
    )
    card = stats.MemberStats(
        name=NAMES[0],
        scope_label=f"Dragon Mille Bornes · {NAMES[5]}",
        rating=-1234,
        rank=12345,
        ranked_players=99999,
        games=123456,
        wins=99999,
        losses=20000,
        draws=3457,
        history=history,
        opponents=tuple(stats.OpponentLine(NAMES[i % 6], 9999, 9999, 999) for i in range(12)),
        favourite_game="Ticket to Ride: The Card Game (solo)",
        favourite_game_plays=123456,
        best=tuple(
            stats.BestLine("Longest win streak " * 3, "12,345,678 pts", CAPTION) for _ in range(6)
        ),
        solitaire=solitaire,
        winnable=solitaire,
        board_label="Best result" if solitaire else "",
        board_value=-12345 if solitaire else None,
    )
    drawn = sizes_drawn(monkeypatch)
    _check(monkeypatch, lambda: stats.stats_png(card))
    # Wide, CJK, emoji and right-to-left names are cut, not shrunk below the readable size.
    assert not too_small(drawn)


# --- a player leaving, said in full --------------------------------------------------------


def test_ttr_table_after_the_longest_leave(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last player owed a final turn leaves a four-seat game: the caption says where they
    finish, who plays on and who is to play, and the second deck's making (about 400 letters
    with these names): the "LAST MOVE" box holds it whole, at the readable size (it shrank to
    16 px, the box growing five lines at most)."""
    state = dataclasses.replace(
        _ttr_state(4), final_round=True, final_queue=[0], exhausted=True, deck=[]
    )
    after = TTR.leave(state, 0)
    assert "play on" in after.caption and "second train deck" in after.caption
    drawn = sizes_drawn(monkeypatch)
    _check(monkeypatch, lambda: ttr.table_png(TTR.public_view(after)))
    start = next(i for i, (words, _) in enumerate(drawn) if words == "LAST MOVE")
    shown = "".join(words for words, _ in drawn[start + 1 :])
    assert shown.replace(" ", "") == after.caption.replace(" ", "")  # a CJK name may wrap
    assert min(size for _, size in drawn[start + 1 :]) >= READABLE


@pytest.mark.parametrize("cars", [3, 6])
def test_dragon_arena_after_the_longest_leave(monkeypatch: pytest.MonkeyPatch, cars: int) -> None:
    """A car leaves: the caption names every car racing on and who is to play."""
    state = DRAGON.leave(DRAGON.new_game(NAMES[:cars], 2), cars - 1)
    assert "race on" in state.caption
    view = dataclasses.replace(_dragon_view(cars, False), caption=state.caption, pending=None)
    _check(monkeypatch, lambda: dragon.table_png(view))


# --- readable titles -----------------------------------------------------------------------


def _race_view() -> Any:
    return dataclasses.replace(RACE.public_view(RACE.new_game(NAMES[:2], 1)), caption=CAPTION)


_BANNER_TABLES: dict[str, Callable[[], bytes]] = {
    "mille": lambda: mille.table_png(_mille_view("en")),
    "race": lambda: race.table_png(_race_view()),
    "ttr": lambda: ttr.table_png(TTR.public_view(_ttr_state(2))),
}


@pytest.mark.parametrize("game", sorted(_BANNER_TABLES))
def test_last_move_banner_title_is_readable(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """The shared "LAST MOVE" card's title (Mille Bornes, 1000 Mile Race, Ticket to Ride) is
    at least the readable size: it was drawn at 14 px, about 5 px on a phone."""
    drawn = sizes_drawn(monkeypatch)
    _BANNER_TABLES[game]()
    assert [size for text, size in drawn if text == "LAST MOVE"] == [READABLE]


def test_solo_last_move_title_is_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solo's own "LAST MOVE" card's title is at least the readable size (it was 14 px)."""
    game = bundle("solo").game
    view = dataclasses.replace(game.public_view(game.new_game([NAMES[1]], 4)), last_move=CAPTION)
    drawn = sizes_drawn(monkeypatch)
    solo.table_png(view)
    assert [size for text, size in drawn if text == "LAST MOVE"] == [READABLE]


def _slot_words(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[tuple[str, int]]:
    """Every text drawn inside ``module.<name>`` (an empty slot's piece, cached: drawn afresh
    here) from now on, with its font size."""
    drawn: list[tuple[str, int]] = []
    faces = _face_sizes(monkeypatch)
    slot = getattr(module, name).__wrapped__

    def recorded(*args: Any, **kwargs: Any) -> Any:
        start = len(faces)
        piece = slot(*args, **kwargs)
        drawn.extend(faces[start:])
        return piece

    monkeypatch.setattr(module, name, recorded)
    return drawn


@pytest.mark.parametrize(
    ("key", "module", "slot", "words"),
    [
        ("race", race, "_empty_slot", {"25", "50", "75", "100", "200", "none"}),
        ("mille", mille, "_empty_slot", {"Battle", "Speed", "Puncture", "Proof", "empty", "25"}),
        ("solo", solo, "_empty_pile", {"empty"}),
    ],
)
def test_empty_slots_say_what_goes_there_at_the_readable_size(
    monkeypatch: pytest.MonkeyPatch, key: str, module: Any, slot: str, words: set[str]
) -> None:
    """Every word in a new game's empty slots (the miles, the piles, the battle, speed and
    safeties) is 20 px: they were 15 px (1000 Mile Race) and 16 px (Mille Bornes), about 8
    on a phone, then some still shrank to fit: "no hazards" (13 px), "none in play" (15), the
    race's "empty" (18), "Puncture Proof" (18), "Discard" (16) and Solo's "Tank empty" and
    "Discard" (16). A slot says "none" or "empty" where the column's title or the count under
    the pile ("Discard 0") says what goes there; a card's name may come 4 px from the dashes."""
    drawn = _slot_words(monkeypatch, module, slot)
    game = bundle(key).game
    players = NAMES[: 1 if key == "solo" else 2]
    bundle(key).presenter.table_png(game.public_view(game.new_game(players, 1)))
    if key == "race":  # a library spent after its reshuffle, too
        race.table_png(dataclasses.replace(_race_fullest()[1], phase="play", stack=()))
        words |= {"spent"}
    assert words <= {text for text, _ in drawn}
    assert min(size for _, size in drawn) >= READABLE, sorted(set(drawn))


def test_french_empty_safety_slots_are_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The French names in a new game's empty safety slots are 20 px: a word wider than the
    slot is broken at a syllable ("Incre- / vable", "Véhicule / prio- / ritaire" were 17 px)."""
    drawn = _slot_words(monkeypatch, mille, "_empty_slot")
    game = bundle("mille").game
    mille.table_png(game.public_view(game.new_game(NAMES[:2], 1, {"names": "fr"})))
    assert {"Incre-", "vable", "Véhicule", "prio-", "ritaire"} <= {text for text, _ in drawn}
    assert min(size for _, size in drawn) >= READABLE, sorted(set(drawn))


def test_train_card_names_on_the_market_and_the_hand_are_readable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The name on each face-up train card and on each card in hand ("ORANGE", "LOCO") is at
    least 20 px: it was 17 px on the market and 18 px in hand, 9 on a phone."""
    ttr.train_card.cache_clear()
    faces = _face_sizes(monkeypatch)
    state = TTR.new_game(NAMES[:2], 3)  # five cards face up, eight in hand, no Railyard yet
    ttr.render_table(TTR.public_view(state))
    ttr.render_hand(TTR.private_view(state, 0))
    names = [(text, size) for text, size in faces if text.isupper()]
    assert len(names) >= 5 + 2
    assert min(size for _, size in names) >= READABLE, names


def _unbroken(lines: Any) -> str:
    """The name written on ``lines``, a word broken at a syllable ("Répa-", "rations") whole."""
    return " ".join(lines).replace("- ", "")


def _face_names(monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], lang: str) -> Any:
    """Every name line drawn on a card face of ``size`` (each card once), with its font size
    and whether its ink lies inside the face, 2 px from its edges (nothing cut off)."""
    mille_cards.draw_card.cache_clear()
    lines: list[tuple[str, int, bool]] = []
    draw = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kw: Any) -> None:
        left, top, right, bottom = self.textbbox(xy, words, font=kw["font"], anchor=kw["anchor"])
        inside = left >= 2 and top >= 2 and right <= size[0] - 2 and bottom <= size[1] - 2
        lines.append((words, int(kw["font"].size), inside))
        draw(self, xy, words, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    names: list[tuple[str, int, bool]] = []
    for card in Card:
        lines.clear()
        mille_cards.draw_card(card, *size, lang)
        # The name is written last, on one or two lines, after the picture's own words
        # ("STOP", "50"); a distance card may write its unit alone under its number.
        name = card.name_in(lang)
        said = {name, name.removeprefix(f"{card.miles} ")}
        count = next(k for k in (3, 2, 1) if _unbroken(t for t, _, _ in lines[-k:]) in said)
        names += lines[-count:]
    monkeypatch.undo()
    mille_cards.draw_card.cache_clear()
    return names


@pytest.mark.parametrize("size", [mille._CARD, solo._TOP_CARD, solo._PILE_CARD])
def test_card_names_on_the_mille_and_solo_tables_are_readable(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """Every card's name on the Mille Bornes table's cards (100 px wide) and on Solo's highway
    cards and discard pile is at least 20 px, inside the card: those on two lines ("Extra /
    Tank", "Right of / Way", "Speed / Limit") and the distance cards' were 14 px on the table,
    7 on a phone, and 18 px on Solo's highways; on Solo's discard pile, 84 px wide, "Accident"
    and "Gasoline" were 17 px, "Repairs" 19 and "Puncture Proof" 16 (its cards are 100 px).
    The name may run the card's whole width, its band grows to two lines of it, and a distance
    card says "miles" under its number where "100 miles" does not fit one line."""
    names = _face_names(monkeypatch, size, "en")
    assert len(names) >= len(Card)
    assert all(inside for _, _, inside in names), names
    assert min(size for _, size, _ in names) >= READABLE, names


@pytest.mark.parametrize("size", [mille._CARD, solo._PILE_CARD])
def test_french_card_names_on_the_mille_table_are_readable(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """With the French names, every name on the table's 100 px cards (and Solo's discard
    pile's: 12-18 px on its 84 px cards, "Réparations" 12) is at least 20 px,
    inside the card: a word wider than the card at 20 px is broken at a syllable ("Répa- /
    rations" was 14 px, one word of 123 px; "Crevaison", "Increvable", "Panne d'essence",
    "Citerne d'essence", "Limite de vitesse" and "Véhicule prioritaire" 17-19 px)."""
    names = _face_names(monkeypatch, size, "fr")
    assert all(inside for _, _, inside in names), names
    assert min(size for _, size, _ in names) >= READABLE, names
    lines = [text for text, _, _ in names]
    assert lines[lines.index("Répa-") : lines.index("Répa-") + 2] == ["Répa-", "rations"]


@pytest.mark.parametrize(("lang", "top"), [("en", Card.PUNCTURE_PROOF), ("fr", Card.REPAIRS)])
def test_the_top_discards_name_is_readable(
    monkeypatch: pytest.MonkeyPatch, lang: str, top: Card
) -> None:
    """The discard pile's top card says its name at 20 px or more on the Mille Bornes table:
    on its 76 px card (a face writes no name under 80 px) it had none, where the sides' cards
    carry theirs. The fullest table with it keeps every text clear of every other."""
    view = dataclasses.replace(_mille_view(lang), discard=(Card.D25, Card.STOP, top))
    _check(monkeypatch, lambda: mille.table_png(view))
    monkeypatch.undo()
    game = bundle("mille").game
    fresh = game.public_view(game.new_game(NAMES[:2], 1, {"names": lang}))
    mille_cards.draw_card.cache_clear()
    written: list[tuple[str, int]] = []
    draw = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kw: Any) -> None:
        if self.im.size == mille._PILE_CARD:  # on a card face, not on the table
            written.append((words, int(kw["font"].size)))
        draw(self, xy, words, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    # On a new table the discard pile's card is the only face drawn with a name.
    mille.render_table(dataclasses.replace(fresh, discard=(top,)))
    monkeypatch.undo()
    mille_cards.draw_card.cache_clear()
    said = [(words, size) for words, size in written if words not in {"1000", "STOP", "50"}]
    assert _unbroken(words for words, _ in said) == top.name_in(lang), written
    assert min(size for _, size in said) >= READABLE, said


def _pictures(monkeypatch: pytest.MonkeyPatch, lang: str) -> dict[Card, float]:
    """The size of each card's picture on the table's 100×140 faces (the box ``draw_symbol``
    fills), the distance cards' numbers left out."""
    mille_cards.draw_card.cache_clear()
    sizes: dict[Card, float] = {}
    symbol = mille_cards.draw_symbol

    def drawn(d: ImageDraw.ImageDraw, card: Card, cx: float, cy: float, s: float) -> None:
        sizes[card] = s
        symbol(d, card, cx, cy, s)

    monkeypatch.setattr(mille_cards, "draw_symbol", drawn)
    for card in Card:
        mille_cards.draw_card(card, *mille._CARD, lang)
    monkeypatch.undo()
    mille_cards.draw_card.cache_clear()
    return sizes


def test_three_line_french_names_leave_the_picture_room(monkeypatch: pytest.MonkeyPatch) -> None:
    """A French name on three lines ("Panne / d'es- / sence", "Limite / de / vitesse",
    "Citerne / d'es- / sence", "Véhicule / prio- / ritaire") leaves its picture at least 85 %
    of a two-line name's ("Répa- / rations"): it was 69 % (39 px against 56), the band's lines
    1.08 of the font apart with 8 px round them. Its lines stay clear of one another."""
    pictures = _pictures(monkeypatch, "fr")
    two_lines = pictures[Card.REPAIRS]
    three = [card for card in pictures if len(mille_cards._face_name(card, 100, 140, "fr")[1]) > 2]
    assert len(three) == 4, three
    assert min(pictures[card] for card in three) >= 0.85 * two_lines, pictures
    for card in three:
        # Each line's ink where the face sets it: no pixel inked by two lines.
        fnt, lines, _ = mille_cards._face_name(card, *mille._CARD, "fr")
        step = mille_cards._line_height(fnt, len(lines))
        inks = []
        for i, line in enumerate(lines):
            ink = Image.new("L", (200, 200))
            ImageDraw.Draw(ink).text((100, 60 + i * step), line, font=fnt, fill=255, anchor="mm")
            inks.append(ink.point(lambda v: 255 if v > 64 else 0))
        for above, below in itertools.pairwise(inks):
            assert ImageChops.multiply(above, below).getbbox() is None, (card, lines)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_coup_fourres_sash_leaves_the_shield_to_be_seen(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """The gold sash of a safety played as a coup fourré leaves at least three quarters of the
    safety's shield showing, its "CF" at 20 px or more: laid above the names, it hid 34-39 %
    of the shields in English and 46-60 % in French, the pictures small under their names of
    three lines (now 4-6 % and 5-14 %, the sash across the card's top)."""
    drawn = sizes_drawn(monkeypatch)
    table = mille.render_table(_mille_view(lang))  # seat 0: every safety as a coup fourré
    assert drawn.count(("CF", READABLE)) == 4, drawn
    w, h = mille._CARD
    for i, safety in enumerate(SAFETIES):
        x = mille._MARGIN + mille._SAFETY_X + i * mille._SAFETY_STEP
        y = mille._SIDE_Y[0] + mille._ROW_DY
        shown = _count(table, mille_cards.SHIELD_FILL, (x, y, x + w, y + h))
        face = mille_cards.draw_card(safety, w, h, lang)
        whole = _count(face, mille_cards.SHIELD_FILL, (0, 0, w, h))
        assert shown >= 0.75 * whole, (safety, shown, whole)


@pytest.mark.parametrize("size", [mille._PILE_CARD, solo._PILE_CARD])
def test_card_back_1000_is_readable(monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """The "1000" on the card back of Mille Bornes' deck (76 px wide) and Solo's tank is
    20 px, its ink inside the red plate's box: it was 15 px and 16 px."""
    mille_cards.card_back.cache_clear()
    drawn: list[tuple[str, int, tuple[float, float, float, float]]] = []
    draw = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kw: Any) -> None:
        box = self.textbbox(xy, words, font=kw["font"], anchor=kw["anchor"])
        drawn.append((words, int(kw["font"].size), box))
        draw(self, xy, words, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    mille_cards.card_back(*size)
    monkeypatch.undo()
    mille_cards.card_back.cache_clear()
    ((words, font_size, (left, top, right, bottom)),) = drawn
    w, h = size
    assert words == "1000" and font_size >= READABLE, drawn
    # the plate: 80 % of the card wide, 32 % high, in its middle
    assert w * 0.1 < left and right < w * 0.9 and h * 0.34 < top and bottom < h * 0.66


# --- a side's header, crowded --------------------------------------------------------------

_COMPUTER = "Computer (normal)"


def _busy_mille_sides(lang: str) -> Any:
    """A long-named member and a computer to play, both stopped by Out of Gas under a speed
    limit, 7 cards each, 4995 points: the chips leave each name 200-odd px."""
    game = bundle("mille").game
    view = game.public_view(game.new_game([LONG[0], _COMPUTER], 1, {"names": lang}))
    busy = {
        "battle_pile": (Card.STOP, Card.GO, Card.OUT_OF_GAS),
        "battle_counts_as": Card.OUT_OF_GAS,
        "can_go": False,
        "limited": True,
        "speed_pile": (Card.SPEED_LIMIT,),
        "score": 4995,
        "hand_count": 7,
    }
    sides = tuple(dataclasses.replace(t, **busy) for t in view.tableaus)
    return dataclasses.replace(view, tableaus=sides, turn=1)


def _busy_race_sides() -> Any:
    """The fullest 1000 Mile Race table, the member long-named and the computer reacting:
    three chips on each side at the readable size."""
    view = _race_fullest()[1]
    a, b = view.sides
    sides = (dataclasses.replace(a, name=LONG[0]), dataclasses.replace(b, name=_COMPUTER))
    return dataclasses.replace(view, sides=sides, players=(LONG[0], _COMPUTER))


@pytest.mark.parametrize(
    ("key", "chips"),
    [
        ("mille-en", ("Stopped · Out of Gas", "▶ TO PLAY")),
        ("mille-fr", ("Stopped · Panne d'essence", "▶ TO PLAY")),
        ("race", ("Stopped · 8 hazards", "▶ MAY REACT")),
    ],
)
def test_a_crowded_side_header_keeps_the_computers_level(
    monkeypatch: pytest.MonkeyPatch, key: str, chips: tuple[str, str]
) -> None:
    """A side's header beside long chips: the name was drawn at 30 px (28 in the race) and
    cut, the computer's to "Computer" (its level gone, though the last move and the captions
    name it), the member's to "Maximilian…". The name now shrinks to 20 px, then takes two
    lines ("Computer" over "(normal)"), and only then is cut: the computer's header says its
    level, the member's most of the name, every line at 20 px or more, left of the chips."""
    sizes = sizes_drawn(monkeypatch)
    marks = marks_drawn(monkeypatch)
    if key == "race":
        size = race.render_table(_busy_race_sides()).size
    else:
        size = mille.render_table(_busy_mille_sides(key.removeprefix("mille-"))).size
    texts = [m for m in marks if m.is_text and m.on == size]
    for chip, whose in zip(chips, (LONG[0], _COMPUTER), strict=True):
        first = next(m for m in texts if m.what == chip)
        mid = (first.box[1] + first.box[3]) / 2
        header = [
            m
            for m in texts
            if abs((m.box[1] + m.box[3]) / 2 - mid) < 26 and m.box[2] < first.box[0]
        ]
        shown = " ".join(m.what for m in header)
        assert all(dict(sizes)[m.what] >= READABLE for m in header), header
        if whose == _COMPUTER:
            assert shown == _COMPUTER, header
        else:
            assert whose.startswith(shown.removesuffix("…")) and len(shown) >= 20, header
