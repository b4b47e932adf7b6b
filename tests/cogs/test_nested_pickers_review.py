"""A hostile review of nested target pickers (a Ticket to Ride colour asks how many Red, then
how many Locomotives; custom ids carry the path of options, ``jn:p:<game>:<v>:h:<picker>:3:1``).

Custom ids are user input: forged paths, other members' ids, stale and doubled presses each get
one private sentence and leave the stored game exactly as it was. Dragon's one-level target
pickers keep answering the ids they had before paths existed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store.base import SeatRecord, StoredGame
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, labels, public_messages, public_table, select_of
from tests.cogs.test_dragon_cogs import dealt
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
)
from tests.discord.payloads import InteractionDriver
from tests.engine.ttr_helpers import G, lay, yard_of

# 28 cards: ten Reds and ten Locomotives among them, more Red sets than one message holds, so
# "Play Red" asks how many Red, then how many Locomotives.
HUGE_HAND = [*["red"] * 10, *["loco"] * 10, *["blue"] * 3, "green", "white", "black", "yellow"]
HUGE_HAND.append("purple")
BOB = SeatRecord(1, "Bob", user_id=BOB_ID)
COMPUTER = SeatRecord(1, "Computer", policy="normal")

NOT_KNOWN = "That button is not one Junction knows"
NO_MATCH = "That button no longer matches the table; use the newest one."
NOT_OFFERED = "That button is not one of this table's; nothing changed."
EARLIER = "That button was shown before the latest move."
MADE = "You have already made that move."
NOT_THIS_TABLE = "That button does not match this table."
NOT_PLAYING = "You are not playing in this game; only its players can do that."


class Deal:
    """Alice (28 cards, to play) against ``opponent`` at Ticket to Ride: the public table
    message, her hand, "Play Red" opened, and "4 Red…" opened from it."""

    stored: StoredGame
    table: int
    hand: InteractionResult
    red: InteractionResult
    four: InteractionResult

    @property
    def picker(self) -> str:
        """The place of "Play Red" among the hand's pickers."""
        return component_id(self.hand, "Play Red").rsplit(":", 1)[1]

    def id(self, kind: str, tail: str, *, version: int = 0, where: str = "h") -> str:
        return f"jn:{kind}:{self.stored.id}:{version}:{where}:{tail}"


async def _deal(driver: InteractionDriver, opponent: SeatRecord = BOB) -> Deal:
    bot = running_bot(driver)
    state = lay(2, hands=[HUGE_HAND, ["orange"] * 7], yards=[{}, {"blue": (2, 0)}])
    deal = Deal()
    deal.stored = await bot.tables.store.create_game(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID), opponent],
        options=G.resolve_options({}),
        state=G.to_dict(state),
    )
    table = public_table(await driver.slash("table", {})).message_id
    assert table is not None
    deal.table = table
    deal.hand = await driver.click(deal.table, f"jn:h:{deal.stored.id}")
    deal.red = await driver.click(deal.hand.message, component_id(deal.hand, "Play Red"))
    deal.four = await driver.click(deal.red.message, component_id(deal.red, "4 Red…"))
    assert deal.four.content == "4 Red: How many Locomotives join them?"
    return deal


async def _row(driver: InteractionDriver, game_id: int) -> tuple[int, str, Any]:
    """What the store holds for a game: its version, status and state."""
    row = await running_bot(driver).tables.store.get_game(game_id)
    assert row is not None
    return row.version, row.status, row.state


def _posts_a_table(result: InteractionResult) -> bool:
    return any(a["filename"] == "table.png" for f in result.followups for a in f.attachments)


def _said(result: InteractionResult) -> str:
    """The interaction's one private answer."""
    assert result.ephemeral, "answered privately"
    texts = [r.content or "" for r in result.responses if r.content]
    assert texts, "the interaction got an answer"
    return texts[0]


async def test_a_nested_choice_forged_on_the_public_table_stays_private(
    driver: InteractionDriver,
) -> None:
    """A nested group's id pressed on the public table message (a modified client can send
    any id on any message): the choice is shown to the presser alone. Found by this review:
    a nested group edits the message it was pressed on, so the table message everyone sees
    turned into "4 Red: How many Locomotives join them?" with Alice's set buttons (telling
    the table she holds four Reds and ten Locomotives), and its My hand button was gone."""
    deal = await _deal(driver)
    before = await _row(driver, deal.stored.id)
    table = dict(driver.backend.messages[deal.table])
    for forged in (deal.id("g", f"{deal.picker}:3"), deal.id("g", f"{deal.picker}:3:1:0")):
        result = await driver.forge(deal.table, forged)
        assert result.ephemeral, forged
        shown = driver.backend.messages[deal.table]
        assert (shown["content"], shown["components"]) == (table["content"], table["components"])
        assert "My hand" in labels(shown)
    # Pressed in the private choice, as shown, it still turns that choice into the next one.
    assert deal.four.callback is not None and deal.four.callback.body["type"] == 7
    opened = await driver.forge(deal.table, deal.id("g", f"{deal.picker}:3"))
    assert _said(opened) == "4 Red: How many Locomotives join them?"
    assert "4 Red + 10 Locomotives" in labels(opened)
    assert await _row(driver, deal.stored.id) == before


