"""Leaderboards, member stats, game history and replays.

Every answer is built from the results the seam records when a game finishes; ratings are
computed in ``bot.ratings`` and never here.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import (
    HISTORY_GAMES,
    KEPT,
    PERIOD_LABELS,
    Board,
    history_lines,
    leaderboard,
    member_stats,
    since,
)
from bot.daily import daily_date, day_start
from bot.engine.core import BadOption
from bot.engine.words import plural
from bot.games import bundle
from bot.hindsight import ABORTED_NOT_REPLAYED
from bot.render.leaderboard import LeaderboardRow, leaderboard_png
from bot.render.stats import MemberStats, stats_png
from bot.replays import Inputs
from bot.store.base import StoredResult
from cogs import limits, links
from cogs.alt_text import board_text, stats_text
from cogs.choices import game_choices
from cogs.daily_deal import daily_games
from cogs.follow_ups import answer_once
from cogs.seat_names import display_name
from cogs.ui import (
    MESSAGE_LIMIT,
    NO_PINGS,
    answer,
    bot_of,
    clip,
    defer,
    plain,
    table_alt,
    whole_lines,
)

SCOPE_CHOICES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="all servers", value="global"),
]
PERIOD_CHOICES = [
    app_commands.Choice(name="all time", value="all"),
    app_commands.Choice(name="last 30 days", value="month"),
    app_commands.Choice(name="last 7 days", value="week"),
    app_commands.Choice(name="today's deal", value="daily"),
]


def _listed(option: str, value: str, choices: list[app_commands.Choice[str]]) -> None:
    """Refuse a value that is none of the option's choices, naming them."""
    if value not in {choice.value for choice in choices}:
        names = ", ".join(f"'{choice.name}'" for choice in choices)
        raise BadOption(f"{option}: choose one of {names}.")


ACCOUNT_NAME_SECONDS = 3600.0
"""How long an account's public name fetched from Discord is used before it is asked again."""
ACCOUNT_NAMES_KEPT = 2048
"""The most account names kept (the longest unused go first)."""


