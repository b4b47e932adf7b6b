"""The games a member is playing now, as lines for /mygames (no Discord).

A member with games in several channels or threads (long turn timers make that common) needs
to find the ones waiting for them. Each line says which game, where, against whom, whose move
it is and when the turn timer runs out, with a link to the table message (read in a direct
message, a game on a server names the server and links to its channel too, and one played in
that direct message is "in our direct messages"). Games waiting for the member come first;
then the others, oldest first. After them come the open tables (/host) and invitations
(/challenge) still gathering players that seat or invite the member.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from bot.boards import channel_link, message_link
from bot.engine.core import GameError
from bot.engine.words import names, plural
from bot.games import title_of
from bot.position import Position
from bot.store.base import LobbyRecord, StoredGame
from bot.tables import Tables


@dataclass(frozen=True)
class InPlay:
    """One active game of a member's, read from its position."""

    title: str
    channel_id: int
    link: str | None  # the newest table message, when the bot knows it
    opponents: tuple[str, ...]
    waiting_for_you: bool
    waiting_for: tuple[str, ...]  # the names whose move it is (computers included)
    deadline: float | None
    readable: bool = True  # False: the save cannot be read (or its game is not installed)
    # On a server with no table message known (a moderator deleted it, or its post failed):
    # /table there posts it again.
    table_gone: bool = False
    knocked_out: bool = False  # the member is still seated but will not act again (Dragon)
    guild_id: int | None = None  # the server it is played on (None: a direct message)


ChannelNames = Callable[[int, int], tuple[str | None, str | None]]
"""The names of a server and of a channel or thread on it (a guild id, a channel id), as the
front end knows them: None for a name it does not know."""


async def games_of(
    tables: Tables, user_id: int, guild_id: int | None, *, everywhere: bool = False
) -> list[InPlay]:
    """The active games on a server (``guild_id``; None: in direct messages) in which
    ``user_id`` still plays, oldest first; with ``everywhere``, on every server and in direct
    messages alike. A game whose save cannot be read is listed as such: left out, it would
    have a member told they play nothing while it holds their seat (and its channel) in play."""
    found = []
    for stored in await tables.store.games_of_member(user_id, active=True):
        if stored.guild_id != guild_id and not everywhere:
            continue
        gone = await tables.hindsight.seats_left(stored)
        if all(s.seat in gone for s in stored.seats if s.user_id == user_id):
            continue  # left it: the others play on
        try:
            found.append(in_play(tables.position(stored), user_id, gone))
        except GameError:  # a CorruptSave, or a plug-in game no longer installed
            found.append(unreadable(stored, user_id))
    return found


def unreadable(stored: StoredGame, user_id: int) -> InPlay:
    """What /mygames says of a game in play whose save cannot be read: where it is, and with
    whom (from its seats, which need no rules); nobody's move."""
    return InPlay(
        title=title_of(stored.game_key),
        channel_id=stored.channel_id,
        link=_link(stored),
        opponents=tuple(s.name for s in stored.seats if s.user_id != user_id),
        waiting_for_you=False,
        waiting_for=(),
        deadline=None,
        readable=False,
        table_gone=_table_gone(stored),
        guild_id=stored.guild_id,
    )


def in_play(here: Position, user_id: int, gone: frozenset[int] = frozenset()) -> InPlay:
    """What /mygames says of one game ``user_id`` plays in; ``gone``: the seats of members who
    left it (the others play on without them, so they are nobody's opponent any more)."""
    stored = here.stored
    mine = {s.seat for s in stored.seats if s.user_id == user_id}
    acting = here.acting
    return InPlay(
        title=here.bundle.info.title,
        channel_id=stored.channel_id,
        link=_link(stored),
        opponents=tuple(s.name for s in stored.seats if s.seat not in mine | gone),
        waiting_for_you=any(seat in mine for seat in acting),
        waiting_for=tuple(stored.seats[seat].name for seat in acting if seat not in mine),
        deadline=stored.turn_deadline,
        knocked_out=bool(mine) and mine <= here.game.out(here.state),
        table_gone=_table_gone(stored),
        guild_id=stored.guild_id,
    )


def _link(stored: StoredGame) -> str | None:
    """The newest table message, when the bot knows it."""
    if stored.message_id is None or stored.guild_id is None:
        return None
    return message_link(stored.guild_id, stored.channel_id, stored.message_id)


def _table_gone(stored: StoredGame) -> bool:
    """Whether a server's game has no table message to link to. (In a direct message there is
    never a link: the table is in the same conversation.)"""
    return stored.message_id is None and stored.guild_id is not None


