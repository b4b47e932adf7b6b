"""Answering a move made with a typed /move or a button: stored first, then the new table.

Discord gives an interaction three seconds. :func:`play_move` acknowledges it once (early when
the channel keeps the move waiting or computers are about to think), posts the table as a
follow-up — or to the channel when the acknowledgement was lost — and redraws the ephemeral
hand a move was made from.

Dependency direction: below the components. ``cogs.pickers`` (the picker buttons and menus) and
``cogs.play`` (a typed /move, a hint's button) call :func:`play_move`; this module imports
``cogs.ui`` only, never ``cogs.pickers``. The hand to redraw is drawn by the caller's
``hand`` (``cogs.pickers.hand_message``), handed in rather than imported, because that hand's
own buttons call :func:`play_move` again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.engine.core import GameError
from bot.store.base import StoredGame
from bot.tables import Tables
from bot.updates import TableUpdate
from cogs.ui import (
    answered_in_time,
    bot_of,
    defer,
    post_table,
    post_table_in_channel,
    say_privately,
)

log = logging.getLogger("junction.moving")

HandMessage = Callable[
    [Tables, StoredGame, discord.Interaction[Any]],
    Awaitable[tuple[discord.File, discord.ui.View, str]],
]
"""Draws a member's hand message: its image, its pickers and the line above it."""


async def play_move(
    interaction: discord.Interaction[Any],
    notation: str,
    *,
    game_id: int | None = None,
    expected_version: int | None = None,
    shown_at: int | None = None,
    hand: HandMessage | None = None,
) -> None:
    """Apply a move (stored before any reply), then post the new table. ``shown_at``: the
    version a hand or choice was shown at, for decisions made at once (``Tables.move``).
    ``hand``: the move was made from a private message (a hand, a hint), which this draws
    again once the move is made.

    Errors are raised to the caller's handler (a component's, or the command tree's).
    """
    tables = bot_of(interaction).tables
    channel_id = interaction.channel_id
    if channel_id is None:
        raise GameError("Moves are made in the game's channel.")
    started = time.perf_counter()
    answer = _MoveAnswer(interaction, hand=hand)
    answer.acknowledge_if_kept_waiting()
    try:
        update = await tables.move(
            channel_id=channel_id,
            user_id=interaction.user.id,
            action=notation,
            interaction_id=str(interaction.id),
            game_id=game_id,
            expected_version=expected_version,
            shown_at=shown_at,
            before_computers=answer.acknowledge_before_computers,
        )
    except Exception:
        await answer.take_back_before_refusal()
        raise
    finally:
        await answer.finish_late_acknowledgement()
    if answer.shows_nothing(update):
        await answer.answer_without_table(update)
        return
    await answer.acknowledge()
    # The member who moved is at the table: it calls on them again (a second card, a safety's
    # extra turn) without a notification; in a game of days, one came with each of their moves.
    quiet = (interaction.user.id,)
    if answer.lost:
        await post_table_in_channel(interaction, update, quiet=quiet)
        return
    await post_table(interaction, update, quiet=quiet)
    if hand is not None:
        await _refresh_hand(interaction, update, hand)
    log.debug("move answered in %.1f ms", (time.perf_counter() - started) * 1000)


