"""A newcomer's review: each game played through the cogs as a member would (My hand, pickers,
menus), reading every message. Each test states what a member should see and what the review
found before the fix."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.ai.base import Policy
from bot.engine.ttr import GAME as G
from bot.games import bundle
from bot.store.base import SeatRecord
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import (
    COMPUTER,
    alice_against,
    alt_text_of,
    buttons_behind,
    component_id,
    labels,
    public_table,
    replies,
)
from tests.discord.backend import (
    ALICE_ID,
    BOB_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    InteractionResult,
    walk_components,
)
from tests.discord.payloads import InteractionDriver


def _selects(result: InteractionResult) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for response in result.responses:
        found += [c for c in walk_components(response.components) if c.get("type") == 3]
    return found


# --- Ticket to Ride ------------------------------------------------------------------------------


async def test_ttr_every_railyard_play_can_be_reached_from_my_hand(
    driver: InteractionDriver,
) -> None:
    """Ticket to Ride, a big hand (more than 25 cards). My hand must offer every legal Railyard
    play: README says "a Railyard set is picked from a multi-select of your cards", and above 25
    cards the presenter lists the legal sets instead, 25 to a menu. Before the fix, once there
    are more than four menus' worth of sets (common late in a game: the newcomer's log showed
    "Play to your Railyard (1/6)"), only menus 1-4 are shown next to the folded "Choose a move"
    menu; the rest (every white set and most three-single plays) are silently dropped, so the
    member cannot make those plays with the buttons and is not told why. A later fix said
    "type /move to find the others", still a dead end for button users: now each colour is a
    button that asks which set."""
    bot = running_bot(driver)
    update = await alice_against(driver, game_key="ttr", seed=1)
    # Both keep their first ticket, then only ever draw blind: Alice's hand grows by two a turn.
    for _ in range(200):
        stored = await bot.tables.current(GAMES_CHANNEL_ID)
        here = bot.tables.position(stored)
        seat = here.acting[0]
        user = stored.seats[seat].user_id
        assert user is not None
        _, moves = bot.tables.hand(stored, user)
        notations = [m.notation for m in moves]
        yard = [n for n in notations if n.startswith("yard ")]
        if user == ALICE_ID and len(yard) > 100:
            break
        keep = next((n for n in notations if n.startswith("keep ") and n != "keep none"), None)
        move = keep or ("take blind" if "take blind" in notations else notations[0])
        await driver.slash("move", {"action": move}, user_id=user)
    else:
        raise AssertionError("Alice's hand never offered more than 100 Railyard sets")
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    assert "type /move" not in (hand.content or ""), hand.content
    selects = _selects(hand)
    offered = {o["value"] for s in selects for o in s.get("options", [])}
    # The colour buttons ask which set (how many of the colour, then how many Locomotives):
    # each set's button says what it plays ("3 Red + 1 Locomotive").
    assert hand.message is not None
    for component in walk_components(hand.message.get("components") or []):
        if str(component.get("custom_id", "")).startswith("jn:g:"):
            for button in await buttons_behind(driver, hand.message, [component["custom_id"]]):
                action = G.parse_action(f"yard {button['label']}")
                offered.add(G.format_action(action))
    # Three singles are picked by their colours in a menu of exactly three choices.
    triples = [
        {o["value"] for o in s.get("options", [])}
        for s in selects
        if s.get("min_values") == 3 and s.get("max_values") == 3
    ]

    def reachable(notation: str) -> bool:
        words = notation.split()[1:]
        if notation in offered:
            return True
        return len(set(words)) == 3 == len(words) and any(set(words) <= t for t in triples)

    missing = [n for n in yard if not reachable(n)]
    assert not missing, (
        f"{len(missing)} of {len(yard)} Railyard plays have no button: {missing[:5]}"
    )


async def test_ttr_solo_rules_explain_the_solo_game(driver: InteractionDriver) -> None:
    """/rules game:ttr-solo must give the solo game's rules in brief. Before the fix, it posts the
    standard game's "In short" ("choose tickets from 6 (keep at least 1)", opponents' sets, a
    final round and a second deck when the train deck runs out) plus one line about the
    Station Clock, so a newcomer is never told that the highest-value ticket must be kept (the
    bot only says so after refusing their choice: "You must keep your highest-value ticket")
    and is told end-of-deck rules that do not apply to solo."""
    said = replies(await driver.slash("rules", {"game": "ttr-solo"}))
    assert "highest" in said.lower(), said


# --- Dragon Mille Bornes -------------------------------------------------------------------------

# Six cars that can only discard: no Go, no attack. Every computer turn is two captions.
NO_GO = [*["25"] * 10, *["50"] * 10, *["75"] * 10, *["100"] * 6]
ONLY_ARMOR = [
    *["armor-front"] * 7,
    *["armor-back"] * 7,
    *["armor-left"] * 7,
    *["armor-right"] * 7,
    "swerve",
    "swerve",
]
ALICE_AND_FIVE_COMPUTERS = [
    SeatRecord(0, "Alice", user_id=ALICE_ID),
    *(SeatRecord(seat, f"Computer {seat}", policy="normal") for seat in range(1, 6)),
]


async def test_dragon_table_message_tells_every_move_since_the_members_last(
    driver: InteractionDriver,
) -> None:
    """Dragon with five computers: after Alice ends her turn, the table message must say what
    she did and what each computer did before it is her turn again ("after every move the bot
    posts the new table with a caption"). Before the fix, ``table_text`` keeps only the last six
    captions, so Alice's own move and the first computers' turns vanish. In a newcomer's game
    this hid a Flamethrower shot at Alice's left (Computer 2's turn) right after she pressed
    "Armor on the front": the message began with another car's shot and her armour's effect
    was never shown. Ticket to Ride with three computers loses "alice then takes …" the same
    way, and with it any robbery of her Railyard that falls before the last six lines."""
    bot = running_bot(driver)
    await bot.tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=ALICE_AND_FIVE_COMPUTERS,
        deck=[*NO_GO, *ONLY_ARMOR],
    )
    await driver.slash("move", {"action": "discard 25"})
    ended = public_table(await driver.slash("move", {"action": "end"}))
    text = ended.content or ""
    assert "Alice ends the turn" in text, text
    for seat in range(1, 6):
        assert f"Computer {seat}" in text, f"Computer {seat}'s turn is missing:\n{text}"


# Alice: a Called Shot and a Machine Gun (Front); the computer holds front armour.
CALLED_MB = [*["25"] * 6, *["50"] * 6]
CALLED_CW = [
    *["called-shot", "mg-front", "swerve", "swerve", "swerve"],
    *["armor-front", "armor-front", "armor-back", "armor-back", "armor-left"],
]


async def test_dragon_called_shot_button_does_not_name_a_side(driver: InteractionDriver) -> None:
    """A Called Shot hits "a side you name". Its button in My hand must not promise one side.
    Before the fix, it is labelled "Called Shot (front)" (the first legal move's words), and the
    picker it opens says "Called Shot (front): Aim at which car?" while offering front, back,
    left and right: a newcomer reads it as a front-only shot."""
    update = await alice_against(driver, COMPUTER, game_key="dragon", deck=[*CALLED_MB, *CALLED_CW])
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{update.game.id}")
    called = [label for label in labels(hand) if label.startswith("Called Shot")]
    assert called, labels(hand)
    aim = await driver.click(hand.message, component_id(hand, "Called Shot"))
    sides = {label.rsplit(" ", 1)[-1] for label in labels(aim)}
    assert sides == {"front", "back", "left", "right"}, labels(aim)
    for text in [*called, aim.content or ""]:
        assert "(front)" not in text, f"the Called Shot is shown as {text!r}"


async def test_dragon_a_shot_answered_by_the_computer_is_told_once(
    driver: InteractionDriver,
) -> None:
    """Alice fires one Machine Gun at the computer, which answers with armour. The table message
    must tell one shot. Before the fix, it reads "Alice fires Machine Gun at Computer's
    front.\\nAlice fires Machine Gun at Computer's front. Computer plays Armor on the front. No
    damage.": the shot's caption and the answer's caption (which repeats the shot) are both
    posted, so it looks like two shots (the same for every answered shot, stampede, and skid
    chain; a six-car stampede repeated its first line five times)."""
    await alice_against(driver, COMPUTER, game_key="dragon", deck=[*CALLED_MB, *CALLED_CW])
    shot = public_table(await driver.slash("move", {"action": "mg-front @1"}))
    text = shot.content or ""
    assert "Armor" in text, text  # the computer answered
    assert text.count("fires Machine Gun") == 1, text


# --- 1000 Mile Race -----------------------------------------------------------------------------

RACE_RED = ["100", "50", "25", "flat-tire", "spare-tire", "extra-tank", "pit-crew"]
RACE_BLUE = ["25", "75", "coup-fourre", "roadblock", "jammer", "gasoline", "repairs"]


async def test_race_alt_text_names_who_is_asked_to_answer(driver: InteractionDriver) -> None:
    """Alice plays a Flat Tire on Bob, who holds Coup Fourré: the table waits for Bob. The image
    frames Bob ("▶ MAY REACT") and the message pings him, so the table's alt text, read aloud
    in place of the image, must say what the image says: Bob may react. It first said "to play:
    Alice (Red) …" (the player whose turn it is), then "to play: Bob (Blue) …", though Bob is
    only asked to react; it now says "may react: Bob (Blue) …"."""
    await alice_against(driver, game_key="race", deck=[*RACE_RED, "/", *RACE_BLUE])
    played = await driver.slash("move", {"action": "play flat-tire"})
    assert f"<@{BOB_ID}>, you may react" in (public_table(played).content or "")
    alt = alt_text_of(played, "table.png")
    assert "\nmay react: Bob (Blue): " in alt, alt
    assert "to play:" not in alt, alt


# --- Mille Bornes --------------------------------------------------------------------------------

MILLE_ALICE = ["go", "extra-tank", "25", "25", "25", "25"]
MILLE_BOB = ["go", "out-of-gas", "50", "50", "50", "50"]
MILLE_DRAWS = ["75", "75", "75", "100", "100", "50", "100", "100", "100", "100"]


OUT_OF_GAS_AGES = [(ALICE_ID, "draw"), (ALICE_ID, "discard 25"), (BOB_ID, "play 50")]
"""Alice draws instead of her coup fourré, discards, and Bob drives on: the hazard is old."""


async def _play(driver: InteractionDriver, moves: list[tuple[int, str]]) -> None:
    for user, move in moves:
        await driver.slash("move", {"action": move}, user_id=user)


async def _out_of_gas_on_alice(driver: InteractionDriver) -> int:
    """A single hand where Bob's Out of Gas has just hit Alice, who holds the Extra Tank; the
    game's id."""
    update = await alice_against(
        driver, deck=[*MILLE_ALICE, *MILLE_BOB, *MILLE_DRAWS], options={"length": "hand"}
    )
    opening = [(ALICE_ID, "play go"), (BOB_ID, "play go"), (ALICE_ID, "play 25")]
    await _play(driver, [*opening, (BOB_ID, "play out-of-gas")])
    return update.game.id


async def test_mille_a_safety_on_an_old_hazard_is_not_offered_as_a_coup_fourre(
    driver: InteractionDriver,
) -> None:
    """Bob's Out of Gas hits Alice, who holds the Extra Tank; she chooses Draw (no coup) and
    discards. On her next turn the safety may still be played before drawing, but the rules
    say it is a coup fourré (+300) only if the hazard landed since her last draw: this one did
    not. The button must not promise a coup. Before the fix, it says "Coup fourré! Extra Tank", and
    pressing it posts "Alice plays the safety Extra Tank." with no coup scored."""
    bot = running_bot(driver)
    game_id = await _out_of_gas_on_alice(driver)
    await _play(driver, OUT_OF_GAS_AGES)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, f"jn:h:{game_id}")
    safety = [label for label in labels(hand) if "Extra Tank" in label]
    assert safety, labels(hand)
    played = await driver.click(hand.message, component_id(hand, "Extra Tank"))
    state = bot.tables.position(await bot.tables.current(GAMES_CHANNEL_ID)).state
    assert not state.tableaus[0].coups, "not a coup fourré: the hazard is old"
    assert "coup" not in safety[0].lower(), (
        f"the button says {safety[0]!r}; the table then says {public_table(played).content!r}"
    )


