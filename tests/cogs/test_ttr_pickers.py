"""Ticket to Ride's hand pickers for a huge hand (more than 25 cards, too many for one menu of
cards): a button per colour asks which set, in two steps when a colour has more sets than a
message holds. Every legal Railyard play must be reachable, and everything must fit the hand
message, so the hand never says "type /move" for the others."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

import discord
import pytest

from bot.engine.ttr.cards import CARD_CODES, COLOURS, LOCOS, PER_COLOUR
from bot.engine.ttr.state import TtrState
from bot.games import MoveChoice, bundle
from bot.games.bundle import ButtonSpec, GroupSpec, Picker, SelectSpec
from bot.store.base import StoredGame
from cogs.layout import DEPTH, PER_ROW, ROWS, _rows, components_of, fit
from cogs.pickers import add_pickers
from tests.engine.ttr_helpers import G, lay

TTR = bundle("ttr")

# 28 cards: ten Reds and ten Locomotives with eight others; Bob's Blue set must be beaten.
LATE_HAND = [*["red"] * 10, *["loco"] * 10, *["blue"] * 3, "green", "white", "black", "yellow"]
LATE_HAND.append("purple")
# The most sets one colour can have: ten Reds and all sixteen Locomotives (169 Red sets).
RED_AND_EVERY_LOCO = [*["red"] * 10, *["loco"] * 16, "white", "white"]


def _state(hand: list[str], yards: dict[str, tuple[int, int]] | None = None) -> TtrState:
    return lay(2, hands=[hand, ["orange"] * 7], yards=[{}, yards or {}])


def _pickers(state: TtrState) -> list[Picker]:
    moves = [
        MoveChoice(G.format_action(a), G.describe_action(state, 0, a))
        for a in G.legal_actions(state, 0)
    ]
    return fit(TTR.presenter.hand_pickers(G.private_view(state, 0), moves))


def _leaves(group: GroupSpec, depth: int = 1) -> Iterator[ButtonSpec]:
    """The moves behind a target picker, checking each level fits one message of buttons."""
    assert depth <= DEPTH, "nested deeper than a custom id can say"
    assert 0 < len(group.options) <= ROWS * PER_ROW, group.label
    for option in group.options:
        if isinstance(option, GroupSpec):
            yield from _leaves(option, depth + 1)
        else:
            yield option


def _reachable(pickers: list[Picker]) -> set[str]:
    """Every notation a member can send with these pickers, composed as the front end composes
    them (a button's notation, a select's chosen values), in the engine's own spelling."""
    sent: set[str] = set()
    for picker in pickers:
        if isinstance(picker, ButtonSpec):
            sent.add(picker.notation)
        elif isinstance(picker, GroupSpec):
            sent.update(leaf.notation for leaf in _leaves(picker))
        else:
            assert isinstance(picker, SelectSpec)
            values = [choice.value for choice in picker.choices]
            for count in range(picker.min_values, picker.max_values + 1):
                sent.update(picker.compose(chosen) for chosen in combinations(values, count))
    return {G.format_action(G.parse_action(notation)) for notation in sent}


def _shown(pickers: list[Picker]) -> int:
    """How many components the hand message holds, laid out as the bot lays it out."""
    stored = StoredGame(
        id=1,
        channel_id=1,
        guild_id=1,
        game_key="ttr",
        seats=(),
        options={},
        state={},
        version=0,
        status="active",
        message_id=None,
        created_at=0.0,
        updated_at=0.0,
    )
    view = discord.ui.View(timeout=None)
    return add_pickers(view, pickers, stored, "h")


