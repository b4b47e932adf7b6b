"""A hostile member's review of what names can do, through the fake Discord: members choose
their display names, so a name is hostile input. Each test seats members whose names spell
mentions, markdown, links, lists or a computer's name, and reads everything the bot sent: no
body may ping anyone it should not (the timers' own posts included), and no name may restyle
the bot's message around it. A test that holds a fix says, in its docstring, what the review
found before it; the others held and stay as regression tests.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.names import distinct_names
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, labels, public_table, sweep_after
from tests.cogs.test_names_review import DRAGON_CW, DRAGON_MB
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.payloads import InteractionDriver


def _nick(driver: InteractionDriver, user_id: int, nick: str) -> None:
    """Give a member of the fake guild a server nickname (their display name)."""
    member = driver.backend.world.member(user_id)
    assert member is not None
    member["nick"] = nick


def _bodies(driver: InteractionDriver) -> list[dict[str, Any]]:
    """Every message body the bot sent or edited (interaction answers, follow-ups, edits and
    its own channel posts), in order."""
    bodies = []
    for request in driver.backend.requests:
        body = request.json
        if isinstance(body, dict) and isinstance(body.get("data"), dict) and "type" in body:
            body = body["data"]  # an interaction callback wraps its message
        if isinstance(body, dict) and body.get("content"):
            bodies.append(body)
    return bodies


def _unescaped(text: str, chars: str) -> list[str]:
    """The characters of ``chars`` that ``text`` holds without a backslash before them."""
    return re.findall(rf"(?<!\\)[{re.escape(chars)}]", text)


def _seat(number: int, name: str, user_id: int) -> SeatRecord:
    return SeatRecord(number, name, user_id=user_id)


# Mille Bornes stacked: Alice holds Go, 100, 75, 75, 75, 50, 25; Bob six 25s and a 200.
MILLE_DECK = ["go", "100", "75", "75", "75", "50", *["25"] * 6, *["200", "50", "100", "75"] * 3]


async def _move(driver: InteractionDriver, words: str, user_id: int = ALICE_ID) -> Any:
    """Play the move /move's list offers first for ``words``."""
    offered = (await driver.autocomplete("move", "action", words, user_id=user_id)).choices
    assert offered, f"no move offered for {words!r}"
    return await driver.slash("move", {"action": offered[0]["value"]}, user_id=user_id)


async def test_a_name_holding_a_link_and_a_spoiler_restyles_no_caption(
    driver: InteractionDriver,
) -> None:
    """Alice's name is ``[x](https://evil) ||secret|| `code```, and she drives 100 miles at
    Mille Bornes. Found by this review: discord.py's escape reads a whole ``[…](…)`` as one
    link (one backslash before it, nothing inside escaped) from the name's "[" to the last ")"
    of the line, so in "… drives 100 miles (100 so far)" the name's "||secret||" was a spoiler
    and its "`code`" a code span, in the bot's public message. Every "[" is now escaped on its
    own, and the rest of the name with it."""
    name = "[x](https://evil) ||secret|| `code`"
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=[_seat(0, name, ALICE_ID), _seat(1, "Bob", BOB_ID)],
        deck=MILLE_DECK,
    )
    await _move(driver, "go")
    await _move(driver, "discard", BOB_ID)
    content = public_table(await _move(driver, "100")).content or ""
    assert "drives 100 miles (100 so far)" in content, content
    assert not _unescaped(content, "|`["), content


async def test_a_name_that_is_an_address_full_of_markdown_stays_as_typed(
    driver: InteractionDriver,
) -> None:
    """Alice's nickname is ``https://x.example/**bold**__u__``. Found by this review:
    discord.py's escape leaves a web address alone (a link shows its characters as they are),
    then its "://" is broken so that it is no link: what was left was markdown, and the table
    message showed "bold" in bold and "u" underlined. An address's markdown is now escaped
    like the rest of a name."""
    _nick(driver, ALICE_ID, "https://x.example/**bold**__u__")
    content = public_table(await driver.slash("play", {"game": "race"})).content or ""
    assert "x.example/\\*\\*bold\\*\\*\\_\\_u\\_\\_" in content, content