async def test_mille_hand_text_promises_a_coup_fourre_only_for_a_fresh_hazard(
    driver: InteractionDriver,
) -> None:
    """The same old Out of Gas as above: My hand's text (the image's alt text, read aloud) must
    not call the safety a coup fourré either, while it does when the hazard has just landed.
    Before the fix the alt text asked "A hazard is on you and you hold its safety: coup
    fourré?" for both (and the image said "(coup fourré!)" over a gold "COUP FOURRÉ!" tag)."""
    game_id = await _out_of_gas_on_alice(driver)

    async def hand_text() -> str:
        table = public_table(await driver.slash("table", {}))
        hand = await driver.click(table.message_id, f"jn:h:{game_id}")
        return alt_text_of(hand, "hand.png")

    fresh = await hand_text()
    assert "A hazard is on you and you hold its safety: coup fourré?" in fresh, fresh
    await _play(driver, OUT_OF_GAS_AGES)
    old = await hand_text()
    assert "coup fourré" not in old and "play it before drawing?" in old, old


async def test_mille_alt_text_names_the_cards_as_the_image_does(driver: InteractionDriver) -> None:
    """With French card names the table image shows "Feu vert", "Panne d'essence" and
    "Citerne d'essence"; its alt text must name the same cards. Before the fix it read
    "battle: Out of Gas" and "safeties: Extra Tank (coup fourré)", the English names, while the
    image, the buttons and the captions used the French ones."""
    await alice_against(
        driver, deck=[*MILLE_ALICE, *MILLE_BOB, *MILLE_DRAWS], options={"names": "fr"}
    )
    for user, move in [(ALICE_ID, "play go"), (BOB_ID, "play go"), (ALICE_ID, "play 25")]:
        await driver.slash("move", {"action": move}, user_id=user)
    hazard = await driver.slash("move", {"action": "play out-of-gas"}, user_id=BOB_ID)
    alt = alt_text_of(hazard, "table.png")
    assert "battle: Panne d'essence" in alt and "battle: Feu vert" in alt, alt
    coup = await driver.slash("move", {"action": "play extra-tank"})
    alt = alt_text_of(coup, "table.png")
    assert "safeties: Citerne d'essence (coup fourré)" in alt, alt
    assert "Extra Tank" not in alt and "Out of Gas" not in alt, alt


