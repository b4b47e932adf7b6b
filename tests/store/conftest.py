"""Store fixtures: every store test runs against SQLite and against a real PostgreSQL server.

``JUNCTION_TEST_PG`` names a server (``postgresql://user@host:port/db``) on which the tests may
create and drop databases; each PostgreSQL test gets a database of its own. ``bash .ci/run``
starts a throwaway server and sets it. Without it the PostgreSQL half is skipped, with the
reason in pytest's summary; under CI (``CI`` set) a missing server is a failure instead, so CI
can never pass without having run the PostgreSQL suite.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.store import redact_url
from bot.store.base import Store
from tests.store.helpers import Backend

PG_ENV = "JUNCTION_TEST_PG"
BACKENDS = ("sqlite", "postgresql")


def with_database(url: str, database: str) -> str:
    """``url`` pointing at another database on the same server."""
    return urlsplit(url)._replace(path=f"/{database}").geturl()


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server URL from JUNCTION_TEST_PG, checked to answer; else skip (or fail)."""
    url = os.environ.get(PG_ENV, "").strip()
    if not url:
        reason = (
            f"PostgreSQL not available: set {PG_ENV}=postgresql://user@host:port/db "
            "(bash .ci/run starts a server and sets it)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the PostgreSQL store suite")
        pytest.skip(reason)
    # A named server that does not answer is a failure, never a skip: that would hide a broken
    # CI set-up behind a green run.
    import asyncpg

    async def check() -> None:
        conn = await asyncpg.connect(url, timeout=10)
        await conn.close()

    try:
        asyncio.run(check())
    except (OSError, asyncpg.PostgresError) as exc:
        pytest.fail(f"{PG_ENV}={redact_url(url)} does not answer: {exc}")
    return url


@pytest.fixture
async def pg_url(pg_server: str) -> AsyncIterator[str]:
    """A fresh, empty database on the test server for one test; dropped afterwards."""
    import asyncpg

    name = f"junction_test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(pg_server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield with_database(pg_server, name)
    finally:
        admin = await asyncpg.connect(pg_server)
        try:
            # FORCE ends connections a failed test left open (PostgreSQL 13+).
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """An empty database: a SQLite file, or a fresh database on the PostgreSQL test server."""
    if request.param == "sqlite":
        path = tmp_path / "junction.db"
        return Backend("sqlite", f"sqlite:///{path}", path)
    return Backend("postgresql", request.getfixturevalue("pg_url"))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    """An open store on the test's database."""
    s = backend.store()
    await s.open()
    try:
        yield s
    finally:
        await s.close()
