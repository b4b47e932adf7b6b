"""Rematch: a finished game's last table offers the same game again, one press away.

The button carries only the finished game's id; everything else is looked up. Only a member who
played that game may press it, and only where no game is running. Alone against the computer (or
in a solitaire) the new game is dealt at once, with the same computers and options. With other
members it is a challenge to them — the same lobby /challenge opens, the presser hosting — since
nobody is dealt into a game they did not accept. A daily deal's rematch is an ordinary deal of the
same game: the day's deal is played once. One rematch invitation per game is open at a time,
kept by the database (``Store.open_rematch``): a second press — a double click, the other player
asking too, after a restart or in another process — is pointed at the first.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Self

import discord
from discord.ext import commands

from bot.engine.core import BadOption, GameError
from bot.games import bundle, policy_factory
from bot.store.base import Invitee, SeatRecord, StoredGame
from bot.tables import Tables
from bot.updates import TableBusy
from cogs import limits
from cogs.dealing import deal, vs_computers
from cogs.lobby import REMATCH_OF, already_asked, clock, open_lobby
from cogs.pickers import ID, REMATCH_PREFIX, GameItem, register_items, rematch_button
from cogs.seat_names import display_name
from cogs.ui import NO_PINGS, answer, bot_of, plain


class RematchButton(GameItem, template=rf"{REMATCH_PREFIX}(?P<game>{ID})"):
    """The "Rematch" button under a finished game's table (module docstring)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(rematch_button(game_id))
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        # A press may seat the presser: one at a time with their other such requests, so the
        # games-at-once count sees the game an earlier one started (``limits.seating``).
        async with limits.seating(interaction):
            await self._act(interaction)

    async def _act(self, interaction: discord.Interaction[Any]) -> None:
        old = await bot_of(interaction).tables.game_by_id(self.game_id)
        members = [s for s in old.seats if s.user_id is not None]
        if all(s.user_id != interaction.user.id for s in members):
            raise GameError("Only the players of that game can ask for a rematch.")
        if interaction.channel_id != old.channel_id:
            # The button is only under the game's last table: pressed elsewhere (a forged id),
            # it opened the rematch there, even on another server, its members seated by the
            # names they had where the game was played. Told to a player only: a forged id of
            # another's game does not learn where it was played.
            raise GameError(
                f"That button belongs to a game in another channel (<#{old.channel_id}>)."
            )
        if old.status == "active":
            raise GameError("That game is still being played.")
        if any(s.user_id < 0 for s in members if s.user_id is not None):
            # A former player (``bot.forget``): their alias is nobody to invite.
            raise GameError("A player of that game has left Junction: start a new game instead.")
        found = bundle(old.game_key)
        # The game's own settings only: labels such as the daily deal's date stay behind.
        settings = {o.name for o in found.info.options}
        options = {k: v for k, v in old.options.items() if k in settings}
        computers = [s for s in old.seats if s.is_computer]
        policy = next((s.policy for s in computers if s.policy), found.default_policy)
        # Checked now, not when the last invitee accepts: a setting or a computer level this
        # version no longer has would post an invitation that can never start. (Dealt at once,
        # the game's start checks every seat's level itself.)
        options = found.game.resolve_options(options)
        policy_factory(found.key, policy)
        # The presser takes a seat in the new game (dealt now, or hosting its invitation):
        # held to the games-at-once limit as /play is, before anything is stored.
        tables = bot_of(interaction).tables
        try:
            await limits.room_for(interaction)
        except BadOption:
            # A press that would open nothing, the rematch being asked for already, is pointed
            # at its invitation, as below the limit: the asker holds its seat already, and the
            # limit's "before starting another" would be wrong. Read only when refused.
            # (Only on a server is anyone refused: ``guild_id`` is set.)
            guild_id = interaction.guild_id or 0
            asked = next(
                (
                    lobby
                    for lobby in await tables.store.open_lobbies_of(
                        interaction.user.id, guild_id, clock()
                    )
                    if lobby.rematch_of == old.id
                ),
                None,
            )
            if asked is None:
                raise
            await answer(
                interaction,
                already_asked(asked, interaction.user.id),
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            return
        others = [
            Invitee(s.user_id, s.name)
            for s in members
            if s.user_id is not None and s.user_id != interaction.user.id
        ]
        if others:
            # The invitation was accepted and its game is being played here: a later press is
            # pointed at it ("a game is already running" would not say it is the rematch).
            if await _rematch_running(tables, interaction, old):
                raise GameError(REMATCH_RUNNING)
            # Presses at the same moment (a double click, both players asking) would each
            # post an invitation and ping the others again: the store keeps one per game.
            await open_lobby(
                interaction,
                found,
                others,
                computers=len(computers),
                policy=policy,
                options=options,
                thread=False,
                rematch_of=old.id,
            )
            return
        me = SeatRecord(0, display_name(interaction.user), user_id=interaction.user.id)
        seats = [me, *(replace(s, seat=n + 1) for n, s in enumerate(computers))]
        against = vs_computers(len(computers)) if computers else "alone"
        headline = f"**{found.info.title}** — {plain(me.name)} {against} · rematch"
        try:
            await deal(
                interaction, found, seats, options, headline, labels={REMATCH_OF: str(old.id)}
            )
        except TableBusy:
            # A second press (a double click, or later) finds the game the first one dealt:
            # "finish it, or /resign or /abort it first" asked the member to give it up.
            if await _rematch_running(tables, interaction, old):
                raise GameError(REMATCH_RUNNING) from None
            raise


REMATCH_RUNNING = (
    "The rematch is already running here: play it from its table (/table posts it again)."
)


async def _rematch_running(
    tables: Tables, interaction: discord.Interaction[Any], old: StoredGame
) -> bool:
    """Whether the game running in the presser's channel is the rematch of ``old`` a press like
    this one dealt (its ``REMATCH_OF`` label), with the presser seated."""
    if interaction.channel_id is None:
        return False
    running = await tables.store.active_game(interaction.channel_id)
    return (
        running is not None
        and running.options.get(REMATCH_OF) == str(old.id)
        and any(s.user_id == interaction.user.id for s in running.seats)
    )


async def setup(bot: commands.Bot) -> None:
    register_items(bot, RematchButton)
