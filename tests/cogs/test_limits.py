"""Per-member limits (``cogs/limits.py``): one member spamming a costly or noisy command meets
a limit, in one sentence saying when to try again, and nothing changes; another member is not
affected; once the period is over the command works again.

The cooldowns read the time as discord.py's own cooldown checks do: the interaction's
``created_at``, from its snowflake id. The clock is moved on honestly, as Discord moves it: the
fake's next interactions get ids made later (``later``)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.store.base import SeatRecord
from cogs import limits
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, component_id, public_table, replies, shown_message
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.payloads import InteractionDriver


@pytest.fixture(autouse=True)
def _quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints search for 20 ms, not 300: the tests ask for many."""
    monkeypatch.setenv("JUNCTION_EXPERT_MS", "20")


def later(driver: InteractionDriver, seconds: float) -> None:
    """The fake's next interactions are created ``seconds`` from now (their snowflake ids)."""
    when = datetime.now(UTC) + timedelta(seconds=seconds)
    driver.backend.ids.observe(discord.utils.time_snowflake(when))


def refusal(result: Any) -> str:
    """The one private sentence a refused request answered, and nothing else."""
    assert result.ephemeral, "refused privately"
    assert len(result.responses) == 1, [r.content for r in result.responses]
    return str(result.content)


async def hints_used_up(driver: InteractionDriver) -> Any:
    """Alice plays the computer and asks for hints until she is refused; that refusal."""
    await driver.slash("play", {"game": "mille"})
    for _ in range(limits.HINTS.uses):
        hint = await driver.slash("hint", {})
        assert "💡" in replies(hint), replies(hint)
    refused = await driver.slash("hint", {})
    assert "💡" not in replies(refused), "the hint past the limit is refused"
    return refused


async def test_a_hint_past_the_limit_is_refused_saying_when(driver: InteractionDriver) -> None:
    refused = await hints_used_up(driver)
    said = refusal(refused)
    assert said.startswith("You have asked for many hints just now: ask again <t:"), said
    assert said.endswith(":R>.")


