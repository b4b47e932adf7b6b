"""A names review: members whose Discord names are as awkward as Discord allows, through the cogs.

Each test seats members with odd names (identical names, names that are card names or move
words, right-to-left overrides, invisible names, markdown, wide characters, emoji, Zalgo) at
the real bot through the fake Discord and looks at what a member sees: the table message and
image, "My hand" and its target pickers, /move's suggestions, the end of a game and the boards.
Every body the bot sends is checked against Discord's limits by ``tests/conftest.py``.
"""

from __future__ import annotations

import pytest
from PIL import Image

from bot.render.common import Canvas, Palette, font, text_width
from bot.store.base import SeatRecord
from cogs.ui import LINK_BREAK
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, alt_text_of, component_id, labels, public_table
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    PLAYERS_ROLE_ID,
    InteractionResult,
    member_payload,
    user_payload,
    walk_components,
)
from tests.discord.payloads import InteractionDriver

DAVE_ID, ERIN_ID = ALICE_ID + 1_000, ALICE_ID + 2_000  # two more members of the fake guild

# Dragon, stacked (as in test_dragon_cogs): Alice holds a Speed Limit and a Machine Gun (Front).
DRAGON_MB = [
    *["speed-limit", "gasoline", "gasoline", "gasoline", "gasoline", "gasoline"],
    *["75"] * 6,
    *["right-of-way", "50", "50", "50", "50", "50"],
    *["25"] * 6,
    *["end-of-limit"] * 6,
    *["50", "50", "50", "50", "25", "25"],
]
DRAGON_CW = [
    *["mg-front", "swerve", "swerve", "swerve", "swerve"],
    *["armor-front", "swerve", "swerve", "swerve", "swerve"],
    *["swerve", "swerve", "armor-left", "armor-left", "armor-left"],
    *["armor-right"] * 5,
    *["armor-right", "armor-right", "called-shot", "called-shot", "tire-shot"],
    *["called-shot", "called-shot", "tire-shot", "tire-shot", "tire-shot"],
]


async def test_two_drivers_whose_names_look_alike_get_buttons_that_tell_them_apart(
    driver: InteractionDriver,
) -> None:
    """Six cars: Bob goes by "Sam" and Carol by "Ｓａｍ" (fullwidth letters: the same name to
    the eye, and the images draw it as "Sam"), with three computers. Alice aims her Machine Gun
    through the target picker and /move's list. Found by a names review (with two plain
    "Sam"s): the picker's two buttons read alike and /move offered "Machine Gun (Front) on Sam"
    twice, so Alice could not tell which button shoots which car and her shot could hit the
    wrong one (and the caption said only "at Sam's front"). The seam now numbers a name that
    looks like an earlier seat's (case, width and invisible characters aside) when the game is
    dealt, for every game: "Ｓａｍ (2)"; the one she picks is hit."""
    bot = running_bot(driver)
    update = await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[
            SeatRecord(0, "Alice", user_id=ALICE_ID),
            SeatRecord(1, "Sam", user_id=BOB_ID),
            SeatRecord(2, "Ｓａｍ", user_id=CAROL_ID),
            *(SeatRecord(seat, f"Computer {seat}", policy="normal") for seat in (3, 4, 5)),
        ],
        deck=[*DRAGON_MB, *DRAGON_CW],
    )
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    aim = await driver.click(hand.message, component_id(hand, "Machine Gun (Front)"))
    assert aim.callback is not None
    targets = labels(aim.callback)
    assert len(set(targets)) == len(targets) == 5, targets
    assert {"Sam", "Ｓａｍ (2)", "Computer 3"} <= set(targets), targets
    offered = await driver.autocomplete("move", "action", "machine")
    names = [choice["name"] for choice in offered.choices if " on " in choice["name"]]
    assert len(set(names)) == len(names) == 5, names

    shot = await driver.click(aim.message, component_id(aim, "Ｓａｍ (2)"))
    assert "at the front of Ｓａｍ (2)" in (public_table(shot).content or "")
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert state.cars[2].hits[0] == 3 and state.cars[1].hits[0] == 0, "Carol's car was hit"


