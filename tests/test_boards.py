"""Leaderboard rows, ties, the caller's row and solo boards, from stored results; boards of
thousands of members are named without reading every name again."""

from __future__ import annotations

import dataclasses
import random

import pytest

import bot.boards
import bot.names
from bot.boards import ELSEWHERE, history_lines, leaderboard, member_stats, told_apart
from bot.names import unused_name
from bot.ratings import ResultRecord
from bot.results import ASSISTED
from bot.store.base import StoredResult

NOW = 1_800_000_000.0


def _duel(game_id: int, winner: int, loser: int, *, guild: int = 1) -> StoredResult:
    record = ResultRecord(
        game_id=game_id,
        game_key="mille",
        guild_id=guild,
        finished_at=NOW - 1000 + game_id,
        seats=(winner, loser),
        ranks=(0, 1),
        scores=(5000, 3000),
    )
    return StoredResult(record, (f"P{winner}", f"P{loser}"), channel_id=5, message_id=None)


def _solo(
    game_id: int,
    player: int,
    miles: int,
    won: bool,
    cleared: int = 49,
    preset: str | None = None,
) -> StoredResult:
    """A Mille Bornes Solo result; without ``preset`` its options name none, as early ones."""
    figures = {"won": "yes" if won else "no", "cleared": str(cleared)}
    record = ResultRecord(
        game_id=game_id,
        game_key="solo",
        guild_id=1,
        finished_at=NOW - 1000 + game_id,
        seats=(player,),
        ranks=(0,),
        scores=(miles,),
        options={**figures, **({"preset": preset} if preset else {})},
        counted=False,
    )
    return StoredResult(record, (f"P{player}",), channel_id=5, message_id=9)


def _ttr_solo(game_id: int, player: int, figures: dict[str, int]) -> StoredResult:
    record = ResultRecord(
        game_id=game_id,
        game_key="ttr-solo",
        guild_id=1,
        finished_at=NOW - 1000 + game_id,
        seats=(player,),
        ranks=(0,),
        scores=(figures.get("score", 0),),
        counted=False,
        details=(figures,),
    )
    return StoredResult(record, (f"P{player}",), channel_id=5, message_id=9)


def _solo_card(results: list[StoredResult], player: int) -> tuple[int, int, int]:
    """(played, won, lost) on a member's Mille Bornes Solo card."""
    card = member_stats(results, user_id=player, name="P", game_key="solo", guild_id=1, now=NOW)
    return card.games, card.wins, card.losses


def test_the_winner_ranks_first() -> None:
    """Two wins over the same opponent put the winner on top."""
    board = leaderboard(
        [_duel(1, 10, 20), _duel(2, 10, 20)], game_key="mille", guild_id=1, caller=20, now=NOW
    )
    assert [row.name for row in board.rows] == ["P10", "P20"]
    assert board.rows[0].value > board.rows[1].value and board.rows[0].win_rate == 1.0


def test_ties_break_by_games_then_id() -> None:
    """Equal ratings with equal games are ordered by the lower user id, stably."""
    board = leaderboard(
        [_duel(1, 31, 40), _duel(2, 30, 41)], game_key="mille", guild_id=1, caller=30, now=NOW
    )
    winners = [row.name for row in board.rows[:2]]
    assert winners == ["P30", "P31"] and board.rows[0].value == board.rows[1].value


def test_the_callers_row_is_found_outside_the_top() -> None:
    """A caller ranked below the top ten still gets their own row."""
    results = [_duel(i, 100 + i, 200 + i) for i in range(1, 13)]
    board = leaderboard(results, game_key="mille", guild_id=1, caller=212, now=NOW)
    assert board.caller_row is not None and board.caller_row.name == "P212"
    assert board.caller_row.rank > 10


