"""Open tables: /host posts a table any member may Join (cogs/new_game.py, cogs/lobby.py).

Each test drives the real cogs through the fake Discord. An open table is a lobby like
/challenge's, offering seats (``LobbyRecord.open_seats``) instead of naming its members: the
members who joined are its invited, each accepted. A refusal is a sentence only to the
presser, and the stored lobby is left exactly as it was.
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest

import cogs.lobby as lobby_cog
from bot.forget import FORMER, forget_member
from bot.store.base import Invitee, LobbyRecord
from cogs.mygames import NOTHING
from cogs.ui import LINK_BREAK
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    answered_before,
    component_id,
    labels,
    lobby_later,
    public_table,
    replies,
    restarted,
    stacked_mille,
    stored_lobby,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    BOT_USER_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    JSON,
    PLAYERS_ROLE_ID,
    InteractionResult,
    member_payload,
    user_payload,
)
from tests.discord.payloads import InteractionDriver

DAVE_ID = CAROL_ID + 1
ERIN_ID = CAROL_ID + 2


async def _never(*_: Any) -> Any:
    await asyncio.Event().wait()


def _more_members(driver: InteractionDriver) -> None:
    """Dave and Erin, two members more than the fake's default three."""
    world = driver.backend.world
    for user_id, name in ((DAVE_ID, "dave"), (ERIN_ID, "erin")):
        world.members.append(member_payload(user_payload(user_id, name), roles=[PLAYERS_ROLE_ID]))


async def _host(driver: InteractionDriver, **options: object) -> tuple[JSON, int]:
    """Alice hosts a table with ``options``: its message (as first posted) and lobby id."""
    result = await driver.slash("host", options)
    assert not result.ephemeral, replies(result)
    assert result.message is not None
    join = component_id(result, "Join")
    return result.message, int(join.split(":")[2])


def _shown(driver: InteractionDriver, message: JSON) -> str:
    """The table's message as it stands now."""
    return str(driver.backend.messages[int(message["id"])]["content"])


async def _press(
    driver: InteractionDriver, message: JSON, lobby_id: int, verb: str, user_id: int
) -> InteractionResult:
    return await driver.click(message, f"jn:l:{lobby_id}:{verb}", user_id=user_id)


async def _refused(
    driver: InteractionDriver, message: JSON, lobby_id: int, verb: str, user_id: int
) -> str:
    """Press a button (forged: the client may still show it) that must be refused: the
    sentence, checked to go to the presser only and to change neither the lobby nor its
    message."""
    before = await stored_lobby(driver, lobby_id)
    shown = _shown(driver, message)
    pressed = await driver.forge(message, f"jn:l:{lobby_id}:{verb}", user_id=user_id)
    assert pressed.ephemeral, replies(pressed)
    assert await stored_lobby(driver, lobby_id) == before
    assert _shown(driver, message) == shown
    return replies(pressed)


async def test_host_posts_a_table_with_join_leave_start_and_cancel(
    driver: InteractionDriver,
) -> None:
    """/host dragon offers the five seats beside the host, pings nobody, and its buttons
    carry only the lobby's id and a verb."""
    result = await driver.slash("host", {"game": "dragon"})
    assert not result.ephemeral
    posted = result.responses[0]
    assert labels(posted) == ["Join", "Leave", "Start", "Cancel"]
    lobby_id = int(component_id(result, "Join").split(":")[2])
    assert posted.custom_ids == [f"jn:l:{lobby_id}:{verb}" for verb in "jlsc"]
    text = result.content or ""
    assert text.startswith(f"**Dragon Mille Bornes** — <@{ALICE_ID}> hosts an open table.")
    assert f"Seats: 1. <@{ALICE_ID}> · 2. free · 3. free · 4. free · 5. free · 6. free" in text
    assert "5 seats free: press Join to take one." in text
    assert posted.data["allowed_mentions"].get("users") in (None, [])
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.open_seats, lobby.invited, lobby.computers) == (5, (), 0)


async def test_seats_default_to_what_the_computers_leave(driver: InteractionDriver) -> None:
    """With two computers a Dragon table offers three seats; ``seats`` offers fewer."""
    _, default = await _host(driver, game="dragon", computers=2, level="random")
    assert (await stored_lobby(driver, default)).open_seats == 3
    message, chosen = await _host(driver, game="ttr", seats=2)
    assert (await stored_lobby(driver, chosen)).open_seats == 2
    assert f"Seats: 1. <@{ALICE_ID}> · 2. free · 3. free\n" in _shown(driver, message)