async def test_a_driver_called_tom_on_tour_is_cut_from_the_card_exactly(
    driver: InteractionDriver,
) -> None:
    """Two cars: Bob's name is "Tom on Tour". Alice's Speed Limit has one target, so its button
    names the card and the car. Found by a names review: the card's words were cut at the last
    " on " of the move's words ("Speed Limit on Tom on Tour"), so the button read "Speed Limit
    on Tom → Tom on Tour". The target's name is now cut off exactly."""
    update = await alice_against(
        driver,
        SeatRecord(1, "Tom on Tour", user_id=BOB_ID),
        game_key="dragon",
        deck=[*DRAGON_MB[:12], *DRAGON_CW[:10]],
    )
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    assert "Speed Limit → Tom on Tour" in labels(hand), labels(hand)


def _nick(driver: InteractionDriver, user_id: int, nick: str) -> None:
    """Give a member of the fake guild a server nickname (their display name)."""
    member = driver.backend.world.member(user_id)
    assert member is not None
    member["nick"] = nick


async def test_a_right_to_left_override_in_a_name_does_not_turn_the_table_around(
    driver: InteractionDriver,
) -> None:
    """Alice's nickname is "\u202eecilA": a right-to-left override, which shows as "Alice" and
    turns everything after it on its line backwards. Found by a names review: the seat kept the
    override, so the table image read "yalp ot Alice" and its caption ran backwards (and so
    did the captions in the table message, the alt text and the ratings line, on every client
    that honours it). A seat's name now leaves invisible format characters out (the override,
    zero-width spaces), keeping only the joiners that spell words and emoji."""
    _nick(driver, ALICE_ID, "\u202eecilA\u200b")
    started = await driver.slash("play", {"game": "race", "level": "random"})
    table = public_table(started)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.seats[0].name == "ecilA"
    for text in (table.content or "", alt_text_of(started, "table.png")):
        assert "ecilA" in text and "\u202e" not in text and "\u200b" not in text, text


@pytest.mark.parametrize("syntax", ["<@{carol}>", "<#{games}>", "<t:1>", "<@&{carol}>"])
async def test_a_name_spelling_discord_syntax_shows_as_typed(
    driver: InteractionDriver, syntax: str
) -> None:
    """Alice's nickname is Carol's mention (or a channel, a time, a role). Nobody is pinged
    (``allowed_mentions``), but found by a names review: the table message showed it as Carol
    herself ("@carol plays 25"), a channel link or a date, so a member could pass for another.
    A seat's "<" before Discord's syntax is now "‹", so the name shows as typed."""
    nick = syntax.format(carol=CAROL_ID, games=GAMES_CHANNEL_ID)
    _nick(driver, ALICE_ID, nick)
    started = await driver.slash("play", {"game": "race", "level": "random"})
    content = public_table(started).content or ""
    assert nick not in content and "‹" + nick[1:] in content, content


async def test_a_name_that_is_a_web_address_is_no_link(driver: InteractionDriver) -> None:
    """Alice's nickname is a web address. Markdown escapes leave a bare address alone, and
    Discord makes every ``https://…`` in a message a live link: the table message offered a
    link the bot seemed to post (left by the names review, fixed since). Its ``://`` now holds
    an invisible word joiner: it reads as typed and links nowhere."""
    nick = "https://free-nitro.example"
    _nick(driver, ALICE_ID, nick)
    content = public_table(await driver.slash("play", {"game": "race", "level": "random"})).content
    assert "free-nitro.example" in (content or "") and "://" not in (content or ""), content
    assert nick.replace("://", LINK_BREAK) in (content or "")


