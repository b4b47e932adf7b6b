"""Voiding a finished game's result after abuse (``junction void-game``).

A fair-play review may find a game that should never have counted: a member feeding wins to
another, a game played against a second account. Its result is marked voided (``VOIDED``, in
the result's options, with the reason given) rather than deleted: the store's reads of results
leave it out, so ratings are replayed as if the game had never been played, and every board
(all time and the periods, best-result boards), /stats and /history follow; ``--undo`` counts it
again, and everything is as it was. The game itself stays (/replay still shows it).

A running bot needs nothing more: voiding moves the store's count of changed results on, and the
ladders the bot keeps (bot/kept_results.py) are read again whole at their next read. Rating
lines already posted under a game stay as they were posted.
"""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime

from bot.games import get_game
from bot.store.base import StoredGame, StoreError, VoidState

_COMMAND = "junction void-game"


def _about(game: StoredGame) -> str:
    """The game in a few words, for the operator to recognise it."""
    try:
        title = get_game(game.game_key).info.title
    except Exception:  # a plug-in game no longer installed: its key says enough
        title = game.game_key
    names = ", ".join(seat.name for seat in game.seats)
    ended = datetime.fromtimestamp(game.updated_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"game {game.id} ({title}: {names}; ended {ended})"


def _refusal(state: VoidState, game_id: int, *, undo: bool, reason: str) -> str | None:
    """The operator's sentence when the game's result cannot be (un)voided; None when it can."""
    if state == "no game":
        return (
            f"there is no game {game_id} in this database: check the id, and that JUNCTION_DB "
            "names the bot's database."
        )
    if state == "in play":
        return (
            f"game {game_id} is still being played: only a finished game's result can be "
            "voided (a moderator can /abort it, and an aborted game records no result)."
        )
    if state == "aborted":
        return f"game {game_id} was aborted, so it recorded no result: there is nothing to void."
    if state == "no result":
        return (
            f"game {game_id} has no result recorded: a console game records none, and the bot "
            "records a missing one when it next starts; run this again after that."
        )
    if state == "damaged":
        return (
            f"game {game_id}'s result is damaged (its options are not a JSON object), so whether "
            "it counts cannot be told and nothing was changed; mend its options in the database."
        )
    if state == "voided" and not undo:
        why = f" ({reason})" if reason else ""
        return f"game {game_id}'s result is already voided{why}; --undo counts it again."
    if state == "counted" and undo:
        return f"game {game_id}'s result counts already: there is nothing to undo."
    return None


async def void_main(
    db_url: str, game_id: int, *, reason: str | None, undo: bool, confirmed: bool
) -> int:
    """``junction void-game``: say where the game's result stands and, with ``--yes``, void it
    (or with ``--undo`` count it again); the exit status (2 when it cannot be done)."""
    from bot.store import fault_of, missing_sqlite_file, opened_store, unopened_store

    named = unopened_store(db_url)
    if missing_sqlite_file(named):
        # Opening it would create an empty database, which holds no game to void.
        print(
            f"{_COMMAND}: there is no database at {named.path}; set JUNCTION_DB to the bot's "
            "database and run it again.",
            file=sys.stderr,
        )
        return 2
    store = await opened_store(db_url)
    try:
        state, reason_now = await store.result_state(game_id)
        refused = _refusal(state, game_id, undo=undo, reason=reason_now)
        if refused is not None:
            print(f"{_COMMAND}: {refused}", file=sys.stderr)
            return 2
        try:
            game = await store.get_game(game_id)
        except StoreError:  # a game row too damaged to read: its result can be voided still
            game = None
        about = _about(game) if game is not None else f"game {game_id}"
        if not confirmed:
            if undo:
                why = f" ({reason_now})" if reason_now else ""
                print(f"{about} is voided{why}; run again with --undo --yes to count it again")
            else:
                print(
                    f"{about} counts: ratings, boards, /stats and /history read it; run again "
                    "with --yes to void it"
                )
            return 0
        try:
            found = await store.void_result(game_id, None if undo else (reason or ""))
        except (sqlite3.Error, OSError) as error:
            return _cannot_write(error)
        except Exception as error:
            if fault_of(error) != "connection" and not _read_only(error):
                raise
            return _cannot_write(error)
        refused = _refusal(found, game_id, undo=undo, reason=reason_now)
        if refused is not None:  # changed by someone else meanwhile
            print(f"{_COMMAND}: {refused}", file=sys.stderr)
            return 2
        if undo:
            print(
                f"{about} counts again: ratings, boards and /stats take it back in at their "
                "next read (a running bot needs no restart)"
            )
        else:
            print(
                f"{about} is voided: ratings, boards and /stats leave it out from their next "
                "read (a running bot needs no restart); rating lines already posted stay as "
                "they were posted"
            )
        return 0
    finally:
        await store.close()


def _read_only(error: BaseException) -> bool:
    """Whether ``error`` is a database refusing writes (a read-only PostgreSQL session or
    replica); SQLite's is a ``sqlite3.OperationalError``."""
    return type(error).__name__ == "ReadOnlySQLTransactionError"


def _cannot_write(error: BaseException) -> int:
    text = str(error).strip().lower()
    if "readonly" in text or "read-only" in text or _read_only(error):
        why = "the database is read-only here; run it where the bot's database can be written"
    else:
        why = f"the database refused the change ({text or type(error).__name__})"
    print(f"{_COMMAND}: {why}. Nothing was changed.", file=sys.stderr)
    return 2
