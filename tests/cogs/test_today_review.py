"""A hostile review of the day's changes (typed-move reading, /move waiting behind computers,
hand buttons whose decision changed, the move log's ``late:`` marks), driven through the fake
Discord with raw interaction payloads. What every test expects: a refusal is a readable private
sentence and changes nothing, nothing public says a member's refusal, and simultaneous choices
that are legitimate still work. A test that holds a fix says, in its docstring, what the review
found before it; the others held and stay as regression tests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import cogs.moving
from bot.client import JunctionBot
from bot.games.bundle import PolicyFactory
from bot.move_log import LATE_MARK
from bot.store.base import GuildSettings, SeatRecord, StoredGame
from bot.tables import Tables
from bot.typed_moves import MAX_MOVE_TEXT
from cogs.moving import ACKNOWLEDGE_AFTER
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alice_against,
    component_id,
    held_thinking,
    is_answered,
    labels,
    public_messages,
    public_table,
    replies,
    restarted,
    select_of,
    sweep_after,
)
from tests.cogs.test_windows_review import (
    CW,
    MB,
    STAMPEDE_CW,
    THREE_MEMBERS,
    WITH_A_COMPUTER,
    _dragon,
    _stored,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver

# The three cars and their hands (MB, CW, THREE_MEMBERS, …) are test_windows_review's.

Thinker = Callable[[PolicyFactory, Any, str], Awaitable[str]]


def _public_words(driver: InteractionDriver) -> str:
    """Every public message in the fake Discord, in words."""
    return " | ".join(str(m.get("content") or "") for m in public_messages(driver))


def _private_refusal(result: InteractionResult, *words: str) -> None:
    """The interaction's words are all private, say one of ``words``, and no thinking stays."""
    said = [r for r in result.responses if r.content]
    assert said and all(r.ephemeral for r in said), replies(result)
    assert any(w in replies(result).lower() for w in words), replies(result)


# --- 2. a typed /move waiting behind thinking computers -------------------------------------


