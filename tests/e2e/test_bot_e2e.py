"""The real bot process against the local fake Discord: a challenge played, a crash, old buttons.

One scenario, start to end, through real HTTP and a real gateway websocket: Alice challenges Bob,
Bob accepts, the two play moves by the ephemeral "My hand" buttons and by ``/move`` with a value
from its autocomplete; then the bot process is SIGKILLed and started again on the same database,
and buttons on messages from before the crash must still work (a stale one gets a clear
ephemeral sentence). Throughout, hands only ever travel ephemerally and no public message names
a card that is hidden in a hand.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable
from pathlib import Path

from bot.engine.mille.cards import ENGLISH_NAMES, Card
from bot.games import get_game
from bot.store.base import StoredGame
from bot.store.sqlite import SqliteStore
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    EPHEMERAL,
    GAMES_CHANNEL_ID,
    JSON,
    CallbackType,
    CapturedResponse,
    InteractionResult,
)
from tests.discord.fake_discord import FakeDiscord
from tests.e2e.harness import TOKEN, BotProcess

# These catch a bot that hangs; they do not measure speed (``junction bench`` does). They are
# generous because a loaded CI machine once took over 10 s to answer one interaction.
SCENARIO_TIMEOUT = 90.0  # seconds for the whole scenario; it takes about ten
REPLY_TIMEOUT = 25.0  # seconds for the bot to answer one interaction
MOVES_BEFORE_RESTART = 6
TURN = re.compile(r"((?:<@\d+>\s*)+), your turn")
MOVE_ID = re.compile(r"jn:p:(?P<game>\d+):(?P<version>\d+):(?P<where>[th]):(?P<picker>\d+)")
MILLE = get_game("mille")


def _filenames(response: CapturedResponse) -> list[str]:
    return [str(a["filename"]) for a in response.attachments]


def _next_player(content: str) -> int:
    """The member the table message says plays next (exactly one in a two-member game)."""
    found = TURN.search(content)
    assert found, f"the table names who plays next: {content!r}"
    (user_id,) = re.findall(r"<@(\d+)>", found.group(1))
    return int(user_id)


def _move_ids(message: JSON | None) -> list[str]:
    """The move buttons' custom ids on a stored message."""
    assert message is not None
    return [
        c["custom_id"]
        for row in message.get("components") or []
        for c in row.get("components") or []
        if MOVE_ID.fullmatch(str(c.get("custom_id", "")))
    ]


def _not_a_masked_draw(message: JSON) -> list[str]:
    """The move buttons, without "Draw" when another move (a coup fourré) is offered with it."""
    buttons = [
        c
        for row in message.get("components") or []
        for c in row.get("components") or []
        if MOVE_ID.fullmatch(str(c.get("custom_id", "")))
    ]
    others = [c for c in buttons if c.get("label") != "Draw"]
    return [str(c["custom_id"]) for c in (others or buttons)]


def _button(custom_id: str) -> re.Match[str]:
    found = MOVE_ID.fullmatch(custom_id)
    assert found, custom_id
    return found


def _prefer_plays(moves: list[str]) -> list[str]:
    """Playing cards (rather than discarding) makes the captions name cards: a sharper check."""
    plays = [m for m in moves if "play" in m]
    return plays or moves


def _hidden_card_names(*games: StoredGame) -> set[str]:
    """Names of cards that sit in a hand and are nowhere on the table in these positions."""
    held: set[Card] = set()
    shown: set[Card] = set()
    for stored in games:
        state = MILLE.from_dict(stored.state)
        public = MILLE.public_view(state)
        shown.update(public.discard)
        for tableau in public.tableaus:
            for pile in (
                tableau.battle_pile,
                tableau.speed_pile,
                tableau.safeties,
                tableau.coups,
                tableau.miles,
            ):
                shown.update(pile)
            held.update(MILLE.private_view(state, tableau.seat).hand)
    return {ENGLISH_NAMES[card] for card in held - shown}