async def test_a_set_forged_on_the_public_table_never_shows_the_hand_there(
    driver: InteractionDriver,
) -> None:
    """Alice's own "4 Red + 1 Locomotive" id pressed on the public table message: her move is
    played (as /move would), and the channel sees the new table, never her hand. Found by this
    review: after a move from a hand the message pressed on is redrawn as the hand, so the
    public table turned into Alice's hand image (every card of it in the alt text) for all."""
    deal = await _deal(driver)
    table = dict(driver.backend.messages[deal.table])
    played = await driver.forge(deal.table, component_id(deal.four, "4 Red + 1 Locomotive"))
    public_table(played)
    shown = driver.backend.messages[deal.table]
    assert shown["content"] == table["content"]
    assert [a["filename"] for a in shown["attachments"]] == ["table.png"]
    for message in public_messages(driver):
        assert "hand.png" not in [a["filename"] for a in message.get("attachments") or []]
    assert (await _row(driver, deal.stored.id))[0] == 1


@pytest.mark.parametrize(
    ("tail", "refusal"),
    [
        ("{red}:3:1:0:0:0", NOT_KNOWN),  # deeper than a custom id may say
        ("{red}:3:99", NOT_OFFERED),  # no such set
        ("{red}:42", NOT_OFFERED),  # no such choice
        ("{red}:999:999:999:999", NOT_OFFERED),
        ("{red}:1000", NOT_KNOWN),  # more digits than an option number has
        ("{red}:3", NOT_OFFERED),  # a group pressed as a move
        ("0:1", NOT_OFFERED),  # a path on a plain button (take slot 1)
        ("{singles}:0", NOT_OFFERED),  # a path on the three-singles menu
        ("99:3:1", NOT_OFFERED),  # no such picker
        ("1000:3:1", NOT_KNOWN),
    ],
)
async def test_a_forged_set_path_is_refused(
    driver: InteractionDriver, tail: str, refusal: str
) -> None:
    """Set buttons no picker offers, pressed on the "4 Red" choice: one sentence each, and the
    stored game does not move."""
    deal = await _deal(driver)
    singles = select_of(deal.hand)["custom_id"].split(":")[5]  # jn:s:<game>:0:h:<picker>:0
    tail = tail.format(red=deal.picker, singles=singles)
    before = await _row(driver, deal.stored.id)
    result = await driver.forge(deal.four.message, deal.id("p", tail))
    assert _said(result).startswith(refusal), (tail, _said(result))
    assert await _row(driver, deal.stored.id) == before


async def test_forged_groups_are_refused(driver: InteractionDriver) -> None:
    """A set, a plain button, a menu or a place of the table pressed as a group; a future
    turn; a game id beyond Discord's numbers: one sentence each, nothing stored."""
    deal = await _deal(driver)
    before = await _row(driver, deal.stored.id)
    for forged, refusal in (
        (deal.id("g", f"{deal.picker}:3:1"), NOT_OFFERED),  # a set, not a group
        (deal.id("g", "0"), NOT_OFFERED),  # take slot 1
        (deal.id("g", "0:1"), NOT_OFFERED),
        (deal.id("g", f"{deal.picker}:3", where="t"), NOT_OFFERED),  # the table has no pickers
        (deal.id("p", f"{deal.picker}:3:1", where="t"), NOT_OFFERED),
        (deal.id("g", f"{deal.picker}:3", version=7), NOT_THIS_TABLE),  # no turn 7 was shown
        (f"jn:g:{'9' * 20}:0:h:{deal.picker}:3", NOT_KNOWN),
        (f"jn:g:{deal.stored.id}:0:x:{deal.picker}:3", NOT_KNOWN),
        (f"jn:g:{deal.stored.id}:0:h:{deal.picker}:-3", NOT_KNOWN),
        (f"jn:g:{deal.stored.id}:0:h:{deal.picker}:3:", NOT_KNOWN),
    ):
        said = _said(await driver.forge(deal.red.message, forged))
        assert said.startswith(refusal), (forged, said)
    assert await _row(driver, deal.stored.id) == before


