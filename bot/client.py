"""The Discord client: a ``commands.Bot`` with the store, the seam and the cogs.

Endpoints can be redirected (``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``) to a gateway proxy
or the tests' local fake Discord. Commands sync instantly to ``JUNCTION_DEV_GUILD`` when set;
global sync is an explicit owner action (``junction sync``), never done at every start.
With shard options (``junction run --shard-ids 0,1 --shard-count 4``) the bot is an
``AutoShardedBot`` running those shards, and only the process holding shard 0 syncs.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import signal
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import ConfigError, Settings
from bot.daily import daily_secret
from bot.engine.core import GameError
from bot.engine.words import plural
from bot.games.bundle import PolicyFactory
from bot.games.registry import choose_move
from bot.render.pool import RenderPool
from bot.replays import Replays
from bot.store import open_store, opened_store, redact_url
from bot.store.base import Store
from bot.store.sqlite import SqliteStore
from bot.tables import Tables

log = logging.getLogger("junction")

COGS = (
    "cogs.new_game",
    "cogs.play",
    "cogs.leaderboard",
    "cogs.timers",
    "cogs.help",
    "cogs.rematch",
    "cogs.mygames",
)


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic where the settings say, before logging in."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class JunctionBot(commands.Bot):
    """The bot: owns the store and the seam; cogs reach them as ``bot.tables``."""

    store: Store
    tables: Tables
    renderer: RenderPool
    replays: Replays
    thinkers: RenderPool

    def __init__(self, settings: Settings, *, sync_at_start: bool = True, **kwargs: Any) -> None:
        # Junction has no voice: discord.py's warnings that the voice libraries are missing
        # would only send an operator looking for something to install.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()
        intents.message_content = False  # slash commands and buttons need no message content
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=JunctionTree,
            # Nobody is pinged unless a message names whom it may ping (cogs.ui.pings).
            allowed_mentions=discord.AllowedMentions.none(),
            **kwargs,
        )
        self.settings = settings
        # With several shard processes, one syncs the dev guild's commands (see make_bot).
        self.sync_at_start = sync_at_start
        self._refusals: set[asyncio.Task[None]] = set()
        # Every interaction is read for its shape before discord.py routes it: a press or a
        # form made by hand that it cannot route is refused in a sentence (cogs.raw_components).
        state: Any = self._connection
        self._route_interaction = state.parse_interaction_create
        state.parse_interaction_create = self._parse_interaction
        state.parsers["INTERACTION_CREATE"] = self._parse_interaction

    def _parse_interaction(self, data: Any) -> None:
        """The gateway's INTERACTION_CREATE: a press or a form in a shape discord.py cannot
        route (it failed on some, reading no more events, and left the rest unanswered) is
        refused privately; anything else is routed as discord.py routes it, and what it still
        cannot read (a member's record or the message's author in pieces) refused too."""
        from cogs.raw_components import refusal, unreadable

        said = refusal(data)
        if said is None:
            try:
                self._route_interaction(data)
                return
            except Exception as error:
                # discord.py reads the interaction's records before routing it anywhere: what
                # fails here reached no handler.
                log.warning("an interaction discord.py could not read: %r", error)
                said = unreadable(data)
        if said is not None:
            self._refuse_raw(data, said)

    def _refuse_raw(self, data: dict[str, Any], said: str) -> None:
        """Refuse an interaction discord.py could not read, privately, in ``said``."""
        from cogs.ui import refuse

        # Its id and token are all an answer needs: the rest may be what is in pieces.
        kept = ("id", "application_id", "type", "token", "version", "attachment_size_limit")
        whole: Any = {key: data[key] for key in kept if key in data}
        try:
            interaction = discord.Interaction(data=whole, state=self._connection)
        except Exception:  # not even an interaction: nobody to answer, as discord.py drops it
            log.warning("dropped an interaction in pieces", exc_info=True)
            return
        # Named as discord.py names a press it serves, so a stopping bot lets it finish.
        task = asyncio.create_task(
            refuse(interaction, said), name="discord-ui-dynamic-item-refused"
        )
        self._refusals.add(task)
        task.add_done_callback(self._refusals.discard)

    async def setup_hook(self) -> None:
        self.store = await opened_store(self.settings.db_url)
        # Which database this process uses, so an operator can tell a volume that is not mounted
        # (a fresh, empty file) from one that is.
        log.info("games are stored in %s", redact_url(self.settings.db_url))
        # Made now, not by the first daily deal: a request refused after reading it would
        # otherwise have written to the database.
        await daily_secret(self.store)
        self.renderer = RenderPool(self.settings.render_processes)
        await self.renderer.start()
        self.replays = Replays(self.renderer)
        # Computer players think in a process of their own: a search must not slow the replies
        # in other channels, nor wait behind pictures being drawn.
        self.thinkers = RenderPool(self.settings.think_processes, warm=False)
        await self.thinkers.start()
        self.tables = Tables(self.store, thinker=self._think)
        for name in COGS:
            await self.load_extension(name)
        from cogs.pickers import add_catch_all

        add_catch_all(self)
        if self.settings.dev_guild is not None and self.sync_at_start:
            guild = discord.Object(id=self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.HTTPException as error:
                # Most often the bot is not in that server. The bot still serves the commands
                # published before (or globally), so this is the operator's to read, not fatal.
                log.error(
                    "could not sync commands to JUNCTION_DEV_GUILD=%s (%s): is the bot in "
                    "that server?",
                    self.settings.dev_guild,
                    error,
                )
            else:
                log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild)

    async def _think(self, factory: PolicyFactory, view: Any, seed: str) -> str:
        # A search goes to the worker process; a heuristic takes a fraction of a millisecond,
        # so it decides in a thread rather than wait in the worker's queue behind searches.
        if getattr(factory, "searches", False):
            return await self.thinkers.run(choose_move, factory, view, seed)
        return await asyncio.to_thread(choose_move, factory, view, seed)

    async def close(self) -> None:
        await self._finish_interactions(FINISH_SECONDS)
        await super().close()
        thinkers = getattr(self, "thinkers", None)
        if thinkers is not None:
            await thinkers.close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        renderer = getattr(self, "renderer", None)
        if renderer is not None:
            await renderer.close()

    async def _finish_interactions(self, within: float) -> None:
        """Let the commands and presses under way finish, for up to ``within`` seconds.

        Closing the connection closes the HTTP session under them: a move already stored was
        then never shown, and each logged "command failed" with tracebacks. Interactions that
        arrive from now on are left unanswered (Discord tells the member it failed; nothing
        was stored), so the wait ends.
        """
        if self.is_closed():
            return
        self._connection.parsers["INTERACTION_CREATE"] = _unanswered
        current = asyncio.current_task()
        busy = [
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(_SERVING)
        ]
        if busy:
            log.info("stopping: finishing %s under way", plural(len(busy), "interaction"))
            await asyncio.wait(busy, timeout=within)

    async def on_ready(self) -> None:
        log.info("ready as %s in %s", self.user, plural(len(self.guilds), "server"))


FINISH_SECONDS = 4.0
"""How long a stopping bot lets the interactions under way finish: within ``docker stop``'s
ten seconds, with time left to close the gateway, the workers and the store."""

# discord.py's names for the tasks serving one interaction: a slash command or autocomplete,
# a press on a view's item, a press matched by a dynamic item (the pickers), a modal.
_SERVING = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
)


def _unanswered(data: Any) -> None:
    """The gateway's INTERACTION_CREATE parser while the bot stops: nothing new is begun."""


