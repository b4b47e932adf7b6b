"""Hidden information: no public payload names a card that only hidden places hold.

Random games of every registered game, at every table size, are played through the real cogs.
After every interaction, each public payload is checked against the cards that no public view of
that moment shows (hands, face-down piles, libraries, hidden stacks — see ``hidden.py``): the
text, embeds, attachment names and alt text and components of every non-ephemeral message; the
data every public image (table, score) was drawn from; the /move autocomplete other members and
onlookers get; and every log line at INFO or above. Each state's public view must also stay the
same when its hidden cards are dealt again. Heavy: ``JUNCTION_HEAVY=1`` plays whole games over
several seeds.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.cogs.conftest import running_bot
from tests.discord.backend import CAROL_ID, GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver
from tests.reliability.driving import Player, Seating, heavy, seating_ids, seatings, start
from tests.reliability.hidden import (
    hidden_only,
    leaves,
    named_cards,
    naming,
    public_numbers,
    public_texts,
    public_view_ignores_hidden,
    visible_codes,
)
from tests.reliability.history import History

LAYOUTS = seatings()
SEEDS = range(4) if heavy() else range(1)
STEPS = 100_000 if heavy() else 12  # member decisions per game (light: the opening only)
CHECKED: dict[str, int] = {"payloads": 0, "images": 0, "autocompletes": 0, "log_lines": 0}


class LogTap(logging.Handler):
    """Every log record at INFO or above, formatted."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def tap_renderer(driver: InteractionDriver) -> list[tuple[str, Any]]:
    """Record what every image is drawn from: (function name, its argument)."""
    renderer = running_bot(driver).renderer
    drawn: list[tuple[str, Any]] = []
    original: Callable[..., Any] = renderer.run

    async def run(draw: Callable[..., Any], *args: Any) -> Any:
        drawn.append((draw.__name__, args[0] if args else None))
        return await original(draw, *args)

    renderer.run = run  # type: ignore[method-assign]
    return drawn


async def play_and_check(driver: InteractionDriver, seating: Seating, seed: int) -> list[str]:
    """Play one game, checking every public payload; the leaks found (empty is good)."""
    game = seating.bundle.game
    drawn = tap_renderer(driver)
    tap = LogTap()
    logging.getLogger().addHandler(tap)
    previous_level = logging.getLogger().level
    logging.getLogger().setLevel(logging.INFO)
    leaks: list[str] = []
    try:
        first = await start(driver, seating, GAMES_CHANNEL_ID, seed)
        stored = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
        assert stored is not None
        history = History(running_bot(driver).tables.store, stored.id)
        # Some presses are forged under the public table: what they answer stays private.
        player = Player(driver, GAMES_CHANNEL_ID, random.Random(seed), forge_rate=0.15)
        results, seen, step = [first], 0, 0
        while True:
            states = await history.update()
            state = states[-1]
            window = history.views(seen)
            secret = hidden_only(game, state, window)
            # Text cannot tell a numbered card from a public figure of that value.
            said = secret - public_numbers([*window, game.outcome(state)])
            if not public_view_ignores_hidden(game, state):
                leaks.append(f"version {len(states) - 1}: the public view depends on hidden cards")
            for result in results:
                for response in result.responses:
                    if response.ephemeral or response.kind in ("fetch", "delete"):
                        continue
                    CHECKED["payloads"] += 1
                    for text in public_texts(response):
                        if named := named_cards(text, said):
                            where = naming(text, min(named))
                            leaks.append(f"public text names {sorted(named)}: …{where!r}…")
            for name, data in drawn:
                if name == "hand_png":
                    continue
                CHECKED["images"] += 1
                if shown := visible_codes([data], secret):
                    leaks.append(f"{name} was drawn from data holding hidden {sorted(shown)}")
            drawn.clear()
            for line in tap.lines:
                CHECKED["log_lines"] += 1
                if named := named_cards(line, said):
                    leaks.append(f"a log line names {sorted(named)}: {line[:200]!r}")
            tap.lines.clear()
            leaks.extend(await others_autocomplete(driver, seating))
            seen = len(states) - 1
            if await player.game() is None or step >= STEPS:
                break
            results = await player.act()
            step += 1
    finally:
        logging.getLogger().removeHandler(tap)
        logging.getLogger().setLevel(previous_level)
    return leaks


