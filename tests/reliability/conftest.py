"""Fixtures of the reliability campaign: the cog tests' bot driver, shared here, and a fresh
PostgreSQL database for the tests that run the real bot on one."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from tests.cogs.conftest import driver

__all__ = ["driver", "pg_database"]


@pytest.fixture
async def pg_database() -> AsyncIterator[str]:
    """A fresh database on the test PostgreSQL server (JUNCTION_TEST_PG)."""
    server = os.environ.get("JUNCTION_TEST_PG")
    if not server:
        pytest.skip("JUNCTION_TEST_PG is not set (CI starts a server)")
    import asyncpg

    name = f"junction_rel_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(server)
    await admin.execute(f'CREATE DATABASE "{name}"')
    base = server.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
