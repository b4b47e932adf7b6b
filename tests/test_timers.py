"""Turn timers: armed from the guild's settings, a reminder at half time, expiry, restarts."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.games import get_game, get_policy
from bot.move_log import LATE_MARK
from bot.store.base import GuildSettings, SeatRecord, StoredGame, TimeoutAction
from bot.store.sqlite import SqliteStore
from bot.tables import Tables, TableUpdate, Timeout
from bot.timers import TimerEvent, sweep

CHANNEL, GUILD = 500, 9
ANN, BOB = 11, 22
T0 = 1_700_000_000.0
TURN = 60


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(tmp_path / "t.db")
    await s.open()
    yield s
    await s.close()


@pytest.fixture
def tables(store: SqliteStore, clock: Clock) -> Tables:
    return Tables(store, clock=clock)


def _members() -> list[SeatRecord]:
    return [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Bob", user_id=BOB)]


def _versus_computer() -> list[SeatRecord]:
    return [SeatRecord(0, "Ann", user_id=ANN), SeatRecord(1, "Computer", policy="random")]


async def _start(
    tables: Tables,
    seats: list[SeatRecord] | None = None,
    *,
    on_timeout: TimeoutAction = "computer",
    turn: int | None = TURN,
    guild_id: int | None = GUILD,
) -> TableUpdate:
    if guild_id is not None:
        await tables.store.set_guild_settings(GuildSettings(guild_id, turn, on_timeout))
    return await tables.start(
        channel_id=CHANNEL,
        guild_id=guild_id,
        game_key="mille",
        seats=seats or _members(),
        options={"length": "hand"},
        seed=3,
    )


async def _first_move(tables: Tables, update: TableUpdate) -> TableUpdate:
    """The member to act plays their first legal move."""
    user = update.waiting_members[0].user_id
    assert user is not None
    choice = tables.hand(update.game, user)[1][0]
    return await tables.move(channel_id=CHANNEL, user_id=user, action=choice.notation)


async def _stored(tables: Tables, game_id: int) -> StoredGame:
    game = await tables.store.get_game(game_id)
    assert game is not None
    return game


# -- arming and clearing -------------------------------------------------------------------------


async def test_start_arms_the_timer(tables: Tables) -> None:
    """A new game with a member to act gets a reminder at half time and a deadline at full."""
    update = await _start(tables)
    assert (update.game.remind_at, update.game.turn_deadline) == (T0 + TURN / 2, T0 + TURN)
    assert await _stored(tables, update.game.id) == update.game


async def test_each_move_rearms_the_timer(tables: Tables, clock: Clock) -> None:
    """After a move the next member's turn is timed from the moment of the move."""
    update = await _start(tables)
    clock.now += 20
    moved = await _first_move(tables, update)
    assert (moved.game.remind_at, moved.game.turn_deadline) == (clock.now + 30, clock.now + 60)
    assert await _stored(tables, moved.game.id) == moved.game


async def test_no_timer_without_a_turn_limit(tables: Tables) -> None:
    """A guild without turn_seconds gets no timer, before or after a move."""
    update = await _start(tables, turn=None)
    assert (update.game.remind_at, update.game.turn_deadline) == (None, None)
    moved = await _first_move(tables, update)
    assert moved.game.turn_deadline is None
    assert await tables.store.timers_due(T0 + 10**6) == []


async def test_no_timer_outside_a_guild(tables: Tables) -> None:
    """A game outside any guild (no settings to read) is never timed."""
    update = await _start(tables, guild_id=None)
    assert update.game.turn_deadline is None


async def test_ending_the_game_clears_the_timer(tables: Tables) -> None:
    """A resigned game keeps no timer, so it is never swept."""
    await _start(tables)
    ended = await tables.leave(channel_id=CHANNEL, user_id=ANN)
    assert (ended.game.remind_at, ended.game.turn_deadline) == (None, None)
    assert await tables.store.timers_due(T0 + 10**6) == []


async def test_no_timer_against_computer_only_turns(tables: Tables) -> None:
    """A game where only computer seats act is never timed."""
    seats = [SeatRecord(0, "North", policy="random"), SeatRecord(1, "South", policy="random")]
    update = await _start(tables, seats)
    assert update.game.status == "finished" and update.game.turn_deadline is None
    assert await tables.store.timers_due(T0 + 10**6) == []


