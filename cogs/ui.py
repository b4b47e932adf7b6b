"""What every cog shares: the running bot, private refusals, and the table message.

The table message is the game's public face after every move: a few lines of text (what
happened, whom the game waits for), the table image drawn from the public view only, and the
public pickers (``cogs.pickers``) plus "My hand" where hands are private. Every user-visible
echo goes through :func:`clip`: capped to Discord's limits and sent without pinging anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from bot.bidi import isolated
from bot.boards import KEPT, kept_rating_changes, rating_changes
from bot.engine.core import GameError
from bot.engine.words import plural
from bot.games import bundle
from bot.games.bundle import Presenter
from bot.render.pool import RenderPool
from bot.store import fault_of
from bot.store.base import StoreError
from bot.updates import TableUpdate, outcome_line, told
from cogs.alt_text import described, described_fitting
from cogs.follow_ups import answer_once, send_once, thinks

if TYPE_CHECKING:
    from bot.client import JunctionBot

log = logging.getLogger("junction.ui")

MESSAGE_LIMIT = 1900  # Discord allows 2 000 characters; keep room for a suffix
EMBED_DESCRIPTION = 4096  # Discord's longest embed description (API reference, Embed Limits)
NO_PINGS = discord.AllowedMentions.none()

T = TypeVar("T")


def bot_of(interaction: discord.Interaction[Any]) -> JunctionBot:
    return junction(interaction.client)


def junction(client: discord.Client) -> JunctionBot:
    """The running bot with its store, seam and renderer (cogs only ever run in it)."""
    return cast("JunctionBot", client)


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Text safe to send: at most ``limit`` characters, never empty."""
    text = text.strip() or "\u200b"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def whole_lines(lines: Sequence[str], room: int, more: Callable[[int], str]) -> list[str]:
    """The first ``lines`` that fit in ``room`` characters, each whole, then ``more(n)`` for
    the ``n`` left out. A line cut in the middle would end in half a name or half a link
    (escaping doubles a name made of markdown), so a list stops before the line that would
    not fit."""
    kept: list[str] = []
    used = 0
    for shown, line in enumerate(lines):
        rest = len(lines) - shown
        # Keep room for the closing count unless this is the last line.
        if used + len(line) + (len(more(rest)) + 2 if rest > 1 else 0) > room:
            return [*kept, more(rest)]
        kept.append(line)
        used += len(line) + 1
    return kept


LINK_BREAK = ":\u2060//"
"""``://`` with a word joiner (zero width, invisible) inside: Discord does not see a web
address in it, so it makes no link."""


def plain(text: str) -> str:
    """Text that may hold what members chose (their names, in captions and refusals), shown
    exactly as typed: a name like ``[My hand](https://…)`` must not become a link in the bot's
    own message, nor ``||…||`` a spoiler or ``# …`` a heading. A bare web address would still
    be made a live link by Discord (markdown escapes leave it as it is): in the bot's message,
    a nickname such as ``https://free-nitro.example`` would read as a link the bot posts, so
    its ``://`` is broken (``LINK_BREAK``); it still reads the same.

    discord.py's escape takes a whole ``[…](…)`` as one link (a backslash before it, nothing
    inside escaped) and reaches from a name's "[" to the last ")" of the line, so a name like
    ``[x](y) ||z||`` still hid "z" behind a spoiler in "… drives 25 miles (25 so far)"; and it
    leaves a web address unescaped, so ``https://x**y**`` was bold once its link was broken.
    Every "[" is escaped here instead, and addresses with the rest; a line opening "1. " (a
    name) would be a numbered list."""
    pieces = (discord.utils.escape_markdown(p, ignore_links=False) for p in text.split("["))
    escaped = _LIST_START.sub(r"\1\\.", "\\[".join(pieces)).replace("://", LINK_BREAK)
    return isolated(escaped)


_LIST_START = re.compile(r"^(\s*\d+)\.(?=\s)", re.MULTILINE)
"""A line Discord would show as an item of a numbered list ("1. Alice plays Go.")."""


