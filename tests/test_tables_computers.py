"""The seam and its computer players: answering before they think, and who thinks where."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.tables as tables_module
from bot.ai.random_policy import RandomPolicy
from bot.engine.dragon import GAME as DRAGON
from bot.engine.dragon.cards import DRIVER_TRACK, SIDE_TRACK
from bot.engine.dragon.damage import kill
from bot.engine.dragon.state import DragonState
from bot.games.bundle import PolicyFactory
from bot.games.registry import choose_move, policy_factory
from bot.store.base import SeatRecord, StoredGame
from bot.store.sqlite import SqliteStore
from bot.tables import Tables
from tests.test_tables import _versus_computer
from tests.toy.bundle import Greedy

CHANNEL = 700
ANN, BOB, CAROL = 11, 22, 33
MILLE_DECK = ["go", "100", "75", "75", "75", "50", *["25"] * 6, *["200", "50", "100", "75"] * 2]


class RecordingThinker:
    """Thinks in this process and notes which player was asked each time."""

    def __init__(self) -> None:
        self.asked: list[PolicyFactory] = []

    async def __call__(self, factory: PolicyFactory, view: Any, seed: str) -> str:
        self.asked.append(factory)
        return choose_move(factory, view, seed)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "t.db")
    await opened.open()
    yield opened
    await opened.close()


async def test_member_move_is_acknowledged_before_the_computer_thinks(
    store: SqliteStore,
) -> None:
    """``before_computers`` runs once, with the member's move stored and the computer's not."""
    tables = Tables(store)
    await tables.start(
        channel_id=CHANNEL, guild_id=1, game_key="mille", seats=_versus_computer(), deck=MILLE_DECK
    )
    seen: list[int] = []

    async def acknowledge() -> None:
        stored = await store.active_game(CHANNEL)
        assert stored is not None
        seen.append(stored.version)

    update = await tables.move(
        channel_id=CHANNEL, user_id=ANN, action="play go", before_computers=acknowledge
    )
    assert seen == [1]
    assert update.game.version > 1 and update.steps[1].by_computer


async def test_no_acknowledgement_hook_when_no_computer_answers(store: SqliteStore) -> None:
    """Between members the hook is not called: the reply itself follows at once."""
    tables = Tables(store)
    members = [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)]
    await tables.start(
        channel_id=CHANNEL, guild_id=1, game_key="mille", seats=members, deck=MILLE_DECK
    )
    called: list[bool] = []

    async def acknowledge() -> None:
        called.append(True)

    await tables.move(
        channel_id=CHANNEL, user_id=ANN, action="play go", before_computers=acknowledge
    )
    assert called == []


async def test_computers_play_out_quickly_once_every_member_left(store: SqliteStore) -> None:
    """With every member gone from a 3-seat game, the computers finish it with the game's
    default player instead of the level they were given (nobody waits on a search)."""
    thinker = RecordingThinker()
    tables = Tables(store, thinker=thinker)
    seats = [
        SeatRecord(0, "Ann", user_id=ANN),
        SeatRecord(1, "Computer 1", policy="random"),
        SeatRecord(2, "Computer 2", policy="random"),
    ]
    await tables.start(channel_id=CHANNEL, guild_id=1, game_key="relay", seats=seats, seed=4)
    update = await tables.leave(channel_id=CHANNEL, user_id=ANN)
    assert update.outcome is not None
    first_rounds = 3 * len(seats)
    assert len(thinker.asked) > first_rounds
    assert all(f is RandomPolicy for f in thinker.asked[:first_rounds])
    assert all(f is Greedy for f in thinker.asked[first_rounds:])


def _arena_with_bob_dead() -> tuple[list[SeatRecord], DragonState]:
    """Ann and Bob among four random computers in a Dragon arena, Bob's driver killed (out of
    the race, still seated)."""
    seats = [
        SeatRecord(0, "Ann", user_id=ANN),
        SeatRecord(1, "Bob", user_id=BOB),
        *(SeatRecord(seat, f"Computer {seat}", policy="random") for seat in (2, 3, 4, 5)),
    ]
    state = DRAGON.new_game([s.name for s in seats], 7, {})
    kill(state, 1, 2)
    return seats, state


async def _stored_arena(
    store: SqliteStore, seats: list[SeatRecord], state: DragonState
) -> StoredGame:
    """The Dragon arena ``state`` stored as the game in play at ``CHANNEL``."""
    return await store.create_game(
        channel_id=CHANNEL,
        guild_id=1,
        game_key="dragon",
        seats=seats,
        options=DRAGON.resolve_options({}),
        state=DRAGON.to_dict(state),
    )


async def test_computers_play_out_quickly_once_no_member_can_act(store: SqliteStore) -> None:
    """Bob's Dragon driver is dead (out of the race, still seated) when Ann, the last member
    driving, resigns: nobody is left to decide anything, so the computers finish with the
    game's default player. Found by a review of games of many seats: a dead driver counted as
    a member still playing, and four expert computers searched through the whole rest of the
    game (about 34 s in one /resign, against 4 s once Bob had resigned instead)."""
    thinker = RecordingThinker()
    tables = Tables(store, thinker=thinker)
    seats, state = _arena_with_bob_dead()
    await _stored_arena(store, seats, state)
    update = await tables.leave(channel_id=CHANNEL, user_id=ANN)
    assert update.outcome is not None
    first_rounds = 3 * len(seats)
    assert len(thinker.asked) > first_rounds
    assert all(f is RandomPolicy for f in thinker.asked[:first_rounds])
    assert all(f is policy_factory("dragon") for f in thinker.asked[first_rounds:])


class ShootingThinker(RecordingThinker):
    """Spares seat 0 (Ann) for the first ``spare`` moves, then shoots at her when it can."""

    def __init__(self, spare: int) -> None:
        super().__init__()
        self.spare = spare
        self.shot_at: int | None = None  # the call that shot Ann

    async def __call__(self, factory: PolicyFactory, view: Any, seed: str) -> str:
        self.asked.append(factory)
        at_ann = [m for m in view.legal if m.endswith("@0") and not m.startswith("play")]
        if len(self.asked) > self.spare and at_ann and self.shot_at is None:
            self.shot_at = len(self.asked)
            return str(at_ann[0])
        spared = [m for m in view.legal if "@0" not in m]
        return str(random.Random(seed).choice(spared or list(view.legal)))


async def test_computers_play_out_quickly_once_the_last_member_is_killed(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann, the last member driving (Bob's driver is dead), ends her turn; a computer kills
    her after the computers' first check of who is left. Nobody can act any more, so the rest
    of the game is played with the default player. Found by a review of games of many seats:
    the check was made once per request, so a driver killed after it left the computers
    searching to the game's end."""
    monkeypatch.setattr(tables_module, "_QUICK_CHECK_AFTER", 1)  # a check every six moves
    thinker = ShootingThinker(spare=6)
    tables = Tables(store, thinker=thinker)
    seats, state = _arena_with_bob_dead()
    ann = state.cars[0]
    # One hit more on any side kills her, and she holds nothing to answer a shot with.
    ann.hits = [SIDE_TRACK] * 4
    ann.driver = DRIVER_TRACK - 1
    state.cw_discard.extend(ann.cw_hand)
    ann.cw_hand = []
    stored = await _stored_arena(store, seats, state)
    while 0 in tables.position(stored).acting:
        _, moves = tables.hand(stored, ANN)
        mine = next(m for m in moves if "@" not in m.notation)
        stored = (await tables.move(channel_id=CHANNEL, user_id=ANN, action=mine.notation)).game
    assert stored.status == "finished"
    assert thinker.shot_at is not None and thinker.shot_at > 6, "killed after the first check"
    assert thinker.asked[-1] is policy_factory("dragon")