async def test_a_computer_left_due_moves_when_woken(tables: Tables, clock: Clock) -> None:
    """A game stored with the computer to act (a crash before it moved) gets its move."""
    mille = get_game("mille")
    seats = [SeatRecord(0, "Computer", policy="random"), SeatRecord(1, "Ann", user_id=ANN)]
    # Stored directly (as a crash between the computer's moves would leave it): seat 0 to act.
    game = await tables.store.create_game(
        channel_id=CHANNEL,
        guild_id=GUILD,
        game_key="mille",
        seats=seats,
        options={},
        state=mille.to_dict(mille.new_game(["Computer", "Ann"], 3)),
    )
    await tables.store.set_timer(game.id, remind_at=T0 + 30, deadline=T0 + 60)
    clock.now = T0 + 61
    woken = await tables.wake(game.id)
    assert woken is not None and woken.steps and woken.steps[0].by_computer
    assert [s.seat for s in woken.waiting] == [1]
    after = await _stored(tables, game.id)
    assert after.version == len(woken.steps) and after.turn_deadline is None
    assert await tables.wake(game.id) is None  # exactly once


# -- reminders -----------------------------------------------------------------------------------


async def test_reminder_at_half_time(tables: Tables, clock: Clock) -> None:
    """Nothing happens before half time; at half time the waiting member is reminded once."""
    update = await _start(tables)
    clock.now = T0 + TURN / 2 - 1
    assert await sweep(tables, clock.now) == []
    clock.now = T0 + TURN / 2
    [event] = await sweep(tables, clock.now)
    assert (event.kind, event.game.id) == ("remind", update.game.id)
    assert event.waiting == (update.game.seats[0],)
    assert (event.game.remind_at, event.game.turn_deadline) == (None, T0 + TURN)
    assert await _stored(tables, update.game.id) == event.game
    clock.now += 1
    assert await sweep(tables, clock.now) == []  # reminded once, not on every sweep


async def test_remind_turn_before_it_is_due_does_nothing(tables: Tables) -> None:
    """remind_turn before the reminder time returns None and keeps the reminder."""
    update = await _start(tables)
    assert await tables.remind_turn(update.game.id) is None
    assert (await _stored(tables, update.game.id)).remind_at == T0 + TURN / 2


# -- expiry --------------------------------------------------------------------------------------


async def test_expiry_lets_the_computer_play_for_the_absent_member(
    tables: Tables, clock: Clock
) -> None:
    """At the deadline the computer makes the absent member's move; it is stored and timed on."""
    update = await _start(tables)
    clock.now = T0 + TURN
    [event] = await sweep(tables, clock.now)
    assert event.kind == "expire" and event.update is not None
    expired = event.update
    assert expired.timeout == Timeout((update.game.seats[0],), "computer")
    assert expired.timeout.caption == "⏰ Ann ran out of time: the computer played for them."
    [step] = expired.steps
    assert (step.seat, step.by_computer, step.timed_out) == (0, True, True)
    [stored_move] = await tables.store.moves(update.game.id)
    # No member's interaction: the log marks it as played for a late member.
    assert (stored_move.seat, stored_move.action, stored_move.interaction_id) == (
        0,
        step.action,
        f"{LATE_MARK}{update.game.id}:0",
    )
    assert expired.previous == update.public and expired.game.version == 1
    assert [s.name for s in expired.to_act] == ["Bob"]
    assert expired.game.turn_deadline == clock.now + TURN
    assert event.game == expired.game == await _stored(tables, update.game.id)


async def test_expiry_move_is_the_normal_players_choice(tables: Tables, clock: Clock) -> None:
    """The move made for an absent member is the one the "normal" computer player picks."""
    update = await _start(tables)
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None
    # The same position and seed, asked of the policy directly, gives the same move.
    mille = get_game("mille")
    view = mille.private_view(mille.from_dict(update.game.state), 0)
    expected = get_policy("mille", "normal").choose(view, Random(f"{update.game.id}:0"))
    assert expired.steps[0].action == mille.format_action(mille.parse_action(expected))


