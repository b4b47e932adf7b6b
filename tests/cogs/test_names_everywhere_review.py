"""A hostile review of members' names wherever the bot shows them: boards, stats, history,
lobbies, threads, hints and every game's captions, through the fake Discord. Members choose
their names, so a name is hostile input; each test holds what the review found, and says in
its docstring what it was before.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from bot.seats import computer_names
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alice_against,
    board_after_a_game_elsewhere,
    component_id,
    hand_header,
    public_table,
    stacked_mille,
)
from tests.cogs.test_race_ttr_hostile_review import RACE_DECK
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    PLAYERS_ROLE_ID,
    member_payload,
    user_payload,
)
from tests.discord.payloads import InteractionDriver

DAVE_ID = CAROL_ID + 1

ZALGO_RTL = "\u202eCarol Z" + "\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308" * 3
"""An account's public name holding a right-to-left override and a letter under 24 accents."""


@pytest.mark.parametrize("cached", [True, False])
async def test_the_board_across_servers_tames_an_account_name_as_a_seat_does(
    driver: InteractionDriver, cached: bool
) -> None:
    """A member who never played here is named on the board across servers by their Discord
    account's public name, which they chose: here a right-to-left override and a letter under
    24 accents. Found by this review: that name went to the image and its alt text as it
    was, so the image drew it backwards ("x Ź loraC") and the accents piled up; a seat shows
    the same name without the override and with at most two accents on a letter. Both ways
    of knowing the account are checked: one discord.py has seen (Carol, a member here) and
    one Discord is asked about (Dave, who joined after the bot started)."""
    if cached:
        user = driver.backend.world.member(CAROL_ID)
        assert user is not None
        user["user"]["global_name"] = ZALGO_RTL
        winner = CAROL_ID
    else:
        dave = user_payload(DAVE_ID, "dave", global_name=ZALGO_RTL)
        driver.backend.world.members.append(member_payload(dave, roles=[PLAYERS_ROLE_ID]))
        winner = DAVE_ID
    alt = await board_after_a_game_elsewhere(driver, winner, "Nick")
    (line,) = [line for line in alt.split("\n") if "Z" in line]
    assert line.startswith("1. Carol Z\u0301\u0302,"), line
    assert not any(unicodedata.category(c) == "Cf" for c in line), ascii(line)


async def test_the_board_across_servers_names_no_member_like_a_computer(
    driver: InteractionDriver,
) -> None:
    """Carol's account's public name is "Computer (expert)". Found by this review: the board
    across servers named her so, as if a computer had won; a seat gives such a name up for
    the member's username, and the board now does too."""
    user = driver.backend.world.member(CAROL_ID)
    assert user is not None
    user["user"]["global_name"] = "Computer (expert)"
    alt = await board_after_a_game_elsewhere(driver, CAROL_ID, "Nick")
    assert "1. carol," in alt and "Computer" not in alt, alt


MARKED_UP = "||Bob|| [x](https://evil.example)"
"""A name that would hide itself behind a spoiler and add a link to the bot's message."""
SHOWN = "\\|\\|Bob\\|\\| \\[x](https:\u2060//evil.example)"
"""``MARKED_UP`` as the bot's messages show it: as typed."""


async def test_a_hand_waiting_for_a_reaction_shows_the_name_as_typed(
    driver: InteractionDriver,
) -> None:
    """Alice plays a Flat Tire on Bob at the 1000 Mile Race, and Bob (named ``MARKED_UP``) may
    react; Alice opens her hand. Found by this review: its header named Bob as his name's
    markdown made it, a spoiler and a link in the bot's message ("waiting for ▒▒▒ x to
    react"); every other line escapes names."""
    update = await alice_against(
        driver, SeatRecord(1, MARKED_UP, user_id=BOB_ID), game_key="race", deck=RACE_DECK
    )
    public_table(await driver.slash("move", {"action": "play flat-tire"}))
    said = await hand_header(driver, update.game.id, ALICE_ID)
    assert said == f"Your hand — waiting for {SHOWN} to react.", said


async def test_a_hand_waiting_for_opening_tickets_shows_the_names_as_typed(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride for three: Alice keeps her opening tickets by /move while Bob (named
    ``MARKED_UP``) and Carol (named "# Carol") still choose, and opens her hand. Found by this
    review: its header named them as their names' markdown made them, a spoiler and a link."""
    bot = running_bot(driver)
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=[
            SeatRecord(0, "Alice", user_id=ALICE_ID),
            SeatRecord(1, MARKED_UP, user_id=BOB_ID),
            SeatRecord(2, "# Carol", user_id=CAROL_ID),
        ],
        seed=5,
    )
    _, moves = bot.tables.hand(await bot.tables.current(GAMES_CHANNEL_ID), ALICE_ID)
    await driver.slash("move", {"action": moves[0].notation})
    said = await hand_header(driver, update.game.id, ALICE_ID)
    assert said == f"Your hand — waiting for {SHOWN} and # Carol to keep their tickets.", said


