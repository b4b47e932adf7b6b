"""``junction void-game``: a finished game's result voided after abuse leaves ratings, every
board (all time and the periods, best-result boards) and /stats as if the game had never been
played, on SQLite and PostgreSQL, a running bot's kept ladders included; ``--undo`` puts
everything back exactly; what cannot be voided is refused in a sentence, changing nothing."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.__main__ import main
from bot.boards import Board, leaderboard, member_stats, since
from bot.kept_results import KeptResults
from bot.render.stats import MemberStats
from bot.store.base import SeatRecord, Store, StoredResult
from tests.store import test_kept_bests, test_kept_results
from tests.store.helpers import Backend, finished_game
from tests.store.test_kept_results import ALIAS, NOW, _boards

Shown = tuple[list[Board], list[MemberStats], list[Board]]


def _expected(every: list[StoredResult], game: str, now: float) -> Shown:
    """The boards, cards and period boards ``_shown`` gives, made from ``every`` result."""
    boards, cards, periods = [], [], []
    for guild in (7, None):
        here = [r for r in every if guild is None or r.record.guild_id == guild]
        results = [r for r in here if r.record.game_key == game]
        boards.append(
            leaderboard(results, game_key=game, guild_id=guild, caller=11, now=NOW, here=7)
        )
        for member in (11, 12, ALIAS):
            own = [r for r in here if member in r.record.seats]
            merged = list({r.record.game_id: r for r in (*results, *own)}.values())
            cards.append(
                member_stats(
                    merged, user_id=member, name="Me", game_key=game, guild_id=guild, now=NOW
                )
            )
        for period in ("week", "month"):
            start = since(period, now)
            recent = [r for r in results if start is None or r.record.finished_at >= start]
            periods.append(
                leaderboard(recent, game_key=game, guild_id=guild, caller=11, now=now, here=7)
            )
    return boards, cards, periods


async def _shown(kept: KeptResults, store: Store, game: str, now: float) -> Shown:
    """What the bot shows: the all-time boards and /stats cards from its kept ladders, and the
    week's and month's boards read from the store, as /leaderboard reads them."""
    boards, cards = await _boards(kept, store, game)
    periods = []
    for guild in (7, None):
        for period in ("week", "month"):
            results = await store.results(game_key=game, guild_id=guild, since=since(period, now))
            periods.append(
                leaderboard(results, game_key=game, guild_id=guild, caller=11, now=now, here=7)
            )
    return boards, cards, periods


async def _void(backend: Backend, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setenv("JUNCTION_DB", backend.url)
    # The command runs its own event loop, as from a shell: in a thread of its own here.
    return await asyncio.to_thread(main, ["void-game", *args])


def _rated_game_of_11(every: list[StoredResult]) -> StoredResult:
    return next(
        r
        for r in every
        if 11 in r.record.seats and None not in r.record.seats and r.record.guild_id == 7
    )


async def test_a_voided_result_is_rated_and_ranked_as_if_never_played(
    backend: Backend, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = await test_kept_results._season(store, seed=3, count=40, start=NOW - 40 * 86_400)
    every = await store.results()
    voided = _rated_game_of_11(every)
    kept = KeptResults()
    before = await _shown(kept, store, "dragon", last)  # the running bot's ladders, kept
    assert await _void(backend, monkeypatch, str(voided.record.game_id), "--yes") == 0
    after = await _shown(kept, store, "dragon", last)
    assert after != before
    assert after == _expected([r for r in every if r != voided], "dragon", last)
    # A bot started afresh reads the same.
    assert await _shown(KeptResults(), store, "dragon", last) == after


async def test_undo_counts_the_result_again_exactly(
    backend: Backend, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    last = await test_kept_results._season(store, seed=4, count=40, start=NOW - 40 * 86_400)
    game_id = _rated_game_of_11(await store.results()).record.game_id
    kept = KeptResults()
    before = await _shown(kept, store, "dragon", last)
    assert await _void(backend, monkeypatch, str(game_id), "--yes", "--reason", "win trading") == 0
    assert await _shown(kept, store, "dragon", last) != before
    assert await _void(backend, monkeypatch, str(game_id), "--undo", "--yes") == 0
    assert await _shown(kept, store, "dragon", last) == before
    assert await store.result_state(game_id) == ("counted", "")


async def test_a_voided_solitaire_leaves_its_best_results_board(
    backend: Backend, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(5)
    for day in range(12):
        await test_kept_bests._write(store, rng, NOW - (12 - day) * 3_600.0)
    # Member 11's best by far: their place on the board is this game's.
    best = {"won": 1, "cleared": 49, "score": 5_000}
    top = await test_kept_bests._write(store, rng, NOW - 60.0, user=11, figures=best)
    every = await store.results()
    kept = KeptResults()
    before = await _shown(kept, store, "solo", NOW)
    assert before[0][0].rows[0].player == 11
    assert await _void(backend, monkeypatch, str(top), "--yes") == 0
    after = await _shown(kept, store, "solo", NOW)
    assert after == _expected([r for r in every if r.record.game_id != top], "solo", NOW)
    assert (
        after[0][0].rows[0].player != 11 or after[0][0].rows[0].value != before[0][0].rows[0].value
    )
    assert await _void(backend, monkeypatch, str(top), "--undo", "--yes") == 0
    assert await _shown(kept, store, "solo", NOW) == before


async def test_without_yes_nothing_is_voided(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await test_kept_results._season(store, seed=6, count=5)
    game_id = (await store.results())[0].record.game_id
    assert await _void(backend, monkeypatch, str(game_id)) == 0
    said = capsys.readouterr().out
    assert f"game {game_id} (Dragon" in said
    assert "counts: ratings, boards, /stats and /history read it; run again with --yes" in said
    assert await store.result_state(game_id) == ("counted", "")


async def test_the_reason_is_kept_and_said_back(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await test_kept_results._season(store, seed=7, count=3)
    game_id = (await store.results())[0].record.game_id
    assert await _void(backend, monkeypatch, str(game_id), "--reason", "alt\naccount", "--yes") == 0
    said = capsys.readouterr().out
    assert "is voided: ratings, boards and /stats leave it out" in said
    assert "rating lines already posted stay as they were posted" in said
    assert await store.result_state(game_id) == ("voided", "alt account")
    assert await _void(backend, monkeypatch, str(game_id), "--yes") == 2
    assert "already voided (alt account); --undo counts it again" in capsys.readouterr().err


async def _refused(
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *args: str,
) -> str:
    assert await _void(backend, monkeypatch, *args) == 2
    return capsys.readouterr().err


async def test_an_unknown_game_is_refused(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    said = await _refused(backend, monkeypatch, capsys, "4242", "--yes")
    assert "there is no game 4242 in this database" in said


async def test_a_game_in_play_or_aborted_is_refused(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seats = (SeatRecord(0, "A", 11), SeatRecord(1, "B", 12))
    playing = await store.create_game(
        channel_id=1, guild_id=7, game_key="dragon", seats=seats, options={}, state={}
    )
    said = await _refused(backend, monkeypatch, capsys, str(playing.id), "--yes")
    assert f"game {playing.id} is still being played" in said
    await store.end_game(game_id=playing.id, expected_version=0, status="aborted", state={})
    said = await _refused(backend, monkeypatch, capsys, str(playing.id), "--yes")
    assert "was aborted, so it recorded no result" in said


async def test_a_finished_game_without_its_result_is_refused(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seats = (SeatRecord(0, "A", 11), SeatRecord(1, "B", 12))
    game = await finished_game(store, channel_id=1, guild_id=7, game_key="dragon", seats=seats)
    said = await _refused(backend, monkeypatch, capsys, str(game.id), "--yes")
    assert f"game {game.id} has no result recorded" in said


async def test_undoing_a_counted_result_is_refused(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await test_kept_results._season(store, seed=8, count=2)
    game_id = (await store.results())[0].record.game_id
    said = await _refused(backend, monkeypatch, capsys, str(game_id), "--undo", "--yes")
    assert "counts already: there is nothing to undo" in said


@pytest.mark.parametrize("args", [(), ("--yes",), ("--undo", "--yes")])
async def test_a_result_whose_options_are_damaged_is_refused(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
) -> None:
    """The result's options (where the void is kept) are not JSON. Found by a review of the
    operator commands against damaged rows: `junction void-game` ended in a traceback (a
    StoreError), with --yes or without. It now says so in a sentence and changes nothing."""
    await test_kept_results._season(store, seed=8, count=2)
    game_id = (await store.results())[0].record.game_id
    await backend.raw(f"UPDATE results SET options = '{{{{' WHERE game_id = {game_id}")
    row = f"SELECT options FROM results WHERE game_id = {game_id}"
    before = await backend.raw(row)
    said = await _refused(backend, monkeypatch, capsys, str(game_id), *args)
    assert said == (
        f"junction void-game: game {game_id}'s result is damaged (its options are not a JSON"
        " object), so whether it counts cannot be told and nothing was changed; mend its"
        " options in the database.\n"
    )
    assert await backend.raw(row) == before


async def test_a_result_whose_game_row_is_damaged_is_voided_all_the_same(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The game's row holds text in its start time (SQLite keeps any text in any column), its
    result is sound. Found by a review of the operator commands against damaged rows: `junction
    void-game` ended in a traceback (a ValueError) reading the game to describe it. The game is
    now described by its id alone, and its result voided."""
    if backend.name != "sqlite":
        pytest.skip("PostgreSQL keeps only a number in a number's column")
    await test_kept_results._season(store, seed=8, count=2)
    game_id = (await store.results())[0].record.game_id
    await backend.raw(f"UPDATE games SET created_at = 'x' WHERE id = {game_id}")
    assert await _void(backend, monkeypatch, str(game_id), "--yes") == 0
    assert capsys.readouterr().out.startswith(f"game {game_id} is voided: ")
    assert game_id not in [r.record.game_id for r in await store.results()]