async def test_expiry_then_the_computer_seat_replies(tables: Tables, clock: Clock) -> None:
    """After the move made for the absent member, the computer seat replies as usual."""
    update = await _start(tables, _versus_computer())
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None
    assert expired.steps[0].timed_out and expired.steps[0].seat == 0
    replies = expired.steps[1:]
    assert replies and all(s.by_computer and not s.timed_out and s.seat == 1 for s in replies)
    assert [s.name for s in expired.to_act] == ["Ann"]
    assert expired.game.turn_deadline == clock.now + TURN


async def test_expiry_with_forfeit(tables: Tables, clock: Clock) -> None:
    """With "forfeit", the absent member resigns: the others win and the result is recorded."""
    update = await _start(tables, on_timeout="forfeit")
    clock.now = T0 + TURN + 5
    [event] = await sweep(tables, clock.now)
    expired = event.update
    assert expired is not None and expired.timeout is not None
    assert expired.timeout.caption == "⏰ Ann ran out of time and forfeits the game."
    assert expired.game.status == "finished" and [s.left for s in expired.steps] == [True]
    assert expired.outcome is not None and expired.outcome.winners == (1,)
    assert [m.action for m in await tables.store.moves(update.game.id)] == ["@leave"]
    [result] = await tables.store.results()
    assert (result.record.game_id, result.record.ranks) == (update.game.id, (1, 0))
    assert result.record.finished_at == clock.now


@pytest.mark.parametrize("game_key", ["race", "dragon"])
async def test_expiry_plays_the_whole_turn(tables: Tables, clock: Clock, game_key: str) -> None:
    """A turn of several moves (a race's draw, plays and end; Dragon's two actions) is played
    to its end: the next member gets the table, and the late one no fresh timer mid-turn."""
    await tables.store.set_guild_settings(GuildSettings(GUILD, TURN, "computer"))
    update = await tables.start(
        channel_id=CHANNEL, guild_id=GUILD, game_key=game_key, seats=_members(), seed=3
    )
    assert [s.seat for s in update.waiting] == [0]
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None
    played = [s for s in expired.steps if s.seat == 0]
    assert len(played) >= 2 and all(s.timed_out for s in played)
    assert 0 not in [s.seat for s in expired.waiting]


async def test_expiry_plays_one_move_of_a_solitaire(tables: Tables, clock: Clock) -> None:
    """In a solitaire every move is a turn: a timeout plays one move, not the whole game."""
    await tables.store.set_guild_settings(GuildSettings(GUILD, TURN, "computer"))
    update = await tables.start(
        channel_id=CHANNEL,
        guild_id=GUILD,
        game_key="ttr-solo",
        seats=[SeatRecord(0, "Ann", user_id=ANN)],
        seed=3,
    )
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None and len(expired.steps) == 1
    assert expired.game.status == "active" and expired.game.version == 1


async def test_late_opening_tickets_leave_the_first_turn_to_the_member(
    tables: Tables, clock: Clock
) -> None:
    """The opening tickets are chosen by everyone at once: when the computer keeps them for a
    late member, that member's first turn is still theirs, with a timer of its own."""
    await tables.store.set_guild_settings(GuildSettings(GUILD, TURN, "computer"))
    update = await tables.start(
        channel_id=CHANNEL, guild_id=GUILD, game_key="ttr", seats=_members(), seed=3
    )
    assert [s.seat for s in update.waiting] == [0, 1]
    _, moves = tables.hand(update.game, BOB)
    await tables.move(channel_id=CHANNEL, user_id=BOB, action=moves[0].notation)
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None
    assert [(s.seat, s.timed_out) for s in expired.steps] == [(0, True)]
    assert [s.seat for s in expired.waiting] == [0]
    assert (await _stored(tables, update.game.id)).turn_deadline == clock.now + TURN


async def test_members_late_together_leave_no_winner(tables: Tables, clock: Clock) -> None:
    """With "forfeit", when every member still playing is late (the opening tickets are chosen
    at once), no one wins by the others' lateness: the game ends with no result."""
    await tables.store.set_guild_settings(GuildSettings(GUILD, TURN, "forfeit"))
    update = await tables.start(
        channel_id=CHANNEL, guild_id=GUILD, game_key="ttr", seats=_members(), seed=3
    )
    assert [s.seat for s in update.waiting] == [0, 1]
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None and expired.timeout is not None
    assert expired.timeout.caption == (
        "⏰ Ann and Bob both ran out of time: the game ends with no result."
    )
    assert expired.game.status == "aborted" and expired.outcome is None
    assert await tables.store.results() == []