async def test_a_name_opening_a_line_as_a_numbered_list_stays_as_typed(
    driver: InteractionDriver,
) -> None:
    """Alice's nickname is "1. Alice", and her caption opens a line: "1. Alice plays Go." Found
    by this review: Discord shows such a line as the first item of a numbered list (indented,
    its number drawn by the client). Its "." is now escaped."""
    _nick(driver, ALICE_ID, "1. Alice")
    await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=[_seat(0, "1. Alice", ALICE_ID), _seat(1, "Bob", BOB_ID)],
        deck=MILLE_DECK,
    )
    content = public_table(await _move(driver, "go")).content or ""
    assert content.startswith("1\\. Alice plays Go."), content


@pytest.mark.parametrize(
    ("nick", "game", "computers"),
    [("Computer (normal)", "race", 1), ("Ｃｏｍｐｕｔｅｒ 2 (Expert)", "dragon", 3)],
)
async def test_a_member_named_like_a_computer_is_not_taken_for_one(
    driver: InteractionDriver, nick: str, game: str, computers: int
) -> None:
    """Alice's nickname is a computer's seat name, and she plays computers at that level.
    Found by this review: her seat took the name, and the computer was numbered instead
    ("Computer 2 (expert) (2)"), so every caption, target button and result line said Alice
    was the computer, and the computer someone else. A name that reads like a computer's
    (case, width and spaces aside) now gives way to the member's username."""
    _nick(driver, ALICE_ID, nick)
    level = "expert" if "Expert" in nick else "normal"
    options: dict[str, Any] = {"game": game, "level": level}
    if computers > 1:
        options["computers"] = computers
    started = await driver.slash("play", options)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    names = [s.name for s in stored.seats]
    assert names[0] == "alice", names
    if computers == 1:
        assert names[1:] == [f"Computer ({level})"], names
    else:
        assert names[1:] == [f"Computer {n} ({level})" for n in range(1, computers + 1)], names
    assert "** — alice vs " in (public_table(started).content or "")


async def test_a_member_may_still_be_called_computer(driver: InteractionDriver) -> None:
    """Held: only a computer's whole seat name is refused; "Computer Science" and "Computer"
    are names like any other."""
    _nick(driver, ALICE_ID, "Computer")
    _nick(driver, BOB_ID, "Computer Science")
    invite = await driver.slash("challenge", {"game": "race", "member": BOB_ID})
    await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.name for s in stored.seats] == ["Computer", "Computer Science"]


HOSTILE = {
    ALICE_ID: "@everyone",
    BOB_ID: "<@&1> @here [x](https://evil)",
    CAROL_ID: "# Heading ||x||",
}


