"""/play, /challenge and /host: what a member types to start a game.

/play deals at once (computers in the other seats, or a solitaire; today's deal on request);
/challenge checks the members invited and opens a lobby they answer with its buttons; /host
opens a lobby offering seats any member may take with its Join button.

Dependency direction: the top of the game-starting modules. It imports ``cogs.lobby`` (the
invitation), ``cogs.dealing`` (the seats and the deal), ``cogs.daily_deal``,
``cogs.seat_names``, ``cogs.choices`` and ``cogs.limits`` (how many games, tables and threads
one member may start); no cog imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.core import BadOption
from bot.engine.words import noun, plural
from bot.games import bundle
from bot.games.bundle import GameBundle
from bot.store.base import Invitee, SeatRecord
from cogs import limits
from cogs import lobby as lobby_cog
from cogs.choices import game_choices, level_choices, option_choices, parse_options
from cogs.daily_deal import daily_claim, daily_deal
from cogs.dealing import check_seats, computer_seats, deal, level_of, thread_for, vs_computers
from cogs.lobby import LegacyChallengeButton, LobbyButton, open_lobby
from cogs.pickers import register_items
from cogs.seat_names import display_name
from cogs.ui import defer, plain, quote_number

# What /play, /challenge and /host ask alike, described alike.
SHARED_DESCRIPTIONS = {
    "game": "Which game",
    "level": "How the computers play",
    "options": "Game options as name:value (see the suggestions)",
    "thread": "Play in a new thread",
}


NO_COMPUTER_LEVEL = (
    "A level says how computers play, and no computer will sit at this table: "
    "add some with computers, or leave the level out."
)
"""/challenge one member or /host with a level and no computers."""


def alone_level(title: str) -> str:
    """/play of a solitaire with a level: no computer plays there (a hint is always the game's
    best player's, and a turn the timer takes its default's), so the level would be dropped."""
    return f"{title} is played alone, with no computer to set a level for: leave the level out."


COMPUTERS = 5
"""The most computers /play, /challenge and /host offer (a game's own seats may allow fewer)."""


def _check_computers(computers: int | None) -> None:
    """Refuse fewer than no computers. Discord offers 0 to ``COMPUTERS``; a request made by
    hand is not held to it, and -1 took a seat away from the count: /challenge of two members
    to a game of two posted an invitation that could never start, /host offered a seat too
    many. More than the game seats is refused by ``check_seats``, naming the count."""
    if computers is not None and computers < 0:
        raise BadOption(f"Computers: give 0 to {COMPUTERS}.")


def _asked(count: int, word: str) -> str:
    """A count a command was given, with its noun: "2 computers", or cut past
    ``QUOTED_DIGITS`` ("10000000000… computers")."""
    return f"{quote_number(count)} {noun(count, word)}"


def _counted(asked: str, computers: int) -> list[str]:
    """The seats a command asked for, as its refusal counts them: the member first."""
    said = ["you", *([asked] if asked else [])]
    return [*said, _asked(computers, "computer")] if computers else said


def _refuse_solitaire(found: GameBundle) -> None:
    """/challenge and /host seat others: a game played alone is refused, pointing to /play."""
    if found.info.max_players == 1:
        raise BadOption(f"{found.info.title} is played alone: start it with /play.")


async def _post_lobby(
    interaction: discord.Interaction[Any],
    found: GameBundle,
    invited: Sequence[Invitee],
    *,
    computers: int,
    level: str | None,
    options: str | None,
    thread: bool,
    open_seats: int | None = None,
) -> None:
    """The lobby /challenge and /host open alike once the seats add up: the typed options and
    level read (a bad one refused with a sentence, options first), then the lobby posted.
    ``open_seats``: /host's seats any member may join."""
    if interaction.guild_id is None:
        # A direct message is the member's and the bot's alone: nobody else could see the
        # table to join it, or the invitation to answer it.
        raise BadOption(
            "Invitations and open tables are posted on a server, where other members can "
            "see them. Here, /play against the computer, or alone."
        )
    chosen = found.game.resolve_options(parse_options(options, found.info))
    policy = level_of(found, level)
    # A computer sits in a seat asked for, or a declined one while another member accepted;
    # with neither possible, a level asked for would be stored and never used, the member
    # left thinking a computer of that level would play.
    if level is not None and not computers and len(invited) < 2:
        raise BadOption(NO_COMPUTER_LEVEL)
    # A thread cannot hold a thread: asked for in one (or in any channel but a text channel),
    # the game is played right here, as /play does.
    thread = thread and isinstance(interaction.channel, discord.TextChannel)
    async with limits.seating(interaction):
        await limits.room_for(interaction, open_tables_at=lobby_cog.clock())
        # How often invitations and threads are sent is limited too: counted by open_lobby, once
        # the lobby passed its own checks.
        await open_lobby(
            interaction,
            found,
            invited,
            computers=computers,
            policy=policy,
            options=chosen,
            thread=thread,
            open_seats=open_seats,
        )


class NewGame(commands.Cog):
    """/play, /challenge and /host."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="challenge", description="Invite members to a game")
    @app_commands.describe(
        **SHARED_DESCRIPTIONS,
        member="A member you invite",
        member2="Another member",
        member3="Another member",
        member4="Another member",
        member5="Another member",
        computers="Computer players to add",
    )
    @app_commands.guild_only()  # others must see the invitation to answer it
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        member: discord.Member,
        member2: discord.Member | None = None,
        member3: discord.Member | None = None,
        member4: discord.Member | None = None,
        member5: discord.Member | None = None,
        computers: app_commands.Range[int, 0, COMPUTERS] = 0,
        level: str | None = None,
        options: str | None = None,
        thread: bool = False,
    ) -> None:
        found = bundle(game)
        _refuse_solitaire(found)
        _check_computers(computers)
        invited: list[discord.Member] = []
        for candidate in (member, member2, member3, member4, member5):
            if candidate is None:
                continue
            if candidate.bot:
                raise BadOption("Bots cannot accept invitations; add computers instead.")
            if candidate.id == interaction.user.id:
                raise BadOption("You cannot invite yourself; use /play to play the computer.")
            if any(candidate.id == other.id for other in invited):
                raise BadOption(f"{display_name(candidate)} is invited twice.")
            invited.append(candidate)
        check_seats(
            found,
            1 + len(invited) + computers,
            _counted(f"{plural(len(invited), 'member')} invited", computers),
        )
        await _post_lobby(
            interaction,
            found,
            [Invitee(m.id, display_name(m)) for m in invited],
            computers=computers,
            level=level,
            options=options,
            thread=thread,
        )

    @app_commands.command(name="host", description="Post a table any member can join")
    @app_commands.describe(
        **SHARED_DESCRIPTIONS,
        seats="Seats for members who join (default: every seat the computers leave)",
        computers="Computer players to add",
    )
    @app_commands.guild_only()  # others must see the invitation to answer it
    async def host(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        seats: app_commands.Range[int, 1, 5] | None = None,
        computers: app_commands.Range[int, 0, COMPUTERS] = 0,
        level: str | None = None,
        options: str | None = None,
        thread: bool = False,
    ) -> None:
        found = bundle(game)
        info = found.info
        _refuse_solitaire(found)
        _check_computers(computers)
        if seats is not None and seats < 1:
            # Discord offers 1 to 5; a request made by hand was told to ask for fewer computers,
            # with none asked for.
            raise BadOption("Offer at least one seat for members to join (seats: 1 or more).")
        offered = info.max_players - 1 - computers if seats is None else seats
        if offered < 1:
            raise BadOption(
                f"With {_asked(computers, 'computer')}, {info.title} has no seat left for "
                "members to join: ask for fewer computers."
            )
        check_seats(
            found,
            1 + offered + computers,
            _counted(_asked(offered, "open seat"), computers),
        )
        await _post_lobby(
            interaction,
            found,
            [],
            computers=computers,
            level=level,
            options=options,
            thread=thread,
            open_seats=offered,
        )

    @app_commands.command(name="play", description="Play against the computer, or alone")
    @app_commands.describe(
        **SHARED_DESCRIPTIONS,
        computers="Computer opponents (default: enough for a game)",
        daily="Today's deal: the same for everyone on this server, once a day",
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        computers: app_commands.Range[int, 0, COMPUTERS] | None = None,
        level: str | None = None,
        options: str | None = None,
        thread: bool = False,
        daily: bool = False,
    ) -> None:
        found = bundle(game)
        info = found.info
        _check_computers(computers)
        chosen = parse_options(options, info)
        # An unknown option refused now: in a thread, the game would otherwise open its
        # thread (and use one up) before the deal refused it, leaving the thread empty.
        found.game.resolve_options(chosen)
        rivals = max(info.min_players - 1, 0) if computers is None else computers
        # Alone in a game that seats others, the seat count's refusal says what is wrong.
        if level is not None and rivals == 0 and info.min_players == 1:
            raise BadOption(alone_level(info.title))
        seed, labels = None, None
        if daily:
            seed, labels = await daily_deal(interaction, found, chosen)
        check_seats(found, 1 + rivals, _counted("", rivals))
        name = level_of(found, level)
        me = SeatRecord(0, display_name(interaction.user), user_id=interaction.user.id)
        seats = [me, *computer_seats(1, rivals, name)]
        against = "alone" if rivals == 0 else vs_computers(rivals)
        claim = await daily_claim(interaction, found, labels)
        # Counted and dealt before the member's next request is counted (``seating``).
        async with limits.seating(interaction):
            await limits.room_for(interaction)
            if thread and isinstance(interaction.channel, discord.TextChannel):
                limits.check(interaction, limits.THREADS)
                # Opening a thread is a call Discord's rate limits may hold past the three
                # seconds it gives an answer: answer first ("thinking…", which ``deal`` turns
                # into where the game is, or ``thread_for`` takes back to refuse privately).
                await defer(interaction, thinking=True)
            target = await thread_for(interaction, thread, f"{info.title}: {me.name} {against}")
            if target is not None:
                # Counted once opened: a thread Discord refused uses none up.
                limits.count(interaction, limits.THREADS)
            headline = f"**{info.title}** — {plain(me.name)} {against}"
            if labels:
                headline += f" · daily deal {labels['daily']}"
            await deal(
                interaction,
                found,
                seats,
                chosen,
                headline,
                target=target,
                seed=seed,
                labels=labels,
                claim=claim,
            )

    # The same suggestions for every command (module-level callbacks: no cog method needed).
    for command in (play, challenge, host):
        command.autocomplete("game")(game_choices)
        command.autocomplete("level")(level_choices)
        command.autocomplete("options")(option_choices)
    del command


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NewGame(bot))
    # The invitation's buttons, old and new, answer after restarts too.
    register_items(bot, LobbyButton, LegacyChallengeButton)
