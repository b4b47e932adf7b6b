"""The conformance suite: every registered game, at every seat count it allows, must pass it.

A new game gets all of it by registering its bundle (the toy game in ``tests/toy`` is registered
from ``tests/conftest.py`` and runs here like the built-in games). The engine invariants are in
``engine_checks.py``; this module adds what the rest of the bot relies on: pictures drawn from
every kind of view, pickers that fit Discord, computer players that answer legally, and refused
moves that leave the stored game byte for byte as it was.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.engine.core import GameError
from bot.games import MoveChoice, all_bundles, bundle, get_policy, policy_factory, policy_names
from bot.games.bundle import ButtonSpec, GroupSpec, Picker, SelectSpec
from bot.store.base import SeatRecord
from bot.store.sqlite import SqliteStore
from bot.tables import Tables
from cogs.layout import DEPTH, PER_ROW, PER_SELECT, ROWS, fit
from cogs.pickers import add_pickers
from tests.conformance.engine_checks import check_playout, snapshot

# (game key, seats) for every registered game and every table size it allows.
TABLES = [
    (b.key, n) for b in all_bundles() for n in range(b.info.min_players, b.info.max_players + 1)
]
IDS = [f"{key}-{n}" for key, n in TABLES]
SEEDS = range(6)


def _playout(key: str, seats: int, seed: int, limit: int | None = None) -> list[Any]:
    """The states of one seeded random playout (at most ``limit`` moves)."""
    game = bundle(key).game
    rng = random.Random(seed)
    state = game.new_game([f"P{i}" for i in range(seats)], seed)
    states = [state]
    while game.outcome(state) is None and (limit is None or len(states) <= limit):
        seat = rng.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


@pytest.mark.parametrize(("key", "seats"), TABLES, ids=IDS)
def test_engine_invariants_hold_over_random_playouts(key: str, seats: int) -> None:
    """JSON and notation round trips, legal moves for every seat to act, no card created or
    lost, views blind to hidden cards, refusals change nothing, the game ends."""
    game = bundle(key).game
    # Every step of the first 60 is checked in full, then one in 15 (long games stay cheap);
    # card conservation and legal moves for every seat to act are checked at every step.
    # check_playout asserts each of these itself.
    for seed in SEEDS:
        check_playout(game, seats, seed, every=15, dense=60)
    # Leaving: a seat drops out now and then; the game still ends and ranks everyone.
    for seed in SEEDS:
        check_playout(game, seats, 1000 + seed, leave_chance=0.02, every=25, dense=20)


@pytest.mark.parametrize(("key", "seats"), TABLES, ids=IDS)
def test_renderers_draw_playout_frames(key: str, seats: int) -> None:
    """Every frame of a playout's first 30 moves (then one in sixty, and the last) is drawn:
    the table for everyone, each seat's hand (every fourth frame), and the score image when a
    round ends."""
    found = bundle(key)
    game, shown = found.game, found.presenter
    states = _playout(key, seats, seed=11)
    frames = [*range(min(30, len(states))), *range(30, len(states), 60), len(states) - 1]
    previous = None
    for index in sorted(set(frames)):
        state = states[index]
        public = game.public_view(state)
        assert shown.table_png(public)[:8] == b"\x89PNG\r\n\x1a\n"
        if found.info.private_hands and index % 4 == 0:
            for seat in range(seats):
                assert shown.hand_png(game.private_view(state, seat))[:4] == b"\x89PNG"
        if previous is not None and shown.round_finished(previous, public):
            assert isinstance(shown.result_png(public), bytes)
        previous = public
        assert shown.console_table(public)
    final = game.public_view(states[-1])
    assert isinstance(shown.result_png(final), bytes)


def _check_pickers(
    game: Any, state: Any, seat: int, pickers: list[Picker], where: str, reserved: int
) -> None:
    legal = {game.format_action(a) for a in game.legal_actions(state, seat)}
    fitted = fit(pickers, reserved=reserved)
    for picker in fitted:
        if isinstance(picker, ButtonSpec):
            assert game.format_action(game.parse_action(picker.notation)) in legal, picker
            assert 0 < len(picker.label) <= 80
        elif isinstance(picker, GroupSpec):
            groups = [(picker, 1)]
            while groups:  # a group's options may be groups themselves, each one message
                group, depth = groups.pop()
                # Deeper than a custom id's path can say, a group would not be shown at all.
                assert depth <= DEPTH, "target pickers nested too deep"
                assert group.options and len(group.options) <= ROWS * PER_ROW
                for option in group.options:
                    if isinstance(option, GroupSpec):
                        groups.append((option, depth + 1))
                    else:
                        assert game.format_action(game.parse_action(option.notation)) in legal
        else:
            assert isinstance(picker, SelectSpec)
            values = [c.value for c in picker.choices]
            assert len(values) == len(set(values)), "select values are unique"
            assert all(
                0 < len(v) <= 100 and len(c.label) > 0
                for v, c in zip(values, picker.choices, strict=True)
            )
            assert 1 <= picker.min_values <= picker.max_values
            if picker.max_values == 1:
                for value in values:
                    assert game.format_action(game.parse_action(picker.compose([value]))) in legal
    # Laid out as Discord components: within five rows, every custom id within 100 characters.
    from bot.store.base import StoredGame

    stored = StoredGame(
        id=2**63 - 1,
        channel_id=1,
        guild_id=1,
        game_key=game.info.key,
        seats=(),
        options={},
        state={},
        version=999_999_999,
        status="active",
        message_id=None,
        created_at=0.0,
        updated_at=0.0,
    )
    view = discord.ui.View(timeout=None)
    add_pickers(view, fitted, stored, where, reserved=reserved)
    for item in view.children:
        custom_id = getattr(item, "custom_id", "")
        assert custom_id and len(custom_id) <= 100
        if isinstance(item, discord.ui.Select):
            assert len(item.options) <= PER_SELECT


@pytest.mark.parametrize(("key", "seats"), TABLES, ids=IDS)
def test_pickers_offer_legal_moves_and_fit_discord(key: str, seats: int) -> None:
    """Every button, target picker and menu plays a legal move and fits Discord's limits."""
    found = bundle(key)
    game, shown = found.game, found.presenter
    reserved = 1 if found.info.private_hands else 0
    for state in _playout(key, seats, seed=5, limit=150):
        for seat in sorted(game.to_act(state)):
            moves = [
                MoveChoice(game.format_action(a), game.describe_action(state, seat, a))
                for a in game.legal_actions(state, seat)
            ]
            pickers = shown.hand_pickers(game.private_view(state, seat), moves)
            _check_pickers(game, state, seat, pickers, "h", 0)
        public_pickers = shown.table_pickers(game.public_view(state))
        for seat in sorted(game.to_act(state))[:1]:
            if public_pickers:
                _check_pickers(game, state, seat, public_pickers, "t", reserved)