@pytest.mark.parametrize("game", ["mille", "race", "ttr", "dragon"])
async def test_nothing_a_hostile_table_sends_pings_anyone_it_should_not(
    driver: InteractionDriver, game: str
) -> None:
    """Held: members named "@everyone", a role's mention with "@here" and a link, and a
    heading play from /challenge under a one-minute turn timer: moves typed from /move's list,
    what the timers post (a reminder, a timeout, a reaction window closed), /mygames, a
    request to abort, a resignation, a rematch's invitation (two seats) and /history. Every
    body the bot sent (its own channel posts included) says whom it may ping, pings no role
    and nobody at all by parsing, and lets through only the members it calls; no "<@&" of a
    role reaches a message, and no name's heading, spoiler or link shows."""
    for user_id, nick in HOSTILE.items():
        _nick(driver, user_id, nick)
    await driver.slash("settings", {"turn_timer": 1, "on_timeout": "computer"})
    seated = [ALICE_ID, BOB_ID] + ([CAROL_ID] if game in ("ttr", "dragon") else [])
    invited = {("member" + (str(n + 1) if n else "")): u for n, u in enumerate(seated[1:])}
    invite = await driver.slash("challenge", {"game": game, **invited})
    for user_id in seated[1:]:
        await driver.click(invite, component_id(invite, "Accept"), user_id=user_id)
    for _ in range(4):
        for user_id in seated:
            offered = (await driver.autocomplete("move", "action", "", user_id=user_id)).choices
            if offered:
                await driver.slash("move", {"action": offered[0]["value"]}, user_id=user_id)
                break
    await sweep_after(driver, 35)  # the reminder
    await sweep_after(driver, 70)  # the deadline: the computer plays the turn
    await driver.slash("mygames", {}, user_id=BOB_ID)
    await driver.slash("abort", {}, user_id=BOB_ID)
    ended = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    if "Rematch" in labels(ended):  # two seats: Bob's resignation ended the game
        await driver.click(ended.message_id, component_id(ended, "Rematch"))
    await driver.slash("history", {}, user_id=BOB_ID)
    bodies = _bodies(driver)
    invitations = [b for b in bodies if re.search(r" invites <@\d+> \(waiting\)", b["content"])]
    assert len(invitations) == (1 if len(seated) == 3 else 2), "the challenge, and a rematch"
    # The timers' own posts (a reminder, a timeout, or a reaction window closed: the deals
    # are random) are checked too.
    posted = [r for r in driver.backend.requests if r.matches("POST", r"/channels/\d+/messages")]
    assert posted, "the timers posted to the channel"
    for body in bodies:
        content = body["content"]
        allowed = body.get("allowed_mentions")
        assert allowed is not None, f"sent without allowed_mentions: {content!r}"
        assert not allowed.get("parse") and not allowed.get("roles"), (allowed, content)
        assert {int(u) for u in allowed.get("users") or []} <= set(seated), (allowed, content)
        # The bot's own links to a table ("[table](https://discord.com/…)") are meant.
        words = re.sub(r"\[table\]\(https://discord\.com/channels/[\d/]+\)", "", content)
        assert "<@&" not in words and not _unescaped(words, "|["), content
        assert not any(line.startswith("#") for line in content.split("\n")), content