async def test_a_join_takes_a_free_seat(driver: InteractionDriver) -> None:
    """Bob joins: he is seated second, the message shows it with one seat fewer free."""
    message, lobby_id = await _host(driver, game="dragon", seats=3)
    joined = await _press(driver, message, lobby_id, "j", BOB_ID)
    assert not joined.ephemeral
    assert (await stored_lobby(driver, lobby_id)).invited == (Invitee(BOB_ID, "bob", "accepted"),)
    text = _shown(driver, message)
    assert f"Seats: 1. <@{ALICE_ID}> · 2. <@{BOB_ID}> · 3. free · 4. free" in text
    assert "2 seats free" in text


async def test_leave_frees_the_seat_and_the_member_may_join_again(
    driver: InteractionDriver,
) -> None:
    """Bob joins, leaves (the seat is free again, the message says he left), and joins again."""
    message, lobby_id = await _host(driver, game="dragon", seats=2)
    await _press(driver, message, lobby_id, "j", BOB_ID)
    left = await _press(driver, message, lobby_id, "l", BOB_ID)
    assert not left.ephemeral and "bob left." in _shown(driver, message)
    assert (await stored_lobby(driver, lobby_id)).invited == ()
    assert "2 seats free" in _shown(driver, message)
    await _press(driver, message, lobby_id, "j", BOB_ID)
    assert [i.user_id for i in (await stored_lobby(driver, lobby_id)).invited] == [BOB_ID]


async def test_the_last_free_seat_taken_starts_the_game(driver: InteractionDriver) -> None:
    """A two-player game hosted offers one seat: Bob's Join deals the game at once."""
    message, lobby_id = await _host(driver, game="mille")
    started = await _press(driver, message, lobby_id, "j", BOB_ID)
    public_table(started)
    assert "The game is on" in _shown(driver, message)
    assert not driver.backend.messages[int(message["id"])].get("components")
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID]
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.status, lobby.game_id) == ("started", game.id)


async def test_the_host_starts_early_and_free_seats_are_dropped(
    driver: InteractionDriver,
) -> None:
    """Asked for no computers, a Dragon table of five seats started with Bob alone seated is
    a game of two: the free seats are dropped."""
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    started = await _press(driver, message, lobby_id, "s", ALICE_ID)
    public_table(started)
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID]
    # The message shows the seats as dealt, not the free ones it was started with.
    text = _shown(driver, message)
    assert f"Seats: 1. <@{ALICE_ID}> · 2. <@{BOB_ID}>\n" in text and "free" not in text


async def test_a_six_seat_dragon_table_gathered_from_joins(driver: InteractionDriver) -> None:
    """Alice hosts Dragon with one computer (four seats offered); Bob, Carol and Dave join and
    Alice starts: the members sit in the order they joined, and computers take the free seat
    and the one she asked for — six cars."""
    _more_members(driver)
    message, lobby_id = await _host(driver, game="dragon", computers=1, level="random")
    for member in (BOB_ID, CAROL_ID, DAVE_ID):
        await _press(driver, message, lobby_id, "j", member)
    text = _shown(driver, message)
    assert (
        f"1. <@{ALICE_ID}> · 2. <@{BOB_ID}> · 3. <@{CAROL_ID}> · 4. <@{DAVE_ID}> · 5. free · "
        "6. computer" in text
    )
    assert "computers take the free seats" in text
    public_table(await _press(driver, message, lobby_id, "s", ALICE_ID))
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID, CAROL_ID, DAVE_ID, None, None]
    assert [s.policy for s in game.seats[4:]] == ["random", "random"]
    text = _shown(driver, message)
    assert "5. computer (random) · 6. computer (random)" in text and "free" not in text


async def test_a_table_asked_in_a_thread_is_played_in_one(driver: InteractionDriver) -> None:
    """/host with ``thread``: the full table's game is dealt in a thread of its own under the
    table's message, which says where."""
    message, lobby_id = await _host(driver, game="mille", thread=True)
    await _press(driver, message, lobby_id, "j", BOB_ID)
    [game] = await running_bot(driver).tables.store.active_games()
    assert game.channel_id != GAMES_CHANNEL_ID
    assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID]
    assert f"The game is on in <#{game.channel_id}>!" in _shown(driver, message)


async def test_start_with_too_few_players_is_refused(driver: InteractionDriver) -> None:
    """The host alone at a table cannot start it: Ticket to Ride needs two players."""
    message, lobby_id = await _host(driver, game="ttr")
    said = await _refused(driver, message, lobby_id, "s", ALICE_ID)
    assert said == (
        "The game needs at least 2 players (computers count), and 1 is seated: wait for more "
        "to join, or Cancel."
    )
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_computer_counts_towards_the_start(driver: InteractionDriver) -> None:
    """With a computer asked for, the host may start alone: her and the computer, the free
    seats filled with computers too."""
    message, lobby_id = await _host(driver, game="ttr", seats=1, computers=1, level="random")
    public_table(await _press(driver, message, lobby_id, "s", ALICE_ID))
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in game.seats] == [ALICE_ID, None, None]


