"""Starting games: /play (with computers), /challenge (members, with a lobby), the daily deal.

A challenge is a lobby stored in the database: who hosts, who is invited, how each answered,
the options. Its buttons carry only the lobby's id and a verb, so a forged id can name no
players and no options — everything is looked up, and only the invited member may answer,
only the host may start or cancel. The lobby starts by itself when everyone accepted; when
someone declined, the host may start with computers in their seats. Lobbies expire.
"""

from __future__ import annotations

import logging
import re
import time
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import message_link
from bot.daily import daily_date, daily_secret, daily_seed, day_start
from bot.engine.core import BadOption, GameError, players_wanted
from bot.engine.words import plural
from bot.games import all_bundles, bundle, get_policy
from bot.games.bundle import GameBundle
from bot.names import looks
from bot.render.common import few_marks
from bot.seats import computer_names
from bot.store.base import (
    Answer,
    DailyClaim,
    Invitee,
    LobbyRecord,
    SeatRecord,
    StaleVersion,
    Store,
)
from bot.tables import DAILY_DEALT
from cogs.choices import game_choices, level_choices, option_choices, parse_options
from cogs.pickers import ID, GameItem, register_items
from cogs.ui import (
    NO_PINGS,
    answered_in_time,
    bot_of,
    clip,
    pings,
    plain,
    post_table,
    post_table_in_channel,
    send_table,
)

log = logging.getLogger("junction.lobby")

NO_THREAD = (
    "I could not create a thread here (is the Create Public Threads permission missing?). "
    "Try again without a thread."
)


def _now() -> float:
    """The clock lobbies expire by (a function so tests can move it)."""
    return time.time()


_JOINERS = {"\u200c", "\u200d"}
"""Invisible characters a name keeps: the zero-width (non-)joiners spell Persian and Indic
words and join emoji sequences (👩‍🚀)."""
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
"""Letters that draw nothing (the Hangul fillers, the blank Braille pattern): a name made of
them looks empty."""


_DISCORD_SYNTAX = re.compile(r"<(?=[@#:/]|a:|t:)")
"""Where Discord reads a mention, channel, emoji, timestamp or command out of message text."""


def _kept(char: str) -> bool:
    """Whether a name keeps ``char``: not an invisible format character (category Cf) other
    than a joiner or an emoji tag (the flag of Scotland spells its region in tags)."""
    return (
        unicodedata.category(char) != "Cf"
        or char in _JOINERS
        or "\U000e0020" <= char <= "\U000e007f"
    )


def _seat_name(name: str) -> str:
    """``name`` as a seat shows it: format characters out, no piles of accents, one line, at
    most 32 characters.

    A right-to-left override (U+202E) in a name would turn every caption, image line and
    text table it appears in backwards after it ("yalp ot Alice"), and zero-width characters
    only hide what a name really is. A "Zalgo" name (a letter under thirty combining marks)
    would smear the bot's messages and buttons over the lines around them: it keeps the
    accents any language needs, as the images draw it (``few_marks``). A name spelling
    Discord's own syntax (``<@id>``, ``<#id>``, ``<t:…>``) would show in the bot's messages as
    another member, a channel or a time: its "<" becomes "‹", so it shows as typed."""
    kept = " ".join(few_marks("".join(char for char in name if _kept(char))).split())[:32]
    return _DISCORD_SYNTAX.sub("‹", kept)


def _visible(name: str) -> bool:
    """Whether ``name`` shows anything: a letter, digit, symbol or punctuation mark that draws."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK for c in name)


_COMPUTER = re.compile(r"computer\d*\(.+\)")
"""What a computer's seat is called ("Computer (normal)", "Computer 2 (expert)"), as ``looks``
reads a name: case, width and spaces aside."""


def _passes_for_a_computer(name: str) -> bool:
    """Whether ``name`` reads like a computer's seat. A member so named took the computer's
    name at the table and the computer was numbered instead ("Computer 2 (expert) (2)"), so
    every caption, target button and result line said the member was the computer."""
    return _COMPUTER.fullmatch(looks(name)) is not None


def display_name(user: discord.abc.User) -> str:
    """A member's name for a seat: their server name as :func:`_seat_name` shows it, or their
    username when that name shows nothing (only spaces or invisible characters) or passes for
    a computer's."""
    for name in (user.display_name, user.name):
        shown = _seat_name(name or "")
        if _visible(shown) and not _passes_for_a_computer(shown):
            return shown
    return "Player"