@pytest.mark.parametrize("nick", ["@2", "＠ ２", "Seat 2", "#2", "2"])
async def test_a_member_named_like_a_seat_number_is_seated_by_their_username(
    driver: InteractionDriver, nick: str
) -> None:
    """Bob goes by a seat's number and sits in seat 1 of a Dragon game, Carol in seat 2. Found
    by this review: the table marked Bob's car "@1" beside his name "@2", and the target
    buttons and captions named him "@2" while the car marked @2 was Carol's, so a player
    aiming at @2 shot Bob (and /move's "mg-front @2", typed from the table, shot Carol while
    its list read "on @2" for Bob). A name that reads like a seat's number now gives way to
    the member's username, as a computer's name does; a name with a number in it stays."""
    nicks = {BOB_ID: nick, CAROL_ID: "Carol 2"}
    for user_id, name in nicks.items():
        member = driver.backend.world.member(user_id)
        assert member is not None
        member["nick"] = name
    invite = await driver.slash(
        "challenge", {"game": "dragon", "member": BOB_ID, "member2": CAROL_ID}
    )
    for user_id in nicks:
        await driver.click(invite, component_id(invite, "Accept"), user_id=user_id)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.name for s in stored.seats] == ["alice", "bob", "Carol 2"]


@pytest.mark.parametrize("nick", ["Computer 1", "ＣＯＭＰＵＴＥＲ１"])
async def test_a_member_named_like_a_numbered_computer_is_seated_by_their_username(
    driver: InteractionDriver, nick: str
) -> None:
    """Alice goes by "Computer 1" and plays Dragon against five computers, "Computer 1
    (normal)" to "Computer 5 (normal)". Found by this review: her seat kept the name, so the
    first caption read "Engines roar: Computer 1 starts." about her, and a six-car image with
    no room for the computers' levels names computer 1 "Computer 1" too. Such a name now gives
    way to her username, as a computer's whole seat name does."""
    member = driver.backend.world.member(ALICE_ID)
    assert member is not None
    member["nick"] = nick
    await driver.slash("play", {"game": "dragon", "computers": 5, "level": "normal"})
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.name for s in stored.seats] == ["alice", *computer_names(5, "normal")]


@pytest.mark.parametrize("nick", ["<id:customize>", "Bob <id:guide>", "<ID:browse>"])
async def test_a_name_spelling_a_link_into_the_server_shows_as_typed(
    driver: InteractionDriver, nick: str
) -> None:
    """Alice's nickname spells one of Discord's links into the server's own pages (its
    guide, its channel list, its onboarding questions). Found by this review: a mention, a
    channel, an emoji or a time spelled in a name were shown as typed, but not these, so the
    bot's table message showed a link reading "Server Guide" where Alice's name was. Their
    "<" now becomes "‹" too."""
    member = driver.backend.world.member(ALICE_ID)
    assert member is not None
    member["nick"] = nick
    content = public_table(await driver.slash("play", {"game": "race"})).content or ""
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.seats[0].name == nick.replace("<", "‹")
    assert "<id:" not in content.lower() and nick.replace("<", "‹") in content, content


async def test_a_move_too_long_for_the_list_ends_in_an_ellipsis(driver: InteractionDriver) -> None:
    """Ticket to Ride's opening tickets: keeping four names four tickets and their cities,
    past the 100 characters Discord shows of a /move suggestion. Found by this review: the
    label was cut where the limit fell ("…, T21 Chi"), so the list seemed to offer a move
    naming a city "Chi"; a cut label now ends in "…"."""
    await alice_against(driver, game_key="ttr", seed=5)
    offered = (await driver.autocomplete("move", "action", "keep")).choices
    long = [c["name"] for c in offered if len(c["name"]) == 100]
    assert long, [c["name"] for c in offered]
    assert all(name.endswith("…") for name in long), long


async def test_a_game_thread_tells_two_members_of_one_name_apart(
    driver: InteractionDriver,
) -> None:
    """Alice and Bob both go by "Sam"; Alice hosts a 1000 Mile Race in a thread of its own and
    Bob joins, which starts it. Found by this review: the thread was called "1000 Mile Race:
    Sam vs Sam", while the table inside it numbers the second ("Sam (2)"); the thread's name
    now numbers him too."""
    for user_id in (ALICE_ID, BOB_ID):
        member = driver.backend.world.member(user_id)
        assert member is not None
        member["nick"] = "Sam"
    hosted = await driver.slash("host", {"game": "race", "thread": True})
    await driver.click(hosted.message, component_id(hosted, "Join"), user_id=BOB_ID)
    (thread,) = driver.backend.threads()
    assert thread["name"] == "1000 Mile Race: Sam vs Sam (2)", thread["name"]
    stored = await running_bot(driver).tables.current(int(thread["id"]))
    assert [s.name for s in stored.seats] == ["Sam", "Sam (2)"]


