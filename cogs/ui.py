"""Buttons and table messages shared by every game.

Every button is a ``DynamicItem`` whose custom id carries what it needs (game id, version,
move), so buttons on messages from before a restart keep working with no registration per
message. A button from an earlier turn or another game gets a clear ephemeral answer.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Self, cast

import discord

from bot.engine.core import GameError
from bot.presenters import ButtonSpec, presenter
from bot.render.pool import RenderPool
from bot.store.base import StoredGame, StoreError
from bot.tables import Tables, TableUpdate
from bot.updates import outcome_line

if TYPE_CHECKING:
    from bot.client import JunctionBot

log = logging.getLogger("junction.ui")

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
MAX_BUTTONS = 25  # five rows of five


def bot_of(interaction: discord.Interaction[Any]) -> JunctionBot:
    return junction(interaction.client)


def junction(client: discord.Client) -> JunctionBot:
    """The running bot with its store, seam and renderer (cogs only ever run in it)."""
    return cast("JunctionBot", client)


async def refuse(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral sentence, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def _encode(notation: str) -> str:
    return notation.replace(" ", "+")


def _decode(text: str) -> str:
    return text.replace("+", " ")


class StatelessButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button whose custom id carries all its state, so it survives restarts.

    Subclasses give a ``template`` and say how to rebuild themselves from its match.
    """

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.from_match(match)