def _computer_seats(start: int, count: int, level: str) -> list[SeatRecord]:
    """``count`` computers playing at ``level``, seated from ``start`` on."""
    names = computer_names(count, level)
    return [SeatRecord(start + i, name, policy=level) for i, name in enumerate(names)]


def vs_computers(count: int) -> str:
    """The headline's opponents when they are all computers: "vs the computer", or
    "vs 2 computers" (a table of three cars is not one computer)."""
    return "vs the computer" if count == 1 else f"vs {count} computers"


def _check_seats(found: GameBundle, seats: int) -> None:
    info = found.info
    if not info.min_players <= seats <= info.max_players:
        wanted = players_wanted(info.min_players, info.max_players)
        raise BadOption(f"{info.title} is played by {wanted}, not {seats}.")


def _level(found: GameBundle, level: str | None) -> str:
    name = (level or found.default_policy).strip().lower()
    get_policy(found.key, name)  # an unknown level is a readable BadOption
    return name


async def _daily_deal(
    interaction: discord.Interaction[Any], found: GameBundle, options: dict[str, str]
) -> tuple[int, dict[str, str]]:
    """Today's seed for this server and game, refusing a member who already played it."""
    if not found.info.daily_deal:
        daily = [b.info.title for b in all_bundles() if b.info.daily_deal]
        raise BadOption(f"Daily deals are for {', '.join(daily) or 'no game yet'}.")
    if interaction.guild_id is None:
        raise BadOption("The daily deal is played in a server.")
    if options:
        raise BadOption("The daily deal uses the standard settings, so everyone plays alike.")
    now = _now()
    today = daily_date(now)
    store = bot_of(interaction).tables.store
    played = await store.results(
        game_key=found.key, guild_id=interaction.guild_id, since=day_start(now)
    )
    if any(
        interaction.user.id in r.record.seats and r.record.options.get("daily") == today
        for r in played
    ):
        raise BadOption(
            f"You have already played today's deal. Compare results with "
            f"/leaderboard game:{found.key} period:today's deal."
        )
    for game in await store.active_games():
        if game.options.get("daily") == today and any(
            s.user_id == interaction.user.id for s in game.seats
        ):
            raise BadOption(f"You are already playing today's deal in <#{game.channel_id}>.")
    secret = await daily_secret(store)
    return daily_seed(secret, interaction.guild_id, found.key, today), {"daily": today}


async def _daily_claim(
    interaction: discord.Interaction[Any], found: GameBundle, labels: dict[str, str] | None
) -> DailyClaim | None:
    """The member's claim on today's deal (``labels`` says which; None: no daily deal),
    refused now if it was made before. The claim is stored with the game, in one transaction
    (``Tables.start``): an aborted deal counts, of two requests at the same moment only one is
    dealt, and a crash before the deal loses nothing."""
    if labels is None or interaction.guild_id is None:
        return None
    claim = DailyClaim(interaction.guild_id, found.key, labels["daily"], interaction.user.id)
    if await bot_of(interaction).tables.store.daily_claimed(claim):
        raise BadOption(DAILY_DEALT)
    return claim


async def _thread_for(
    interaction: discord.Interaction[Any], wanted: bool, name: str
) -> discord.Thread | None:
    """A public thread for the game when asked for one in a text channel, else None."""
    if not wanted or not isinstance(interaction.channel, discord.TextChannel):
        return None
    try:
        return await interaction.channel.create_thread(
            name=name[:90], type=discord.ChannelType.public_thread
        )
    except discord.HTTPException:
        raise BadOption(NO_THREAD) from None


# --- the lobby --------------------------------------------------------------------------------


def lobby_text(lobby: LobbyRecord, title: str, note: str = "") -> str:
    """The lobby message: the game, the host, each invitee's answer, computers, options."""
    marks = {"pending": "⏳", "accepted": "✅", "declined": "❌"}
    invited = ", ".join(f"{marks[i.answer]} <@{i.user_id}>" for i in lobby.invited)
    computers = f" and {plural(lobby.computers, 'computer')}"
    settings = ", ".join(f"{k} {v}" for k, v in _changed(lobby).items())
    lines = [
        f"**{title}** — <@{lobby.host_id}> invites {invited}"
        f"{computers if lobby.computers else ''}.",
    ]
    if settings:
        lines.append(f"Options: {settings}.")
    if lobby.status == "open":
        lines.append(f"The invitation expires <t:{int(lobby.expires_at)}:R>.")
    if note:
        lines.append(note)
    return clip("\n".join(lines))


