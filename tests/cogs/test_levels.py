"""Computer levels and hints in every built-in game, through the bot like a member.

``/play game:<game> level:easy|expert`` stores the level with the computer seats, and
``/hint`` answers privately with a legal move (the expert's search, run off the event loop)
and a button that plays it.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from bot.games import BUILTIN, bundle, policy_factory, policy_names
from cogs.new_game import NO_COMPUTER_LEVEL
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import component_id, replies, shown_message
from tests.discord.backend import ALICE_ID, BOB_ID, CAROL_ID, GAMES_CHANNEL_ID
from tests.discord.payloads import InteractionDriver

GAME_KEYS = [importlib.import_module(module).BUNDLE.key for module in BUILTIN]
SOLITAIRES = [key for key in GAME_KEYS if bundle(key).info.max_players == 1]
WITH_COMPUTERS = [key for key in GAME_KEYS if key not in SOLITAIRES]


@pytest.fixture(autouse=True)
def _quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    # The experts' move-time budget: a few milliseconds keep the suite quick.
    monkeypatch.setenv("JUNCTION_EXPERT_MS", "5")


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_offers_easy_normal_and_expert(key: str) -> None:
    """Each built-in game has the three levels /play offers."""
    assert {"easy", "expert"} <= set(policy_names(key))


@pytest.mark.parametrize("level", ["easy", "expert"])
@pytest.mark.parametrize("key", WITH_COMPUTERS)
async def test_level_is_stored_with_the_computer_seats(
    driver: InteractionDriver, key: str, level: str
) -> None:
    """The chosen level is the policy of every computer seat of the new game."""
    await driver.slash("play", {"game": key, "level": level})
    stored = await running_bot(driver).tables.store.active_game(GAMES_CHANNEL_ID)
    assert stored is not None and stored.game_key == key
    computers = [seat for seat in stored.seats if seat.user_id is None]
    assert all(seat.policy == level for seat in computers)
    assert all(level in seat.name for seat in computers)


@pytest.mark.parametrize("key", GAME_KEYS)
async def test_hint_is_a_legal_move_with_a_reason(driver: InteractionDriver, key: str) -> None:
    """/hint answers privately: a legal move, a reason, and a button that plays it."""
    level = {} if key in SOLITAIRES else {"level": "expert"}
    await driver.slash("play", {"game": key, **level})
    tables = running_bot(driver).tables
    stored = await tables.current(GAMES_CHANNEL_ID)
    legal = {move.notation for move in tables.hand(stored, ALICE_ID)[1]}
    assert legal, "the member should be to act once the computers have moved"
    result = await driver.slash("hint", {})
    (answer,) = result.followups
    assert result.ephemeral and answer.content is not None
    assert "💡" in answer.content and " — " in answer.content
    (button,) = answer.custom_ids
    assert button.split(":", 4)[-1].replace("+", " ") in legal
    pressed = await driver.click(result, button)
    after = await tables.current(GAMES_CHANNEL_ID)
    assert after.version > stored.version, pressed


async def test_searches_think_in_the_worker_and_heuristics_in_a_thread(
    driver: InteractionDriver,
) -> None:
    """The bot sends an expert's search to its thinking worker; a quick heuristic decides in
    a thread, never queued behind searches."""
    bot = running_bot(driver)
    sent: list[object] = []
    real_run = bot.thinkers.run

    async def run(work: Any, *args: Any) -> Any:
        sent.append(args[0])
        return await real_run(work, *args)

    bot.thinkers.run = run  # type: ignore[method-assign,assignment]
    game = bundle("mille").game
    state = game.new_game(["Ann", "Computer"], 3)
    view = game.private_view(state, 0)
    expert, normal = policy_factory("mille", "expert"), policy_factory("mille", "normal")
    assert await bot.tables.thinker(expert, view, "1") in view.legal
    assert await bot.tables.thinker(normal, view, "1") in view.legal
    assert sent == [expert]


async def test_play_answers_before_an_opening_computer_moves(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/play where the computer opens: the table still arrives, with the computer's move."""
    game = bundle("race").game
    seed = next(s for s in range(100) if game.to_act(game.new_game(["A", "C"], s)) == {1})
    monkeypatch.setattr("bot.tables.secrets.randbelow", lambda _: seed)
    result = await driver.slash("play", {"game": "race", "level": "expert"})
    assert result.callback_type == 5 and not result.ephemeral  # "thinking", in public
    (table,) = result.followups
    stored = await running_bot(driver).tables.current(GAMES_CHANNEL_ID)
    assert stored.version > 0 and table.files


