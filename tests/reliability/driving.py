"""Members playing any registered game through the real cogs, in-process (no names of games).

:func:`seatings` lists table layouts for every registered game (members and computers, every
table size it allows). :class:`Player` makes one member's decision the way a person would: by
"My hand" and a button, menu or target picker in it (or on the table, for games without private
hands), or by ``/move`` with a value its autocomplete offered.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import all_bundles
from bot.games.bundle import GameBundle
from bot.store.base import SeatRecord, StoredGame
from cogs.ui import APOLOGY, DISCORD_TROUBLE
from tests.cogs.conftest import running_bot
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    EPHEMERAL,
    GUILD_ID,
    JSON,
    InteractionResult,
    walk_components,
)
from tests.discord.payloads import InteractionDriver

MEMBERS = (ALICE_ID, BOB_ID, CAROL_ID)
NAMES = {ALICE_ID: "alice", BOB_ID: "bob", CAROL_ID: "carol"}


def apologised(text: str) -> bool:
    """Whether the bot answered with a failure of its own or of Discord's (a bug of ours, or a
    request Discord refused): never the answer to a member's input in these runs."""
    return APOLOGY in text or DISCORD_TROUBLE in text


def heavy() -> bool:
    """Whether the heavy versions run (``JUNCTION_HEAVY=1``)."""
    return os.environ.get("JUNCTION_HEAVY", "") not in ("", "0")


@dataclass(frozen=True)
class Seating:
    """A table layout: a game, its members (user ids) and how many computers join them."""

    bundle: GameBundle
    members: tuple[int, ...]
    computers: int

    @property
    def key(self) -> str:
        return self.bundle.key

    @property
    def label(self) -> str:
        return f"{self.key}-{len(self.members)}m{self.computers}c"

    def seats(self) -> list[SeatRecord]:
        seats = [SeatRecord(n, NAMES[u], user_id=u) for n, u in enumerate(self.members)]
        policy = self.bundle.default_policy
        start = len(seats)
        seats += [
            SeatRecord(start + i, f"Computer {i + 1}", policy=policy) for i in range(self.computers)
        ]
        return seats


def seatings(*, all_sizes: bool = True) -> list[Seating]:
    """For every registered game and table size: as many members as fit (up to three), the
    rest computers; plus one member against computers where a game has two or more seats."""
    found: list[Seating] = []
    for game in all_bundles():
        info = game.info
        sizes = range(info.min_players, info.max_players + 1) if all_sizes else [info.min_players]
        for size in sizes:
            members = min(size, len(MEMBERS))
            found.append(Seating(game, MEMBERS[:members], size - members))
            if size > 1 and members > 1 and size == info.min_players:
                found.append(Seating(game, MEMBERS[:1], size - 1))
    return found


def seating_ids(layouts: Sequence[Seating]) -> list[str]:
    return [s.label for s in layouts]


async def start(
    driver: InteractionDriver, seating: Seating, channel_id: int, seed: int
) -> InteractionResult:
    """Deal the game through the seam, then post its table with /table."""
    await running_bot(driver).tables.start(
        channel_id=channel_id,
        guild_id=GUILD_ID,
        game_key=seating.key,
        seats=seating.seats(),
        seed=seed,
    )
    return await driver.slash("table", {}, user_id=seating.members[0], channel_id=channel_id)


def table_message(driver: InteractionDriver, channel_id: int) -> JSON | None:
    """The newest public table message in a channel."""
    tables = [
        m
        for _, m in sorted(driver.backend.messages.items())
        if int(m["channel_id"]) == channel_id
        and not int(m.get("flags") or 0) & EPHEMERAL
        and any(a.get("filename") == "table.png" for a in m.get("attachments") or [])
    ]
    return tables[-1] if tables else None


def components(message: JSON | None) -> list[JSON]:
    if message is None:
        return []
    return [c for c in walk_components(message.get("components") or []) if "custom_id" in c]