def _changed(lobby: LobbyRecord) -> dict[str, str]:
    """The lobby's options that differ from its game's defaults. A rematch (and a challenge
    with one option set) stores every option, and "Options: oil_slick off, deck bsd, names en"
    told invitees nothing but codes: the standard game needs no line."""
    try:
        return bundle(lobby.game_key).changed(lobby.options)
    except GameError:  # a plug-in game no longer installed: say everything
        return dict(lobby.options)


def lobby_view(lobby: LobbyRecord) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if lobby.status != "open":
        return view
    for verb in ("a", "d", "s", "c"):
        view.add_item(LobbyButton(lobby.id, verb))
    return view


_VERBS = {
    "a": ("Accept", discord.ButtonStyle.success),
    "d": ("Decline", discord.ButtonStyle.danger),
    "s": ("Start", discord.ButtonStyle.primary),
    "c": ("Cancel", discord.ButtonStyle.secondary),
}


class LobbyButton(GameItem, template=rf"jn:l:(?P<lobby>{ID}):(?P<verb>[adsc])"):
    """Accept or Decline (invited members), Start or Cancel (the host)."""

    def __init__(self, lobby_id: int, verb: str) -> None:
        label, style = _VERBS[verb]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"jn:l:{lobby_id}:{verb}")
        )
        self.lobby_id, self.verb = lobby_id, verb

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["lobby"]), match["verb"])

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        store = bot_of(interaction).tables.store
        lobby = await store.get_lobby(self.lobby_id) if self.lobby_id < 2**63 else None
        if lobby is None:
            raise GameError("That invitation does not exist.")
        pressed = interaction.message
        if pressed is None or not await _on_its_invitation(store, lobby, pressed):
            raise GameError("That button is not on its invitation: answer the invitation itself.")
        if lobby.status != "open":
            said = {"started": "has already started", "cancelled": "was cancelled"}
            raise GameError(f"That invitation {said.get(lobby.status, 'has expired')}.")
        title = bundle(lobby.game_key).info.title
        user = interaction.user.id
        if _now() > lobby.expires_at:
            expired = await _save(replace(lobby, status="expired"), lobby.version, interaction)
            await interaction.response.edit_message(
                content=lobby_text(expired, title, "⌛ This invitation has expired."),
                view=None,
                allowed_mentions=NO_PINGS,
            )
            return
        if self.verb in "ad":
            invitee = lobby.invitee(user)
            if invitee is None:
                raise GameError("This invitation is not for you.")
            if invitee.answer != "pending":
                raise GameError(f"You have already {invitee.answer}.")
            answer: Answer = "accepted" if self.verb == "a" else "declined"
            invited = tuple(
                replace(i, answer=answer) if i.user_id == user else i for i in lobby.invited
            )
            lobby = await _save(replace(lobby, invited=invited), lobby.version, interaction)
            if all(i.answer == "accepted" for i in lobby.invited):
                await start_lobby(interaction, lobby)
                return
            if all(i.answer == "declined" for i in lobby.invited) and not lobby.computers:
                lobby = await _save(replace(lobby, status="cancelled"), lobby.version, interaction)
                note = "Everyone declined."
            elif lobby.answered:
                note = f"Everyone answered: <@{lobby.host_id}>, press Start (computers take "
                note += "the declined seats) or Cancel."
            else:
                note = ""
            await interaction.response.edit_message(
                content=lobby_text(lobby, title, note),
                view=lobby_view(lobby),
                allowed_mentions=NO_PINGS,
            )
            return
        if user != lobby.host_id:
            raise GameError("Only the member who sent the invitation can do that.")
        if self.verb == "c":
            lobby = await _save(replace(lobby, status="cancelled"), lobby.version, interaction)
            await interaction.response.edit_message(
                content=lobby_text(lobby, title, "🛑 Cancelled."),
                view=None,
                allowed_mentions=NO_PINGS,
            )
            return
        if not lobby.answered:
            raise GameError("Wait until everyone invited has answered (or Cancel).")
        await start_lobby(interaction, lobby)


