"""A throwaway PostgreSQL server of our own (so a test may stop and restart it), like .ci/run's."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def server_bin() -> Path | None:
    """The newest installed PostgreSQL server's bin folder (Debian keeps it off PATH)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: float(p.parent.name))
    for folder in reversed(found):
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


class OwnPostgres:
    """initdb in a temporary folder, then start / stop / restart on a free loopback port."""

    def __init__(self) -> None:
        folder = server_bin()
        if folder is None:
            raise RuntimeError("no PostgreSQL server is installed")
        self.bin = folder
        self.root = Path(tempfile.mkdtemp(prefix="junction-reliab-pg-"))
        self.data = self.root / "db"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            shutil.chown(self.root, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / program), *args],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def _ctl(self, *args: str) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-w",
            "-t",
            "60",
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            *args,
        )

    def start(self) -> None:
        self._ctl("start")

    def stop(self) -> None:
        self._ctl("-m", "fast", "stop")

    def restart(self) -> None:
        self._ctl("-m", "fast", "restart")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
