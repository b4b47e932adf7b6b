"""A hostile member and a careless admin, second review round: what the first round left out.

History and result commands (/replay, /leaderboard, /stats, /history), /settings, /challenge
lobbies, /table without a game, commands in DMs. Each test drives the real cogs through the
fake Discord and holds a fix for what the review found; its docstring says what should happen
and what happened before the fix.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from bot.boards import ELSEWHERE
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    alice_against,
    alt_text_of,
    board_after_a_game_elsewhere,
    component_id,
    private_on_discord,
    public_table,
    replies,
    stacked_mille,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
)
from tests.discord.payloads import InteractionDriver

# --- refusals that Discord shows to the whole channel --------------------------------------------


@pytest.mark.parametrize(
    ("command", "options", "refusal"),
    [
        ("table", {}, "no game running"),
        ("replay", {}, "No game has finished"),
        ("stats", {"game": "chess"}, "There is no game called"),
    ],
)
async def test_refusals_after_a_public_deferral_are_private(
    driver: InteractionDriver, command: str, options: dict[str, Any], refusal: str
) -> None:
    """/table in a channel without a game, /replay where nothing has finished, /stats for a game
    that does not exist: each refusal must be an ephemeral sentence for the member alone.
    Before the fix, the command first defers publicly (``defer(thinking=True)``) and only then finds
    there is nothing to show, so the refusal is the first follow-up: on Discord it replaces the
    public "thinking" message and the whole channel reads "There is no game running in this
    channel" (or "No game has finished…", "There is no game called 'chess'…"). The existing test
    ``test_replay_without_a_finished_game_is_refused`` passes only because the fake honours the
    follow-up's ephemeral flag, which Discord ignores after a deferral."""
    result = await driver.slash(command, options)
    assert refusal in replies(result), replies(result)
    assert private_on_discord(result), f"/{command}'s refusal is posted to the whole channel"


# --- /stats disagrees with /leaderboard ----------------------------------------------------------


async def _duel(driver: InteractionDriver, winner: int, loser: int) -> None:
    """A finished, rated Mille Bornes game between two members: the loser resigns."""
    names = {ALICE_ID: "alice", BOB_ID: "bob", CAROL_ID: "carol"}
    tables = running_bot(driver).tables
    await tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="mille",
        seats=[
            SeatRecord(0, names[winner], user_id=winner),
            SeatRecord(1, names[loser], user_id=loser),
        ],
        seed=1,
    )
    await tables.leave(channel_id=GAMES_CHANNEL_ID, user_id=loser)


