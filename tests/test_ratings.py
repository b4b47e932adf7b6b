"""Ratings: openskill updates for wins, losses, draws and 3–6 seats, the idle rule, the
displayed ordinal, rebuilding ladders from results, scopes, standings and records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.ratings import (
    _MODEL,
    DEFAULT_SIGMA,
    Rating,
    ResultRecord,
    Scope,
    Tally,
    chronological,
    display_rating,
    game_family,
    head_to_head,
    idle_sigma,
    is_rated,
    ranks_from_order,
    rate_game,
    rate_result,
    rating_history,
    recompute,
    recompute_all,
    scopes_of,
    standings,
)

DAY = 86_400.0
T0 = 1_700_000_000.0
MILLE = Scope("mille", 1)


def _record(
    game_id: int,
    seats: tuple[int | None, ...],
    ranks: tuple[int, ...],
    *,
    guild: int | None = 1,
    at: float | None = None,
    counted: bool = True,
    key: str = "mille",
) -> ResultRecord:
    return ResultRecord(
        game_id=game_id,
        game_key=key,
        guild_id=guild,
        finished_at=T0 + game_id * 3600.0 if at is None else at,
        seats=seats,
        ranks=ranks,
        scores=tuple(1000 - 100 * r for r in ranks),
        options={"target": "5000"},
        counted=counted,
    )


def _history(count: int, seed: int = 7) -> list[ResultRecord]:
    """A seeded season of two- to five-seat games on two servers among eight members."""
    rng = random.Random(seed)
    out: list[ResultRecord] = []
    at = T0
    for game_id in range(1, count + 1):
        at += rng.uniform(0.1, 9.0) * DAY
        seats = tuple(rng.sample(range(101, 109), rng.choice((2, 2, 3, 4, 5))))
        ranks = tuple(rng.sample(range(len(seats)), len(seats)))
        if rng.random() < 0.1:  # a drawn game: the two best share first place
            ranks = tuple(0 if r <= 1 else r for r in ranks)
        out.append(_record(game_id, seats, ranks, guild=rng.choice((1, 2)), at=at))
    return out


# --- single games --------------------------------------------------------------------------


def test_newcomer_shows_one_thousand() -> None:
    """A new player's conservative display rating is exactly the base, 1000."""
    assert Rating().display() == 1000


def test_win_raises_winner_and_lowers_loser() -> None:
    """Between equals the winner gains mu, the loser loses as much, both get surer."""
    new = rate_game({}, {1: 0, 2: 1}, T0)
    assert new[1].mu > Rating().mu > new[2].mu
    assert new[1].mu - 25 == pytest.approx(25 - new[2].mu)
    assert new[1].sigma < DEFAULT_SIGMA and new[2].sigma < DEFAULT_SIGMA
    assert new[1].display() > 1000 > new[2].display()
    assert new[1].games == new[2].games == 1
    assert new[1].last_played == new[2].last_played == T0


def test_draw_between_equals_barely_moves_mu_and_lowers_sigma() -> None:
    """A drawn game between equals leaves mu where it was and reduces uncertainty."""
    new = rate_game({}, {1: 0, 2: 0}, T0)
    for rating in new.values():
        assert rating.mu == pytest.approx(25.0, abs=1e-6)
        assert rating.sigma < DEFAULT_SIGMA


def test_draw_against_a_stronger_player_gains_rating() -> None:
    """Holding a favourite to a draw moves the underdog up and the favourite down."""
    strong, weak = Rating(mu=32, sigma=3, games=40), Rating(mu=22, sigma=3, games=40)
    new = rate_game({1: strong, 2: weak}, {1: 0, 2: 0}, T0)
    assert new[1].mu < strong.mu
    assert new[2].mu > weak.mu


