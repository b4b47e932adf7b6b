"""A hostile review of ``junction forget-member`` (``bot.forget``), on SQLite and PostgreSQL.

Each test tries what an operator running it beside a live bot, or a member, could run into,
and holds a fix for what the review found (each docstring says what).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import bot.forget
import bot.games.registry
from bot.__main__ import main
from bot.forget import FORMER, StillPlaying, _scrubbed, forget_member
from bot.games import bundle
from bot.results import result_of
from bot.store.base import GameRewrite, SeatRecord, Store, StoredGame
from bot.store.sqlite import SqliteStore
from bot.tables import Tables
from tests.seam import finish_randomly
from tests.store.helpers import Backend, lobby_record

ALICE, BOB = 710000000000000001, 720000000000000002
GUILD = 7


def _duel() -> list[SeatRecord]:
    return [SeatRecord(0, "Alice", user_id=ALICE), SeatRecord(1, "Bob", user_id=BOB)]


async def _finished_duel(tables: Tables, channel: int, seed: int) -> None:
    update = await tables.start(
        channel_id=channel,
        guild_id=GUILD,
        game_key="mille",
        seats=_duel(),
        options={"length": "hand"},
        seed=seed,
    )
    await finish_randomly(tables, update, seed)


async def _two_finished_duels(store: Store) -> tuple[int, int]:
    """Alice beat or lost to Bob twice, in channels 1 and 2: the two games' ids, in order."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _finished_duel(tables, 1, seed=3)
    await _finished_duel(tables, 2, seed=4)
    first, second = sorted(g.id for g in await store.games_of_member(ALICE))
    return first, second


async def test_a_game_started_while_forgetting_refuses_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot is running: while the command rebuilds Alice's old games (a replay each, which
    takes a while for a long-time member), she starts a new game. Found by a hostile review of
    today's features: the command had checked for games in play before that, so it reported
    her forgotten while she sat, by id and name, in a game in play that would record a result
    under both. The store now checks again in the transaction that rewrites (holding writes to
    the games back on PostgreSQL meanwhile): a game it was not prepared for refuses it, with
    nothing changed, and the command asks again, seeing the game in play."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _finished_duel(tables, 1, seed=3)
    rewrite = bot.forget._rewrite

    async def meanwhile(store: Store, stored: StoredGame, user_id: int, alias: int) -> GameRewrite:
        if await store.active_game(9) is None:
            await tables.start(channel_id=9, guild_id=GUILD, game_key="mille", seats=_duel())
        return await rewrite(store, stored, user_id, alias)

    monkeypatch.setattr(bot.forget, "_rewrite", meanwhile)
    with pytest.raises(StillPlaying, match="game in play"):
        await forget_member(store, ALICE)
    assert len(await store.games_of_member(ALICE)) == 2
    (result,) = await store.results()
    assert ALICE in result.record.seats and "Alice" in result.names


