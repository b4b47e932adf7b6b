"""Small helpers for cog tests: a two-seat start (a stacked Mille Bornes one among them), find a
component by what it says, the public table message, what an interaction said, the store as SQL,
a computer held in thought, the lobbies' clock moved on and their expiry sweep run by hand, an
answer Discord took and still failed."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest

import cogs.lobby as lobby_cog
from bot.client import JunctionBot
from bot.games import bundle
from bot.games.bundle import ButtonSpec, Picker, PolicyFactory
from bot.store.base import LobbyRecord, SeatRecord, StoredGame
from bot.tables import Tables
from bot.updates import TableUpdate
from cogs.ui import APOLOGY, plain
from tests.cogs.conftest import LoggedErrors, bot_settings, running_bot
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    EPHEMERAL,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    JSON,
    CapturedResponse,
    HTTPError,
    InteractionResult,
    RecordedRequest,
    walk_components,
)
from tests.discord.payloads import InteractionDriver

MILLE_DECK = ["go", "100", "75", "75", "75", "50", *["25"] * 6, *["200", "50", "100", "75"] * 3]
"""Mille Bornes stacked: Alice holds Go, 100, 75, 75, 75, 50, 25; Bob the six 25s and a 200."""

COMPUTER = SeatRecord(1, "Computer", policy="normal")
"""A computer in seat 1, at the normal level (Alice's opponent in ``alice_against``)."""

# Seconds a stored deadline may sit from the test's sum: the seam's clock reads real time
# until a sweep pins it. pytest.approx's own tolerance, a millionth of an epoch second count,
# would let a deadline half an hour off pass.
DEADLINE_SLACK = 1.0


async def store_rigged(
    driver: InteractionDriver, game_key: str, seats: Sequence[SeatRecord], state: Any
) -> StoredGame:
    """``state`` (a game's state, rigged by the test) stored as the games channel's game, at the
    game's standard options."""
    game = bundle(game_key).game
    return await running_bot(driver).tables.store.create_game(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key=game_key,
        seats=seats,
        options=game.resolve_options({}),
        state=game.to_dict(state),
    )


async def alice_against(
    driver: InteractionDriver,
    opponent: SeatRecord | None = None,
    *,
    game_key: str = "mille",
    deck: Sequence[str] | None = None,
    seed: int | None = None,
    options: Mapping[str, str] | None = None,
    channel_id: int = GAMES_CHANNEL_ID,
) -> TableUpdate:
    """Alice (seat 0) against Bob (or ``opponent`` in seat 1) at ``game_key`` in the games
    channel, dealt as ``Tables.start`` deals with ``deck``, ``seed`` and ``options``."""
    return await running_bot(driver).tables.start(
        channel_id=channel_id,
        guild_id=GUILD_ID,
        game_key=game_key,
        seats=[
            SeatRecord(0, "Alice", user_id=ALICE_ID),
            opponent or SeatRecord(1, "Bob", user_id=BOB_ID),
        ],
        deck=deck,
        seed=seed,
        options=options,
    )


async def stacked_mille(
    driver: InteractionDriver,
    opponent: SeatRecord | None = None,
    *,
    channel_id: int = GAMES_CHANNEL_ID,
) -> TableUpdate:
    """Alice against Bob (or ``opponent`` in seat 1) at Mille Bornes on ``MILLE_DECK``, Alice to
    play first."""
    return await alice_against(driver, opponent, deck=MILLE_DECK, channel_id=channel_id)


def _components(source: InteractionResult | CapturedResponse | dict[str, Any]) -> list[Any]:
    if isinstance(source, CapturedResponse):
        return list(walk_components(source.components))
    if isinstance(source, InteractionResult):
        found: list[Any] = []
        if source.original_message is not None:
            found += walk_components(source.original_message.get("components") or [])
        for response in source.responses:
            found += walk_components(response.components)
        return found
    return list(walk_components(source.get("components") or []))


def component_id(source: InteractionResult | CapturedResponse | dict[str, Any], label: str) -> str:
    """The custom id of the (first) button whose label contains ``label``."""
    for component in _components(source):
        if label.lower() in str(component.get("label", "")).lower() and "custom_id" in component:
            return str(component["custom_id"])
    labels = [c.get("label") for c in _components(source)]
    raise AssertionError(f"no button labelled {label!r}; buttons: {labels}")


def labels(source: InteractionResult | CapturedResponse | dict[str, Any]) -> list[str]:
    """Every button label in a message."""
    return [str(c["label"]) for c in _components(source) if "label" in c]


def select_of(source: InteractionResult | CapturedResponse | dict[str, Any]) -> dict[str, Any]:
    """The first select menu in a message."""
    for component in _components(source):
        if component.get("type") == 3:
            return dict(component)
    raise AssertionError("no select menu")


async def buttons_behind(
    driver: InteractionDriver,
    message: JSON | InteractionResult | int | None,
    chain: Sequence[str],
    *,
    user_id: int | None = None,
) -> list[dict[str, Any]]:
    """Every move button a target picker leads to, pressed through the fake Discord: ``chain``
    is the picker's custom id on ``message`` (then the groups inside it to press in turn). A
    group inside a group turns the private message into its own choice, so each one is reached
    by opening the picker afresh."""
    opened = await driver.click(message, chain[0], user_id=user_id)
    for custom_id in chain[1:]:
        opened = await driver.click(opened, custom_id, user_id=user_id)
    assert opened.message is not None, opened.content
    found: list[dict[str, Any]] = []
    for component in walk_components(opened.message.get("components") or []):
        custom_id = str(component.get("custom_id", ""))
        if custom_id.startswith("jn:g:"):
            found += await buttons_behind(driver, message, [*chain, custom_id], user_id=user_id)
        elif custom_id.startswith("jn:p:"):
            found.append(dict(component))
    return found


def public_table(result: InteractionResult) -> CapturedResponse:
    """The (last) public table message an interaction posted."""
    tables = [
        f for f in result.followups if any(a["filename"] == "table.png" for a in f.attachments)
    ]
    assert tables, "a table image was posted"
    assert not tables[-1].ephemeral
    return tables[-1]


async def sweep_after(driver: InteractionDriver, seconds: float) -> None:
    """Move the seam's clock on by ``seconds`` and run one timer sweep (the sweep's loop needs a
    gateway login, so it is run by hand)."""
    bot = running_bot(driver)
    later = bot.tables.clock() + seconds
    bot.tables.clock = lambda: later
    cog = bot.get_cog("Timers")
    assert cog is not None
    await type(cog).sweeper.coro(cog)  # type: ignore[attr-defined]


async def sweep_at(driver: InteractionDriver, when: float) -> None:
    """Set the seam's clock to ``when`` and run one timer sweep. A restarted bot's first sweep
    gives the deadlines the time since the first bot's last sweep: one back at once sweeps at
    the first bot's time (``bot.tables.clock()`` before ``restarted``)."""
    bot = running_bot(driver)
    bot.tables.clock = lambda: when
    cog = bot.get_cog("Timers")
    assert cog is not None
    await type(cog).sweeper.coro(cog)  # type: ignore[attr-defined]


def lobby_later(seconds: float) -> None:
    """Move the lobbies' clock (``cogs.lobby.clock``) on by ``seconds``; the cog conftest puts it
    back after each test."""
    now = lobby_cog.clock() + seconds
    lobby_cog.clock = lambda: now


async def lobby_sweep(driver: InteractionDriver, *, timers_first: bool = True) -> None:
    """Run one pass of the Timers cog's lobby expiry loop, as it does every few seconds (the
    loop needs a gateway login, so it is run by hand). It expires only the lobbies of shards
    whose timers run, as a running bot's first timer sweep has them within seconds of its
    start: a bot that has not swept its timers yet sweeps them once first, at the timers'
    clock, unless ``timers_first`` is False (the lobby sweep then meets a bot just started)."""
    cog = running_bot(driver).get_cog("Timers")
    assert cog is not None
    if timers_first and not cog.live:  # type: ignore[attr-defined]
        await type(cog).sweeper.coro(cog)  # type: ignore[attr-defined]
    await type(cog).lobby_sweeper.coro(cog)  # type: ignore[attr-defined]


async def challenge_mille(driver: InteractionDriver, member: int = BOB_ID) -> tuple[JSON, int]:
    """Alice invites ``member`` to Mille Bornes: the invitation's message and its lobby id."""
    result = await driver.slash("challenge", {"game": "mille", "member": member})
    assert result.message is not None and not result.ephemeral, replies(result)
    return result.message, int(component_id(result, "Accept").split(":")[2])


def shown_message(driver: InteractionDriver, message: JSON) -> JSON:
    """The message as it stands now in the fake Discord."""
    return driver.backend.messages[int(message["id"])]


async def stored_lobby(driver: InteractionDriver, lobby_id: int) -> LobbyRecord:
    """The lobby as the bot's store holds it now."""
    lobby = await running_bot(driver).tables.store.get_lobby(lobby_id)
    assert lobby is not None
    return lobby


def alt_text_of(result: InteractionResult, name: str) -> str:
    """The description of the image ``name`` an interaction posted (what a screen reader says
    in its place)."""
    for response in result.followups:
        for attachment in response.attachments:
            if attachment["filename"] == name:
                return str(attachment.get("description") or "")
    raise AssertionError(f"no {name} was posted")


@contextlib.asynccontextmanager
async def restarted(driver: InteractionDriver, tmp_path: Path) -> AsyncIterator[InteractionDriver]:
    """A new bot process on the same database and the same (fake) Discord: the first bot is
    closed where it stands, and a fresh ``JunctionBot`` opens ``tmp_path``'s database."""
    await driver.close()
    bot = JunctionBot(bot_settings(tmp_path))
    try:
        async with InteractionDriver(
            bot, backend=driver.backend, run_setup_hook=True, timeout=60.0
        ) as again:
            yield again
    finally:
        await bot.close()


def private_on_discord(result: InteractionResult) -> bool:
    """Whether Discord shows the interaction's first answer to the member alone.

    A deferral ("Junction is thinking…") decides it: the first follow-up after a deferral
    replaces the placeholder, and Discord ignores that follow-up's own ephemeral flag (it keeps
    the deferral's visibility; discord/discord-api-docs#2860, "intended behaviour"). The local
    fake applies the follow-up's flag instead, so ``result.ephemeral`` looks private there while
    the real channel sees the message: read the callback itself.
    """
    callback = result.callback
    assert callback is not None, "the interaction was answered"
    return bool(callback.flags & EPHEMERAL)


def store_dump(tmp_path: Path) -> list[str]:
    """Every row the test bot's SQLite store holds, as SQL (the file ``bot_settings`` names):
    taken before and after a refusal, it shows that nothing stored changed."""
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.db")) as connection:
        return list(connection.iterdump())


def replies(result: InteractionResult) -> str:
    """Everything the interaction said in words (callback, follow-ups, edits)."""
    return " | ".join(r.content or "" for r in result.responses if r.content)


@dataclass(frozen=True)
class BeforeRefusal:
    """What a refusal must leave as it was: the store, as SQL, and the games channel's count
    of messages."""

    stored: list[str]
    posted: int


def before_a_refusal(
    driver: InteractionDriver, tmp_path: Path, errors: LoggedErrors
) -> BeforeRefusal:
    """The store and the channel as a request to be refused finds them; ``errors`` emptied."""
    errors.seen.clear()
    return BeforeRefusal(
        store_dump(tmp_path), len(driver.backend.channel_messages(GAMES_CHANNEL_ID))
    )


def refusal_problems(
    driver: InteractionDriver,
    tmp_path: Path,
    errors: LoggedErrors,
    result: InteractionResult,
    before: BeforeRefusal,
    saying: str | None = None,
) -> str | None:
    """What is wrong with ``result`` as a refusal (None: one private answer in words, not an
    apology, ``saying`` where given, nothing stored, posted or logged at ERROR since
    ``before``)."""
    said = replies(result)
    answered = result.callback is not None
    wrong = [
        "" if answered else "no answer",
        "not private" if answered and not private_on_discord(result) else "",
        "more than one answer" if len(result.responses) > 1 else "",
        "an apology" if APOLOGY in said else "",
        "no words" if answered and not said.strip() else "",
        "the store changed" if store_dump(tmp_path) != before.stored else "",
        "posted" if len(driver.backend.channel_messages(GAMES_CHANNEL_ID)) != before.posted else "",
        f"logged {errors.seen[:1]}" if errors.seen else "",
    ]
    problems = [w for w in wrong if w]
    if problems:
        return f"{'; '.join(problems)} ({said[:100]!r})"
    return f"said {said[:100]!r}" if saying is not None and said != plain(saying) else None


def held_thinking(tables: Tables) -> tuple[asyncio.Event, asyncio.Event]:
    """Make ``tables``' computers think until released: (thinking, release)."""
    original = tables.thinker
    thinking, release = asyncio.Event(), asyncio.Event()

    async def slow(factory: PolicyFactory, view: Any, seed: str) -> str:
        thinking.set()
        await release.wait()
        return await original(factory, view, seed)

    tables.thinker = slow
    return thinking, release


def is_answered(driver: InteractionDriver, payload: dict[str, Any]) -> bool:
    """Whether the bot has answered the interaction ``payload`` at all yet."""
    token = str(payload["token"])
    return any(token in request.path for request in driver.backend.requests)


async def hand_press(driver: InteractionDriver, game_id: int, label: str) -> JSON:
    """The payload of Alice pressing ``label`` in her hand, opened under a fresh /table (built,
    not sent: a test may make Discord fail its answers first)."""
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    assert hand.message is not None
    return driver.factory.component(hand.message, component_id(hand, label))


async def play_first_offered(driver: InteractionDriver, user_id: int) -> InteractionResult:
    """The member plays, by a typed /move, the first move their hand offers (their opening
    tickets, a turn of their own)."""
    tables = running_bot(driver).tables
    _, moves = tables.hand(await tables.current(GAMES_CHANNEL_ID), user_id)
    return await driver.slash("move", {"action": moves[0].notation}, user_id=user_id)


async def solo_table(driver: InteractionDriver) -> tuple[StoredGame, list[Picker]]:
    """Alice's /play of Mille Bornes Solo: the game and what its table offers, in order."""
    await driver.slash("play", {"game": "solo"})
    tables = running_bot(driver).tables
    stored = await tables.current(GAMES_CHANNEL_ID)
    here = tables.position(stored)
    return stored, bundle("solo").presenter.table_pickers(here.game.public_view(here.state))


async def typed_as_it_reads(
    driver: InteractionDriver, game: StoredGame, button: ButtonSpec
) -> None:
    """The button's words typed into /move are its move: played in public, the game's one move
    stored as the button's notation."""
    played = await driver.slash("move", {"action": button.label})
    assert not played.ephemeral, replies(played)
    (move,) = await running_bot(driver).tables.store.moves(game.id)
    assert move.action == button.notation, (move.action, button)


async def current_game(driver: InteractionDriver) -> StoredGame:
    """The games channel's game, as stored now."""
    return await running_bot(driver).tables.current(GAMES_CHANNEL_ID)


def public_messages(driver: InteractionDriver) -> list[JSON]:
    """Every message in the fake Discord that is not ephemeral, in any channel."""
    return [m for m in driver.messages.values() if not int(m.get("flags") or 0) & EPHEMERAL]


def every_word_posted(driver: InteractionDriver) -> str:
    """The words of every message in the fake Discord, public and private."""
    return " | ".join(str(m.get("content") or "") for m in driver.messages.values())


async def played_to_the_end(driver: InteractionDriver, user_id: int, most: int) -> None:
    """The member plays the first move their hand offers (``play_first_offered``), move after
    move, until the games channel's game ends: it has ended within ``most`` moves."""
    store = running_bot(driver).tables.store
    for _ in range(most):
        if await store.active_game(GAMES_CHANNEL_ID) is None:
            break
        await play_first_offered(driver, user_id)
    assert await store.active_game(GAMES_CHANNEL_ID) is None, f"still played after {most} moves"


async def hand_header(driver: InteractionDriver, game_id: int, user_id: int) -> str:
    """What the member's hand says when opened under a fresh /table (only to them)."""
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}", user_id=user_id)
    assert hand.ephemeral, replies(hand)
    return replies(hand)