async def test_leading_zeros_name_the_same_choice(driver: InteractionDriver) -> None:
    """``:03:01`` is read as ``:3:1``: the same choice and the same set as the buttons say,
    never another one."""
    deal = await _deal(driver)
    opened = await driver.forge(deal.red.message, deal.id("g", f"{int(deal.picker):03}:03"))
    assert opened.content == deal.four.content and labels(opened) == labels(deal.four)
    played = await driver.forge(deal.four.message, deal.id("p", f"{deal.picker}:03:01"))
    public_table(played)
    _, _, state = await _row(driver, deal.stored.id)
    assert yard_of(G.from_dict(state), 0) == {"red": (4, 1)}


async def test_other_members_cannot_press_a_members_set_buttons(
    driver: InteractionDriver,
) -> None:
    """Alice's "How many Red" and "4 Red + 1 Locomotive" ids sent by Bob (seated, not to play),
    by Carol (watching) and by Carol while she plays a game of her own in another channel: a
    sentence each, and Alice's game does not move."""
    bot = running_bot(driver)
    deal = await _deal(driver)
    before = await _row(driver, deal.stored.id)
    ids = [
        deal.id("g", deal.picker),
        deal.id("g", f"{deal.picker}:3"),
        component_id(deal.four, "4 Red + 1 Locomotive"),
    ]
    for custom_id in ids:
        bobs = await driver.forge(deal.four.message, custom_id, user_id=BOB_ID)
        # Bob's own hand has no such picker: he is told why (test_windows_review.py).
        assert _said(bobs) == "It is not your turn; waiting for Alice.", (custom_id, _said(bobs))
        carols = await driver.forge(deal.four.message, custom_id, user_id=CAROL_ID)
        assert _said(carols) == NOT_PLAYING, (custom_id, _said(carols))
    await bot.tables.start(
        channel_id=GENERAL_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="ttr",
        seats=[SeatRecord(0, "Carol", user_id=CAROL_ID), COMPUTER],
    )
    elsewhere = public_table(await driver.slash("table", {}, channel_id=GENERAL_CHANNEL_ID))
    for custom_id in ids:
        carols = await driver.forge(elsewhere.message_id, custom_id, user_id=CAROL_ID)
        assert _said(carols) == NOT_PLAYING, (custom_id, _said(carols))
    assert await _row(driver, deal.stored.id) == before


async def test_set_buttons_go_stale_with_a_draw(driver: InteractionDriver) -> None:
    """Alice takes a card instead (she is still to play: a second card): her open "How many
    Red" and "4 Red" choices are from an earlier turn, and pressing them changes nothing."""
    deal = await _deal(driver)
    public_table(await driver.click(deal.hand.message, component_id(deal.hand, "slot 1")))
    before = await _row(driver, deal.stored.id)
    assert before[0] == 1
    for message, custom_id in (
        (deal.hand.message, component_id(deal.hand, "Play Red")),
        (deal.red.message, component_id(deal.red, "3 Red…")),
        (deal.four.message, component_id(deal.four, "4 Red + 1 Locomotive")),
    ):
        result = await driver.forge(message, custom_id)
        assert _said(result).startswith(EARLIER), (custom_id, _said(result))
    assert await _row(driver, deal.stored.id) == before


async def test_a_button_never_offered_is_not_called_old(driver: InteractionDriver) -> None:
    """Forged picker numbers, option paths, menus and menu choices at the turn the table is
    at: the member is on the newest table already, so they are told the button is not one of
    this table's. Found by the newer games' review: each was told "That button no longer
    matches the table; use the newest one", though nothing had moved. The same forgeries at
    an earlier turn (Alice took a card since) keep that sentence, and real buttons of the
    earlier turn keep theirs; nothing is stored."""
    deal = await _deal(driver)
    singles = select_of(deal.hand)
    menu = singles["custom_id"]  # jn:s:<game>:0:h:<picker>:0
    picker = menu.split(":")[5]
    offered = [str(o["value"]) for o in singles["options"]][:3]
    forged = [
        deal.id("p", "99"),  # no such picker
        deal.id("p", f"{deal.picker}:3:99"),  # no such set
        deal.id("g", f"{deal.picker}:3:1"),  # a set pressed as a group
    ]
    before = await _row(driver, deal.stored.id)
    for custom_id in forged:
        assert _said(await driver.forge(deal.four.message, custom_id)) == NOT_OFFERED, custom_id
    other_menu = deal.id("s", "99:0")
    said = _said(await driver.forge(deal.hand.message, other_menu, values=offered))
    assert said == "That menu is not one of this table's; nothing changed.", said
    said = _said(await driver.forge(deal.hand.message, menu, values=["nothing", "at", "all"]))
    assert said == "That choice is not one this menu offers; nothing changed.", said
    assert await _row(driver, deal.stored.id) == before
    # Alice takes a card (still to play): the same ids name an earlier turn now.
    public_table(await driver.click(deal.hand.message, component_id(deal.hand, "slot 1")))
    before = await _row(driver, deal.stored.id)
    said = _said(await driver.forge(deal.four.message, deal.id("p", f"{deal.picker}:3:99")))
    assert said == NO_MATCH, said
    said = _said(await driver.forge(deal.hand.message, deal.id("s", f"{picker}:0"), values=["x"]))
    assert said == "That choice is not on offer any more; use the newest menu.", said
    real = component_id(deal.four, "4 Red + 1 Locomotive")
    assert _said(await driver.forge(deal.four.message, real)).startswith(EARLIER)
    assert await _row(driver, deal.stored.id) == before


