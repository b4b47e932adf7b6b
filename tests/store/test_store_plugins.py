"""Store pieces the plug-in games need: lobbies, abort votes, secrets, reaction windows,
timers set by a move, and per-seat result figures — on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.ratings import ResultRecord
from bot.store.base import (
    ChannelBusy,
    DailyClaim,
    DailyClaimed,
    GuildSettings,
    Invitee,
    LobbyRecord,
    StaleVersion,
    Store,
    StoreError,
)
from tests.store.helpers import lobby_record, move, new_game


async def test_lobby_round_trip(store: Store) -> None:
    """A stored lobby reads back field for field, with an id of its own."""
    created = await store.create_lobby(lobby_record())
    assert created.id > 0 and created.version == 0
    assert await store.get_lobby(created.id) == created


async def test_unknown_lobby_is_none(store: Store) -> None:
    """Asking for a lobby that was never stored gives None."""
    assert await store.get_lobby(987654) is None


async def test_lobby_update_bumps_version(store: Store) -> None:
    """Answers and the start are stored, and the version grows by one per change."""
    lobby = await store.create_lobby(lobby_record())
    answered = await store.update_lobby(
        _replace_answer(lobby, 2, "accepted"), expected_version=lobby.version
    )
    assert answered.version == 1
    started = await store.update_lobby(
        _replace(answered, status="started", game_id=None, message_id=99), answered.version
    )
    read = await store.get_lobby(lobby.id)
    assert read == started
    assert read is not None and read.invitee(2) == Invitee(2, "Bob", "accepted")
    assert read.status == "started" and read.message_id == 99


async def test_stale_lobby_update_is_refused(store: Store) -> None:
    """Two presses at once: the second update, made from the old version, changes nothing."""
    lobby = await store.create_lobby(lobby_record())
    await store.update_lobby(_replace_answer(lobby, 2, "accepted"), lobby.version)
    with pytest.raises(StaleVersion):
        await store.update_lobby(_replace_answer(lobby, 3, "declined"), lobby.version)
    read = await store.get_lobby(lobby.id)
    assert read is not None and read.invitee(3) == Invitee(3, "Cy", "pending")


async def test_a_lobbys_message_is_remembered_without_a_new_version(store: Store) -> None:
    """The invitation's message id is stored beside the lobby without changing its version,
    so an answer pressed the moment the invitation appears is not refused as a clash, and that
    answer (read before the id was stored) does not erase it."""
    lobby = await store.create_lobby(lobby_record())
    await store.set_lobby_message(lobby.id, 4242)
    read = await store.get_lobby(lobby.id)
    assert read is not None and read.message_id == 4242 and read.version == lobby.version
    answered = await store.update_lobby(_replace_answer(lobby, 2, "accepted"), lobby.version)
    read = await store.get_lobby(lobby.id)
    assert read is not None and read.message_id == 4242
    assert read.version == answered.version and read.invitee(2) == Invitee(2, "Bob", "accepted")


async def test_an_unknown_lobbys_message_is_refused(store: Store) -> None:
    with pytest.raises(StoreError):
        await store.set_lobby_message(987654, 1)


async def test_abort_votes_accumulate_once_per_member(store: Store) -> None:
    """Each member's vote counts once, and the votes belong to their game only."""
    game = await new_game(store)
    other = await new_game(store, channel_id=43)
    assert await store.abort_votes(game.id) == frozenset()
    assert await store.add_abort_vote(game.id, 5) == {5}
    assert await store.add_abort_vote(game.id, 5) == {5}
    assert await store.add_abort_vote(game.id, 6) == {5, 6}
    assert await store.abort_votes(other.id) == frozenset()


async def test_a_move_lets_the_abort_votes_lapse(store: Store) -> None:
    """Votes to abort were cast for the position before a move: the move clears them (its own
    game's only)."""
    game = await new_game(store)
    other = await new_game(store, channel_id=43)
    await store.add_abort_vote(game.id, 5)
    await store.add_abort_vote(other.id, 5)
    await store.record_move(
        game_id=game.id, expected_version=0, seat=0, action="x", interaction_id=None, state={}
    )
    assert await store.abort_votes(game.id) == frozenset()
    assert await store.abort_votes(other.id) == {5}
    assert await store.add_abort_vote(game.id, 6) == {6}


TODAY = DailyClaim(7, "solo", "2026-11-26", 5)