async def _on_its_invitation(store: Store, lobby: LobbyRecord, pressed: discord.Message) -> bool:
    """Whether ``pressed`` is the message carrying ``lobby``'s buttons.

    A lobby whose message was never stored (posted by a version that did not store it, or its
    process died between posting and storing) takes the pressed message when it reads as this
    invitation — the bot's headline naming this game, host and invitees — and keeps it from
    then on. Any other message (a table, a leaderboard) is never rewritten as the invitation."""
    if lobby.message_id is not None:
        return pressed.id == lobby.message_id
    try:
        title = bundle(lobby.game_key).info.title
    except GameError:  # a plug-in game no longer installed: its headline cannot be checked
        return False
    headline = (pressed.content or "").split("\n", 1)[0]
    if not headline.startswith(f"**{title}** — <@{lobby.host_id}> invites "):
        return False
    # The invitees in order, each after its answer's mark: "⏳ <@1>, ✅ <@2>".
    mentions = re.findall(r"<@(\d+)>", headline)[1:]
    if mentions[: len(lobby.invited)] != [str(i.user_id) for i in lobby.invited]:
        return False
    return await store.set_lobby_message(lobby.id, pressed.id)


async def _save(
    lobby: LobbyRecord, version: int, interaction: discord.Interaction[Any]
) -> LobbyRecord:
    try:
        return await bot_of(interaction).tables.store.update_lobby(lobby, version)
    except StaleVersion:
        raise GameError("Someone pressed at the same moment; press again.") from None


async def start_lobby(interaction: discord.Interaction[Any], lobby: LobbyRecord) -> None:
    """Seat everyone (computers for the declined), deal, and post the first table."""
    found = bundle(lobby.game_key)
    accepted = [i for i in lobby.invited if i.answer == "accepted"]
    declined = len(lobby.invited) - len(accepted)
    seats = [SeatRecord(0, lobby.host_name, user_id=lobby.host_id)] + [
        SeatRecord(n + 1, i.name, user_id=i.user_id) for n, i in enumerate(accepted)
    ]
    seats += _computer_seats(len(seats), lobby.computers + declined, lobby.policy)
    _check_seats(found, len(seats))
    # Claim the lobby first: of two presses at once, only one starts a game (or a thread).
    claimed = await _save(replace(lobby, status="started"), lobby.version, interaction)
    answered = lost = False

    async def answer_first() -> None:
        # Computers open the game, and an expert searches a while: answer Discord first.
        nonlocal answered, lost
        answered = True
        lost = not await answered_in_time(interaction.response.defer())

    channel_id = interaction.channel_id
    thread: discord.Thread | None = None
    try:
        if lobby.thread and interaction.message is not None:
            names = " vs ".join(s.name for s in seats)
            thread = await interaction.message.create_thread(
                name=f"{found.info.title}: {names}"[:90]
            )
            channel_id = thread.id
        if channel_id is None:
            raise GameError("Games are played in a channel.")
        update = await bot_of(interaction).tables.start(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            game_key=found.key,
            seats=seats,
            options=lobby.options,
            before_computers=answer_first,
        )
    except (GameError, discord.HTTPException) as error:
        # Give the lobby back so the players can try again (say, after the other game ends).
        store = bot_of(interaction).tables.store
        try:
            await store.update_lobby(replace(claimed, status="open"), claimed.version)
        except StaleVersion:
            # A rematch invitation asked for again while this one was starting holds the
            # rematch now (one open at a time): this one closes, pointing at it.
            await store.update_lobby(replace(claimed, status="cancelled"), claimed.version)
            raise GameError(
                "Another invitation to this rematch was posted meanwhile: answer that one."
            ) from None
        if isinstance(error, discord.HTTPException):
            raise GameError(NO_THREAD) from None
        raise
    await bot_of(interaction).tables.store.update_lobby(
        replace(claimed, game_id=update.game.id), claimed.version
    )
    where = f" in {thread.mention}" if thread is not None else ""
    content = lobby_text(claimed, found.info.title, f"✅ The game is on{where}!")
    if answered and not lost:
        await interaction.edit_original_response(
            content=content, view=None, allowed_mentions=NO_PINGS
        )
    elif not answered:
        lost = not await answered_in_time(
            interaction.response.edit_message(content=content, view=None, allowed_mentions=NO_PINGS)
        )
    if lost and interaction.message is not None:
        # The game is dealt: the invitation says so through the channel, its own message.
        await interaction.message.edit(content=content, view=None, allowed_mentions=NO_PINGS)
    # The names as dealt: the table numbers a name two members share ("Sam", "Sam (2)").
    dealt = update.game.seats
    headline = f"**{found.info.title}** — {' vs '.join(plain(s.name) for s in dealt)}"
    if thread is not None:
        await send_table(bot_of(interaction), thread.send, update, headline)
    elif lost:
        await post_table_in_channel(interaction, update, headline)
    else:
        await post_table(interaction, update, headline)