async def test_a_refused_hint_changes_nothing(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No search is run and the game is not marked again: its stored row stays as it was."""
    bot = running_bot(driver)
    await hints_used_up(driver)
    before = await bot.tables.current(GAMES_CHANNEL_ID)
    thought: list[Any] = []
    original = bot.thinkers.run

    async def counted(*args: Any) -> Any:
        thought.append(args)
        return await original(*args)

    monkeypatch.setattr(bot.thinkers, "run", counted)
    refusal(await driver.slash("hint", {}))
    after = await bot.tables.current(GAMES_CHANNEL_ID)
    assert not thought, "no search ran"
    assert (after.version, dict(after.state), dict(after.options)) == (
        before.version,
        dict(before.state),
        dict(before.options),
    )


async def test_another_members_hints_are_not_limited_by_hers(driver: InteractionDriver) -> None:
    await hints_used_up(driver)
    await driver.slash("play", {"game": "mille"}, user_id=BOB_ID, channel_id=GENERAL_CHANNEL_ID)
    bobs = await driver.slash("hint", {}, user_id=BOB_ID, channel_id=GENERAL_CHANNEL_ID)
    assert "💡" in replies(bobs)


async def test_hints_work_again_once_the_period_is_over(driver: InteractionDriver) -> None:
    await hints_used_up(driver)
    later(driver, limits.HINTS.seconds + 1)
    assert "💡" in replies(await driver.slash("hint", {}))


async def test_the_refusal_names_the_end_of_the_period(driver: InteractionDriver) -> None:
    """The timestamp is when the first hint's period ends: asked then, a hint is given."""
    await driver.slash("play", {"game": "mille"})
    first = await driver.slash("hint", {})
    for _ in range(limits.HINTS.uses - 1):
        await driver.slash("hint", {})
    said = refusal(await driver.slash("hint", {}))
    when = int(said.rsplit("<t:", 1)[1].split(":")[0])
    started = discord.utils.snowflake_time(first.interaction_id).timestamp()
    assert started + limits.HINTS.seconds <= when <= started + limits.HINTS.seconds + 2


async def test_a_hint_asked_while_the_last_is_worked_out_is_refused(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dozen /hints sent at once all queued in the thinking worker, within the cooldown:
    another member's hint waited behind every one. The member's next waits for the last."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "mille"})
    thinking, release = asyncio.Event(), asyncio.Event()
    original = bot.thinkers.run

    async def held(*args: Any) -> Any:
        thinking.set()
        await release.wait()
        return await original(*args)

    monkeypatch.setattr(bot.thinkers, "run", held)
    first = asyncio.ensure_future(driver.slash("hint", {}))
    await asyncio.wait_for(thinking.wait(), 10)
    second = await asyncio.wait_for(driver.slash("hint", {}), 10)
    assert refusal(second) == limits.HINTS.busy
    release.set()
    assert "💡" in replies(await first)


async def test_a_hint_refused_as_busy_uses_nothing_up(driver: InteractionDriver) -> None:
    """Refused while the last was worked out, a hint does not count against the member."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "mille"})
    cooldowns = limits.cooldowns_of(bot)
    cooldowns.running.add((limits.HINTS.name, ALICE_ID))
    refusal(await driver.slash("hint", {}))
    cooldowns.running.clear()
    for _ in range(limits.HINTS.uses):
        assert "💡" in replies(await driver.slash("hint", {}))


async def finished_game(driver: InteractionDriver) -> None:
    """A Mille Bornes match between two computers, played out in the games channel."""
    seats = [SeatRecord(0, "C1", policy="normal"), SeatRecord(1, "C2", policy="normal")]
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="race", seats=seats, seed=5
    )


async def test_a_replay_past_the_limit_is_refused_and_another_member_watches(
    driver: InteractionDriver,
) -> None:
    await finished_game(driver)
    for _ in range(limits.REPLAYS.uses):
        assert "Replay of game" in replies(await driver.slash("replay", {}))
    said = refusal(await driver.slash("replay", {}))
    assert said.startswith("You have asked for several replays just now: ask again <t:"), said
    assert "Replay of game" in replies(await driver.slash("replay", {}, user_id=BOB_ID))
    later(driver, limits.REPLAYS.seconds + 1)
    assert "Replay of game" in replies(await driver.slash("replay", {}))


async def test_a_refused_request_uses_nothing_up(driver: InteractionDriver) -> None:
    """/replay where nothing has finished is refused as before, and counts for nothing."""
    for _ in range(limits.REPLAYS.uses + 2):
        assert "<t:" not in refusal(await driver.slash("replay", {}))
    await finished_game(driver)
    assert "Replay of game" in replies(await driver.slash("replay", {}))


async def test_games_in_threads_past_the_limit_are_refused_and_open_no_thread(
    driver: InteractionDriver,
) -> None:
    bot = running_bot(driver)
    for _ in range(limits.THREADS.uses):
        started = await driver.slash(
            "play", {"game": "mille", "thread": True}, channel_id=GENERAL_CHANNEL_ID
        )
        assert "Your game is in" in replies(started)
    threads = len(driver.backend.threads())
    games = len(await bot.store.games_of_member(ALICE_ID, active=True))
    said = refusal(
        await driver.slash("play", {"game": "mille", "thread": True}, channel_id=GENERAL_CHANNEL_ID)
    )
    assert said.startswith("You have started several games in threads just now: start one"), said
    assert said.endswith("or without thread:true now.")
    assert len(driver.backend.threads()) == threads
    assert len(await bot.store.games_of_member(ALICE_ID, active=True)) == games
    # Without a thread, or by another member, a game starts.
    assert "Your game is in" in replies(
        await driver.slash(
            "play", {"game": "mille", "thread": True}, user_id=BOB_ID, channel_id=GENERAL_CHANNEL_ID
        )
    )
    await driver.slash("play", {"game": "mille"}, channel_id=GENERAL_CHANNEL_ID)
    assert await bot.store.active_game(GENERAL_CHANNEL_ID) is not None


async def test_an_invitation_in_a_thread_counts_as_a_thread(driver: InteractionDriver) -> None:
    for _ in range(limits.THREADS.uses):
        await driver.slash("play", {"game": "mille", "thread": True}, channel_id=GENERAL_CHANNEL_ID)
    said = refusal(
        await driver.slash("challenge", {"game": "mille", "member": BOB_ID, "thread": True})
    )
    assert "games in threads" in said
    assert not await running_bot(driver).store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0)


async def seat_alice_in(driver: InteractionDriver, count: int) -> list[int]:
    """Alice against the computer in ``count`` channels (threads, say) of the server."""
    bot = running_bot(driver)
    channels = [driver.backend.ids.next() for _ in range(count)]
    for channel_id in channels:
        await bot.tables.start(
            channel_id=channel_id,
            guild_id=GUILD_ID,
            game_key="mille",
            seats=[SeatRecord(0, "Alice", user_id=ALICE_ID), SeatRecord(1, "C", policy="normal")],
        )
    return channels


async def test_a_game_past_the_most_at_once_is_refused_naming_them(
    driver: InteractionDriver,
) -> None:
    bot = running_bot(driver)
    channels = await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    said = refusal(await driver.slash("play", {"game": "mille"}))
    assert said.startswith(f"You are playing {limits.GAMES_AT_ONCE} games on this server"), said
    assert all(f"<#{channel}>" in said for channel in channels)
    assert said.endswith("finish one, or /abort it, before starting another.")
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    # Bob is not held back by Alice's games.
    await driver.slash("play", {"game": "mille"}, user_id=BOB_ID)
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is not None


async def _one_started_one_refused(driver: InteractionDriver, answers: Sequence[Any]) -> None:
    """Of two requests sent at once in the two channels, one started its game there and the
    other was refused for the games-at-once limit."""
    bot = running_bot(driver)
    started = [
        channel
        for channel in (GAMES_CHANNEL_ID, GENERAL_CHANNEL_ID)
        if await bot.store.active_game(channel) is not None
    ]
    assert len(started) == 1, started
    refused = [answer for answer in answers if answer.ephemeral]
    assert len(refused) == 1
    assert refusal(refused[0]).startswith(FULL)


async def test_two_games_started_at_once_at_the_last_free_place_start_one(
    driver: InteractionDriver,
) -> None:
    """Two /play sent at the same moment with one game to go before the limit: the checks
    come one after the other, so one game starts and the other is refused (both passed the
    check before either game was stored)."""
    await seat_alice_in(driver, limits.GAMES_AT_ONCE - 1)
    answers = await asyncio.gather(
        driver.slash("play", {"game": "mille"}, channel_id=GAMES_CHANNEL_ID),
        driver.slash("play", {"game": "mille"}, channel_id=GENERAL_CHANNEL_ID),
    )
    await _one_started_one_refused(driver, answers)


async def test_a_game_left_does_not_count(driver: InteractionDriver) -> None:
    """A member who resigned from a game the others play on is no longer playing it."""
    bot = running_bot(driver)
    channels = await seat_alice_in(driver, limits.GAMES_AT_ONCE - 1)
    dragon = [
        SeatRecord(0, "Alice", user_id=ALICE_ID),
        SeatRecord(1, "Bob", user_id=BOB_ID),
        SeatRecord(2, "C", policy="normal"),
    ]
    left = driver.backend.ids.next()
    await bot.tables.start(channel_id=left, guild_id=GUILD_ID, game_key="dragon", seats=dragon)
    await bot.tables.leave(channel_id=left, user_id=ALICE_ID)
    assert await bot.store.active_game(left) is not None, "Bob plays on"
    assert len(channels) + 1 == limits.GAMES_AT_ONCE
    await driver.slash("play", {"game": "mille"})
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is not None


async def test_an_invitation_past_the_most_open_is_refused_and_pings_nobody(
    driver: InteractionDriver,
) -> None:
    bot = running_bot(driver)
    for _ in range(limits.OPEN_TABLES):
        posted = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
        assert f"<@{BOB_ID}>" in replies(posted)
    refused = await driver.slash("host", {"game": "dragon"})
    said = refusal(refused)
    assert said.startswith(f"You have {limits.OPEN_TABLES} tables waiting for players"), said
    assert f"<#{GAMES_CHANNEL_ID}>" in said
    assert len(await bot.store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0)) == limits.OPEN_TABLES
    # Bob may still host his own.
    hosted = await driver.slash("host", {"game": "dragon"}, user_id=BOB_ID)
    assert not hosted.ephemeral


def asking(user_id: int, at: float) -> Any:
    """What ``Cooldowns.take`` reads of an interaction: who asks, and when."""
    return SimpleNamespace(
        user=SimpleNamespace(id=user_id), created_at=datetime.fromtimestamp(at, UTC)
    )


def test_cooldowns_keep_only_members_within_their_period() -> None:
    """Memory follows the members who used a limited command lately, not every member ever."""
    cooldowns = limits.Cooldowns()
    for member in range(1000):
        cooldowns.take(asking(member, 1000.0), limits.HINTS)
    assert len(cooldowns) == 1000
    cooldowns.take(asking(5000, 1000.0 + limits.HINTS.seconds + 1), limits.HINTS)
    assert len(cooldowns) == 1


async def test_invitations_sent_and_cancelled_again_and_again_meet_a_limit(
    driver: InteractionDriver,
) -> None:
    """Alice challenges Bob and cancels at once, again and again: each challenge pinged him, and
    the open-tables cap never bit, as none stayed open. Past ``INVITATIONS`` the challenge is
    refused, pinging nobody; Bob may still challenge her, and later she may again."""
    bot = running_bot(driver)
    for _ in range(limits.INVITATIONS.uses):
        posted = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
        assert f"<@{BOB_ID}>" in replies(posted)
        await driver.click(posted.message, component_id(posted, "Cancel"))
    refused = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    said = refusal(refused)
    assert said.startswith("You have sent many invitations just now"), said
    assert f"<@{BOB_ID}>" not in said
    assert await bot.store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0) == []
    answered = await driver.slash(
        "challenge", {"game": "mille", "member": ALICE_ID}, user_id=BOB_ID
    )
    assert f"<@{ALICE_ID}>" in replies(answered)
    later(driver, limits.INVITATIONS.seconds + 1)
    again = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    assert f"<@{BOB_ID}>" in replies(again)


async def test_boards_and_cards_past_the_limit_are_refused_privately(
    driver: InteractionDriver,
) -> None:
    """/leaderboard and /stats replay a ladder each: together they share one limit. Past it,
    Alice is refused privately (a public deferral would show the refusal to the channel);
    Bob's board is not affected by hers."""
    for turn in range(limits.BOARDS.uses):
        command = ("leaderboard", {"game": "mille"}) if turn % 2 else ("stats", {"game": "mille"})
        shown = await driver.slash(*command)
        assert not shown.ephemeral, replies(shown)
    refused = await driver.slash("leaderboard", {"game": "mille"})
    said = refusal(refused)
    assert said.startswith("You have asked for many boards and cards just now: ask again <t:")
    assert not (await driver.slash("stats", {"game": "mille"}, user_id=BOB_ID)).ephemeral


async def test_histories_past_the_limit_are_refused_and_another_member_reads(
    driver: InteractionDriver,
) -> None:
    """Found by an operator's security review: /history was never limited, yet on a server
    of 200 000 results one for a member with no games there held the database 0.56 s, every
    other channel's move waiting meanwhile; sent again and again, it stalled the bot."""
    for _ in range(limits.HISTORIES.uses):
        assert "Recent games of" in replies(await driver.slash("history", {}))
    said = refusal(await driver.slash("history", {}))
    assert said.startswith("You have asked for many histories just now: ask again <t:"), said
    assert "Recent games of" in replies(await driver.slash("history", {}, user_id=BOB_ID))
    later(driver, limits.HISTORIES.seconds + 1)
    assert "Recent games of" in replies(await driver.slash("history", {}))


async def test_a_rematch_asked_and_cancelled_again_and_again_meets_a_limit(
    driver: InteractionDriver,
) -> None:
    """The Rematch button under a game with Bob invites him as /challenge does: pressed and
    cancelled again and again, it pinged him each time, past the invitations' limit. Past it,
    the press is refused privately, storing and pinging nothing."""
    bot = running_bot(driver)
    started = await alice_against(driver)
    table = public_table(await driver.slash("resign", {}))
    rematch = f"jn:r:{started.game.id}"
    for _ in range(limits.INVITATIONS.uses):
        asked = await driver.click(table.message_id, rematch)
        invitation = asked.responses[0]
        assert f"<@{BOB_ID}>" in (invitation.content or "")
        await driver.click(invitation.message_id, component_id(asked, "Cancel"))
    refused = await driver.click(table.message_id, rematch)
    said = refusal(refused)
    assert said.startswith("You have sent many invitations just now"), said
    assert await bot.store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0) == []


async def test_a_rematch_already_asked_for_uses_nothing_up(driver: InteractionDriver) -> None:
    """A second press pointed at the invitation already posted sends none: it counts for
    nothing."""
    started = await alice_against(driver)
    table = public_table(await driver.slash("resign", {}))
    asked = await driver.click(table.message_id, f"jn:r:{started.game.id}")
    for _ in range(limits.INVITATIONS.uses):
        again = await driver.click(table.message_id, f"jn:r:{started.game.id}")
        assert "already asked for this rematch" in refusal(again)
    await driver.click(asked.responses[0].message_id, component_id(asked, "Cancel"))
    for _ in range(limits.INVITATIONS.uses - 1):
        posted = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
        assert f"<@{BOB_ID}>" in replies(posted)
        await driver.click(posted.message, component_id(posted, "Cancel"))


async def test_a_challenge_refused_for_its_thread_uses_no_invitation(
    driver: InteractionDriver,
) -> None:
    """Past the threads' limit, a challenge in a thread is refused: it sends no invitation, so
    it uses none up (ten challenges without a thread still go)."""
    for _ in range(limits.THREADS.uses):
        await driver.slash("play", {"game": "mille", "thread": True}, channel_id=GENERAL_CHANNEL_ID)
    for _ in range(3):
        said = refusal(
            await driver.slash("challenge", {"game": "mille", "member": BOB_ID, "thread": True})
        )
        assert "games in threads" in said
    for _ in range(limits.INVITATIONS.uses):
        posted = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
        assert f"<@{BOB_ID}>" in replies(posted), replies(posted)
        await driver.click(posted.message, component_id(posted, "Cancel"))


async def test_a_challenge_refused_as_a_game_runs_here_uses_no_invitation(
    driver: InteractionDriver,
) -> None:
    await driver.slash("play", {"game": "mille"}, user_id=CAROL_ID)
    for _ in range(3):
        said = refusal(await driver.slash("challenge", {"game": "mille", "member": BOB_ID}))
        assert said == "A game is already running here."
    for _ in range(limits.INVITATIONS.uses):
        posted = await driver.slash(
            "challenge", {"game": "mille", "member": BOB_ID}, channel_id=GENERAL_CHANNEL_ID
        )
        assert f"<@{BOB_ID}>" in replies(posted), replies(posted)
        await driver.click(posted.message, component_id(posted, "Cancel"))


async def test_a_game_in_a_thread_with_an_unknown_option_opens_no_thread(
    driver: InteractionDriver,
) -> None:
    """Refused for its option, /play thread:true left an empty thread in the channel's list,
    and used one of the member's threads up."""
    for _ in range(limits.THREADS.uses):
        said = refusal(
            await driver.slash(
                "play",
                {"game": "mille", "thread": True, "options": "deck:nonsense"},
                channel_id=GENERAL_CHANNEL_ID,
            )
        )
        assert "deck" in said, said
    assert driver.backend.threads() == []
    started = await driver.slash(
        "play", {"game": "mille", "thread": True}, channel_id=GENERAL_CHANNEL_ID
    )
    assert "Your game is in" in replies(started)


# --- games-at-once when a member takes a seat someone else offers ----------------------------
# /play, /challenge and /host check the member starting the game; Accept, Join and Rematch seat
# a member too, and are checked the same way, before anything is stored.

FULL = f"You are playing {limits.GAMES_AT_ONCE} games on this server already"


async def test_an_accept_at_the_most_at_once_is_refused_and_the_invitation_waits(
    driver: InteractionDriver,
) -> None:
    bot = running_bot(driver)
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    invited = await driver.slash("challenge", {"game": "mille", "member": ALICE_ID}, user_id=BOB_ID)
    lobby_id = int(component_id(invited, "Accept").split(":")[2])
    before = await bot.store.get_lobby(lobby_id)
    said = refusal(await driver.click(invited, component_id(invited, "Accept")))
    assert said.startswith(FULL), said
    assert await bot.store.get_lobby(lobby_id) == before, "still open, Alice's answer pending"
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None


async def test_two_accepts_at_once_at_the_last_free_place_start_one_game(
    driver: InteractionDriver,
) -> None:
    """Alice, one game short of the limit, accepts Bob's and Carol's invitations (in two
    channels) at the same moment: one game starts, the other Accept is refused and its
    invitation still waits for her."""
    await seat_alice_in(driver, limits.GAMES_AT_ONCE - 1)
    invitations = [
        await driver.slash(
            "challenge", {"game": "mille", "member": ALICE_ID}, user_id=who, channel_id=where
        )
        for who, where in ((BOB_ID, GAMES_CHANNEL_ID), (CAROL_ID, GENERAL_CHANNEL_ID))
    ]
    answers = await asyncio.gather(
        *(driver.click(invited, component_id(invited, "Accept")) for invited in invitations)
    )
    await _one_started_one_refused(driver, answers)


async def test_an_accept_refused_at_the_most_works_once_a_game_ends(
    driver: InteractionDriver,
) -> None:
    """The refused invitation is not used up: Alice ends a game and accepts it."""
    bot = running_bot(driver)
    channels = await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    invited = await driver.slash("challenge", {"game": "mille", "member": ALICE_ID}, user_id=BOB_ID)
    refusal(await driver.click(invited, component_id(invited, "Accept")))
    await bot.tables.abort(channel_id=channels[0])
    await driver.click(invited, component_id(invited, "Accept"))
    started = await bot.store.active_game(GAMES_CHANNEL_ID)
    assert started is not None
    assert [s.user_id for s in started.seats] == [BOB_ID, ALICE_ID]


async def test_a_decline_at_the_most_at_once_is_not_refused(driver: InteractionDriver) -> None:
    """Declining takes no seat: a member at the limit may always say no."""
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    invited = await driver.slash("challenge", {"game": "mille", "member": ALICE_ID}, user_id=BOB_ID)
    declined = await driver.click(invited, component_id(invited, "Decline"))
    assert not declined.ephemeral
    assert f"<@{ALICE_ID}> (declined)" in replies(declined)


async def test_a_join_at_the_most_at_once_is_refused_and_the_seat_stays_free(
    driver: InteractionDriver,
) -> None:
    bot = running_bot(driver)
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    hosted = await driver.slash("host", {"game": "dragon", "seats": 2}, user_id=BOB_ID)
    lobby_id = int(component_id(hosted, "Join").split(":")[2])
    before = await bot.store.get_lobby(lobby_id)
    assert hosted.message is not None
    shown = shown_message(driver, hosted.message)["content"]
    said = refusal(await driver.click(hosted, component_id(hosted, "Join")))
    assert said.startswith(FULL), said
    assert await bot.store.get_lobby(lobby_id) == before, "no seat taken"
    assert shown_message(driver, hosted.message)["content"] == shown, "the table shows it free"


async def test_a_join_for_the_last_seat_at_the_most_deals_nothing(
    driver: InteractionDriver,
) -> None:
    """Refused for the last free seat, a Join starts no game: the table waits."""
    bot = running_bot(driver)
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    hosted = await driver.slash("host", {"game": "mille"}, user_id=BOB_ID)
    refusal(await driver.click(hosted, component_id(hosted, "Join")))
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None
    assert len(await bot.store.open_lobbies_of(BOB_ID, GUILD_ID, 0.0)) == 1


async def test_a_host_at_the_most_still_starts_when_the_last_seat_fills(
    driver: InteractionDriver,
) -> None:
    """Alice opened her table with room to spare and has reached the limit since: Bob's Join for
    the last seat still deals the game. Her seat was checked when she hosted; refusing now would
    turn Bob away for her games, and the table could never fill (she hosts at most
    ``OPEN_TABLES`` tables, so this bounds what she can hold)."""
    bot = running_bot(driver)
    hosted = await driver.slash("host", {"game": "mille"})
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    joined = await driver.click(hosted, component_id(hosted, "Join"), user_id=BOB_ID)
    public_table(joined)
    started = await bot.store.active_game(GAMES_CHANNEL_ID)
    assert started is not None
    assert [s.user_id for s in started.seats] == [ALICE_ID, BOB_ID]


async def finished_with(driver: InteractionDriver, other: SeatRecord) -> tuple[int, int]:
    """A Mille Bornes game of Alice's against ``other``, which Alice resigns: its id and the id
    of its final table (with the Rematch button)."""
    started = await alice_against(driver, other)
    table = public_table(await driver.slash("resign", {}))
    assert table.message_id is not None
    return started.game.id, table.message_id


async def test_a_rematch_with_the_computer_at_the_most_is_refused(
    driver: InteractionDriver,
) -> None:
    bot = running_bot(driver)
    game_id, table = await finished_with(driver, SeatRecord(1, "C", policy="random"))
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    said = refusal(await driver.click(table, f"jn:r:{game_id}"))
    assert said.startswith(FULL), said
    assert await bot.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_rematch_with_members_at_the_most_invites_nobody(
    driver: InteractionDriver,
) -> None:
    """Alice would host the rematch's invitation: refused, it is not stored and pings nobody."""
    bot = running_bot(driver)
    game_id, table = await finished_with(driver, SeatRecord(1, "Bob", user_id=BOB_ID))
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    said = refusal(await driver.click(table, f"jn:r:{game_id}"))
    assert said.startswith(FULL), said
    assert await bot.store.open_lobbies_of(BOB_ID, GUILD_ID, 0.0) == []


async def test_accepting_a_rematch_at_the_most_is_refused(driver: InteractionDriver) -> None:
    bot = running_bot(driver)
    game_id, table = await finished_with(driver, SeatRecord(1, "Bob", user_id=BOB_ID))
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    asked = await driver.click(table, f"jn:r:{game_id}", user_id=BOB_ID)
    said = refusal(await driver.click(asked, component_id(asked, "Accept")))
    assert said.startswith(FULL), said
    lobby_id = int(component_id(asked, "Accept").split(":")[2])
    lobby = await bot.store.get_lobby(lobby_id)
    assert lobby is not None and lobby.status == "open"
    assert [i.answer for i in lobby.invited] == ["pending"]


async def test_a_rematch_pressed_again_at_the_most_points_at_its_invitation(
    driver: InteractionDriver,
) -> None:
    """Alice asked for a rematch and has reached the limit since: pressing Rematch again opens
    nothing new, so she is told it is asked for already (with its link), as below the limit,
    not that she may start no other game."""
    game_id, table = await finished_with(driver, SeatRecord(1, "Bob", user_id=BOB_ID))
    await driver.click(table, f"jn:r:{game_id}")
    await seat_alice_in(driver, limits.GAMES_AT_ONCE)
    said = refusal(await driver.click(table, f"jn:r:{game_id}"))
    assert "already asked for this rematch" in said, said


async def test_a_seat_at_a_table_waiting_for_players_counts(driver: InteractionDriver) -> None:
    """A table Alice hosts may start at any moment: its seat counts towards games at once, so
    nine games and one table waiting leave no room for a tenth game (before: she could sit at
    any number of tables waiting, all to start at once)."""
    bot = running_bot(driver)
    await driver.slash("host", {"game": "mille"}, channel_id=GAMES_CHANNEL_ID)
    channels = await seat_alice_in(driver, limits.GAMES_AT_ONCE - 1)
    said = refusal(await driver.slash("play", {"game": "mille"}, channel_id=GENERAL_CHANNEL_ID))
    assert said.startswith(
        f"You are playing {limits.GAMES_AT_ONCE - 1} games and seated at 1 table waiting for "
        "players on this server already"
    ), said
    assert all(f"<#{channel}>" in said for channel in (*channels, GAMES_CHANNEL_ID)), said
    assert await bot.store.active_game(GENERAL_CHANNEL_ID) is None


async def test_a_join_past_the_seats_held_is_refused_and_a_full_table_still_starts(
    driver: InteractionDriver,
) -> None:
    """Alice at nine games joins Bob's table (her tenth seat): Carol's table then refuses her
    Join; Bob's table, filled by Carol, starts for everyone seated, Alice included."""
    bot = running_bot(driver)
    await seat_alice_in(driver, limits.GAMES_AT_ONCE - 1)
    bobs = await driver.slash(
        "host", {"game": "dragon", "seats": 2}, user_id=BOB_ID, channel_id=GAMES_CHANNEL_ID
    )
    await driver.click(bobs, component_id(bobs, "Join"))
    carols = await driver.slash(
        "host", {"game": "mille"}, user_id=CAROL_ID, channel_id=GENERAL_CHANNEL_ID
    )
    lobby_id = int(component_id(carols, "Join").split(":")[2])
    before = await bot.store.get_lobby(lobby_id)
    said = refusal(await driver.click(carols, component_id(carols, "Join")))
    assert "and seated at 1 table waiting for players" in said, said
    assert await bot.store.get_lobby(lobby_id) == before, "no seat taken"
    await driver.click(bobs, component_id(bobs, "Join"), user_id=CAROL_ID)
    started = await bot.store.active_game(GAMES_CHANNEL_ID)
    assert started is not None
    assert [s.user_id for s in started.seats] == [BOB_ID, ALICE_ID, CAROL_ID]