@pytest.mark.parametrize(
    ("command", "seats"),
    [("challenge", {"member": BOB_ID}), ("host", {}), ("host", {"seats": 2})],
)
async def test_a_level_with_no_computer_to_play_it_is_refused(
    driver: InteractionDriver, command: str, seats: dict[str, Any]
) -> None:
    """``/challenge race member:Bob level:expert`` (or ``/host`` with no computers) opened the
    lobby and dropped the level: no computer could ever sit there (a declined single invitation
    closes, a host's free seats are dropped at Start), and the member was left thinking an
    expert would play. It is refused in one private sentence now, and nothing is stored."""
    game = "race" if command == "challenge" else "dragon"
    asked = await driver.slash(command, {"game": game, "level": "expert", **seats})
    assert asked.ephemeral and replies(asked) == NO_COMPUTER_LEVEL, replies(asked)
    assert await running_bot(driver).tables.store.lobbies_due(float("inf"), 10) == []
    assert driver.backend.channel_messages(GAMES_CHANNEL_ID) == []


@pytest.mark.parametrize(
    ("key", "daily"), [(key, False) for key in SOLITAIRES] + [(key, True) for key in SOLITAIRES]
)
async def test_a_level_for_a_solitaire_is_refused(
    driver: InteractionDriver, key: str, daily: bool
) -> None:
    """``/play game:solo level:expert`` dealt the game and dropped the level: no computer sits
    at a solitaire (a hint is the game's best player's whatever the level, a turn the timer
    takes its default's). It is refused in one private sentence, as /challenge and /host refuse
    a level with no computer, and nothing is stored, today's deal not claimed."""
    asked = await driver.slash("play", {"game": key, "level": "expert", "daily": daily})
    title = bundle(key).info.title
    said = f"{title} is played alone, with no computer to set a level for: leave the level out."
    assert asked.ephemeral and replies(asked) == said, replies(asked)
    store = running_bot(driver).tables.store
    assert await store.active_game(GAMES_CHANNEL_ID) is None
    assert await store.games_of_member(ALICE_ID, active=True) == []
    assert driver.backend.channel_messages(GAMES_CHANNEL_ID) == []
    # Without the level, the same command deals at once.
    dealt = await driver.slash("play", {"game": key, "daily": daily})
    assert not dealt.ephemeral, replies(dealt)
    assert await store.active_game(GAMES_CHANNEL_ID) is not None


async def test_a_level_stands_where_a_computer_may_take_a_declined_seat(
    driver: InteractionDriver,
) -> None:
    """Held: with two members invited, one may decline while the other accepts, and a computer
    of the level asked for takes the declined seat when the host presses Start."""
    asked = await driver.slash(
        "challenge", {"game": "dragon", "member": BOB_ID, "member2": CAROL_ID, "level": "expert"}
    )
    assert not asked.ephemeral, replies(asked)
    (lobby,) = await running_bot(driver).tables.store.lobbies_due(float("inf"), 10)
    assert lobby.policy == "expert"


async def test_an_invitation_names_its_computers_level(driver: InteractionDriver) -> None:
    """``/challenge dragon member:Bob computers:2 level:expert`` read "invites @Bob (waiting) and
    2 computers.", the level asked for said nowhere before the deal; it reads "… and 2
    computers (expert)." now."""
    asked = await driver.slash(
        "challenge", {"game": "dragon", "member": BOB_ID, "computers": 2, "level": "expert"}
    )
    assert asked.message is not None, replies(asked)
    first = str(shown_message(driver, asked.message)["content"]).splitlines()[0]
    assert first.endswith(f"invites <@{BOB_ID}> (waiting) and 2 computers (expert)."), first


async def test_a_declined_seat_names_the_level_its_computer_plays(
    driver: InteractionDriver,
) -> None:
    """Bob and Carol invited with ``level:easy`` and no computers: once Bob accepted and Carol
    declined, the host was told "press Start (computers take the declined seats)", the level
    unsaid; the note names it now."""
    asked = await driver.slash(
        "challenge", {"game": "dragon", "member": BOB_ID, "member2": CAROL_ID, "level": "easy"}
    )
    assert asked.message is not None, replies(asked)
    await driver.click(asked, component_id(asked, "Accept"), user_id=BOB_ID)
    await driver.click(asked, component_id(asked, "Decline"), user_id=CAROL_ID)
    text = str(shown_message(driver, asked.message)["content"])
    assert (
        f"Everyone answered: <@{ALICE_ID}>, press Start to seat computers (easy) in the "
        "declined seats, or Cancel." in text
    ), text


async def test_an_open_tables_seats_name_the_computers_level(driver: InteractionDriver) -> None:
    """``/host dragon computers:2 level:expert`` listed "5. computer · 6. computer"; each
    computer's seat names its level now, as the seat's name will once dealt."""
    asked = await driver.slash("host", {"game": "dragon", "computers": 2, "level": "expert"})
    assert asked.message is not None, replies(asked)
    text = str(shown_message(driver, asked.message)["content"])
    assert (
        f"Seats: 1. <@{ALICE_ID}> · 2. free · 3. free · 4. free · "
        "5. computer (expert) · 6. computer (expert)\n" in text
    ), text
