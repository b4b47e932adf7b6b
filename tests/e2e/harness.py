"""Run the real bot process against an in-process fake Discord, and kill or restart it.

The bot is started exactly as an operator starts it, ``python -m bot run``, configured only
through its environment: ``DISCORD_TOKEN``, ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``
(pointing at the fake), ``JUNCTION_DB`` (a SQLite file) and ``JUNCTION_DEV_GUILD`` (so the slash
commands sync to the fake's guild at start). :meth:`BotProcess.start` returns once the commands
are synced and a fresh gateway session is ready; :meth:`BotProcess.kill` sends SIGKILL.

Shared by the end-to-end tests (``tests/e2e``) and the latency bench
(:mod:`tests.discord.latency`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from tests.discord.backend import GUILD_ID
from tests.discord.fake_discord import FakeDiscord, GatewaySession

REPO = Path(__file__).resolve().parents[2]
TOKEN = "junction-e2e-token"
COMMAND_SYNC = rf"/applications/\d+/guilds/{GUILD_ID}/commands"
# Variables of the operator's environment that must not leak into the bot under test.
_OWN_PREFIXES = ("DISCORD_", "JUNCTION_", "FAKE_DISCORD_")


class BotProcess:
    """The real bot as a child process, pointed at ``fake`` and storing games in ``db_path``."""

    def __init__(
        self,
        fake: FakeDiscord,
        db_path: str | os.PathLike[str],
        log_path: str | os.PathLike[str],
        *,
        log_level: str = "INFO",
        db_url: str | None = None,
        module: str = "bot",
        extra_env: dict[str, str] | None = None,
        run_args: Sequence[str] = (),
    ) -> None:
        self.fake = fake
        self.db_path = Path(db_path)
        #: A store URL that replaces ``db_path`` (e.g. a PostgreSQL database).
        self.db_url = db_url
        #: The module run as ``python -m MODULE run`` (a test wrapper may install hooks first).
        self.module = module
        self.extra_env = dict(extra_env or {})
        #: Options after ``run`` (``--shard-ids 0,1 --shard-count 2``).
        self.run_args = list(run_args)
        self.log_path = Path(log_path)
        self.log_level = log_level
        self.process: asyncio.subprocess.Process | None = None
        #: The gateway session of the running process (set by :meth:`start`).
        self.session: GatewaySession | None = None
        self.starts = 0

    @property
    def pid(self) -> int:
        """The process id of the running bot."""
        if self.process is None:
            raise RuntimeError("the bot process is not running")
        return self.process.pid

    @property
    def running(self) -> bool:
        """Whether the process was started and has not exited."""
        return self.process is not None and self.process.returncode is None

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the running process has used; NaN without ``/proc``."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return math.nan
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def environment(self) -> dict[str, str]:
        """The bot's environment: the caller's, minus its Discord/Junction settings, plus ours."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(_OWN_PREFIXES)}
        env.update(
            DISCORD_TOKEN=TOKEN,
            DISCORD_API_BASE=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            JUNCTION_DB=self.db_url or str(self.db_path.resolve()),
            JUNCTION_DEV_GUILD=str(GUILD_ID),
            JUNCTION_LOG_LEVEL=self.log_level,
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
        )
        env.update(self.extra_env)
        return env

    def log_text(self) -> str:
        """Everything the bot process wrote to stderr so far (all starts)."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the log, for failure messages."""
        return "\n".join(self.log_text().splitlines()[-lines:])

    async def start(self, *, timeout: float = 20.0) -> None:
        """Start ``python -m bot run``; return once its commands are synced and it is ready."""
        if self.running:
            raise RuntimeError("the bot process is already running")
        syncs_before = len(self.fake.requests_matching("PUT", COMMAND_SYNC))
        old_sessions = list(self.fake.sessions)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts + 1} ---\n".encode())
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                self.module,
                "run",
                *self.run_args,
                cwd=REPO,
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        self.starts += 1

        def ready() -> GatewaySession | None:
            if len(self.fake.requests_matching("PUT", COMMAND_SYNC)) <= syncs_before:
                return None
            session = self.fake.live_session()
            return session if session is not None and session not in old_sessions else None

        waiting = asyncio.ensure_future(
            self.fake.wait_for(ready, timeout=timeout, what="the bot process to be ready")
        )
        exited = asyncio.ensure_future(self.process.wait())
        try:
            done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            exited.cancel()
        if waiting not in done:
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await waiting
            raise RuntimeError(
                f"the bot process exited with code {self.process.returncode} before it was "
                f"ready:\n{self.log_tail()}"
            )
        try:
            self.session = waiting.result()
        except TimeoutError as exc:
            await self.kill()
            raise TimeoutError(f"{exc}\n{self.log_tail()}") from None

    async def kill(self, *, timeout: float = 10.0) -> None:
        """SIGKILL the process (no clean shutdown: the crash a restart must survive)."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGKILL)
        await asyncio.wait_for(process.wait(), timeout)

    async def restart(self, *, timeout: float = 20.0) -> None:
        """Kill the process and start it again on the same database."""
        await self.kill()
        await self.start(timeout=timeout)

    def errors_logged(self) -> list[str]:
        """Log lines that report an error or a traceback (the bot should log none)."""
        return [
            line
            for line in self.log_text().splitlines()
            if re.search(r"\b(ERROR|CRITICAL)\b|Traceback", line)
        ]

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.kill()
