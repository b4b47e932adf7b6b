"""Every image the bot posts says in words what it shows (Discord's attachment description), so a
member using a screen reader can follow the table, their hand and the boards."""

from __future__ import annotations

import pytest

from bot.engine.dragon import GAME
from bot.engine.dragon.state import DragonState
from bot.engine.mille.cards import SAFETIES, Card
from bot.engine.ttr.cards import CARD_CODES
from bot.engine.ttr.ending import finish
from bot.engine.ttr.state import KEEP
from bot.games import bundle
from bot.games.ttr import result_text
from bot.render.leaderboard import LeaderboardRow
from bot.render.stats import BestLine, MemberStats, OpponentLine
from bot.store.base import SeatRecord
from cogs.alt_text import DESCRIPTION_LIMIT, board_text, described, described_fitting, stats_text
from tests.cogs.conftest import running_bot
from tests.cogs.helpers import alice_against, public_table, stacked_mille
from tests.discord.backend import ALICE_ID, BOB_ID, GAMES_CHANNEL_ID, GUILD_ID
from tests.discord.payloads import InteractionDriver
from tests.engine.race_helpers import act, red_first, to_hand
from tests.engine.ttr_helpers import lay
from tests.render.test_hostile_names import LONG


def _description(attachments: list[dict[str, object]], filename: str) -> str:
    found = [a for a in attachments if a["filename"] == filename]
    assert found, f"no {filename} attached"
    return str(found[0].get("description") or "")


def test_a_long_text_is_cut_at_the_limit_on_a_line() -> None:
    text = "\n".join(f"line {i} " + "x" * 40 for i in range(60))
    shown = described(text)
    assert len(shown) <= DESCRIPTION_LIMIT
    assert shown.startswith("line 0 ")
    assert shown.endswith("…")
    # Every line but the last is whole.
    assert all(line.endswith("x" * 40) for line in shown.splitlines()[:-1])


def test_the_console_rules_are_dropped_and_the_turn_marker_is_said() -> None:
    """The ▶ before the seat to play was dropped with the rules around the text: found by a
    newcomer's review, a screen reader never heard whose turn it was. It reads "to play:"."""
    assert described("── Hand 1 ──\n▶ Alice 100 mi\n  Bob 25 mi\n\n") == (
        "Hand 1\nto play: Alice 100 mi\nBob 25 mi"
    )


def test_an_empty_text_still_describes_something() -> None:
    assert described("   \n──\n") == "(empty)"


def test_the_board_reads_row_by_row_with_the_callers_own_row() -> None:
    rows = [LeaderboardRow(1, "Alice", 1032, 12, 0.75), LeaderboardRow(2, "Bob", 987, 9, 0.4)]
    text = board_text(
        "Mille Bornes — this server",
        rows,
        LeaderboardRow(14, "Zed", 801, 3, 0.0),
        "All time",
        "Rating",
    )
    assert text.splitlines() == [
        "Leaderboard: Mille Bornes — this server, All time.",
        "1. Alice, rating 1,032, 12 games, 75% won",
        "2. Bob, rating 987, 9 games, 40% won",
        "You: 14. Zed, rating 801, 3 games, 0% won",
    ]


def test_the_callers_row_in_the_top_ten_is_marked_not_repeated() -> None:
    alice = LeaderboardRow(1, "Alice", 1032, 12, 0.75)
    text = board_text("Race — all servers", [alice], alice, "All time", "Rating")
    assert text.splitlines()[1:] == [
        "1. Alice, rating 1,032, 12 games, 75% won (you)",
        "1 player on this board.",
    ]


def test_an_empty_board_says_nobody_is_ranked() -> None:
    text = board_text("Solo — all servers", [], None, "Last 7 days", "Best")
    assert text.endswith("Nobody is ranked yet.")


