"""The commands every running game shares: /move, /table, /resign, /abort, /hint, /rules.

They work for any registered game through the seam and the game's bundle. /move's
autocomplete offers the member's legal moves, each carrying the turn it was offered for, so a
choice picked for an earlier turn is refused instead of being applied to a new position.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import message_link
from bot.engine.core import BadOption, GameError
from bot.games import bundle, hint_policy, policy_factory, suggest_move
from bot.games.bundle import ButtonSpec, MoveChoice
from bot.hindsight import LEFT_THE_GAME
from bot.position import OUT_OF_THE_GAME, Position
from bot.typed_moves import MAX_MOVE_TEXT, typed_move, unaccented
from bot.updates import StaleButton
from cogs import limits
from cogs.choices import game_choices
from cogs.follow_ups import answer_once
from cogs.moving import play_move
from cogs.pickers import (
    DYNAMIC_ITEMS,
    ID,
    GameItem,
    carried_move,
    hand_message,
    register_items,
    unkept,
)
from cogs.seat_names import display_name
from cogs.ui import (
    EMBED_DESCRIPTION,
    NO_PINGS,
    answer,
    answer_in_place,
    bot_of,
    clip,
    defer,
    pings,
    plain,
    post_table,
    refuse,
    storage_trouble,
)

TURN_MARK = "§"
"""Separates a /move autocomplete choice's notation from the game and turn it was offered for
(``play go§12:3``: game 12, turn 3)."""
OTHER_GAME = "That suggestion was for another game; pick your move again from the list."
"""A suggestion picked in a game that has ended, sent once another game began in the channel:
it carried only its turn, and the new game at that turn took it as its own."""
CHOICE_TEXT = 100
"""The most characters Discord takes in a suggestion's name and value."""
SUGGESTIONS = 25
"""The most suggestions Discord shows for one option."""
REPOST_SECONDS = 30
"""/table posts an unchanged table at most once in this many seconds per channel."""


def split_turn(text: str) -> tuple[str, int | None, int | None]:
    """A /move value, the game and the turn its autocomplete choice was made for (None when
    typed; a turn alone, ``play go§3``, names no game)."""
    notation, mark, tail = text.rpartition(TURN_MARK)
    game, colon, turn = tail.rpartition(":")
    if mark and turn.isdecimal() and len(turn) < 10:
        if not colon:
            return notation, None, int(turn)
        if game.isdecimal() and len(game) < 20:
            return notation, int(game), int(turn)
    return text, None, None


def _named(here: Position, seat: int, text: str) -> str | None:
    """The notation of the move ``text`` names, read as a typed /move is (None: none)."""
    if not text:
        return None
    with contextlib.suppress(GameError):
        return here.game.format_action(here.game.parse_for(here.state, seat, text))
    return None


def kinds_fitting(moves: Sequence[MoveChoice], room: int) -> list[MoveChoice]:
    """``moves`` in the game's order, except that, when they are more than ``room``, the kinds
    of move (a notation's first word) with the most moves go after all the others, the largest
    last, until the others fit: a race's 255 cycles, Dragon's 47 discards of Car Wars cards
    or Ticket to Ride's 27 ways to take from the yard, listed ahead of "End your turn" or
    "draw tickets", crowded them out of what Discord shows. A short list keeps the game's
    order, and the moves of a kind keep theirs."""
    if len(moves) <= room:
        return list(moves)
    counts = Counter(_kind(m) for m in moves)
    last: list[str] = []
    while len(counts) > 1 and sum(counts.values()) > room:
        largest = max(counts, key=counts.__getitem__)
        last.append(largest)
        del counts[largest]
    first = [m for m in moves if _kind(m) in counts]
    return first + [m for kind in reversed(last) for m in moves if _kind(m) == kind]


def _kind(move: MoveChoice) -> str:
    """The kind of a move: its notation's verb (``play``, ``cycle``, ``end``, ``yard``)."""
    return move.notation.split(" ", 1)[0]