@pytest.mark.parametrize("key", sorted({key for key, _ in TABLES}))
def test_every_computer_player_answers_legally(key: str) -> None:
    """Each computer player a game offers picks a legal move from its own private view."""
    found = bundle(key)
    game = found.game
    seats = found.info.min_players
    for name in policy_names(key):
        policy = get_policy(key, name)
        for state in _playout(key, seats, seed=3, limit=40)[::4]:
            for seat in sorted(game.to_act(state)):
                view = game.private_view(state, seat)
                assert policy.choose(view, random.Random(seat)) in view.legal, (name, seat)


@pytest.mark.parametrize("key", sorted({key for key, _ in TABLES}))
def test_computer_players_and_hints_travel_to_the_thinking_worker(key: str) -> None:
    """The bot sends policy factories and the hint function to a worker process: each must
    survive pickling and still make a player that answers legally."""
    found = bundle(key)
    game = found.game
    state = _playout(key, found.info.min_players, seed=5, limit=6)[-1]
    seat = min(game.to_act(state))
    view = pickle.loads(pickle.dumps(game.private_view(state, seat)))
    for name in policy_names(key):
        factory = pickle.loads(pickle.dumps(policy_factory(key, name)))
        assert factory().choose(view, random.Random(0)) in view.legal, name
    hint = pickle.loads(pickle.dumps(found.presenter.hint))
    assert hint is None or callable(hint)


async def test_refused_moves_leave_the_stored_game_unchanged(tmp_path: Path) -> None:
    """A refused move (garbage, wrong seat, stale turn) leaves the stored row byte-identical,
    for every game and table size, over the first moves of a game."""
    store = SqliteStore(tmp_path / "conformance.db")
    await store.open()
    try:
        tables = Tables(store)
        for channel, (key, seats) in enumerate(TABLES, start=1):
            records = [SeatRecord(s, f"P{s}", user_id=100 + s) for s in range(seats)]
            update = await tables.start(
                channel_id=channel, guild_id=None, game_key=key, seats=records, seed=channel
            )
            rng = random.Random(channel)
            for _ in range(8):
                if update.outcome is not None:
                    break
                row = await store.get_game(update.game.id)
                assert row is not None
                before = (json.dumps(row.state, sort_keys=True), row.version)
                waiting = sorted(s.user_id for s in update.waiting if s.user_id is not None)
                first = waiting[0]
                idle = next((r.user_id for r in records if r.user_id not in waiting), None)
                attempts: list[tuple[int, str, int | None]] = [
                    (first, "x" * 400, None),
                    (first, "@leave", None),
                    (first, "", None),
                    (first, "play the moon <@1>", None),
                    (999, "pass", None),
                    (first, "pass", row.version + 5),
                ]
                if idle is not None:
                    _, moves = tables.hand(row, first)
                    attempts.append((idle, moves[0].notation, None))
                for user, text, version in attempts:
                    with pytest.raises(GameError):
                        await tables.move(
                            channel_id=channel, user_id=user, action=text, expected_version=version
                        )
                    after = await store.get_game(update.game.id)
                    assert after is not None
                    assert (json.dumps(after.state, sort_keys=True), after.version) == before
                user = rng.choice(waiting)
                _, moves = tables.hand(row, user)
                update = await tables.move(
                    channel_id=channel, user_id=user, action=rng.choice(moves).notation
                )
    finally:
        await store.close()


@pytest.mark.parametrize("key", sorted({key for key, _ in TABLES}))
def test_game_info_is_complete(key: str) -> None:
    """Every game says what the table layer needs, and its state carries a schema version."""
    found = bundle(key)
    info = found.info
    assert 1 <= info.min_players <= info.max_players <= 6
    assert info.title and found.presenter.rules
    assert found.default_policy in policy_names(key)
    if info.daily_deal:
        assert info.max_players == 1, "a daily deal is a solitaire's"
    if info.ranking.kind == "best":
        assert info.ranking.keys and info.ranking.shown
    state = found.game.new_game([f"P{i}" for i in range(info.min_players)], 1)
    assert "schema_version" in found.game.to_dict(state)
    assert snapshot(found.game, state)
