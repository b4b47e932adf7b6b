"""Forgetting a member (``bot.forget``, ``junction forget-member``), on SQLite and PostgreSQL.

Alice plays whole games against Bob and against the computer, invites and asks to abort; then
she asks to be forgotten. Nothing in the database may name her any more, by id or by name, and
nothing Bob has may change: his games replay, his results and rating stay as they were.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.__main__ import main
from bot.forget import FORMER, StillPlaying, _scrubbed, forget_member
from bot.ratings import Scope, standings
from bot.store.base import DailyClaim, Invitee, SeatRecord, Store
from bot.tables import Tables
from tests.seam import finish_randomly
from tests.store.helpers import Backend, lobby_record

ALICE, BOB, CAROL = 710000000000000001, 720000000000000002, 730000000000000003
GUILD = 7


async def _play_out(tables: Tables, channel: int, seats: list[SeatRecord], seed: int) -> None:
    """A whole single hand of Mille Bornes with random legal moves, its result recorded."""
    update = await tables.start(
        channel_id=channel,
        guild_id=GUILD,
        game_key="mille",
        seats=seats,
        options={"length": "hand"},
        seed=seed,
    )
    await finish_randomly(tables, update, seed)


def _duel(first: str = "Alice") -> list[SeatRecord]:
    return [SeatRecord(0, first, user_id=ALICE), SeatRecord(1, "Bob", user_id=BOB)]


async def _alice_history(store: Store) -> Tables:
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _play_out(tables, 1, _duel(), seed=3)
    await _play_out(tables, 2, _duel(), seed=4)
    await _play_out(
        tables, 3, [SeatRecord(0, "Bob", user_id=BOB), SeatRecord(1, "Cy", user_id=CAROL)], 5
    )
    return tables


async def _everything(backend: Backend) -> str:
    """Every row of every table, as text."""
    rows = []
    for table in (
        "games",
        "moves",
        "results",
        "result_members",
        "lobbies",
        "abort_votes",
        "daily_claims",
    ):
        rows.append(repr(await backend.raw(f"SELECT * FROM {table}")))
    return "\n".join(rows)


async def test_nothing_names_a_forgotten_member(store: Store, backend: Backend) -> None:
    await _alice_history(store)
    await store.daily_claimed(DailyClaim(GUILD, "solo", "2026-11-26", ALICE))
    lobby = await store.create_lobby(lobby_record(host_id=ALICE, host_name="Alice"))
    invited = await store.create_lobby(lobby_record(invited=(Invitee(ALICE, "Alice"),)))
    kept = await store.create_lobby(lobby_record(invited=(Invitee(CAROL, "Cy"),)))
    before = await _everything(backend)
    assert str(ALICE) in before and "Alice" in before

    done = await forget_member(store, ALICE)

    assert (done.games, done.results, done.lobbies) == (2, 2, 2)
    after = await _everything(backend)
    assert str(ALICE) not in after and "Alice" not in after
    assert await store.get_lobby(lobby.id) is None and await store.get_lobby(invited.id) is None
    assert await store.get_lobby(kept.id) is not None
    assert await store.games_of_member(ALICE) == []


async def test_the_next_lobby_is_numbered_past_a_forgotten_members_newest(
    store: Store,
) -> None:
    """The newest lobby named the member: deleting it freed its id, and on SQLite the next
    lobby took it, so its old message's buttons answered the new lobby."""
    await store.create_lobby(lobby_record())
    newest = await store.create_lobby(lobby_record(host_id=ALICE, host_name="Alice"))
    await forget_member(store, ALICE)
    assert (await store.create_lobby(lobby_record())).id > newest.id


async def test_a_forgotten_members_newest_lobby_is_kept_closed_without_them(
    store: Store, backend: Backend
) -> None:
    """The newest lobby is kept for its id only: closed, the member's id and name gone."""
    newest = await store.create_lobby(lobby_record(invited=(Invitee(ALICE, "Alice"),)))
    done = await forget_member(store, ALICE)
    assert (done.lobbies, done.kept) == (0, 1)
    kept = await store.get_lobby(newest.id)
    assert kept is not None
    assert kept.status == "cancelled"
    assert kept.version == newest.version + 1
    assert [i.name for i in kept.invited] == [FORMER]
    after = await _everything(backend)
    assert str(ALICE) not in after and "Alice" not in after


async def test_the_others_keep_their_results_and_ratings(store: Store) -> None:
    await _alice_history(store)
    scope = Scope("mille", GUILD)
    ladder = {
        line.player: line.display
        for line in standings([r.record for r in await store.results()], scope, 2_000_000.0)
    }

    await forget_member(store, ALICE)

    results = await store.results()
    after = {
        line.player: line.display
        for line in standings([r.record for r in results], scope, 2_000_000.0)
    }
    assert after[BOB] == ladder[BOB] and after[CAROL] == ladder[CAROL]
    aliases = {u for r in results for u in r.record.seats if u is not None and u < 0}
    assert len(aliases) == 1 and after[aliases.pop()] == ladder[ALICE]
    assert sorted({n for r in results for n in r.names}) == sorted({FORMER, "Bob", "Cy"})


async def test_a_forgotten_members_games_still_replay(store: Store) -> None:
    tables = await _alice_history(store)
    (first, second, third) = await store.games_of_member(BOB)
    before = [tables.position(g).state for g in (first, second)]

    await forget_member(store, ALICE)

    # Bob still has all three games; the first two were Alice's.
    after = await store.games_of_member(BOB)
    assert [g.id for g in after] == [first.id, second.id, third.id]
    for stored, old in zip(after[:2], before, strict=True):
        views = (await tables.hindsight.replay(stored.id)).views
        assert len(views) == len(await store.moves(stored.id)) + 1
        now = tables.position(stored)
        assert now.state.players == (FORMER, "Bob")
        # The same game: only the name changed.
        assert now.state.scores == old.scores and now.state.winners == old.winners
        assert stored.seats[0].name == FORMER and stored.seats[0].user_id is not None
        assert stored.seats[0].user_id < 0


