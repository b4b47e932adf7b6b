"""After games end, as members of a busy server see it: rating moves, verdicts and boards
(found in a review of results, ratings and the commands that show them)."""

from __future__ import annotations

from bot.boards import history_lines, leaderboard, member_stats, rating_changes
from bot.ratings import ResultRecord
from bot.store.base import StoredResult
from cogs.alt_text import board_text, stats_text

T0 = 1_700_000_000.0
YEAR = 365 * 86_400.0
ANN, BOB = 10, 20


def _game(
    game_id: int, seats: tuple[int, ...], ranks: tuple[int, ...], at: float, key: str = "mille"
) -> StoredResult:
    record = ResultRecord(
        game_id=game_id,
        game_key=key,
        guild_id=1,
        finished_at=at,
        seats=seats,
        ranks=ranks,
    )
    names = tuple(f"P{seat}" for seat in seats)
    return StoredResult(record, names, channel_id=5, message_id=None)


def test_a_win_after_a_long_break_reads_as_a_gain() -> None:
    """Ann and Bob play ten games, then nothing for a year; Ann wins the next one. Her line read
    "1,138 → 1,099 (-39)": the rating before was her stale figure of a year ago, while the game
    itself (and the board meanwhile) had grown her uncertainty by her time away."""
    results = [_game(i, (ANN, BOB), (i % 2, 1 - i % 2), T0 + 60 * i) for i in range(1, 11)]
    results.append(_game(11, (ANN, BOB), (0, 1), T0 + YEAR))
    ann, bob = rating_changes(results, game_id=11, game_key="mille", guild_id=1)
    assert (ann.user_id, bob.user_id) == (ANN, BOB)
    assert ann.after > ann.before, ann
    assert bob.after < bob.before, bob


def test_two_members_of_the_same_name_and_record_are_not_both_you() -> None:
    """Two members called Sam each beat a newcomer: their rows read the same (place, name,
    rating, games, win rate). The board compared rows by what they show, so the image outlined
    both as the caller's, and the alt text said "(you)" twice. (The later Sam is numbered now,
    ``told_apart``; the rows still share every figure.)"""
    sam, other_sam = 30, 40
    results = [
        StoredResult(
            ResultRecord(1, "mille", 1, T0, seats=(sam, ANN), ranks=(0, 1)), ("Sam", "Ann"), 5, None
        ),
        StoredResult(
            ResultRecord(2, "mille", 1, T0 + 1, seats=(other_sam, BOB), ranks=(0, 1)),
            ("Sam", "Bob"),
            5,
            None,
        ),
    ]
    board = leaderboard(results, game_key="mille", guild_id=1, caller=sam, now=T0 + 2)
    first, second = board.rows[:2]
    assert (first.rank, first.value, first.games) == (second.rank, second.value, second.games)
    assert sum(row == board.caller_row for row in board.rows) == 1
    text = board_text("Mille Bornes", board.rows, board.caller_row, "All time", "Rating")
    assert text.count("(you)") == 1, text


def test_a_shared_first_place_is_not_a_win_in_history() -> None:
    """The last two Dragon drivers die together with equal miles: nobody wins (the table says
    so, and /stats counts a draw), yet /history told both "**won**"."""
    game = _game(1, (ANN, BOB, 30), (0, 0, 2), T0, key="dragon")
    ann = history_lines([game], ANN, escape=str)
    third = history_lines([game], 30, escape=str)
    assert "**tied for first**" in ann[0] and "won" not in ann[0], ann
    assert "**place 3**" in third[0], third


def test_one_game_is_one_game_in_words() -> None:
    """After a member's first Dragon game the screen reader said "1 games" on the board and the
    card, and the card (image and words) "Kills: 1 (in 1 games)"."""
    record = ResultRecord(
        1,
        "dragon",
        1,
        T0,
        seats=(ANN, BOB, 30),
        ranks=(0, 1, 2),
        scores=(1000, 400, 0),
        details=({"kills": 1, "won": 1}, {"kills": 0, "won": 0}, {"kills": 0, "won": 0}),
    )
    results = [StoredResult(record, ("Ann", "Bob", "Cy"), 5, None)]
    board = leaderboard(results, game_key="dragon", guild_id=1, caller=ANN, now=T0)
    text = board_text("Dragon", board.rows, board.caller_row, "All time", "Rating")
    card = member_stats(results, user_id=ANN, name="Ann", game_key="dragon", guild_id=1, now=T0)
    words = stats_text(card)
    assert "1 game," in text and "1 games" not in text, text
    assert "1 game;" in words and "1 games" not in words, words
    assert [(b.label, b.value, b.detail) for b in card.best][-1] == ("Kills", "1", "in 1 game")


def test_the_words_carry_every_number_the_images_show() -> None:
    """The board image notes how many players it ranks and the card its win rate and the
    chart's peak; a screen reader heard none of them."""
    results = [
        _game(1, (ANN, BOB), (0, 1), T0),
        _game(2, (ANN, BOB), (1, 0), T0 + 60),
        _game(3, (ANN, 30), (0, 1), T0 + 120),
    ]
    board = leaderboard(results, game_key="mille", guild_id=1, caller=ANN, now=T0 + 180)
    text = board_text("Mille Bornes", board.rows, board.caller_row, "All time", "Rating")
    assert text.endswith("\n3 players on this board."), text
    card = member_stats(results, user_id=ANN, name="Ann", game_key="mille", guild_id=1, now=T0)
    peak = max(point.rating for point in card.history)
    words = stats_text(card)
    assert "2 won, 1 lost, 0 drawn, 67% won." in words, words
    assert f"Rating over time: 3 rated games, peak {peak:,}." in words, words


def _solo(game_id: int, won: bool, preset: str) -> StoredResult:
    record = ResultRecord(
        game_id=game_id,
        game_key="solo",
        guild_id=1,
        finished_at=T0 + 60 * game_id,
        seats=(ANN,),
        ranks=(0,),
        scores=(500,),
        options={"preset": preset},
        details=({"won": int(won), "cleared": 49 if won else 30, "score": 500},),
    )
    return StoredResult(record, ("Ann",), channel_id=5, message_id=None)


def _solo_words(results: list[StoredResult]) -> str:
    card = member_stats(results, user_id=ANN, name="Ann", game_key="solo", guild_id=1, now=T0)
    return stats_text(card)


def test_the_solitaire_win_rate_leaves_out_games_that_could_not_be_won() -> None:
    """Ann plays a classic Mille Bornes Solo (a score attack nobody wins), wins a refuel game
    and loses an easy one. Her card read "1 won, 2 lost, 33% won", the classic game a loss;
    it is only played, and the rate is over the two games she could have won."""
    results = [_solo(1, False, "classic"), _solo(2, True, "refuel"), _solo(3, False, "easy")]
    words = _solo_words(results)
    assert "3 games played: 1 won, 1 lost, 50% won." in words, words


def test_no_solitaire_win_rate_when_no_game_could_be_won() -> None:
    """Only classic games played: nothing won or lost, and no "0% won" rate."""
    words = _solo_words([_solo(1, False, "classic"), _solo(2, False, "classic")])
    assert "2 games played: 0 won, 0 lost." in words and "% won" not in words, words
