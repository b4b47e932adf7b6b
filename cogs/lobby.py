"""The invitation /challenge and a rematch with members open, and the open table /host posts:
a lobby stored in the database, its message and its buttons, and starting it.

A lobby holds who hosts, who is invited, how each answered, the options. Its buttons carry only
the lobby's id and a verb, so a forged id can name no players and no options — everything is
looked up, and only the invited member may answer, only the host may start or cancel. The lobby
starts by itself when everyone accepted; when someone declined, the host may start with
computers in their seats. An open table offers seats instead (``LobbyRecord.open_seats``): any
member may Join a free one and Leave it again; it starts by itself when every seat is taken,
or when the host presses Start with enough players seated.

Lobbies expire by themselves: the timer sweep (``cogs.timers``) calls :func:`expire_due`, which
marks each open lobby past its time expired and turns its message into the closing note, its
buttons gone, as a press after that time would (version-guarded: a press that started or
cancelled it at the same moment wins, and the sweep leaves it). The time the bot was down, or
a shard cut off from Discord, does not count: the timers give it back (``Store.resume_timers``)
and :func:`show_new_times` edits the messages to say the new closing time.

Dependency direction: under ``cogs.new_game`` (/challenge) and ``cogs.rematch``, which import
:func:`open_lobby`, and ``cogs.timers``, which imports :func:`expire_due`; above
``cogs.dealing``, ``cogs.seat_names`` and ``cogs.limits``. It imports no command module, and
is no extension of its own: ``cogs.new_game`` registers its buttons, so the bot runs the one
module object everything imports.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.boards import message_link
from bot.engine.core import BadOption, GameError
from bot.engine.words import plural
from bot.games import bundle, title_of
from bot.games.bundle import GameBundle
from bot.names import distinct_names
from bot.store.base import (
    Answer,
    Invitee,
    LobbyRecord,
    LobbyStatus,
    SeatRecord,
    Shards,
    StaleVersion,
    Store,
)
from bot.updates import TableUpdate
from cogs import gone, limits
from cogs.dealing import (
    NO_THREAD,
    check_seats,
    computer_seats,
    post_first_table,
    thread_name,
    thread_under,
)
from cogs.pickers import ID, GameItem
from cogs.seat_names import display_name
from cogs.ui import (
    NO_PINGS,
    answer,
    answer_in_place,
    answered_in_time,
    bot_of,
    clip,
    defer,
    pings,
    plain,
    refuse,
)

if TYPE_CHECKING:
    from bot.client import JunctionBot

log = logging.getLogger("junction.lobby")

LOBBIES_PER_SWEEP = 50
"""The most lobbies one sweep expires (one message edit each); the rest wait for the next."""

CLOSED_KEPT_SECONDS = 7 * 86_400
"""How long a closed lobby stays in the database past its expiry time. A press on its message
is answered from it until then (and, should the message still show buttons because its closing
edit failed, closes it with the note the lobby's end deserves: "The game is on", "Cancelled.");
after, the sweep deletes it (``forget_closed``) and such a press is told the lobby ended
(``_ended``)."""

CLOSED_PER_SWEEP = 200
"""The most closed lobbies one sweep deletes; a backlog (a database from before the sweep
deleted any) goes over the next sweeps."""


def clock() -> float:
    """The time now, in seconds since the epoch: the clock lobbies are opened and expire by,
    which the buttons, the expiry sweep and /mygames (a lobby still listed until it expires)
    all read. Call it as ``cogs.lobby.clock()``, through the module, so a test that moves it
    on (``tests.cogs.helpers.lobby_later``) moves it for all of them."""
    return time.time()


def _mention(user_id: int, name: str) -> str:
    """A member in a lobby's message; a former player (``junction forget-member`` kept the
    newest lobby with an alias id, negative, never a Discord account's) by their name."""
    return f"<@{user_id}>" if user_id > 0 else plain(name)


def lobby_text(lobby: LobbyRecord, title: str, note: str = "") -> str:
    """The lobby message: the game, the host, each invitee's answer (or, at an open table, who
    sits where and the seats free), computers, options."""
    if lobby.open_seats is not None:
        return _table_text(lobby, title, note)
    # Each answer in a word after the member: an emoji mark before the name was read aloud as
    # "hourglass not done, Bob" by a screen reader, the answer before whose it was.
    answers = {"pending": "waiting", "accepted": "accepted", "declined": "declined"}
    invited = ", ".join(
        f"{_mention(i.user_id, i.name)} ({answers[i.answer]})" for i in lobby.invited
    )
    computers = f" and {plural(lobby.computers, 'computer')} ({lobby.policy})"
    settings = ", ".join(f"{k} {v}" for k, v in _changed(lobby).items())
    lines = [
        f"**{title}** — {_mention(lobby.host_id, lobby.host_name)} invites {invited}"
        f"{computers if lobby.computers else ''}.",
    ]
    if settings:
        lines.append(f"Options: {settings}.")
    if lobby.status == "open":
        lines.append(f"The invitation expires <t:{int(lobby.expires_at)}:R>.")
    if note:
        lines.append(note)
    return clip("\n".join(lines))


def _table_text(lobby: LobbyRecord, title: str, note: str) -> str:
    """An open table's message: its headline, each seat in the order it is dealt (the host,
    the members in the order they joined, the free seats, the computers), what to press.
    Once started, the seats as dealt: the free ones went to computers, or were dropped."""
    if lobby.status == "started":
        dealt = _lobby_seats(lobby)
        seats = [
            _mention(s.user_id, s.name) if s.user_id is not None else _computer(lobby)
            for s in dealt
        ]
    else:
        seated = [_mention(lobby.host_id, lobby.host_name)]
        seated += [_mention(i.user_id, i.name) for i in lobby.invited]
        seats = seated + ["free"] * lobby.free_seats + [_computer(lobby)] * lobby.computers
    lines = [
        f"**{title}** — {_mention(lobby.host_id, lobby.host_name)} hosts an open table.",
        "Seats: " + " · ".join(f"{n}. {who}" for n, who in enumerate(seats, start=1)),
    ]
    settings = ", ".join(f"{k} {v}" for k, v in _changed(lobby).items())
    if settings:
        lines.append(f"Options: {settings}.")
    if lobby.status == "open":
        free = lobby.free_seats
        if free:
            lines.append(f"{plural(free, 'seat')} free: press Join to take one.")
        else:
            lines.append("No seat is free.")
        filled = "; computers take the free seats" if lobby.computers else ""
        lines.append(
            f"The game starts when every seat is taken, or when the host presses Start "
            f"(with at least {_minimum(lobby)} players{filled})."
        )
        lines.append(f"The table closes <t:{int(lobby.expires_at)}:R>.")
    if note:
        lines.append(note)
    return clip("\n".join(lines))


def _computer(lobby: LobbyRecord) -> str:
    """A computer's seat before the deal, with the level it will play at: a table listing
    "computer" left the member to guess whether the expert asked for would sit there."""
    return f"computer ({lobby.policy})"


def _minimum(lobby: LobbyRecord) -> int:
    """The fewest players the lobby's game is played by."""
    try:
        return bundle(lobby.game_key).info.min_players
    except GameError:  # a plug-in game no longer installed: its table cannot start anyway
        return 2


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
    for verb in ("j", "l", "s", "c") if lobby.open_seats is not None else ("a", "d", "s", "c"):
        view.add_item(LobbyButton(lobby.id, verb))
    return view


_VERBS = {
    "a": ("Accept", discord.ButtonStyle.success),
    "d": ("Decline", discord.ButtonStyle.danger),
    "j": ("Join", discord.ButtonStyle.success),
    "l": ("Leave", discord.ButtonStyle.danger),
    "s": ("Start", discord.ButtonStyle.primary),
    "c": ("Cancel", discord.ButtonStyle.secondary),
}


_CLOSED = {"started": "has already started", "cancelled": "was cancelled"}
"""What a press on a closed lobby is told, by its status (else: it has expired)."""

CANCELLED = "🛑 Cancelled."
"""The line a lobby's message ends with once its host cancelled it."""

DECLINED = "Everyone declined."
"""The line an invitation's message ends with once every invitee declined (and it asked for no
computers to take their seats): it closes by itself."""

PRESSED_TOGETHER = "Someone pressed at the same moment; press again."
"""What a press is told when another changed the lobby between its read and its write."""


class _Overtaken(GameError):
    """A start whose claim found the lobby changed and still open (another press came between
    its read and its claim): told ``PRESSED_TOGETHER``, unless the caller knows better."""

    def __init__(self) -> None:
        super().__init__(PRESSED_TOGETHER)


class LobbyButton(GameItem, template=rf"jn:l:(?P<lobby>{ID}):(?P<verb>[adjlsc])"):
    """Accept or Decline (invited members), Join or Leave (an open table's seats, any member),
    Start or Cancel (the host)."""

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
        if self.verb not in "aj":
            await self._act(interaction)  # no seat taken: never waits behind the member's others
            return
        # Accept and Join seat the presser: one at a time with their other such requests, so
        # the games-at-once count sees the game an earlier one started (``limits.seating``).
        async with limits.seating(interaction):
            await self._act(interaction)

    async def _act(self, interaction: discord.Interaction[Any]) -> None:
        store = bot_of(interaction).tables.store
        lobby = await store.get_lobby(self.lobby_id) if self.lobby_id < 2**63 else None
        # Before the lobby is read, only the verb tells a table's button from an invitation's.
        named = {"j": "table", "l": "table", "a": "invitation", "d": "invitation"}
        if lobby is None:
            if ended := _ended(interaction.message, self.lobby_id):
                told, closing = ended
                # Answered first, within Discord's three seconds: the message's edit goes
                # through the channel and may wait behind its rate limit.
                await refuse(interaction, told)
                failed = f"could not close ended lobby {self.lobby_id}"
                await _edit_in_channel(interaction.message, failed, **closing)
                return
            raise GameError(f"That {named.get(self.verb, 'invitation or table')} does not exist.")
        table = lobby.open_seats is not None
        what = "table" if table else "invitation"
        pressed = interaction.message
        if pressed is None or not await _on_its_invitation(store, lobby, pressed):
            raise GameError(
                "That button is not on its table: use the table's own buttons."
                if table
                else "That button is not on its invitation: answer the invitation itself."
            )
        if lobby.status != "open":
            note = await _closed_note(store, lobby)
            # The refusal first, the message's edit after (as for an ended lobby above).
            await refuse(interaction, f"That {what} {_CLOSED.get(lobby.status, 'has expired')}.")
            if note is not None:
                await _show_closed(pressed, lobby, note)
            return
        title = bundle(lobby.game_key).info.title
        user = interaction.user.id
        if (table and self.verb in "ad") or (not table and self.verb in "jl"):
            # Only a forged id puts these verbs on this lobby: its own buttons never do. Refused
            # before the expiry check, so such a press never closes the lobby either.
            raise GameError(f"That button does not belong to this {what}.")
        if clock() > lobby.expires_at:
            if await _time_owed(interaction, lobby):
                raise GameError(
                    f"Junction is just back and is giving this {what} the time it was away: "
                    "press again in a few seconds."
                )
            await _close(interaction, lobby, "expired", title, _expired_note(lobby))
            return
        if self.verb in "jl":
            await _take_or_leave(interaction, lobby, title, join=self.verb == "j")
            return
        if self.verb in "ad":
            invitee = lobby.invitee(user)
            if invitee is None:
                raise GameError("This invitation is not for you.")
            if invitee.answer != "pending":
                raise GameError(f"You have already {invitee.answer}.")
            if self.verb == "a":
                # Accepting takes a seat in the game: held to the games-at-once limit as /play
                # is, before the answer is stored, so a refused Accept can be pressed again.
                await limits.room_for(interaction)
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
                note = DECLINED
            else:
                note = _waiting_note(lobby)
            await _show_change(
                interaction,
                content=lobby_text(lobby, title, note),
                view=lobby_view(lobby),
                allowed_mentions=NO_PINGS,
            )
            return
        if user != lobby.host_id:
            who = "hosts this table" if table else "sent the invitation"
            raise GameError(f"Only the member who {who} can do that.")
        if self.verb == "c":
            await _close(interaction, lobby, "cancelled", title, CANCELLED)
            return
        if table:
            seated = 1 + len(lobby.invited) + lobby.computers
            if seated < _minimum(lobby):
                raise GameError(
                    f"The game needs at least {_minimum(lobby)} players (computers count), "
                    f"and {seated} {'is' if seated == 1 else 'are'} seated: wait for more to "
                    "join, or Cancel."
                )
        elif not lobby.answered:
            raise GameError("Wait until everyone invited has answered (or Cancel).")
        await start_lobby(interaction, lobby)


async def _time_owed(interaction: discord.Interaction[Any], lobby: LobbyRecord) -> bool:
    """Whether ``lobby``, past its time, waits for the time a downtime took, given back at its
    shard's next timer sweep (the first since the start, or since the shard reached Discord
    again: ``Timers.owes_time``; through the bot, as this module is under ``cogs.timers``).
    False without the Timers cog."""
    owes_time = getattr(bot_of(interaction).get_cog("Timers"), "owes_time", None)
    return owes_time is not None and bool(await owes_time(lobby))


async def _take_or_leave(
    interaction: discord.Interaction[Any], lobby: LobbyRecord, title: str, *, join: bool
) -> None:
    """Seat the presser at the open ``lobby`` (``join``) or free their seat, and show the table
    as it now stands; the game starts when the last free seat is taken. A press that changes
    nothing (a second Join, a Leave with no seat) is refused, only to the presser."""
    user = interaction.user
    seat = lobby.invitee(user.id)
    if user.id == lobby.host_id:
        raise GameError(
            "You host this table: your seat is yours."
            if join
            else "You host this table: press Cancel to close it."
        )
    if not join:
        if seat is None:
            raise GameError("You have no seat at this table.")
        invited = tuple(i for i in lobby.invited if i.user_id != user.id)
        lobby = await _save(replace(lobby, invited=invited), lobby.version, interaction)
        note = f"{plain(seat.name)} left."
    else:
        if user.bot:
            raise GameError("Bots cannot take a seat; the host may add computers instead.")
        if seat is not None:
            raise GameError("You already have a seat at this table.")
        if not lobby.free_seats:
            raise GameError("This table is full.")
        # Joining takes a seat in the game: held to the games-at-once limit as /play is,
        # before the seat is stored (refused, it stays free).
        await limits.room_for(interaction)
        joined = Invitee(user.id, display_name(user), "accepted")
        lobby = await _save(
            replace(lobby, invited=(*lobby.invited, joined)), lobby.version, interaction
        )
        if not lobby.free_seats:
            try:
                await start_lobby(interaction, lobby)
            except GameError as error:
                # Not dealt (a game was started in the channel meanwhile): the member keeps
                # the seat, for the host's Start later, so the table must show it taken. Or
                # the host's Start or Cancel came first: "press again" would be wrong.
                fresh = await bot_of(interaction).tables.store.get_lobby(lobby.id)
                # Answered first, within Discord's three seconds; the table's edit goes
                # through the channel, which a rate limit may hold.
                await refuse(interaction, _start_refused(fresh, user.id, error))
                await _show_seated(interaction, fresh, title)
            return
        note = ""
    await _show_change(
        interaction,
        content=lobby_text(lobby, title, note),
        view=lobby_view(lobby),
        allowed_mentions=NO_PINGS,
    )


def _start_refused(fresh: LobbyRecord | None, user_id: int, error: GameError) -> str:
    """What a Join for the last seat is told when its start failed with ``error``, by the
    open table as stored now (``fresh``)."""
    if fresh is not None and fresh.status == "started" and fresh.invitee(user_id):
        return "The game has started, and you are in it."
    if fresh is not None and fresh.status != "open":
        return f"That table {_CLOSED.get(fresh.status, 'has expired')}."
    if fresh is not None and isinstance(error, _Overtaken):
        # A Leave came between the Join and its start: the member is seated (pressing Join
        # again would be refused), and the table waits again.
        return _seat_kept(fresh, user_id)
    return str(error)


def _seat_kept(lobby: LobbyRecord, user_id: int) -> str:
    """What a Join for the last seat is told when another press changed the open ``lobby``
    before the Join could start it: the seat the member holds now, and what the table waits
    for."""
    seated = [i.user_id for i in lobby.invited]
    if user_id not in seated:
        # Their own Leave came between (pressed at once on another device).
        return "You left this table as you joined: you have no seat now."
    seat = f"You have seat {2 + seated.index(user_id)}"  # seat 1 is the host's
    if lobby.free_seats:
        return (
            f"{seat}. Someone left as you joined, so the table waits for "
            f"{plural(lobby.free_seats, 'more player')}."
        )
    # Another Join took the freed seat: its start (or, should it fail, the host's Start)
    # deals the game.
    return f"{seat}, and every seat is taken now."


async def _show_seated(
    interaction: discord.Interaction[Any], lobby: LobbyRecord | None, title: str
) -> None:
    """Show the open table as stored (``lobby``) on its message, through the channel (the
    interaction answered with the refusal already). Not when it closed meanwhile: its message
    says so already."""
    if lobby is None or lobby.status != "open" or interaction.message is None:
        return
    try:
        await interaction.message.edit(
            content=lobby_text(lobby, title), view=lobby_view(lobby), allowed_mentions=NO_PINGS
        )
    except discord.HTTPException:
        # The message is gone (deleted meanwhile): the presser was told why.
        log.warning("could not show open table %s", lobby.id, exc_info=True)


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
    lines = (pressed.content or "").split("\n")
    headline = lines[0]
    if lobby.open_seats is not None:
        # An open table: its headline names the host, its seat line the members seated.
        if headline != f"**{title}** — <@{lobby.host_id}> hosts an open table.":
            return False
        seated = re.findall(r"<@(\d+)>", lines[1] if len(lines) > 1 else "")
        if seated != [str(lobby.host_id), *(str(i.user_id) for i in lobby.invited)]:
            return False
        return await store.set_lobby_message(lobby.id, pressed.id)
    if not headline.startswith(f"**{title}** — <@{lobby.host_id}> invites "):
        return False
    # The invitees in order, each before its answer: "<@1> (waiting), <@2> (accepted)" (an
    # older message: "⏳ <@1>, ✅ <@2>").
    mentions = re.findall(r"<@(\d+)>", headline)[1:]
    if mentions[: len(lobby.invited)] != [str(i.user_id) for i in lobby.invited]:
        return False
    return await store.set_lobby_message(lobby.id, pressed.id)


async def _close(
    interaction: discord.Interaction[Any],
    lobby: LobbyRecord,
    status: LobbyStatus,
    title: str,
    note: str,
) -> None:
    """Close ``lobby`` as ``status`` and turn its message into the closing ``note``, buttons
    gone."""
    closed = await _save(replace(lobby, status=status), lobby.version, interaction)
    await _show_change(interaction, **_closing(closed, title, note))


async def _show_change(interaction: discord.Interaction[Any], **edit: Any) -> None:
    """Show a press's change, already stored, on the lobby's message: as the press's answer,
    else (Discord failed it) through the channel. Should that fail too, the press ends
    quietly: the change holds, and the apology ("nothing was changed") would be untrue."""
    if not await answered_in_time(answer_in_place(interaction, **edit)):
        await _edit_in_channel(interaction.message, "could not show a stored change", **edit)


async def _edit_in_channel(message: discord.Message | None, failed: str, **edit: Any) -> None:
    """Edit a lobby's message through its channel (a press's own answer was lost, or the
    message is not the pressed one). A failure is logged with ``failed`` and goes no further:
    the stored lobby stands, and the next press on the message redraws it, or closes it once
    the lobby is closed (``_show_closed``)."""
    if message is None:
        return
    try:
        await message.edit(**edit)
    except discord.HTTPException:
        log.warning("a lobby's message %s", failed, exc_info=True)


def _closing(closed: LobbyRecord, title: str, note: str) -> dict[str, Any]:
    """The edit that turns a closed lobby's message into its closing ``note``, buttons gone:
    one for a press (``_close``) and for the sweep (``_show_expired``) alike."""
    return {"content": lobby_text(closed, title, note), "view": None, "allowed_mentions": NO_PINGS}


def _expired_note(lobby: LobbyRecord) -> str:
    """The line an expired lobby's message ends with."""
    return f"⌛ This {'table' if lobby.open_seats is not None else 'invitation'} has expired."


async def expire_due(bot: JunctionBot, shards: Shards | None = None) -> int:
    """Mark the open lobbies past their time expired (those on the servers ``shards`` hold;
    at most ``LOBBIES_PER_SWEEP``) and show each one's message as a press after its time
    does: the closing note, its buttons gone. How many were expired.

    Each is closed at the version it was read at: a press that changed it meanwhile (a start,
    a Cancel, a Join) wins, and the sweep leaves it (one still open and due comes back at the
    next sweep). A message that cannot be edited (deleted, or the bot lost access) leaves the
    lobby expired all the same; a press on it is answered from the database."""
    store = bot.tables.store
    expired = 0
    for lobby in await store.lobbies_due(clock(), LOBBIES_PER_SWEEP, shards):
        try:
            closed = await store.update_lobby(replace(lobby, status="expired"), lobby.version)
        except StaleVersion:
            continue
        expired += 1
        await _show_expired(bot, closed)
    return expired


def _waiting_note(lobby: LobbyRecord) -> str:
    """The line an open invitation's message ends with once every invitee answered and some
    declined (all accepted, it starts): the host's turn to press. None else."""
    if lobby.open_seats is None and lobby.status == "open" and lobby.answered:
        return (
            f"Everyone answered: <@{lobby.host_id}>, press Start to seat computers "
            f"({lobby.policy}) in the declined seats, or Cancel."
        )
    return ""


async def show_new_times(bot: JunctionBot, lobby_ids: Sequence[int]) -> int:
    """Redraw the messages of the open lobbies ``lobby_ids``, given the time back a downtime
    took (``Store.resume_timers``, which marked them), so they say the new closing time rather
    than one already past, and clear each one's mark (``Store.lobby_reshown``) at the version
    drawn. Through the channel (no press to answer), one edit each; a lobby closed meanwhile
    is left (its closing edit says the rest), one with no message only unmarked. A press that
    changed the lobby while its edit was on the way is drawn again, once; still changing, it
    stays marked for the next pass. A transient note ("Bob left.") is not kept: the message is
    drawn from the stored lobby. A message Discord says is gone (deleted while the bot was
    away, or its thread or channel) closes its lobby, as its deletion's event would have; one
    Discord failed to edit (its own trouble) stays marked, tried again next pass; any other
    refusal (the bot lost access) unmarks it. How many messages were edited."""
    store = bot.tables.store
    edited = 0
    for lobby_id in lobby_ids:
        for _ in range(2):
            lobby = await store.get_lobby(lobby_id)
            if lobby is None or lobby.status != "open":
                break  # no longer marked as far as the sweep asks (open lobbies only)
            if lobby.message_id is None:
                await store.lobby_reshown(lobby.id, lobby.version)
                break
            channel = bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
            try:
                await channel.get_partial_message(lobby.message_id).edit(
                    content=lobby_text(lobby, title_of(lobby.game_key), _waiting_note(lobby)),
                    view=lobby_view(lobby),
                    allowed_mentions=NO_PINGS,
                )
            except discord.HTTPException as error:
                log.info("lobby %s: its message could not show its new time", lobby_id)
                if await gone.found_gone(store, lobby.channel_id, lobby.message_id, error):
                    log.info("lobby %s closed: its message was deleted", lobby_id)
                elif not isinstance(error, discord.DiscordServerError):
                    await store.lobby_reshown(lobby.id, lobby.version)
                break
            edited += 1
            if await store.lobby_reshown(lobby.id, lobby.version):
                break
    return edited


async def forget_closed(bot: JunctionBot, shards: Shards | None = None) -> int:
    """Delete the closed lobbies ``CLOSED_KEPT_SECONDS`` past their expiry time (on the servers
    ``shards`` hold; at most ``CLOSED_PER_SWEEP``): nobody can answer them, and each would stay
    in the database for good. How many were deleted."""
    before = clock() - CLOSED_KEPT_SECONDS
    return await bot.tables.store.delete_closed_lobbies(before, CLOSED_PER_SWEEP, shards)


_STILL_TRUE = ("**", "Seats: ", "Options: ")
"""The lines of a lobby's message that still hold once it has ended: its headline (the game,
the host, who was invited), its seats, its options. The others say what to press and when it
expires."""


def _ended(pressed: discord.Message | None, lobby_id: int) -> tuple[str, dict[str, Any]] | None:
    """What a press is told on the message of a lobby no longer stored (deleted a week after
    it closed, ``forget_closed``, or naming a member forgotten): that it has ended; and the
    edit of the message, which still shows its buttons (the edit that closed it failed), so
    they go, the message ending with the same words. The caller answers first, then edits.

    None (the caller says the lobby does not exist) unless the pressed message carries the
    lobby's own buttons, all four of them and no other: a forged id under another message (a
    table, a leaderboard, a closed lobby's message) adds one button, and that message must not
    be rewritten."""
    if pressed is None:
        return None
    verbs = set()
    for row in pressed.components:
        for item in getattr(row, "children", [row]):
            custom_id = getattr(item, "custom_id", None) or ""
            match = LobbyButton.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is None or int(match["lobby"]) != lobby_id:
                return None
            verbs.add(match["verb"])
    if verbs not in ({"a", "d", "s", "c"}, {"j", "l", "s", "c"}):
        return None
    what = "table" if "j" in verbs else "invitation"
    kept = [line for line in (pressed.content or "").split("\n") if line.startswith(_STILL_TRUE)]
    closing = {
        "content": clip("\n".join([*kept, f"⌛ This {what} has ended."])),
        "view": None,
        "allowed_mentions": NO_PINGS,
    }
    return f"That {what} has ended.", closing


async def _show_expired(bot: JunctionBot, closed: LobbyRecord) -> None:
    """Edit the expired lobby's message, through its channel (no press to answer)."""
    if closed.message_id is None:
        # Never stored (its process died while posting it): a press there still finds the
        # lobby by its headline (``_on_its_invitation``) and is told it expired.
        log.info("lobby %s expired; it has no message to edit", closed.id)
        return
    channel = bot.get_partial_messageable(closed.channel_id, guild_id=closed.guild_id)
    try:
        await channel.get_partial_message(closed.message_id).edit(
            **_closing(closed, title_of(closed.game_key), _expired_note(closed))
        )
    except (discord.NotFound, discord.Forbidden):
        log.info("lobby %s expired; its message is gone or out of reach", closed.id)
    except discord.HTTPException:
        log.warning("lobby %s expired; its message could not be edited", closed.id, exc_info=True)


def _game_on(thread_id: int | None) -> str:
    """The line a started lobby's message ends with: the game is on, in its thread if any."""
    where = f" in <#{thread_id}>" if thread_id is not None else ""
    return f"✅ The game is on{where}!"


async def _closed_note(store: Store, closed: LobbyRecord) -> str | None:
    """The line the message of a closed lobby ends with, rebuilt from the database (its
    closing edit failed). None while a started lobby's game is still being dealt: the start
    edits the message itself."""
    if closed.status == "expired":
        return _expired_note(closed)
    if closed.status == "started":
        game = await store.get_game(closed.game_id) if closed.game_id is not None else None
        if game is None:
            return None
        # A game dealt in a thread of its own plays in another channel than the lobby's.
        thread = game.channel_id if game.channel_id != closed.channel_id else None
        return _game_on(thread)
    answers = {i.answer for i in closed.invited}
    if closed.open_seats is None and not closed.computers and answers == {"declined"}:
        # The last Decline closed it: a Cancel before it would have left that answer pending,
        # and after it the invitation was closed already.
        return DECLINED
    if closed.rematch_of is not None and answers == {"accepted"}:
        # Cancelled by its host after a start that could not deal, or by the bot when another
        # invitation to the rematch took its place as it started: the record cannot tell.
        return "This invitation is closed."
    return CANCELLED


async def _show_closed(pressed: discord.Message, closed: LobbyRecord, note: str) -> None:
    """Turn the pressed message of a closed lobby into its closing ``note``, buttons gone,
    when it still shows them: the edit that closed it failed (Discord's error, an outage), or
    a press's answer landed just after it. Else the buttons would stay for good, every press
    refused. Through the channel: the caller refuses the press in the answer."""
    closing = _closing(closed, title_of(closed.game_key), note)
    if pressed.content == closing["content"] or not pressed.components:
        return  # Already closed (its own edit, or an earlier press): nothing to redo.
    await _edit_in_channel(pressed, f"could not close lobby {closed.id}", **closing)


async def _save(
    lobby: LobbyRecord, version: int, interaction: discord.Interaction[Any]
) -> LobbyRecord:
    try:
        return await bot_of(interaction).tables.store.update_lobby(lobby, version)
    except StaleVersion:
        raise GameError(PRESSED_TOGETHER) from None


def _lobby_seats(lobby: LobbyRecord) -> list[SeatRecord]:
    """The host, then the members who accepted (or joined), then computers: the lobby's own
    and one for each member who declined — and, at an open table whose host asked for
    computers, one in each seat still free (asked for none, the free seats are dropped)."""
    accepted = [i for i in lobby.invited if i.answer == "accepted"]
    declined = len(lobby.invited) - len(accepted)
    if lobby.computers:
        declined += lobby.free_seats
    seats = [SeatRecord(0, lobby.host_name, user_id=lobby.host_id)] + [
        SeatRecord(n + 1, i.name, user_id=i.user_id) for n, i in enumerate(accepted)
    ]
    return seats + computer_seats(len(seats), lobby.computers + declined, lobby.policy)


REMATCH_OF = "rematch_of"
"""The label (in a game's options, and so in its result) of a rematch: the finished game's
id. A rematch dealt at once (alone or against the computer) carries it, and so does one an
invitation started. A later press of that game's Rematch button is pointed at this game; any
other game in the channel, even one of the same kind its player started there since with
/play, is not the rematch."""


async def start_lobby(interaction: discord.Interaction[Any], lobby: LobbyRecord) -> None:
    """Seat everyone (computers for the declined), deal, and post the first table."""
    found = bundle(lobby.game_key)
    seats = _lobby_seats(lobby)
    check_seats(found, len(seats))
    # Claim the lobby first: of two presses at once, only one starts a game (or a thread).
    store = bot_of(interaction).tables.store
    try:
        claimed = await store.update_lobby(replace(lobby, status="started"), lobby.version)
    except StaleVersion:
        # Closed meanwhile (the sweep expired it, the host cancelled): a press again would
        # only be refused, so say why now.
        fresh = await store.get_lobby(lobby.id)
        if fresh is not None and fresh.status != "open":
            what = "table" if lobby.open_seats is not None else "invitation"
            raise GameError(f"That {what} {_CLOSED.get(fresh.status, 'has expired')}.") from None
        raise _Overtaken from None
    answered = lost = False

    async def answer_first() -> None:
        # Computers open the game, and an expert searches a while (or a thread is opened
        # first): answer Discord first, once.
        nonlocal answered, lost
        if answered:
            return
        answered = True
        lost = not await answered_in_time(defer(interaction))

    update, thread = await _deal_claimed(interaction, claimed, found, seats, answer_first)
    await bot_of(interaction).tables.store.update_lobby(
        replace(claimed, game_id=update.game.id), claimed.version
    )
    content = lobby_text(
        claimed, found.info.title, _game_on(thread.id if thread is not None else None)
    )
    lost = await _say_started(interaction, content, answered=answered, lost=lost)
    # The names as dealt: the table numbers a name two members share ("Sam", "Sam (2)").
    dealt = update.game.seats
    headline = f"**{found.info.title}** — {' vs '.join(plain(s.name) for s in dealt)}"
    await post_first_table(interaction, update, headline, thread, lost)


async def _deal_claimed(
    interaction: discord.Interaction[Any],
    claimed: LobbyRecord,
    found: GameBundle,
    seats: Sequence[SeatRecord],
    answer_first: Callable[[], Awaitable[None]],
) -> tuple[TableUpdate, discord.Thread | None]:
    """Deal the claimed lobby's game, in a thread of its own under the invitation when it asked
    for one; the game and that thread. When it cannot be dealt, the lobby is given back."""
    channel_id = interaction.channel_id
    thread: discord.Thread | None = None
    try:
        if claimed.thread and interaction.message is not None:
            # Opening a thread is a call to Discord, which its rate limits may hold: the press
            # is answered first, within Discord's three seconds.
            await answer_first()
            # Numbered as the table will number them: two members called Sam are told apart.
            names = [s.name for s in distinct_names(seats)]
            thread = await thread_under(
                interaction.client, interaction.message, thread_name(found.info.title, names)
            )
            channel_id = thread.id
        if channel_id is None:
            raise GameError("Games are played in a channel.")
        update = await bot_of(interaction).tables.start(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            game_key=found.key,
            seats=seats,
            options=claimed.options,
            labels=None if claimed.rematch_of is None else {REMATCH_OF: str(claimed.rematch_of)},
            before_computers=answer_first,
        )
    except (GameError, discord.HTTPException) as error:
        await _give_back(interaction, claimed)
        if isinstance(error, discord.HTTPException):
            raise GameError(NO_THREAD) from None
        raise
    return update, thread


async def _give_back(interaction: discord.Interaction[Any], claimed: LobbyRecord) -> None:
    """Open the claimed lobby again so the players can try again (say, after the other game
    ends)."""
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


async def _say_started(
    interaction: discord.Interaction[Any], content: str, *, answered: bool, lost: bool
) -> bool:
    """Turn the invitation into ``content`` (the game is on), buttons gone: through the
    interaction while its answer holds, else through the channel. Whether the interaction's
    answer is lost (the first table then goes to the channel too)."""
    edit: dict[str, Any] = {"content": content, "view": None, "allowed_mentions": NO_PINGS}
    shown = False
    if answered and not lost:
        shown = await answered_in_time(interaction.edit_original_response(**edit))
    elif not answered:
        shown = await answered_in_time(answer_in_place(interaction, **edit))
        lost = not shown
    if not shown:
        # The game is dealt: the invitation says so through the channel, its own message (and
        # should that fail, its first table is posted all the same).
        await _edit_in_channel(interaction.message, "could not say its game is on", **edit)
    return lost


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
    open_seats: int | None = None,
) -> LobbyRecord:
    """Store a lobby inviting ``invited`` to a table hosted by the presser, and post it (the
    invited are pinged; they answer with its buttons). Returns the stored lobby.

    ``rematch_of``: the finished game a Rematch button replays. One invitation to it is open
    at a time, kept by the database (``Store.open_rematch``), so a second press — after a
    restart, or in another process — is told so, with a link to the first, which is
    returned.

    ``open_seats``: an open table (/host) offering that many seats to whoever presses Join
    (``invited`` is then empty)."""
    channel_id = interaction.channel_id
    if channel_id is None:
        raise BadOption("Games are played in a channel.")
    tables = bot_of(interaction).tables
    if not thread and await tables.store.active_game(channel_id):
        raise BadOption("A game is already running here.")
    now = clock()
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
        open_seats=open_seats,
    )
    # Each invitation pings its members, and each thread stays in the channel's list: how
    # often a member sends them is limited (cogs/limits.py), a rematch's invitation too
    # (pressed, cancelled and pressed again, it pinged each time). Counted once it is stored:
    # a request refused before, or a rematch already asked for, uses nothing up.
    rates = [*([limits.INVITATIONS] if invited else []), *([limits.THREADS] if thread else [])]
    limits.check(interaction, *rates)
    if rematch_of is None:
        lobby = await tables.store.create_lobby(record)
    else:
        lobby, created = await tables.store.open_rematch(record, now)
        if not created:
            # Answered here, not raised: a refusal's text is made plain, links and all.
            await answer(
                interaction,
                already_asked(lobby, interaction.user.id),
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            return lobby
    limits.count(interaction, *rates)
    return await _post_invitation(interaction, lobby, found.info.title)


async def _post_invitation(
    interaction: discord.Interaction[Any], lobby: LobbyRecord, title: str
) -> LobbyRecord:
    """Post the stored ``lobby`` as the interaction's answer, pinging the invited, and remember
    its message; the lobby as it now stands."""
    store = bot_of(interaction).tables.store
    try:
        sent = await answer(
            interaction,
            lobby_text(lobby, title),
            view=lobby_view(lobby),
            allowed_mentions=pings(i.user_id for i in lobby.invited),
        )
    except discord.HTTPException:
        # Nothing was posted (Discord's three seconds ran out, or it failed), and the presser
        # can be told nothing: close the lobby, so a rematch is not held by an invitation
        # nobody can see, and a press again opens a new one.
        log.warning("could not post invitation %s; it is closed", lobby.id, exc_info=True)
        return await store.update_lobby(replace(lobby, status="cancelled"), lobby.version)
    message_id = sent.message_id if sent is not None else await _posted_answer(interaction)
    if message_id is None:
        return lobby
    # Its buttons are answered only under this message: a forged id pressed under another of
    # the bot's messages (a table, a leaderboard) would otherwise rewrite it as the invitation.
    await store.set_lobby_message(lobby.id, message_id)
    return replace(lobby, message_id=message_id)


async def _posted_answer(interaction: discord.Interaction[Any]) -> int | None:
    """The message Discord posted as the interaction's answer and still failed its reply (which
    says which it was): read back. None when it cannot be; the invitation then takes the
    message its buttons are first pressed on (``_on_its_invitation``). It was closed as never
    posted, while members read it: each press was refused as cancelled."""
    try:
        return (await interaction.original_response()).id
    except discord.HTTPException:
        log.warning("could not read back an invitation Discord posted", exc_info=True)
        return None


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


class LegacyChallengeButton(GameItem, template=r"jn:c:[ad]:.{0,90}"):
    """A challenge button from before lobbies: its id named the players, so it is refused."""

    def __init__(self, custom_id: str = "jn:c:a:") -> None:
        super().__init__(discord.ui.Button(label="Accept", custom_id=custom_id[:100]))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match.group(0))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        raise GameError("This invitation is from an older version of Junction; send a new one.")
