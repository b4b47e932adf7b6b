"""A database from before migration 0005 holding a rematch invitation, opened by today's bot.

Before 0005 the invitations the Rematch button opened were told apart in one process's memory
only: the stored lobby is an ordinary invitation, and the migration leaves its ``rematch_of``
empty (nothing in the row names the game it replays). Each test stores, at schema version 4, a
finished game between Alice and Bob and Bob's invitation to its rematch as that release stored
them, with both messages (the final table's Rematch button, the invitation's buttons) in the
fake Discord; then the bot opens the database (migrating it) and members press the old buttons.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.client import JunctionBot
from bot.store.migrations import apply_migrations, load_migrations
from tests.cogs.conftest import CHALLENGE_TIMEOUT, bot_settings, running_bot
from tests.cogs.helpers import labels, replies, shown_message, stored_lobby
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    JSON,
    message_payload,
)
from tests.discord.payloads import InteractionDriver

SEATS = [
    {"seat": 0, "name": "Alice", "user_id": ALICE_ID, "policy": None},
    {"seat": 1, "name": "Bob", "user_id": BOB_ID, "policy": None},
]


def _button(label: str, custom_id: str) -> JSON:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


async def _old_database(
    path: Path, invitation_id: int, status: str, answer: str
) -> tuple[int, int]:
    """Schema 4 with the finished game and Bob's rematch invitation (``status``, Alice's
    ``answer``) as a release before 0005 stored them: the game's id and the lobby's."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await apply_migrations(db, load_migrations("sqlite")[:4])
    now = time.time()
    data = {
        "host_name": "Bob",
        "invited": [[ALICE_ID, "Alice", answer]],
        "options": {},
        "computers": 0,
        "policy": "normal",
        "thread": False,
    }
    conn = sqlite3.connect(path)
    try:
        with conn:
            game_id = conn.execute(
                "INSERT INTO games (channel_id, guild_id, game_key, seats, options, state,"
                " version, status, created_at, updated_at) VALUES"
                " (?, ?, 'mille', ?, '{}', '{}', 12, 'finished', ?, ?)",
                (GAMES_CHANNEL_ID, GUILD_ID, json.dumps(SEATS), now - 900, now - 60),
            ).lastrowid
            lobby_id = conn.execute(
                "INSERT INTO lobbies (channel_id, guild_id, host_id, game_key, data, status,"
                " expires_at, created_at, message_id) VALUES (?, ?, ?, 'mille', ?, ?, ?, ?, ?)",
                (
                    GAMES_CHANNEL_ID,
                    GUILD_ID,
                    BOB_ID,
                    json.dumps(data),
                    status,
                    now + CHALLENGE_TIMEOUT - 30,
                    now - 30,
                    invitation_id,
                ),
            ).lastrowid
    finally:
        conn.close()
    assert game_id is not None and lobby_id is not None
    return game_id, lobby_id


INVITATION_MESSAGE = 4_242
"""The id of Bob's invitation message (an old one: below every id the fake Discord hands out)."""


@dataclass
class Old:
    """What the upgraded bot finds: the driver, the finished game's id and final table's
    message, the invitation's lobby id and message."""

    driver: InteractionDriver
    game_id: int
    table: JSON
    lobby_id: int
    invitation: JSON


@contextlib.asynccontextmanager
async def _upgraded(
    tmp_path: Path, status: str = "open", answer: str = "pending"
) -> AsyncIterator[Old]:
    """The bot opening (and migrating) a database a release before 0005 left, its messages in
    the fake Discord."""
    game_id, lobby_id = await _old_database(tmp_path / "bot.db", INVITATION_MESSAGE, status, answer)
    bot = JunctionBot(bot_settings(tmp_path))
    async with InteractionDriver(bot, run_setup_hook=True, timeout=60.0) as driver:
        table = _post(
            driver,
            driver.backend.ids.next(),
            "**Mille Bornes** — Alice vs Bob\nAlice resigned. Bob wins.",
            [_button("Rematch", f"jn:r:{game_id}")],
        )
        invitation = _post(
            driver,
            INVITATION_MESSAGE,
            f"**Mille Bornes** — <@{BOB_ID}> invites ⏳ <@{ALICE_ID}>.\n"
            f"The invitation expires <t:{int(time.time()) + 270}:R>.",
            [_button(label, f"jn:l:{lobby_id}:{verb}") for label, verb in VERBS],
        )
        yield Old(driver, game_id, table, lobby_id, invitation)
    await bot.close()