class Player:
    """Makes the members' decisions in one channel, through the cogs."""

    def __init__(
        self,
        driver: InteractionDriver,
        channel_id: int,
        rng: random.Random,
        *,
        forge_rate: float = 0.0,
    ) -> None:
        self.driver = driver
        self.channel_id = channel_id
        self.rng = rng
        # How often a hostile member presses their hand's picker under the public table
        # instead (a modified client can press any id under any message it sees).
        self.forge_rate = forge_rate

    async def game(self) -> StoredGame | None:
        return await running_bot(self.driver).tables.store.active_game(self.channel_id)

    async def acting_member(self) -> int | None:
        """A member the game waits for now (None when only computers or nobody are due)."""
        stored = await self.game()
        if stored is None:
            return None
        here = running_bot(self.driver).tables.position(stored)
        users = [stored.seats[s].user_id for s in here.acting]
        members = [u for u in users if u is not None]
        return self.rng.choice(members) if members else None

    async def act(self) -> list[InteractionResult]:
        """One decision of a member the game waits for; the interactions it took."""
        user = await self.acting_member()
        if user is None:
            stored = await self.game()
            if stored is None:
                return []
            return [await self.driver.slash("table", {}, channel_id=self.channel_id)]
        if self.rng.random() < 0.4:
            return await self.by_command(user)
        return await self.by_components(user)

    async def by_command(self, user: int) -> list[InteractionResult]:
        """``/move`` with one of the values its autocomplete offered."""
        offered = await self.driver.autocomplete(
            "move", "action", "", user_id=user, channel_id=self.channel_id
        )
        if not offered.choices:
            return [offered]
        value = str(self.rng.choice(offered.choices)["value"])
        moved = await self.driver.slash(
            "move", {"action": value}, user_id=user, channel_id=self.channel_id
        )
        return [offered, moved]

    async def by_components(self, user: int) -> list[InteractionResult]:
        """A picker in the member's hand ("My hand"), or on the table when hands are open."""
        table = table_message(self.driver, self.channel_id)
        if table is None:
            return [await self.driver.slash("table", {}, channel_id=self.channel_id)]
        done: list[InteractionResult] = []
        source: JSON | None = table
        hand = next((c for c in components(table) if c["custom_id"].startswith("jn:h:")), None)
        if hand is not None:
            opened = await self.driver.click(table, hand["custom_id"], user_id=user)
            done.append(opened)
            source = opened.followup_messages[0] if opened.followup_messages else None
        pickers = [
            c for c in components(source) if c["custom_id"].startswith(("jn:p", "jn:g", "jn:s"))
        ]
        if source is None or not pickers:
            return [*done, *await self.by_command(user)]
        forged = source is not table and self.rng.random() < self.forge_rate
        done.extend(await self.press(source, self.rng.choice(pickers), user, forged=forged))
        return done

    async def press(
        self, message: JSON, component: JSON, user: int, *, forged: bool = False
    ) -> list[InteractionResult]:
        """Press ``component`` (under the public table instead when ``forged``), and through
        the choices a target picker opens, however deep, to a move."""
        table = table_message(self.driver, self.channel_id) if forged else None
        custom_id = str(component["custom_id"])
        if component.get("type") == 3:
            options = [str(o["value"]) for o in component.get("options") or []]
            low = int(component.get("min_values") or 1)
            high = max(low, int(component.get("max_values") or 1))
            count = self.rng.randint(low, min(high, len(options)))
            values = self.rng.sample(options, count)
            if table is not None:
                return [await self.driver.forge(table, custom_id, values=values, user_id=user)]
            return [await self.driver.select(message, custom_id, values, user_id=user)]
        if table is not None:
            pressed = await self.driver.forge(table, custom_id, user_id=user)
        else:
            pressed = await self.driver.click(message, custom_id, user_id=user)
        done = [pressed]
        while custom_id.startswith("jn:g") and pressed.message is not None:
            opened = pressed.message
            picks = [c for c in components(opened) if c["custom_id"].startswith(("jn:p", "jn:g"))]
            if not picks:
                break
            custom_id = str(self.rng.choice(picks)["custom_id"])
            pressed = await self.driver.click(opened, custom_id, user_id=user)
            done.append(pressed)
        return done


def responses(results: Sequence[InteractionResult]) -> Iterator[Any]:
    for result in results:
        yield from result.responses