async def open_lobby(
    interaction: discord.Interaction[Any],
    found: GameBundle,
    invited: Sequence[Invitee],
    *,
    computers: int,
    policy: str,
    options: Mapping[str, str],
    thread: bool,
    rematch_of: int | None = None,
) -> LobbyRecord:
    """Store a lobby inviting ``invited`` to a table hosted by the presser, and post it (the
    invited are pinged; they answer with its buttons). Returns the stored lobby.

    ``rematch_of``: the finished game a Rematch button replays. One invitation to it is open
    at a time, kept by the database (``Store.open_rematch``), so a second press — after a
    restart, or in another process — is told so, with a link to the first, which is
    returned."""
    channel_id = interaction.channel_id
    if channel_id is None:
        raise BadOption("Games are played in a channel.")
    tables = bot_of(interaction).tables
    if not thread and await tables.store.active_game(channel_id):
        raise BadOption("A game is already running in this channel.")
    now = _now()
    record = LobbyRecord(
        id=0,
        channel_id=channel_id,
        guild_id=interaction.guild_id,
        game_key=found.key,
        host_id=interaction.user.id,
        host_name=display_name(interaction.user),
        invited=tuple(invited),
        options=options,
        computers=computers,
        policy=policy,
        thread=thread,
        status="open",
        expires_at=now + bot_of(interaction).settings.challenge_timeout,
        created_at=now,
        rematch_of=rematch_of,
    )
    if rematch_of is None:
        lobby = await tables.store.create_lobby(record)
    else:
        lobby, created = await tables.store.open_rematch(record, now)
        if not created:
            # Answered here, not raised: a refusal's text is made plain, links and all.
            await interaction.response.send_message(
                already_asked(lobby, interaction.user.id),
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            return lobby
    try:
        sent = await interaction.response.send_message(
            lobby_text(lobby, found.info.title),
            view=lobby_view(lobby),
            allowed_mentions=pings(i.user_id for i in invited),
        )
    except discord.HTTPException:
        # Nothing was posted (Discord's three seconds ran out, or it failed), and the presser
        # can be told nothing: close the lobby, so a rematch is not held by an invitation
        # nobody can see, and a press again opens a new one.
        log.warning("could not post invitation %s; it is closed", lobby.id, exc_info=True)
        return await tables.store.update_lobby(replace(lobby, status="cancelled"), lobby.version)
    if sent.message_id is None:
        return lobby
    # Its buttons are answered only under this message: a forged id pressed under another of
    # the bot's messages (a table, a leaderboard) would otherwise rewrite it as the invitation.
    await tables.store.set_lobby_message(lobby.id, sent.message_id)
    return replace(lobby, message_id=sent.message_id)


def already_asked(lobby: LobbyRecord, user_id: int) -> str:
    """The sentence for a second press of a Rematch button while ``lobby`` invites to it: who
    asked, and a link to the invitation. Its message is unknown only for a moment (it is being
    posted) or when its process died before posting it or storing which it was: the store
    lets a press pass such a lobby ``UNPOSTED_SECONDS`` after it was opened."""
    mine = lobby.host_id == user_id
    asked = (
        "You have already asked for this rematch"
        if mine
        else f"{plain(lobby.host_name)} has already asked for this rematch"
    )
    if lobby.message_id is None:
        return f"{asked}. If you cannot see the invitation, press Rematch again in a minute."
    link = message_link(lobby.guild_id, lobby.channel_id, lobby.message_id)
    if mine:
        return f"{asked}: [the invitation]({link}) is posted."
    return f"{asked}: answer [their invitation]({link})."


async def deal(
    interaction: discord.Interaction[Any],
    found: GameBundle,
    seats: Sequence[SeatRecord],
    options: Mapping[str, str],
    headline: str,
    *,
    target: discord.Thread | None = None,
    seed: int | None = None,
    labels: Mapping[str, str] | None = None,
    claim: DailyClaim | None = None,
) -> None:
    """Deal a game with no lobby to wait for (one member, computers in the other seats) and
    post its first table, in ``target`` when the game has a thread of its own."""
    channel_id = target.id if target is not None else interaction.channel_id
    if channel_id is None:
        raise BadOption("Games are played in a channel.")
    answered = lost = False

    async def answer_first() -> None:
        # Computers open the game, and an expert searches a while: answer Discord first.
        nonlocal answered, lost
        if not answered:
            answered = True
            if target is not None:
                where = f"Your game is in {target.mention}."
                lost = not await answered_in_time(interaction.response.send_message(where))
            else:
                lost = not await answered_in_time(interaction.response.defer(thinking=True))

    update = await bot_of(interaction).tables.start(
        channel_id=channel_id,
        guild_id=interaction.guild_id,
        game_key=found.key,
        seats=seats,
        options=options,
        seed=seed,
        labels=labels,
        before_computers=answer_first,
        daily=claim,
    )
    notice = found.presenter.start_notice(update.game.options)
    if notice:
        headline += f"\n{notice}"
    await answer_first()
    if target is not None:
        await send_table(bot_of(interaction), target.send, update, headline)
    elif lost:
        await post_table_in_channel(interaction, update, headline)
    else:
        await post_table(interaction, update, headline)


class Lobby(commands.Cog):
    """/play and /challenge."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="challenge", description="Invite members to a game")
    @app_commands.describe(
        game="Which game",
        member="A member you invite",
        member2="Another member",
        member3="Another member",
        member4="Another member",
        member5="Another member",
        computers="Computer players to add",
        level="How the computers play",
        options="Game options as name:value (see the suggestions)",
        thread="Play in a new thread",
    )
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        member: discord.Member,
        member2: discord.Member | None = None,
        member3: discord.Member | None = None,
        member4: discord.Member | None = None,
        member5: discord.Member | None = None,
        computers: app_commands.Range[int, 0, 5] = 0,
        level: str | None = None,
        options: str | None = None,
        thread: bool = False,
    ) -> None:
        found = bundle(game)
        if found.info.max_players == 1:
            raise BadOption(f"{found.info.title} is played alone: start it with /play.")
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
        _check_seats(found, 1 + len(invited) + computers)
        chosen = found.game.resolve_options(parse_options(options))
        await open_lobby(
            interaction,
            found,
            [Invitee(m.id, display_name(m)) for m in invited],
            computers=computers,
            policy=_level(found, level),
            options=chosen,
            # A thread cannot hold a thread: asked for in one (or in any channel but a text
            # channel), the game is played right here, as /play does.
            thread=thread and isinstance(interaction.channel, discord.TextChannel),
        )

    @app_commands.command(name="play", description="Play against the computer, or alone")
    @app_commands.describe(
        game="Which game",
        computers="Computer opponents (default: enough for a game)",
        level="How the computers play",
        options="Game options as name:value (see the suggestions)",
        thread="Play in a new thread",
        daily="Today's deal: the same for everyone on this server, once a day",
    )
    async def play(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        computers: app_commands.Range[int, 0, 5] | None = None,
        level: str | None = None,
        options: str | None = None,
        thread: bool = False,
        daily: bool = False,
    ) -> None:
        found = bundle(game)
        info = found.info
        chosen = parse_options(options)
        seed, labels = None, None
        if daily:
            seed, labels = await _daily_deal(interaction, found, chosen)
        rivals = max(info.min_players - 1, 0) if computers is None else computers
        _check_seats(found, 1 + rivals)
        name = _level(found, level)
        me = SeatRecord(0, display_name(interaction.user), user_id=interaction.user.id)
        seats = [me, *_computer_seats(1, rivals, name)]
        against = "alone" if rivals == 0 else vs_computers(rivals)
        claim = await _daily_claim(interaction, found, labels)
        target = await _thread_for(interaction, thread, f"{info.title}: {me.name} {against}")
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

    # The same suggestions for both commands (module-level callbacks: no cog method needed).
    for command in (play, challenge):
        command.autocomplete("game")(game_choices)
        command.autocomplete("level")(level_choices)
        command.autocomplete("options")(option_choices)
    del command


class LegacyChallengeButton(GameItem, template=r"jn:c:[ad]:.{0,90}"):
    """A challenge button from before lobbies: its id named the players, so it is refused."""

    def __init__(self, custom_id: str = "jn:c:a:") -> None:
        super().__init__(discord.ui.Button(label="Accept", custom_id=custom_id[:100]))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match.group(0))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        raise GameError("This invitation is from an older version of Junction; send a new one.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
    register_items(bot, LobbyButton, LegacyChallengeButton)
