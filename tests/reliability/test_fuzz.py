"""Bad input: a property-based fuzzer (hypothesis) over everything a member can send.

Every command with fuzzed options (over-long, malformed, foreign game keys and options, numbers
out of range, strangers as members), every autocomplete, and component presses with custom ids
made up from the bot's own templates (foreign game ids, past and future turns, huge numbers,
unknown kinds, malformed text) — sent by seated members, onlookers and members who have left the
server, in channels with games of every registered game, without one, or deleted. For each
input:

* no unhandled exception (no ERROR logged by discord.py or the bot);
* every interaction is answered;
* every private answer is a sentence (and never the "something went wrong" apology);
* an input answered only privately changes nothing: the database is byte-identical after it
  (unless it legitimately stored a move, or was /settings).

``JUNCTION_HEAVY=1`` tries 10 000 inputs or more; the count tried is printed.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.client import JunctionBot
from bot.games import all_bundles
from tests.cogs.conftest import bot_settings
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    CAROL_ID,
    CATEGORY_ID,
    GUILD_ID,
    FakeBackend,
    InteractionResult,
    member_payload,
    text_channel_payload,
    user_payload,
)
from tests.discord.payloads import InteractionDriver
from tests.reliability.driving import Seating, apologised, heavy, seatings, table_message

EXAMPLES = 10_500 if heavy() else 1000
GHOST_ID = 1174109840998400099  # a member who has left the server
SENTENCE_END = re.compile(r"[.!?)…]\W*$")
TRIED = {"inputs": 0, "refusals": 0}


class ErrorTap(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()} {record.exc_info!r}"[:2000])


def dump(path: Path) -> str:
    """The whole database as SQL text (committed data, read by a connection of our own)."""
    with sqlite3.connect(path) as db:
        return "\n".join(db.iterdump())


def is_sentence(text: str) -> bool:
    text = text.strip()
    return bool(text) and len(text) <= 2000 and SENTENCE_END.search(text) is not None


def texts_of(result: InteractionResult) -> list[tuple[bool, str]]:
    """(ephemeral, content) of every message the interaction produced."""
    return [(r.ephemeral, r.content or "") for r in result.responses if r.kind != "fetch"]


class Fuzz:
    """A bot with a game of every registered game, each in a channel of its own."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.backend = FakeBackend()
        world = self.backend.world
        self.layouts: dict[int, Seating] = {}
        for n, seating in enumerate(s for s in seatings(all_sizes=False) if len(s.members) > 1):
            channel_id = self.backend.ids.next()
            world.channels.append(
                text_channel_payload(channel_id, GUILD_ID, f"fuzz-{n}", parent_id=CATEGORY_ID)
            )
            self.layouts[channel_id] = seating
        self.empty = self.backend.ids.next()
        world.channels.append(text_channel_payload(self.empty, GUILD_ID, "empty"))
        self.deleted = self.backend.ids.next()
        self.bot = JunctionBot(bot_settings(tmp))
        self.driver = InteractionDriver(
            self.bot, backend=self.backend, run_setup_hook=True, timeout=60.0, strict=False
        )
        self.game_ids: list[int] = []

    async def refill(self) -> None:
        """A running game in every game channel (fuzzed resigns and aborts end them)."""
        for channel_id, seating in self.layouts.items():
            if await self.bot.tables.store.active_game(channel_id) is None:
                update = await self.bot.tables.start(
                    channel_id=channel_id,
                    guild_id=GUILD_ID,
                    game_key=seating.key,
                    seats=seating.seats(),
                    seed=len(self.game_ids),
                )
                self.game_ids.append(update.game.id)
                await self.driver.slash("table", {}, channel_id=channel_id)

    def channel(self, channel_id: int) -> dict[str, Any]:
        if channel_id == self.deleted:
            return text_channel_payload(channel_id, GUILD_ID, "deleted")
        found = self.backend.channel(channel_id)
        assert found is not None
        return found

    def payload(self, kind: str, user: int, channel_id: int, **spec: Any) -> dict[str, Any]:
        factory = self.driver.factory
        known = channel_id if channel_id != self.deleted else self.empty
        if kind == "slash":
            payload = factory.slash(spec["name"], spec["options"], channel_id=known)
        elif kind == "autocomplete":
            payload = factory.autocomplete(
                spec["name"], spec["focused"], spec["typed"], spec["options"], channel_id=known
            )
        else:
            message = table_message(self.driver, known) or next(
                iter(self.backend.messages.values())
            )
            forged = copy.deepcopy(message)
            component: dict[str, Any] = {"type": 2, "custom_id": spec["custom_id"], "style": 2}
            if spec["values"] is not None:
                component = {"type": 3, "custom_id": spec["custom_id"], "options": []}
            forged["components"] = [{"type": 1, "components": [component]}]
            forged["channel_id"] = str(known)
            payload = factory.component(forged, spec["custom_id"], values=spec["values"])
        if channel_id == self.deleted:
            # A channel deleted since: the bot has never heard of it.
            payload["channel_id"] = str(channel_id)
            payload["channel"] = {**self.channel(channel_id), "permissions": "0"}
            self.backend.extra_channels.setdefault(channel_id, self.channel(channel_id))
        if user == GHOST_ID:
            payload["member"] = member_payload(user_payload(GHOST_ID, "ghost"))
            payload["member"]["permissions"] = "0"
        else:
            payload["member"] = factory.member(user)
        return payload


