"""Ticket to Ride Solo runs given up before their result said so (migration 0018), on SQLite
and PostgreSQL: a database at schema 17 holds Bob's daily run, given up at once (score 0), and
Alice's, played to -16. Before the migration the best-results board ranked Bob first; the
move log's ``@leave`` marks his result ``left``, and the board ranks Alice alone."""

from __future__ import annotations

import json

from bot.bests import Bests, figures_of
from tests.store.helpers import Backend

ALICE, BOB = 42, 43
GUILD = 7
DAY = '{"daily":"2026-11-28"}'


async def _old_run(
    backend: Backend, game: int, game_key: str, user: int, actions: list[str], details: str
) -> None:
    """A finished solitaire and its result as a release before the figure ``left`` wrote it."""
    await backend.raw(
        "INSERT INTO games (id, channel_id, guild_id, game_key, seats, options, state,"
        f" version, status, created_at, updated_at) VALUES ({game}, {game}, {GUILD},"
        f" '{game_key}', '[]', '{DAY}', '{{}}', {len(actions)}, 'finished', 1.0, 1.0)"
    )
    for seq, action in enumerate(actions, start=1):
        await backend.raw(
            "INSERT INTO moves (game_id, seq, seat, action, interaction_id, created_at)"
            f" VALUES ({game}, {seq}, 0, '{action}', NULL, 1.0)"
        )
    await backend.raw(
        "INSERT INTO results (game_id, game_key, guild_id, finished_at, seats, names, ranks,"
        f" scores, options, counted, details) VALUES ({game}, '{game_key}', {GUILD}, {game}.0,"
        f" '[{user}]', '[\"x\"]', '[0]', '[{json.loads(details)[0].get('score', 0)}]',"
        f" '{DAY}', FALSE, '{details}')"
    )


async def test_older_given_up_runs_leave_the_board_as_the_database_opens(
    backend: Backend,
) -> None:
    await backend.migrate_to(17)
    gave_up = '[{"tickets":0,"big_cities":0,"margin":-131,"won":0,"score":0}]'
    played = '[{"tickets":1,"big_cities":0,"margin":-147,"won":0,"score":-16}]'
    await _old_run(backend, 1, "ttr-solo", BOB, ["@leave"], gave_up)
    await _old_run(backend, 2, "ttr-solo", ALICE, ["keep T46", "take clock"], played)
    # Mille Bornes Solo's give-up keeps what it cleared, which playing on only adds to: it
    # ranks as before.
    await _old_run(backend, 3, "solo", BOB, ["@leave"], '[{"cleared":3,"won":0,"score":0}]')
    store = backend.store()
    await store.open()
    try:
        runs = {r.record.game_id: r for r in await store.results(game_key="ttr-solo")}
        assert figures_of(runs[1], 0) == {**json.loads(gave_up)[0], "left": 1}
        assert figures_of(runs[2], 0) == json.loads(played)[0]
        board = Bests("ttr-solo")
        for stored in runs.values():
            board.add(stored)
        assert [(line.player, line.shown) for line in board.lines()] == [(ALICE, -16)]
        (solo,) = await store.results(game_key="solo")
        assert "left" not in figures_of(solo, 0)
    finally:
        await store.close()