ELSEWHERE_CHANNEL_ID = GAMES_CHANNEL_ID + 50
"""A games channel on another server (``a_game_elsewhere``)."""


async def a_game_elsewhere(
    driver: InteractionDriver,
    winner: int,
    winner_name: str,
    loser: int = BOB_ID,
    loser_name: str = "Bob Secret Nick",
) -> TableUpdate:
    """``winner`` (seated as ``winner_name`` there) beats ``loser`` (as ``loser_name``, Bob by
    a nickname of that server unless told) at Mille Bornes on another server, ``loser`` leaving
    the game; the game as it started."""
    tables = running_bot(driver).tables
    started = await tables.start(
        channel_id=ELSEWHERE_CHANNEL_ID,
        guild_id=GUILD_ID + 99,
        game_key="mille",
        seats=[
            SeatRecord(0, winner_name, user_id=winner),
            SeatRecord(1, loser_name, user_id=loser),
        ],
    )
    await tables.leave(channel_id=ELSEWHERE_CHANNEL_ID, user_id=loser)
    return started


async def board_after_a_game_elsewhere(
    driver: InteractionDriver, winner: int, winner_name: str
) -> str:
    """``winner`` (seated as ``winner_name`` there) beats Bob ("Bob Secret Nick") on another
    server; the alt text of the board across servers, asked for on this server."""
    await a_game_elsewhere(driver, winner, winner_name)
    board = await driver.slash("leaderboard", {"game": "mille", "scope": "global"})
    return alt_text_of(board, "leaderboard.png")