class ShardedJunctionBot(JunctionBot, commands.AutoShardedBot):
    """The bot as one of several processes, each running some of the gateway shards.

    Games live in the shared store (PostgreSQL), so any process can serve any channel; what
    keeps two processes from storing the same turn twice is the store's version check.
    """


MAX_SHARDS = 10_000
"""The most shards ``--shard-count`` may ask for: Discord fills a shard with 2 500 servers, so
this is 25 million servers, past any bot's reach."""


def check_shards(shard_ids: Sequence[int] | None, shard_count: int | None) -> list[int] | None:
    """The sorted shard ids to run (None: all of them); ValueError for impossible options."""
    if shard_count is None:
        raise ValueError("--shard-ids needs --shard-count (the total number of shards, ≥ 1)")
    if not 1 <= shard_count <= MAX_SHARDS:
        # Said of the option given: `--shard-count 0` alone named --shard-ids, never given. A
        # huge count alone logged in and then opened shard after shard, each refused by Discord.
        raise ValueError(
            f"--shard-count is the total number of shards, from 1 to "
            f"{format(MAX_SHARDS, ',').replace(',', ' ')}, not {shard_count}"
        )
    if shard_ids is None:
        return None
    ids = sorted(set(shard_ids))
    if not ids or ids[0] < 0 or ids[-1] >= shard_count:
        raise ValueError(f"shard ids must be between 0 and {shard_count - 1}, got {shard_ids}")
    return ids