async def test_a_daily_deal_is_claimed_with_its_game(store: Store) -> None:
    """A daily deal's game is stored with its claim; the same claim again stores no game (the
    transaction is rolled back); other members, games, servers and days claim their own."""
    assert not await store.daily_claimed(TODAY)
    game = await new_game(store, channel_id=1, daily=TODAY)
    assert await store.daily_claimed(TODAY)
    with pytest.raises(DailyClaimed):
        await new_game(store, channel_id=2, daily=TODAY)
    assert await store.active_game(2) is None
    others = [
        replace(TODAY, guild_id=8),
        replace(TODAY, game_key="ttr-solo"),
        replace(TODAY, day="2026-11-27"),
        replace(TODAY, user_id=6),
    ]
    for channel, claim in enumerate(others, start=3):
        assert (await new_game(store, channel_id=channel, daily=claim)).id > game.id


async def test_a_busy_channel_takes_no_claim(store: Store) -> None:
    """A daily deal refused because the channel has a game leaves no claim behind."""
    await new_game(store, channel_id=1)
    with pytest.raises(ChannelBusy):
        await new_game(store, channel_id=1, daily=TODAY)
    assert not await store.daily_claimed(TODAY)


async def test_claims_at_the_same_moment_end_with_one(store: Store) -> None:
    """The same deal dealt twice at once, in two channels: exactly one game is stored."""
    outcomes = await asyncio.gather(
        new_game(store, channel_id=1, daily=TODAY),
        new_game(store, channel_id=2, daily=TODAY),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["DailyClaimed", "StoredGame"]
    assert [await store.active_game(c) is None for c in (1, 2)].count(True) == 1


async def test_secret_is_made_once(store: Store) -> None:
    """The first value made for a secret is kept; later makers are ignored."""
    assert await store.secret("daily", lambda: "first") == "first"
    assert await store.secret("daily", lambda: "second") == "first"
    assert await store.secret("other", lambda: "x") == "x"


async def test_reaction_window_setting_round_trip(store: Store) -> None:
    """A guild's reaction window is stored; the default is 45 seconds."""
    assert (await store.guild_settings(7)).reaction_seconds == 45
    await store.set_guild_settings(GuildSettings(7, 600, "forfeit", reaction_seconds=20))
    assert await store.guild_settings(7) == GuildSettings(7, 600, "forfeit", 20)


def test_reaction_window_bounds() -> None:
    """A reaction window shorter than 5 s or longer than an hour is refused."""
    with pytest.raises(ValueError):
        GuildSettings(7, reaction_seconds=2)


async def test_a_move_sets_the_next_timer_atomically(store: Store) -> None:
    """The timer given with a move is stored with it (a computer due, a reaction window)."""
    game = await new_game(store)
    moved = await move(store, game, 1, remind_at=None, deadline=1234.5)
    assert moved.turn_deadline == 1234.5 and moved.remind_at is None
    read = await store.get_game(game.id)
    assert read is not None and read.turn_deadline == 1234.5
    assert [due.game.id for due in await store.timers_due(2000.0)] == [game.id]


async def test_a_new_game_can_start_with_a_deadline(store: Store) -> None:
    """create_game arms the timer when a computer seat opens the game."""
    game = await store.create_game(
        channel_id=50,
        guild_id=None,
        game_key="mille",
        seats=(),
        options={},
        state={"a": 1},
        deadline=77.0,
    )
    assert game.turn_deadline == 77.0
    read = await store.get_game(game.id)
    assert read is not None and read.turn_deadline == 77.0


async def test_result_details_round_trip(store: Store) -> None:
    """Per-seat figures of a result read back in seat order."""
    game = await new_game(store)
    record = ResultRecord(
        game_id=game.id,
        game_key="mille",
        guild_id=7,
        finished_at=5.0,
        seats=(1, None),
        ranks=(0, 1),
        scores=(10, 5),
        details=({"kills": 2}, {"kills": 0, "best_hand": 900}),
    )
    await store.record_result(record, ["Ann", "Computer"])
    (stored,) = await store.results()
    assert stored.record.details == ({"kills": 2}, {"kills": 0, "best_hand": 900})


def _replace(lobby: LobbyRecord, **changes: object) -> LobbyRecord:
    from dataclasses import replace

    return replace(lobby, **changes)  # type: ignore[arg-type]


def _replace_answer(lobby: LobbyRecord, user_id: int, answer: str) -> LobbyRecord:
    invited = tuple(
        Invitee(i.user_id, i.name, answer) if i.user_id == user_id else i  # type: ignore[arg-type]
        for i in lobby.invited
    )
    return _replace(lobby, invited=invited)
