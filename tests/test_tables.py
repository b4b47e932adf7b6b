"""The seam: starting games, members' moves, computer replies, refusals and restarts."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import aiosqlite
import pytest

import bot.tables as tables_module
from bot.engine.core import DAMAGED_SAVE, CorruptSave, IllegalMove, NotationError, NotYourTurn
from bot.store.base import SeatRecord
from bot.store.sqlite import SqliteStore
from bot.tables import NoGameHere, NotSeated, StaleButton, TableBusy, Tables

CHANNEL = 500
ANN, BOB = 11, 22
# Ann holds a Go; Bob (or the computer) holds nothing he can play at first.
DECK = ["go", "100", "75", "75", "75", "50", *["25"] * 6, *["200", "50", "100", "75"] * 2]


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = SqliteStore(tmp_path / "t.db")
    await store.open()
    yield Tables(store)
    await store.close()


def _members() -> list[SeatRecord]:
    return [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)]


def _versus_computer() -> list[SeatRecord]:
    return [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Computer", policy="random")]


async def _start(tables: Tables, seats: list[SeatRecord] | None = None) -> None:
    await tables.start(
        channel_id=CHANNEL, guild_id=1, game_key="mille", seats=seats or _members(), deck=DECK
    )


async def test_start_stores_a_game_at_version_zero(tables: Tables) -> None:
    """A new game is stored active at version 0 and waits for the first player."""
    await _start(tables)
    update = await tables.table(CHANNEL)
    assert update.game.version == 0 and update.game.status == "active"
    assert [s.name for s in update.to_act] == ["Ann"]


async def test_one_game_per_channel(tables: Tables) -> None:
    """A second game in the same channel is refused with a sentence."""
    await _start(tables)
    with pytest.raises(TableBusy, match="already running"):
        await _start(tables)


async def test_move_is_stored_before_the_reply(tables: Tables) -> None:
    """A move bumps the version and appears in the move log."""
    await _start(tables)
    update = await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go")
    assert update.game.version == 1
    moves = await tables.store.moves(update.game.id)
    assert [(m.seat, m.action) for m in moves] == [(0, "play go")]
    assert update.steps[0].caption == "Ann plays Go."


async def test_a_quiet_channel_keeps_no_lock(tables: Tables) -> None:
    """A channel's lock is shared while it is held and gone once the channel is quiet, so a
    long-running bot does not keep one for every channel it ever served."""
    await _start(tables)
    held = tables.lock(CHANNEL)
    async with held:
        assert tables.lock(CHANNEL) is held
    del held
    await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go")
    gc.collect()
    assert CHANNEL not in tables._locks


async def test_computer_replies_by_itself(tables: Tables) -> None:
    """After a member's move the computer seat moves and its move is stored too."""
    await _start(tables, _versus_computer())
    update = await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go")
    assert len(update.steps) >= 2 and update.steps[1].by_computer
    assert [s.name for s in update.to_act] == ["Ann"]
    assert len(await tables.store.moves(update.game.id)) == update.game.version


async def test_stranger_is_refused(tables: Tables) -> None:
    """Someone not seated cannot move."""
    await _start(tables)
    with pytest.raises(NotSeated):
        await tables.move(channel_id=CHANNEL, user_id=99, action="play go")


async def test_out_of_turn_is_refused(tables: Tables) -> None:
    """The seated player who is not to act is refused."""
    await _start(tables)
    with pytest.raises(NotYourTurn, match="waiting for Ann"):
        await tables.move(channel_id=CHANNEL, user_id=BOB, action="discard 25")


@pytest.mark.parametrize(
    ("action", "error"), [("play 100", IllegalMove), ("play banana", NotationError)]
)
async def test_bad_move_leaves_the_stored_game_unchanged(
    tables: Tables, action: str, error: type[Exception]
) -> None:
    """An illegal or unreadable move raises and stores nothing."""
    await _start(tables)
    before = await tables.table(CHANNEL)
    with pytest.raises(error):
        await tables.move(channel_id=CHANNEL, user_id=ANN, action=action)
    after = await tables.table(CHANNEL)
    assert after.game.version == before.game.version and after.game.state == before.game.state


async def test_repeated_interaction_applies_once(tables: Tables) -> None:
    """The same interaction delivered twice is applied once."""
    await _start(tables)
    await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go", interaction_id="i1")
    again = await tables.move(
        channel_id=CHANNEL, user_id=BOB, action="discard 25", interaction_id="i1"
    )
    assert again.repeated and again.game.version == 1