ABORTED_BY_ALL = "🛑 Everyone agreed: the game was aborted with no result."
ABORT_REQUEST = "wants to abort this game with no result."
AGREES = "agrees to abort; waiting for the others."


def _is_abort_request(interaction: discord.Interaction[Any]) -> bool:
    """Whether the pressed message is this bot's /abort request: its words are the bot's own,
    unlike a custom id, which any client can press under any message (another bot's message
    quoting them does not count)."""
    message, me = interaction.message, interaction.client.user
    return (
        message is not None
        and me is not None
        and message.author.id == me.id
        and ABORT_REQUEST in message.content
        and not message.flags.ephemeral
    )


class AbortButton(GameItem, template=rf"jn:x:(?P<game>{ID})(?::[0-9]{{1,19}})?"):
    """Another member agrees to end the game with no result (votes are stored)."""

    posts_images = False  # words only: a game can be ended where no table can be posted

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Agree to abort",
                style=discord.ButtonStyle.danger,
                custom_id=f"jn:x:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        tables = bot_of(interaction).tables
        stored = await tables.game_by_id(self.game_id)
        if interaction.channel_id != stored.channel_id:
            # A vote is cast where the game is, as a move is: pressed elsewhere, its notices
            # would tell another channel (another game's table) that its game was aborted.
            raise GameError(
                f"That button belongs to a game in another channel (<#{stored.channel_id}>)."
            )
        if stored.status != "active":
            # The request's button stays under it when the game ends by play: "use /abort to
            # ask" sent the member to a command that finds no game here.
            raise GameError("That game has ended.")
        if not await tables.store.abort_votes(stored.id):
            raise GameError(
                "Nobody is asking to abort that game now (a request lapses at the next move); "
                "use /abort to ask."
            )
        _, aborted = await tables.vote_abort(game_id=stored.id, user_id=interaction.user.id)
        if aborted:
            if _is_abort_request(interaction):
                # The request itself: its Agree button goes with the game.
                await answer_in_place(interaction, content=ABORTED_BY_ALL, view=None)
            else:
                # Pressed under any other message (a forged id under a table, a leaderboard or
                # an invitation), which must not be rewritten as this notice: a message of its
                # own.
                await answer(interaction, ABORTED_BY_ALL)
            return
        await answer(
            interaction,
            f"{plain(display_name(interaction.user))} {AGREES}",
            allowed_mentions=NO_PINGS,
        )