async def test_cancel_closes_the_table(driver: InteractionDriver) -> None:
    """The host's Cancel closes the table, buttons gone; a Join afterwards says so."""
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    await _press(driver, message, lobby_id, "c", ALICE_ID)
    assert "🛑 Cancelled." in _shown(driver, message)
    assert not driver.backend.messages[int(message["id"])].get("components")
    assert (await stored_lobby(driver, lobby_id)).status == "cancelled"
    late = await _refused(driver, message, lobby_id, "j", CAROL_ID)
    assert late == "That table was cancelled."


# -- hostile presses: a sentence only to the presser, nothing changed -----------------------------


@pytest.mark.parametrize("verb", ["s", "c"])
async def test_someone_elses_start_or_cancel_is_refused(
    driver: InteractionDriver, verb: str
) -> None:
    """Bob, seated, presses the host's Start or Cancel."""
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    said = await _refused(driver, message, lobby_id, verb, BOB_ID)
    assert said == "Only the member who hosts this table can do that."


async def test_a_second_join_is_refused(driver: InteractionDriver) -> None:
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    said = await _refused(driver, message, lobby_id, "j", BOB_ID)
    assert said == "You already have a seat at this table."


@pytest.mark.parametrize(
    ("verb", "user_id", "sentence"),
    [
        ("j", ALICE_ID, "You host this table: your seat is yours."),
        ("l", ALICE_ID, "You host this table: press Cancel to close it."),
        ("j", BOT_USER_ID, "Bots cannot take a seat; the host may add computers instead."),
        ("l", CAROL_ID, "You have no seat at this table."),
    ],
)
async def test_the_host_a_bot_or_a_stranger_is_refused(
    driver: InteractionDriver, verb: str, user_id: int, sentence: str
) -> None:
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    assert await _refused(driver, message, lobby_id, verb, user_id) == sentence


@pytest.mark.parametrize("verb", ["a", "d"])
async def test_an_invitations_verb_forged_on_a_table_is_refused(
    driver: InteractionDriver, verb: str
) -> None:
    """Accept and Decline belong to invitations naming their members, not to open tables."""
    message, lobby_id = await _host(driver, game="dragon")
    said = await _refused(driver, message, lobby_id, verb, BOB_ID)
    assert said == "That button does not belong to this table."


async def test_a_tables_verb_forged_on_an_invitation_is_refused(
    driver: InteractionDriver,
) -> None:
    """Join pressed on a /challenge: the invitation is for the members it names."""
    result = await driver.slash("challenge", {"game": "dragon", "member": BOB_ID})
    assert result.message is not None
    lobby_id = int(component_id(result, "Accept").split(":")[2])
    said = await _refused(driver, result.message, lobby_id, "j", CAROL_ID)
    assert said == "That button does not belong to this invitation."


async def test_forged_lobby_ids_are_refused(driver: InteractionDriver) -> None:
    """A Join naming another lobby (a /challenge posted elsewhere) under the table's message,
    an unknown lobby, and an unknown verb: each one sentence, nothing changed."""
    message, lobby_id = await _host(driver, game="dragon")
    other = await driver.slash(
        "challenge", {"game": "dragon", "member": BOB_ID}, channel_id=GENERAL_CHANNEL_ID
    )
    other_id = int(component_id(other, "Accept").split(":")[2])
    before = await stored_lobby(driver, lobby_id)
    elsewhere = await driver.forge(message, f"jn:l:{other_id}:j", user_id=CAROL_ID)
    assert elsewhere.ephemeral and replies(elsewhere) == (
        "That button is not on its invitation: answer the invitation itself."
    )
    unknown = await driver.forge(message, f"jn:l:{lobby_id + 99}:j", user_id=CAROL_ID)
    assert unknown.ephemeral and replies(unknown) == "That table does not exist."
    answer = await driver.forge(message, f"jn:l:{lobby_id + 99}:a", user_id=CAROL_ID)
    assert answer.ephemeral and replies(answer) == "That invitation does not exist."
    verb = await driver.forge(message, f"jn:l:{lobby_id}:x", user_id=CAROL_ID)
    assert verb.ephemeral and 0 < len(replies(verb)) < 300
    assert await stored_lobby(driver, lobby_id) == before
    assert (await stored_lobby(driver, other_id)).invited == (Invitee(BOB_ID, "bob"),)


async def test_a_join_after_the_start_is_refused(driver: InteractionDriver) -> None:
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    await _press(driver, message, lobby_id, "s", ALICE_ID)
    said = await _refused(driver, message, lobby_id, "j", CAROL_ID)
    assert said == "That table has already started."
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert CAROL_ID not in [s.user_id for s in game.seats]


