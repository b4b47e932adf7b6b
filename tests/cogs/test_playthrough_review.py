"""A play-through review of the day's changes, driven through the fake Discord as members play:
every game played whole by the buttons (My hand, its pickers and menus, /hint where allowed),
the games-at-once limit met in ordinary flows (hosting, Start, a rematch, an invitation
accepted, a table left), and a hostile member (double clicks, a stale hand after a restart,
another's hand, a forged lobby id, a huge /move).

Each test says, in its docstring, what a member should see; a test written for a defect says
what the play-through found before its fix."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

import cogs.lobby as lobby_cog
from bot.store.base import SeatRecord, StoredGame
from cogs import limits
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alice_against,
    component_id,
    public_table,
    replies,
    restarted,
    sweep_at,
)
from tests.cogs.test_nested_pickers_review import _deal
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GENERAL_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
    walk_components,
)
from tests.discord.payloads import InteractionDriver

DEAL_SEED = 1
"""The seed of every deal here (2 plays through as well)."""


@pytest.fixture(autouse=True)
def _stacked_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal here from one fixed seed (a dealt game draws its seed at random): a whole
    game played by the hands' first moves must end within its moves, and a hand must hold what
    a test presses, whatever the run."""
    monkeypatch.setattr("bot.tables.secrets.randbelow", lambda bound: DEAL_SEED % bound)


def _components(result: InteractionResult) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for response in result.responses:
        found += walk_components(response.components)
    return found


async def _hand(
    driver: InteractionDriver, game_id: int, user_id: int, table: Any = None
) -> dict[str, Any]:
    """The member's hand, opened by My hand under ``table`` (the newest public table posted,
    else a fresh /table), only to them: the message as Discord shows it. A solitaire's table
    carries the moves itself: the table then."""
    if table is None:
        table = public_table(await driver.slash("table", {}, user_id=user_id))
    if not any(c.get("custom_id") == f"jn:h:{game_id}" for c in walk_components(table.components)):
        return driver.backend.messages[int(table.message_id)]
    hand = await driver.click(table.message_id, f"jn:h:{game_id}", user_id=user_id)
    assert hand.ephemeral and hand.message is not None, replies(hand)
    return hand.message


async def _press_a_move(
    driver: InteractionDriver, hand: dict[str, Any], user_id: int, rng: random.Random
) -> InteractionResult:
    """Play one of the moves the hand offers, by its buttons or menus: a move button, else a
    group's button and one of the moves it opens, else the first choices of a menu."""
    parts = list(walk_components(hand.get("components") or []))
    moves = [c for c in parts if str(c.get("custom_id", "")).startswith("jn:p:")]
    groups = [c for c in parts if str(c.get("custom_id", "")).startswith("jn:g:")]
    menus = [c for c in parts if c.get("type") == 3]
    if moves and not (groups and rng.random() < 0.3):
        # Mostly the first move (the hands list plays before discards): a game of random
        # discards runs long.
        pressed = moves[0] if rng.random() < 0.7 else rng.choice(moves)
        return await driver.click(hand, pressed["custom_id"], user_id=user_id)
    if groups:
        opened = await driver.click(hand, rng.choice(groups)["custom_id"], user_id=user_id)
        assert opened.ephemeral and opened.message is not None, replies(opened)
        return await _press_a_move(driver, opened.message, user_id, rng)
    assert menus, f"a hand with nothing to press: {hand.get('content')}"
    menu = rng.choice(menus)
    values = [o["value"] for o in menu["options"][: max(1, int(menu.get("min_values", 1)))]]
    return await driver.select(hand, menu["custom_id"], values, user_id=user_id)