async def test_stats_rank_and_rating_match_the_leaderboard(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob beats Carol five times, then beats Alice once. /leaderboard mille ranks three players:
    Bob, Alice, Carol. Alice's /stats card must show the same rating and the same place ("2 of
    3"). Before the fix, /stats computes the ladder from Alice's own games only (the store is
    asked for ``user_id=Alice``), so Carol does not exist on it and Bob's five wins never
    happened: the card says "rank 2 of 2" with a rating the leaderboard does not show."""
    from bot.render.leaderboard import leaderboard_png as real_board
    from bot.render.stats import stats_png as real_stats

    for _ in range(5):
        await _duel(driver, BOB_ID, CAROL_ID)
    await _duel(driver, BOB_ID, ALICE_ID)
    results = await running_bot(driver).store.results(guild_id=GUILD_ID)
    assert len(results) == 6 and all(r.record.counted for r in results)

    seen: dict[str, Any] = {}

    def board_png(title: str, rows: Any, caller_row: Any, *rest: Any) -> bytes:
        seen["rows"] = rows
        return real_board(title, rows, caller_row, *rest)

    def stats_png(card: Any) -> bytes:
        seen["card"] = card
        return real_stats(card)

    monkeypatch.setattr(sys.modules["cogs.leaderboard"], "leaderboard_png", board_png)
    monkeypatch.setattr(sys.modules["cogs.leaderboard"], "stats_png", stats_png)
    await driver.slash("leaderboard", {"game": "mille"})
    await driver.slash("stats", {"game": "mille"})
    rows, card = seen["rows"], seen["card"]
    alice = next(row for row in rows if row.name == "alice")
    assert (card.rank, card.ranked_players, card.rating) == (alice.rank, len(rows), alice.value), (
        f"/stats says rank {card.rank} of {card.ranked_players}, rating {card.rating}; "
        f"/leaderboard says rank {alice.rank} of {len(rows)}, rating {alice.value}"
    )


# --- /resign keeps Discord waiting on the computers ----------------------------------------------


async def test_resign_answers_discord_before_the_computers_think(
    driver: InteractionDriver,
) -> None:
    """Alice resigns from a three-seat Dragon game with a computer to play next. Like /move ("a
    member's move is acknowledged to Discord as soon as it is stored, before the computers answer
    it, so a search never eats into Discord's three seconds"), /resign must answer Discord before
    any computer thinks. Before the fix, ``/resign`` calls ``Tables.leave`` — which lets every
    computer that is due play its whole turn (an expert searches ~300 ms per move, and when no
    member is left the computers play the game out) — and only then defers, so a resignation
    against expert computers runs past Discord's three seconds ("This interaction failed", and
    the deferral itself is refused as an unknown interaction)."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[
            SeatRecord(0, "Alice", user_id=ALICE_ID),
            SeatRecord(1, "Computer", policy="normal"),
            SeatRecord(2, "Bob", user_id=BOB_ID),
        ],
        seed=1,
    )
    here = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID))
    assert 0 in here.acting, "Alice resigns on her own turn"
    before = len(driver.requests)
    thought: list[bool] = []
    real_think = bot.tables.thinker

    async def watching(factory: Any, view: Any, seed: str) -> str:
        answered = any("/callback" in r.path for r in driver.requests[before:])
        thought.append(answered)
        return await real_think(factory, view, seed)

    bot.tables.thinker = watching
    result = await driver.slash("resign", {})
    public_table(result)
    assert thought, "the computer played after Alice left"
    assert all(thought), f"{thought.count(False)} computer move(s) thought before Discord's answer"


# --- lobbies -------------------------------------------------------------------------------------


async def test_a_thread_challenge_sent_inside_a_thread_can_start(
    driver: InteractionDriver,
) -> None:
    """In a game thread (its game over), Alice sends /challenge mille member:Bob thread:true and
    Bob accepts. A thread cannot hold a thread; /play thread:true there simply plays in the
    thread. The challenge, like /play, plays in this thread. Before the fix, the lobby is posted,
    and every Accept and Start is refused with "I could not create a thread here (is the Create
    Public Threads permission missing?)" — wrong (the permission is there) and for ever: the
    lobby can only be cancelled."""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "solo", "thread": True})
    (game,) = await bot.store.active_games()
    thread_id = game.channel_id
    await driver.slash("abort", {}, channel_id=thread_id)
    invite = await driver.slash(
        "challenge", {"game": "mille", "member": BOB_ID, "thread": True}, channel_id=thread_id
    )
    assert not invite.ephemeral, replies(invite)
    accepted = await driver.click(invite, component_id(invite, "Accept"), user_id=BOB_ID)
    assert "permission" not in replies(accepted), replies(accepted)
    (started,) = await bot.store.active_games()
    assert started.game_key == "mille" and started.channel_id == thread_id


# --- results from outside Discord ---------------------------------------------------------------