async def test_late_members_all_forfeit(tables: Tables, clock: Clock) -> None:
    """With "forfeit", every late member forfeits, not only the first; a member who was not
    late plays on and wins."""
    await tables.store.set_guild_settings(GuildSettings(GUILD, TURN, "forfeit"))
    seats = [*_members(), SeatRecord(2, "Cy", user_id=33)]
    update = await tables.start(
        channel_id=CHANNEL, guild_id=GUILD, game_key="ttr", seats=seats, seed=3
    )
    _, moves = tables.hand(update.game, 33)
    await tables.move(channel_id=CHANNEL, user_id=33, action=moves[0].notation)
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None and expired.timeout is not None
    assert expired.timeout.caption == "⏰ Ann and Bob ran out of time and forfeit the game."
    assert [s.seat for s in expired.steps if s.left] == [0, 1]
    assert expired.outcome is not None and expired.outcome.winners == (2,)


async def test_expire_before_the_deadline_does_nothing(tables: Tables, clock: Clock) -> None:
    """expire_turn before the deadline returns None and plays nothing."""
    update = await _start(tables)
    clock.now = T0 + TURN - 1
    assert await tables.wake(update.game.id) is None
    assert await tables.store.moves(update.game.id) == []


async def test_a_move_in_time_beats_the_old_deadline(tables: Tables, clock: Clock) -> None:
    """A member who moves before the deadline is not timed out at the old deadline."""
    update = await _start(tables)
    clock.now = T0 + TURN - 10
    moved = await _first_move(tables, update)
    clock.now = T0 + TURN + 1
    assert await sweep(tables, clock.now) == []
    assert len(await tables.store.moves(update.game.id)) == moved.game.version


async def test_expire_after_the_game_ended_does_nothing(tables: Tables, clock: Clock) -> None:
    """expire_turn and remind_turn on an ended game return None."""
    update = await _start(tables)
    await tables.abort(channel_id=CHANNEL)
    clock.now = T0 + 10 * TURN
    assert await tables.wake(update.game.id) is None
    assert await tables.remind_turn(update.game.id) is None


async def test_sweep_skips_games_it_does_not_serve(tables: Tables, clock: Clock) -> None:
    """``only`` leaves other processes' games alone."""
    update = await _start(tables)
    clock.now = T0 + TURN
    assert await sweep(tables, clock.now, only=lambda game: game.guild_id != GUILD) == []
    assert await tables.store.moves(update.game.id) == []


# -- restarts ------------------------------------------------------------------------------------


async def test_deadline_passed_while_down_is_handled_after_restart(tmp_path: Path) -> None:
    """A deadline that passed while the bot was down is handled by the first sweep after it."""
    path = tmp_path / "restart.db"
    before = SqliteStore(path)
    await before.open()
    update = await _start(Tables(before, clock=Clock()))
    await before.close()

    later = Clock(T0 + 3600)
    after = SqliteStore(path)
    await after.open()
    try:
        [event] = await sweep(Tables(after, clock=later), later.now)
        assert event == TimerEvent("expire", event.update)
        assert event.update is not None and event.update.timeout is not None
        assert event.update.timeout.seats == (update.game.seats[0],)
        [stored_move] = await after.moves(update.game.id)
        assert (stored_move.seat, stored_move.interaction_id) == (
            0,
            f"{LATE_MARK}{update.game.id}:0",
        )
        assert event.game.turn_deadline == later.now + TURN
    finally:
        await after.close()


# -- a bystander leaving -------------------------------------------------------------------------

CY = 33
# Dragon for three: Mille Bornes hands of six (Ann's Speed Limit and Gasolines, Bob's Right of
# Way and 75s, Cy's 50s), then Car Wars hands of five: Ann a Machine Gun (Front), Bob an Armor
# for the front, Cy Armor for the left only.
THREE_CARS = [
    *["speed-limit", "gasoline", "gasoline", "gasoline", "gasoline", "gasoline"],
    *["right-of-way", "75", "75", "75", "75", "75"],
    *["50"] * 6,
    *["mg-front", "swerve", "swerve", "swerve", "swerve"],
    *["armor-front", "swerve", "swerve", "swerve", "swerve"],
    *["swerve", "swerve", "armor-left", "armor-left", "armor-left"],
]