async def test_forgetting_twice_is_harmless(store: Store) -> None:
    """The operator runs the command again (or on an id nobody has): nothing to change, and
    the former player's rows from the first run stay as they were."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _finished_duel(tables, 1, seed=3)
    await forget_member(store, ALICE)
    before: Any = (await store.results(), await store.games_of_member(BOB))
    done = await forget_member(store, ALICE)
    assert (done.games, done.results, done.lobbies) == (0, 0, 0)
    assert (await store.results(), await store.games_of_member(BOB)) == before


async def test_a_game_no_longer_installed_is_renamed_in_place(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice played a plug-in game (the toy Relay) that the operator has since uninstalled.
    Found by a hostile review of today's features: the command stopped with a traceback
    ("There is no game called 'relay'") and could not forget her at all. A game whose rules
    are gone is now renamed where it stands (its player list and captions), like a stacked
    deal, and the rest of her rows are forgotten as usual."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    seats = [*_duel(), SeatRecord(2, "Cy", user_id=730000000000000003)]
    update = await tables.start(channel_id=4, guild_id=GUILD, game_key="relay", seats=seats, seed=1)
    await finish_randomly(tables, update, 1)
    monkeypatch.delitem(bot.games.registry._BUNDLES, "relay")
    done = await forget_member(store, ALICE)
    assert (done.games, done.results) == (1, 1)
    (game,) = await store.games_of_member(BOB)
    assert "Alice" not in repr((game, await store.initial_state(game.id)))
    assert str(ALICE) not in repr(await store.results())


async def test_a_result_recorded_after_the_forgetting_names_the_former_player(
    store: Store,
) -> None:
    """Alice's last game ends as the command runs: the bot stores the game as finished, the
    command rewrites it (it is no longer in play), and only then does the bot record its
    result, from the seats it read before. Found by a hostile review of today's features: the
    result was stored with her id and name after she had been forgotten. A result now takes
    its seats from the game's stored row, in the same transaction, so a seat forgotten
    meanwhile is recorded as its former player."""
    tables = Tables(store, clock=lambda: 1_000_000.0, record_results=False)
    update = await tables.start(
        channel_id=1,
        guild_id=GUILD,
        game_key="mille",
        seats=_duel(),
        options={"length": "hand"},
        seed=3,
    )
    ended = (await finish_randomly(tables, update, 3)).game  # what the bot holds in memory
    outcome = tables.position(ended).game.outcome(tables.position(ended).state)
    assert outcome is not None
    await forget_member(store, ALICE)
    late = result_of(ended, outcome, 1_000_000.0, moves=ended.version)
    await store.record_result(late, [seat.name for seat in ended.seats])
    (result,) = await store.results()
    assert ALICE not in result.record.seats and "Alice" not in result.names
    assert result.names == (FORMER, "Bob") and result.record.seats[1] == BOB


async def test_a_member_who_left_a_game_in_play_is_told_so(store: Store) -> None:
    """Alice resigned from a three-driver Dragon arena that Bob and Cy play on. The command
    refuses her while the game is in play, as it must. Found by a hostile review of today's
    features: its answer told the operator she could /resign, which she had done; it now says
    she can no longer /resign from that game, the others are still playing it, and a moderator
    can /abort it."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    seats = [*_duel(), SeatRecord(2, "Cy", user_id=730000000000000003)]
    await tables.start(channel_id=6, guild_id=GUILD, game_key="dragon", seats=seats, seed=2)
    await tables.leave(channel_id=6, user_id=ALICE)
    assert (await store.active_game(6)) is not None
    with pytest.raises(StillPlaying, match="which they can no longer /resign from") as told:
        await forget_member(store, ALICE)
    assert "they can /resign" not in str(told.value)


async def test_a_driver_out_of_the_race_is_not_told_to_resign(store: Store) -> None:
    """Alice's car is out of a three-driver arena that Bob and Cy race on; the rules refuse her
    /resign ("Your driver is already out of the race"). Found by a hostile review of today's
    features: the refusal still told the operator she could /resign. Whether she may is now
    asked of the game's own rules."""
    game = bundle("dragon").game
    state = game.new_game(["Bob", "Alice", "Cy"], 2, None)
    state.cars[1].alive = False
    seats = [SeatRecord(0, "Bob", user_id=BOB), SeatRecord(1, "Alice", user_id=ALICE)]
    seats.append(SeatRecord(2, "Cy", user_id=730000000000000003))
    await store.create_game(
        channel_id=6,
        guild_id=GUILD,
        game_key="dragon",
        seats=seats,
        options={},
        state=game.to_dict(state),
    )
    with pytest.raises(StillPlaying, match="which they can no longer /resign from") as told:
        await forget_member(store, ALICE)
    assert "they can /resign" not in str(told.value)


