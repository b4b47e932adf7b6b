"""A database an older release left, with games in play, opened by today's code.

The games are those in ``tests/engine/old_saves/`` whose move log is kept: each goes in as an
older release stored it (schema version 3: the deal, the move log, the latest save, a turn
timer), then today's store migrates the database and ``Tables`` shows the table, plays on
through the seam with a button's game and version, ends the game by its members leaving,
records the result and replays it from the deal.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core import GameError
from bot.games import get_game
from bot.tables import Tables
from tests.store.helpers import Backend

OLD_SAVES = Path(__file__).parents[1] / "engine" / "old_saves"
LOGGED = [
    path for path in sorted(OLD_SAVES.glob("*.json")) if "moves" in json.loads(path.read_text())
]
OLD_SCHEMA = 3  # what releases from before daily claims, rematches and open tables left
CHANNEL, GUILD = 900, 7


def _text(text: str) -> str:
    """An SQL string literal (both dialects double a quote)."""
    return "'" + text.replace("'", "''") + "'"


def _sql(value: Any) -> str:
    """A JSON value as an SQL string literal."""
    return _text(json.dumps(value, separators=(",", ":")))


async def _old_database(backend: Backend, fixture: dict[str, Any]) -> None:
    """The fixture's game stored as a schema-3 release stored it, with a turn timer running."""
    await backend.migrate_to(OLD_SCHEMA)
    save, moves = fixture["save"], fixture["moves"]
    seats = [
        {"seat": seat, "name": name, "user_id": 1000 + seat, "policy": None}
        for seat, name in enumerate(save["players"])
    ]
    options = save.get("options", {})
    [(game_id,)] = await backend.raw(
        "INSERT INTO games (channel_id, guild_id, game_key, seats, options, state, version,"
        " status, message_id, created_at, updated_at, initial_state, turn_deadline, remind_at)"
        f" VALUES ({CHANNEL}, {GUILD}, '{fixture['game']}', {_sql(seats)}, {_sql(options)},"
        f" {_sql(save)}, {len(moves)}, 'active', 123, 1.0, 2.0, {_sql(fixture['initial'])},"
        " 4000000000.0, 3999999000.0) RETURNING id"
    )
    for seq, (seat, action) in enumerate(moves, start=1):
        await backend.raw(
            "INSERT INTO moves (game_id, seq, seat, action, interaction_id, created_at)"
            f" VALUES ({game_id}, {seq}, {seat}, {_text(action)}, 'old-{seq}', 1.5)"
        )
    await backend.raw(
        "INSERT INTO guild_settings (guild_id, turn_seconds, on_timeout, reaction_seconds)"
        f" VALUES ({GUILD}, 600, 'computer', 60)"
    )


@pytest.mark.parametrize("path", LOGGED, ids=[p.stem for p in LOGGED])
async def test_old_database_game_plays_on_and_replays(backend: Backend, path: Path) -> None:
    """The old game resumes where it stood, takes moves, ends with a result and replays."""
    fixture = json.loads(path.read_text())
    await _old_database(backend, fixture)
    game = get_game(fixture["game"])
    store = backend.store()
    await store.open()
    try:
        tables = Tables(store)
        update = await tables.table(CHANNEL)
        assert update.game.version == len(fixture["moves"]) and update.outcome is None
        rng = random.Random(path.stem)
        for _ in range(5):
            stored = await store.active_game(CHANNEL)
            assert stored is not None
            state = game.from_dict(stored.state)
            seat = rng.choice(sorted(game.to_act(state)))
            action = rng.choice(list(game.legal_actions(state, seat)))
            update = await tables.move(
                channel_id=CHANNEL,
                user_id=1000 + seat,
                action=game.format_action(action),
                interaction_id=f"new-{stored.version}",
                game_id=stored.id,
                expected_version=stored.version,
            )
            if update.outcome is not None:
                break
        for seat in range(len(fixture["save"]["players"])):
            if update.outcome is not None:
                break
            with contextlib.suppress(GameError):  # a seat that left before the upgrade
                update = await tables.leave(channel_id=CHANNEL, user_id=1000 + seat)
        assert update.outcome is not None
        finished = update.game
        assert finished.status == "finished"
        assert [r.record.game_id for r in await store.results()] == [finished.id]
        frames = (await tables.hindsight.replay(finished.id)).views
        assert len(frames) == len(await store.moves(finished.id)) + 1
    finally:
        await store.close()
