"""Storage of games and move logs: SQLite (embedded default) or PostgreSQL behind one interface."""

from __future__ import annotations

import sqlite3
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from bot.store.base import Store, StoreError
from bot.store.sqlite import MEMORY, SqliteStore

__all__ = ["Fault", "fault_of", "open_store", "redact_url"]

Fault = Literal["busy", "full", "damaged", "connection"]


def fault_of(error: BaseException) -> Fault | None:
    """What went wrong with the database itself, if ``error`` is such a failure (else None).

    ``busy``: locked by another writer past the busy timeout; ``full``: the disk is full;
    ``damaged``: a record cannot be read back; ``connection``: the PostgreSQL server went away.
    Front ends turn these into sentences without knowing any driver.
    """
    text = str(error).lower()
    if isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return "busy"
    if isinstance(error, sqlite3.DatabaseError) and "full" in text:
        return "full"
    if isinstance(error, StoreError):
        return "damaged"
    if type(error).__module__.startswith("asyncpg") or isinstance(error, ConnectionError):
        return "connection"
    return None


_SQLITE_FORMS = (
    "sqlite:///relative/path.db, sqlite:////absolute/path.db, sqlite://:memory: "
    "or a plain file path"
)
_POSTGRES_FORMS = "postgresql://user:password@host:5432/database"
_POSTGRES_SCHEMES = ("postgresql", "postgres")


def open_store(url: str) -> Store:
    """The store a URL names, not yet opened: call ``await store.open()`` before use.

    Accepted: ``sqlite:///relative/path.db``, ``sqlite:////abs/path.db``, ``sqlite://:memory:``
    (also ``sqlite:///:memory:``), a plain file path (anything without ``://``), and
    ``postgresql://…`` or ``postgres://…`` for a PostgreSQL server (needs the ``postgres`` extra,
    which installs asyncpg). Other schemes raise ValueError.
    """
    text = url.strip()
    if not text:
        raise ValueError(f"the store URL is empty; use {_SQLITE_FORMS}, or {_POSTGRES_FORMS}")
    if "://" not in text:
        return SqliteStore(text)
    scheme, _, rest = text.partition("://")
    scheme = scheme.lower()
    if scheme in _POSTGRES_SCHEMES:
        return _postgres_store(text)
    if scheme != "sqlite":
        # Only the scheme is quoted: the rest of a database URL may carry a password.
        raise ValueError(
            f"unsupported store URL scheme {scheme!r}; use {_SQLITE_FORMS}, or {_POSTGRES_FORMS}"
        )
    if rest in (MEMORY, "/" + MEMORY):
        return SqliteStore(MEMORY)
    if not rest.startswith("/") or rest == "/":
        raise ValueError(
            f"a SQLite URL needs three slashes before a relative path and four before an "
            f"absolute one, got {text!r}; use {_SQLITE_FORMS}"
        )
    return SqliteStore(rest[1:])


def redact_url(url: str) -> str:
    """A store URL fit to print and log: any password in it is replaced by ``***``."""
    text = url.strip()
    if "://" not in text:
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port is not None else ""
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}{port}"))


def _postgres_store(url: str) -> Store:
    try:
        from bot.store.postgres import PostgresStore
    except ModuleNotFoundError as exc:
        if exc.name != "asyncpg":
            raise
        raise ValueError(
            "a postgresql:// store needs asyncpg: pip install 'junction-bot[postgres]'"
        ) from exc
    return PostgresStore(url)