VERBS = (("Accept", "a"), ("Decline", "d"), ("Start", "s"), ("Cancel", "c"))


def _post(driver: InteractionDriver, message_id: int, content: str, buttons: list[JSON]) -> JSON:
    """A message the bot posted before the upgrade, as Discord keeps it."""
    message = message_payload(
        message_id=message_id,
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        author=driver.backend.bot_user,
        content=content,
        components=[{"type": 1, "components": buttons}],
    )
    driver.backend.messages[message_id] = message
    return message


async def test_the_old_invitation_starts_the_rematch(tmp_path: Path) -> None:
    """Alice accepts Bob's invitation from before the upgrade: the game is dealt between them,
    and the invitation says so, its buttons gone."""
    async with _upgraded(tmp_path) as old:
        accepted = await old.driver.click(
            old.invitation, f"jn:l:{old.lobby_id}:a", user_id=ALICE_ID
        )
        assert not accepted.ephemeral, replies(accepted)
        game = await running_bot(old.driver).tables.store.active_game(GAMES_CHANNEL_ID)
        assert game is not None and {s.user_id for s in game.seats} == {ALICE_ID, BOB_ID}
        shown = shown_message(old.driver, old.invitation)
        assert shown["content"].endswith("✅ The game is on!") and labels(shown) == []
        lobby = await stored_lobby(old.driver, old.lobby_id)
        assert (lobby.status, lobby.game_id, lobby.rematch_of) == ("started", game.id, None)


async def test_a_rematch_press_beside_the_old_invitation_posts_one(tmp_path: Path) -> None:
    """Bob presses Rematch on the old final table while his invitation from before the upgrade
    is open: nothing in that row names the game, so a new invitation to Alice is posted (it
    holds the rematch from now on) rather than a refusal or an error."""
    async with _upgraded(tmp_path) as old:
        asked = await old.driver.click(old.table, f"jn:r:{old.game_id}", user_id=BOB_ID)
        assert not asked.ephemeral
        assert f"<@{BOB_ID}> invites <@{ALICE_ID}> (waiting)" in replies(asked)
        again = await old.driver.click(old.table, f"jn:r:{old.game_id}", user_id=ALICE_ID)
        assert again.ephemeral
        assert replies(again).startswith("bob has already asked for this rematch: answer [their")


async def test_a_rematch_press_after_the_old_invitation_started_is_refused(
    tmp_path: Path,
) -> None:
    """Once the old invitation has dealt the rematch, a Rematch press on the old final table is
    told the channel's game is running, in one sentence, only to the presser."""
    async with _upgraded(tmp_path) as old:
        await old.driver.click(old.invitation, f"jn:l:{old.lobby_id}:a", user_id=ALICE_ID)
        late = await old.driver.click(old.table, f"jn:r:{old.game_id}", user_id=BOB_ID)
        assert late.ephemeral and replies(late) == "A game is already running here."
        assert len(await running_bot(old.driver).tables.store.active_games()) == 1


async def test_an_old_invitation_cancelled_after_every_accept_reads_cancelled(
    tmp_path: Path,
) -> None:
    """An invitation from before the upgrade that Alice accepted and Bob cancelled (its start
    could not deal), its closing edit lost: a press is told it was cancelled, and the message
    closes as "Cancelled." ("This invitation is closed.", which a rematch invitation of today
    may end with, is for rows that name their rematch: the record cannot tell those apart)."""
    async with _upgraded(tmp_path, status="cancelled", answer="accepted") as old:
        late = await old.driver.click(old.invitation, f"jn:l:{old.lobby_id}:a", user_id=ALICE_ID)
        assert late.ephemeral and replies(late) == "That invitation was cancelled."
        shown = shown_message(old.driver, old.invitation)
        assert shown["content"].endswith("🛑 Cancelled.") and labels(shown) == []