async def test_a_join_after_the_table_expired_seats_nobody(driver: InteractionDriver) -> None:
    """The first press after the table's time closes it, as /challenge's invitation does (the
    message says so, its buttons go), seating nobody; a press afterwards is told so only."""
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    lobby_later(10_000)
    late = await _press(driver, message, lobby_id, "j", CAROL_ID)
    assert "⌛ This table has expired." in replies(late)
    assert not driver.backend.messages[int(message["id"])].get("components")
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.status, [i.user_id for i in lobby.invited]) == ("expired", [BOB_ID])
    said = await _refused(driver, message, lobby_id, "j", CAROL_ID)
    assert said == "That table has expired."
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_full_table_is_refused(driver: InteractionDriver) -> None:
    """Bob takes the one seat while a game runs in the channel: the start is refused and the
    table stays open with Bob seated. Carol's Join is told it is full."""
    message, lobby_id = await _host(driver, game="mille")
    await stacked_mille(driver)
    busy = await _press(driver, message, lobby_id, "j", BOB_ID)
    assert busy.ephemeral and "already running" in replies(busy)
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.status, lobby.free_seats) == ("open", 0)
    said = await _refused(driver, message, lobby_id, "j", CAROL_ID)
    assert said == "This table is full."


async def test_a_last_seat_that_cannot_start_is_shown_taken(driver: InteractionDriver) -> None:
    """A game was started in the channel (/play) while the table waited: Bob takes its last
    seat, the start is refused to him, and he stays seated — so the table's message shows him
    in the seat and no seat free (it kept offering the seat he holds)."""
    message, lobby_id = await _host(driver, game="mille")
    await stacked_mille(driver)
    busy = await _press(driver, message, lobby_id, "j", BOB_ID)
    assert busy.ephemeral and "already running" in replies(busy)
    text = _shown(driver, message)
    assert f"Seats: 1. <@{ALICE_ID}> · 2. <@{BOB_ID}>\n" in text
    assert "No seat is free." in text and "press Join" not in text
    assert labels(driver.backend.messages[int(message["id"])]) == [
        "Join",
        "Leave",
        "Start",
        "Cancel",
    ]


async def test_a_last_seat_that_cannot_start_under_a_lost_message_still_says_why(
    driver: InteractionDriver,
) -> None:
    """As above, but the table's message cannot be edited any more (a moderator deleted it as
    the press arrived): Bob is still told why the game did not start, not that something
    went wrong."""
    message, lobby_id = await _host(driver, game="mille")
    await stacked_mille(driver)
    del driver.backend.messages[int(message["id"])]
    busy = await _press(driver, message, lobby_id, "j", BOB_ID)
    assert busy.ephemeral and "already running" in replies(busy)


@pytest.mark.parametrize("verb", ["a", "d"])
async def test_an_invitations_verb_forged_on_an_expired_table_changes_nothing(
    driver: InteractionDriver, verb: str
) -> None:
    """A forged Accept or Decline on a table past its time is refused like any forged verb: it
    does not close the table on the presser's behalf (the message and the lobby stay)."""
    message, lobby_id = await _host(driver, game="dragon")
    lobby_later(10_000)
    said = await _refused(driver, message, lobby_id, verb, BOB_ID)
    assert said == "That button does not belong to this table."