async def test_mille_a_hands_score_is_read_out_once(driver: InteractionDriver) -> None:
    """When a hand ends, the score image's alt text reads its breakdown. The table's alt text is
    the table: before the fix it began with the last hand's score ("══ Hand 1: … ══", a line
    per player) on every table of the next hand, so a screen reader repeated hand 1's score
    before each move of hand 2 (and the console printed it with every table)."""
    bot = running_bot(driver)
    tables = bot.tables
    await alice_against(driver, seed=2)
    rng = random.Random(2)
    ended: InteractionResult | None = None
    for _ in range(2000):
        stored = await tables.current(GAMES_CHANNEL_ID)
        here = tables.position(stored)
        user = stored.seats[here.acting[0]].user_id
        assert user is not None
        move = rng.choice(tables.hand(stored, user)[1]).notation
        moved = await driver.slash("move", {"action": move}, user_id=user)
        if ended is not None:
            break  # ``moved`` is the first move after the one that ended hand 1
        after = tables.position(await tables.current(GAMES_CHANNEL_ID)).state
        if after.results:
            ended = moved
    assert ended is not None
    score = alt_text_of(ended, "score.png")
    assert score.startswith("══ Hand 1: ") and "Milestones +" in score, score
    # Each line's points are signed, as on the image: "Safeties ×2 200" read as one number.
    assert re.search(r"Safeties ×\d \+\d+00", score), score
    assert "══ Hand 1" not in alt_text_of(ended, "table.png")
    later = alt_text_of(moved, "table.png")
    assert later.startswith("Hand 2 · trip 700"), later