def test_upset_moves_more_than_expected_result() -> None:
    """The underdog beating the favourite shifts mu more than the favourite winning."""
    strong, weak = Rating(mu=32, sigma=3, games=40), Rating(mu=22, sigma=3, games=40)
    expected = rate_game({1: strong, 2: weak}, {1: 0, 2: 1}, T0)
    upset = rate_game({1: strong, 2: weak}, {1: 1, 2: 0}, T0)
    gain_expected = expected[1].mu - strong.mu
    gain_upset = upset[2].mu - weak.mu
    assert gain_expected > 0 and gain_upset > 0
    assert gain_upset > 2 * gain_expected
    assert strong.mu - upset[1].mu > weak.mu - expected[2].mu


def test_four_seats_follow_finishing_order() -> None:
    """With equal starting ratings, new ordinals fall strictly with the finishing place."""
    new = rate_game({}, ranks_from_order([40, 10, 30, 20]), T0)
    shown = [new[p].display() for p in (40, 10, 30, 20)]
    assert shown == sorted(shown, reverse=True)
    assert len(set(shown)) == 4
    assert new[40].mu > 25 > new[20].mu


def test_tied_seats_in_a_six_seat_game_rate_alike() -> None:
    """Players sharing a place among six get identical ratings; first gains, last loses most."""
    ranks = ranks_from_order([1, [2, 3], 4, 5, 6])
    assert ranks == {1: 0, 2: 1, 3: 1, 4: 3, 5: 4, 6: 5}
    new = rate_game({}, ranks, T0)
    assert new[2] == new[3]
    assert new[1].mu == max(r.mu for r in new.values()) > 25
    assert new[6].mu == min(r.mu for r in new.values()) < 25


@pytest.mark.parametrize(
    "order",
    [
        [[1, 2], 3, 4, 5, 6],  # two Dragon drivers die together with equal miles: a shared win
        [1, [2, 3], 4, 5, 6],  # two live cars level on miles behind the winner
        [1, 2, 3, [4, 5], 6],
        [[1, 2, 3], 4, 5],
    ],
)
def test_a_shared_place_rates_between_the_places_it_spans(order: list[Any]) -> None:
    """Newcomers finishing in ``order``: everyone ahead gains more than everyone behind, and a
    tie rates alike. openskill's own tie handling put the third car above two drivers sharing
    the win (mu 26.8 against 26.0), and fourth place above a shared second."""
    ranks = ranks_from_order(order)
    new = rate_game({}, ranks, T0)
    for a in ranks:
        for b in ranks:
            if ranks[a] < ranks[b]:
                assert new[a].mu > new[b].mu, (order, a, b)
            elif ranks[a] == ranks[b]:
                assert new[a] == new[b], (order, a, b)


def test_a_two_seat_draw_is_openskill_s_own() -> None:
    """Only ties among some of three or more seats are rated by every order: a two-seat draw
    (every Mille Bornes draw already stored) rates as before."""
    strong, weak = Rating(mu=32, sigma=3, games=40), Rating(mu=22, sigma=3, games=40)
    teams = [[_MODEL.rating(mu=32, sigma=3)], [_MODEL.rating(mu=22, sigma=3)]]
    (own_strong,), (own_weak,) = _MODEL.rate(teams, ranks=[0.0, 0.0])
    new = rate_game({1: strong, 2: weak}, {1: 0, 2: 0}, T0)
    assert (new[1].mu, new[2].mu) == (own_strong.mu, own_weak.mu)


def test_rate_game_needs_two_players() -> None:
    """A one-player game cannot be rated."""
    with pytest.raises(ValueError):
        rate_game({}, {1: 0}, T0)


# --- idle time -----------------------------------------------------------------------------


def test_sigma_grows_back_after_idle_days() -> None:
    """Sixty idle days raise sigma above its value right after the last game."""
    after = rate_game({}, {1: 0, 2: 1}, T0)[1]
    settled = Rating(mu=after.mu, sigma=3.0, games=50, last_played=T0)
    assert settled.at(T0 + 60 * DAY).sigma > settled.sigma
    assert settled.display(T0 + 60 * DAY) < settled.display(T0)
    assert after.at(T0 + 60 * DAY).sigma > after.sigma