class AccountNames:
    """Discord accounts' public names (display name, else username), for the members a board
    across servers names who never played on the server it is shown on. A board names the same
    members request after request, and each name not in discord.py's cache is a Discord call:
    a fetched name is kept an hour."""

    def __init__(self, bot: commands.Bot, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.clock = clock
        self._kept: OrderedDict[int, tuple[str | None, float]] = OrderedDict()

    async def name(self, user_id: int) -> str | None:
        """The account's public name, as a seat would show it (``display_name``: a member
        chose it, so a right-to-left override, a pile of accents or a computer's name is
        tamed as at a table); None when Discord does not know it (kept too), or cannot be
        asked just now (asked again next time)."""
        user = self.bot.get_user(user_id)
        if user is not None:
            return display_name(user)
        kept = self._kept.get(user_id)
        if kept is not None and self.clock() - kept[1] < ACCOUNT_NAME_SECONDS:
            self._kept.move_to_end(user_id)
            return kept[0]
        try:
            fetched = await self.bot.fetch_user(user_id)
        except discord.NotFound:
            name = None
        except discord.HTTPException:
            return None
        else:
            name = display_name(fetched)
        self._kept[user_id] = (name, self.clock())
        self._kept.move_to_end(user_id)
        while len(self._kept) > ACCOUNT_NAMES_KEPT:
            self._kept.popitem(last=False)
        return name

    async def named(self, board: Board) -> Board:
        """A board across servers with the members who never played on this server named by
        their account's public name: their nicknames are other servers' own. One Discord
        cannot name keeps ``ELSEWHERE``."""
        if not board.elsewhere:
            return board
        ids = sorted(board.elsewhere)
        found = await asyncio.gather(*(self.name(user_id) for user_id in ids))
        names = {user_id: name for user_id, name in zip(ids, found, strict=True) if name}

        def renamed(row: LeaderboardRow) -> LeaderboardRow:
            name = names.get(row.player) if row.player in board.elsewhere else None
            return replace(row, name=name) if name else row

        caller = board.caller_row
        return replace(
            board,
            rows=tuple(renamed(row) for row in board.rows),
            caller_row=renamed(caller) if caller is not None else None,
        )


class Boards(commands.Cog):
    """/leaderboard, /stats, /history and /replay."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.account_names = AccountNames(bot)

    @app_commands.command(name="leaderboard", description="The best players of a game")
    @app_commands.describe(
        game="Which game", scope="This server or all servers (default: here)", period="When"
    )
    @app_commands.choices(scope=SCOPE_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        scope: str | None = None,
        period: str = "all",
    ) -> None:
        bot = bot_of(interaction)
        rules = bundle(game).game
        if scope is None:
            # Left out, the board is the one of where the member asks: in a direct message
            # there is no server's, and the games played there rank on the one across servers.
            scope = "server" if interaction.guild_id is not None else "global"
        # Discord offers only the listed choices; a request made by hand may send anything.
        _listed("Scope", scope, SCOPE_CHOICES)
        _listed("Period", period, PERIOD_CHOICES)
        if scope == "server" and interaction.guild_id is None:
            raise BadOption("Server leaderboards live in servers; use scope: all servers.")
        guild_id = interaction.guild_id if scope == "server" else None
        now = time.time()
        label = PERIOD_LABELS.get(period, "")
        if period == "daily":
            if not rules.info.daily_deal:
                raise BadOption(daily_games())
            if interaction.guild_id is None:
                # Sent to "scope: this server", refused here, the member would go round in
                # a circle between the two refusals.
                raise BadOption(
                    "Today's deal is ranked on each server's own board: ask for it there."
                )
            if guild_id is None:
                # Different deals cannot be ranked against each other, and a member on several
                # servers would have a try at the top on each.
                raise BadOption(
                    "There is no daily deal across servers: each server deals its own. "
                    "Compare it with scope: this server."
                )
            today = daily_date(now)
            label = f"Daily deal {today}"
        elif rules.info.ranking.kind == "best":
            label += " · standard settings"  # other settings do not rank (bot/boards.py)
        # A board is a ladder replayed: limited per member, one at a time (cogs/limits.py).
        with limits.limited(interaction, limits.BOARDS):
            await defer(interaction, thinking=True)
            # The all-time ladder (or best-results board) is kept and caught up with the
            # results written since (bot/kept_results.py); a period's starts at its start.
            kept = None
            results: list[StoredResult] = []
            if period == "all":
                kept = await KEPT.read(bot.store, game_key=rules.info.key, guild_id=guild_id)
            else:
                results = await bot.store.results(
                    game_key=rules.info.key,
                    guild_id=guild_id,
                    since=day_start(now) if period == "daily" else since(period, now),
                )
            if period == "daily":
                results = [r for r in results if r.record.options.get("daily") == today]
            # Ratings are recomputed from every result: CPU work for a thread, not the event loop.
            board = await asyncio.to_thread(
                partial(
                    leaderboard,
                    results,
                    game_key=rules.info.key,
                    guild_id=guild_id,
                    caller=interaction.user.id,
                    now=now,
                    here=interaction.guild_id,
                    kept=kept,
                )
            )
            board = await self.account_names.named(board)
            where = "this server" if guild_id else "all servers"
            png = await bot.renderer.run(
                leaderboard_png,
                f"{rules.info.title} — {where}",
                board.rows,
                board.caller_row,
                label,
                board.value_label,
            )
            alt = board_text(
                f"{rules.info.title} — {where}",
                board.rows,
                board.caller_row,
                label,
                board.value_label,
            )
            await answer_once(
                interaction, file=discord.File(io.BytesIO(png), "leaderboard.png", description=alt)
            )

    @app_commands.command(name="stats", description="A member's ratings and records")
    @app_commands.describe(member="Whose stats (default: yours)", game="Which game")
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        member: discord.Member | None = None,
    ) -> None:
        bot = bot_of(interaction)
        who = _whose(interaction, member)
        found = bundle(game)  # an unknown game is refused privately, before deferring
        game_key = found.key
        guild_here = interaction.guild_id is not None
        # A card replays the ladder as a board does: the same limit (cogs/limits.py).
        with limits.limited(interaction, limits.BOARDS):
            await defer(interaction, thinking=True)
            # The ladder needs every game of it (ratings depend on the opponents' games too, as on
            # /leaderboard; a solitaire's place on its best-results board, everyone's bests):
            # it is kept and caught up (bot/kept_results.py). The member's own games of any
            # kind give the favourite game.
            own = await bot.store.results(guild_id=interaction.guild_id, user_id=who.id)
            kept = await KEPT.read(bot.store, game_key=game_key, guild_id=interaction.guild_id)
            card = await asyncio.to_thread(
                partial(
                    member_stats,
                    own,
                    user_id=who.id,
                    name=display_name(who),
                    game_key=game_key,
                    guild_id=interaction.guild_id,
                    now=time.time(),
                    kept=kept,
                )
            )
            if not card.games:
                # A card of zeros and dashes says nothing: say so in words, and how to change it.
                await answer_once(
                    interaction,
                    content=clip(
                        _no_games(
                            card,
                            yours=who.id == interaction.user.id,
                            here=guild_here,
                            alone=found.info.max_players == 1,
                        )
                    ),
                    allowed_mentions=NO_PINGS,
                )
                return
            png = await bot.renderer.run(stats_png, card)
            await answer_once(
                interaction,
                file=discord.File(io.BytesIO(png), "stats.png", description=stats_text(card)),
            )

    @app_commands.command(name="history", description="A member's recent games")
    @app_commands.describe(member="Whose games (default: yours)")
    async def history(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        who = _whose(interaction, member)

        async def history_text() -> str:
            results = await bot_of(interaction).store.results(
                guild_id=interaction.guild_id, user_id=who.id, newest=HISTORY_GAMES
            )
            # The lines name the opponents: plain text, whatever their names hold.
            lines = history_lines(results, who.id, escape=plain)
            name = plain(display_name(who))
            head = f"**Recent games of {name}**"
            text = "\n".join(whole_lines(lines, MESSAGE_LIMIT - len(head) - 1, _older))
            # In a direct message the list covers every server: "here" would leave them out.
            where = " here" if interaction.guild_id is not None else ""
            return clip(f"{head}\n{text or f'{name} has no finished games{where} yet.'}")

        # A read of the server's results, which other channels' moves wait for: limited per
        # member, one at a time (cogs/limits.py).
        with limits.limited(interaction, limits.HISTORIES):
            text = await history_text()
            await answer(interaction, text, ephemeral=True, allowed_mentions=NO_PINGS)
        # A table deleted while the bot was away sent no event: its link is looked at once.
        await links.look_after_answer(interaction, text, history_text)

    @app_commands.command(name="replay", description="Watch the last finished game here again")
    async def replay(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        channel_id = interaction.channel_id
        if channel_id is None:
            raise BadOption("Replays are of games played in a channel.")
        # Refusals come before the deferral: the first follow-up of a public deferral is shown
        # to the whole channel, whatever its own flags say.
        found = await bot.tables.hindsight.last_replayable(channel_id, interaction.user.id)
        last = found.game
        # Only a game aborted after the channel's last finished one (replayable or not) is
        # the member's last game here.
        aborted = await bot.tables.hindsight.aborted_here(
            channel_id, interaction.user.id, after=found.last_finished.id
        )

        async def inputs() -> Inputs:
            return bundle(last.game_key).presenter.table_png, await bot.tables.hindsight.replay(
                last.id
            )

        # Drawing a replay is seconds of the worker that draws every channel's tables:
        # limited per member, one at a time.
        with limits.limited(interaction, limits.REPLAYS):
            # A long match takes a while to rebuild and draw: answer Discord first.
            await defer(interaction, thinking=True)
            replay = await bot.replays.gif(last.id, inputs)
        # The players' moves: a seat leaving is a step of the log (and a table of the
        # replay) but no move, and a game only given up said "(1 move)".
        moves = replay.moves
        note = f"Replay of game #{last.id} ({plural(moves, 'move') if moves else 'no moves'})."
        if replay.steps < last.version:
            note = (
                f"Replay of game #{last.id}: the first {moves} of its "
                f"{plural(replay.moves_in_log, 'move')}. "
                "The rest were played under an earlier version of the rules and cannot be "
                "shown again move by move."
            )
        if replay.sampled:
            # A long game's moves are not all shown: a member counting on seeing each one
            # would think the replay skipped or broke.
            note += (
                f" It shows {replay.tables} pictures evenly spread from the deal to the end, "
                "not one per move."
            )
        if aborted is not None:
            # The game the member just played is not the one shown: say which is, and why.
            said = ABORTED_NOT_REPLAYED.format(game=aborted.id)
            # A game of an uninstalled plug-in finished after the one shown.
            which = " that can be replayed" if found.passed_over else ""
            note = note.replace(
                f"Replay of game #{last.id}",
                f"{said[:1].upper()}{said[1:]} Replay of game #{last.id}, the last game "
                f"finished here{which}",
                1,
            )
        # The GIF ends on the game's last table: its words tell a screen reader how the game
        # ended, where the note alone said only which game it was.
        alt = note
        if replay.last is not None:
            shown = bundle(last.game_key).presenter
            alt = table_alt(shown, replay.last, f"{note}\nThe last table:")
        await answer_once(
            interaction,
            content=note,
            file=discord.File(io.BytesIO(replay.gif), "replay.gif", description=alt),
        )

    leaderboard.autocomplete("game")(game_choices)
    stats.autocomplete("game")(game_choices)


OWN_GAMES_ONLY = (
    "In a direct message only your own games are shown: ask about another member on a server "
    "you share."
)


def _whose(
    interaction: discord.Interaction[Any], member: discord.Member | discord.User | None
) -> discord.Member | discord.User:
    """Whose games /stats and /history read: the member asked about, else the asker. In a
    direct message they read every server (a member's own games wherever they play), so
    another member is refused there: any account's id can be sent, and their games on
    servers the asker is not on, with the nicknames of those servers, would be read out."""
    if member is None or member.id == interaction.user.id:
        return interaction.user
    if interaction.guild_id is None:
        raise BadOption(OWN_GAMES_ONLY)
    return member


def _no_games(card: MemberStats, *, yours: bool, here: bool, alone: bool) -> str:
    """/stats of a member with no finished game of the game asked about: a sentence, with the
    game they do play most, if any, or how to start one (a solitaire has no computer to play
    and no member to invite: /challenge refuses it)."""
    where = " on this server" if here else ""
    who = "You have" if yours else f"{plain(card.name)} has"
    text = f"{who} not finished a game of {card.scope_label}{where} yet."
    if card.favourite_game:
        whose = "Your" if yours else "Their"
        plays = plural(card.favourite_game_plays, "finished game")
        text += f" {whose} most played{where}: {card.favourite_game} ({plays})."
    elif yours and alone:
        text += " Start one with `/play`: it is played alone."
    elif yours:
        text += " Start one with `/play` (against the computer) or `/challenge` (invite members)."
    return text


def _older(count: int) -> str:
    return f"… and {plural(count, 'older game')}."


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Boards(bot))