async def test_a_refusal_while_the_thinking_is_still_being_posted(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's /move waits behind the computer; after ``ACKNOWLEDGE_AFTER`` its public
    "thinking…" is on its way to Discord (an HTTP round trip) when the computer finishes and
    the move is refused. Found by this review: the placeholder was taken back before the
    acknowledgement under way had finished (nothing to delete yet), the acknowledgement then
    posted the public "thinking…", and the refusal went out as its first follow-up, to the
    whole channel."""
    bot = running_bot(driver)
    await _dragon(bot, WITH_A_COMPUTER)
    original = cogs.moving._acknowledge
    posting = asyncio.Event()

    async def slow_acknowledge(interaction: Any, from_button: bool) -> None:
        posting.set()
        await asyncio.sleep(0.3)  # Discord's round trip, stretched
        await original(interaction, from_button)

    monkeypatch.setattr(cogs.moving, "_acknowledge", slow_acknowledge)
    thinking, release = held_thinking(bot.tables)
    shot = asyncio.ensure_future(driver.slash("move", {"action": "mg-front @1"}))
    await asyncio.wait_for(thinking.wait(), 10)
    posting.clear()  # Alice's own acknowledgement is not the one this test waits for
    typed = asyncio.ensure_future(
        driver.dispatch(driver.factory.slash("move", {"action": "cw-discard all"}, user_id=BOB_ID))
    )
    await asyncio.wait_for(posting.wait(), ACKNOWLEDGE_AFTER + 5)
    release.set()
    await shot
    refused = await typed
    _private_refusal(refused, "not your turn")
    assert "not your turn" not in _public_words(driver).lower(), _public_words(driver)
    assert "is thinking" not in _public_words(driver).lower()


# --- 1. typed-move reading ----------------------------------------------------------------

HOSTILE_TYPED = [
    "\ufdfa" * 12,  # 12 letters that fold into 216: past the cap only after folding
    "p" + "\u0301" * 150 + "lay go",  # a tower of combining marks
    "pl\u200day\u200d g\u0301o\u200d",  # zero-width joiners among combining marks
    "\u202eog yalp",  # a right-to-left override: must not turn the refusal around
    "\u200b\u200d\u2060",  # folds to nothing
    '"\u200b"',  # quotes around nothing
    "\u00a7",  # the turn mark alone
    "\u00a75",  # a turn mark with no move before it
    "take \uff11",  # another game's notation, full width
    "\u2460",  # a circled one: folds into a number
    "mg-front @1\u00a7-1",  # a forged turn: negative
    "mg-front @1\u00a7\u00b2",  # a superscript two, not a decimal
    "mg-front @1\u00a7" + "9" * 9,  # a huge turn
    "mg-front @1\u00a7" + "9" * 40,  # a turn far too long to be one
    "mg-front @1\u00a7\uff19\uff19",  # a full-width turn that never was
    "mg-front @1\u00a7\u0669",  # an Arabic-Indic nine
]


@pytest.mark.parametrize("typed", HOSTILE_TYPED)
async def test_hostile_typed_moves_are_refused_privately(
    driver: InteractionDriver, typed: str
) -> None:
    """Each is refused in a readable private sentence, nothing is stored, nothing longer than
    the cap is quoted back, no control character reaches the refusal and nothing is logged."""
    bot = running_bot(driver)
    await _dragon(bot)
    before = await _stored(bot)
    refused = await driver.slash("move", {"action": typed})
    said = replies(refused)
    assert refused.ephemeral and said, said
    assert not refused.errors, refused.errors
    assert len(said) <= MAX_MOVE_TEXT + 150, len(said)
    assert not any(c in said for c in "\u202e\u2067\u2069\u200b\u200d\u2060"), said
    assert "wrong on our side" not in said, said
    assert await _stored(bot) == before


@pytest.mark.parametrize(
    "typed",
    [
        "\u2067mg-front @1\u2069\u202e",  # isolates around a move, an override after it
        "\"'mg-front @1'\"",  # quotes nested: the game's own reading takes the inner pair
        "\u201cmg-front @1",  # a quote unbalanced
    ],
)
async def test_invisible_controls_around_a_legal_move_play_it_as_notation(
    driver: InteractionDriver, typed: str
) -> None:
    """Bidi isolates around a legal move and an override after it are dropped: the move plays,
    and the log and the caption hold the engine's own notation, with no control character."""
    bot = running_bot(driver)
    await _dragon(bot)
    played = await driver.slash("move", {"action": typed})
    assert not played.ephemeral, replies(played)
    moves = await bot.store.moves((await _stored(bot)).id)
    assert moves[-1].action == "mg-front @1"
    assert not any(c in _public_words(driver) for c in "\u202e\u2067\u2069")


async def test_a_full_width_turn_mark_of_the_current_turn_plays(driver: InteractionDriver) -> None:
    """A /move value forged with the current turn in full-width digits reads as that turn: the
    move is the member's own and legal, so it plays (a forged turn grants nothing a typed move
    without one does not)."""
    bot = running_bot(driver)
    await _dragon(bot)
    version = (await _stored(bot)).version
    wide = "".join(chr(0xFF10 + int(d)) for d in str(version))
    played = await driver.slash("move", {"action": f"mg-front @1\u00a7{wide}"})
    assert not played.ephemeral, replies(played)
    assert (await _stored(bot)).version > version


async def test_autocomplete_reads_hostile_text_without_failing(driver: InteractionDriver) -> None:
    """/move's suggestions read folded text and never fail on what folds to nothing or grows."""
    bot = running_bot(driver)
    await _dragon(bot)
    for typed in ("\ufdfa" * 150, "\u200b", "\u202e", "\uff4d\uff47"):
        result = await driver.autocomplete("move", "action", typed)
        assert not result.errors, result.errors
        for choice in result.choices:
            assert len(str(choice["value"])) <= 100 and len(str(choice["name"])) <= 100
    wide = await driver.autocomplete("move", "action", "\uff4d\uff47")  # ｍｇ
    assert any("mg-front" in str(c["value"]) for c in wide.choices), wide.choices


# --- 2. more typed /moves waiting behind thinking computers ---------------------------------


async def _computer_thinking(
    driver: InteractionDriver,
) -> tuple[asyncio.Future[Any], asyncio.Event]:
    """Alice shoots the computer, which thinks about its armor until released: (her shot's
    interaction, release)."""
    bot = running_bot(driver)
    thinking, release = held_thinking(bot.tables)
    shot = asyncio.ensure_future(driver.slash("move", {"action": "mg-front @1"}))
    await asyncio.wait_for(thinking.wait(), 10)
    return shot, release


async def test_two_typed_moves_at_once_behind_the_computer(driver: InteractionDriver) -> None:
    """Alice sends two /moves at the same moment while the computer thinks (her Mille Bornes
    action, twice). Both are answered in time; one plays, the other is refused privately and
    leaves no public "thinking…"."""
    bot = running_bot(driver)
    await _dragon(bot, WITH_A_COMPUTER)
    shot, release = await _computer_thinking(driver)
    first = driver.factory.slash("move", {"action": "discard gasoline"})
    second = driver.factory.slash("move", {"action": "discard gasoline"})
    sent = [asyncio.ensure_future(driver.dispatch(p)) for p in (first, second)]
    await asyncio.sleep(ACKNOWLEDGE_AFTER + 0.3)
    in_time = [is_answered(driver, p) for p in (first, second)]
    release.set()
    await shot
    results = [await s for s in sent]
    assert all(in_time), in_time
    assert all(not r.errors for r in results), [r.errors for r in results]
    refused = [r for r in results if all(x.ephemeral for x in r.responses if x.content)]
    assert len(refused) == 1, [replies(r) for r in results]
    played = next(r for r in results if r is not refused[0])
    assert "discard" in replies(played).lower() or played.followups, replies(played)
    moves = await bot.store.moves((await _stored(bot)).id)
    assert sum(m.seat == 0 and m.action.startswith("discard") for m in moves) == 1
    assert "thinking" not in _public_words(driver).lower()


async def test_a_typed_move_and_a_hand_button_at_once(driver: InteractionDriver) -> None:
    """Alice's hand is open at her turn while the computer thinks in an earlier window of
    hers; she types 'discard gasoline' and picks her Speed Limit's target from the hand at the
    same moment. One plays; the other is refused privately; nothing public says a refusal or
    stays "thinking…"."""
    bot = running_bot(driver)
    game = await _dragon(bot, WITH_A_COMPUTER)
    shot, release = await _computer_thinking(driver)
    release.set()
    await shot
    table = public_table(await driver.slash("table", {}, user_id=BOB_ID))
    hand = await driver.click(table.message_id, f"jn:h:{game.id}")
    assert hand.message is not None
    menu = select_of(hand)
    typed = driver.factory.slash("move", {"action": "discard gasoline"})
    picked = driver.factory.component(
        hand.message, menu["custom_id"], values=[menu["options"][0]["value"]]
    )
    sent = [asyncio.ensure_future(driver.dispatch(p)) for p in (typed, picked)]
    results = [await s for s in sent]
    assert all(not r.errors for r in results), [r.errors for r in results]
    moves = await bot.store.moves(game.id)
    mine = [m for m in moves if m.seat == 0]
    assert sum(m.action.startswith(("discard", "play speed-limit")) for m in mine) == 1, mine
    for r in results:
        assert "wrong on our side" not in replies(r), replies(r)
    public = _public_words(driver).lower()
    assert "not your turn" not in public and "before the latest move" not in public, public


async def test_a_typed_move_after_the_game_ended_in_the_wait(driver: InteractionDriver) -> None:
    """Alice resigns while the computer thinks (two seats: the game ends), and her /move sent
    just after waits behind the computer: it is refused privately, with no public
    "thinking…" and no refusal in the channel."""
    bot = running_bot(driver)
    await alice_against(
        driver,
        SeatRecord(1, "Computer", policy="normal"),
        game_key="dragon",
        deck=[*MB[:12], *CW[:10]],
    )
    shot, release = await _computer_thinking(driver)
    resign = asyncio.ensure_future(driver.slash("resign", {}))
    await asyncio.sleep(0.05)
    payload = driver.factory.slash("move", {"action": "discard gasoline"})
    typed = asyncio.ensure_future(driver.dispatch(payload))
    await asyncio.sleep(ACKNOWLEDGE_AFTER + 0.3)
    in_time = is_answered(driver, payload)
    release.set()
    await shot
    await resign
    refused = await typed
    assert in_time
    assert not refused.errors, refused.errors
    said = [r for r in refused.responses if r.content]
    assert said and all(r.ephemeral for r in said), replies(refused)
    assert (await bot.store.active_game(GAMES_CHANNEL_ID)) is None
    assert "thinking" not in _public_words(driver).lower()


# --- 3. hand buttons whose decision changed under them ------------------------------------


async def test_stampede_sides_chosen_by_both_victims_at_once(driver: InteractionDriver) -> None:
    """Alice's Stampede asks Bob and Carol for a side; both press at the same moment from hands
    shown before either chose. Both choices stand (neither is 'from an earlier turn')."""
    bot = running_bot(driver)
    game = await _dragon(bot, cw=STAMPEDE_CW)
    window = public_table(await driver.slash("move", {"action": "stampede"}))
    hands = {
        who: await driver.click(window.message_id, f"jn:h:{game.id}", user_id=who)
        for who in (BOB_ID, CAROL_ID)
    }
    presses = []
    for who, hand in hands.items():
        assert hand.message is not None
        side = next(label for label in labels(hand) if label and label.startswith("Take it"))
        presses.append(
            driver.factory.component(hand.message, component_id(hand, side), user_id=who)
        )
    results = await asyncio.gather(*(driver.dispatch(p) for p in presses))
    for result in results:
        assert not result.errors, result.errors
        assert "before the latest move" not in replies(result), replies(result)
    here = bot.tables.position(await _stored(bot))
    assert 1 not in here.acting and 2 not in here.acting, "both sides were taken"
    moves = await bot.store.moves(game.id)
    assert {m.seat for m in moves[-2:]} == {1, 2}


async def _ttr_of_three(driver: InteractionDriver) -> StoredGame:
    """Ticket to Ride at the games channel, the three members seated (seed 7): it opens with
    each of them choosing tickets to keep."""
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=THREE_MEMBERS,
        seed=7,
    )
    return update.game