def _check(state: TtrState) -> list[Picker]:
    pickers = _pickers(state)
    legal = {G.format_action(a) for a in G.legal_actions(state, 0)}
    yard = {n for n in legal if n.startswith("yard ")}
    reachable = _reachable(pickers)
    assert reachable <= legal, sorted(reachable - legal)[:5]
    missing = yard - reachable
    assert not missing, f"{len(missing)} of {len(yard)} Railyard plays unreachable: {missing}"
    # It all fits, as it is: no folding into "Choose a move", every component shown (so the
    # hand message never adds "Not every move fits here: type /move").
    assert _rows(pickers, 0) <= ROWS
    assert components_of(pickers) <= ROWS * PER_ROW
    assert _shown(pickers) == components_of(pickers)
    return pickers


def test_a_late_game_hand_reaches_every_railyard_play_in_one_message() -> None:
    """28 cards in seven colours with ten Locomotives: 200-odd legal plays, every one of them a
    button or menu choice away, with the draws beside them."""
    state = _state(LATE_HAND, {"blue": (2, 0)})
    pickers = _check(state)
    assert len(G.legal_actions(state, 0)) > 200
    groups = [p for p in pickers if isinstance(p, GroupSpec)]
    assert [g.label for g in groups] == [
        "Play Red",
        "Play Yellow",
        "Play Green",
        "Play Blue",
        "Play Purple",
        "Play Black",
        "Play White",
    ]
    # Blue must beat Bob's pair (and robs him); each set says what it plays.
    (blue,) = [g for g in groups if g.label == "Play Blue"]
    assert "It robs Bob." in blue.prompt
    for group in groups:
        for leaf in _leaves(group):
            assert G.format_action(G.parse_action(f"yard {leaf.label}")) == leaf.notation
    assert "3 Red + 1 Locomotive" in {leaf.label for leaf in _leaves(groups[0])}


def test_a_colour_with_more_sets_than_a_message_asks_how_many_then_locomotives() -> None:
    """Ten Reds and all sixteen Locomotives make 169 Red sets: "Play Red" asks how many Red
    (ten buttons), then how many Locomotives join them (at most seventeen)."""
    pickers = _check(_state(RED_AND_EVERY_LOCO))
    red = next(p for p in pickers if isinstance(p, GroupSpec) and p.label == "Play Red")
    assert [o.label for o in red.options] == [f"{n} Red…" for n in range(1, 11)]
    assert red.prompt == "How many Red go to your Railyard?"
    one = red.options[0]
    assert isinstance(one, GroupSpec) and one.prompt == "How many Locomotives join it?"
    assert [o.label for o in one.options][:2] == ["1 Red + 1 Locomotive", "1 Red + 2 Locomotives"]
    assert len(list(_leaves(red))) == 10 * 17 - 1


def test_a_colour_with_one_legal_set_plays_it_from_its_button() -> None:
    """A colour that can only beat a rival's set one way needs no second step."""
    hand = [*["red"] * 10, *["loco"] * 10, *["blue"] * 3, *["green"] * 3, "white", "black"]
    pickers = _check(_state(hand, {"green": (3, 9)}))
    assert any(
        isinstance(p, ButtonSpec) and p.label == "Play 3 Green + 10 Locomotives" for p in pickers
    )


@pytest.mark.parametrize("seed", range(12))
def test_random_huge_hands_reach_every_railyard_play(seed: int) -> None:
    """Hands of 26 to 60 cards in any mix, against rival Railyards of any sizes."""
    rng = random.Random(seed)
    pool = [code for code in COLOURS for _ in range(PER_COLOUR)] + ["loco"] * LOCOS
    hand = rng.sample(pool, rng.randint(26, 60))
    yards = {
        colour: (rng.randint(1, 4), rng.randint(0, 3))
        for colour in rng.sample(COLOURS, rng.randint(0, 5))
    }
    _check(_state(hand, yards))


def _sets(pickers: list[Picker]) -> Iterator[tuple[ButtonSpec, str]]:
    """Every Railyard set button behind the colour pickers, with the prompt it was offered
    under (an empty prompt for a colour's one-set button)."""
    for picker in pickers:
        if isinstance(picker, ButtonSpec) and picker.label.startswith("Play "):
            yield ButtonSpec(picker.label.removeprefix("Play "), picker.notation), ""
        elif isinstance(picker, GroupSpec):
            yield from ((leaf, picker.prompt) for leaf in _leaves(picker))