class Scenario:
    """The fake, the bot process and a reader of the bot's database, plus what was seen."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess, store: SqliteStore) -> None:
        self.fake = fake
        self.bot = bot
        self.store = store
        self.rng = random.Random(20240607)
        self.results: list[InteractionResult] = []
        self.public_tables: list[CapturedResponse] = []

    async def game(self) -> StoredGame:
        """The game in #games as the bot stored it (read from its SQLite file)."""
        stored = await self.store.active_game(GAMES_CHANNEL_ID)
        assert stored is not None, "a game is running in #games"
        return stored

    async def answer(
        self, sent: Awaitable[int], *, followups: int = 0, edits: int = 0
    ) -> InteractionResult:
        """Send an interaction and wait for the bot's callback (and follow-ups, edits)."""
        interaction_id = await sent
        try:
            result = await self.fake.wait_for_response(
                interaction_id, timeout=REPLY_TIMEOUT, followups=followups, edits=edits
            )
        except TimeoutError as exc:
            raise AssertionError(f"{exc}\nbot log:\n{self.bot.log_tail()}") from None
        self.results.append(result)
        return result

    def table_of(self, result: InteractionResult) -> CapturedResponse:
        """The one public table image an interaction posted."""
        tables = [r for r in result.responses if "table.png" in _filenames(r)]
        assert len(tables) == 1, f"one table image per interaction, got {len(tables)}"
        table = tables[0]
        assert not table.ephemeral, "the table is public"
        assert table.file("table.png")[:8] == b"\x89PNG\r\n\x1a\n"
        self.public_tables.append(table)
        return table

    async def check_no_leak(self, table: CapturedResponse, *positions: StoredGame) -> None:
        """No hidden card's name appears in the public table text."""
        content = table.content or ""
        assert "Your hand" not in content
        for name in _hidden_card_names(*positions, await self.game()):
            assert not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", content), (
                f"the public table names {name!r}, a card hidden in a hand: {content!r}"
            )

    async def open_hand(self, table_message_id: int, user_id: int) -> InteractionResult:
        """Press "My hand" on a table message; the hand comes back ephemerally, with buttons."""
        stored = await self.game()
        hand = await self.answer(
            self.fake.send_component(table_message_id, f"jn:h:{stored.id}", user_id=user_id),
            followups=1,
        )
        # The bot answers at once ("thinking", ephemeral), then sends the drawn hand.
        assert hand.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE and hand.ephemeral
        assert hand.followups and "hand.png" in _filenames(hand.followups[0])
        assert (hand.content or "").startswith("Your hand")
        actions = MILLE.legal_actions(MILLE.from_dict(stored.state), self.seat(stored, user_id))
        legal = {MILLE.format_action(a) for a in actions}
        buttons = [_button(c) for c in _move_ids(hand.message)]
        assert len(buttons) == len(legal), "one button per legal move"
        assert {b["version"] for b in buttons} <= {str(stored.version)}
        assert all(len(c) <= 100 for c in _move_ids(hand.message))
        return hand

    async def move_by_hand(self, hand: InteractionResult, user_id: int) -> CapturedResponse:
        """Press one of the hand's move buttons: the table is posted, the hand refreshed."""
        before = await self.game()
        assert hand.message is not None
        # Drawing where a coup fourré was on offer posts no table (the table must not tell the
        # two apart, see play_move): press a card then, so a table always follows.
        button = self.rng.choice(_not_a_masked_draw(hand.message))
        moved = await self.answer(
            self.fake.send_component(int(hand.message["id"]), button, user_id=user_id),
            followups=1,
            edits=1,
        )
        assert moved.callback_type == CallbackType.DEFERRED_UPDATE_MESSAGE
        table = self.table_of(moved)
        (refreshed,) = moved.edits
        assert refreshed.ephemeral and refreshed.message_id == int(hand.message["id"])
        assert "hand.png" in _filenames(refreshed)
        after = await self.game()
        assert after.version == before.version + 1
        await self.check_no_leak(table, before)
        return table

    async def move_by_command(self, user_id: int) -> CapturedResponse:
        """``/move`` with a value its autocomplete offered: the table is posted publicly."""
        before = await self.game()
        offered = await self.answer(
            self.fake.send_autocomplete("move", "action", "", user_id=user_id)
        )
        assert offered.callback_type == CallbackType.AUTOCOMPLETE_RESULT
        choices = offered.choices
        assert 0 < len(choices) <= 25
        legal = MILLE.legal_actions(MILLE.from_dict(before.state), self.seat(before, user_id))
        offered_moves = {str(c["value"]).rpartition("§")[0] for c in choices}
        assert offered_moves <= {MILLE.format_action(a) for a in legal}
        assert all(str(c["value"]).endswith(f"§{before.id}:{before.version}") for c in choices)
        value = self.rng.choice(_prefer_plays([str(c["value"]) for c in choices]))
        moved = await self.answer(
            self.fake.send_slash("move", {"action": value}, user_id=user_id), followups=1
        )
        assert moved.callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE
        table = self.table_of(moved)
        after = await self.game()
        assert after.version == before.version + 1
        await self.check_no_leak(table, before)
        return table

    @staticmethod
    def seat(stored: StoredGame, user_id: int) -> int:
        """The seat a member sits at."""
        return next(s.seat for s in stored.seats if s.user_id == user_id)

    def check_hands_stayed_private(self) -> None:
        """Every response that carries a hand (image or text) is ephemeral."""
        for result in self.results:
            for response in result.responses:
                carries_hand = "hand.png" in _filenames(response) or "Your hand" in (
                    response.content or ""
                )
                if carries_hand:
                    assert response.ephemeral, f"a hand went out publicly: {response.kind}"
        for message in self.fake.messages.values():
            names = [a["filename"] for a in message.get("attachments") or []]
            if "hand.png" in names or "Your hand" in str(message.get("content")):
                assert int(message.get("flags") or 0) & EPHEMERAL, "a stored hand message is public"