class Play(commands.Cog):
    """Commands for the game running in a channel."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # Per channel: the game's version when /table last posted it, and when (monotonic).
        self._reposts: dict[int, tuple[int, float]] = {}

    @app_commands.command(name="move", description="Make a move in the game here")
    @app_commands.describe(action="Your move, e.g. 'play go' — pick from the list")
    async def move(self, interaction: discord.Interaction[Any], action: str) -> None:
        if len(action) > MAX_MOVE_TEXT:
            raise BadOption("That move is far too long; pick one from the list.")
        notation, game, turn = split_turn(action)
        if turn is not None:
            tables = bot_of(interaction).tables
            stored = await tables.current(_channel(interaction))
            if game is not None and game != stored.id:
                raise StaleButton(OTHER_GAME)
            # A choice offered before another member's simultaneous decision still holds (the
            # notation says what it means); one the member has acted on since does not.
            # Read again under the channel's lock (shown_at): another member's choice stored
            # while this one waited does not make it stale either. A decision that no longer
            # stands never stands again: a forged old turn is not rebuilt a second time.
            shown_at = None
            if await tables.hindsight.still_deciding(stored, interaction.user.id, turn):
                turn, shown_at = stored.version, turn
            await play_move(
                interaction, notation, game_id=stored.id, expected_version=turn, shown_at=shown_at
            )
            return
        await play_move(interaction, notation)

    @move.autocomplete("action")
    async def move_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        tables = bot_of(interaction).tables
        if interaction.channel_id is None:
            return []
        try:
            stored = await tables.current(interaction.channel_id)
            here = tables.position(stored)
            moves = tables.legal_moves(here, interaction.user.id)
        except Exception as error:
            # No suggestions while the database is away; anything else is a bug to log.
            if isinstance(error, GameError) or storage_trouble(error) is not None:
                return []
            raise
        # Read as a typed move is ('ＰＬＡＹ' lists the plays); capped first, as a move is.
        read = typed_move(current[:MAX_MOVE_TEXT])
        typed = unaccented(read)[:100]
        # What the text names as /move would read it comes first: a game's aliases ('cf' for
        # Coup Fourré, 'take purple', '25s') named a legal move but listed nothing, as if the
        # move were not there to play.
        meant = _named(here, tables.seat_of(stored, interaction.user.id), read) if moves else None
        listed = [m for m in moves if m.notation == meant]
        listed += [
            m
            for m in moves
            if m.notation != meant and (typed in unaccented(m.label) or typed in m.notation)
        ]
        # A label past Discord's 100 characters (four opening tickets and their cities) ends
        # in "…", not mid-word ("T21 Chi"), so the list does not pass a cut for the move. A
        # value cannot be cut: a race's cycle of eight cards cut there named no card, or fewer
        # cards than picked, or an earlier turn. Such a move is left to be typed (or picked in
        # the hand).
        mark = f"{TURN_MARK}{stored.id}:{stored.version}"
        fitting = [m for m in listed if len(f"{m.notation}{mark}") <= CHOICE_TEXT]
        # The move the text names stays first; the rest are ordered so that no one kind of
        # move crowds the others out of Discord's 25.
        head = [m for m in fitting[:1] if m.notation == meant]
        shown = head + kinds_fitting(fitting[len(head) :], SUGGESTIONS - len(head))
        return [
            app_commands.Choice(name=clip(m.label, CHOICE_TEXT), value=f"{m.notation}{mark}")
            for m in shown
        ][:SUGGESTIONS]

    @app_commands.command(name="table", description="Post the game's table here again")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        channel_id = _channel(interaction)
        tables = bot_of(interaction).tables
        # Refused before the deferral: a public deferral's first follow-up is public, whatever
        # its flags say. Reposting pings nobody: anyone may ask.
        stored = await tables.current(channel_id)
        tables.position(stored)  # no game, or a damaged save
        # Anyone may repost, but not flood the channel with copies of one image: while the
        # table just posted still stands, the member is pointed at it instead.
        version, when = self._reposts.get(channel_id, (-1, 0.0))
        wait = int(when + REPOST_SECONDS - time.monotonic() + 1)
        if version == stored.version and stored.message_id is not None and wait > 0:
            where = message_link(interaction.guild_id, channel_id, stored.message_id)
            # Answered here, not raised: a refusal is made plain text (plain() breaks "://"
            # so a member's name is no link), and this link is the bot's own, to press.
            await answer(
                interaction,
                f"The table was posted moments ago and nothing has moved since: "
                f"{where} — it can be posted again in {wait} s.",
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            return
        await defer(interaction, thinking=True)
        update = await tables.table(channel_id)
        await post_table(interaction, update, ping=False)
        now = time.monotonic()
        # A post older than the half minute refuses nothing: it goes, so what is kept follows
        # the channels reposted lately (one entry per thread game ever reposted grew for good).
        for gone in [c for c, (_, at) in self._reposts.items() if now - at > REPOST_SECONDS]:
            del self._reposts[gone]
        self._reposts[channel_id] = (update.game.version, now)

    @app_commands.command(name="resign", description="Leave the game here")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        channel_id = _channel(interaction)
        tables = bot_of(interaction).tables
        # Refused before the answer (a public deferral's follow-ups are public): no game, not
        # seated, already left, a driver already out. Then answered at once, before waiting for
        # the channel: a computer may be thinking there, longer than Discord's three seconds.
        here = tables.position(await tables.current(channel_id))
        here.game.leave(here.state, tables.seat_of(here.stored, interaction.user.id))
        await defer(interaction, thinking=True)
        try:
            update = await tables.leave(channel_id=channel_id, user_id=interaction.user.id)
        except GameError as error:
            # Refused after all (a second /resign sent at the same moment): the public
            # "thinking…" goes, and the refusal is the member's alone.
            await interaction.delete_original_response()
            await refuse(interaction, str(error))
            return
        await post_table(interaction, update)

    @app_commands.command(name="abort", description="End the game here with no result")
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        tables = bot_of(interaction).tables
        stored = await tables.current(_channel(interaction))
        seated = any(s.user_id == interaction.user.id for s in stored.seats)
        if not seated and interaction.permissions.manage_messages:
            # A moderator clears a game nobody can finish (its players left the server, or went
            # quiet in a busy channel): it ends with no result, so no rating moves by it.
            await tables.abort(channel_id=stored.channel_id)
            await answer(
                interaction,
                f"🛑 {plain(display_name(interaction.user))} (a moderator) ended this game "
                "with no result.",
                allowed_mentions=NO_PINGS,
            )
            return
        seat = tables.seat_of(stored, interaction.user.id)
        members = await tables.hindsight.members_playing(stored)
        if len(members) <= 1 and all(s.seat == seat for s in members):
            await tables.abort(channel_id=stored.channel_id)
            await answer(interaction, "🛑 Game aborted with no result.")
            return
        # Read before voting: of two requests typed at the same moment, both are posted.
        asked = await tables.store.abort_votes(stored.id) - {interaction.user.id}
        _, aborted = await tables.vote_abort(game_id=stored.id, user_id=interaction.user.id)
        if aborted:  # everyone had agreed already (a crash came before the abort)
            await answer(interaction, ABORTED_BY_ALL)
            return
        if asked:
            # Someone asked before (three members or more): this is an agreement, said as the
            # button says it. A second request pinged the asker to agree to their own request.
            await answer(
                interaction,
                f"{plain(display_name(interaction.user))} {AGREES}",
                allowed_mentions=NO_PINGS,
            )
            return
        # The members asked to agree are pinged; the asker, named too, is not.
        others = [s.user_id for s in members if s.user_id != interaction.user.id]
        view = discord.ui.View(timeout=None)
        view.add_item(AbortButton(stored.id))
        await answer(
            interaction,
            f"{' '.join(f'<@{o}>' for o in others)}: {interaction.user.mention} {ABORT_REQUEST} "
            "Everyone has to agree before the next move.",
            view=view,
            allowed_mentions=pings(others),
        )

    @app_commands.command(name="hint", description="Suggest your next move (not against members)")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        tables = bot_of(interaction).tables
        stored = await tables.current(_channel(interaction))
        view, moves = tables.hand(stored, interaction.user.id)
        # A hint is the computer's judgement: fair alone or against it, not against members.
        # Members who left (or whose driver is out) are no longer played against: their places
        # are settled, so the last member still playing among computers may have one.
        here = tables.position(stored)
        out = here.game.out(here.state)
        seat = tables.seat_of(stored, interaction.user.id)
        playing = await tables.hindsight.members_playing(stored)
        # A member with no move left to make is told why, as a move of theirs is: "hints are
        # only against the computer" was untrue once the others left them among computers.
        if all(s.seat != seat for s in playing):
            raise BadOption(LEFT_THE_GAME)
        if seat in out:
            raise BadOption(OUT_OF_THE_GAME)
        others = [s for s in playing if s.user_id != interaction.user.id and s.seat not in out]
        if others:
            raise BadOption("Hints are only for games against the computer or played alone.")
        if stored.options.get("daily"):
            # Played alone, but ranked against the server's members on the same cards.
            raise BadOption("Hints are not given in the daily deal: its board ranks your own play.")
        if not moves:
            raise BadOption("There is nothing to suggest right now: it is not your move.")
        found = bundle(stored.game_key)
        # The search is the thinking worker's time, shared by every channel's computers:
        # limited per member, one at a time.
        with limits.limited(interaction, limits.HINTS):
            await defer(interaction, thinking=True, ephemeral=True)
            # Stored before the hint is given: a best-result board ranks a member's own play.
            off_the_board = tables.ranks_own_play(stored)
            await tables.mark_assisted(stored, "hint")
            # A hint may run an expert's search: in the computer players' worker, never on the
            # event loop (a thread would still hold its GIL while other channels wait).
            name = hint_policy(found.key)
            notation, reason = await bot_of(interaction).thinkers.run(
                suggest_move, found.presenter.hint, policy_factory(found.key, name), name, view
            )
        labels = {m.notation: m.label for m in moves}
        label = labels.get(notation, notation)
        buttons = discord.ui.View(timeout=None)
        text = f"💡 **{label}** — {reason}"
        if off_the_board:
            text += f"\n{OFF_THE_BOARD}"
        button = _hint_button(stored.id, stored.version, notation, label)
        if notation in labels and button is not None:  # a legal move: played from here
            buttons.add_item(button)
        elif notation in labels:
            text += f"\n{TYPE_IT}"
        await answer_once(interaction, content=clip(text), view=unkept(buttons), ephemeral=True)

    @app_commands.command(name="rules", description="The rules of a game, briefly")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        shown = bundle(game).presenter
        # A second part (Dragon's French card names) as an embed: the summary fills the 2,000
        # characters of a message's content, and an embed's description holds 4,096 more.
        more = [discord.Embed(description=clip(shown.rules_more, EMBED_DESCRIPTION))]
        await answer(
            interaction, clip(shown.rules), embeds=more if shown.rules_more else [], ephemeral=True
        )

    rules.autocomplete("game")(game_choices)


OFF_THE_BOARD = (
    "-# A game played with hints still counts in /stats, but no longer on the best-results "
    "board, which ranks your own play."
)


TYPE_IT = "-# This move is too long for a button: type it with /move."
"""Under a hint whose move does not fit a button's custom id (a long 1000 Mile Race cycle)."""


