"""Replays: the public table after every move, rebuilt from the stored deal and move log."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.engine.core import GameError
from bot.engine.mille.views import MillePublicView
from bot.engine.solo.views import SoloPublicView
from bot.store.base import SeatRecord, StoredGame
from bot.store.rows import game_from_row
from bot.store.sqlite import SqliteStore
from bot.tables import NoReplay, Tables, TableUpdate

CHANNEL = 500
ANN, BOB = 11, 22


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = SqliteStore(tmp_path / "t.db")
    await store.open()
    yield Tables(store)
    await store.close()


async def _start(
    tables: Tables, seats: list[SeatRecord] | None = None, game_key: str = "mille"
) -> TableUpdate:
    return await tables.start(
        channel_id=CHANNEL,
        guild_id=1,
        game_key=game_key,
        seats=seats or [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)],
        options={"length": "hand"} if game_key == "mille" else {},
        seed=11,
    )


async def _play_live(
    tables: Tables, update: TableUpdate, seed: int, limit: int | None = None
) -> tuple[TableUpdate, list[Any]]:
    """Members pick random legal moves (until the end, or ``limit`` moves); the live views."""
    rng = random.Random(seed)
    views = [update.public]
    while update.game.status == "active" and (limit is None or len(views) <= limit):
        user = next(s.user_id for s in update.to_act if s.user_id is not None)
        choice = rng.choice(tables.hand(update.game, user)[1])
        update = await tables.move(channel_id=CHANNEL, user_id=user, action=choice.notation)
        views.append(update.public)
    return update, views


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_frames_equal_the_live_views(tables: Tables, seed: int) -> None:
    """Frame 0 is the deal and frame n the table the players saw after move n."""
    final, live = await _play_live(tables, await _start(tables), seed)
    assert final.game.status == "finished"
    frames = (await tables.hindsight.replay(final.game.id)).views
    assert len(frames) == final.game.version + 1
    assert frames == live


async def test_frames_are_public_views(tables: Tables) -> None:
    """Every frame is a public view, so no hidden hand can be in one."""
    final, _ = await _play_live(tables, await _start(tables), seed=4)
    frames = (await tables.hindsight.replay(final.game.id)).views
    assert frames and all(type(frame) is MillePublicView for frame in frames)


async def test_replay_includes_the_computers_moves(tables: Tables) -> None:
    """Against the computer, every stored move (the computer's too) gives a frame."""
    seats = [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Computer", policy="normal")]
    final, _ = await _play_live(tables, await _start(tables, seats), seed=5)
    frames = (await tables.hindsight.replay(final.game.id)).views
    assert len(frames) == len(await tables.store.moves(final.game.id)) + 1
    assert frames[-1] == final.public


async def test_solo_replay(tables: Tables) -> None:
    """A solo game replays too, as solo public views ending on the final table."""
    final, live = await _play_live(
        tables, await _start(tables, [SeatRecord(0, "Ann", user_id=ANN)], "solo"), seed=6
    )
    frames = (await tables.hindsight.replay(final.game.id)).views
    assert frames == live and all(type(frame) is SoloPublicView for frame in frames)


async def test_resigned_game_replays_up_to_the_resignation(tables: Tables) -> None:
    """A resignation is logged like a move: the replay ends on the table it ended."""
    _, live = await _play_live(tables, await _start(tables), seed=7, limit=5)
    ended = await tables.leave(channel_id=CHANNEL, user_id=ANN)
    frames = (await tables.hindsight.replay(ended.game.id)).views
    assert frames[:-1] == live and frames[-1] == ended.public
    assert frames[-1].winners is not None and frames[-2].winners is None


def _count_parsed(monkeypatch: pytest.MonkeyPatch) -> list[StoredGame]:
    """The games the store parses from its rows from now on, in order (each read's cost)."""
    read: list[StoredGame] = []

    def parsed(row: Any) -> StoredGame:
        read.append(game_from_row(row))
        return read[-1]

    monkeypatch.setattr("bot.store.sql.game_from_row", parsed)
    return read


async def test_replay_reads_only_the_members_games_in_its_channel(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an operator's security review: /replay, asking whether the member's own game
    here was aborted, read and parsed every game the member had played on every channel (0.53 s
    of the database for a member of 21 000 games), before any limit applies, and a refused
    /replay counts for nothing: sent again and again, it kept every other channel waiting.
    Only this channel's games are read now."""
    for channel in range(CHANNEL + 1, CHANNEL + 6):  # Ann's games elsewhere
        await tables.start(
            channel_id=channel,
            guild_id=1,
            game_key="mille",
            seats=[SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)],
        )
    here = await _start(tables)
    await tables.abort(channel_id=CHANNEL)
    read = _count_parsed(monkeypatch)
    aborted = await tables.hindsight.aborted_here(CHANNEL, ANN)
    assert aborted is not None and aborted.id == here.game.id
    assert len(read) == 1


async def test_replay_parses_one_of_the_members_games_in_its_channel(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/replay asking whether the member's own last game here was aborted read and parsed
    every game the member had played in the channel: 2.9 s on SQLite, 3.8 s on PostgreSQL for
    20 000 solitaires in one channel, before /replay answers Discord, which gives it three.
    Only the game it names is parsed now."""
    for _ in range(5):  # Ann's earlier games here, each aborted or resigned
        await _start(tables)
        await tables.abort(channel_id=CHANNEL)
        await _start(tables)
        await tables.leave(channel_id=CHANNEL, user_id=ANN)
    here = await _start(tables)
    await tables.abort(channel_id=CHANNEL)
    read = _count_parsed(monkeypatch)
    last = await tables.store.last_finished_game(CHANNEL)
    assert last is not None and len(read) == 1
    aborted = await tables.hindsight.aborted_here(CHANNEL, ANN, after=last.id)
    assert aborted is not None and aborted.id == here.game.id
    assert len(read) == 2


async def test_running_game_is_refused(tables: Tables) -> None:
    """A game still being played cannot be replayed (it would show the table early)."""
    start = await _start(tables)
    with pytest.raises(NoReplay, match="Replays are for finished games"):
        await tables.hindsight.replay(start.game.id)


async def test_game_without_a_stored_deal_is_refused(tables: Tables, tmp_path: Path) -> None:
    """A game stored before deals were kept gets a sentence, not a crash."""
    start = await _start(tables)
    await tables.abort(channel_id=CHANNEL)
    # What a game from schema version 1 looks like: no initial state.
    async with aiosqlite.connect(tmp_path / "t.db") as db:
        await db.execute("UPDATE games SET initial_state = NULL")
        await db.commit()
    with pytest.raises(NoReplay, match="before Junction kept replays"):
        await tables.hindsight.replay(start.game.id)


async def test_unknown_game_is_refused(tables: Tables) -> None:
    """A game id that does not exist is a readable error: past every game dealt, that it
    never existed (it said "no longer exists")."""
    with pytest.raises(GameError, match=r"^That game never existed\.$"):
        await tables.hindsight.replay(404)


async def test_a_move_todays_rules_refuse_ends_the_replay_there(
    tables: Tables, tmp_path: Path
) -> None:
    """A stored move the current rules refuse (a game from before a rules fix) ends the replay
    at the table before it instead of failing the whole replay."""
    final, live = await _play_live(tables, await _start(tables), seed=8)
    # Stand-in for a move an older engine accepted: the fourth move becomes one nobody may make.
    async with aiosqlite.connect(tmp_path / "t.db") as db:
        await db.execute("UPDATE moves SET action = 'extend yes' WHERE seq = 4")
        await db.commit()
    frames = (await tables.hindsight.replay(final.game.id)).views
    assert frames == live[:4]