async def _all_three_keep(
    driver: InteractionDriver, game: StoredGame, keeps: list[dict[str, Any]]
) -> None:
    """The three members' opening keeps, sent at the same moment: each stands, once, and none
    is refused as from an earlier turn."""
    results = await asyncio.gather(*(driver.dispatch(keep) for keep in keeps))
    for result in results:
        assert not result.errors, result.errors
        assert "before the latest move" not in replies(result), replies(result)
    moves = await running_bot(driver).store.moves(game.id)
    assert sorted(m.seat for m in moves) == [0, 1, 2], moves


async def test_ttr_three_members_keep_their_opening_tickets_at_once(
    driver: InteractionDriver,
) -> None:
    """Three members open their hands at the opening and keep tickets at the same moment, each
    from a hand shown before anyone chose: all three keeps stand, each once."""
    bot = running_bot(driver)
    game = await _ttr_of_three(driver)
    table = public_table(await driver.slash("table", {}))
    who_all = (ALICE_ID, BOB_ID, CAROL_ID)
    hands = [
        await driver.click(table.message_id, f"jn:h:{game.id}", user_id=who) for who in who_all
    ]
    presses = []
    for who, hand in zip(who_all, hands, strict=True):
        assert hand.message is not None
        menu = select_of(hand)
        presses.append(
            driver.factory.component(
                hand.message,
                menu["custom_id"],
                values=[menu["options"][0]["value"]],
                user_id=who,
            )
        )
    await _all_three_keep(driver, game, presses)
    # The same presses again (a double click each): refused, nothing more stored.
    again = await asyncio.gather(
        *(driver.dispatch({**p, "id": str(int(p["id"]) + 7)}) for p in presses)
    )
    assert all(r.ephemeral for r in again), [replies(r) for r in again]
    assert len(await bot.store.moves(game.id)) == 3