async def _play_out(
    driver: InteractionDriver,
    game_id: int,
    *,
    seed: int = 1,
    moves: int = 400,
    table: Any = None,
) -> StoredGame:
    """Every member seated plays by their hand's buttons, whoever is to act, until the game
    ends (or ``moves`` presses), under the newest table posted (``table`` at first); the game
    as stored then."""
    bot = running_bot(driver)
    rng = random.Random(seed)
    for _ in range(moves):
        stored = await bot.tables.store.get_game(game_id)
        assert stored is not None
        if stored.status != "active":
            return stored
        acting = bot.tables.position(stored).acting
        user = next(stored.seats[s].user_id for s in acting if stored.seats[s].user_id is not None)
        assert user is not None
        hand = await _hand(driver, game_id, user, table)
        pressed = await _press_a_move(driver, hand, user, rng)
        posted = [f for f in pressed.followups if f.attachments and f.message_id is not None]
        table = public_table(pressed) if posted else None
        after = await bot.tables.store.get_game(game_id)
        assert after is not None
        assert after.version > stored.version, replies(pressed)
    stored = await bot.tables.store.get_game(game_id)
    assert stored is not None
    return stored


async def test_mille_bornes_against_the_computer_by_the_buttons(driver: InteractionDriver) -> None:
    """Alice /plays Mille Bornes against the computer and plays every turn from My hand until
    the match ends."""
    started = await driver.slash("play", {"game": "mille"})
    public_table(started)
    game = await running_bot(driver).store.active_game(GAMES_CHANNEL_ID)
    assert game is not None
    ended = await _play_out(driver, game.id)
    assert ended.status == "finished", ended.status


async def _game_here(driver: InteractionDriver, channel_id: int = GAMES_CHANNEL_ID) -> StoredGame:
    game = await running_bot(driver).store.active_game(channel_id)
    assert game is not None, "a game was dealt"
    return game


async def test_mille_hint_played_then_the_hand_by_the_buttons(driver: InteractionDriver) -> None:
    """Against the computer, Alice asks /hint and plays it with its button; the game moves on
    and her hand is offered again."""
    await driver.slash("play", {"game": "mille"})
    game = await _game_here(driver)
    hint = await driver.slash("hint", {})
    assert hint.ephemeral and "💡" in replies(hint), replies(hint)
    played = await driver.click(hint, component_id(hint, "Play it"))
    public_table(played)
    after = await _game_here(driver)
    assert after.version > game.version


async def test_solo_played_whole_by_the_buttons_with_its_suggested_move(
    driver: InteractionDriver,
) -> None:
    """Mille Bornes Solo: the hand's suggested move ends "(suggested)", and pressing the hand's
    buttons plays the game to its end."""
    await driver.slash("play", {"game": "solo"})
    game = await _game_here(driver)
    table = public_table(await driver.slash("table", {}))
    said = [str(c.get("label", "")) for c in walk_components(table.components)]
    assert len([label for label in said if label.endswith("(suggested)")]) == 1, said
    ended = await _play_out(driver, game.id, seed=3, table=table)
    assert ended.status == "finished", ended.status


async def test_race_against_a_member_challenged_and_accepted(driver: InteractionDriver) -> None:
    """Alice challenges Bob to the 1000 Mile Race; Bob double clicks Accept (the second press is
    told, only to him, the game has started, and deals nothing more); both play by their hands
    to the end."""
    invited = await driver.slash("challenge", {"game": "race", "member": BOB_ID})
    accept = component_id(invited, "Accept")
    first = await driver.click(invited, accept, user_id=BOB_ID)
    public_table(first)
    game = await _game_here(driver)
    again = await driver.forge(invited, accept, user_id=BOB_ID)
    assert again.ephemeral, replies(again)
    assert (await _game_here(driver)).version >= game.version
    assert len(await running_bot(driver).store.games_of_member(BOB_ID, active=True)) == 1
    ended = await _play_out(driver, game.id, seed=5)
    assert ended.status == "finished", ended.status


async def test_ttr_of_three_hosted_and_joined(driver: InteractionDriver) -> None:
    """Alice hosts Ticket to Ride for one member and a computer; Bob presses Join twice (the
    second is refused, only to him); the three-seat game is dealt and both play by their hands
    (tickets by the menu, then turns) to the end."""
    hosted = await driver.slash("host", {"game": "ttr", "seats": 1, "computers": 1})
    assert not hosted.ephemeral, replies(hosted)
    join = component_id(hosted, "Join")
    public_table(await driver.click(hosted, join, user_id=BOB_ID))
    again = await driver.forge(hosted, join, user_id=BOB_ID)
    assert again.ephemeral, replies(again)
    game = await _game_here(driver)
    assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID, None]
    ended = await _play_out(driver, game.id, seed=7, moves=300)
    assert ended.status == "finished", ended.status


