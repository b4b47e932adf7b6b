"""The lobby and table commands every game shares: challenge, play, move, table, resign, abort.

Game cogs only add what is special to a game; everything here works for any registered game
through the seam and the game's presenter.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.base import policy_names
from bot.daily import daily_date, daily_seed
from bot.engine.core import BadOption, GameError, all_games, get_game
from bot.presenters import ButtonSpec, presenter
from bot.store.base import SeatRecord
from cogs.ui import DYNAMIC_ITEMS, StatelessButton, bot_of, post_table, refuse, send_table

if TYPE_CHECKING:
    pass

log = logging.getLogger("junction.lobby")

GAME_CHOICES = [app_commands.Choice(name=g.info.title, value=g.info.key) for g in all_games()]
DECK_CHOICES = [app_commands.Choice(name=n, value=n) for n in ("bsd", "modern")]
LENGTH_CHOICES = [
    app_commands.Choice(name="match to 5000", value="match"),
    app_commands.Choice(name="one hand", value="hand"),
]
NAMES_CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Français", value="fr"),
]

# The options /play and /challenge share: which game, and how it is set up.
START_DESCRIPTIONS = {
    "game": "Which game",
    "deck": "Mille Bornes deck: bsd (101 cards) or modern (106)",
    "length": "A match to 5000 points, or a single hand",
    "names": "Card names in English or French",
    "thread": "Play in a new thread",
    "options": "Other options as name:value, e.g. preset:refuel (see the suggestions)",
}
START_CHOICES: dict[str, list[app_commands.Choice[str]]] = {
    "game": GAME_CHOICES,
    "deck": DECK_CHOICES,
    "length": LENGTH_CHOICES,
    "names": NAMES_CHOICES,
}


def _now() -> float:
    """The clock challenges expire by (a function so tests can move it)."""
    return time.time()


def _options(extra: str | None = None, **given: str | None) -> dict[str, str]:
    """The named options plus free-form ``name:value`` pairs typed in the options field."""
    options = {name: value for name, value in given.items() if value}
    for pair in (extra or "").replace(",", " ").split():
        name, sep, value = pair.replace("=", ":").partition(":")
        if not sep or not name or not value:
            raise BadOption(
                f"I could not read the option '{pair}'. Write options as name:value, "
                "for example preset:refuel."
            )
        options[name.strip().lower()] = value.strip().lower()
    return options


async def option_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for the free-form options field: every name:value the chosen game takes."""
    try:
        game = get_game(getattr(interaction.namespace, "game", None) or "mille")
    except GameError:
        return []
    typed = current.strip()
    done, _, last = typed.rpartition(" ")
    prefix = f"{done} " if done else ""
    pairs = [f"{spec.name}:{choice}" for spec in game.info.options for choice in spec.choices]
    return [
        app_commands.Choice(name=f"{prefix}{pair}"[:100], value=f"{prefix}{pair}"[:100])
        for pair in pairs
        if last.lower() in pair
    ][:25]


def _encode_options(game_key: str, options: dict[str, str]) -> str:
    """Option values in the game's option order: custom ids are limited to 100 characters."""
    specs = get_game(game_key).info.options
    return ".".join(options.get(spec.name, spec.default) for spec in specs) or "-"


def _decode_options(game_key: str, text: str) -> dict[str, str]:
    specs = get_game(game_key).info.options
    values = [] if text == "-" else text.split(".")
    return {spec.name: value for spec, value in zip(specs, values, strict=False)}


