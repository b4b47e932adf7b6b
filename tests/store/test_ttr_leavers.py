"""Ticket to Ride seats that left before their result said so (migration 0019), on SQLite and
PostgreSQL: a database at schema 18 holds older results of the standard game in which members
left. Before the migration each leaver's seat showed the 0 their score stood at (/history's
"(0)", a /stats best); the move log's ``@leave`` of that seat marks it ``left``, and only it."""

from __future__ import annotations

import json

from bot.bests import figures_of
from tests.store.helpers import Backend

GUILD = 7
ALICE, BOB, CAROL, DAN = 42, 43, 44, 45


def _seat(tickets: int, won: int, score: int) -> str:
    return f'{{"tickets":{tickets},"big_cities":0,"won":{won},"score":{score}}}'


def _details(*seats: str) -> str:
    return "[" + ",".join(seats) + "]"


async def _old_game(
    backend: Backend,
    game: int,
    members: list[int],
    moves: list[tuple[int, str]],
    details: str,
    game_key: str = "ttr",
) -> None:
    """A finished game and its result as a release before the figure ``left`` wrote it; its
    move log ``moves`` as (seat, action)."""
    await backend.raw(
        "INSERT INTO games (id, channel_id, guild_id, game_key, seats, options, state,"
        f" version, status, created_at, updated_at) VALUES ({game}, {game}, {GUILD},"
        f" '{game_key}', '[]', '{{}}', '{{}}', {len(moves)}, 'finished', 1.0, 1.0)"
    )
    for seq, (seat, action) in enumerate(moves, start=1):
        await backend.raw(
            "INSERT INTO moves (game_id, seq, seat, action, interaction_id, created_at)"
            f" VALUES ({game}, {seq}, {seat}, '{action}', NULL, 1.0)"
        )
    count = len(members)
    await backend.raw(
        "INSERT INTO results (game_id, game_key, guild_id, finished_at, seats, names, ranks,"
        f" scores, options, counted, details) VALUES ({game}, '{game_key}', {GUILD},"
        f" {game}.0, '{json.dumps(members)}', '{json.dumps(['x'] * count)}',"
        f" '{json.dumps(list(range(count)))}', '{json.dumps([0] * count)}', '{{}}', TRUE,"
        f" '{details}')"
    )


async def _details_text(backend: Backend, game: int) -> str:
    ((text,),) = await backend.raw(f"SELECT details FROM results WHERE game_id = {game}")
    return str(text)


async def test_older_leavers_are_marked_left_seat_by_seat_as_the_database_opens(
    backend: Backend,
) -> None:
    await backend.migrate_to(18)
    # Bob, the middle of three seats, left; Alice won, Carol finished below zero.
    three = _details(_seat(3, 1, 31), _seat(0, 0, 0), _seat(1, 0, -6))
    await _old_game(backend, 1, [ALICE, BOB, CAROL], [(0, "take clock"), (1, "@leave")], three)
    # Of four, the first and the last seats left (two leavers in one result).
    four = _details(_seat(0, 0, 0), _seat(2, 1, 20), _seat(1, 0, 4), _seat(0, 0, 0))
    leaves = [(3, "@leave"), (1, "take clock"), (0, "@leave")]
    await _old_game(backend, 2, [ALICE, BOB, CAROL, DAN], leaves, four)
    # Nobody left: nothing changes.
    played = _details(_seat(2, 1, 12), _seat(1, 0, 3))
    await _old_game(backend, 3, [ALICE, BOB], [(0, "take clock")], played)
    # Written after the figure: already left, not marked twice.
    marked = '[{"tickets":0,"big_cities":0,"left":1,"won":0,"score":0},' + _seat(1, 1, 9) + "]"
    await _old_game(backend, 4, [ALICE, BOB], [(0, "@leave")], marked)
    # Another game's leaver (Mille Bornes has no figure left), and a damaged result, which the
    # migration leaves as they are rather than fail on.
    mille = '[{"won":0,"score":0},{"won":1,"score":5000}]'
    await _old_game(backend, 5, [ALICE, BOB], [(0, "@leave")], mille, game_key="mille")
    await _old_game(backend, 6, [ALICE, BOB], [(1, "@leave")], "not json")
    cut = '[{"won":1,"score":9},{"won":0,"sc'
    await _old_game(backend, 7, [ALICE, BOB], [(0, "@leave")], cut)
    # Written by hand, spaced, a seat with no figures: marked all the same.
    spaced = '[ {} , {"won":1, "score":5} ]'
    await _old_game(backend, 8, [ALICE, BOB], [(0, "@leave")], spaced)
    store = backend.store()
    await store.open()
    try:
        assert await _details_text(backend, 1) == _details(
            _seat(3, 1, 31), _seat(0, 0, 0)[:-1] + ',"left":1}', _seat(1, 0, -6)
        )
        assert await _details_text(backend, 2) == _details(
            _seat(0, 0, 0)[:-1] + ',"left":1}',
            _seat(2, 1, 20),
            _seat(1, 0, 4),
            _seat(0, 0, 0)[:-1] + ',"left":1}',
        )
        unchanged = ((3, played), (4, marked), (5, mille), (6, "not json"), (7, cut))
        for game, before in unchanged:
            assert await _details_text(backend, game) == before, game
        assert json.loads(await _details_text(backend, 8)) == [
            {"left": 1},
            {"won": 1, "score": 5},
        ]
        await backend.raw("DELETE FROM results WHERE game_id IN (6, 7)")  # unreadable, as before
        (result,) = [r for r in await store.results(game_key="ttr") if r.record.game_id == 1]
        assert [figures_of(result, seat).get("left") for seat in range(3)] == [None, 1, None]
    finally:
        await store.close()
