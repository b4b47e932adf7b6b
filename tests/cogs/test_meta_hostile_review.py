"""A new member and a hostile one around the games: /stats, /history, /replay, /leaderboard,
/mygames, Rematch, /help and /rules, each with what Discord lets a modified client send.

Each test drives the real cogs through the fake Discord and holds a fix for what the review
found; its docstring says what should happen and what happened before the fix. A refusal is one
private sentence and changes nothing stored (``store_dump`` before and after)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.games.registry as bot_games_registry
from bot.store.base import SeatRecord
from cogs.pickers import REMATCH_PREFIX
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    ELSEWHERE_CHANNEL_ID,
    a_game_elsewhere,
    alice_against,
    alt_text_of,
    component_id,
    private_on_discord,
    public_table,
    replies,
    stacked_mille,
    store_dump,
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

DAVE_ID = CAROL_ID + 77
"""A member of another server only, which Alice is not on."""


def _private_sentence(result: InteractionResult) -> str:
    """The one private answer the member got (its first answer decides who sees it: a
    public deferral's follow-up is shown to the channel, whatever its own flags)."""
    assert private_on_discord(result), replies(result)
    assert len(result.responses) == 1, replies(result)
    return replies(result)


async def test_another_member_s_games_are_not_read_in_a_direct_message(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """In her direct messages with the bot, Alice asks /history and /stats of Bob, whom she
    knows from her server. There they cover every server: she read "Mille Bornes vs Dave
    Elsewhere: **won**" and a card "Against Dave Elsewhere: 1–0–0", a game Bob played on a
    server she is not on, under a nickname of that server. Now each is refused in one private
    sentence, nothing stored changes, and her own still cover every server."""
    # Bob beats Dave on another server, where he goes by another nickname; Alice is not on it.
    await a_game_elsewhere(driver, BOB_ID, "Bob Secret Nick", DAVE_ID, "Dave Elsewhere")
    direct = int(driver.backend.dm_channel_for(ALICE_ID)["id"])
    for command, options in (
        ("history", {"member": BOB_ID}),
        ("stats", {"game": "mille", "member": BOB_ID}),
    ):
        before = store_dump(tmp_path)
        asked = await driver.slash(command, options, channel_id=direct)
        said = _private_sentence(asked)
        assert "Dave" not in said and not any(f.attachments for f in asked.responses), said
        assert said == (
            "In a direct message only your own games are shown: ask about another member "
            "on a server you share."
        ), said
        assert store_dump(tmp_path) == before
    # Bob's own, in his direct messages, still cover every server.
    mine = await driver.slash(
        "history", {}, user_id=BOB_ID, channel_id=int(driver.backend.dm_channel_for(BOB_ID)["id"])
    )
    assert "vs Dave Elsewhere: **won**" in replies(mine), replies(mine)


async def test_a_rematch_is_asked_for_where_its_game_was_played(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice and Bob played on another server, where Bob goes by "Bob Secret Nick". Alice
    sends that game's Rematch press (a forged id: its button is only under that game's last
    table) from a table on this server. It opened an invitation here, Bob's seat named as on
    the other server: once he accepted, this server's table read "Alice vs Bob Secret Nick".
    Now the press is refused in one private sentence naming where the game was, and nothing is
    stored or posted."""
    played = await a_game_elsewhere(driver, ALICE_ID, "Alice")
    # A finished table of this server's to press it under.
    await stacked_mille(driver)
    here = public_table(await driver.slash("resign", {}, user_id=BOB_ID))
    before = store_dump(tmp_path)
    posted = len(driver.backend.channel_messages(GAMES_CHANNEL_ID))
    pressed = await driver.forge(here.message_id, f"{REMATCH_PREFIX}{played.game.id}")
    assert _private_sentence(pressed) == (
        f"That button belongs to a game in another channel (<#{ELSEWHERE_CHANNEL_ID}>)."
    ), replies(pressed)
    assert store_dump(tmp_path) == before
    assert len(driver.backend.channel_messages(GAMES_CHANNEL_ID)) == posted
    # Carol, who did not play it, forging the same press learns nothing of where it was
    # played (the channel's mention named it before she was told she had no seat there).
    pressed = await driver.forge(
        here.message_id, f"{REMATCH_PREFIX}{played.game.id}", user_id=CAROL_ID
    )
    assert _private_sentence(pressed) == "Only the players of that game can ask for a rematch."
    assert store_dump(tmp_path) == before


async def test_agree_to_abort_of_a_game_that_ended_says_so(
    driver: InteractionDriver, tmp_path: Path
) -> None:
    """Alice asked to abort her game with Bob, then Bob resigned instead: the request still
    shows its Agree to abort button. Bob pressing it read "Nobody is asking to abort that game
    now (a request lapses at the next move); use /abort to ask.", and /abort then said there
    is no game here. Now it says the game has ended, privately, nothing stored."""
    await stacked_mille(driver)
    request = await driver.slash("abort", {})
    agree = component_id(request, "Agree to abort")
    await driver.slash("resign", {}, user_id=BOB_ID)
    before = store_dump(tmp_path)
    pressed = await driver.click(request, agree, user_id=BOB_ID)
    assert _private_sentence(pressed) == "That game has ended.", replies(pressed)
    assert store_dump(tmp_path) == before


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("play", {"game": "dragon"}),
        ("challenge", {"game": "mille", "member": BOB_ID, "member2": CAROL_ID}),
        ("host", {"game": "mille"}),
    ],
)
async def test_fewer_than_no_computers_are_refused(
    driver: InteractionDriver, tmp_path: Path, command: str, options: dict[str, object]
) -> None:
    """Discord offers 0 to 5 computers; a request made by hand sent computers:-1. /challenge
    of Bob and Carol to Mille Bornes then posted "Alice invites Bob (waiting), Carol (waiting)
    and -1 computers.", pinging both, and Carol's Accept was refused ("played by exactly 2
    players, not 3"): it could never start. /host offered a third seat at a game of two, and
    /play answered "(you and -1 computers)". Each is refused in one private sentence now,
    nothing stored or posted."""
    before = store_dump(tmp_path)
    posted = len(driver.backend.channel_messages(GAMES_CHANNEL_ID))
    asked = await driver.slash(command, {**options, "computers": -1})
    assert _private_sentence(asked) == "Computers: give 0 to 5.", replies(asked)
    assert store_dump(tmp_path) == before
    assert len(driver.backend.channel_messages(GAMES_CHANNEL_ID)) == posted


@pytest.mark.parametrize("game", ["solo", "ttr-solo"])
async def test_the_level_field_offers_nothing_for_a_game_played_alone(
    driver: InteractionDriver, game: str
) -> None:
    """A new member types /play game:solo and the level field offered easy, expert, greedy and
    random, each then refused (no computer plays a solitaire); it offers nothing there now,
    and a game against the computer still offers its levels."""
    offered = await driver.autocomplete("play", "level", "", {"game": game})
    assert offered.choices == []
    offered = await driver.autocomplete("play", "level", "", {"game": "mille"})
    assert [c["value"] for c in offered.choices] == ["easy", "expert", "normal", "random"]


async def test_a_game_no_longer_installed_leaves_the_other_records_readable(
    driver: InteractionDriver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice won a game of a plug-in game (the toy Relay), which the operator has since
    uninstalled, and a game of Mille Bornes. /history answered only "There is no game called
    'relay'", so she saw none of her games; /stats of Mille Bornes said the same, to the whole
    channel; /replay in the channel where Relay was played last said it too, in public. Now
    /history lists the game under its key beside the others, the Mille Bornes card is drawn,
    and /replay says privately why that game cannot be shown, nothing stored."""
    tables = running_bot(driver).tables
    await stacked_mille(driver, channel_id=GAMES_CHANNEL_ID + 1)
    await tables.leave(channel_id=GAMES_CHANNEL_ID + 1, user_id=BOB_ID)
    relay = [
        SeatRecord(0, "Alice", user_id=ALICE_ID),
        SeatRecord(1, "Bob", user_id=BOB_ID),
        SeatRecord(2, "Carol", user_id=CAROL_ID),
    ]
    started = await tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="relay", seats=relay, seed=1
    )
    for leaver in (BOB_ID, CAROL_ID):
        await tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=leaver)
    monkeypatch.delitem(bot_games_registry._BUNDLES, "relay")
    history = await driver.slash("history", {})
    lines = _private_sentence(history).splitlines()
    assert lines[1].startswith("<t:") and " relay vs Bob, Carol: **won**" in lines[1], lines
    assert " Mille Bornes vs Bob: **won**" in lines[2], lines
    card = await driver.slash("stats", {"game": "mille"})
    assert [a["filename"] for r in card.responses for a in r.attachments] == ["stats.png"]
    before = store_dump(tmp_path)
    replayed = await driver.slash("replay", {})
    assert _private_sentence(replayed) == (
        f"The last game finished here, game #{started.game.id}, is of relay, a game this bot "
        "no longer plays: it cannot be replayed."
    )
    assert store_dump(tmp_path) == before