class MoveButton(
    StatelessButton,
    template=r"jn:m:(?P<game>\d+):(?P<version>\d+):(?P<where>[th]):(?P<move>[\w+\-.]+)",
):
    """A move, pressed on the public table (``t``) or in a private hand (``h``)."""

    def __init__(
        self, game_id: int, version: int, where: str, notation: str, spec: ButtonSpec | None
    ) -> None:
        custom_id = f"jn:m:{game_id}:{version}:{where}:{_encode(notation)}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=(spec.label if spec else notation)[:80],
            style=_STYLES[spec.style] if spec else discord.ButtonStyle.secondary,
            emoji=spec.emoji if spec else None,
            custom_id=custom_id,
        )
        super().__init__(button)
        self.game_id, self.version, self.where, self.notation = game_id, version, where, notation

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(
            int(match["game"]), int(match["version"]), match["where"], _decode(match["move"]), None
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await play_move(
            interaction,
            self.notation,
            game_id=self.game_id,
            expected_version=self.version,
            from_hand=self.where == "h",
        )


class HandButton(StatelessButton, template=r"jn:h:(?P<game>\d+)"):
    """The "My hand" button: the presser's own cards, ephemerally, with a button per move."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand",
                style=discord.ButtonStyle.primary,
                emoji="🃏",
                custom_id=f"jn:h:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        try:
            stored = await bot.tables.game_by_id(self.game_id)
            if stored.status != "active":
                raise GameError("That game has ended.")
            bot.tables.seat_of(stored, interaction.user.id)
        except GameError as error:
            await refuse(interaction, str(error))
            return
        # Answer first, draw second: the 3-second window never waits on a picture.
        await interaction.response.defer(ephemeral=True, thinking=True)
        file, view, content = await hand_message(
            bot.tables, bot.renderer, stored, interaction.user.id
        )
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)


async def hand_message(
    tables: Tables, renderer: RenderPool, stored: StoredGame, user_id: int
) -> tuple[discord.File, discord.ui.View, str]:
    """The owner's hand image, with one button per legal move (only ever sent ephemerally)."""
    game_view = tables.private_view(stored, user_id)
    shown = presenter(stored.game_key)
    png = await renderer.run(shown.hand_png, game_view)
    view = discord.ui.View(timeout=None)
    specs = shown.hand_buttons(game_view)[:MAX_BUTTONS]
    for spec in specs:
        view.add_item(MoveButton(stored.id, stored.version, "h", spec.notation, spec))
    content = "Your hand." if specs else "Your hand — it is not your turn yet."
    return discord.File(io.BytesIO(png), filename="hand.png"), view, content


async def table_view(update: TableUpdate) -> discord.ui.View:
    """The buttons under a table image: public choices and "My hand"."""
    view = discord.ui.View(timeout=None)
    if update.outcome is not None or update.game.status != "active":
        return view
    shown = presenter(update.game.game_key)
    # Ordering a solitaire's moves runs the expert's search: keep it off the event loop.
    specs = await asyncio.to_thread(shown.table_buttons, update.public)
    for spec in specs[: MAX_BUTTONS - 1]:
        view.add_item(MoveButton(update.game.id, update.game.version, "t", spec.notation, spec))
    view.add_item(HandButton(update.game.id))
    return view


def table_text(update: TableUpdate, headline: str | None = None) -> str:
    """The line(s) above the table image: what happened, and who plays next."""
    lines = [headline] if headline else []
    captions = [step.caption for step in update.steps if step.caption]
    lines.extend(captions[-6:])
    if update.outcome is not None:
        lines.append(outcome_line(update, markdown=True))
    elif update.game.status == "active":
        waiting = update.to_act
        mentions = [f"<@{s.user_id}>" for s in waiting if s.user_id is not None]
        if mentions:
            lines.append(f"{' '.join(mentions)}, your turn — press **My hand** to play.")
    return "\n".join(lines)[:1900] or "\u200b"


async def table_files(renderer: RenderPool, update: TableUpdate) -> list[discord.File]:
    """The table image, plus the score breakdown when a hand just ended."""
    shown = presenter(update.game.game_key)
    files = [
        discord.File(
            io.BytesIO(await renderer.run(shown.table_png, update.public)),
            filename="table.png",
        )
    ]
    ended = update.outcome is not None
    if ended or (
        update.previous is not None and shown.round_finished(update.previous, update.public)
    ):
        score = await renderer.run(shown.result_png, update.public)
        if score:
            files.append(discord.File(io.BytesIO(score), filename="score.png"))
    return files


async def post_table(
    interaction: discord.Interaction[Any], update: TableUpdate, headline: str | None = None
) -> None:
    """Post the table as the answer to an interaction that has been deferred or answered."""

    async def followup(**message: Any) -> discord.Message:
        return await interaction.followup.send(**message, wait=True)

    await send_table(bot_of(interaction), followup, update, headline)


async def send_table(
    bot: JunctionBot,
    send: Callable[..., Awaitable[discord.Message]],
    update: TableUpdate,
    headline: str | None = None,
) -> None:
    """Send the table message (text, images, buttons) through ``send`` and remember it."""
    message = await send(
        content=table_text(update, headline),
        files=await table_files(bot.renderer, update),
        view=await table_view(update),
    )
    await remember_table(bot, update, message.id)


async def remember_table(bot: JunctionBot, update: TableUpdate, message_id: int) -> None:
    """Keep the newest table message's id, so /history can link to it."""
    try:
        await bot.tables.store.set_message(update.game.id, message_id)
    except StoreError:
        log.warning("could not remember table message %s", message_id, exc_info=True)


async def play_move(
    interaction: discord.Interaction[Any],
    notation: str,
    *,
    game_id: int | None = None,
    expected_version: int | None = None,
    from_hand: bool = False,
) -> None:
    """Apply a move (stored before any reply), then post the new table."""
    tables = bot_of(interaction).tables
    channel_id = interaction.channel_id
    if channel_id is None:
        await refuse(interaction, "Moves are made in the game's channel.")
        return
    started = time.perf_counter()
    try:
        update = await tables.move(
            channel_id=channel_id,
            user_id=interaction.user.id,
            action=notation,
            interaction_id=str(interaction.id),
            game_id=game_id,
            expected_version=expected_version,
        )
    except GameError as error:
        await refuse(interaction, str(error))
        return
    from_button = from_hand or interaction.type is discord.InteractionType.component
    # Nothing public changed (a repeated request, or drawing instead of a coup fourré, which
    # the public table deliberately cannot tell apart): post nothing publicly, or the post
    # itself would tell the table that a choice was made.
    unseen = update.previous is not None and update.previous == update.public
    if update.repeated or unseen:
        if not from_button:
            said = "That move was already made." if update.repeated else "Done."
            await interaction.response.send_message(said, ephemeral=True)
            return
        await interaction.response.defer()
        if from_hand and not update.repeated:
            await _refresh_hand(interaction, update)
        return
    if from_button:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True)
    await post_table(interaction, update)
    if from_hand:
        await _refresh_hand(interaction, update)
    log.debug("move %s answered in %.1f ms", notation, (time.perf_counter() - started) * 1000)


async def _refresh_hand(interaction: discord.Interaction[Any], update: TableUpdate) -> None:
    """Replace the ephemeral hand the move was made from with the hand as it is now."""
    try:
        if update.game.status != "active":
            await interaction.edit_original_response(content="The game is over.", view=None)
            return
        bot = bot_of(interaction)
        file, view, content = await hand_message(
            bot.tables, bot.renderer, update.game, interaction.user.id
        )
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
    except (discord.HTTPException, GameError):
        log.debug("could not refresh a hand", exc_info=True)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (MoveButton, HandButton)