async def test_dragon_of_three_challenged_and_accepted(driver: InteractionDriver) -> None:
    """Alice challenges Bob and Carol to Dragon; both accept; all three play by their hands to
    the end."""
    invited = await driver.slash(
        "challenge",
        {"game": "dragon", "member": BOB_ID, "member2": CAROL_ID},
    )
    accept = component_id(invited, "Accept")
    await driver.click(invited, accept, user_id=BOB_ID)
    public_table(await driver.click(invited, accept, user_id=CAROL_ID))
    game = await _game_here(driver)
    assert len(game.seats) == 3
    ended = await _play_out(driver, game.id, seed=9, moves=300)
    assert ended.status == "finished", ended.status


# --- games at once in ordinary flows -------------------------------------------------------------

FULL = "You are playing"


async def _nine_games(driver: InteractionDriver, user_id: int = ALICE_ID, count: int = 9) -> None:
    """``user_id`` against the computer in ``count`` other channels (threads, say)."""
    bot = running_bot(driver)
    for _ in range(count):
        await bot.tables.start(
            channel_id=driver.backend.ids.next(),
            guild_id=GUILD_ID,
            game_key="mille",
            seats=[SeatRecord(0, "Alice", user_id=user_id), SeatRecord(1, "C", policy="normal")],
        )


def _refused(result: InteractionResult) -> str:
    assert result.ephemeral, replies(result)
    return replies(result)


async def test_a_member_at_nine_games_hosts_a_table_and_starts_it(
    driver: InteractionDriver,
) -> None:
    """Alice, at nine games, hosts Dragon (her tenth seat); Bob joins; her Start deals the game:
    her own seat at the table is not counted against her a second time. She is then at ten,
    and a /play is refused."""
    assert limits.GAMES_AT_ONCE == 10
    await _nine_games(driver)
    hosted = await driver.slash("host", {"game": "dragon", "seats": 3})
    assert not hosted.ephemeral, replies(hosted)
    await driver.click(hosted, component_id(hosted, "Join"), user_id=BOB_ID)
    started = await driver.click(hosted, component_id(hosted, "Start"))
    public_table(started)
    game = await _game_here(driver)
    assert [s.user_id for s in game.seats] == [ALICE_ID, BOB_ID]
    said = _refused(await driver.slash("play", {"game": "mille"}, channel_id=GENERAL_CHANNEL_ID))
    assert said.startswith(FULL), said


async def test_an_invitee_at_nine_accepts_the_invitation_they_were_counted_for(
    driver: InteractionDriver,
) -> None:
    """Bob invites Alice (at nine games) and Carol to Dragon; Alice accepts (her tenth seat),
    then Carol's Accept deals the game for the three of them."""
    await _nine_games(driver)
    invited = await driver.slash(
        "challenge", {"game": "dragon", "member": ALICE_ID, "member2": CAROL_ID}, user_id=BOB_ID
    )
    accept = component_id(invited, "Accept")
    accepted = await driver.click(invited, accept)
    assert not accepted.ephemeral, replies(accepted)
    public_table(await driver.click(invited, accept, user_id=CAROL_ID))
    game = await _game_here(driver)
    assert sorted(s.user_id or 0 for s in game.seats) == sorted([ALICE_ID, BOB_ID, CAROL_ID])


async def test_a_host_at_the_limit_with_a_rematch_accepted(driver: InteractionDriver) -> None:
    """Alice and Bob finish a Race; Alice, at eight other games, asks for a rematch (her ninth
    seat) and Bob accepts: the rematch is dealt."""
    await _nine_games(driver, count=8)
    old = await alice_against(driver, game_key="race")
    table = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    asked = await driver.click(table.message_id, f"jn:r:{old.game.id}")
    assert not asked.ephemeral, replies(asked)
    public_table(await driver.click(asked, component_id(asked, "Accept"), user_id=BOB_ID))
    game = await _game_here(driver)
    assert game.id != old.game.id