async def test_console_games_stay_off_the_discord_leaderboards(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The README: the console "saves the game in the same embedded SQLite database
    (junction.db)" the bot uses. A game played there — by whoever has a shell, with any seed or
    a stacked ``--deck`` — is not a game between Discord members and must not rank on the bot's
    boards. Before the fix, its result is stored like any other (member id 1, the login name) and
    ``/leaderboard game:solo scope:all servers`` lists the console player among the members."""
    import io

    from bot.console import ConsoleOptions, run_console
    from bot.render.leaderboard import leaderboard_png as real_board

    monkeypatch.setenv("JUNCTION_PLAYER", "Shell")
    bot = running_bot(driver)
    options = ConsoleOptions(
        db=bot.settings.db_url, out=tmp_path / "tables", game="solo", seed=1, images=False
    )
    await run_console(options, lines=io.StringIO("resign\n"), out=io.StringIO())
    seen: dict[str, Any] = {}

    def board_png(title: str, rows: Any, *rest: Any) -> bytes:
        seen["rows"] = rows
        return real_board(title, rows, *rest)

    monkeypatch.setattr(sys.modules["cogs.leaderboard"], "leaderboard_png", board_png)
    await driver.slash("leaderboard", {"game": "solo", "scope": "global"})
    names = [row.name for row in seen["rows"]]
    assert "Shell" not in names, f"the global solo board lists the console player: {names}"


# --- pings ---------------------------------------------------------------------------------------


async def test_a_bystander_cannot_ping_the_players_with_table(driver: InteractionDriver) -> None:
    """Alice and Bob play; Carol, who is not in the game, sends /table over and over. Reposting
    the table for a bystander must not ping the players (their turn was announced when it came).
    Before the fix, every /table is sent with ``allowed_mentions`` naming the member to act, so
    Carol can ping Alice as often as she likes — a harassment tool the channel cannot take away
    without taking /table away. (A repeat of an unchanged table within 30 s is only pointed at
    privately: ``test_moderator_review.test_table_cannot_flood_a_channel``.)"""
    await alice_against(driver, seed=1)
    table = public_table(await driver.slash("table", {}, user_id=CAROL_ID))
    body = table.body.get("data", table.body)
    allowed = body.get("allowed_mentions")
    # Without allowed_mentions Discord pings every member the text mentions.
    assert allowed is not None, "Carol's /table is sent without allowed_mentions"
    pinged = [str(u) for u in allowed.get("users") or []]
    if "users" in (allowed.get("parse") or []):
        pinged.append("every user mentioned")
    assert not pinged, f"Carol's /table pings {pinged}"


# --- /move typed in compatibility forms ----------------------------------------------------------


async def test_a_move_typed_in_full_width_is_played_and_suggested(
    driver: InteractionDriver,
) -> None:
    """A member typing /move 'ＰＬＡＹ ＧＯ' with a zero-width space pasted after it (a
    full-width keyboard, a chat's copy) plays Go, and typing 'ＧＯ' lists Play Go among the
    suggestions. Before the fix the move was refused ("I don't understand 'ＰＬＡＹ ＧＯ'")
    and the suggestions were empty; text that reading makes longer than a move can be is
    refused privately, and nothing is stored."""
    game = (await stacked_mille(driver)).game
    offered = await driver.autocomplete("move", "action", "ＧＯ")
    assert {"name": "Play Go", "value": f"play go§{game.id}:0"} in offered.choices, offered.choices
    tables = running_bot(driver).tables
    refused = await driver.slash("move", {"action": "play \ufdfa" * 20})
    assert refused.ephemeral and "far too long" in replies(refused), replies(refused)
    assert (await tables.current(GAMES_CHANNEL_ID)).version == 0
    result = await driver.slash("move", {"action": "ＰＬＡＹ\u3000ＧＯ\u200b"})
    public_table(result)
    stored = await tables.current(GAMES_CHANNEL_ID)
    assert [m.action for m in await tables.store.moves(stored.id)] == ["play go"]


@pytest.mark.parametrize(
    "typed", ["ｍｉｌｌｅ", "mil\u200ble", "ＭＩＬＬＥ\u00a0", "Ｍｉｌｌｅ\u3000Ｂｏｒｎｅｓ"]
)
async def test_a_game_named_in_full_width_is_found_as_a_move_would_be(
    driver: InteractionDriver, typed: str
) -> None:
    """The game field read as /move reads a move (``typed_move``: NFKC, zero-width characters
    dropped): "ｍｉｌｌｅ" typed on a full-width keyboard, or "mille" with a zero-width space
    pasted in, was "There is no game called 'ｍｉｌｌｅ'" from /rules, /play and the others,
    and its field suggested nothing, while 'ＰＬＡＹ ＧＯ' was a move. Now /rules gives the
    rules of Mille Bornes, the field suggests it, and /play deals it."""
    rules = await driver.slash("rules", {"game": typed})
    assert rules.ephemeral and replies(rules).startswith("**Mille Bornes**"), replies(rules)
    offered = await driver.autocomplete("rules", "game", typed[:3])
    assert "mille" in [c["value"] for c in offered.choices], offered.choices
    played = await driver.slash("play", {"game": typed})
    assert (await running_bot(driver).tables.current(GAMES_CHANNEL_ID)).game_key == "mille"
    public_table(played)


async def test_a_level_named_in_full_width_is_found_as_a_move_would_be(
    driver: InteractionDriver,
) -> None:
    """The level field read as the game field is: /play game:mille level:"ＥＸＰＥＲＴ" with a
    zero-width space pasted in was "There is no computer player called 'ｅｘｐｅｒｔ'", and
    the field suggested nothing for "ＥＸＰ"; now the expert deals, and is suggested."""
    offered = await driver.autocomplete("play", "level", "ＥＸＰ", {"game": "mille"})
    assert [c["value"] for c in offered.choices] == ["expert"], offered.choices
    played = await driver.slash("play", {"game": "mille", "level": "ＥＸＰＥＲＴ\u200b"})
    public_table(played)
    game = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert [seat.policy for seat in game.seats] == [None, "expert"]


async def test_the_board_across_servers_shows_no_other_servers_nicknames(
    driver: InteractionDriver,
) -> None:
    """Carol and Bob played on another server under nicknames of that server. On this server,
    the board across servers named them by those nicknames, which only that server's members
    may read; it now names them by their Discord accounts' public names."""
    alt = await board_after_a_game_elsewhere(driver, CAROL_ID, "Carol Secret Nick")
    assert "Secret Nick" not in alt
    assert "carol" in alt and "bob" in alt, alt


async def test_a_member_discord_cannot_name_is_a_player_on_another_server(
    driver: InteractionDriver,
) -> None:
    """A member of another server whose account Discord does not know any more (deleted) is
    named neither by their nickname there nor by their id."""
    gone = 4_242_424_242
    alt = await board_after_a_game_elsewhere(driver, gone, "Gone Secret Nick")
    assert ELSEWHERE in alt and "Secret Nick" not in alt and str(gone) not in alt


async def test_an_account_name_discord_was_asked_for_is_asked_once_an_hour(
    driver: InteractionDriver,
) -> None:
    """The board across servers names the same members each time it is asked for: an account
    Discord had to be asked about is asked about once, not at every /leaderboard."""
    gone = 4_242_424_242
    await board_after_a_game_elsewhere(driver, gone, "Gone Secret Nick")
    again = await driver.slash("leaderboard", {"game": "mille", "scope": "global"})
    assert ELSEWHERE in alt_text_of(again, "leaderboard.png")
    asked = [r for r in driver.backend.requests if r.matches("GET", rf"/users/{gone}")]
    assert len(asked) == 1


# --- forged choices ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "told"),
    [
        ({"period": "fortnight"}, "Period: choose one of 'all time', 'last 30 days'"),
        ({"scope": "galaxy"}, "Scope: choose one of 'this server', 'all servers'."),
    ],
)
async def test_a_forged_leaderboard_choice_is_refused_in_a_sentence(
    driver: InteractionDriver, options: dict[str, str], told: str
) -> None:
    """/leaderboard's scope and period come from lists Discord offers; a request made by hand
    may send another value. It is refused in a sentence naming the choices, only to the member.
    Before the fix a made-up period answered "Something went wrong" and a made-up scope was
    taken for all servers."""
    result = await driver.slash("leaderboard", {"game": "mille", **options})
    assert private_on_discord(result) and told in replies(result), replies(result)