def _hint_button(
    game_id: int, version: int, notation: str, label: str
) -> discord.ui.Item[Any] | None:
    """A button that plays the suggestion (a typed-move button checked against the turn), or
    None when the move does not fit its custom id: cut, the id would name another move (a
    shorter cycle) or none at all."""
    if len(notation) > HINT_MOVE or len(_hint_id(game_id, version, notation)) > CUSTOM_ID:
        return None
    # A long suggestion (three tickets kept, with their cities) is cut where the eye sees it.
    return HintButton(
        game_id, version, notation, ButtonSpec(clip(f"Play it: {label}", 80), notation)
    )


HINT_MOVE = 80
"""The longest move a hint's button carries (its custom id's pattern)."""
CUSTOM_ID = 100
"""Discord's limit on a component's custom id."""


def _hint_id(game_id: int, version: int, notation: str) -> str:
    return f"jn:k:{game_id}:{version}:{notation.replace(' ', '+')}"


class HintButton(
    GameItem,
    template=rf"jn:k:(?P<game>{ID}):(?P<version>[0-9]{{1,9}}):(?P<move>[\w+\-.@#]{{1,{HINT_MOVE}}})",
):
    """Plays a hint's move; its notation is checked like typed text, for that turn only."""

    def __init__(self, game_id: int, version: int, notation: str, spec: ButtonSpec | None) -> None:
        super().__init__(
            discord.ui.Button(
                label=(spec.label if spec else "Play it")[:80],
                style=discord.ButtonStyle.success,
                custom_id=_hint_id(game_id, version, notation),
            )
        )
        self.game_id, self.version, self.notation = game_id, version, notation

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["move"].replace("+", " "), None)

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        with carried_move():
            await play_move(
                interaction,
                self.notation,
                game_id=self.game_id,
                expected_version=self.version,
                hand=hand_message,
            )


def _channel(interaction: discord.Interaction[Any]) -> int:
    if interaction.channel_id is None:
        raise StaleButton("Games are played in a channel.")
    return interaction.channel_id


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
    register_items(bot, *DYNAMIC_ITEMS, AbortButton, HintButton)