def _display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class ChallengeButton(
    StatelessButton,
    template=(
        r"jn:c:(?P<answer>[ad]):(?P<game>[a-z]+):(?P<challenger>\d+):(?P<opponent>\d+)"
        r":(?P<expires>\d+):(?P<thread>[01]):(?P<options>[\w.\-]+)"
    ),
):
    """Accept or Decline on a challenge; only the challenged member may press it."""

    def __init__(
        self,
        answer: str,
        game_key: str,
        challenger: int,
        opponent: int,
        expires: int,
        thread: bool,
        options: str,
    ) -> None:
        accept = answer == "a"
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=(
                    f"jn:c:{answer}:{game_key}:{challenger}:{opponent}:{expires}:"
                    f"{int(thread)}:{options}"
                ),
            )
        )
        self.answer, self.game_key = answer, game_key
        self.challenger, self.opponent, self.expires = challenger, opponent, expires
        self.thread, self.options = thread, options

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(
            match["answer"],
            match["game"],
            int(match["challenger"]),
            int(match["opponent"]),
            int(match["expires"]),
            match["thread"] == "1",
            match["options"],
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.opponent:
            await refuse(interaction, "This challenge is not for you.")
            return
        if _now() > self.expires:
            await interaction.response.edit_message(
                content="⌛ This challenge has expired.", view=None
            )
            return
        if self.answer == "d":
            await interaction.response.edit_message(
                content=f"<@{self.opponent}> declined the challenge.", view=None
            )
            return
        await accept_challenge(interaction, self)


async def accept_challenge(
    interaction: discord.Interaction[Any], challenge: ChallengeButton
) -> None:
    bot = bot_of(interaction)
    game = get_game(challenge.game_key)
    challenger_name = await _challenger_name(interaction, challenge.challenger)
    seats = [
        SeatRecord(0, challenger_name, user_id=challenge.challenger),
        SeatRecord(1, _display_name(interaction.user), user_id=challenge.opponent),
    ]
    channel_id = interaction.channel_id
    thread: discord.Thread | None = None
    if challenge.thread and interaction.message is not None:
        thread = await interaction.message.create_thread(
            name=f"{game.info.title}: {seats[0].name} vs {seats[1].name}"[:90]
        )
        channel_id = thread.id
    if channel_id is None:
        await refuse(interaction, "Games are played in a channel.")
        return
    try:
        update = await bot.tables.start(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            game_key=game.info.key,
            seats=seats,
            options=_decode_options(challenge.game_key, challenge.options),
        )
    except GameError as error:
        await refuse(interaction, str(error))
        return
    await interaction.response.edit_message(
        content=f"✅ <@{challenge.opponent}> accepted! {game.info.title} is on.", view=None
    )
    headline = f"**{game.info.title}** — {seats[0].name} vs {seats[1].name}"
    if thread is not None:
        await send_table(bot, thread.send, update, headline)
    else:
        await post_table(interaction, update, headline)


async def _challenger_name(interaction: discord.Interaction[Any], user_id: int) -> str:
    """The challenger's name without the members intent: the challenge message knows its author."""
    message = interaction.message
    metadata = message.interaction_metadata if message is not None else None
    if metadata is not None and metadata.user.id == user_id:
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        return _display_name(member or metadata.user)
    if interaction.guild is not None:
        try:
            return _display_name(await interaction.guild.fetch_member(user_id))
        except discord.HTTPException:
            pass
    return f"Player {user_id}"


class AbortButton(
    StatelessButton,
    template=r"jn:x:(?P<game>\d+):(?P<asker>\d+)",
):
    """The other player agrees to end the game with no result."""

    def __init__(self, game_id: int, asker: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Agree to abort",
                style=discord.ButtonStyle.danger,
                custom_id=f"jn:x:{game_id}:{asker}",
            )
        )
        self.game_id, self.asker = game_id, asker

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["asker"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        tables = bot_of(interaction).tables
        try:
            stored = await tables.game_by_id(self.game_id)
            if stored.status != "active":
                raise GameError("That game has already ended.")
            tables.seat_of(stored, interaction.user.id)
            if interaction.user.id == self.asker:
                raise GameError("The other player has to agree, not you.")
            await tables.abort(channel_id=stored.channel_id)
        except GameError as error:
            await refuse(interaction, str(error))
            return
        await interaction.response.edit_message(
            content="🛑 Both players agreed: the game was aborted with no result.", view=None
        )


async def _daily_deal(
    interaction: discord.Interaction[Any], game_key: str, options: dict[str, str]
) -> tuple[int, dict[str, str]]:
    """Today's seed for this server, refusing a member who already played it."""
    if game_key != "solo":
        raise BadOption("Daily deals are for Mille Bornes Solo.")
    if interaction.guild_id is None:
        raise BadOption("The daily deal is played in a server.")
    if options:
        raise BadOption("The daily deal uses the standard settings, so everyone plays alike.")
    today = daily_date(_now())
    store = bot_of(interaction).tables.store
    played = await store.results(game_key="solo", guild_id=interaction.guild_id, since=None)
    mine = [r for r in played if interaction.user.id in r.record.seats]
    if any(r.record.options.get("daily") == today for r in mine):
        raise BadOption(
            "You have already played today's deal. Compare results with "
            "/leaderboard game:Mille Bornes Solo period:today's deal."
        )
    for game in await store.active_games():
        if game.options.get("daily") == today and any(
            s.user_id == interaction.user.id for s in game.seats
        ):
            raise BadOption(f"You are already playing today's deal in <#{game.channel_id}>.")
    return daily_seed(interaction.guild_id, today), {"daily": today}


class Lobby(commands.Cog):
    """Commands shared by every game."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="challenge", description="Challenge a member to a game")
    @app_commands.describe(opponent="The member you challenge", **START_DESCRIPTIONS)
    @app_commands.choices(**START_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        opponent: discord.Member,
        deck: str | None = None,
        length: str | None = None,
        names: str | None = None,
        thread: bool = False,
        options: str | None = None,
    ) -> None:
        rules = get_game(game)
        if rules.info.max_players == 1:
            raise BadOption(f"{rules.info.title} is played alone: start it with /play.")
        if opponent.bot:
            raise BadOption("Bots cannot accept challenges; use /play to play the computer.")
        if opponent.id == interaction.user.id:
            raise BadOption("You cannot challenge yourself; use /play to play the computer.")
        chosen = rules.resolve_options(_options(options, deck=deck, length=length, names=names))
        channel_id = interaction.channel_id
        tables = bot_of(interaction).tables
        if channel_id is not None and not thread and await tables.store.active_game(channel_id):
            raise BadOption("A game is already running in this channel.")
        timeout = bot_of(interaction).settings.challenge_timeout
        expires = int(_now()) + timeout
        encoded = _encode_options(rules.info.key, chosen)
        view = discord.ui.View(timeout=None)
        for answer in ("a", "d"):
            view.add_item(
                ChallengeButton(
                    answer,
                    rules.info.key,
                    interaction.user.id,
                    opponent.id,
                    expires,
                    thread,
                    encoded,
                )
            )
        settings = ", ".join(f"{k} {v}" for k, v in chosen.items())
        await interaction.response.send_message(
            f"{opponent.mention}, {interaction.user.mention} challenges you to "
            f"**{rules.info.title}** ({settings}). The challenge expires <t:{expires}:R>.",
            view=view,
        )

    @app_commands.command(name="play", description="Play against the computer")
    @app_commands.describe(
        computer="How the computer plays",
        daily="Solo: today's deal, the same for everyone on this server (once a day)",
        **START_DESCRIPTIONS,
    )
    @app_commands.choices(**START_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        computer: str = "normal",
        deck: str | None = None,
        length: str | None = None,
        names: str | None = None,
        thread: bool = False,
        options: str | None = None,
        daily: bool = False,
    ) -> None:
        rules = get_game(game)
        chosen = _options(options, deck=deck, length=length, names=names)
        seed, labels = None, None
        if daily:
            seed, labels = await _daily_deal(interaction, rules.info.key, chosen)
        me = SeatRecord(0, _display_name(interaction.user), user_id=interaction.user.id)
        if rules.info.max_players == 1:
            seats = [me]
            rival = "solo"
        else:
            if computer not in policy_names(rules.info.key):
                raise BadOption(
                    f"There is no computer player called '{computer}'. Choose one of: "
                    f"{', '.join(policy_names(rules.info.key))}."
                )
            seats = [me, SeatRecord(1, f"Computer ({computer})", policy=computer)]
            rival = "vs the computer"
        channel_id = interaction.channel_id
        target: discord.Thread | None = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            target = await interaction.channel.create_thread(
                name=f"{rules.info.title}: {seats[0].name} {rival}"[:90],
                type=discord.ChannelType.public_thread,
            )
            channel_id = target.id
        if channel_id is None:
            raise BadOption("Games are played in a channel.")
        update = await bot_of(interaction).tables.start(
            channel_id=channel_id,
            guild_id=interaction.guild_id,
            game_key=rules.info.key,
            seats=seats,
            options=chosen,
            seed=seed,
            labels=labels,
        )
        headline = f"**{rules.info.title}** — {seats[0].name} {rival}"
        if labels:
            headline += f" · daily deal {labels['daily']}"
        if update.game.options.get("preset") == "classic":
            # RULINGS §2: the literal solitaire cannot be won; say so before anyone tries.
            headline += (
                "\nThe classic preset cannot be cleared completely: it is a score attack on "
                "cards cleared. For a winnable game use `options: preset:refuel` or `preset:easy`."
            )
        if target is not None:
            await interaction.response.send_message(f"Your game is in {target.mention}.")
            await send_table(bot_of(interaction), target.send, update, headline)
            return
        await interaction.response.defer(thinking=True)
        await post_table(interaction, update, headline)

    @play.autocomplete("computer")
    async def computer_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None) or "mille"
        try:
            names = policy_names(game)
        except GameError:
            return []
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    @play.autocomplete("options")
    async def play_options(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await option_choices(interaction, current)

    @challenge.autocomplete("options")
    async def challenge_options(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await option_choices(interaction, current)

    @app_commands.command(name="move", description="Make a move in this channel's game")
    @app_commands.describe(action="Your move, e.g. 'play go' — pick from the list")
    async def move(self, interaction: discord.Interaction[Any], action: str) -> None:
        from cogs.ui import play_move

        await play_move(interaction, action)

    @move.autocomplete("action")
    async def move_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        tables = bot_of(interaction).tables
        if interaction.channel_id is None:
            return []
        try:
            stored = await tables.current(interaction.channel_id)
            moves = tables.legal_moves(stored, interaction.user.id)
        except GameError:
            return []
        typed = current.lower().strip()
        return [
            app_commands.Choice(name=m.label[:100], value=m.notation)
            for m in moves
            if typed in m.label.lower() or typed in m.notation
        ][:25]

    @app_commands.command(name="table", description="Post this channel's table again")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id is None:
            raise BadOption("Games are played in a channel.")
        update = await bot_of(interaction).tables.table(interaction.channel_id)
        await interaction.response.defer(thinking=True)
        await post_table(interaction, update)

    @app_commands.command(name="resign", description="Give up this channel's game")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id is None:
            raise BadOption("Games are played in a channel.")
        update = await bot_of(interaction).tables.resign(
            channel_id=interaction.channel_id, user_id=interaction.user.id
        )
        await interaction.response.defer(thinking=True)
        await post_table(interaction, update, f"🏳️ {_display_name(interaction.user)} resigned.")

    @app_commands.command(name="abort", description="End this channel's game with no result")
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        tables = bot_of(interaction).tables
        if interaction.channel_id is None:
            raise BadOption("Games are played in a channel.")
        stored = await tables.current(interaction.channel_id)
        tables.seat_of(stored, interaction.user.id)
        members = [s for s in stored.seats if not s.is_computer]
        if len(members) <= 1:
            await tables.abort(channel_id=interaction.channel_id)
            await interaction.response.send_message("🛑 Game aborted with no result.")
            return
        others = " ".join(f"<@{s.user_id}>" for s in members if s.user_id != interaction.user.id)
        view = discord.ui.View(timeout=None)
        view.add_item(AbortButton(stored.id, interaction.user.id))
        await interaction.response.send_message(
            f"{others}: {interaction.user.mention} wants to abort this game with no result.",
            view=view,
        )

    @app_commands.command(name="hint", description="Suggest your next move (games without rivals)")
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        from cogs.ui import MoveButton

        tables = bot_of(interaction).tables
        if interaction.channel_id is None:
            raise BadOption("Games are played in a channel.")
        stored = await tables.current(interaction.channel_id)
        view = tables.private_view(stored, interaction.user.id)
        members = [s for s in stored.seats if not s.is_computer]
        if len(members) > 1:
            # A hint is the computer's judgement: fair in practice, not against another member.
            raise BadOption("Hints are only for games against the computer or played alone.")
        shown = presenter(stored.game_key)
        # The solitaire's hint is a search: run it off the event loop.
        suggestion = await asyncio.to_thread(shown.hint, view) if shown.hint is not None else None
        if suggestion is None:
            raise BadOption("There is nothing to suggest right now.")
        notation, reason = suggestion
        labels = {m.notation: m.label for m in tables.legal_moves(stored, interaction.user.id)}
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(
            MoveButton(
                stored.id,
                stored.version,
                "h",
                notation,
                ButtonSpec(f"Play it: {labels.get(notation, notation)}"[:80], notation, "success"),
            )
        )
        await interaction.response.send_message(
            f"💡 **{labels.get(notation, notation)}** — {reason}", view=buttons, ephemeral=True
        )

    @app_commands.command(name="rules", description="The rules of a game, briefly")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        await interaction.response.send_message(presenter(game).rules, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
    bot.add_dynamic_items(*DYNAMIC_ITEMS, ChallengeButton, AbortButton)