async def test_two_joins_at_once_take_the_last_seat_once(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob and Carol press Join on the one seat at the same moment (both read the table before
    either is stored): one game starts, with one of them; the other is told, only to them."""
    message, lobby_id = await _host(driver, game="mille")
    store = running_bot(driver).tables.store
    read = store.get_lobby
    waiting: list[asyncio.Event] = []

    async def both_read(wanted: int) -> LobbyRecord | None:
        found = await read(wanted)
        arrived = asyncio.Event()
        waiting.append(arrived)
        if len(waiting) == 2:
            for event in waiting:
                event.set()
        await asyncio.wait_for(arrived.wait(), 5)
        return found

    monkeypatch.setattr(store, "get_lobby", both_read)
    payloads = [
        driver.factory.component(message, f"jn:l:{lobby_id}:j", user_id=user)
        for user in (BOB_ID, CAROL_ID)
    ]
    results = await asyncio.gather(*(driver.dispatch(p) for p in payloads))
    monkeypatch.undo()
    [refused] = [r for r in results if r.ephemeral]
    assert replies(refused) == "Someone pressed at the same moment; press again."
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert game.seats[0].user_id == ALICE_ID and len(game.seats) == 2
    winner = game.seats[1].user_id
    assert winner in (BOB_ID, CAROL_ID) and not any(r.ephemeral for r in results if r != refused)
    lobby = await stored_lobby(driver, lobby_id)
    assert [i.user_id for i in lobby.invited] == [winner]
    assert len(await store.active_games()) == 1


async def _join_held_before_its_start(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch, message: JSON, lobby_id: int
) -> tuple[asyncio.Future[InteractionResult], asyncio.Event]:
    """Bob's Join for the last seat, stored but held just before it starts the game (the
    next start_lobby runs unheld); the pending press and the event that lets it go on."""
    start = lobby_cog.start_lobby
    held, go = asyncio.Event(), asyncio.Event()

    async def hold_the_first(interaction: Any, lobby: LobbyRecord) -> None:
        if not held.is_set():
            held.set()
            await go.wait()
        await start(interaction, lobby)

    monkeypatch.setattr(lobby_cog, "start_lobby", hold_the_first)
    pending = asyncio.ensure_future(_press(driver, message, lobby_id, "j", BOB_ID))
    await asyncio.wait_for(held.wait(), 5)
    return pending, go


async def test_a_start_between_the_last_join_and_its_start_tells_the_joiner_he_plays(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob takes the last seat of a Ticket to Ride table and, before his press deals, Alice
    presses Start: her Start deals the three of them. Bob is told he is in the game, not to
    press again (which would say the table has started)."""
    message, lobby_id = await _host(driver, game="ttr", seats=2)
    await _press(driver, message, lobby_id, "j", CAROL_ID)
    pending, go = await _join_held_before_its_start(driver, monkeypatch, message, lobby_id)
    public_table(await _press(driver, message, lobby_id, "s", ALICE_ID))
    go.set()
    joined = await pending
    assert joined.ephemeral
    assert replies(joined) == "The game has started, and you are in it."
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in game.seats] == [ALICE_ID, CAROL_ID, BOB_ID]
    assert len(await running_bot(driver).tables.store.active_games()) == 1


async def test_a_cancel_between_the_last_join_and_its_start_tells_the_joiner(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, but Alice presses Cancel: Bob is told the table was cancelled, not to press
    again; the message stays cancelled and no game starts."""
    message, lobby_id = await _host(driver, game="mille")
    pending, go = await _join_held_before_its_start(driver, monkeypatch, message, lobby_id)
    await _press(driver, message, lobby_id, "c", ALICE_ID)
    go.set()
    joined = await pending
    assert joined.ephemeral and replies(joined) == "That table was cancelled."
    assert "🛑 Cancelled." in _shown(driver, message)
    assert not driver.backend.messages[int(message["id"])].get("components")
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_leave_between_the_last_join_and_its_start_tells_the_joiner_his_seat(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob takes the last seat of a Ticket to Ride table and, before his press deals, Carol
    presses Leave: no game starts, and Bob is told the seat he holds and that the table waits
    again, not to press again (a Join again would be refused: he is seated). Dave's Join then
    starts the game once, with Bob in it."""
    _more_members(driver)
    message, lobby_id = await _host(driver, game="ttr", seats=2)
    await _press(driver, message, lobby_id, "j", CAROL_ID)
    pending, go = await _join_held_before_its_start(driver, monkeypatch, message, lobby_id)
    left = await _press(driver, message, lobby_id, "l", CAROL_ID)
    assert not left.ephemeral, replies(left)
    go.set()
    joined = await pending
    assert joined.ephemeral
    assert replies(joined) == (
        "You have seat 2. Someone left as you joined, so the table waits for 1 more player."
    )
    store = running_bot(driver).tables.store
    assert await store.active_game(GAMES_CHANNEL_ID) is None
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.status, [i.user_id for i in lobby.invited]) == ("open", [BOB_ID])
    assert f"Seats: 1. <@{ALICE_ID}> · 2. <@{BOB_ID}> · 3. free\n" in _shown(driver, message)
    public_table(await _press(driver, message, lobby_id, "j", DAVE_ID))
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID, DAVE_ID]
    assert len(await store.active_games()) == 1