async def test_leaving_a_table_frees_its_seat_from_the_count(driver: InteractionDriver) -> None:
    """Alice at nine games joins Bob's table (ten); Carol's table refuses her Join; she leaves
    Bob's, and Carol's Join seats her."""
    await _nine_games(driver)
    bobs = await driver.slash("host", {"game": "dragon", "seats": 3}, user_id=BOB_ID)
    await driver.click(bobs, component_id(bobs, "Join"))
    carols = await driver.slash(
        "host", {"game": "dragon", "seats": 3}, user_id=CAROL_ID, channel_id=GENERAL_CHANNEL_ID
    )
    said = _refused(await driver.click(carols, component_id(carols, "Join")))
    assert "seated at 1 table waiting for players" in said, said
    left = await driver.click(bobs, component_id(bobs, "Leave"))
    assert not left.ephemeral, replies(left)
    joined = await driver.click(carols, component_id(carols, "Join"))
    assert not joined.ephemeral, replies(joined)


# --- a hostile member ----------------------------------------------------------------------------


async def test_a_hand_opened_before_a_restart_still_plays(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice opens her hand against the computer; the bot restarts (no view was kept for the
    private message); her hand's button still plays her move, and a button of her hand from
    before her move, pressed after it, changes nothing."""
    await driver.slash("play", {"game": "mille"})
    game = await _game_here(driver)
    hand = await _hand(driver, game.id, ALICE_ID)
    moves = [
        c["custom_id"]
        for c in walk_components(hand.get("components") or [])
        if str(c.get("custom_id", "")).startswith("jn:p:")
    ]
    assert len(moves) >= 2, moves
    async with restarted(driver, tmp_path) as again:
        played = await again.click(hand, moves[0])
        public_table(played)
        after = await _game_here(again)
        assert after.version > game.version
        stale = await again.forge(hand, moves[1])
        assert stale.ephemeral, replies(stale)
        assert replies(stale), "told why"
        assert (await _game_here(again)).version == after.version


async def test_another_members_hand_buttons_are_refused(driver: InteractionDriver) -> None:
    """Bob presses the buttons of Alice's hand (forwarded to him, or forged): refused only to
    him, and the game does not move."""
    invited = await driver.slash("challenge", {"game": "race", "member": BOB_ID})
    await driver.click(invited, component_id(invited, "Accept"), user_id=BOB_ID)
    game = await _game_here(driver)
    acting = running_bot(driver).tables.position(game).acting[0]
    owner = game.seats[acting].user_id
    other = BOB_ID if owner == ALICE_ID else ALICE_ID
    assert owner is not None
    hand = await _hand(driver, game.id, owner)
    for part in walk_components(hand.get("components") or []):
        custom_id = str(part.get("custom_id", ""))
        if not custom_id.startswith(("jn:p:", "jn:g:")):
            continue
        pressed = await driver.forge(hand, custom_id, user_id=other)
        assert pressed.ephemeral, replies(pressed)
        assert replies(pressed), "told why"
    assert (await _game_here(driver)).version == game.version


async def test_forged_lobby_ids_are_refused_in_one_sentence(driver: InteractionDriver) -> None:
    """Lobby buttons forged under a real invitation: a lobby that does not exist, one too large
    for the store, another verb; each is refused in one private sentence and the invitation is
    unchanged."""
    bot = running_bot(driver)
    invited = await driver.slash("challenge", {"game": "mille", "member": BOB_ID})
    lobby_id = int(component_id(invited, "Accept").split(":")[2])
    before = await bot.store.get_lobby(lobby_id)
    for forged in (
        f"jn:l:{lobby_id + 1000}:a",
        f"jn:l:{10**30}:a",
        f"jn:l:{lobby_id}:j",
        f"jn:l:{lobby_id}:s",
        f"jn:l:0{lobby_id}:a",
    ):
        pressed = await driver.forge(invited, forged, user_id=CAROL_ID)
        assert pressed.ephemeral, (forged, replies(pressed))
        said = replies(pressed)
        assert said and len(said) < 200 and "\n" not in said, (forged, said)
    assert await bot.store.get_lobby(lobby_id) == before


async def test_a_huge_move_is_refused_in_one_short_sentence(driver: InteractionDriver) -> None:
    """/move with 6000 characters: one short private sentence, nothing stored."""
    await driver.slash("play", {"game": "mille"})
    game = await _game_here(driver)
    for action in ("play " + "x" * 6000, "🚗" * 3000, "play go " * 700):
        moved = await driver.slash("move", {"action": action})
        said = replies(moved)
        assert moved.ephemeral, said[:200]
        assert 0 < len(said) <= 400, said[:600]
    assert (await _game_here(driver)).version == game.version


# --- a table a moderator deleted -------------------------------------------------------------


async def test_an_open_table_a_moderator_deleted_no_longer_holds_its_seats(
    driver: InteractionDriver,
) -> None:
    """A moderator deletes the message of Alice's open table (Bob seated at it). Found by the
    play-through: nobody could press its Join, Leave, Start or Cancel any more, yet the table
    stayed open until its time ran out (up to a week): /mygames listed it with a link opening
    nothing, its seats counted towards Alice's and Bob's games at once, and Alice, at nine
    games, was refused a game and told to Cancel it. The table now closes with its message:
    /mygames lists nothing and Alice starts her game."""
    hosted = await driver.slash("host", {"game": "dragon", "seats": 3})
    assert hosted.message is not None
    await driver.click(hosted, component_id(hosted, "Join"), user_id=BOB_ID)
    driver.backend.delete_by_moderator(GAMES_CHANNEL_ID, int(hosted.message["id"]))
    await driver.deliver_events()
    for member in (ALICE_ID, BOB_ID):
        mine = await driver.slash("mygames", {}, user_id=member)
        assert "waiting to start" not in str(mine.content), mine.content
    await _nine_games(driver)
    started = await driver.slash("play", {"game": "mille"}, channel_id=GENERAL_CHANNEL_ID)
    assert not started.ephemeral, replies(started)
    await _game_here(driver, GENERAL_CHANNEL_ID)
    # Alice may host again: the deleted table is none of her three.
    assert await running_bot(driver).store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0) == []


async def test_a_chat_message_deleted_keeps_the_open_table(driver: InteractionDriver) -> None:
    """A moderator deleting members' chat beside an open table leaves the table open."""
    hosted = await driver.slash("host", {"game": "dragon", "seats": 3})
    chat = driver.backend.create_user_message(GAMES_CHANNEL_ID, CAROL_ID, "hello")
    driver.backend.delete_by_moderator(GAMES_CHANNEL_ID, int(chat["id"]))
    await driver.deliver_events()
    joined = await driver.click(hosted, component_id(hosted, "Join"), user_id=BOB_ID)
    assert not joined.ephemeral, replies(joined)
    assert len(await running_bot(driver).store.open_lobbies_of(ALICE_ID, GUILD_ID, 0.0)) == 1


# --- today's words and private messages ----------------------------------------------------------


async def test_a_nested_picker_opened_before_a_restart_still_plays(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Ticket to Ride: Alice opens "Play Red", then "4 Red…" (each its own private message, no
    view kept); the bot restarts; a Locomotives button of that choice plays her set."""
    deal = await _deal(driver)
    before = await _game_here(driver)
    sets = [
        c
        for c in walk_components(deal.four.message.get("components") or [])  # type: ignore[union-attr]
        if str(c.get("custom_id", "")).startswith("jn:p:")
    ]
    assert sets, replies(deal.four)
    async with restarted(driver, tmp_path) as again:
        played = await again.click(deal.four.message, sets[0]["custom_id"])
        public_table(played)
        after = await _game_here(again)
        assert after.version == before.version + 1
        (*_, last) = await running_bot(again).store.moves(before.id)
        assert (last.seat, last.action.split()[0]) == (0, "yard"), last


async def test_a_dragon_refusal_example_typed_back_plays_it(driver: InteractionDriver) -> None:
    """Dragon: a weapon typed into /move without its car is refused with an example in the
    buttons' words; typed back as it is, the example is played."""
    bot = running_bot(driver)
    invited = await driver.slash(
        "challenge", {"game": "dragon", "member": BOB_ID, "member2": CAROL_ID}
    )
    accept = component_id(invited, "Accept")
    await driver.click(invited, accept, user_id=BOB_ID)
    await driver.click(invited, accept, user_id=CAROL_ID)
    game = await _game_here(driver)
    user = game.seats[bot.tables.position(game).acting[0]].user_id
    assert user is not None
    _, moves = bot.tables.hand(game, user)
    aimed = next(
        m.notation for m in moves if "@" in m.notation and not m.notation.startswith("play")
    )
    refused = await driver.slash("move", {"action": aimed.split(" @")[0]}, user_id=user)
    said = replies(refused)
    assert refused.ephemeral and "for example '" in said, said
    example = said.split("for example '", 1)[1].split("'", 1)[0]
    assert "@" not in example, example
    played = await driver.slash("move", {"action": example}, user_id=user)
    public_table(played)
    assert (await _game_here(driver)).version == game.version + 1


async def test_dragon_rules_name_the_french_cards(driver: InteractionDriver) -> None:
    """/rules game:dragon comes with an embed pairing the English card names with the French
    ones (Stop = Feu rouge)."""
    rules = await driver.slash("rules", {"game": "dragon"})
    embeds = [
        embed
        for response in rules.responses
        for embed in (response.body.get("data") or {}).get("embeds", [])
    ]
    said = " ".join(str(e.get("description", "")) for e in embeds)
    assert "French card names" in said and "Feu rouge" in said, said[:300]


async def test_join_pressed_twice_at_once_seats_the_member_once(driver: InteractionDriver) -> None:
    """Bob double clicks Join on a Dragon table of four seats: both presses arrive together;
    he holds one seat, and the table still offers the others."""
    hosted = await driver.slash("host", {"game": "dragon", "seats": 3})
    join = component_id(hosted, "Join")
    assert hosted.message is not None
    answers = await asyncio.gather(
        driver.click(hosted, join, user_id=BOB_ID), driver.forge(hosted, join, user_id=BOB_ID)
    )
    lobby_id = int(join.split(":")[2])
    lobby = await running_bot(driver).store.get_lobby(lobby_id)
    assert lobby is not None and [i.user_id for i in lobby.invited] == [BOB_ID], lobby
    assert lobby.free_seats == 2
    assert sum(a.ephemeral for a in answers) == 1, [replies(a) for a in answers]


async def test_accept_pressed_twice_at_once_deals_one_game(driver: InteractionDriver) -> None:
    """Bob double clicks Accept on Alice's Race invitation: one game is dealt, once."""
    invited = await driver.slash("challenge", {"game": "race", "member": BOB_ID})
    accept = component_id(invited, "Accept")
    await asyncio.gather(
        driver.click(invited, accept, user_id=BOB_ID),
        driver.forge(invited, accept, user_id=BOB_ID),
    )
    games = await running_bot(driver).store.games_of_member(BOB_ID)
    assert len(games) == 1, games
    assert (await _game_here(driver)).id == games[0].id


async def test_a_seat_at_a_table_owed_its_downtime_counts_before_the_first_sweep(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice at nine games joins Bob's table (her tenth seat); the bot is down for an hour,
    longer than the table's time. Back, before its first sweep gave the table that hour, her
    /play was let through: the table, past its old time, was not counted, though it stays open
    and starts with her seated (eleven games). It is counted now: refused, naming the table."""
    opened = running_bot(driver).tables.clock()
    lobby_cog.clock = lambda: opened
    await _nine_games(driver)
    hosted = await driver.slash("host", {"game": "dragon", "seats": 3}, user_id=BOB_ID)
    join = component_id(hosted, "Join")
    await driver.click(hosted, join)
    await sweep_at(driver, opened + 10)
    async with restarted(driver, tmp_path) as again:
        back = opened + 10 + 3600
        lobby_cog.clock = lambda: back
        played = await again.slash("play", {"game": "mille"}, channel_id=GENERAL_CHANNEL_ID)
        said = _refused(played)
        assert "seated at 1 table waiting for players" in said, said
        assert await running_bot(again).store.active_game(GENERAL_CHANNEL_ID) is None
        await sweep_at(again, back)
        lobby = await running_bot(again).store.get_lobby(int(join.split(":")[2]))
        assert lobby is not None and lobby.status == "open", "the table got its hour back"