def make_bot(
    settings: Settings,
    *,
    shard_ids: Sequence[int] | None = None,
    shard_count: int | None = None,
    sync: bool | None = None,
) -> JunctionBot:
    """The bot for this process: sharded when shard options are given, else a plain Bot.

    ``shard_ids`` needs ``shard_count``; ``shard_count`` alone runs all of its shards here.
    Unless ``sync`` says otherwise, only the process holding shard 0 syncs the dev guild's
    commands at start-up, so a farm of shards does not repeat (and get rate-limited on) it.
    """
    if shard_ids is None and shard_count is None:
        return JunctionBot(settings, sync_at_start=True if sync is None else sync)
    ids = check_shards(shard_ids, shard_count)
    holds_first = ids is None or ids[0] == 0
    return ShardedJunctionBot(
        settings,
        sync_at_start=holds_first if sync is None else sync,
        shard_ids=ids,
        shard_count=shard_count,
    )


class JunctionTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Refuse, privately and in a sentence, a command whose options it cannot take (a
        request made by hand: ``cogs.raw_options``) or that the bot lacks the permissions to
        carry out (named)."""
        from cogs.permissions import permission_refusal
        from cogs.raw_options import refusal as garbled
        from cogs.ui import refuse

        said = garbled(interaction)
        if said is not None:
            if interaction.type is discord.InteractionType.autocomplete:
                try:
                    await interaction.response.autocomplete([])  # nothing to suggest for it
                except discord.HTTPException:
                    log.warning("could not answer an autocomplete", exc_info=True)
            else:
                await refuse(interaction, said)
            return False
        refusal = permission_refusal(interaction)
        if refusal is None:
            return True
        await refuse(interaction, refusal)
        return False

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The error funnel: a GameError becomes an ephemeral sentence; anything else is logged.

        Answered like a component's failure (``cogs.pickers.GameItem``): privately, as plain
        text, pinging nobody."""
        from cogs.limits import TooSoon
        from cogs.ui import failure_text, refuse

        original = getattr(error, "original", error)
        if isinstance(original, TooSoon):
            # A member past a limit of cogs/limits.py: when to try again, in one sentence.
            await refuse(interaction, original.sentence(interaction))
            return
        if isinstance(original, GameError):
            await refuse(interaction, str(original))
            return
        if isinstance(original, OverflowError):
            # A number too big for the database (a forged id): nothing by that number exists.
            await refuse(interaction, "That does not exist.")
            return
        if isinstance(error, app_commands.TransformerError):
            # Discord resolved an option to something the command cannot take: most often a
            # member who has left the server since the command was typed.
            if error.type is discord.AppCommandOptionType.user:
                said = "That member is not in this server (any more); choose someone who is."
            else:
                said = "I could not read one of the options; pick it from the list."
            await refuse(interaction, said)
            return
        if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
            # A command the bot does not have (a context menu sent by hand; a slash command's
            # unknown name is refused before, in cogs/raw_options.py), or not in that form.
            from cogs.raw_options import unknown_command

            await refuse(interaction, unknown_command(interaction))
            return
        if isinstance(error, app_commands.CheckFailure):
            await refuse(interaction, "You cannot use that command here.")
            return
        await refuse(interaction, failure_text(original, log, "command"))