async def test_the_joiner_whose_start_failed_is_answered_before_the_table_is_redrawn(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above: Bob's press is answered (his seat, the table waiting again) before the
    table's message is redrawn through the channel, which a rate limit may hold past
    Discord's three seconds for the answer. Found by a review: the redraw came first."""
    _more_members(driver)
    message, lobby_id = await _host(driver, game="ttr", seats=2)
    await _press(driver, message, lobby_id, "j", CAROL_ID)
    pending, go = await _join_held_before_its_start(driver, monkeypatch, message, lobby_id)
    await _press(driver, message, lobby_id, "l", CAROL_ID)
    since = len(driver.requests)
    go.set()
    joined = await pending
    assert replies(joined).startswith("You have seat 2.")
    edits = rf"/channels/\d+/messages/{message['id']}"
    assert answered_before(driver, since, "PATCH", edits) == ["answer", "call"]
    assert f"2. <@{BOB_ID}> · 3. free\n" in _shown(driver, message)


async def test_the_joiners_own_leave_before_the_start_is_told_so(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's Join for the last seat is held before its start, and his own Leave (another
    device) lands first: he is told he has no seat now, not to press again."""
    message, lobby_id = await _host(driver, game="mille")
    pending, go = await _join_held_before_its_start(driver, monkeypatch, message, lobby_id)
    assert not (await _press(driver, message, lobby_id, "l", BOB_ID)).ephemeral
    go.set()
    joined = await pending
    assert joined.ephemeral
    assert replies(joined) == "You left this table as you joined: you have no seat now."
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.status, lobby.invited) == ("open", ())
    assert await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID) is None


async def test_a_restart_between_joins_loses_nothing(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Bob joins; the bot restarts on the same database; Carol presses Join on the message
    posted before the restart, then Alice starts: all three are dealt in."""
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    async with restarted(driver, tmp_path) as again:
        joined = await again.click(message, f"jn:l:{lobby_id}:j", user_id=CAROL_ID)
        assert not joined.ephemeral
        assert f"2. <@{BOB_ID}> · 3. <@{CAROL_ID}> · 4. free" in _shown(again, message)
        public_table(await again.click(message, f"jn:l:{lobby_id}:s", user_id=ALICE_ID))
        game = await running_bot(again).tables.current(GAMES_CHANNEL_ID)
        assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID, CAROL_ID]


async def test_a_table_whose_message_was_never_stored_still_answers(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """The bot is killed after posting the table, before storing which message it is. After
    the restart, a Join forged under another of the bot's messages (a /challenge) is refused
    and leaves it as it was; under the table itself it seats Bob, and the message is
    remembered from then on."""

    running_bot(driver).tables.store.set_lobby_message = lambda *_: _never()  # type: ignore[method-assign]
    driver.timeout = 1.0
    with pytest.raises(TimeoutError):
        await driver.slash("host", {"game": "dragon"})
    [posted] = [
        m for m in driver.backend.messages.values() if "hosts an open table" in m["content"]
    ]
    message = copy.deepcopy(posted)
    async with restarted(driver, tmp_path) as again:
        invitation = await again.slash("challenge", {"game": "dragon", "member": CAROL_ID})
        assert invitation.message is not None
        lobby_id = int(component_id(message, "Join").split(":")[2])
        assert (await stored_lobby(again, lobby_id)).message_id is None
        shown = _shown(again, invitation.message)
        forged = await again.forge(invitation.message, f"jn:l:{lobby_id}:j", user_id=BOB_ID)
        assert forged.ephemeral and replies(forged) == (
            "That button is not on its table: use the table's own buttons."
        )
        assert _shown(again, invitation.message) == shown
        assert (await stored_lobby(again, lobby_id)).invited == ()
        joined = await again.click(message, f"jn:l:{lobby_id}:j", user_id=BOB_ID)
        assert not joined.ephemeral
        lobby = await stored_lobby(again, lobby_id)
        assert lobby.message_id == int(message["id"])
        assert [i.user_id for i in lobby.invited] == [BOB_ID]


async def test_forgetting_a_seated_member_frees_their_seat_only(driver: InteractionDriver) -> None:
    """``junction forget-member`` for Bob, seated at Alice's open table beside Carol: Bob's
    seat is freed and the table stays open for the others (it was deleted, leaving its message
    with buttons that answered only "does not exist"). Alice's Start deals her and Carol."""
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    await _press(driver, message, lobby_id, "j", CAROL_ID)
    done = await forget_member(running_bot(driver).tables.store, BOB_ID)
    assert (done.lobbies, done.seats) == (0, 1)
    lobby = await stored_lobby(driver, lobby_id)
    assert (lobby.status, [i.user_id for i in lobby.invited]) == ("open", [CAROL_ID])
    public_table(await _press(driver, message, lobby_id, "s", ALICE_ID))
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.user_id for s in game.seats] == [ALICE_ID, CAROL_ID]