async def test_a_double_click_on_a_set_plays_it_once(driver: InteractionDriver) -> None:
    """The final set button pressed twice, one after the other and at the same moment: one
    play, and the second press is told the move is made (or, arriving together, that they
    came at the same moment)."""
    bot = running_bot(driver)
    deal = await _deal(driver)
    four_one = component_id(deal.four, "4 Red + 1 Locomotive")
    first, second = await asyncio.gather(
        driver.forge(deal.four.message, four_one), driver.forge(deal.four.message, four_one)
    )
    posted = [r for r in (first, second) if _posts_a_table(r)]
    assert len(posted) == 1, "one of the presses played"
    late = second if posted[0] is first else first
    assert _said(late).startswith(MADE) or "same moment" in _said(late), _said(late)
    after = await _row(driver, deal.stored.id)
    assert after[0] == 1
    again = await driver.forge(deal.four.message, four_one)
    assert _said(again).startswith(MADE), _said(again)
    assert await _row(driver, deal.stored.id) == after
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert yard_of(state, 0) == {"red": (4, 1)}


async def test_a_press_while_the_computer_thinks_changes_nothing(
    driver: InteractionDriver,
) -> None:
    """Alice plays 4 Red + 1 Locomotive; while the computer thinks about its answer she presses
    another set, another "How many" choice and Play Red again: each is refused, and of hers
    only the first play is stored."""
    bot = running_bot(driver)
    deal = await _deal(driver, COMPUTER)
    thinking, go_on = asyncio.Event(), asyncio.Event()
    real_think = bot.tables.thinker

    async def slow(factory: Any, view: Any, seed: str) -> str:
        thinking.set()
        await go_on.wait()
        return await real_think(factory, view, seed)

    bot.tables.thinker = slow
    play = asyncio.create_task(
        driver.click(deal.four.message, component_id(deal.four, "4 Red + 1 Locomotive"))
    )
    await asyncio.wait_for(thinking.wait(), 30)
    during = await _row(driver, deal.stored.id)
    assert during[0] == 1, "Alice's play is stored before the computer answers"
    refused = [
        await driver.forge(deal.four.message, component_id(deal.four, "4 Red + 2 Locomotives")),
        await driver.forge(deal.red.message, component_id(deal.red, "3 Red…")),
        await driver.forge(deal.hand.message, component_id(deal.hand, "Play Red")),
    ]
    assert await _row(driver, deal.stored.id) == during
    go_on.set()
    public_table(await play)
    for result in refused:
        assert _said(result).startswith(EARLIER), _said(result)
    # Alice's turn again, her sets changed by the computer's answer: the old ids stay refused.
    answered = await _row(driver, deal.stored.id)
    assert bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).acting == [0]
    for message, custom_id in (
        (deal.four.message, component_id(deal.four, "4 Red + 2 Locomotives")),
        (deal.red.message, component_id(deal.red, "3 Red…")),
    ):
        assert _said(await driver.forge(message, custom_id)).startswith(EARLIER)
    assert await _row(driver, deal.stored.id) == answered
    moves = await bot.tables.store.moves(deal.stored.id)
    assert [m.action for m in moves if m.seat == 0] == ["yard red red red red loco"]
    assert yard_of(G.from_dict(during[2]), 0) == {"red": (4, 1)}


async def test_dragon_one_level_ids_from_before_paths_still_work(
    driver: InteractionDriver,
) -> None:
    """Dragon's target picker as its ids read before paths existed: ``jn:g:…:<picker>`` opens
    "Aim at which car?" and ``jn:p:…:<picker>:<option>`` aims at that car."""
    game_id = (await dealt(driver)).id
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    gun = component_id(hand, "Machine Gun (Front)")
    picker = gun.rsplit(":", 1)[1]
    assert gun == f"jn:g:{game_id}:0:h:{picker}"
    aim = await driver.forge(hand.message, f"jn:g:{game_id}:0:h:{picker}")
    assert aim.ephemeral and "Aim at which car?" in (aim.content or "")
    bob = labels(aim).index("Bob")
    assert component_id(aim, "Bob") == f"jn:p:{game_id}:0:h:{picker}:{bob}"
    shot = await driver.forge(aim.message, f"jn:p:{game_id}:0:h:{picker}:{bob}")
    assert f"<@{BOB_ID}>, you may react" in (public_table(shot).content or "")