def playing_lines(
    games: Sequence[InPlay],
    *,
    escape: Callable[[str], str],
    away: ChannelNames | None = None,
) -> list[str]:
    """A line per game, those waiting for the member first, the one whose time runs out
    soonest first among them (a member playing slowly in many channels answers the most
    urgent one; untimed games after, a stable sort keeping their order). The lines are
    markdown; ``escape`` makes each name plain text.

    ``away``: the lines are read in a direct message, where a channel mention (``<#id>``)
    shows no usable link: a game on a server is said by its server's and channel's names
    (as ``away`` gives them) with a link to the channel, and one played in the member's direct
    messages with the bot is "in our direct messages"."""
    ordered = sorted(games, key=_urgency)
    return [_line(game, escape, away) for game in ordered]


def _urgency(game: InPlay) -> tuple[bool, float]:
    """The order of ``playing_lines``: the member's move before others', then the deadline
    (none: last). Only the member's own games are ordered by time; the others keep theirs."""
    if not game.waiting_for_you:
        return (True, 0.0)
    return (False, game.deadline if game.deadline is not None else float("inf"))


def _line(game: InPlay, escape: Callable[[str], str], away: ChannelNames | None) -> str:
    opponents = ", ".join(map(escape, game.opponents))
    against = f" against {opponents}" if opponents else " (alone)"
    if not game.readable:
        turn = "its save cannot be read: /abort it there"
    elif game.waiting_for_you:
        turn = "**your move**"
    elif game.waiting_for:
        # As the table says it ("waiting for Bob and Carol", the opening tickets).
        turn = f"waiting for {names([escape(name) for name in game.waiting_for])}"
    else:
        turn = "waiting"
    if game.knocked_out:
        # Still listed: the member is seated until the game ends (its result is theirs too).
        turn = f"you are out, the others play on ({turn})"
    clock = f", time runs out <t:{int(game.deadline)}:R>" if game.deadline is not None else ""
    link = f" · [table]({game.link})" if game.link else ""
    if game.table_gone and game.readable:
        link = " · `/table` there posts the table again"
    where = f" in <#{game.channel_id}>"
    if away is not None and game.guild_id is None:
        # Played in the very conversation the list is read in (a solitaire, or against the
        # computer): a mention of a direct message opens nothing, and names no channel.
        where = " in our direct messages"
    elif away is not None and game.guild_id is not None:
        server, channel = away(game.guild_id, game.channel_id)
        where = f" in #{escape(channel)}" if channel else ""
        where += f" on {escape(server)}" if server else " on a server"
        link = f" · [channel]({channel_link(game.guild_id, game.channel_id)}){link}"
    return f"**{game.title}**{where}{against}: {turn}{clock}{link}"


def lobby_lines(
    lobbies: Sequence[LobbyRecord],
    user_id: int,
    *,
    escape: Callable[[str], str],
    owed: Collection[int] = (),
) -> list[str]:
    """A line per open table or invitation (``Store.open_lobbies_of``): the game, where, who
    hosts, the seats taken and free (or the answers), when it closes, a link to its message.
    The lobbies ``owed`` (ids) are past their stored time but still owed the time the bot was
    away: they close later than it says, once the timers give that time back."""
    return [_lobby_line(lobby, user_id, escape, lobby.id in owed) for lobby in lobbies]


def _lobby_line(
    lobby: LobbyRecord, user_id: int, escape: Callable[[str], str], owed: bool = False
) -> str:
    title = title_of(lobby.game_key)
    host = "you host" if lobby.host_id == user_id else f"{escape(lobby.host_name)} hosts"
    if lobby.open_seats is not None:
        # As the table's message counts them: the host, the members who joined, the computers.
        taken = 1 + len(lobby.invited) + lobby.computers
        what = f"open table, {host}: {plural(taken, 'seat')} taken, {lobby.free_seats} free"
        closes = "closes"
        name = "table"
    else:
        accepted = sum(i.answer == "accepted" for i in lobby.invited)
        what = f"invitation, {host}: {accepted} of {len(lobby.invited)} accepted"
        closes = "expires"
        name = "invitation"
    where = f" in <#{lobby.channel_id}>"
    link = ""
    if lobby.message_id is not None and lobby.guild_id is not None:
        link = f" · [{name}]({message_link(lobby.guild_id, lobby.channel_id, lobby.message_id)})"
    when = f"{closes} <t:{int(lobby.expires_at)}:R>"
    if owed:
        # Its stored time has passed; the first timer sweep moves it on by the downtime.
        when = f"{closes} later: the time the bot was away is being given back"
    return f"**{title}**{where} ({what}), {when}{link}"