class DrawFirst(Policy):
    """A computer that draws rather than play a safety before drawing, else plays the first
    legal move."""

    name = "draw-first"

    def choose(self, view: Any, rng: random.Random) -> str:
        return "draw" if "draw" in view.legal else str(view.legal[0])


async def test_mille_a_computer_drawing_instead_of_a_coup_says_nothing(
    driver: InteractionDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's Out of Gas hits the computer, which holds Extra Tank and draws instead of
    playing it. The public table cannot tell that choice from an automatic draw (nothing is
    posted when a member makes it), so the message must not tell it either. Before the fix
    the draw's step repeated the last caption and the message read "Alice plays Out of Gas on
    Computer!" twice, as if she had played two hazards."""
    monkeypatch.setitem(bundle("mille").policies, DrawFirst.name, DrawFirst)
    await alice_against(
        driver,
        SeatRecord(1, "Computer", policy=DrawFirst.name),
        deck=[*MILLE_BOB, *MILLE_ALICE, *MILLE_DRAWS],
        options={"length": "hand"},
    )
    await driver.slash("move", {"action": "play go"})
    hazard = public_table(await driver.slash("move", {"action": "play out-of-gas"}))
    text = hazard.content or ""
    assert "Computer plays the safety Extra Tank." in text, text  # after drawing: no coup
    assert text.count("Alice plays Out of Gas on Computer!") == 1, text


# --- the end of a solitaire --------------------------------------------------------------------


async def test_the_end_of_a_solo_game_is_told_once(driver: InteractionDriver) -> None:
    """When a Ticket to Ride Solo game ends, the last table message should say once why it ended
    and how it went. Before the fix, the reason is printed twice, once as the caption and again
    inside the result line: "… The last Station Clock card has been played: turn 16 is over. You
    lose, -52 to 97.\\n🏁 **Game over.** The last Station Clock card has been played: turn 16 is
    over. You lose, -52 to 97." (Mille Bornes Solo: "Out of fuel: no move and an empty tank.
    17/49 cards cleared, 450 miles." twice; Ticket to Ride: "Computer (normal) wins with 71
    points." twice.)"""
    bot = running_bot(driver)
    await driver.slash("play", {"game": "ttr-solo"})
    last = ""
    for _ in range(200):
        current = await bot.tables.store.active_game(GAMES_CHANNEL_ID)
        if current is None:
            break
        view, moves = bot.tables.hand(current, ALICE_ID)
        move = f"keep {view.keep_one_of[0].code}" if view.keep_one_of else moves[0].notation
        result = await driver.slash("move", {"action": move})
        last = public_table(result).content or ""
    assert await bot.tables.store.active_game(GAMES_CHANNEL_ID) is None
    reason = "The last Station Clock card has been played"
    assert last.count(reason) == 1, last