ANSWER = r"/interactions/\d+/[^/]+/callback"
"""The path of an interaction's answer (its callback)."""


async def dispatched_past_a_server_error(
    driver: InteractionDriver,
    payload: JSON,
    path: str = ANSWER,
    *,
    method: str = "POST",
    skip: int = 0,
    status: int = 500,
) -> InteractionResult:
    """``payload`` dispatched through discord.py's own webhook adapter, Discord performing the
    first ``method`` ``path`` request after ``skip`` of them and still answering it ``status``
    (by default the interaction's answer, replied 500): the second try is the library's."""
    driver.backend.fail_after(method, path, skip=skip, status=status)
    with driver.library_webhooks():
        return await driver.dispatch(payload)


def follow_up_refused_once(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch, only: str | None = None
) -> list[str]:
    """Discord answers 500 to the first follow-up (an execution of an interaction's webhook:
    the one of token ``only``, or any) without posting it: the token it was refused for, once
    it was."""
    serve = driver.backend._execute_webhook
    refused: list[str] = []

    # The backend passes the path's parts by name: ``token`` must keep its name.
    def execute(record: RecordedRequest, application_id: str, token: str) -> tuple[int, Any]:
        if (only is None or token == only) and not refused:
            refused.append(token)
            raise HTTPError(500, "Internal Server Error", 0)
        return serve(record, application_id, token)

    monkeypatch.setattr(driver.backend, "_execute_webhook", execute)
    return refused