def test_idle_sigma_is_capped_at_the_newcomers() -> None:
    """However long the absence, sigma grows no further than the default."""
    settled = Rating(mu=30, sigma=3.0, games=50, last_played=T0)
    assert settled.at(T0 + 5000 * DAY).sigma == pytest.approx(DEFAULT_SIGMA)
    assert idle_sigma(9.0, T0, T0 + 5000 * DAY) == 9.0


def test_no_idle_growth_without_elapsed_time() -> None:
    """No last game, no clock, or a clock before the last game: sigma is unchanged."""
    assert idle_sigma(3.0, None, T0) == 3.0
    assert idle_sigma(3.0, T0, None) == 3.0
    assert idle_sigma(3.0, T0, T0 - DAY) == 3.0
    assert Rating(sigma=3.0, last_played=T0).at(T0) == Rating(sigma=3.0, last_played=T0)


def test_idle_growth_applies_before_a_rated_game() -> None:
    """A returning player's game moves their mu more than the same game played at once."""
    settled = Rating(mu=25, sigma=3.0, games=50, last_played=T0)
    other = Rating(mu=25, sigma=3.0, games=50, last_played=T0 + 200 * DAY)
    fresh = rate_game({1: settled, 2: other}, {1: 0, 2: 1}, T0 + 1)
    rusty = rate_game({1: settled, 2: other}, {1: 0, 2: 1}, T0 + 200 * DAY)
    assert rusty[1].mu - 25 > fresh[1].mu - 25


def test_display_uses_the_documented_formula() -> None:
    """The display is round(1000 + 25 · (mu − 3·sigma))."""
    assert display_rating(Rating(mu=30.0, sigma=2.0)) == 1000 + 25 * 24
    assert display_rating(Rating(mu=20.0, sigma=4.0)) == 1000 + 25 * 8


# --- records and scopes --------------------------------------------------------------------


def test_rating_json_round_trip() -> None:
    """A Rating survives json.dumps / json.loads unchanged, with or without last_played."""
    for rating in (Rating(), rate_game({}, {1: 0, 2: 1}, T0 + 0.25)[1]):
        assert Rating.from_json(json.loads(json.dumps(rating.to_json()))) == rating
    assert Rating.from_json({}) == Rating()


def test_uncounted_games_change_nothing() -> None:
    """Computer seats, counted=False, one seat or a repeated member never move ratings."""
    base = {101: Rating(mu=27, sigma=4, games=3, last_played=T0)}
    for record in (
        _record(1, (101, 102), (0, 1), counted=False),
        _record(2, (101, None), (0, 1)),
        _record(3, (101,), (0,)),
        _record(4, (101, 101), (0, 1)),
    ):
        assert not is_rated(record)
        assert rate_result(base, record) == {}
        assert recompute([record], MILLE) == {}
    assert is_rated(_record(5, (101, 102), (0, 1)))


def test_uncounted_games_are_skipped_in_a_history() -> None:
    """Adding aborted and computer games to a history leaves every ladder as it was."""
    history = _history(40)
    noise = [
        _record(1000 + i, (101 + i % 8, None), (0, 1), at=history[i].finished_at + 1)
        for i in range(10)
    ] + [
        _record(2000 + i, (101, 102), (1, 0), at=history[i].finished_at + 2, counted=False)
        for i in range(10)
    ]
    assert recompute_all(history + noise) == recompute_all(history)


def test_recompute_equals_incremental_updates() -> None:
    """Rebuilding a ladder from results equals applying each game as it finished."""
    history = _history(120)
    for scope in (MILLE, Scope("mille", 2), Scope("mille")):
        table: dict[int, Rating] = {}
        for record in history:  # already chronological
            if scope.includes(record):
                table.update(rate_result(table, record))
        assert recompute(history, scope) == table
        assert recompute_all(history)[scope] == table