async def test_forgetting_the_host_closes_the_open_table(driver: InteractionDriver) -> None:
    """The host forgotten: their table goes, as an invitation they sent does. The newest lobby
    is kept for its id (a new one must not take it), closed, with a former player hosting, and
    a press on its message is told so."""
    message, lobby_id = await _host(driver, game="dragon")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    done = await forget_member(running_bot(driver).tables.store, ALICE_ID)
    assert (done.lobbies, done.seats, done.kept) == (0, 0, 1)
    kept = await stored_lobby(driver, lobby_id)
    assert kept.status == "cancelled"
    assert (kept.host_id != ALICE_ID, kept.host_name) == (True, FORMER)
    pressed = await _press(driver, message, lobby_id, "j", CAROL_ID)
    assert pressed.ephemeral and replies(pressed) == "That table was cancelled."
    # Its message closed too, under the former player's name: no mention of an id that is
    # no Discord account's.
    shown = str(_shown(driver, message))
    assert f"{FORMER} hosts an open table" in shown and "<@-" not in shown


async def test_mygames_with_nothing_in_play_names_host(driver: InteractionDriver) -> None:
    """/mygames with no game in play says how to start one: /host too, as /help does."""
    result = await driver.slash("mygames", {}, user_id=BOB_ID)
    assert result.ephemeral and "`/host` (a table anyone joins)" in replies(result)


async def _mygames(driver: InteractionDriver, user_id: int) -> list[str]:
    """/mygames as ``user_id`` sees it (only to them), line by line."""
    result = await driver.slash("mygames", {}, user_id=user_id)
    assert result.ephemeral
    return (result.content or "").splitlines()


async def test_mygames_lists_a_table_joined(driver: InteractionDriver) -> None:
    """Bob joined Alice's table: /mygames names the game, links the table's message, says who
    hosts, the seats taken and free, and when it closes."""
    message, lobby_id = await _host(driver, game="dragon", seats=3)
    await _press(driver, message, lobby_id, "j", BOB_ID)
    lobby = await stored_lobby(driver, lobby_id)
    link = f"https://discord.com/channels/{GUILD_ID}/{message['channel_id']}/{message['id']}"
    assert await _mygames(driver, BOB_ID) == [
        "**Your games here** — 0 in play, 0 waiting for you, 1 table waiting to start",
        f"**Dragon Mille Bornes** in <#{message['channel_id']}> (open table, alice hosts: "
        f"2 seats taken, 2 free), closes <t:{int(lobby.expires_at)}:R> · [table]({link})",
    ]


async def test_mygames_shows_the_host_their_own_table(driver: InteractionDriver) -> None:
    await _host(driver, game="dragon", seats=3)
    lines = await _mygames(driver, ALICE_ID)
    assert len(lines) == 2 and "(open table, you host: 1 seat taken, 3 free)" in lines[1]


async def test_mygames_lists_an_invitation(driver: InteractionDriver) -> None:
    """A /challenge waiting for Bob's answer is listed to him, with the answers so far."""
    invite = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    assert invite.message is not None
    lines = await _mygames(driver, BOB_ID)
    assert len(lines) == 2
    assert "(invitation, alice hosts: 0 of 1 accepted), expires <t:" in lines[1]
    assert f"/{invite.message['id']})" in lines[1]


async def test_mygames_forgets_a_table_left(driver: InteractionDriver) -> None:
    message, lobby_id = await _host(driver, game="dragon", seats=3)
    await _press(driver, message, lobby_id, "j", BOB_ID)
    await _press(driver, message, lobby_id, "l", BOB_ID)
    assert await _mygames(driver, BOB_ID) == [NOTHING]


async def test_mygames_forgets_a_table_cancelled(driver: InteractionDriver) -> None:
    message, lobby_id = await _host(driver, game="dragon", seats=3)
    await _press(driver, message, lobby_id, "j", BOB_ID)
    await _press(driver, message, lobby_id, "c", ALICE_ID)
    assert await _mygames(driver, BOB_ID) == [NOTHING]
    assert await _mygames(driver, ALICE_ID) == [NOTHING]


async def test_mygames_lists_a_started_table_as_a_game_in_play(driver: InteractionDriver) -> None:
    """Bob's Join takes the last seat and deals the game: listed in play, no longer as a table."""
    message, lobby_id = await _host(driver, game="mille")
    await _press(driver, message, lobby_id, "j", BOB_ID)
    lines = await _mygames(driver, BOB_ID)
    assert lines[0] == "**Your games here** — 1 in play, 0 waiting for you"
    assert len(lines) == 2 and "open table" not in lines[1]