async def _three_cars(tables: Tables) -> TableUpdate:
    await tables.store.set_guild_settings(GuildSettings(GUILD, TURN, "computer", 45))
    return await tables.start(
        channel_id=CHANNEL,
        guild_id=GUILD,
        game_key="dragon",
        seats=[*_members(), SeatRecord(2, "Cy", user_id=CY)],
        deck=THREE_CARS,
    )


async def test_a_bystander_leaving_keeps_a_reaction_windows_deadline(
    tables: Tables, clock: Clock
) -> None:
    """Ann shoots Bob, who may armor; Cy, not in the fight, resigns 30 seconds later. Bob's
    window still closes 45 seconds after the shot: it was opened afresh by the resignation,
    giving the window a second reaction time."""
    update = await _three_cars(tables)
    shot = await tables.move(channel_id=CHANNEL, user_id=ANN, action="mg-front @1")
    assert [s.seat for s in shot.reacting] == [1]
    assert shot.game.turn_deadline == T0 + 45
    clock.now = T0 + 30
    left = await tables.leave(channel_id=CHANNEL, user_id=CY)
    assert [s.seat for s in left.reacting] == [1]
    assert left.game.turn_deadline == T0 + 45
    assert (await _stored(tables, update.game.id)).turn_deadline == T0 + 45


async def test_a_bystander_leaving_keeps_the_turn_timer(tables: Tables, clock: Clock) -> None:
    """Cy resigns in the middle of Ann's turn: Ann's turn keeps its reminder and deadline (a
    resignation elsewhere at the table is no reason to give her a whole turn again)."""
    update = await _three_cars(tables)
    assert (update.game.remind_at, update.game.turn_deadline) == (T0 + TURN / 2, T0 + TURN)
    clock.now = T0 + 40
    left = await tables.leave(channel_id=CHANNEL, user_id=CY)
    assert [s.seat for s in left.waiting] == [0]
    assert (left.game.remind_at, left.game.turn_deadline) == (T0 + TURN / 2, T0 + TURN)


async def test_forfeits_that_end_the_game_leave_it_to_the_result(
    tables: Tables, clock: Clock
) -> None:
    """Ann keeps her opening tickets; Bob and Cy run out of time with "forfeit". Both forfeit
    and Ann wins: no step says "Ann and Cy play on" for the moment between the two forfeits,
    the timeout's line and the result say it all."""
    await tables.store.set_guild_settings(GuildSettings(GUILD, TURN, "forfeit"))
    update = await tables.start(
        channel_id=CHANNEL,
        guild_id=GUILD,
        game_key="ttr",
        seats=[*_members(), SeatRecord(2, "Cy", user_id=CY)],
        seed=3,
    )
    _, moves = tables.hand(update.game, ANN)
    await tables.move(channel_id=CHANNEL, user_id=ANN, action=moves[0].notation)
    clock.now = T0 + TURN
    expired = await tables.wake(update.game.id)
    assert expired is not None and expired.outcome is not None
    assert expired.outcome.winners == (0,)
    assert [(s.seat, s.left, s.caption) for s in expired.steps] == [(1, True, ""), (2, True, "")]


async def test_a_timer_given_by_settings_leaves_a_move_made_meanwhile_its_own(
    tables: Tables, store: SqliteStore, clock: Clock
) -> None:
    """/settings turns a timer on while a game waits untimed; between reading the game and
    timing it, another process (a second console, a misrouted shard) stores a move, which
    timed the next turn from its own moment. The settings leave that deadline alone and count
    no game timed. Before the fix they replaced it with a deadline worked out for the turn
    before the move, without asking whether the game was still at that version."""
    update = await _start(tables, turn=None)
    await store.set_guild_settings(GuildSettings(GUILD, TURN, "computer"))
    tables.forget_settings(GUILD)  # as /settings does
    other = Tables(store, clock=lambda: T0 + 1000)  # the other process, with its own clock
    moves: list[TableUpdate] = []
    arm = tables._arm

    async def a_move_lands_first(here: Any) -> Any:
        moves.append(await _first_move(other, update))
        return await arm(here)

    tables._arm = a_move_lands_first  # type: ignore[method-assign]
    assert await tables.time_untimed(GUILD) == 0
    stored = await _stored(tables, update.game.id)
    assert stored.version == moves[0].game.version
    assert stored.turn_deadline == T0 + 1000 + TURN