def test_the_stats_card_reads_its_figures() -> None:
    card = MemberStats(
        name="Alice",
        scope_label="Mille Bornes",
        rating=1032,
        rank=2,
        ranked_players=7,
        games=15,
        wins=9,
        losses=5,
        draws=1,
        opponents=(OpponentLine("Bob", 4, 2),),
        favourite_game="Mille Bornes",
        favourite_game_plays=15,
        best=(BestLine("Best hand", "1,425 pts", "vs Bob"),),
    )
    text = stats_text(card)
    assert "Rating 1,032, 2 of 7 on the ladder." in text
    assert "rated record 9 won, 5 lost, 1 drawn" in text
    assert "Against Bob: 4–2–0." in text
    assert "Best hand: 1,425 pts (vs Bob)." in text


async def test_the_table_image_describes_the_public_table(driver: InteractionDriver) -> None:
    """The table's alt text is the public table in words: the players and their miles, never a
    card of anyone's hand."""
    update = await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    alt = _description(table.attachments, "table.png")
    assert alt == described(bundle("mille").presenter.console_table(update.public))
    assert "Alice" in alt and "Bob" in alt
    assert "75" not in alt, "Alice's 75s are in her hand, not on the table"


async def test_an_empty_battle_pile_is_said_in_a_word(driver: InteractionDriver) -> None:
    """At the deal neither player has a battle card: the table's alt text says "battle: none"
    for both. It said "battle: —", read aloud as "battle: em dash"."""
    await stacked_mille(driver)
    alt = _description(public_table(await driver.slash("table", {})).attachments, "table.png")
    assert alt.count("; battle: none; ") == 2 and "—" not in alt, alt


async def test_the_hand_image_describes_the_owners_hand(driver: InteractionDriver) -> None:
    await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, next(c for c in table.custom_ids if "jn:h:" in c))
    assert hand.ephemeral
    attached = [a for response in hand.responses for a in response.attachments]
    alt = _description(attached, "hand.png")
    assert alt.startswith("Your hand:") and "75 miles" in alt


async def test_the_ticket_to_ride_alt_text_names_the_stacks_as_the_rules_do(
    driver: InteractionDriver,
) -> None:
    """Each seat's face-down stack is the rules' "On-the-Track" stack in the table's alt text,
    as on the image and in the captions; it read "on the track 0"."""
    await alice_against(driver, game_key="ttr", seed=1)
    alt = _description(public_table(await driver.slash("table", {})).attachments, "table.png")
    assert alt.count("On-the-Track 0") == 2 and "on the track" not in alt.lower(), alt


def test_the_ticket_to_ride_alt_text_names_cards_as_the_captions_do() -> None:
    """The table's and the hand's alt text word Railyard sets and cards as the captions and
    buttons do ("2 Red + 1 Locomotive", "3 Red, 2 Locomotives"); they read "2+1 red" and
    "3 red, 2 loco" to a screen reader."""
    ttr = bundle("ttr")
    state = lay(hands=[["red"] * 3 + ["loco"] * 2 + ["white"], []], yards=[{"red": (2, 1)}, {}])
    table = described(ttr.presenter.console_table(ttr.game.public_view(state)))
    assert "Railyard 2 Red + 1 Locomotive," in table, table
    hand = described(ttr.presenter.console_hand(ttr.game.private_view(state, 0)))
    assert hand.startswith("Your hand: 3 Red, 1 White, 2 Locomotives\n"), hand


def test_the_ticket_to_ride_alt_text_names_the_face_up_cards() -> None:
    """The draw area and the Station Clock are read out by the captions' names ("Red",
    "Locomotive"); they read the codes "red, loco"."""
    ttr = bundle("ttr")
    state = lay(slots=("red", "loco", "white", "red", None))
    table = ttr.presenter.console_table(ttr.game.public_view(state))
    assert "draw area: Red, Locomotive, White, Red, " in table, table
    solo = bundle("ttr-solo")
    state = solo.game.new_game(["Alice"], 1)
    state.clock_card = CARD_CODES.index("loco")
    table = solo.presenter.console_table(solo.game.public_view(state))
    assert "Station Clock: Locomotive," in table, table