async def test_mygames_forgets_a_table_expired(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its closing time nobody pressed anything (it is still stored open): not listed."""
    message, lobby_id = await _host(driver, game="dragon", seats=3)
    await _press(driver, message, lobby_id, "j", BOB_ID)
    later = (await stored_lobby(driver, lobby_id)).expires_at + 1
    monkeypatch.setattr(lobby_cog, "clock", lambda: later)
    assert (await stored_lobby(driver, lobby_id)).status == "open"
    assert await _mygames(driver, BOB_ID) == [NOTHING]


def _table_seating_bob(guild_id: int = GUILD_ID, host_name: str = "carol") -> LobbyRecord:
    """An open Dragon table Carol hosts, Bob seated, two seats free, closing in ten minutes."""
    return LobbyRecord(
        id=0,
        channel_id=GAMES_CHANNEL_ID + 50,
        guild_id=guild_id,
        game_key="dragon",
        host_id=CAROL_ID,
        host_name=host_name,
        invited=(Invitee(BOB_ID, "bob", "accepted"),),
        options={},
        computers=0,
        policy="normal",
        thread=False,
        status="open",
        expires_at=lobby_cog.clock() + 600,
        created_at=lobby_cog.clock(),
        open_seats=3,
    )


async def test_mygames_keeps_to_this_server(driver: InteractionDriver) -> None:
    """A table seating Bob on another server is not listed here."""
    store = running_bot(driver).tables.store
    lobby = await store.create_lobby(_table_seating_bob(guild_id=GUILD_ID + 99))
    there = await store.open_lobbies_of(BOB_ID, GUILD_ID + 99, lobby_cog.clock())
    assert [table.id for table in there] == [lobby.id]
    assert await _mygames(driver, BOB_ID) == [NOTHING]


async def test_mygames_shows_a_hosts_name_as_plain_text(driver: InteractionDriver) -> None:
    store = running_bot(driver).tables.store
    await store.create_lobby(_table_seating_bob(host_name="**Carol** [x](https://evil.example)"))
    line = (await _mygames(driver, BOB_ID))[1]
    carol = f"\\*\\*Carol\\*\\* \\[x](https{LINK_BREAK}evil.example)"
    assert f"(open table, {carol} hosts: 2 seats taken, 2 free)" in line, line


async def test_mygames_with_many_tables_fits_one_message(driver: InteractionDriver) -> None:
    """Forty tables hosted under long, markup-heavy names still make one message Discord takes
    (the fake refuses anything over 2 000 characters), whole lines and a count of the rest."""
    store = running_bot(driver).tables.store
    for _ in range(40):
        await store.create_lobby(_table_seating_bob(host_name="*_" * 16))
    lines = await _mygames(driver, BOB_ID)
    assert lines[0].endswith(", 40 tables waiting to start")
    assert lines[-1].startswith("… and ") and len("\n".join(lines)) <= 2000
    assert all("(open table, " in line for line in lines[1:-1])


# -- /host refused -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        ({"game": "solo"}, "Mille Bornes Solo is played alone: start it with /play."),
        (
            {"game": "mille", "computers": 1},
            "With 1 computer, Mille Bornes has no seat left for members to join: ask for "
            "fewer computers.",
        ),
        (
            {"game": "ttr", "seats": 3, "computers": 1},
            "is played by 2 to 4 players, not 5 (you, 3 open seats and 1 computer).",
        ),
        # The host's own seat is counted, and said: four seats asked for are five players.
        (
            {"game": "ttr", "seats": 4},
            "is played by 2 to 4 players, not 5 (you and 4 open seats).",
        ),
        ({"game": "dragon", "options": "oil_slick:sideways"}, "'sideways' is not a choice for"),
        ({"game": "dragon", "level": "grandmaster"}, "no computer player called 'grandmaster'"),
    ],
)
async def test_a_table_that_cannot_be_hosted_is_refused(
    driver: InteractionDriver, options: dict[str, object], sentence: str
) -> None:
    result = await driver.slash("host", options)
    assert result.ephemeral and sentence in replies(result)
    assert await running_bot(driver).tables.store.get_lobby(1) is None


async def test_host_is_refused_where_a_game_is_running(driver: InteractionDriver) -> None:
    await stacked_mille(driver)
    result = await driver.slash("host", {"game": "dragon"})
    assert result.ephemeral and replies(result) == "A game is already running here."
    assert await running_bot(driver).tables.store.get_lobby(1) is None


@pytest.mark.parametrize(
    ("command", "options", "sentence"),
    [
        (
            "challenge",
            {"game": "mille", "member": BOB_ID, "computers": 1},
            "Mille Bornes is played by exactly 2 players, not 3 (you, 1 member invited and "
            "1 computer).",
        ),
        (
            "play",
            {"game": "ttr", "computers": 4},
            "Ticket to Ride: The Card Game is played by 2 to 4 players, not 5 (you and 4 "
            "computers).",
        ),
    ],
)
async def test_a_table_of_the_wrong_size_says_how_it_was_counted(
    driver: InteractionDriver, command: str, options: dict[str, object], sentence: str
) -> None:
    """The member's own seat counts: the refusal says what added up to too many."""
    result = await driver.slash(command, options)
    assert result.ephemeral and sentence in replies(result)
    assert await running_bot(driver).tables.store.active_games() == []