async def _play(scenario: Scenario) -> None:
    fake, bot = scenario.fake, scenario.bot

    # Alice challenges Bob in #games; only the challenged member's Accept starts the game.
    challenge = await scenario.answer(
        fake.send_slash("challenge", {"game": "mille", "member": BOB_ID}, user_id=ALICE_ID)
    )
    assert challenge.callback_type == CallbackType.CHANNEL_MESSAGE and not challenge.ephemeral
    assert f"<@{BOB_ID}>" in (challenge.content or "")
    accept = next(c for c in challenge.custom_ids if c.startswith("jn:l:") and c.endswith(":a"))
    assert challenge.message is not None
    accepted = await scenario.answer(
        fake.send_component(int(challenge.message["id"]), accept, user_id=BOB_ID), followups=1
    )
    assert accepted.callback_type == CallbackType.UPDATE_MESSAGE
    assert "game is on" in (accepted.content or "")
    table = scenario.table_of(accepted)
    await scenario.check_no_leak(table)
    first_table_id = table.message_id
    assert first_table_id is not None
    stored = await scenario.game()
    assert [s.user_id for s in stored.seats] == [ALICE_ID, BOB_ID]
    assert f"jn:h:{stored.id}" in table.custom_ids

    # Moves, alternating "My hand" buttons and /move; whoever the table names plays.
    stale_hand: InteractionResult | None = None
    stale_owner = 0
    for turn in range(MOVES_BEFORE_RESTART):
        player = _next_player(table.content or "")
        assert table.message_id is not None
        if turn % 2 == 0:
            hand = await scenario.open_hand(table.message_id, player)
            if stale_hand is None:
                # Keep this hand unused: its buttons go stale once the player moves from another.
                stale_hand, stale_owner = hand, player
                hand = await scenario.open_hand(table.message_id, player)
            table = await scenario.move_by_hand(hand, player)
        else:
            table = await scenario.move_by_command(player)

    # A hand opened before the crash, still current, and the version it was dealt at.
    player = _next_player(table.content or "")
    assert table.message_id is not None
    open_hand = await scenario.open_hand(table.message_id, player)
    version_before_crash = (await scenario.game()).version

    await bot.restart()

    assert (await scenario.game()).version == version_before_crash, "nothing lost in the crash"
    # A move button in the hand from before the restart still plays.
    table = await scenario.move_by_hand(open_hand, player)
    # "My hand" on the very first table message (before the restart) still opens the hand.
    player = _next_player(table.content or "")
    await scenario.open_hand(first_table_id, player)
    # A button from an earlier turn gets a clear ephemeral sentence and changes nothing.
    assert stale_hand is not None and stale_hand.message is not None
    version = (await scenario.game()).version
    stale = await scenario.answer(
        fake.send_component(
            int(stale_hand.message["id"]), _move_ids(stale_hand.message)[0], user_id=stale_owner
        )
    )
    assert stale.callback_type == CallbackType.CHANNEL_MESSAGE and stale.ephemeral
    assert "before the latest move" in (stale.content or "")
    assert (await scenario.game()).version == version
    # Someone not seated is refused privately.
    stranger = await scenario.answer(
        fake.send_component(first_table_id, f"jn:h:{stored.id}", user_id=CAROL_ID)
    )
    assert stranger.ephemeral and "not playing in this game" in (stranger.content or "")

    # The accepted challenge, every move before the crash and the one after: each one table.
    assert len(scenario.public_tables) == MOVES_BEFORE_RESTART + 2
    scenario.check_hands_stayed_private()
    assert fake.backend.unhandled_requests == []
    assert bot.errors_logged() == [], bot.log_tail()