def run_bot(
    settings: Settings,
    *,
    shard_ids: Sequence[int] | None = None,
    shard_count: int | None = None,
    sync: bool | None = None,
) -> int:
    """Run the bot until it is stopped (blocking); shard options as for :func:`make_bot`."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    point_at(settings)
    claim = _claim_sqlite_file(settings.db_url)
    bot = make_bot(settings, shard_ids=shard_ids, shard_count=shard_count, sync=sync)
    try:
        asyncio.run(_serve(bot, settings.discord_token))
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass  # Ctrl-C or SIGTERM: the bot, its workers and the store were closed on the way
    except discord.LoginFailure as error:
        raise _refused_token(error) from None
    except aiohttp.ClientConnectorError as error:
        raise _unreachable(error) from None
    finally:
        if claim is not None:
            _release(claim)
    log.info("stopped")
    return 0


def _claim_sqlite_file(url: str) -> TextIO | None:
    """Lock the SQLite database for this bot process; ConfigError if another bot holds it.

    SQLite serves one bot process. A second one on the same token gets every interaction from
    Discord too and answers each a second time; several processes (shards) share PostgreSQL
    instead. The lock is a file of its own (``junction.db.lock``), so SQLite's locks on the
    database are left alone, and the kernel drops it when the process ends, however it ends.
    It sits beside the file itself, through any symlink (a hard link is a name it cannot
    see). The console and ``junction sync`` take no lock: they may run beside the bot.
    """
    try:
        store = open_store(url)
    except ValueError:
        return None  # opening the store says what is wrong with the URL
    if not isinstance(store, SqliteStore) or store.is_memory:
        return None
    try:
        path = Path(store.lock_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        claim = path.open("a")
    except OSError:
        return None  # opening the store says why the folder cannot be written
    try:
        fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        claim.close()
        raise ConfigError(
            f"another Junction bot is already running on {store.path}; SQLite serves one bot "
            "process. Stop the other one, or move to PostgreSQL to run several (README, "
            '"Scaling out: PostgreSQL")'
        ) from None
    if not _still_named(claim, path):
        # A bot stopping meanwhile deleted the file this one opened (``_release``): the lock
        # is on a file no other start will find; claim the one at the path now.
        claim.close()
        return _claim_sqlite_file(url)
    return claim


def _still_named(claim: TextIO, path: Path) -> bool:
    """Whether the lock file ``claim`` holds is still the one at ``path``."""
    try:
        return os.path.samestat(os.fstat(claim.fileno()), os.stat(path))
    except FileNotFoundError:
        return False


def _release(claim: TextIO) -> None:
    """Let go of the SQLite lock, deleting its file first (while still held, so no other
    start locks the file being deleted): a start that failed (the database unreadable, the
    token refused) and a bot stopped leave no ``junction.db.lock`` behind."""
    try:
        if _still_named(claim, Path(claim.name)):
            os.unlink(claim.name)
    except OSError:
        pass  # a folder made read-only meanwhile: the file stays, unlocked, harmless
    finally:
        claim.close()


STOP_SECONDS = 8.0
"""The longest a stop may take, from the signal: then the process exits without finishing its
close (``docker stop`` kills it at ten seconds anyway). Nothing is lost by it: every move is
stored before the member is told, as a crash shows (tests/reliability/test_crash.py)."""


async def _serve(bot: JunctionBot, token: str) -> None:
    """Run ``bot`` until it is closed, or until SIGINT or SIGTERM asks the process to stop.

    ``docker stop`` sends SIGTERM, which Python ignores as a container's PID 1 (Docker then
    kills the bot ten seconds later) and which elsewhere ends the process without closing the
    store or the worker processes; Ctrl-C sends SIGINT. Either stops the bot the same way: the
    start is cancelled and the bot closed, all within :data:`STOP_SECONDS`. A second signal
    ends the process at once.

    Cancelling the running task once, as before, was not enough: a cancellation that comes as a
    shard's connection is made is lost inside ``asyncio.wait_for`` (Python 3.11), and the bot
    went on connecting its shards, deaf to the first Ctrl-C. The stop no longer hangs on it.
    """
    loop = asyncio.get_running_loop()
    asked = asyncio.Event()

    def stop(signum: int) -> None:
        name = signal.Signals(signum).name
        if asked.is_set():
            log.warning("%s again: stopping now, without closing", name)
            logging.shutdown()
            os._exit(128 + signum)  # as a shell reports a program ended by that signal
        log.info("%s: stopping", name)
        asked.set()
        _give_up_after(STOP_SECONDS)

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)
    async with bot:
        serving = asyncio.ensure_future(bot.start(token))
        stopping = asyncio.ensure_future(asked.wait())
        try:
            await asyncio.wait({serving, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if serving.done():
            serving.result()  # a refused token, Discord out of reach: said by run_bot
            return
        await _cancelled(serving)
    # Closed: a start that lost its cancellation is cancelled again.
    await _cancelled(serving)


async def _cancelled(task: asyncio.Future[None]) -> None:
    """Cancel ``task`` until it is done (a cancellation may be lost once), for up to 2 s."""
    for _ in range(8):
        if task.done():
            break
        task.cancel()
        await asyncio.wait({task}, timeout=0.25)
    if task.done() and not task.cancelled() and task.exception() is not None:
        log.info("stopped while starting: %s", task.exception())


def _give_up_after(seconds: float) -> None:
    """End the process in ``seconds`` if it has not ended by then (a close that hangs)."""

    def give_up() -> None:
        log.error("could not stop cleanly within %.0f s; exiting now", seconds)
        logging.shutdown()
        os._exit(1)

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()


def _refused_token(error: discord.LoginFailure) -> ConfigError:
    # Said without the token, which must never reach a log.
    return ConfigError(
        f"Discord refused DISCORD_TOKEN ({error}); copy it again from the Bot page "
        "of your application at https://discord.com/developers/applications"
    )


def _unreachable(error: aiohttp.ClientConnectorError) -> ConfigError:
    # Logging in is the first call to Discord: no network, a name that does not resolve or a
    # DISCORD_API_BASE nothing answers at. Later, discord.py reconnects the gateway by itself.
    why = error.os_error.strerror or str(error.os_error) or type(error.os_error).__name__
    return ConfigError(
        f"cannot reach Discord at {error.host}:{error.port} ({why}); check the network, "
        "and DISCORD_API_BASE if it is set"
    )


async def sync_commands(settings: Settings, guild_id: int | None) -> int:
    """The owner's explicit command sync: to one guild, or globally when no guild is given."""
    if settings.discord_token is None:
        raise ConfigError("DISCORD_TOKEN is not set: the commands are published as the bot")
    point_at(settings)
    bot = JunctionBot(settings)
    async with bot:
        try:
            # Runs setup_hook: the cogs load their commands.
            await bot.login(settings.discord_token)
        except discord.LoginFailure as error:
            raise _refused_token(error) from None
        except aiohttp.ClientConnectorError as error:
            raise _unreachable(error) from None
        guild = discord.Object(id=guild_id) if guild_id is not None else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        try:
            synced = await bot.tree.sync(guild=guild)
        except discord.HTTPException as error:
            # Most often a server the bot was never invited to (403 Missing Access).
            where = "globally" if guild_id is None else f"to server {guild_id}"
            hint = "" if guild_id is None else "; is the bot in that server?"
            raise ConfigError(f"Discord refused the sync {where} ({error}){hint}") from None
    print(
        f"synced {len(synced)} commands "
        f"{'globally' if guild_id is None else 'to guild ' + str(guild_id)}"
    )
    return 0