def test_other_servers_do_not_count_on_a_server_board() -> None:
    """A server board ignores games played on other servers; the global board has them."""
    results = [_duel(1, 10, 20, guild=1), _duel(2, 30, 40, guild=2)]
    here = leaderboard(results, game_key="mille", guild_id=1, caller=10, now=NOW)
    everywhere = leaderboard(results, game_key="mille", guild_id=None, caller=10, now=NOW)
    assert len(here.rows) == 2 and len(everywhere.rows) == 4


def test_solo_board_ranks_wins_then_cleared_then_miles() -> None:
    """On a solo board a win beats any loss, then cards cleared, then miles decide."""
    results = [
        _solo(1, 10, 900, False, cleared=40),
        _solo(2, 20, 400, True),
        _solo(3, 30, 600, True),
        _solo(4, 40, 950, False, cleared=43),
    ]
    board = leaderboard(results, game_key="solo", guild_id=1, caller=10, now=NOW)
    assert [row.name for row in board.rows] == ["P30", "P20", "P40", "P10"]
    assert [row.value for row in board.rows] == [49, 49, 43, 40]
    assert board.value_label == "Cleared /49" and board.rows[0].win_rate is None


def test_member_stats_card() -> None:
    """A member's card has their rating, record and opponents."""
    results = [_duel(1, 10, 20), _duel(2, 20, 10), _duel(3, 10, 20)]
    card = member_stats(results, user_id=10, name="P10", game_key="mille", guild_id=1, now=NOW)
    assert (card.wins, card.losses, card.rank) == (2, 1, 1)
    assert len(card.history) == 3 and card.opponents[0].name == "P20"


def test_history_lines_link_to_the_table() -> None:
    """History lines say the result and link to the table message when known."""
    lines = history_lines([_solo(7, 10, 650, True)], 10, escape=str)
    assert len(lines) == 1 and "**won**" in lines[0] and "/channels/1/5/9" in lines[0]


def test_personal_bests_include_the_best_hand() -> None:
    """Stats show the best game score and, from the game's details, the best single hand."""
    duel = _duel(1, 10, 20)
    options = {"best_hand_0": "2300", "best_hand_1": "900"}
    hand = StoredResult(
        ResultRecord(**{**duel.record.__dict__, "game_id": 2, "options": options}),
        duel.names,
        channel_id=5,
        message_id=None,
    )
    card = member_stats([duel, hand], user_id=10, name="P10", game_key="mille", guild_id=1, now=NOW)
    assert [(b.label, b.value) for b in card.best] == [
        ("Best score", "5,000 pts"),
        ("Best hand", "2,300 pts"),
    ]


def test_a_solitaires_card_has_no_rating_and_places_the_best_on_the_board() -> None:
    """Mille Bornes Solo's card counts every game played and the games won (no draws; a
    classic game not won is neither won nor lost), and its best is the board's own: a game
    played with hints counts as played, never as the best."""
    solo = _solo(3, 10, 990, True, preset="refuel")
    options = {**solo.record.options, ASSISTED: "hint"}
    assisted = dataclasses.replace(solo, record=dataclasses.replace(solo.record, options=options))
    results = [_solo(1, 10, 900, False, cleared=40), _solo(2, 20, 400, True), assisted]
    card = member_stats(results, user_id=10, name="P10", game_key="solo", guild_id=1, now=NOW)
    assert card.solitaire and card.winnable and card.rating is None
    assert (card.games, card.wins, card.losses, card.draws) == (2, 1, 0, 0)
    assert (card.board_label, card.board_value, card.rank, card.ranked_players) == (
        "Cleared /49",
        40,
        2,
        2,
    )
    assert [(b.label, b.value) for b in card.best] == [("Best score", "990 miles")]