async def test_an_empty_face_up_slot_is_said_in_a_word() -> None:
    """A draw area with its last slot empty reads "…, Red, empty": it read "…, Red, —", said
    aloud as "em dash"."""
    ttr = bundle("ttr")
    state = lay(slots=("red", "loco", "white", "red", None))
    table = ttr.presenter.console_table(ttr.game.public_view(state))
    assert "draw area: Red, Locomotive, White, Red, empty\n" in table, table


async def test_the_solo_alt_text_reads_the_open_hand(driver: InteractionDriver) -> None:
    """Mille Bornes Solo's hand lies open on the table image, so its alt text reads it too:
    found by a newcomer's review, a screen reader heard the seven highways but not the cards
    to play on them."""
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="solo",
        seats=[SeatRecord(0, "Alice", user_id=ALICE_ID)],
        seed=1,
    )
    alt = _description(public_table(await driver.slash("table", {})).attachments, "table.png")
    cards = ", ".join(card.name_in("en") for card in update.public.hand)
    assert f"hand: {cards}" in alt.splitlines(), alt


def test_a_race_hand_over_the_limit_says_to_discard() -> None:
    """At the end-of-turn discard the hand's alt text says what its image's top line says:
    cards must go. It listed the hand alone, and a screen reader heard no reason for the
    discard buttons."""
    race = bundle("race")
    state = act(red_first(), 0, "play pit-crew")
    to_hand(state, 0, 3)
    state = act(state, 0, "end")
    hand = race.presenter.console_hand(race.game.private_view(state, 0))
    assert hand.startswith("Your hand: "), hand
    assert hand.endswith("\nToo many cards: discard down to 10"), hand


def test_a_ticket_to_ride_hand_with_tickets_on_offer_says_to_choose() -> None:
    """With the opening tickets on offer, the hand's alt text says to choose them, as the
    image's top line does (it listed them with no word of a choice to make)."""
    ttr = bundle("ttr")
    state = ttr.game.new_game(["Alice", "Bob"], 1)
    hand = ttr.presenter.console_hand(ttr.game.private_view(state, 0))
    assert "\nOn offer: " in hand, hand
    assert "\nChoose your opening tickets\n" in hand, hand


def test_a_ticket_to_ride_offer_is_said_before_a_long_list_of_tickets_held() -> None:
    """Alice holds fifteen tickets and has drawn four more: her hand's alt text says the
    choice and every ticket on offer within Discord's limit. They came after the fifteen held
    tickets, past 1,024 characters, so a screen reader heard neither the offer nor the choice."""
    ttr = bundle("ttr")
    state = lay(2)
    state.tickets[0] = list(range(25, 40))
    state.offered[0] = [0, 1, 2, 3]
    state.phase = KEEP
    view = ttr.game.private_view(state, 0)
    said = described(ttr.presenter.console_hand(view))
    assert len(said) <= DESCRIPTION_LIMIT
    lines = said.splitlines()
    assert "Choose which tickets to keep" in lines, said
    [offer] = [line for line in lines if line.startswith("On offer: ")]
    assert all(f"{t.code} {t.route} ({t.points})" in offer for t in view.offered), offer


def test_the_fullest_text_whose_first_part_fits_is_said() -> None:
    """Of texts said at several lengths, the fullest whose first part fits is taken, what
    follows it cut at the limit; none fitting, the last, cut."""
    texts = [("a" * 30, "x"), ("b" * 20, "y" * 20), ("c" * 5, "z")]
    assert described_fitting(texts, limit=25) == "b" * 20 + "\n" + "yyy…"
    assert described_fitting(texts[:1], limit=25) == "a" * 24 + "…"