async def test_two_drivers_spelled_in_two_alphabets_get_target_buttons_that_differ(
    driver: InteractionDriver,
) -> None:
    """Six cars: Bob goes by "Bob" and Carol by "Воb", whose "В" and "о" are Cyrillic (the same
    name to the eye, in Discord and on the images), with three computers; Alice aims her
    Machine Gun. Found by this review: a name was numbered only when it differed from an
    earlier one by case, width or invisible characters, so the picker offered two buttons
    reading "Bob" and Alice could not tell which car she would shoot. Letters of other
    alphabets drawn like Latin ones (Cyrillic and Greek "а о р с е х", a capital "I" against a
    small "l") now count as the same: Carol's seat is "Воb (2)", and that button hits her car."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[
            _seat(0, "Alice", ALICE_ID),
            _seat(1, "Bob", BOB_ID),
            _seat(2, "Воb", CAROL_ID),
            *(SeatRecord(seat, f"Computer {seat}", policy="normal") for seat in (3, 4, 5)),
        ],
        deck=[*DRAGON_MB, *DRAGON_CW],
    )
    stored = await bot.tables.current(GAMES_CHANNEL_ID)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{stored.id}")
    aim = await driver.click(hand.message, component_id(hand, "Machine Gun (Front)"))
    assert aim.callback is not None
    targets = labels(aim.callback)
    assert "Bob" in targets and "Воb (2)" in targets, targets
    await driver.click(aim.message, component_id(aim, "Воb (2)"))
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.cars[2].hits[0] == 3 and state.cars[1].hits[0] == 0, "Bob's car was hit"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Bob", "Воb"),
        ("Ian", "lan"),
        ("Ian", "ian"),
        ("Ivy", "ivy"),
        ("Pop", "Ρορ"),
        ("Alice", "Аlice"),
    ],
)
def test_names_drawn_alike_in_other_alphabets_are_numbered(first: str, second: str) -> None:
    """The seat numbering sees Cyrillic and Greek letters drawn like Latin ones, and a capital
    "I" drawn like a small "l", as the letters they look like; names that only look different
    ("Ali" and "All") keep their own. Case still never counts: reading every capital I as an l
    had let "Ivy" and "ivy" sit at one table unnumbered."""
    named = distinct_names([_seat(0, first, ALICE_ID), _seat(1, second, BOB_ID)])
    assert [s.name for s in named] == [first, f"{second} (2)"]
    kept = distinct_names([_seat(0, "Ali", ALICE_ID), _seat(1, "All", BOB_ID)])
    assert [s.name for s in kept] == ["Ali", "All"]


async def test_two_long_names_that_look_alike_keep_their_number_on_the_image(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride for Alice and two members both called by 32 wide "Ｗ"s: the table
    numbers the second, "ＷＷＷ… (2)". Found by this review: the image cut both names to the
    same "WWWWWWW…" (the number went with the cut), so nobody could tell which panel the
    captions' "(2)" was. A cut name now keeps its number: the table is not the picture of one
    dealt alike to "ＷＷＷ…" and "ＷＷＷ… (3)"."""
    bot = running_bot(driver)
    wide = "Ｗ" * 32
    pictures = []
    for channel, third in ((GAMES_CHANNEL_ID, wide), (GENERAL_CHANNEL_ID, f"{wide} (3)")):
        update = await bot.tables.start(
            channel_id=channel,
            guild_id=GUILD_ID,
            game_key="ttr",
            seats=[_seat(0, "Alice", ALICE_ID), _seat(1, wide, BOB_ID), _seat(2, third, CAROL_ID)],
            seed=7,
        )
        assert update.game.seats[2].name == (f"{wide} (2)" if third == wide else third)
        shown = await driver.slash("table", {}, channel_id=channel)
        pictures.append(public_table(shown).file("table.png"))
    assert pictures[0] != pictures[1]


async def test_a_name_with_line_breaks_is_seated_on_one_line(driver: InteractionDriver) -> None:
    """Held: a nickname holding a line break and a tab (Discord refuses them, a hostile client
    may not) is seated on one line, so no caption gains a line opening with its heading."""
    _nick(driver, ALICE_ID, "Alice\n# Heading\t> quote")
    content = public_table(await driver.slash("play", {"game": "race"})).content or ""
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.seats[0].name == "Alice # Heading > quote"
    assert not any(line.startswith(("#", ">")) for line in content.split("\n")), content


@pytest.mark.parametrize(
    "typed", ["@everyone **x** [a](https://evil.example)", "<@&1> ||x|| `y`", "# play 25"]
)
async def test_a_typed_move_that_is_refused_is_echoed_only_to_its_typer(
    driver: InteractionDriver, typed: str
) -> None:
    """Held: a /move the game cannot read is refused privately, pinging nobody, with the
    member's words escaped; nothing is posted to the channel."""
    await driver.slash("play", {"game": "race"})
    before = len(driver.backend.requests)
    refused = await driver.slash("move", {"action": typed})
    assert refused.ephemeral and not refused.followups, refused.content
    assert not _unescaped(refused.content or "", "|`[*"), refused.content
    for request in driver.backend.requests[before:]:
        assert not request.matches("POST", r"/channels/\d+/messages"), request.json
        body = request.json if isinstance(request.json, dict) else {}
        body = body.get("data", body) if isinstance(body.get("data"), dict) else body
        if body.get("content"):
            assert not body["allowed_mentions"].get("parse"), body