def commands_of(bot: JunctionBot) -> dict[str, list[dict[str, Any]]]:
    """Every slash command with its options (name, type, choices, bounds, autocomplete)."""
    return {c.name: c.to_dict(bot.tree).get("options") or [] for c in bot.tree.get_commands()}


WORDS = st.sampled_from(
    [
        "",
        " ",
        "play go",
        "draw",
        "discard 25",
        "x" * 300,
        "@everyone",
        "<@1>",
        "deck:modern",
        "length:hand",
        "preset:easy",
        "deck:nope",
        "::",
        "a:b:c",
        "§3",
        "play go§0",
        "play go§99999999999",
        "pass",
        "normal",
        "random",
        "ńöñ-äščïï",
        "🃏" * 50,
        "\x00\n\t",
        "'; DROP TABLE games; --",
        *[b.key for b in all_bundles()],
        *[f"{b.key}x" for b in all_bundles()],
    ]
)
TEXT = st.one_of(WORDS, st.text(max_size=120), st.text(max_size=6000).map(lambda t: t * 2))
NUMBER = st.one_of(
    st.integers(-5, 10),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([2**64, 10**30, -(10**30)]),
)


def option_value(option: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values Discord delivers for an option: it enforces declared bounds and choices itself."""
    kind = int(option["type"])
    if kind == 4:
        low, high = option.get("min_value"), option.get("max_value")
        if low is None and high is None:
            return NUMBER
        return st.integers(low, high)
    if kind == 5:
        return st.booleans()
    if kind == 6:
        return st.sampled_from([ALICE_ID, BOB_ID, CAROL_ID, GHOST_ID])
    if kind == 10:
        return st.floats(allow_nan=False, allow_infinity=False)
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    return TEXT


def custom_ids(fuzz: Fuzz) -> st.SearchStrategy[str]:
    games = st.one_of(
        st.sampled_from(fuzz.game_ids or [1]),
        st.integers(0, 40),
        st.sampled_from([2**63, 10**25, 2**63 - 1]),
    ).map(str)
    small = st.integers(0, 30).map(str)
    huge = st.sampled_from(["9" * 12, "9" * 25, "-1", "", "x"])
    number = st.one_of(small, small, huge)
    where = st.sampled_from(["t", "h", "x", ""])
    made = st.builds(
        lambda kind, game, version, place, picker, tail: (
            f"jn:{kind}:{game}:{version}:{place}:{picker}{tail}"
        ),
        st.sampled_from([*"pgshmkxlc", "zz", ""]),
        games,
        number,
        where,
        number,
        st.sampled_from(["", ":0", ":1", ":99", ":play+go", ":a:b", "x" * 80]),
    )
    short = st.builds(
        lambda kind, game, tail: f"jn:{kind}:{game}{tail}",
        st.sampled_from(["h", "x", "l", "c:a", "c:d"]),
        games,
        st.sampled_from(["", ":a", ":d", ":s", ":c", f":{BOB_ID}", ":z"]),
    )
    return st.one_of(made, made, short, st.text(max_size=150))


def test_fuzzed_input_is_refused_cleanly(tmp_path: Path) -> None:
    """Fuzzed commands, options, autocompletes and component ids: no unhandled exception, every
    interaction answered, every refusal a sentence, and nothing stored by a refusal."""
    loop = asyncio.new_event_loop()
    tried, refused = TRIED["inputs"], TRIED["refusals"]
    fuzz = Fuzz(tmp_path)
    db = tmp_path / "bot.db"
    errors = ErrorTap()
    logging.getLogger().addHandler(errors)
    try:
        loop.run_until_complete(fuzz.driver.start())
        loop.run_until_complete(fuzz.refill())
        commands = commands_of(fuzz.bot)
        channels = st.sampled_from([*fuzz.layouts, fuzz.empty, fuzz.deleted])
        users = st.sampled_from([ALICE_ID, BOB_ID, CAROL_ID, GHOST_ID])

        @st.composite
        def slash(draw: st.DrawFn) -> dict[str, Any]:
            name = draw(st.sampled_from(sorted(commands)))
            chosen = {
                o["name"]: draw(option_value(o))
                for o in commands[name]
                if o.get("required") or draw(st.booleans())
            }
            return {"kind": "slash", "name": name, "options": chosen}

        @st.composite
        def autocomplete(draw: st.DrawFn) -> dict[str, Any]:
            name = draw(
                st.sampled_from(
                    [n for n, opts in commands.items() if any(o.get("autocomplete") for o in opts)]
                )
            )
            focused = draw(
                st.sampled_from([o["name"] for o in commands[name] if o.get("autocomplete")])
            )
            others = {
                o["name"]: draw(TEXT if int(o["type"]) == 3 else option_value(o))
                for o in commands[name]
                if o["name"] != focused and draw(st.booleans())
            }
            return {
                "kind": "autocomplete",
                "name": name,
                "focused": focused,
                "typed": draw(TEXT),
                "options": others,
            }

        components = st.builds(
            lambda cid, values: {"kind": "component", "custom_id": cid, "values": values},
            custom_ids(fuzz),
            st.one_of(st.none(), st.lists(TEXT, max_size=4)),
        )

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=not heavy(),
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(st.one_of(slash(), autocomplete(), components, components), users, channels)
        def one(spec: dict[str, Any], user: int, channel_id: int) -> None:
            loop.run_until_complete(check(fuzz, db, errors, dict(spec), user, channel_id))

        one()
    finally:
        logging.getLogger().removeHandler(errors)
        loop.run_until_complete(fuzz.driver.close())
        loop.run_until_complete(fuzz.bot.close())
        loop.close()
    print(f"\nfuzz: {TRIED['inputs']} inputs tried, {TRIED['refusals']} refused")
    # Not vacuous: the inputs the fake cannot build are skipped, so most must have been sent,
    # and they must include refusals and accepted interactions both.
    tried, refused = TRIED["inputs"] - tried, TRIED["refusals"] - refused
    assert tried >= EXAMPLES * 9 // 10, f"only {tried} of {EXAMPLES} inputs were sent"
    assert 0 < refused < tried


async def check(
    fuzz: Fuzz, db: Path, errors: ErrorTap, spec: dict[str, Any], user: int, channel_id: int
) -> None:
    await fuzz.refill()
    kind = spec.pop("kind")
    try:
        payload = fuzz.payload(kind, user, channel_id, **spec)
    except (ValueError, TypeError, LookupError, OverflowError):
        return  # the fake cannot even build this (Discord would not deliver it)
    TRIED["inputs"] += 1
    before = dump(db)
    errors.lines.clear()
    result = await fuzz.driver.dispatch(payload)
    described = f"{kind} {spec!r} by {user} in {channel_id}"
    assert not result.errors and not errors.lines, f"{described}: {result.errors or errors.lines}"
    assert result.callback is not None, f"{described}: no answer"
    if kind == "autocomplete":
        assert dump(db) == before, f"{described}: autocomplete changed the database"
        return
    said = texts_of(result)
    for _, text in said:
        assert not apologised(text), f"{described}: apologised: {text!r}"
    if all(ephemeral for ephemeral, _ in said):
        for _, text in said:
            if text:
                assert is_sentence(text), f"{described}: not a sentence: {text!r}"
        after = dump(db)
        moved = after.count('INSERT INTO "moves"') != before.count('INSERT INTO "moves"')
        if not moved and spec.get("name") != "settings":
            TRIED["refusals"] += 1
            assert after == before, f"{described}: a private answer changed the database"


async def test_a_member_who_left_is_refused_in_a_sentence(driver: InteractionDriver) -> None:
    """/challenge naming someone no longer in the server: a private sentence, not an apology
    (before, discord.py's conversion error reached the catch-all and was logged as a crash)."""
    game = next(b for b in all_bundles() if b.info.max_players > 1)
    result = await driver.slash("challenge", {"game": game.key, "member": GHOST_ID})
    (said,) = [r.content for r in result.responses]
    assert result.ephemeral and said and "not in this server" in said and is_sentence(said)


def test_the_fuzzer_sees_a_refusal_that_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: every refusal of a button first stores an abort vote in the presser's
    name. The byte-identical check catches the write."""
    import cogs.pickers
    import cogs.ui

    original = cogs.ui.refuse

    async def refuse_and_vote(interaction: Any, text: str) -> None:
        tables = interaction.client.tables
        for game in await tables.store.active_games():
            await tables.store.add_abort_vote(game.id, interaction.user.id)
        await original(interaction, text)

    monkeypatch.setattr(cogs.pickers, "refuse", refuse_and_vote)
    loop = asyncio.new_event_loop()
    fuzz = Fuzz(tmp_path)
    try:
        loop.run_until_complete(fuzz.driver.start())
        loop.run_until_complete(fuzz.refill())
        channel = next(iter(fuzz.layouts))
        spec = {"kind": "component", "custom_id": f"jn:h:{fuzz.game_ids[0]}", "values": None}
        with pytest.raises(AssertionError, match="changed the database"):
            loop.run_until_complete(
                check(fuzz, tmp_path / "bot.db", ErrorTap(), spec, CAROL_ID, channel)
            )
    finally:
        loop.run_until_complete(fuzz.driver.close())
        loop.run_until_complete(fuzz.bot.close())
        loop.close()