def channel_posts(driver: InteractionDriver, filename: str, words: str = "") -> list[JSON]:
    """The public messages in the games channel with image ``filename`` and ``words``, oldest
    first."""
    return [
        m
        for m in driver.messages.values()
        if int(m.get("channel_id") or 0) == GAMES_CHANNEL_ID
        and not int(m.get("flags") or 0) & discord.MessageFlags.ephemeral.flag
        and any(a.get("filename") == filename for a in m.get("attachments") or [])
        and words in str(m.get("content"))
    ]


def bot_lines_with(text: str, *, except_in: str) -> list[str]:
    """Where ``text`` stands in the bot's own code (bot/, cogs/), as "path:line", but in
    ``except_in`` (a path from the repository's root): the one place a call may be made."""
    repo = Path(__file__).resolve().parents[2]
    return [
        f"{path.relative_to(repo)}:{number}"
        for folder in ("bot", "cogs")
        for path in sorted((repo / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if text in line and path != repo / except_in
    ]


def left_thinking(driver: InteractionDriver) -> list[int]:
    """The messages still showing Discord's "thinking…" placeholder."""
    thinking = discord.MessageFlags.loading.flag
    return [int(m["id"]) for m in driver.messages.values() if int(m.get("flags") or 0) & thinking]


def answered_before(driver: InteractionDriver, since: int, method: str, path: str) -> list[str]:
    """The order of the answers ("answer") and of the other calls (``method`` ``path``, "call")
    the bot made since request number ``since``: Discord's three seconds hold for the answer,
    while another call may wait on a rate limit."""
    return [
        "answer" if r.matches("POST", ANSWER) else "call"
        for r in driver.requests[since:]
        if r.matches("POST", ANSWER) or r.matches(method, path)
    ]