def quote(text: str, limit: int = 40) -> str:
    """A member's own words, shortened for an answer that repeats them."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


QUOTED_DIGITS = 12
"""The most characters of a number a member gave that an answer repeats in full."""


def quote_number(number: int) -> str:
    """A number a member gave, for an answer that repeats it: one longer than
    ``QUOTED_DIGITS`` (10**30 computers, which only a request made by hand sends: Discord's
    client keeps to the option's range) is cut as their words are ("10000000000…")."""
    return quote(str(number), QUOTED_DIGITS)


async def refuse(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral sentence, whether or not the interaction was answered already.

    Errors may quote what a member typed, so they are clipped and ping nobody.
    """
    try:
        await say_privately(interaction, clip(plain(text)))
    except discord.HTTPException:
        log.warning("could not deliver a refusal", exc_info=True)


async def say_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """``text``, to the member alone: the interaction's answer (``answer``), or after its
    deferral a follow-up (``answer_once``: not shown twice where it can be found, and sent
    again where it cannot rather than lost)."""
    if interaction.response.is_done():
        await answer_once(interaction, content=text, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await answer(interaction, text, ephemeral=True, allowed_mentions=NO_PINGS)


async def answered_in_time(answering: Awaitable[Any]) -> bool:
    """Answer an interaction (``answering``: ``defer``, ``answer`` or ``answer_in_place``,
    which count an answer Discord took although it failed its reply as given); False when
    Discord refused (its three seconds ran out, or it failed). What was stored before the
    answer is then shown through the channel instead (``post_table_in_channel``)."""
    try:
        await answering
    except discord.HTTPException:
        log.warning("could not answer an interaction; posting to the channel", exc_info=True)
        return False
    return True


async def defer(
    interaction: discord.Interaction[Any], *, thinking: bool = False, ephemeral: bool = False
) -> None:
    """``interaction.response.defer``: a command's "thinking…" (``thinking``, or any
    command's deferral), or a button's silent one, before work that may outlast Discord's
    three seconds. A deferral Discord took and still failed its reply counts as taken
    (``_taken_although_failed``), and the command goes on to say its answer as follow-ups:
    the refusal of discord.py's second try ended it, its work lost and its "thinking…" left
    until Discord marked it failed, and the sentence saying Discord failed was refused
    "already acknowledged" in turn. A deferral Discord did not take (the interaction expired)
    is raised, as before: nothing can follow it."""
    await _given(
        interaction.response.defer(thinking=thinking, ephemeral=ephemeral),
        interaction,
        _deferral(interaction, thinking),
    )


async def answer(
    interaction: discord.Interaction[Any], content: str | None = None, **message: Any
) -> discord.InteractionCallbackResponse[Any] | None:
    """``interaction.response.send_message``: a command's or a press's answer, public or
    private, given at once. An answer Discord took and still failed its reply counts as given
    (``_taken_although_failed``): the member reads it, where the refusal of discord.py's
    second try ("already acknowledged") escaped, logged as an error of the bot, and the
    sentence saying Discord failed was refused in turn. Discord's reply, which says which
    message it posted, is then lost: None (``interaction.original_response`` reads it). An
    answer Discord did not take is raised, as before."""
    return await _given(
        interaction.response.send_message(content, **message),
        interaction,
        discord.InteractionResponseType.channel_message,
    )


async def answer_in_place(interaction: discord.Interaction[Any], **edit: Any) -> None:
    """``interaction.response.edit_message``: a press answered by changing the message it was
    pressed on; taken although failed, as ``answer``'s."""
    await _given(
        interaction.response.edit_message(**edit),
        interaction,
        discord.InteractionResponseType.message_update,
    )


async def _given(
    given: Awaitable[T],
    interaction: discord.Interaction[Any],
    kind: discord.InteractionResponseType,
) -> T | None:
    """Await ``given``, ``interaction``'s answer (``kind``); None when Discord took it although
    it failed its reply. Every answer of the bot's goes through here: one a command gave by
    itself met the 40060 unread."""
    try:
        return await given
    except discord.HTTPException as error:
        if not _taken_although_failed(error, interaction, kind):
            raise
        return None


def _deferral(
    interaction: discord.Interaction[Any], thinking: bool
) -> discord.InteractionResponseType:
    """The answer ``interaction.response.defer`` gives: "thinking…" to a command (it has no
    other), or when asked; a button's or a form's silent update otherwise."""
    if thinking or interaction.type is discord.InteractionType.application_command:
        return discord.InteractionResponseType.deferred_channel_message
    return discord.InteractionResponseType.deferred_message_update


ALREADY_ACKNOWLEDGED = 40060
"""Discord's code for an answer to an interaction that was answered already."""


def _taken_although_failed(
    error: discord.HTTPException,
    of: discord.Interaction[Any],
    kind: discord.InteractionResponseType,
) -> bool:
    """Whether ``error``, met answering ``of`` as ``kind``, says Discord holds the answer: it
    took it and still failed its reply (a 5xx, in an outage), and discord.py's second try met
    the first ("already acknowledged"). The bot answers an interaction once, so the answer
    Discord holds is this one: the message or the edit is there, or a "thinking…", which
    becomes the table or the command's answer (a table posted to the channel instead left it
    thinking for good). discord.py is told so (``_taken_anyway``)."""
    if error.code != ALREADY_ACKNOWLEDGED:
        return False
    log.warning("Discord failed an answer it had taken", exc_info=error)
    _taken_anyway(of, kind)
    return True


def _taken_anyway(
    interaction: discord.Interaction[Any], kind: discord.InteractionResponseType
) -> None:
    """Tell discord.py that ``interaction`` was answered (``kind``) by an answer whose reply
    Discord failed. discord.py marks an answer given only when Discord's reply says so, and
    then still held the interaction unanswered: the bot's next word (a refusal, ``refuse``)
    went as an answer of its own, was refused "already acknowledged" in turn and never reached
    the member, and a "thinking…" was not known as one (``thinks``). discord.py has no public
    way to say it, so its private ``InteractionResponse._response_type`` is set, as its own
    answers set it; what follows then goes as follow-ups."""
    if not interaction.response.is_done():
        interaction.response._response_type = kind


APOLOGY = "Something went wrong on our side; nothing was changed."
"""The answer to a failure that is a bug of ours (it is logged with its traceback)."""

DISCORD_TROUBLE = (
    "Discord did not take the bot's answer just now, so what you did may have gone through: "
    "look at the table (or /mygames) before trying again."
)
"""The answer to a request Discord failed partway (an outage, its 5xx): the change may be
stored already, which the apology's "nothing was changed" would deny."""


STORAGE_TROUBLE = {
    "busy": (
        "The game records are busy right now (something else is writing to them); "
        "nothing was changed. Try again in a moment."
    ),
    "full": (
        "The bot's storage is full, so nothing could be saved; nothing was changed. "
        "Please tell the server's admins."
    ),
    "damaged": (
        "This channel's saved game could not be read or written (its record may be damaged); "
        "nothing was changed. Please tell the server's admins."
    ),
    "connection": (
        "The bot lost its connection to the database for a moment; nothing was changed. Try again."
    ),
}


def storage_trouble(error: BaseException) -> str | None:
    """A sentence for a failure of the database itself (None for any other error).

    Locked past the busy timeout, a full disk, a damaged record, or a lost connection to
    PostgreSQL: the request was refused before anything was stored, and a later one will work
    once the fault is gone (the store's transactions and the connection pool see to that).
    """
    fault = fault_of(error)
    return None if fault is None else STORAGE_TROUBLE[fault]


def failure_text(error: BaseException, log: logging.Logger, what: str) -> str:
    """What a member is told when handling ``what`` (a command, a button) failed with
    ``error``, which is logged: the database's fault, Discord's, or a bug of ours."""
    trouble = storage_trouble(error)
    if trouble is not None:
        log.warning("%s: storage fault", what, exc_info=error)
        return trouble
    if isinstance(error, discord.HTTPException):
        # A 5xx is Discord's; anything else it refused is a request of ours it would not take.
        level = logging.WARNING if error.status >= 500 else logging.ERROR
        log.log(level, "%s: Discord failed a call", what, exc_info=error)
        return DISCORD_TROUBLE
    log.error("%s failed", what, exc_info=error)
    return APOLOGY


def pings(user_ids: Iterable[int | None]) -> discord.AllowedMentions:
    """Mentions that may ping exactly these members and nobody else: text a member chose (a
    nickname, a caption echoing one) can name anyone, and must not ping them."""
    users = [discord.Object(user_id) for user_id in dict.fromkeys(user_ids) if user_id is not None]
    return discord.AllowedMentions(users=users, roles=False, everyone=False, replied_user=False)


def called(update: TableUpdate) -> list[int | None]:
    """The members the table message calls on by mention (``table_text``): whoever must act."""
    return [s.user_id for s in (*update.reacting, *update.waiting_members)]


def newly_called(update: TableUpdate) -> list[int | None]:
    """The members the table calls on whose call is news: not those the game waited for
    already before the move it answers (``TableUpdate.still_waiting``), told when it began."""
    return [
        s.user_id
        for s in (*update.reacting, *update.waiting_members)
        if s.seat not in update.still_waiting
    ]


def table_text(update: TableUpdate, headline: str | None = None, closing: str = "") -> str:
    """The line(s) above the table image: what happened, and who plays next (``closing``:
    a last line after the result, such as the ratings it moved).

    Every step since the member acted is told (with several computers a turn of the table is
    many moves); when they do not all fit in a message, the oldest give way to a count."""
    head, captions = _told_lines(update, headline)
    tail: list[str] = []
    if update.outcome is not None:
        tail.append(outcome_line(update, markdown=True, escape=plain))
        if closing:
            tail.append(closing)
    elif update.game.status == "active":
        found = bundle(update.game.game_key)
        private = found.info.private_hands
        reacting = {s.seat for s in update.reacting}
        turn = [s for s in update.waiting_members if s.seat not in reacting]
        if update.reacting:
            mentions = " ".join(f"<@{s.user_id}>" for s in update.reacting)
            deadline = update.game.turn_deadline
            when = f" (until <t:{int(deadline)}:T>)" if deadline else ""
            tail.append(f"{mentions}, you may react{when} — press **My hand**.")
        if turn:
            mentions = " ".join(f"<@{s.user_id}>" for s in turn)
            how = " — press **My hand** to play." if private else "."
            if private and found.presenter.table_pickers(update.public):
                # A choice everyone may see (Mille Bornes' extension at 700) is asked with the
                # buttons on the table: "press My hand" sent the member looking elsewhere.
                how = " — choose with the buttons below."
            tail.append(f"{mentions}, your turn{how}")
    return _fitted(head, captions, tail)


def _told_lines(update: TableUpdate, headline: str | None) -> tuple[list[str], list[str]]:
    """The first lines of a message (the headline, a deal's or a timeout's line) and the
    captions of its steps."""
    head = [headline] if headline else []
    if update.dealt:
        # A new game the computer opened: the deal's line says why it moved first; or a new
        # round's first line ("Hand 2: Bob starts.", ``split_round``).
        head.append(plain(update.dealt))
    timeout = update.timeout
    ending = timeout if timeout is not None and timeout.action == "idle" else None
    if timeout is not None and ending is None:
        head.append(plain(timeout.caption))
    reason = update.outcome.reason if update.outcome is not None else ""
    # Captions and the result name the players: plain text, whatever the names hold.
    captions = [plain(c) for c in told((s.caption for s in update.steps), reason)]
    if ending is not None:
        # The game ends after the late turn just played: its line comes last, as a result's.
        captions.append(plain(ending.caption))
    return head, captions


def _fitted(head: Sequence[str], captions: Sequence[str], tail: Sequence[str]) -> str:
    """The message's lines, the oldest captions giving way to a count when they do not fit.

    The first caption stays: it is what the member who asked did ("🏳️ Ann left the game.",
    "Ann plays 100 miles."), and a member resigning from a table of computers, which then
    play the game out, must still read that they left; the moves after it give way."""
    room = MESSAGE_LIMIT - sum(len(line) + 1 for line in (*head, *tail)) - 40
    first, rest = list(captions[:1]), list(captions[1:])
    if sum(len(line) + 1 for line in first) > room // 2:
        first, rest = [], list(captions)  # a first line too long to keep goes like the rest
    room -= sum(len(line) + 1 for line in first)
    shown = rest
    while shown and sum(len(line) + 1 for line in shown) > room:
        shown = shown[1:]
    if len(shown) < len(rest):
        left_out = len(rest) - len(shown)
        shown = [f"… ({plural(left_out, 'more move')} not shown)", *shown]
    return clip("\n".join([*head, *first, *shown, *tail]))


def table_alt(shown: Presenter, public: Any, before: str = "") -> str:
    """A table image's alt text: the console's text table, which says what the picture shows,
    for screen readers (after ``before``, said first)."""
    head = f"{before}\n" if before else ""
    if shown.alt_tables is not None:
        return described_fitting([(head + whole, rest) for whole, rest in shown.alt_tables(public)])
    return described(head + shown.console_table(public))


async def table_files(renderer: RenderPool, update: TableUpdate) -> list[discord.File]:
    """The table image, plus the score image when a round (or the game) just ended."""
    shown = bundle(update.game.game_key).presenter
    alt = table_alt(shown, update.public)
    files = [
        discord.File(
            io.BytesIO(await renderer.run(shown.table_png, update.public)),
            filename="table.png",
            description=alt,
        )
    ]
    ended = update.outcome is not None
    if ended or (
        update.previous is not None and shown.round_finished(update.previous, update.public)
    ):
        files += await score_files(renderer, update, alt)
    return files


async def score_files(
    renderer: RenderPool, update: TableUpdate, alt: str | None = None
) -> list[discord.File]:
    """The score image of the round that just ended (none when the game has none to show),
    described by the game's ``result_text`` (else by ``alt``)."""
    shown = bundle(update.game.game_key).presenter
    score = await renderer.run(shown.result_png, update.public)
    if not score:
        return []
    if shown.result_text is not None:
        alt = described(shown.result_text(update.public))
    return [discord.File(io.BytesIO(score), filename="score.png", description=alt)]


def split_round(update: TableUpdate) -> tuple[TableUpdate, TableUpdate] | None:
    """A round that ended while the game goes on, as two messages: the round's end (its
    captions up to the move that finished it) and the next round's table (the moves after it,
    whom it waits for). One message listed the next hand's first moves above the table and the
    finished hand's score image below it, so a member read the new hand before the old one's
    result. None when no round ended, or when the game did (its last table tells both).

    The next round's first line ("Hand 2: Bob starts.", at the end of the caption of the move
    that finished the round) heads the next table, the message where that player acts: it
    closed the round's end, above its score image. The stored caption keeps it (the table
    image, /table and replays say both)."""
    if update.outcome is not None:
        return None
    ends = [n for n, step in enumerate(update.steps) if step.round_ended]
    if not ends:
        return None
    cut = ends[-1] + 1
    last = update.steps[cut - 1]
    ending, opening = bundle(update.game.game_key).presenter.round_opening(
        update.public, last.caption
    )
    finished = replace(update, steps=(*update.steps[: cut - 1], replace(last, caption=ending)))
    # No score image on the next table (``previous`` is what would attach it), and the deal's
    # and the timeout's lines were said with the round's end; the new round's first line is
    # said as a new game's is (``dealt``), before any move of it.
    table = replace(update, steps=update.steps[cut:], previous=None, dealt=opening, timeout=None)
    return finished, table


def round_text(update: TableUpdate, headline: str | None = None) -> str:
    """The message of a round's end: what happened up to it, the round's end last."""
    head, captions = _told_lines(update, headline)
    return _fitted(head, captions, [])


async def post_table(
    interaction: discord.Interaction[Any],
    update: TableUpdate,
    headline: str | None = None,
    *,
    ping: bool = True,
    quiet: Collection[int] = (),
) -> None:
    """Post the table as the answer to an interaction that has been deferred or answered
    (``ping``, ``quiet``: as ``send_table``'s).

    The game is stored by now: when Discord refuses a follow-up (it failed, or the
    interaction's webhook is gone), that message and the rest go to the channel as plain
    messages instead, as for an acknowledgement that failed (``post_table_in_channel``). Each
    message is sent once: a round's end that went through keeps its place, and only what
    was refused goes to the channel; a follow-up Discord posted and still answered with a
    server error is found, not posted again (``cogs.follow_ups.send_once``)."""
    bot = bot_of(interaction)
    thinking = thinks(interaction)

    async def followup(**message: Any) -> discord.Message:
        nonlocal thinking
        replaces_thinking, thinking = thinking, False
        return await send_once(interaction, replaces_thinking=replaces_thinking, **message)

    send: Callable[..., Awaitable[discord.Message]] = followup
    if interaction.channel_id is not None:
        channel = bot.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
        send = _or_in_channel(followup, channel, partial(drop_thinking, interaction))
    await send_table(bot, send, update, headline, ping=ping, quiet=quiet)


async def drop_thinking(interaction: discord.Interaction[Any]) -> None:
    """Take back a command's "thinking…" whose first follow-up Discord refused: the table it
    was to become goes to the channel, and the placeholder would otherwise stay, thinking, until
    Discord marks it failed. (A button's deferral has no placeholder: its original response
    is the message it was pressed on, which must stay.)"""
    if thinks(interaction):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()


def _or_in_channel(
    send: Callable[..., Awaitable[discord.Message]],
    channel: discord.PartialMessageable,
    on_refusal: Callable[[], Awaitable[None]] | None = None,
) -> Callable[..., Awaitable[discord.Message]]:
    """``send``, until Discord refuses it once; then (that message too) ``channel.send``,
    after ``on_refusal`` if nothing was sent before (a first follow-up that went through took
    the thinking placeholder's place)."""
    refused = sent = False

    async def sending(**message: Any) -> discord.Message:
        nonlocal refused, sent
        if not refused:
            try:
                answer = await send(**message)
                sent = True
                return answer
            except discord.HTTPException:
                refused = True
                log.warning(
                    "could not send a table follow-up; posting to the channel", exc_info=True
                )
                if on_refusal is not None and not sent:
                    await on_refusal()
        # The refused request may have read the images already: send fresh copies.
        return await channel.send(**{**message, "files": _fresh(message.get("files", []))})

    return sending


def _fresh(files: Sequence[discord.File]) -> list[discord.File]:
    """New files with the same images, read from the start (a request that was refused may have
    read the old ones to their end)."""
    copies = []
    for file in files:
        file.reset()
        copies.append(
            discord.File(
                io.BytesIO(file.fp.read()),
                filename=file.filename,
                description=file.description,
            )
        )
    return copies


async def post_table_in_channel(
    interaction: discord.Interaction[Any],
    update: TableUpdate,
    headline: str | None = None,
    *,
    quiet: Collection[int] = (),
) -> None:
    """Post the table as a plain message in the interaction's channel: the game is stored
    although its interaction could not be answered (Discord's three seconds ran out, or Discord
    failed), and an interaction never acknowledged carries no follow-ups."""
    bot = bot_of(interaction)
    if interaction.channel_id is None:
        raise GameError("Games are played in a channel.")
    channel = bot.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
    await send_table(bot, channel.send, update, headline, quiet=quiet)


async def send_table(
    bot: JunctionBot,
    send: Callable[..., Awaitable[discord.Message]],
    update: TableUpdate,
    headline: str | None = None,
    *,
    ping: bool = True,
    quiet: Collection[int] = (),
) -> None:
    """Send the table message (text, images, pickers) through ``send`` and remember it.
    ``ping``: whether the members it calls on are notified (not for a mere repost); ``quiet``:
    members it calls on without a notification (the member whose move it answers, at the table
    already: their second card, a safety's extra turn)."""
    from cogs.pickers import table_view

    split = split_round(update)
    if split is not None:
        # The round's end and its score first, on their own (no buttons, nobody called), then
        # the next round's table, which is the one remembered and answered.
        finished, update = split
        await send(
            content=round_text(finished, headline),
            files=await score_files(bot.renderer, finished),
            allowed_mentions=NO_PINGS,
        )
        headline = None
    message = await send(
        content=table_text(update, headline, closing=await rating_line(bot, update)),
        files=await table_files(bot.renderer, update),
        view=await table_view(update),
        allowed_mentions=pings(
            (m for m in newly_called(update) if m not in quiet)
            if ping and update.outcome is None
            else ()
        ),
    )
    await remember_table(bot, update, message.id)


async def rating_line(bot: JunctionBot, update: TableUpdate) -> str:
    """After a game between members: how it moved each one on this server's ladder, as
    /leaderboard shows it; "" for any other table, or when the results cannot be read (the
    table is posted all the same)."""
    game = update.game
    if update.outcome is None or game.status != "finished":
        return ""
    if len(game.seats) < 2 or any(s.is_computer for s in game.seats):
        return ""
    store = bot.tables.store
    try:
        # The ladder kept and caught up with the game just ended (bot/kept_results.py); a game
        # no longer among its latest is replayed from every result of the ladder.
        kept = await KEPT.read(store, game_key=game.game_key, guild_id=game.guild_id)
        changes = await asyncio.to_thread(kept_rating_changes, kept, game.id)
        if changes is None:
            results = await store.results(game_key=game.game_key, guild_id=game.guild_id)
            # CPU work, off the event loop.
            changes = await asyncio.to_thread(
                partial(
                    rating_changes,
                    results,
                    game_id=game.id,
                    game_key=game.game_key,
                    guild_id=game.guild_id,
                )
            )
    except StoreError:
        log.warning("could not read the ratings after game %s", game.id, exc_info=True)
        return ""
    if not changes:
        return ""
    moves = " · ".join(
        f"{plain(c.name)} {c.before:,} → {c.after:,} ({c.after - c.before:+,})" for c in changes
    )
    return f"📈 Ratings: {moves}"


async def remember_table(bot: JunctionBot, update: TableUpdate, message_id: int) -> None:
    """Keep the newest table message's id, so /mygames and /history link to it.

    The table shows the game at ``update.game.version``; the store keeps it only while the
    game is still there, so an older table that Discord posted last (a move's and a timer's
    at the same moment, or two processes') never replaces a newer one."""
    try:
        await bot.tables.store.set_message(update.game.id, message_id, update.game.version)
    except StoreError:
        log.warning("could not remember table message %s", message_id, exc_info=True)