def _crowded_arena(names: list[str], lang: str, dead: bool) -> DragonState:
    """Six cars at the fullest the arena's words can be: each stopped by Out of Gas under a
    Speed Limit, every safety played as a coup fourré, Fireproof Armor, jammed guns, every
    side breached, tires and driver one hit from the end; ``dead``: all but the first killed
    by it, whose name is then said five times more."""
    state = GAME.new_game(names, 1, {"names": lang})
    for car in state.cars:
        car.mb.safeties, car.mb.coups = list(SAFETIES), list(SAFETIES)
        car.mb.battle, car.mb.speed = [Card.OUT_OF_GAS], [Card.SPEED_LIMIT]
        car.mb.miles = [Card.D200] * 4 + [Card.D100] * 2
        car.hits, car.tires, car.driver = [12, 12, 12, 12], 8, 4
        car.jammed, car.fireproof, car.kills = True, ["fireproof"], 5
    for car in state.cars[1:] if dead else ():
        car.alive, car.killed_by = False, 0
    return state


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("dead", [False, True])
def test_six_crowded_cars_of_long_names_are_all_said_within_the_limit(
    lang: str, dead: bool
) -> None:
    """Six cars of 36-character names (32 and a look-alike's number), wide letters among
    them, at their fullest: the arena's alt text stays within Discord's 1,024 characters and
    says every car's miles, state and damage whole. The console's full text was cut after
    the third car, so a screen reader never heard the last three."""
    names = [f"{(name + '龍' * 32)[:32]} ({seat + 2})" for seat, name in enumerate(LONG)]
    assert {len(name) for name in names} == {36}
    view = bundle("dragon").game.public_view(_crowded_arena(names, lang, dead))
    texts = bundle("dragon").presenter.alt_tables
    assert texts is not None
    said = described_fitting(texts(view))
    assert len(said) <= DESCRIPTION_LIMIT
    lines = said.splitlines()
    for car in view.cars:
        [line] = [line for line in lines if line.removeprefix("to play: ").startswith(car.name)]
        assert "tires 8, driver 4; kills 5" in line and not line.endswith("…"), line


async def test_the_arena_alt_text_counts_the_decks_and_each_hand(
    driver: InteractionDriver,
) -> None:
    """Three cars: the arena's alt text says the two decks' sizes once and each car's hand
    sizes, as the image's pills and counts show them (they were left out for every table)."""
    update = await running_bot(driver).tables.start(
        channel_id=GAMES_CHANNEL_ID,
        guild_id=GUILD_ID,
        game_key="dragon",
        seats=[
            SeatRecord(0, "Alice", user_id=ALICE_ID),
            SeatRecord(1, "Bob", user_id=BOB_ID),
            SeatRecord(2, "Computer", policy="normal"),
        ],
        seed=1,
    )
    view = update.public
    alt = _description(public_table(await driver.slash("table", {})).attachments, "table.png")
    lines = alt.splitlines()
    assert lines[1] == (
        f"decks: Mille Bornes {view.mb_deck_count}, Car Wars {view.cw_deck_count}"
    ), lines
    for car in view.cars:
        counted = f"; hand {car.mb_hand_count} Mille Bornes, {car.cw_hand_count} Car Wars"
        assert sum(counted in line and car.name in line for line in lines) == 1, alt
    # Not the image's letters, which a screen reader spelt out ("em bee").
    assert " MB" not in alt and " CW" not in alt, alt


def test_every_ticket_to_ride_total_is_said_before_the_tickets() -> None:
    """Four players holding eleven tickets each at the end: the score image's alt text says
    every player's total, whole, within Discord's limit, and the tickets after them. Seat by
    seat, the third and fourth totals came after the first players' tickets, past 1,024
    characters, and a screen reader never heard them."""
    ttr = bundle("ttr")
    state = lay(4)
    for seat in range(4):
        state.tickets[seat] = list(range(seat, 44, 4))
    finish(state, "The test ends it.")
    assert state.result is not None
    said = described(result_text(ttr.game.public_view(state)))
    assert len(said) <= DESCRIPTION_LIMIT
    lines = said.splitlines()
    for seat, score in enumerate(state.result.seats):
        name = state.players[seat]
        assert any(line.startswith(f"{name}: {score.total} (tickets ") for line in lines), said


