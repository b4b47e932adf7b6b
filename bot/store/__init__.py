"""Storage of games and move logs: SQLite (embedded default) behind one async interface."""

from __future__ import annotations

from bot.store.base import Store
from bot.store.sqlite import MEMORY, SqliteStore

__all__ = ["open_store"]

_SQLITE_FORMS = (
    "sqlite:///relative/path.db, sqlite:////absolute/path.db, sqlite://:memory: "
    "or a plain file path"
)


def open_store(url: str) -> Store:
    """The store a URL names, not yet opened: call ``await store.open()`` before use.

    Accepted: ``sqlite:///relative/path.db``, ``sqlite:////abs/path.db``, ``sqlite://:memory:``
    (also ``sqlite:///:memory:``) and a plain file path (anything without ``://``).
    Other schemes raise ValueError; PostgreSQL is not supported yet.
    """
    text = url.strip()
    if not text:
        raise ValueError(f"the store URL is empty; use {_SQLITE_FORMS}")
    if "://" not in text:
        return SqliteStore(text)
    scheme, _, rest = text.partition("://")
    scheme = scheme.lower()
    if scheme != "sqlite":
        # Only the scheme is quoted: the rest of a database URL may carry a password.
        hint = " (PostgreSQL support is not available yet)" if scheme.startswith("postgres") else ""
        raise ValueError(f"unsupported store URL scheme {scheme!r}{hint}; use {_SQLITE_FORMS}")
    if rest in (MEMORY, "/" + MEMORY):
        return SqliteStore(MEMORY)
    if not rest.startswith("/") or rest == "/":
        raise ValueError(
            f"a SQLite URL needs three slashes before a relative path and four before an "
            f"absolute one, got {text!r}; use {_SQLITE_FORMS}"
        )
    return SqliteStore(rest[1:])