class _MoveAnswer:
    """How one member's move (a typed /move, a hand's button, a picker) is answered within
    Discord's three seconds: acknowledged once, early if the channel keeps it waiting or
    computers are about to think, and whether that acknowledgement was lost."""

    def __init__(self, interaction: discord.Interaction[Any], *, hand: HandMessage | None) -> None:
        self.interaction = interaction
        self.hand = hand  # made from a private message, drawn again afterwards
        self.from_button = hand is not None or interaction.type is discord.InteractionType.component
        self.answered = False
        self.lost = False  # the acknowledgement failed: this interaction can carry nothing more
        self._late_answer: asyncio.Task[None] | None = None
        self._kept_waiting: asyncio.TimerHandle | None = None

    async def acknowledge(self) -> None:
        """Acknowledge the interaction, once whoever asks first."""
        if not self.answered:
            self.answered = True  # before awaiting: the other acknowledgement must not answer too
            # Refused (Discord's three seconds ran out, or it failed): the move may be stored
            # already, and must still be shown, so the table goes to the channel instead.
            self.lost = not await answered_in_time(_acknowledge(self.interaction, self.from_button))

    def acknowledge_if_kept_waiting(self) -> None:
        """Acknowledge after ``ACKNOWLEDGE_AFTER`` seconds if the move is still unanswered."""
        # The channel is busy (a computer thinking, a timer playing a late turn) and the move
        # waits its turn: acknowledged before Discord's three seconds run out. A button's
        # refusals still reach the presser alone (a deferred update's follow-ups are private);
        # a typed /move's public "thinking…" is taken back before a refusal
        # (``take_back_before_refusal``).
        self._kept_waiting = asyncio.get_running_loop().call_later(
            ACKNOWLEDGE_AFTER, self._acknowledge_late
        )

    def _acknowledge_late(self) -> None:
        if not self.answered:
            self._late_answer = asyncio.ensure_future(self.acknowledge())

    async def acknowledge_before_computers(self) -> None:
        """``Tables.move``'s ``before_computers`` hook."""
        # The move is stored; computers answer it next, and an expert searches for a while:
        # acknowledge now so Discord's three seconds never run out while it thinks.
        await self.acknowledge()

    async def take_back_before_refusal(self) -> None:
        """The move was refused: clear the way for the refusal to be said privately."""
        self._stop_waiting()
        if self._late_answer is not None:
            # A "thinking…" still on its way to Discord is finished first: taken back before
            # it exists, it would be posted after all and carry the refusal publicly.
            with contextlib.suppress(discord.HTTPException):
                await self._late_answer
            self._late_answer = None
        if self.answered and not self.from_button and not self.lost:
            # A public "thinking…" would carry the refusal to the whole channel (the first
            # follow-up of a public deferral keeps its visibility): it goes, and the refusal
            # then comes as a private message of its own.
            await _take_back(self.interaction)

    async def finish_late_acknowledgement(self) -> None:
        """Stop the clock; an acknowledgement under way is finished, never cut short."""
        self._stop_waiting()
        if self._late_answer is not None:
            await self._late_answer

    def _stop_waiting(self) -> None:
        if self._kept_waiting is not None:
            self._kept_waiting.cancel()

    def shows_nothing(self, update: TableUpdate) -> bool:
        """Whether the move is answered without posting the table."""
        # Nothing public changed (a repeated request, or drawing instead of a coup fourré, which
        # the public table deliberately cannot tell apart): post nothing publicly, or the post
        # itself would tell the table that a choice was made.
        unseen = update.previous is not None and update.previous == update.public
        return (update.repeated or unseen) and (self.from_button or not self.answered or unseen)

    async def answer_without_table(self, update: TableUpdate) -> None:
        """Answer a move that posts nothing publicly (``shows_nothing``)."""
        if self.lost:
            return  # nothing public to post, and the member can no longer be told privately
        if not self.from_button:
            # Nothing public changed, so the change is in the member's own cards (a draw
            # chosen over a coup fourré): a bare "Done." left them to guess where to look.
            said = "That move was already made." if update.repeated else DONE_UNSEEN
            if self.answered:
                await _take_back(self.interaction)
            await say_privately(self.interaction, said)
            return
        await self.acknowledge()
        if self.hand is not None and not update.repeated and not self.lost:
            await _refresh_hand(self.interaction, update, self.hand)


DONE_UNSEEN = "Done. Press **My hand** under the table to see your cards."
"""A typed move that changed only the member's own cards, so posts no table."""

ACKNOWLEDGE_AFTER = 1.5
"""Seconds a button's press or a typed /move may wait for its channel before it is acknowledged
(Discord allows three): a quick refusal is still the member's own private answer."""


async def _take_back(interaction: discord.Interaction[Any]) -> None:
    """Delete a typed move's public "thinking…" placeholder (Discord may have lost it)."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()


async def _acknowledge(interaction: discord.Interaction[Any], from_button: bool) -> None:
    """Answer within Discord's three seconds; the table follows as a follow-up. A button's
    press shows nothing; a typed /move, "thinking…"."""
    await defer(interaction, thinking=not from_button)


async def _refresh_hand(
    interaction: discord.Interaction[Any], update: TableUpdate, hand: HandMessage
) -> None:
    """Replace the ephemeral hand the move was made from with the hand as it is now (a hand's
    button forged onto a public message leaves that message alone: it would show the hand)."""
    if not private_to_presser(interaction):
        return
    try:
        if update.game.status != "active":
            # The hand's image would still show the card just played under "Your turn".
            await interaction.edit_original_response(
                content="The game is over.", attachments=[], view=None
            )
            return
        file, view, content = await hand(bot_of(interaction).tables, update.game, interaction)
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
    except (discord.HTTPException, GameError):
        log.debug("could not refresh a hand", exc_info=True)


def private_to_presser(interaction: discord.Interaction[Any]) -> bool:
    """Whether the component pressed is on a message only the presser sees (a hand, a choice):
    ephemeral, and made for the presser. A forged id pressed under another member's private
    message must not draw the presser's cards there (Discord says whom it answered, if at all)."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return False
    made_for = message.interaction_metadata
    return made_for is None or made_for.user.id == interaction.user.id