async def test_a_member_in_a_game_in_play_is_refused(store: Store, backend: Backend) -> None:
    tables = await _alice_history(store)
    await tables.start(channel_id=9, guild_id=GUILD, game_key="mille", seats=_duel(), seed=8)
    (in_play,) = await store.games_of_member(ALICE, active=True)
    assert in_play.channel_id == 9 and len(await store.games_of_member(ALICE)) == 3
    before = await _everything(backend)
    with pytest.raises(StillPlaying, match="still seated in a game in play"):
        await forget_member(store, ALICE)
    assert await _everything(backend) == before


async def test_a_stacked_deal_is_renamed_in_place(store: Store, backend: Backend) -> None:
    """A game dealt from a stacked deck cannot be dealt again from its seed: its deal and its
    final state are renamed where they stand, and it still replays."""
    tables = Tables(store)
    deck = ["go", "100", "75", "75", "75", "50", *["25"] * 6, *["200", "50", "100", "75"] * 3]
    await tables.start(channel_id=5, guild_id=GUILD, game_key="mille", seats=_duel(), deck=deck)
    await tables.move(channel_id=5, user_id=ALICE, action="play go")
    await tables.leave(channel_id=5, user_id=ALICE)
    await forget_member(store, ALICE)
    assert "Alice" not in await _everything(backend)
    (game,) = await store.games_of_member(BOB)
    views = (await tables.hindsight.replay(game.id)).views
    assert len(views) == 3 and tables.position(game).state.players == (FORMER, "Bob")


def test_a_name_is_replaced_as_a_whole_word() -> None:
    state = {"players": ["Al", "Alice"], "caption": "Al passes Alice; Al's turn."}
    assert _scrubbed(state, [0], {"Al"})["caption"] == f"{FORMER} passes Alice; {FORMER}'s turn."


def test_without_a_replay_names_go_from_prose_only() -> None:
    """A game stored without its deal: the player list and sentences lose the name; a value
    that merely equals it (a member called "go", a card code) is left alone."""
    state = {"players": ["go", "Bob"], "caption": "go plays Go.", "hand": ["go", "25"]}
    scrubbed = _scrubbed(state, [0], {"go"})
    assert scrubbed == {
        "players": [FORMER, "Bob"],
        "caption": f"{FORMER} plays Go.",
        "hand": ["go", "25"],
    }


async def test_the_command_line_asks_then_forgets(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await _alice_history(store)
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    # The command runs its own event loop, as from a shell: in a thread of its own here.
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    said = capsys.readouterr().out
    assert "sits in 2 stored games (0 in play); forgetting them: 2 games and 2 results" in said
    assert said.endswith("; run again with --yes to forget them\n"), said
    assert len(await store.games_of_member(ALICE)) == 2
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 0
    assert "2 games and 2 results now name a former player" in capsys.readouterr().out
    assert await store.games_of_member(ALICE) == []
    with pytest.raises(SystemExit) as exited:
        main(["forget-member", "alice"])
    assert exited.value.code == 2


async def test_the_command_line_counts_one_game_in_the_singular(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Carol sat in one game: 'sits in 1 stored game', then '1 game and 1 result'. Found by a
    review of the README against the commands: they said '1 stored games'."""
    await _alice_history(store)
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    assert await asyncio.to_thread(main, ["forget-member", str(CAROL)]) == 0
    assert "sits in 1 stored game (0 in play); forgetting them: 1 game" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["forget-member", str(CAROL), "--yes"]) == 0
    said = capsys.readouterr().out
    assert "forgotten: 1 game and 1 result now name a former player; 0 invitations" in said


async def test_a_dry_run_counts_what_forgetting_then_does(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``junction forget-member`` without ``--yes`` says the counts the real run then reports:
    games, results, invitations deleted, seats freed, and the newest invitation kept (closed,
    for its number) rather than deleted, and changes nothing. Before the fix the dry run gave
    only the games, and the real run counted the newest invitation, kept, as deleted."""
    await _alice_history(store)
    await store.create_lobby(lobby_record(host_id=ALICE, host_name="Alice"))  # deleted
    await store.create_lobby(  # an open table Carol hosts: Alice's seat is freed
        lobby_record(
            host_id=CAROL, host_name="Cy", invited=(Invitee(ALICE, "Alice"),), open_seats=3
        )
    )
    await store.create_lobby(lobby_record(invited=(Invitee(ALICE, "Alice"),)))  # the newest
    before = await _everything(backend)
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    dry = capsys.readouterr().out
    assert await _everything(backend) == before
    preview = await store.forget_preview(ALICE)
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 0
    real = capsys.readouterr().out
    assert (preview.games, preview.results, preview.lobbies, preview.seats, preview.kept) == (
        2,
        2,
        1,
        1,
        1,
    )
    assert real == (
        f"member {ALICE} forgotten: 2 games and 2 results now name a former player; "
        "1 invitation deleted; the newest invitation kept, closed, with a former player in "
        "their place; 1 seat freed at open tables\n"
    )
    assert dry == (
        f"member {ALICE} sits in 2 stored games (0 in play); forgetting them: 2 games and "
        "2 results would name a former player; 1 invitation would be deleted; the newest "
        "invitation would be kept, closed, with a former player in their place; 1 seat would "
        "be freed at open tables; run again with --yes to forget them\n"
    )