async def _relay_after_mille(driver: InteractionDriver, *, aborted_between: bool = False) -> int:
    """Alice beats Bob at Mille Bornes in the games channel (Bob leaves), then (after Alice and
    Bob abort a race, ``aborted_between``) wins a game of Relay there, which the operator has
    since uninstalled: the Mille Bornes game's id."""
    tables = running_bot(driver).tables
    mille = await stacked_mille(driver)
    await tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=BOB_ID)
    if aborted_between:
        await _race_aborted(driver)
    relay = [
        SeatRecord(0, "Alice", user_id=ALICE_ID),
        SeatRecord(1, "Bob", user_id=BOB_ID),
        SeatRecord(2, "Carol", user_id=CAROL_ID),
    ]
    await tables.start(
        channel_id=GAMES_CHANNEL_ID, guild_id=GUILD_ID, game_key="relay", seats=relay, seed=1
    )
    for leaver in (BOB_ID, CAROL_ID):
        await tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=leaver)
    return mille.game.id


async def _race_aborted(driver: InteractionDriver) -> int:
    """A race of Alice and Bob in the games channel, which both agree to abort: its id."""
    race = await alice_against(driver, game_key="race", seed=4)
    await driver.slash("abort", {}, user_id=ALICE_ID)
    await driver.slash("abort", {}, user_id=BOB_ID)
    assert await running_bot(driver).store.active_game(GAMES_CHANNEL_ID) is None
    return race.game.id