async def others_autocomplete(driver: InteractionDriver, seating: Seating) -> list[str]:
    """/move autocomplete as every member and an onlooker: each sees only moves of their own
    (a member not due to act, and anyone not seated, sees nothing)."""
    tables = running_bot(driver).tables
    stored = await tables.store.active_game(GAMES_CHANNEL_ID)
    if stored is None:
        return []
    here = tables.position(stored)
    seated = {s.user_id for s in stored.seats if s.user_id is not None}
    leaks = []
    for user in {*seating.members, CAROL_ID}:
        own = {m.notation for m in tables.legal_moves(here, user)} if user in seated else set()
        for typed in ("", "a") if heavy() else ("",):
            offered = await driver.autocomplete(
                "move", "action", typed, user_id=user, channel_id=GAMES_CHANNEL_ID
            )
            CHECKED["autocompletes"] += 1
            values = {str(c["value"]).rpartition("§")[0] for c in offered.choices}
            if not values <= own:
                leaks.append(f"autocomplete for {user} offers moves not theirs: {values - own}")
    return leaks


@pytest.mark.parametrize("seating", LAYOUTS, ids=seating_ids(LAYOUTS))
async def test_no_public_payload_names_a_hidden_card(
    driver: InteractionDriver, seating: Seating
) -> None:
    """Every public message, image source, autocomplete and log line of random games of every
    game names no card that only hidden places hold."""
    for seed in SEEDS:
        leaks = await play_and_check(driver, seating, seed)
        assert not leaks, "\n".join(leaks[:20])
        stored = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
        if stored is not None:
            await running_bot(driver).tables.abort(channel_id=GAMES_CHANNEL_ID)
        CHECKED["games"] = CHECKED.get("games", 0) + 1
    print(f"\nhidden {seating.label}: {CHECKED}")


async def test_the_check_sees_a_caption_that_names_hidden_cards(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: the table text also says what the player due holds (as a careless
    "you drew …" caption would). The check reports it, for a game with private hands."""
    import cogs.ui
    from bot.games import bundle
    from bot.updates import TableUpdate

    original = cogs.ui.table_text

    def careless(update: TableUpdate, headline: str | None = None, closing: str = "") -> str:
        game = bundle(update.game.game_key).game
        state = game.from_dict(update.game.state)
        held = [
            leaf
            for seat in game.to_act(state)
            for leaf in leaves(game.private_view(state, seat))
            if leaf in game.census(state)
        ]
        # First, and cut to what Discord takes: a long game's table text is near the limit.
        return cogs.ui.clip(
            "Holding: " + ", ".join(held) + "\n" + original(update, headline, closing)
        )

    monkeypatch.setattr(cogs.ui, "table_text", careless)
    private = next(s for s in LAYOUTS if s.bundle.info.private_hands)
    leaks = await play_and_check(driver, private, seed=0)
    assert any("public text names" in leak for leak in leaks)


def test_a_flag_named_after_a_card_shows_it() -> None:
    """A Dragon car's public ``fireproof`` flag is the Fireproof Armor fitted to it: that card
    is on the table, so "Fireproof Armor stops the flames" names no hidden card. The heavy run
    reported it as a leak while the check read only values, not flags that are set."""

    @dataclasses.dataclass(frozen=True)
    class Car:
        name: str
        fireproof: bool
        right_of_way: bool

    assert set(leaves(Car("bob", True, True))) >= {"fireproof", "right-of-way"}
    assert set(leaves(Car("bob", False, False))) == {"bob"}