async def test_the_mille_hand_says_which_cards_can_be_played(driver: InteractionDriver) -> None:
    """At her turn Alice's hand image marks her one playable card (Go) PLAY and the others
    "discard only"; its alt text now says so. It listed the seven cards alone, and a screen
    reader never told her which of them she could play."""
    await stacked_mille(driver)
    table = public_table(await driver.slash("table", {}))
    hand = await driver.click(table.message_id, next(c for c in table.custom_ids if "jn:h:" in c))
    alt = _description([a for r in hand.responses for a in r.attachments], "hand.png")
    assert alt.splitlines()[1:] == ["Your turn — playable now: Go; or discard a card"], alt


def test_a_race_hand_at_its_turn_says_which_cards_can_be_played() -> None:
    """At Red's turn her hand's alt text says what the image's top line says, and which cards
    the image marks PLAY (all but the Spare Tire, with no Flat Tire on her). It listed the
    cards alone, and a screen reader never told her which she could play."""
    race = bundle("race")
    hand = race.presenter.console_hand(race.game.private_view(red_first(), 0))
    assert hand.splitlines()[1:] == [
        "Your turn — play, cycle or end",
        "Playable now: 25 miles, 50 miles, 75 miles, 100 miles, Flat Tire, Extra Tank, Pit Crew",
    ], hand


def test_a_race_hand_asked_to_react_says_with_which_card() -> None:
    """Red plays 100 miles and Blue may Roadblock it: Blue's hand's alt text says what to react
    to and with which card, as the image's top line and REACT! tag do."""
    race = bundle("race")
    state = act(red_first(blue=["25", "75", "roadblock"]), 0, "play 100")
    hand = race.presenter.console_hand(race.game.private_view(state, 1))
    assert hand.splitlines()[1:] == [
        "React to the 100 miles Ann played? (or pass)",
        "React with: Roadblock",
    ], hand


def test_a_dragon_hand_at_its_turn_says_which_cards_can_be_played() -> None:
    """Ann opens a three-car arena, stopped: her hand's alt text names the cards the image
    leaves bright (Speed Limit and five Car Wars cards; her miles, Stop and Accident are
    dimmed), in the image's order (the cards'). It read out both hands with no word of which
    cards she could play."""
    dragon = bundle("dragon")
    state = GAME.new_game(["Ann", "Bob", "Cat"], 1)
    hand = dragon.presenter.console_hand(GAME.private_view(state, 0))
    assert hand.splitlines()[-1] == (
        "Playable now: Speed Limit, Machine Gun (Right), Rocket (Front), Tire Shot, "
        "Machine Gun Jams, Stampede"
    ), hand


def test_the_arena_says_a_cars_hits_side_by_side_in_words() -> None:
    """A car hit 4 on the left and 8 on the right reads "hits left 4, right 8", one untouched
    "no hits". It read "hits F/B/L/R 0/0/4/8": a screen reader said "F slash B slash L slash R,
    0 slash 0 slash 4 slash 8", letters and numbers to pair up by ear."""
    state = GAME.new_game(["Ann", "Bob", "Cat"], 1)
    state.cars[1].hits = [0, 0, 4, 8]
    view = bundle("dragon").game.public_view(state)
    texts = bundle("dragon").presenter.alt_tables
    assert texts is not None
    lines = described_fitting(texts(view)).splitlines()
    [bob] = [line for line in lines if "Bob:" in line]
    [ann] = [line for line in lines if "Ann:" in line]
    assert "; hits left 4, right 8, tires 0, driver 0;" in bob, bob
    assert "; no hits, tires 0, driver 0;" in ann, ann