def test_recompute_ignores_input_order() -> None:
    """Results are rated chronologically whatever order the table returns them in."""
    history = _history(60)
    shuffled = history[:]
    random.Random(3).shuffle(shuffled)
    assert chronological(shuffled) == history
    assert recompute(shuffled, Scope("mille")) == recompute(history, Scope("mille"))


def test_server_and_global_scopes() -> None:
    """A game moves its server's ladder and the global one; other servers never see it."""
    record = _record(1, (101, 102), (0, 1), guild=1)
    assert scopes_of(record) == (Scope("mille", 1), Scope("mille"))
    assert scopes_of(_record(2, (101, 102), (0, 1), guild=None)) == (Scope("mille"),)
    tables = recompute_all([record])
    assert set(tables) == {Scope("mille", 1), Scope("mille")}
    assert tables[Scope("mille", 1)] == tables[Scope("mille")]
    assert recompute([record], Scope("mille", 2)) == {}
    assert Scope("mille", 1).key == "mille@1" and Scope("mille").key == "mille@global"


def test_game_family_groups_variants() -> None:
    """Variants share their game's ladder; other games have their own."""
    assert game_family("mille:teams") == "mille" == game_family("mille")
    record = _record(1, (101, 102), (0, 1), key="mille:teams")
    assert Scope("mille").includes(record)
    assert not Scope("rail").includes(record)


def test_result_record_checks_lengths() -> None:
    """A record with ranks or scores that do not match its seats is refused."""
    with pytest.raises(ValueError):
        ResultRecord(1, "mille", 1, T0, (101, 102), (0,))
    with pytest.raises(ValueError):
        ResultRecord(1, "mille", 1, T0, (101, 102), (0, 1), scores=(5,))


# --- standings, history and head to head ---------------------------------------------------


def test_standings_are_ordered_and_tallied() -> None:
    """A ladder lists players best first, with their games and wins, above min_games."""
    games = [
        _record(1, (101, 102), (0, 1)),
        _record(2, (101, 103), (0, 1)),
        _record(3, (102, 103), (0, 0)),
        _record(4, (101, 102, 103, 104), (0, 1, 2, 3)),
    ]
    lines = standings(games, MILLE)
    assert [s.display for s in lines] == sorted((s.display for s in lines), reverse=True)
    assert lines[0].player == 101
    assert lines[0].record == Tally(wins=3)
    by_player = {s.player: s for s in lines}
    assert by_player[103].record == Tally(losses=2, draws=1)
    assert by_player[103].record.win_rate == pytest.approx(0.5 / 3)
    assert [s.player for s in standings(games, MILLE, min_games=2)] == [101, 102, 103]


def test_standings_reflect_idle_time() -> None:
    """Displayed ratings in a ladder are taken as of ``now``."""
    games = [_record(i, (101, 102), (0, 1)) for i in range(1, 6)]
    now = standings(games, MILLE, now=T0 + DAY)
    later = standings(games, MILLE, now=T0 + 400 * DAY)
    assert later[0].display < now[0].display


def test_rating_history_ends_at_the_current_rating() -> None:
    """The chart points are one per rated game and end at the ladder's rating."""
    history = _history(80)
    points = rating_history(history, Scope("mille"), 101)
    played = [r for r in history if 101 in r.seats]
    assert [at for at, _ in points] == [r.finished_at for r in played]
    assert points[-1][1] == recompute(history, Scope("mille"))[101].display()


def test_head_to_head_counts_pairs() -> None:
    """Records against each opponent compare finishing places, most frequent first."""
    games = [
        _record(1, (101, 102), (0, 1)),
        _record(2, (101, 102), (1, 0)),
        _record(3, (102, 101), (0, 0)),
        _record(4, (101, 102, 103), (1, 2, 0)),
        _record(5, (101, None), (0, 1)),
    ]
    records = head_to_head(games, 101)
    assert list(records) == [102, 103]
    assert records[102] == Tally(wins=2, losses=1, draws=1)
    assert records[103] == Tally(losses=1)
    assert head_to_head(games, 101, Scope("mille", 2)) == {}