def test_a_classic_game_not_won_is_played_in_history_and_on_the_card() -> None:
    """Mille Bornes Solo's classic preset (the default, and the daily deal) cannot be won:
    /history called such a game "played" while the /stats card counted it LOST. Both now say
    played, for a result naming the preset and for one stored before options were kept."""
    results = [_solo(1, 10, 900, False, cleared=40, preset="classic"), _solo(2, 10, 800, False)]
    lines = history_lines(results, 10, escape=str)
    assert all("**played**" in line for line in lines), lines
    assert _solo_card(results, 10) == (2, 0, 0)


def test_a_refuel_game_not_won_is_lost_in_history_and_on_the_card() -> None:
    """The refuel preset can be won: a game of it not won is a loss. /history called it
    "played", hiding the loss the /stats card counted."""
    results = [_solo(1, 10, 900, False, cleared=40, preset="refuel")]
    lines = history_lines(results, 10, escape=str)
    assert len(lines) == 1 and "**lost**" in lines[0], lines
    assert _solo_card(results, 10) == (1, 0, 1)


def test_a_ticket_to_ride_solo_game_not_won_is_lost_whatever_its_figures() -> None:
    """Ticket to Ride Solo is always played against the hidden tickets, so a game not won is
    lost in /history and on the card, even when its result carries no margin figure (/history
    called such a result "played")."""
    results = [_ttr_solo(1, 10, {"won": 0, "score": 28}), _ttr_solo(2, 10, {"won": 1, "score": 41})]
    lines = history_lines(results, 10, escape=str)
    assert ["**won**" in lines[0], "**lost**" in lines[1]] == [True, True], lines
    card = member_stats(results, user_id=10, name="P", game_key="ttr-solo", guild_id=1, now=NOW)
    assert (card.games, card.wins, card.losses) == (2, 1, 1)


def test_a_board_across_servers_shows_only_the_names_recorded_on_its_server() -> None:
    """Seat names are server nicknames: on server 1, the board across servers names member 10
    (who played on server 2 only) by no name of server 2's, and leaves them for the front end
    to name; member 20's name from server 1 stays, and so does a former player's."""
    results = [_duel(1, 10, 20, guild=2), _duel(2, 20, 30, guild=1), _duel(3, -5, 10, guild=2)]
    board = leaderboard(results, game_key="mille", guild_id=None, caller=20, now=NOW, here=1)
    names = {row.player: row.name for row in board.rows}
    assert names == {10: ELSEWHERE, 20: "P20", 30: "P30", -5: "P-5"}
    assert board.elsewhere == {10}


def test_a_board_across_servers_in_a_direct_message_shows_no_nickname() -> None:
    """Seen from a direct message (no server), every member is named by the front end."""
    results = [_duel(1, 10, 20, guild=2), _duel(2, 20, 30, guild=1)]
    board = leaderboard(results, game_key="mille", guild_id=None, caller=20, now=NOW, here=None)
    assert {row.name for row in board.rows} == {ELSEWHERE}
    assert board.elsewhere == {10, 20, 30}


def test_names_are_told_apart_as_one_by_one() -> None:
    """Each name numbered against every name shown before it, look-alikes included."""
    rng = random.Random(9)
    pool = ["Sam", "SAM", "Ｓａｍ", "Ian", "lan", "Bob", "Воb", "Sam (2)", "Al", "All"]
    names = {user: rng.choice(pool) for user in range(60)}
    expected: dict[int, str] = {}
    for user, name in names.items():
        expected[user] = unused_name(name, list(expected.values()))
    assert told_apart(names) == expected


def test_a_board_of_thousands_reads_each_name_a_few_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """Naming a board's members reads each name a bounded number of times, not once per
    member shown before it (which took seconds on a server of thousands of members)."""
    reads = 0
    read = bot.names.readings

    def counted(name: str) -> frozenset[str]:
        nonlocal reads
        reads += 1
        return read(name)

    monkeypatch.setattr(bot.names, "readings", counted)
    monkeypatch.setattr(bot.boards, "readings", counted)
    members = 2_000
    told_apart({user: f"Member {user}" for user in range(members)})
    assert reads <= 3 * members