async def test_stale_button_is_refused(tables: Tables) -> None:
    """A button carrying an old version is refused and changes nothing."""
    await _start(tables)
    await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go")
    with pytest.raises(StaleButton, match="before the latest move"):
        await tables.move(channel_id=CHANNEL, user_id=BOB, action="discard 25", expected_version=0)
    assert (await tables.table(CHANNEL)).game.version == 1


async def test_button_from_another_game_is_refused(tables: Tables) -> None:
    """A button from an ended game does not act on the new one."""
    await _start(tables)
    old = (await tables.table(CHANNEL)).game.id
    await tables.abort(channel_id=CHANNEL)
    await _start(tables)
    with pytest.raises(StaleButton, match="ended"):
        await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go", game_id=old)


async def test_game_resumes_after_a_restart(tmp_path: Path) -> None:
    """A new process on the same database finds the game and continues it."""
    store = SqliteStore(tmp_path / "r.db")
    await store.open()
    await _start(Tables(store))
    await Tables(store).move(channel_id=CHANNEL, user_id=ANN, action="play go")
    await store.close()
    store = SqliteStore(tmp_path / "r.db")
    await store.open()
    update = await Tables(store).move(channel_id=CHANNEL, user_id=BOB, action="discard 25")
    assert update.game.version == 2
    await store.close()


async def test_resign_gives_the_win_to_the_other_seat(tables: Tables) -> None:
    """Resigning ends the game with the opponent as winner and frees the channel."""
    await _start(tables)
    update = await tables.leave(channel_id=CHANNEL, user_id=BOB)
    assert update.outcome is not None and update.outcome.winners == (0,)
    assert update.game.status == "finished"
    with pytest.raises(NoGameHere):
        await tables.table(CHANNEL)


async def test_abort_ends_without_a_result(tables: Tables) -> None:
    """An aborted game is stored as aborted and the channel is free again."""
    await _start(tables)
    stored = await tables.abort(channel_id=CHANNEL)
    assert stored.status == "aborted"
    await _start(tables)


async def test_legal_moves_have_plain_words(tables: Tables) -> None:
    """Menus get notation plus a label; the waiting player gets none."""
    await _start(tables)
    stored = await tables.current(CHANNEL)
    ann = tables.hand(stored, ANN)[1]
    assert ("play go", "Play Go") in [(m.notation, m.label) for m in ann]
    assert tables.hand(stored, BOB)[1] == []


async def test_private_view_only_for_seated_members(tables: Tables) -> None:
    """A hand is shown to its owner; a stranger is refused."""
    await _start(tables)
    stored = await tables.current(CHANNEL)
    assert len(tables.hand(stored, ANN)[0].hand) == 7
    with pytest.raises(NotSeated):
        tables.hand(stored, 99)


async def test_corrupt_saved_game_is_a_readable_error(tables: Tables, tmp_path: Path) -> None:
    """A damaged snapshot gives CorruptSave and is left as it was."""
    await _start(tables)
    async with aiosqlite.connect(tmp_path / "t.db") as db:
        await db.execute("UPDATE games SET state = ?", ('{"schema_version": 99}',))
        await db.commit()
    with pytest.raises(CorruptSave, match="cannot be resumed"):
        await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go")
    assert (await tables.current(CHANNEL)).state == {"schema_version": 99}


async def test_a_save_that_is_not_json_can_be_ended(tables: Tables, tmp_path: Path) -> None:
    """A saved state damaged past reading (not JSON) is refused as a save that cannot be
    resumed, left as it was, and the game can still be aborted, which keeps the damaged text:
    before, every read of the channel's game failed, /abort and a new /play with it."""
    await _start(tables)
    damaged = "{{{ not json"
    async with aiosqlite.connect(tmp_path / "t.db") as db:
        await db.execute("UPDATE games SET state = ?", (damaged,))
        await db.commit()
    with pytest.raises(CorruptSave, match="damaged and cannot be resumed"):
        await tables.move(channel_id=CHANNEL, user_id=ANN, action="play go")
    async with aiosqlite.connect(tmp_path / "t.db") as db:
        assert [tuple(row) for row in await db.execute_fetchall("SELECT state FROM games")] == [
            (damaged,)
        ]
    ended = await tables.abort(channel_id=CHANNEL)
    assert ended.status == "aborted"
    assert ended.state == {DAMAGED_SAVE: damaged}
    await _start(tables)  # the channel is free again