def test_every_set_button_reads_as_the_engine_describes_its_move() -> None:
    """A set's button and the engine's description of the move it plays word the set alike
    ("3 Red + 1 Locomotive", never "3 red + 1 Locomotive"), and the colour's prompt names whom
    it robs as the description does: both come from the engine's set_words and robbed_by."""
    hand = [*["red"] * 10, *["loco"] * 10, *["blue"] * 4, *["green"] * 3, "white", "black"]
    state = lay(
        3,
        hands=[hand, ["orange"] * 7, ["orange"] * 7],
        yards=[{}, {"blue": (2, 0), "green": (2, 0)}, {"blue": (1, 1)}],
    )
    moves = [
        MoveChoice(G.format_action(a), G.describe_action(state, 0, a))
        for a in G.legal_actions(state, 0)
    ]
    pickers = fit(TTR.presenter.hand_pickers(G.private_view(state, 0), moves))
    robbers = set()
    checked = 0
    for button, prompt in _sets(pickers):
        described = G.describe_action(state, 0, G.parse_action(button.notation))
        said, _, robs = described.removeprefix("Railyard: ").removesuffix(")").partition(" (robs ")
        assert said == button.label, (button.label, described)
        if robs:
            assert prompt.endswith(f" It robs {robs}."), (prompt, described)
            robbers.add(robs)
        else:
            assert "robs" not in prompt, prompt
        checked += 1
    assert checked > 100 and robbers == {"Bob and Cat", "Bob"}


def test_the_colour_prompt_says_whom_it_robs_from_the_table_not_the_move_labels() -> None:
    """Whom a colour robs is read from the table: move labels worded otherwise (or bare notation)
    change nothing the pickers say."""
    state = _state(LATE_HAND, {"blue": (2, 0)})
    view = G.private_view(state, 0)
    legal = G.legal_actions(state, 0)
    worded = [MoveChoice(G.format_action(a), G.describe_action(state, 0, a)) for a in legal]
    bare = [MoveChoice(G.format_action(a), G.format_action(a)) for a in legal]
    yard = [p for p in TTR.presenter.hand_pickers(view, bare) if not isinstance(p, ButtonSpec)]
    assert yard == [
        p for p in TTR.presenter.hand_pickers(view, worded) if not isinstance(p, ButtonSpec)
    ]
    blue = next(p for p in yard if isinstance(p, GroupSpec) and p.label == "Play Blue")
    assert blue.prompt.endswith(" It robs Bob.")


def test_a_hand_of_25_cards_keeps_its_multi_select() -> None:
    """The hand that fits one menu is still picked card by card."""
    hand = [*["red"] * 10, *["loco"] * 10, "green", "white", "black", "yellow", "purple"]
    (select,) = [p for p in _pickers(_state(hand)) if isinstance(p, SelectSpec)]
    assert select.prefix == "yard" and len(select.choices) == 25 and select.min_values == 2
    assert {c.value.split("#")[0] for c in select.choices} <= set(CARD_CODES)


def test_folding_into_one_menu_keeps_the_moves_inside_nested_pickers() -> None:
    """When a message has no room for buttons, every move behind a target picker (however
    deep) becomes a "Choose a move" choice that names the way to it."""
    pickers = _pickers(_state(RED_AND_EVERY_LOCO))
    folded = fit(pickers, reserved=ROWS * PER_ROW)
    menu = folded[0]
    assert isinstance(menu, SelectSpec) and menu.placeholder == "Choose a move"
    red = next(p for p in pickers if isinstance(p, GroupSpec) and p.label == "Play Red")
    offered = {c.value: c.label for c in menu.choices}
    assert all(leaf.notation in offered for leaf in _leaves(red))
    assert offered["yard red red red loco"] == "Play Red → 3 Red… → 3 Red + 1 Locomotive"