async def test_a_database_of_a_newer_junction_is_refused(
    backend: Backend,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await test_kept_results._season(store, seed=9, count=2)
    game_id = (await store.results())[0].record.game_id
    await backend.raw(
        "INSERT INTO schema_version (version, name, applied_at)"
        " SELECT MAX(version) + 1, 'from_a_newer_junction', 0 FROM schema_version"
    )
    said = await _refused(backend, monkeypatch, capsys, str(game_id), "--yes")
    assert "junction void-game: JUNCTION_DB: cannot open the database" in said
    assert "Traceback" not in said


def test_a_game_id_that_is_no_number_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["void-game", "last"])
    assert exited.value.code == 2
    assert "a game id is a number like 1042" in capsys.readouterr().err


def test_a_long_reason_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["void-game", "3", "--reason", "x" * 201]) == 2
    assert "keep --reason to 200 characters" in capsys.readouterr().err


async def test_a_read_only_database_is_refused(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A PostgreSQL session that may not write (a replica, a read-only role): one sentence."""
    store = Backend("postgresql", pg_url).store()
    await store.open()
    try:
        await test_kept_results._season(store, seed=10, count=2)
        game_id = (await store.results())[0].record.game_id
        read_only = Backend("postgresql", f"{pg_url}?default_transaction_read_only=on")
        said = await _refused(read_only, monkeypatch, capsys, str(game_id), "--yes")
        # Opening no longer writes (the schema table is created only where it is missing), so
        # the refusal is the void's own sentence, not PostgreSQL's words from the opening.
        assert "the database is read-only here" in said and "Nothing was changed." in said
        assert "Traceback" not in said
        assert await store.result_state(game_id) == ("counted", "")
    finally:
        await store.close()