@pytest.mark.parametrize(
    "typed",
    [
        "ＰＬＡＹ ＧＯ",  # full-width letters and an ideographic space
        "play\u00a0go",  # a non-breaking space
        "play go\u200b",  # a zero-width space pasted from chat
        "\u201cplay go\u201d",  # in curly quotes, as a phone writes them
        "\u2060Play \t \u3000Go\ufeff",  # word joiner, mixed spaces, a byte-order mark
    ],
)
async def test_a_move_typed_in_compatibility_forms_is_read_as_its_notation(
    tables: Tables, typed: str
) -> None:
    """What a member types is read once, at the seam, as the games' notation expects (Unicode
    NFKC, zero-width characters dropped, curly quotes straight, spaces collapsed), so every
    game and front end takes it; the move log stores the engine's own notation. Before the
    fix each of these was refused ("I don't understand 'ＰＬＡＹ ＧＯ'")."""
    await _start(tables)
    update = await tables.move(channel_id=CHANNEL, user_id=ANN, action=typed)
    moves = await tables.store.moves(update.game.id)
    assert [(m.seat, m.action) for m in moves] == [(0, "play go")]
    assert update.steps[0].caption == "Ann plays Go."


async def test_typed_moves_are_read_but_names_are_not_normalised(tables: Tables) -> None:
    """A full-width ticket and a full-width digit in Ticket to Ride ('keep Ｔ１１') read as
    'keep T11'; the member's own full-width name stays as they wrote it."""
    seats = [SeatRecord(0, "Ｓａｍ", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)]
    await tables.start(channel_id=CHANNEL, guild_id=1, game_key="ttr", seats=seats, seed=7)
    stored = await tables.current(CHANNEL)
    keep = next(m.notation for m in tables.hand(stored, ANN)[1] if m.notation.count(" ") == 1)
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in keep)
    update = await tables.move(channel_id=CHANNEL, user_id=ANN, action=f"{wide}\u200b")
    moves = await tables.store.moves(update.game.id)
    assert [(m.seat, m.action) for m in moves] == [(0, keep)]
    assert update.game.seats[0].name == "Ｓａｍ"
    assert update.steps[0].caption.startswith("Ｓａｍ "), update.steps[0].caption


async def test_a_move_is_capped_before_and_after_it_is_read(tables: Tables) -> None:
    """Over 200 characters is no move, refused before it is read; and text that reading makes
    longer than that ('ﷺ' folds to 18 letters) is refused too, not quoted back in full by the
    game's refusal. Nothing is stored either way."""
    await _start(tables)
    for typed in ("play go" + " " * 200, "play \ufdfa" * 20):
        with pytest.raises(NotationError, match="far too long"):
            await tables.move(channel_id=CHANNEL, user_id=ANN, action=typed)
    assert (await tables.current(CHANNEL)).version == 0


async def test_a_member_who_chose_tickets_is_told_the_others_still_choose(tables: Tables) -> None:
    """Ticket to Ride: everyone chooses opening tickets at once. Ann, done first, moves again:
    it is nobody's turn yet, so she reads "Not now: waiting for Bob and Cy." (it said "It is
    not your turn; waiting for Bob, Cy")."""
    seats = [*_members(), SeatRecord(2, "Cy", user_id=33)]
    await tables.start(channel_id=CHANNEL, guild_id=1, game_key="ttr", seats=seats, seed=5)
    stored = await tables.current(CHANNEL)
    _, moves = tables.hand(stored, ANN)
    await tables.move(channel_id=CHANNEL, user_id=ANN, action=moves[0].notation)
    before = await tables.current(CHANNEL)
    with pytest.raises(NotYourTurn) as refused:
        await tables.move(channel_id=CHANNEL, user_id=ANN, action=moves[0].notation)
    assert str(refused.value) == "Not now: waiting for Bob and Cy."
    after = await tables.current(CHANNEL)
    assert (after.version, after.state) == (before.version, before.state)


async def test_guild_settings_read_long_ago_are_not_kept(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's settings are kept half a minute for its games' timers; one entry per server
    ever played on stayed for good (servers the bot has left too), so a bot serving server
    after server grew without end. Games started in 200 servers a minute apart keep the
    settings of the last one only."""
    clock = [1000.0]
    monkeypatch.setattr(tables_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    for guild_id in range(1, 201):
        await tables.start(
            channel_id=CHANNEL + guild_id,
            guild_id=guild_id,
            game_key="mille",
            seats=_members(),
            deck=DECK,
        )
        clock[0] += 60.0
    assert len(tables._settings) == 1