@pytest.mark.parametrize(
    "nick", ["\u3164\u3164", "\u200b", " \u2800 "], ids=["hangul", "zwsp", "blank"]
)
async def test_a_name_that_shows_nothing_seats_the_member_by_their_username(
    driver: InteractionDriver, nick: str
) -> None:
    """Bob's nickname draws nothing (Hangul fillers, a zero-width space, a blank Braille cell).
    Found by a names review: his seat was called by that invisible text, so the table read
    "alice vs " and "plays Red Light on .", his side had no name on the image (or a box where the
    font lacks the glyph), and a target button for him would look empty. A name that shows
    nothing now gives way to the member's username, which always does."""
    _nick(driver, BOB_ID, nick)
    invite = await driver.slash("challenge", {"game": "race", "member": BOB_ID})
    started = await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    assert "alice vs bob" in (public_table(started).content or "")
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.seats[1].name == "bob"


async def test_a_zalgo_name_keeps_its_accents_but_not_a_tower_of_them(
    driver: InteractionDriver,
) -> None:
    """Bob's nickname is "Zalgo" with eight or nine combining marks on a letter (30 characters in
    all), and he joins a six-car Dragon table from /challenge. Found by a names review: the
    images already drew at most two marks on a letter, but the seat kept all of them, so every
    caption, button and menu the bot sent smeared Bob's name over the lines around it in
    Discord. A seat's name keeps two marks per letter (enough for any language's accents, as
    the images), so "Bób" and "Ž" are still spelled right."""
    zalgo = "Z" + "\u0336\u0301\u0316" * 3 + "a" + "\u0301" * 8 + "l" + "\u0300" * 8 + "go"
    _nick(driver, BOB_ID, zalgo)
    _nick(driver, CAROL_ID, "Bo\u0301b")
    invite = await driver.slash(
        "challenge", {"game": "dragon", "member": BOB_ID, "member2": CAROL_ID, "computers": 3}
    )
    await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    started = await driver.click(invite, component_id(invite, "Accept"), user_id=CAROL_ID)
    public_table(started)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [s.name for s in stored.seats[1:3]] == [
        "Z\u0336\u0301a\u0301\u0301l\u0300\u0300go",
        "Bo\u0301b",
    ]


async def test_fancy_letters_in_a_name_are_drawn_as_letters(driver: InteractionDriver) -> None:
    """Two Ticket to Ride tables dealt alike, one for "Alice" and "Bob", the other for
    "Ａｌｉｃｅ" (fullwidth) and "𝐁𝐨𝐛" (mathematical bold), as members style their names.
    Found by a names review: the bundled font has neither alphabet, so the image showed each
    name as a row of empty boxes (and its width, measured in boxes, was wrong for any cut).
    Styled letters are now drawn and measured as the plain letters they style: both images
    are the same picture. Seat names, messages and alt text keep the styling: Discord draws it."""
    bot = running_bot(driver)
    tables = {}
    for channel, names in (
        (GAMES_CHANNEL_ID, ("Alice", "Bob")),
        (GENERAL_CHANNEL_ID, ("Ａｌｉｃｅ", "𝐁𝐨𝐛")),
    ):
        await bot.tables.start(
            channel_id=channel,
            guild_id=GUILD_ID,
            game_key="ttr",
            seats=[
                SeatRecord(0, names[0], user_id=ALICE_ID),
                SeatRecord(1, names[1], user_id=BOB_ID),
            ],
            seed=7,
        )
        shown = await driver.slash("table", {}, channel_id=channel)
        assert names[1] in alt_text_of(shown, "table.png"), "the words keep the styling"
        tables[channel] = public_table(shown).file("table.png")
    assert tables[GAMES_CHANNEL_ID] == tables[GENERAL_CHANNEL_ID]