async def test_replay_passes_over_a_game_no_longer_installed(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The channel's last finished game is of Relay, a plug-in game uninstalled since, and a
    Mille Bornes game finished before it. /replay refused ("… is of relay, a game this bot no
    longer plays: it cannot be replayed.") for as long as that game stayed the channel's last.
    Now it shows the Mille Bornes game, as it would any replay."""
    mille = await _relay_after_mille(driver)
    monkeypatch.delitem(bot_games_registry._BUNDLES, "relay")
    replayed = await driver.slash("replay", {})
    said = f"Replay of game #{mille} (no moves)."
    assert replies(replayed) == said, replies(replayed)
    (gif,) = [a for f in replayed.followups for a in f.attachments]
    assert gif["filename"] == "replay.gif" and not replayed.followups[-1].ephemeral
    assert alt_text_of(replayed, "replay.gif").startswith(said + "\n")


async def test_replay_passing_over_a_game_says_which_game_after_an_abort(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, Alice and Bob having aborted a race since the Relay game: the note says her
    game was aborted, and that the game shown is the last finished one that can be replayed
    (the Relay game finished after it). A race aborted before the Relay game is not her last
    game here, and is not mentioned."""
    mille = await _relay_after_mille(driver)
    race = await _race_aborted(driver)
    monkeypatch.delitem(bot_games_registry._BUNDLES, "relay")
    said = replies(await driver.slash("replay", {}, user_id=ALICE_ID))
    assert said == (
        f"Your game #{race} was aborted, and aborted games are not replayed. Replay of "
        f"game #{mille}, the last game finished here that can be replayed (no moves)."
    ), said


async def test_replay_passing_over_a_game_is_silent_of_an_abort_before_it(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race Alice and Bob aborted before the Relay game is not her last game here: her
    /replay of the Mille Bornes game does not mention it."""
    mille = await _relay_after_mille(driver, aborted_between=True)
    monkeypatch.delitem(bot_games_registry._BUNDLES, "relay")
    said = replies(await driver.slash("replay", {}, user_id=ALICE_ID))
    assert said == f"Replay of game #{mille} (no moves).", said


async def test_history_in_a_direct_message_with_no_games_says_none_anywhere(
    driver: InteractionDriver,
) -> None:
    """Carol, new, asks /history in her direct messages with the bot, where it covers every
    server. It said "carol has no finished games here yet.", as if her games on servers were
    listed elsewhere; /stats and /mygames there say it of every server. Now it reads "carol
    has no finished games yet."; on a server it still says "here"."""
    direct = int(driver.backend.dm_channel_for(CAROL_ID)["id"])
    asked = await driver.slash("history", {}, user_id=CAROL_ID, channel_id=direct)
    assert _private_sentence(asked) == "**Recent games of carol**\ncarol has no finished games yet."
    asked = await driver.slash("history", {}, user_id=CAROL_ID)
    assert replies(asked) == "**Recent games of carol**\ncarol has no finished games here yet."