async def test_control_characters_leave_a_name(driver: InteractionDriver) -> None:
    """Alice's nickname holds a terminal's colour escape, a bell, a delete and a NUL (Discord
    refuses them, a hostile client may not). Found by this review: her seat kept them, so
    every caption carried them and the images drew each as an empty box ("Al▯[31mice▯▯▯");
    they now leave the name, as invisible format characters do."""
    member = driver.backend.world.member(ALICE_ID)
    assert member is not None
    member["nick"] = "Al\x1b[31mice\x07\x7f\x00"
    await driver.slash("play", {"game": "race"})
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.seats[0].name == "Al[31mice"


def _outside_isolates(text: str) -> str:
    """``text`` without its isolated stretches (``FSI`` … ``PDI``)."""
    return re.sub("\u2068[^\u2069]*\u2069", "", text)


async def test_an_arabic_name_before_figures_keeps_its_line_in_order(
    driver: InteractionDriver,
) -> None:
    """Bob goes by "محمد" and resigns a Mille Bornes game to Alice: the result line gives
    each a score and the ratings line each a change, figures right after the names. Found by
    this review: Discord lays a line out by Unicode's bidirectional algorithm, in which
    figures after Arabic letters belong to them, so the line showed "محمد 1,000 → 954 (-46)"
    as "(46-) 954 → 1,000 محمد" (a rating going up) and the scores out of place. A stretch of
    right-to-left writing is now set apart by invisible directional isolates, so it reads
    right to left inside a line that stays left to right."""
    bot = running_bot(driver)
    await stacked_mille(driver, SeatRecord(1, "محمد", user_id=BOB_ID))
    ended = public_table(await driver.slash("resign", {}, user_id=BOB_ID)).content or ""
    ratings = next(line for line in ended.split("\n") if line.startswith("📈 Ratings:"))
    assert "\u2068محمد\u2069 1,000 → " in ratings, ratings
    assert not any(
        unicodedata.bidirectional(char) in ("R", "AL") for char in _outside_isolates(ended)
    ), ascii(ended)
    history = (await driver.slash("history", {})).content or ""
    assert "vs \u2068محمد\u2069:" in history, ascii(history)
    assert (await bot.tables.store.results(guild_id=GUILD_ID))[0].names[1] == "محمد"


async def test_two_names_written_right_to_left_keep_their_own_figures(
    driver: InteractionDriver,
) -> None:
    """Alice goes by "محمد" and Bob by "שלום"; with Carol they keep their opening tickets at
    Ticket to Ride, and the table says "Tickets kept — محمد: 3, שלום: 3, Carol: 3." Found by
    this review: with only figures and punctuation between the two names, "محمد: 3, שלום" was
    one stretch of right-to-left writing, shown "שלום ,3 :محمد", each figure beside the wrong
    name. A seat now holds such a name between isolates, so each stays whole."""
    for user_id, nick in ((ALICE_ID, "محمد"), (BOB_ID, "שלום")):
        member = driver.backend.world.member(user_id)
        assert member is not None
        member["nick"] = nick
    invite = await driver.slash("challenge", {"game": "ttr", "member": BOB_ID, "member2": CAROL_ID})
    for user_id in (BOB_ID, CAROL_ID):
        await driver.click(invite, component_id(invite, "Accept"), user_id=user_id)
    bot = running_bot(driver)
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    assert [s.name for s in stored.seats] == ["\u2068محمد\u2069", "\u2068שלום\u2069", "carol"]
    said = ""
    for user_id in (ALICE_ID, BOB_ID, CAROL_ID):
        _, moves = bot.tables.hand(await bot.tables.current(GAMES_CHANNEL_ID), user_id)
        keep = next(m for m in moves if len(m.notation.split()) == 4)  # three tickets kept
        said = (
            public_table(
                await driver.slash("move", {"action": keep.notation}, user_id=user_id)
            ).content
            or ""
        )
    assert "Tickets kept — \u2068محمد\u2069: 3, \u2068שלום\u2069: 3, carol: 3." in said, ascii(said)


async def test_a_member_called_computer_beside_one_computer_is_numbered(
    driver: InteractionDriver,
) -> None:
    """Five members, the first called "Computer", and one computer, "Computer (normal)", at
    Dragon. Found by this review: where a six-car image has no room for a computer's level it
    draws "Computer (normal)" as "Computer", so two panels read "Computer" (and "killed by
    Computer" could be either). The member is now numbered as a look-alike is: "Computer (2)";
    a member called "Computer" with no computer at the table keeps the name."""
    members = ["Computer", "Bob", "Carol", "Dave", "Erin"]
    seats = [SeatRecord(n, name, user_id=ALICE_ID + n) for n, name in enumerate(members)]
    tables = running_bot(driver).tables
    update = await tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[*seats, SeatRecord(5, "Computer (normal)", policy="normal")],
        seed=3,
    )
    names = [s.name for s in update.game.seats]
    assert names == ["Computer (2)", *members[1:], "Computer (normal)"], names
    alone = await tables.start(
        channel_id=GAMES_CHANNEL_ID + 1, guild_id=GUILD_ID, game_key="dragon", seats=seats, seed=3
    )
    assert [s.name for s in alone.game.seats] == members