async def test_history_with_long_marked_up_names_keeps_whole_lines(
    driver: InteractionDriver,
) -> None:
    """Bob's nickname is 32 characters of markdown (``*_~|`` and backticks), every one of them
    escaped in Alice's /history, and they have played ten games. Found by a names review: the
    ten lines no longer fit in one message and the answer was cut at 1,900 characters, in the
    middle of a line (half an opponent's escaped name, no verdict, no link). /history now
    keeps as many whole lines as fit and says how many older games it left out."""
    _nick(driver, BOB_ID, ("*_~|`" * 7)[:32])
    for _ in range(10):
        invite = await driver.slash("challenge", {"game": "race", "member": BOB_ID})
        await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
        await driver.slash("resign", {}, user_id=BOB_ID)
    said = (await driver.slash("history", {})).content or ""
    head, *games, more = said.split("\n")
    assert head.startswith("**Recent games of alice**"), head
    assert games and all(line.endswith(")") and "**won**" in line for line in games), said
    assert more == f"… and {10 - len(games)} older games.", more


async def test_two_members_with_one_name_are_told_apart_in_the_result(
    driver: InteractionDriver,
) -> None:
    """Alice and Bob both go by "Sam" and play Mille Bornes from /challenge; Bob resigns.
    Found by a names review: the seats kept the one name, so the table read "Sam vs Sam",
    the result "🏆 **Sam** won! Sam 0 · Sam 0" and the ratings line "Sam 1,000 → 1,086 ·
    Sam 1,000 → 954": nobody could tell who won (nor, later, in /history or on the board).
    A name an earlier seat already goes by is now numbered when the game is dealt: "Sam",
    "Sam (2)"."""
    _nick(driver, ALICE_ID, "Sam")
    _nick(driver, BOB_ID, "sam")
    invite = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    started = await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    assert "Sam vs sam (2)" in (public_table(started).content or "")
    ended = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    result, ratings = (ended.content or "").split("\n")[-2:]
    assert result.startswith("🏆 **Sam** won! Sam 0 · sam (2) 0."), result
    assert ratings.startswith("📈 Ratings: Sam 1,000 → ") and " · sam (2) 1,000 → " in ratings


async def test_a_resignation_in_dragon_leaves_no_lone_flag(driver: InteractionDriver) -> None:
    """Bob resigns a two-car Dragon game. Found by a names review (reading every ending): the
    game's end reason, "Bob left the game.", is taken out of the captions and left to the
    result line, but the caption it was taken from began with a flag, so the table message
    opened with a line holding only "🏳️". A caption with no words left is now dropped."""
    await alice_against(driver, game_key="dragon", deck=[*DRAGON_MB[:12], *DRAGON_CW[:10]])
    ended = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    lines = (ended.content or "").split("\n")
    assert lines[0].startswith("🏆 **Alice** won!") and "Bob left the game." in lines[0], lines


def test_a_line_that_opens_with_a_hebrew_name_still_reads_left_to_right() -> None:
    """A member called "שלום" plays first at the 1000 Mile Race: the table image's caption
    reads "שלום revealed 100 miles; …" and its pill "שלום to play". Found by a names review:
    raqm took the direction of such a line from its first letter, so the whole English line
    was laid out right to left: "to play שלום", ",revealed 100 miles; … Red Light שלום". Every
    line the images write is now laid out left to right (the name still reads right to left
    inside it): drawn alone or at the start of a line, the name is the same pixels, on the
    left."""
    fnt = font(24, "bold")
    line, name = Canvas(Image.new("RGB", (600, 40))), Canvas(Image.new("RGB", (600, 40)))
    line.text((4, 4), "שלום to play", fnt, Palette.INK)
    name.text((4, 4), "שלום", fnt, Palette.INK)
    width = text_width("שלום", fnt) + 4
    assert (
        line.image.crop((0, 0, width, 40)).tobytes() == name.image.crop((0, 0, width, 40)).tobytes()
    )


# --- every game at its largest table, through to the boards -------------------------------------

AWKWARD = {
    ALICE_ID: "Ｗ" * 32,  # wide letters, the widest name Discord allows
    BOB_ID: "👩🏽‍🚀" * 8,  # emoji with skin tones and joiners, 32 code points
    CAROL_ID: "**__~~||`@everyone <@123> # h",  # markdown and mentions
    DAVE_ID: "discard",  # a move word, twice
    ERIN_ID: "discard",
}