async def test_challenge_play_crash_and_old_buttons(tmp_path: Path) -> None:
    """A challenge is played through the real bot, which is SIGKILLed; old buttons still work."""
    db_path = tmp_path / "junction.db"
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        bot = BotProcess(fake, db_path, tmp_path / "bot.log")
        store: SqliteStore | None = None
        try:
            await bot.start()
            store = SqliteStore(db_path)
            await store.open()
            await asyncio.wait_for(_play(Scenario(fake, bot, store)), SCENARIO_TIMEOUT)
        finally:
            await bot.kill()
            if store is not None:
                await store.close()


async def _computer_answers_after_a_crash(
    fake: FakeDiscord, bot: BotProcess, store: SqliteStore
) -> None:
    scenario = Scenario(fake, bot, store)
    started = await scenario.answer(
        fake.send_slash("play", {"game": "mille", "level": "normal"}, user_id=ALICE_ID),
        followups=1,
    )
    scenario.table_of(started)
    await bot.kill()
    # The crash window: Alice's move is committed (with its timer: the computer is due), the
    # computer's reply is not. This is exactly the row the seam writes before the computer moves.
    stored = await scenario.game()
    state = MILLE.from_dict(stored.state)
    (seat,) = MILLE.to_act(state)
    assert stored.seats[seat].user_id == ALICE_ID
    # A move that hands the turn over (a safety would give Alice another turn).
    action, after = next(
        (a, s)
        for a in MILLE.legal_actions(state, seat)
        for s in [MILLE.apply(state, seat, a)]
        if stored.seats[min(MILLE.to_act(s))].is_computer
    )
    await store.record_move(
        game_id=stored.id,
        expected_version=stored.version,
        seat=seat,
        action=MILLE.format_action(action),
        interaction_id=None,
        state=MILLE.to_dict(after),
        deadline=0.0,  # long due
    )
    await bot.restart()
    # Whichever comes first — the sweep or Alice's next request — the computer moves, once.
    table = await scenario.answer(fake.send_slash("table", {}, user_id=ALICE_ID), followups=1)
    posted = scenario.table_of(table)
    assert f"<@{ALICE_ID}>, your turn" in (posted.content or ""), posted.content
    moves = await store.moves(stored.id)
    computer = [m for m in moves if m.seq > stored.version + 1]
    assert computer and all(stored.seats[m.seat].is_computer for m in computer)
    settled = (await scenario.game()).version
    await asyncio.sleep(6)  # one more sweep: nothing is played twice
    assert (await scenario.game()).version == settled
    assert bot.errors_logged() == [], bot.log_tail()


async def test_a_computer_left_due_by_a_crash_answers_after_the_restart(tmp_path: Path) -> None:
    """Alice's move is stored, the bot dies before the computer's reply; after the restart the
    computer answers exactly once and Alice can play on."""
    db_path = tmp_path / "junction.db"
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        bot = BotProcess(fake, db_path, tmp_path / "bot.log")
        store: SqliteStore | None = None
        try:
            await bot.start()
            store = SqliteStore(db_path)
            await store.open()
            await asyncio.wait_for(
                _computer_answers_after_a_crash(fake, bot, store), SCENARIO_TIMEOUT
            )
        finally:
            await bot.kill()
            if store is not None:
                await store.close()