async def test_a_dry_run_says_a_game_in_play_stops_the_real_one(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Alice is still playing Bob. `junction forget-member` without --yes said "(1 in play);
    forgetting them: …; run again with --yes to forget them", and run again with --yes it
    refused (exit status 2), naming the game only then. The dry run now says so in place of
    "run again", with the same sentence, and still changes nothing."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await tables.start(channel_id=6, guild_id=GUILD, game_key="mille", seats=_duel(), seed=2)
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    dry = capsys.readouterr().out
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 2
    refused = capsys.readouterr().err.removeprefix("junction forget-member: ")
    assert refused.startswith(f"Member {ALICE} is still seated in a game in play (game "), refused
    assert "run again with --yes" not in dry, dry
    assert dry.startswith(f"member {ALICE} sits in 1 stored game (1 in play); forgetting them: ")
    assert dry.endswith(f"; not now: {refused}"), dry
    assert len(await store.games_of_member(ALICE)) == 1


async def test_a_game_whose_options_are_damaged_is_forgotten_too(
    store: Store, backend: Backend
) -> None:
    """Alice's finished game with Bob has its options column damaged (its seats read). Found
    by a second read of the damaged-rows change: the game read back with no seats, so the
    command never prepared it, the store's check found her id in its seats all the same, and
    each of the three tries ended "Member … kept starting games while being forgotten; try
    again.", so she could never be forgotten. Seats that read are kept: the game is renamed
    where it stands, as a game with no rules to replay it is."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _finished_duel(tables, 1, seed=3)
    (game,) = await store.games_of_member(ALICE)
    await backend.raw(f"UPDATE games SET options = '{{{{' WHERE id = {game.id}")
    done = await forget_member(store, ALICE)
    assert (done.games, done.results) == (1, 1)
    assert await store.games_of_member(ALICE) == []
    (kept,) = await store.games_of_member(BOB)
    assert [seat.name for seat in kept.seats] == [FORMER, "Bob"]
    assert "Alice" not in repr((kept, await store.initial_state(kept.id)))
    assert str(ALICE) not in repr(await store.results())


async def test_a_game_in_play_whose_options_are_damaged_stops_the_dry_run(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Alice sits in a game in play whose options are damaged. The dry run said "(0 in
    play) … run again with --yes to forget them", not seeing the game; it now names it, as the
    real run refuses it (a moderator can /abort a damaged game)."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    update = await tables.start(
        channel_id=6, guild_id=GUILD, game_key="mille", seats=_duel(), seed=2
    )
    await backend.raw(f"UPDATE games SET options = '{{{{' WHERE id = {update.game.id}")
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    dry = capsys.readouterr().out
    assert "run again with --yes" not in dry, dry
    assert f"not now: Member {ALICE} is still seated in a game in play (game " in dry, dry


def test_no_database_where_the_command_looks_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The operator runs the command in a shell without the bot's JUNCTION_DB (it defaults to
    ./junction.db) or with a typo in it. Found by a hostile review of today's features: it
    created an empty database there and answered "member … forgotten: 0 games and 0 results",
    exit status 0, while the bot's database still held everything. A SQLite file that does
    not exist is now refused (exit status 2), and none is created."""
    missing = tmp_path / "junction.db"
    monkeypatch.setenv("JUNCTION_DB", f"sqlite:///{missing}")
    assert main(["forget-member", str(ALICE), "--yes"]) == 2
    assert "there is no database at" in capsys.readouterr().err
    assert not missing.exists()


def test_no_database_refusal_says_what_to_set_junction_db_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by a review of the README against the commands: the refusal broke off mid-sentence
    ("set JUNCTION_DB to the bot's"), leaving the operator to guess the rest."""
    monkeypatch.setenv("JUNCTION_DB", f"sqlite:///{tmp_path / 'junction.db'}")
    assert main(["forget-member", str(ALICE)]) == 2
    told = capsys.readouterr().err
    assert told.endswith("set JUNCTION_DB to the bot's database and run it again.\n")


def test_an_unknown_database_scheme_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``JUNCTION_DB=foo://x``: found by a review of the README against the code, the command
    printed a traceback (exit status 1) where every other command says what is wrong in one
    line naming the variable, with exit status 2, as the README promises."""
    monkeypatch.setenv("JUNCTION_DB", "foo://x")
    assert main(["forget-member", str(ALICE), "--yes"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("junction forget-member: JUNCTION_DB: ") and "\n" not in err, err
    assert "Traceback" not in err


def test_another_players_longer_name_is_left_alone() -> None:
    """Sam is forgotten from a game that must be renamed in place (a stacked deal, one stored
    before a rules fix); the other player is "Sam (2)", as two members called Sam are now
    numbered when a game is dealt. Found by a hostile review of today's features: the whole-word
    rename turned the other player's captions into "Former player (2) drives…". A name that
    is part of another seat's longer name is now left as that seat's."""
    state = {"players": ["Sam", "Sam (2)"], "caption": "Sam (2) passes Sam; Sam's turn."}
    scrubbed = _scrubbed(state, [0], {"Sam"})
    assert scrubbed["caption"] == f"Sam (2) passes {FORMER}; {FORMER}'s turn."
    assert scrubbed["players"] == [FORMER, "Sam (2)"]


async def test_two_members_forgotten_from_one_game_keep_apart(store: Store) -> None:
    """Alice and then Bob ask to be forgotten after their game. Both were called "Former
    player", so the game's captions read "Former player plays Accident on Former player".
    The second is now "Former player (2)", in the seats, the replayed states and the result."""
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _finished_duel(tables, 1, seed=3)
    await forget_member(store, ALICE)
    await forget_member(store, BOB)
    second = f"{FORMER} (2)"
    (result,) = await store.results()
    assert result.names == (FORMER, second)
    game = await store.get_game(result.record.game_id)
    assert game is not None and [seat.name for seat in game.seats] == [FORMER, second]
    assert tables.position(game).state.players == (FORMER, second)
    views = (await tables.hindsight.replay(game.id)).views
    assert any(second in view.caption for view in views)


async def test_the_sqlite_file_keeps_no_copy_beside_a_running_bot(tmp_path: Path) -> None:
    """The bot runs on the file while the command forgets Alice. Found by an operator's
    security review: the command's changes waited in the -wal file, and the database file
    still held her id and name (and the -wal her earlier moves) until SQLite next checkpointed
    by itself, hours later on a quiet server; a copy of junction.db taken meanwhile had them."""
    running = SqliteStore(tmp_path / "junction.db")
    await running.open()
    try:
        await _finished_duel(Tables(running, clock=lambda: 1_000_000.0), 1, seed=3)
        command = SqliteStore(tmp_path / "junction.db")
        await command.open()
        try:
            await forget_member(command, ALICE)
        finally:
            await command.close()
        files = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    finally:
        await running.close()
    assert "junction.db" in files
    for held in files.values():
        assert b"Alice" not in held and str(ALICE).encode() not in held


def test_a_dry_run_reads_a_database_it_may_not_write() -> None:
    """``junction forget-member`` without ``--yes``, run by an account that may read the
    database but not write it, says what forgetting would change and leaves the file and its
    folder as they were. Before the fix it was refused ("attempt to write a readonly
    database"): opening the store writes to it, though a dry run only reads. Run as another
    account than root, which may write anything."""
    import tempfile

    from tests.store.helpers import SEATS
    from tests.store.test_migrate import _read_only_source
    from tests.test_cli_hostile import as_nobody, skip_unless_nobody_can_run

    skip_unless_nobody_can_run()
    with tempfile.TemporaryDirectory() as place:  # pytest's own folder is root's alone
        folder = Path(place)
        folder.chmod(0o777)
        database = _read_only_source(folder)
        before = database.read_bytes()
        member = SEATS[0].user_id
        done = as_nobody("forget-member", str(member), env={"JUNCTION_DB": f"sqlite:///{database}"})
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(
            f"member {member} sits in 1 stored game (1 in play); forgetting them: 1 game and "
            "0 results would name a former player; 0 invitations would be deleted; not now: "
            f"Member {member} is still seated in a game in play"
        ), done.stdout
        assert database.read_bytes() == before
        assert [p.name for p in database.parent.iterdir()] == ["j.db"]


async def test_a_hand_written_seat_is_forgotten_though_the_index_names_nobody(
    store: Store, backend: Backend
) -> None:
    """A result whose seats hold Alice's id written by hand, as text (``["7…1",null]``):
    ``result_members`` (migration 0017) names nobody for it, but forgetting her still rewrites
    it, as it reads the seats themselves (``Store.forget_member``). Were it to find her results
    through the index instead, her id would stay in this row and the command say it had
    forgotten her; this holds the reason it does not."""
    await backend.raw(
        "INSERT INTO games (id, channel_id, guild_id, game_key, seats, options, state,"
        f" version, status, created_at, updated_at) VALUES (1, 1, {GUILD}, 'mille', '[]',"
        " '{}', '{}', 1, 'finished', 1.0, 1.0)"
    )
    await backend.raw(
        "INSERT INTO results (game_id, game_key, guild_id, finished_at, seats, names, ranks,"
        f" scores, options, counted, details) VALUES (1, 'mille', {GUILD}, 1.0,"
        f" '[\"{ALICE}\",null]', '[\"Alice\",\"Computer\"]', '[0,1]', '[]', '{{}}', FALSE, '[]')"
    )
    assert await backend.raw("SELECT user_id FROM result_members") == []
    assert (await store.forget_preview(ALICE)).results == 1
    assert (await forget_member(store, ALICE)).results == 1
    [(seats, names)] = await backend.raw("SELECT seats, names FROM results")
    assert str(ALICE) not in seats and "Alice" not in names, (seats, names)


@pytest.mark.parametrize(
    ("column", "damage"),
    [
        ("seats", f'{{"0":{ALICE}}}'),  # JSON, not a list
        ("seats", f'[{ALICE},"x"]'),  # a list, with a seat that is no user id
        ("names", "[[["),  # the names, not JSON
    ],
)
async def test_a_damaged_result_is_named_and_the_rest_forgotten(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    column: str,
    damage: str,
) -> None:
    """One of Alice's two results has its seats or names damaged. Found by a review of the
    operator commands against damaged rows: `junction forget-member`, with --yes or without,
    ended in a traceback (a StoreError, or a ValueError for ``[id,"x"]``) and forgot her
    nowhere. Now both runs name the result they cannot read, the real one forgets her in
    everything else, leaves that row exactly as it was, and exits 1, as the job is not whole."""
    damaged, sound = await _two_finished_duels(store)
    await backend.raw(f"UPDATE results SET {column} = '{damage}' WHERE game_id = {damaged}")
    row = f"SELECT seats, names FROM results WHERE game_id = {damaged}"
    before = await backend.raw(row)
    monkeypatch.setenv("JUNCTION_DB", backend.url)

    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    dry = capsys.readouterr()
    assert dry.err == ""
    assert dry.out.endswith(
        f"1 result would name a former player; 0 invitations would be deleted; the result of"
        f" game {damaged} would be left as it is: it is damaged (this version cannot read it)"
        " and may still hold their id; mend or delete it in the database; run again with"
        " --yes to forget them\n"
    ), dry.out

    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 1
    done = capsys.readouterr()
    assert done.out == (
        f"member {ALICE} forgotten: 2 games and 1 result now name a former player;"
        " 0 invitations deleted\n"
    )
    assert done.err == (
        f"junction forget-member: The result of game {damaged} was left as it is: it is"
        " damaged (this version cannot read it) and may still hold their id; mend or delete"
        " it in the database.\n"
    )
    assert await store.games_of_member(ALICE) == []
    assert await backend.raw(row) == before
    [(seats, names)] = await backend.raw(
        f"SELECT seats, names FROM results WHERE game_id = {sound}"
    )
    assert str(ALICE) not in seats and "Alice" not in names, (seats, names)


async def test_a_game_whose_seats_are_damaged_is_named_and_the_rest_forgotten(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One of Alice's finished games has seats that are not JSON (cut short). Found by the
    same review: the dry run left it out unsaid ("1 stored game"), and the real run ended in
    a traceback (a StoreError from the check for games started meanwhile), forgetting her
    nowhere. Both now name its seats; her other game and both results are forgotten."""
    damaged, _ = await _two_finished_duels(store)
    seats = f"SELECT seats FROM games WHERE id = {damaged}"
    [(text,)] = await backend.raw(seats)
    await backend.raw(f"UPDATE games SET seats = '{text[:-1]}' WHERE id = {damaged}")
    monkeypatch.setenv("JUNCTION_DB", backend.url)

    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    dry = capsys.readouterr().out
    assert f"; the seats of game {damaged} would be left as they are: they are damaged" in dry

    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 1
    told = capsys.readouterr()
    assert told.out.startswith(f"member {ALICE} forgotten: 1 game and 2 results now name ")
    assert told.err.startswith(
        f"junction forget-member: The seats of game {damaged} were left as they are: they are"
    ), told.err
    assert await backend.raw(seats) == [(text[:-1],)]
    assert str(ALICE) not in repr(await store.results())


async def test_a_game_whose_deal_is_damaged_is_named_and_the_rest_forgotten(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One of Alice's games has its initial state (the deal /replay starts from) cut short.
    Found by a review of the operator commands against damaged rows: the dry run said nothing
    of it and the real run ended in a traceback (a StoreError), forgetting her nowhere. The
    deal is now kept exactly as it was and named; her seats, the game's final state and both
    results are forgotten."""
    damaged, _ = await _two_finished_duels(store)
    deal = f"SELECT initial_state FROM games WHERE id = {damaged}"
    [(text,)] = await backend.raw(deal)
    await backend.raw(f"UPDATE games SET initial_state = '{text[:40]}' WHERE id = {damaged}")
    monkeypatch.setenv("JUNCTION_DB", backend.url)

    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    dry = capsys.readouterr().out
    assert f"; the deal of game {damaged} would be left as it is: it is damaged" in dry, dry

    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 1
    told = capsys.readouterr()
    assert told.out.startswith(f"member {ALICE} forgotten: 2 games and 2 results now name ")
    assert told.err.startswith(
        f"junction forget-member: The deal of game {damaged} was left as it is: it is damaged"
    ), told.err
    assert await backend.raw(deal) == [(text[:40],)]
    assert await store.games_of_member(ALICE) == []
    game = await store.get_game(damaged)
    assert game is not None and "Alice" not in repr(game)
    assert str(ALICE) not in repr(await store.results())


async def test_a_game_whose_move_log_is_damaged_is_forgotten_too(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A move of Alice's finished game has its seat written as text (SQLite keeps any text
    in any column). Found by the same review: the real run ended in a traceback (a
    ValueError from the move log), forgetting her nowhere. A move holds no name, so the game
    is renamed where it stands, as one that cannot be replayed is, and the run is whole."""
    if backend.name != "sqlite":
        pytest.skip("PostgreSQL keeps only a number in a number's column")
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _finished_duel(tables, 1, seed=3)
    (game,) = await store.games_of_member(ALICE)
    await backend.raw(f"UPDATE moves SET seat = 'x' WHERE game_id = {game.id} AND seq = 1")
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 0
    assert capsys.readouterr().err == ""
    assert await store.games_of_member(ALICE) == []
    kept = await store.get_game(game.id)
    assert kept is not None and "Alice" not in repr((kept, await store.initial_state(game.id)))


async def test_a_game_row_damaged_past_reading_is_one_sentence(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Alice's game has its start time written as text (SQLite keeps any text in any
    column), so the game row cannot be read at all. Found by a review of the operator commands
    against damaged rows: both runs ended in a traceback (a ValueError). Without the game,
    nothing can say what forgetting would change, so both now say which row stops them, in one
    sentence, and change nothing (exit status 1)."""
    if backend.name != "sqlite":
        pytest.skip("PostgreSQL keeps only a number in a number's column")
    tables = Tables(store, clock=lambda: 1_000_000.0)
    await _finished_duel(tables, 1, seed=3)
    (game,) = await store.games_of_member(ALICE)
    await backend.raw(f"UPDATE games SET created_at = 'x' WHERE id = {game.id}")
    before = await backend.raw("SELECT seats, names FROM results")
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    for run in ([], ["--yes"]):
        assert await asyncio.to_thread(main, ["forget-member", str(ALICE), *run]) == 1
        told = capsys.readouterr()
        assert told.out == ""
        assert told.err == (
            f"junction forget-member: stored game {game.id} is damaged (could not convert"
            " string to float: 'x'); nothing was changed: mend or delete it in the database"
            " and run it again.\n"
        )
    assert await backend.raw("SELECT seats, names FROM results") == before


@pytest.mark.parametrize("damage", ["[[[{ALICE}", '{{"invited":[["{ALICE}x","Alice"]]}}'])
async def test_an_invitation_whose_data_is_damaged_is_forgotten_too(
    store: Store,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    damage: str,
) -> None:
    """An old invitation of Bob's holds Alice's id in data that cannot be read (not JSON, or
    an invitee whose id is no number). Found by a review of the operator commands against
    damaged rows: both runs of `junction forget-member` stopped on it (a traceback, then a
    sentence with nothing forgotten). It now goes as any invitation naming her does, and the
    newer one she is not in stays."""
    old = await store.create_lobby(lobby_record(host_id=BOB, host_name="Bob"))
    newest = await store.create_lobby(lobby_record(host_id=BOB, host_name="Bob"))
    text = damage.format(ALICE=ALICE).replace("'", "''")
    await backend.raw(f"UPDATE lobbies SET data = '{text}' WHERE id = {old.id}")
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE)]) == 0
    assert "; 1 invitation would be deleted; " in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["forget-member", str(ALICE), "--yes"]) == 0
    told = capsys.readouterr()
    assert told.err == "" and "; 1 invitation deleted" in told.out, told
    assert await backend.raw("SELECT id FROM lobbies") == [(newest.id,)]