async def test_computers_keep_their_level_while_a_member_plays(store: SqliteStore) -> None:
    """A member still seated keeps the computers at their chosen level, however long they
    play between the member's turns."""
    thinker = RecordingThinker()
    tables = Tables(store, thinker=thinker)
    seats = [
        SeatRecord(0, "Ann", user_id=ANN),
        SeatRecord(1, "Bob", user_id=BOB),
        SeatRecord(2, "Computer", policy="random"),
    ]
    await tables.start(channel_id=CHANNEL, guild_id=1, game_key="relay", seats=seats, seed=4)
    update = await tables.leave(channel_id=CHANNEL, user_id=ANN)
    while update.outcome is None:
        (bob,) = [s for s in update.to_act if s.user_id == BOB]
        _, moves = tables.hand(update.game, bob.user_id or 0)
        update = await tables.move(channel_id=CHANNEL, user_id=BOB, action=moves[0].notation)
    assert thinker.asked and all(f is RandomPolicy for f in thinker.asked)


async def test_game_is_acknowledged_before_an_opening_computer_thinks(
    store: SqliteStore,
) -> None:
    """When a computer sits first, ``start`` calls the hook with the new game stored at
    version 0, before the computer's opening move."""
    tables = Tables(store)
    seen: list[int] = []

    async def acknowledge() -> None:
        stored = await store.active_game(CHANNEL)
        assert stored is not None
        seen.append(stored.version)

    seats = [SeatRecord(0, "Computer", policy="random"), SeatRecord(1, "Ann", user_id=ANN)]
    update = await tables.start(
        channel_id=CHANNEL,
        guild_id=1,
        game_key="mille",
        seats=seats,
        deck=MILLE_DECK,
        before_computers=acknowledge,
    )
    assert seen == [0] and update.steps and update.steps[0].by_computer


class AnswerFailed(Exception):
    """What a front end's answer raised (a dropped connection, say)."""


async def _fail() -> None:
    raise AnswerFailed


async def test_a_failing_answer_does_not_stop_the_computers(store: SqliteStore) -> None:
    """A ``before_computers`` hook that raises, in ``start``, ``move`` and ``leave``. Found by a
    review: the error came out of the seam with the deal, the move or the leaving stored and
    the computers' turn not played (until the sweep), and the front end told its member that
    nothing was changed. It is logged; the computers play and the table is returned."""
    tables = Tables(store)
    seats = [SeatRecord(0, "Computer", policy="random"), SeatRecord(1, "Ann", user_id=ANN)]
    started = await tables.start(
        channel_id=CHANNEL,
        guild_id=1,
        game_key="mille",
        seats=seats,
        deck=MILLE_DECK,
        before_computers=_fail,
    )
    assert started.steps and started.steps[0].by_computer
    assert [s.user_id for s in started.waiting] == [ANN]
    _, moves = tables.hand(started.game, ANN)
    moved = await tables.move(
        channel_id=CHANNEL, user_id=ANN, action=moves[0].notation, before_computers=_fail
    )
    assert moved.steps[-1].by_computer and [s.user_id for s in moved.waiting] == [ANN]
    assert moved.game == await store.get_game(moved.game.id)

    relay = [
        SeatRecord(0, "Ann", user_id=ANN),
        SeatRecord(1, "Computer 1", policy="random"),
        SeatRecord(2, "Computer 2", policy="random"),
    ]
    await tables.abort(channel_id=CHANNEL)
    await tables.start(channel_id=CHANNEL, guild_id=1, game_key="relay", seats=relay, seed=4)
    left = await tables.leave(channel_id=CHANNEL, user_id=ANN, before_computers=_fail)
    assert left.outcome is not None, "the computers played the game out"
    assert left.game == await store.get_game(left.game.id)