async def test_a_victim_pressing_both_sides_at_once_takes_one(driver: InteractionDriver) -> None:
    """Bob presses two different sides of the Stampede at the same moment (both from the hand
    shown before): one is taken, the other refused privately; Carol still chooses after."""
    bot = running_bot(driver)
    game = await _dragon(bot, cw=STAMPEDE_CW)
    window = public_table(await driver.slash("move", {"action": "stampede"}))
    bobs = await driver.click(window.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    assert bobs.message is not None
    sides = [label for label in labels(bobs) if label and label.startswith("Take it")][:2]
    assert len(sides) == 2, labels(bobs)
    presses = [
        driver.factory.component(bobs.message, component_id(bobs, side), user_id=BOB_ID)
        for side in sides
    ]
    results = await asyncio.gather(*(driver.dispatch(p) for p in presses))
    refused = [r for r in results if "before the latest move" in replies(r)]
    assert len(refused) == 1, [replies(r) for r in results]
    assert all(f.ephemeral for f in refused[0].responses if f.content), replies(refused[0])
    moves = await bot.store.moves(game.id)
    assert sum(m.seat == 1 for m in moves) == 1, moves
    assert 2 in bot.tables.position(await _stored(bot)).acting, "Carol still chooses"


# --- 4. the move log's late: marks ----------------------------------------------------------


def _shoot_first(bot: JunctionBot) -> None:
    """The computer playing a late turn fires the machine gun at Bob first."""
    original: Thinker = bot.tables.thinker

    async def shoot_first(factory: PolicyFactory, view: Any, seed: str) -> str:
        if "mg-front @1" in view.legal:
            return "mg-front @1"
        return await original(factory, view, seed)

    bot.tables.thinker = shoot_first


async def test_a_restart_in_a_window_of_a_late_turn(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice's turn runs out; the computer, playing it, shoots Bob, whose window opens. The bot
    restarts. Bob then plays his Armor in the new process: the rest of Alice's turn is due at
    once there too (the lateness is read from the move log, not from the old process's
    memory), and the next sweep plays it."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer", 15))
    game = await _dragon(bot)
    _shoot_first(bot)
    await sweep_after(driver, 61)
    assert bot.tables.position(await _stored(bot)).acting == [1], "Bob's window is open"
    moves = await bot.store.moves(game.id)
    assert (moves[-1].interaction_id or "").startswith(LATE_MARK)
    table = public_table(await driver.slash("table", {}, user_id=CAROL_ID))
    bobs = await driver.click(table.message_id, f"jn:h:{game.id}", user_id=BOB_ID)
    async with restarted(driver, tmp_path) as again:
        fresh = running_bot(again)
        pressed = await again.click(bobs.message, component_id(bobs, "Armor"), user_id=BOB_ID)
        assert "Bob plays Armor" in replies(pressed), replies(pressed)
        resumed = await _stored(fresh)
        assert fresh.tables.position(resumed).acting == [0]
        assert resumed.remind_at is None and resumed.turn_deadline is not None
        assert resumed.turn_deadline <= fresh.tables.clock(), "her late turn is still due"
        await sweep_after(again, 1)
        assert 0 not in fresh.tables.position(await _stored(fresh)).acting, "the rest was played"