def _awkward_guild(driver: InteractionDriver) -> None:
    """Five members (two more than the fake's default) with the awkward names above."""
    world = driver.backend.world
    for user_id in (DAVE_ID, ERIN_ID):
        user = user_payload(user_id, f"member{len(world.members)}")
        world.members.append(member_payload(user, roles=[PLAYERS_ROLE_ID]))
    for user_id, nick in AWKWARD.items():
        _nick(driver, user_id, nick)


def _pings_at_most(result: InteractionResult, members: set[int]) -> None:
    """Nothing the interaction sent may ping anyone but ``members``, nor @everyone or a role."""
    for response in result.responses:
        if not response.content:
            continue  # a deferral or an edit of components only: nothing to ping with
        allowed = response.data.get("allowed_mentions")
        assert allowed is not None, f"sent without allowed_mentions: {response.content!r}"
        assert not set(allowed.get("parse") or []) & {"everyone", "roles", "users"}, allowed
        assert {int(u) for u in allowed.get("users") or []} <= members, allowed


@pytest.mark.parametrize(
    ("game", "members", "computers"),
    [("mille", 2, 0), ("race", 2, 0), ("ttr", 4, 0), ("dragon", 5, 1)],
)
async def test_an_awkward_table_plays_to_the_boards(
    driver: InteractionDriver, game: str, members: int, computers: int
) -> None:
    """Each game at its largest table, seated from /challenge by members named with wide
    letters, emoji, markdown and mentions, and two "discard"s (with a computer in Dragon's
    sixth seat): every member opens My hand (Alice every target picker), the members resign
    (all but Alice when that ends the game), and everyone looks at /leaderboard, /stats and
    /history. Nothing is refused by Discord's limits (checked for every test), nothing pings
    anyone but the members called, and no target picker offers two buttons that read the
    same. (A names review found nothing more here: this holds the line.)"""
    _awkward_guild(driver)
    seated = [ALICE_ID, BOB_ID, CAROL_ID, DAVE_ID, ERIN_ID][:members]
    invited = {("member" + (str(n + 1) if n else "")): u for n, u in enumerate(seated[1:])}
    invite = await driver.slash("challenge", {"game": game, **invited, "computers": computers})
    for user_id in seated[1:]:
        started = await driver.click(invite, component_id(invite, "Accept"), user_id=user_id)
    _pings_at_most(started, set(seated))
    table = public_table(started)
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    game_id = stored.id
    # Names are kept as typed: emoji with skin tones and joiners whole, markdown as text;
    # only a "<" that Discord would read as a mention is seated as "‹".
    typed = [AWKWARD[u].replace("<@", "‹@") for u in seated[:3]]
    assert [s.name for s in stored.seats[:3]] == typed
    for user_id in seated:
        hand = await driver.click(table.message_id, f"jn:h:{game_id}", user_id=user_id)
        assert hand.ephemeral
        if user_id != ALICE_ID:
            continue
        assert hand.message is not None
        for component in walk_components(hand.message.get("components") or []):
            if str(component.get("custom_id", "")).startswith("jn:g:"):
                aim = await driver.click(hand.message, component["custom_id"])
                assert aim.callback is not None
                targets = labels(aim.callback)
                assert len(set(targets)) == len(targets), targets
    for user_id in seated[1:] if not computers else seated:
        ended = await driver.slash("resign", {}, user_id=user_id)
        _pings_at_most(ended, set(seated))
    assert "Rematch" in labels(public_table(ended))
    for user_id in seated:
        for command, options in (("leaderboard", {"game": game}), ("stats", {"game": game})):
            board = await driver.slash(command, options, user_id=user_id)
            assert board.followups and board.followups[0].attachments, (command, board.content)
        history = await driver.slash("history", {}, user_id=user_id)
        _pings_at_most(history, set())
