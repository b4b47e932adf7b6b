"""A solitaire's best-results board kept (``bot.kept_results`` with ``bot.bests``) answers as
the board made from every stored result, on SQLite and PostgreSQL: after new results, a result
written late and a member forgotten; and /stats' place on it the same."""

from __future__ import annotations

import gc
import random
import tracemalloc
import weakref
from pathlib import Path

from bot.bests import Bests
from bot.boards import Board, leaderboard
from bot.kept_results import KeptLadder, KeptResults
from bot.ratings import ResultRecord, Scope
from bot.render.stats import MemberStats
from bot.results import ASSISTED
from bot.store.base import GameRewrite, NumberedResults, SeatRecord, Store, StoredResult
from bot.store.sqlite import SqliteStore
from tests.store.helpers import finished_game
from tests.store.test_kept_results import ALIAS, NOW, _boards
from tests.store.test_kept_results import _replayed as _full_replay

MEMBERS = (11, 12, 13, 14, 15)
GAME = "solo"


def _figures(rng: random.Random) -> dict[str, int]:
    """A Mille Bornes Solo seat's figures; few distinct values, so that members tie."""
    cleared = rng.choice((30, 40, 49))
    return {"won": int(cleared == 49), "cleared": cleared, "score": rng.choice((500, 700))}


def _options(rng: random.Random) -> dict[str, str]:
    """Mostly the standard settings; now and then another preset or a game the computer
    helped play, which the board leaves out."""
    roll = rng.random()
    if roll < 0.15:
        return {"preset": "easy"}
    if roll < 0.25:
        return {ASSISTED: "yes"}
    if roll < 0.35:
        return {"names": "fr"}  # a display option: still the standard game
    return {}


async def _write(
    store: Store,
    rng: random.Random,
    finished_at: float,
    guild: int = 7,
    *,
    user: int | None = None,
    figures: dict[str, int] | None = None,
) -> int:
    """One finished Mille Bornes Solo game and its result (random but for what is given)."""
    user = rng.choice(MEMBERS) if user is None else user
    seats = (SeatRecord(0, f"Name {user} {rng.randrange(3)}", user, None),)
    options = _options(rng) if figures is None else {}
    game = await finished_game(
        store,
        channel_id=rng.randrange(1, 10**12),
        guild_id=guild,
        game_key=GAME,
        seats=seats,
        options=options,
    )
    figures = _figures(rng) if figures is None else figures
    record = ResultRecord(
        game_id=game.id,
        game_key=GAME,
        guild_id=guild,
        finished_at=finished_at,
        seats=(user,),
        ranks=(0 if figures["won"] else 1,),
        counted=False,
        scores=(figures["score"],),
        options=options,
        details=(figures,),
    )
    await store.record_result(record, [seats[0].name])
    return game.id


async def _season(store: Store, seed: int, count: int) -> float:
    rng = random.Random(seed)
    when = 1_000_000.0
    for _ in range(count):
        when += rng.choice((600.0, 86_400.0))
        await _write(store, rng, when, guild=rng.choice((7, 7, 8)))
    return when


async def _kept(kept: KeptResults, store: Store) -> tuple[list[Board], list[MemberStats]]:
    """The boards (this server's, every server's) and cards from the kept best boards."""
    return await _boards(kept, store, GAME)


async def _replayed(store: Store) -> tuple[list[Board], list[MemberStats]]:
    """The same boards and cards from every stored result (as the bot made them before the
    boards were kept)."""
    return await _full_replay(store, GAME)


async def test_new_results_are_added_to_the_kept_best_board(store: Store) -> None:
    """Results written after the board was read join the kept board, which then reads as the
    board of every result; the board is not read whole again."""
    kept = KeptResults()
    last = await _season(store, 1, 30)
    assert await _kept(kept, store) == await _replayed(store)
    read_whole = kept.full_reads
    rng = random.Random(2)
    for step in range(3):
        for _ in range(step + 2):
            last += 600.0
            await _write(store, rng, last)
        assert await _kept(kept, store) == await _replayed(store)
    assert kept.full_reads == read_whole


async def test_the_kept_best_board_keeps_a_members_best_result(store: Store) -> None:
    """A later, worse result leaves a member's best as it was, and counts as a game played; a
    better one replaces it."""
    kept = KeptResults()
    rng = random.Random(3)

    async def row() -> tuple[int, int | None]:
        ladder = await kept.read(store, game_key=GAME, guild_id=7)
        board = leaderboard([], game_key=GAME, guild_id=7, caller=11, now=NOW, kept=ladder)
        assert board.caller_row is not None
        return board.caller_row.value, board.caller_row.games

    for at, cleared, expected in ((1.0, 40, (40, 1)), (2.0, 30, (40, 2)), (3.0, 49, (49, 3))):
        figures = {"won": int(cleared == 49), "cleared": cleared, "score": 700}
        await _write(store, rng, at, user=11, figures=figures)
        assert await row() == expected


async def test_a_best_result_written_late_takes_its_place(store: Store) -> None:
    """A result dated before the newest kept one is counted where it finished: of two equal
    bests, the board shows the earlier."""
    kept = KeptResults()
    await _season(store, 4, 30)
    assert await _kept(kept, store) == await _replayed(store)
    await _write(store, random.Random(5), 1_000_000.0 + 86_400.0 * 2.5)
    assert await _kept(kept, store) == await _replayed(store)


async def test_a_forgotten_member_leaves_the_kept_best_board(store: Store) -> None:
    """After a member is forgotten, the kept board reads as the board of every result: their
    id is gone from it."""
    kept = KeptResults()
    await _season(store, 6, 30)
    assert await _kept(kept, store) == await _replayed(store)
    games = await store.games_of_member(12)
    rewrites = [
        GameRewrite(g.id, (SeatRecord(0, "Former player", ALIAS),), {}, None) for g in games
    ]
    await store.forget_member(12, alias=ALIAS, name="Former player", games=rewrites)
    boards, cards = await _kept(kept, store)
    assert (boards, cards) == await _replayed(store)
    assert 12 not in {row.player for row in boards[0].rows}


def _made_up(count: int, members: int) -> NumberedResults:
    rng = random.Random(9)
    results = tuple(
        StoredResult(
            ResultRecord(
                game_id=i,
                game_key=GAME,
                guild_id=7,
                finished_at=float(i),
                seats=(rng.randrange(members),),
                ranks=(1,),
                counted=False,
                scores=(rng.randrange(1_000),),
                details=({"won": 0, "cleared": rng.randrange(49), "score": rng.randrange(1_000)},),
            ),
            (f"Member {i % members}",),
            i,
            None,
        )
        for i in range(1, count + 1)
    )
    return NumberedResults(results, tuple(range(1, count + 1)), 0)


def test_what_a_best_board_counts_as_held_covers_its_memory(tmp_path: Path) -> None:
    """A kept best-results board's ``held`` is at least the memory it keeps, and not far above."""
    store = SqliteStore(tmp_path / "unused.db")
    warm = _made_up(1, members=1)
    Bests(GAME).add(warm.results[0])  # the game's modules load here, not while measured
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        ladder = KeptLadder(Scope(GAME, 7), weakref.ref(store), bests=Bests(GAME))
        ladder.take(_made_up(3_000, members=400), fresh=True)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held <= ladder.held <= 2 * held