async def test_a_late_turn_played_by_two_processes_at_once(driver: InteractionDriver) -> None:
    """Two processes on one database (a rolling restart, or two shards both timing a game
    for a moment) both play Alice's late turn from the same position. The one that stores
    second finds its move's late: mark taken; it must step back quietly, as it does when only
    the version moved. Found by this review: the late: mark made the loser's store refusal a
    duplicate interaction (which wins over a stale version), which nothing caught, so the
    timer of the game failed with a logged traceback."""
    bot = running_bot(driver)
    await bot.store.set_guild_settings(GuildSettings(GUILD_ID, 60, "computer", 15))
    game = await _dragon(bot)
    later = bot.tables.clock() + 61
    first = Tables(bot.store, clock=lambda: later)
    second = Tables(bot.store, clock=lambda: later)
    first.thinker = second.thinker = bot.tables.thinker
    thinking, release = held_thinking(first)
    slow = asyncio.ensure_future(first.wake(game.id))
    await asyncio.wait_for(thinking.wait(), 10)
    done = await second.wake(game.id)
    assert done is not None, "the second process played the late turn"
    after = await bot.store.get_game(game.id)
    release.set()
    await slow  # must not raise
    assert await bot.store.get_game(game.id) == after, "nothing was played twice"


async def _suggested(driver: InteractionDriver, user_id: int, word: str) -> str:
    """The first /move suggestion for ``user_id`` containing ``word`` (with its turn mark)."""
    result = await driver.autocomplete("move", "action", word, user_id=user_id)
    values = [str(c["value"]) for c in result.choices if word in str(c["value"])]
    assert values, result.choices
    return values[0]


async def test_ttr_opening_tickets_typed_from_suggestions_at_once(
    driver: InteractionDriver,
) -> None:
    """Three members pick their opening keep from /move's suggestions (each value marked with
    the opening's turn) and send at the same moment: all three keeps stand. Found by this
    review (with the hand buttons' case): the turn was checked once before waiting for the
    channel, so the second and third were refused as from an earlier turn."""
    game = await _ttr_of_three(driver)
    who_all = (ALICE_ID, BOB_ID, CAROL_ID)
    values = [await _suggested(driver, who, "keep") for who in who_all]
    payloads = [
        driver.factory.slash("move", {"action": value}, user_id=who)
        for who, value in zip(who_all, values, strict=True)
    ]
    await _all_three_keep(driver, game, payloads)


async def test_a_suggestion_from_a_window_its_attacker_closed_by_leaving(
    driver: InteractionDriver,
) -> None:
    """Bob's Armor is suggested in his window; Alice (the attacker) resigns, which closes it
    and may hand Bob his own turn. The old suggestion is refused as from an earlier turn and
    changes nothing."""
    bot = running_bot(driver)
    await _dragon(bot)
    await driver.slash("move", {"action": "mg-front @1"})
    armor = await _suggested(driver, BOB_ID, "armor")
    await driver.slash("resign", {})
    before = await _stored(bot)
    late = await driver.slash("move", {"action": armor}, user_id=BOB_ID)
    assert late.ephemeral and "before the latest move" in replies(late), replies(late)
    assert await _stored(bot) == before
