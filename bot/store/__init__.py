"""Storage of games and move logs: SQLite (embedded default) or PostgreSQL behind one interface."""

from __future__ import annotations

import os
import re
import sqlite3
import unicodedata
from typing import Literal, TypeGuard
from urllib.parse import unquote_plus

from bot.store.base import Store, StoreError
from bot.store.migrations import MigrationError
from bot.store.sqlite import MEMORY, SqliteStore

__all__ = [
    "Fault",
    "StoreUnavailable",
    "fault_of",
    "missing_sqlite_file",
    "open_store",
    "opened_store",
    "redact_url",
    "unopened_store",
]

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
    if any(unicodedata.category(char) == "Cc" for char in text):
        # A line break or a terminal's escape inside (two lines pasted into JUNCTION_DB): a
        # SQLite file was created under that name, one `ls` shows as two lines or garbles.
        raise ValueError("the store URL holds a line break or another control character")
    if "://" not in text:
        scheme, colon, _ = text.partition(":")
        if colon and scheme.lower() in ("sqlite", *_POSTGRES_SCHEMES):
            # "postgresql:/user:pw@host/db" is a mistyped URL, not a file to create quietly.
            raise ValueError(
                f"a {scheme.lower()}: store URL needs '://' after the scheme; "
                f"use {_SQLITE_FORMS}, or {_POSTGRES_FORMS}"
            )
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
            f"absolute one, got {redact_url(text)!r}; use {_SQLITE_FORMS}"
        )
    return SqliteStore(rest[1:])


def redact_url(url: str) -> str:
    """A store URL fit to print and log: any password in it is replaced by ``***``.

    Written by hand rather than with ``urlsplit``, which raises on a bad port or bracket: a
    malformed URL is exactly the one an error message has to show. The credentials end at the
    last ``@`` (a password may hold an unescaped ``/`` or ``@``). A parameter whose name holds
    ``password`` is hidden too: ``password=``, which libpq also accepts, and ``sslpassword=``,
    the client key's passphrase, whatever their case or percent-escapes (asyncpg decodes the
    names). Hiding too much is harmless; too little is not.
    """
    text = url.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:  # a file path, or a mistyped URL ("postgresql:/user:password@host/db")
        scheme, sep, rest = text.partition(":")
        if not sep:
            return text
    user_info, at, host_and_path = rest.rpartition("@")
    if at:
        user, colon, _ = user_info.partition(":")
        if colon:
            rest = f"{user}:***@{host_and_path}"
    rest = _PARAMETER.sub(_hidden_password, rest)
    return f"{scheme}{sep}{rest}"


_PARAMETER = re.compile(r"(?<![^?&;])([^=&#?;]+=)[^&#;]*")
"""A ``name=value`` parameter of a URL's query: anything after a ``?``, ``&`` or ``;``."""


def _hidden_password(parameter: re.Match[str]) -> str:
    # Decoded as asyncpg reads the query (parse_qs): ``pass%77ord`` is a password too.
    if "password" in unquote_plus(parameter[1]).lower():
        return f"{parameter[1]}***"
    return parameter[0]


class StoreUnavailable(Exception):
    """The database a store URL names cannot be opened: one sentence, any password hidden."""


def unopened_store(url: str) -> Store:
    """``open_store``, with a URL it cannot read (an unknown scheme, say) as StoreUnavailable:
    for a command that looks at the store before opening it."""
    try:
        return open_store(url)
    except ValueError as exc:
        raise StoreUnavailable(_cannot_open(url, exc)) from exc


def missing_sqlite_file(store: Store) -> TypeGuard[SqliteStore]:
    """Whether ``store`` is a SQLite file that does not exist yet (opening it would create it
    empty: for a command that reads the bot's database, most likely a JUNCTION_DB not set).

    StoreUnavailable when whether it exists cannot be seen: a database in a folder this account
    may not enter (another account's, the bot's service user's) was a PermissionError
    traceback."""
    if not isinstance(store, SqliteStore) or store.is_memory:
        return False
    try:
        os.stat(store.path)
    except FileNotFoundError:
        return True
    except OSError as exc:
        why = (exc.strerror or type(exc).__name__).lower()
        raise StoreUnavailable(_cannot_open(store.path, OSError(why))) from exc
    return False


async def opened_store(url: str) -> Store:
    """The store ``url`` names, opened and migrated; StoreUnavailable when it cannot be.

    What goes wrong here is the operator's to fix (a mistyped URL, a file that is not a
    database, a directory the bot may not write, a database from a newer Junction, a server
    that does not answer), so the command line says it in one sentence naming the database,
    not as a traceback; the original error stays chained for debugging.
    """
    try:
        store = open_store(url)
        await store.open()
    except (OSError, OverflowError, sqlite3.Error, MigrationError, ValueError) as exc:
        raise StoreUnavailable(_cannot_open(url, exc)) from exc
    except Exception as exc:
        if not type(exc).__module__.startswith("asyncpg"):
            raise
        raise StoreUnavailable(_cannot_open(url, exc)) from exc
    return store


def _cannot_open(url: str, error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        # asyncpg gives up on a server that accepts but never answers (a wrong port, a host
        # behind a firewall) after a minute with a bare TimeoutError, which said nothing of
        # what had been waited for.
        reason = "the server did not answer in time; check the host and port"
    else:
        reason = str(error).strip() or type(error).__name__
    # Control characters written out ("\\n"): the sentence stays one line the terminal shows.
    shown = "".join(
        repr(char)[1:-1] if unicodedata.category(char) == "Cc" else char for char in redact_url(url)
    )
    return f"cannot open the database {shown}: {reason}"


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
