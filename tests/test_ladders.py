"""Ladders kept between requests (``bot.ratings.Ladders``) answer exactly as a full replay of
the results, and boards of thousands of members are named without reading every name again."""

from __future__ import annotations

import random

import pytest

import bot.boards
import bot.names
from bot.boards import rating_changes, told_apart
from bot.names import unused_name
from bot.ratings import Ladders, ResultRecord, Scope, rating_history, standings
from bot.store.base import StoredResult

GUILDS = (7, 8)


def _season(rng: random.Random, count: int, first_id: int = 1) -> list[ResultRecord]:
    """Random results: two games, two servers, 2–6 seats, ties, computers, unrated games."""
    records = []
    finished = 1_000_000.0 + first_id * 86_400.0
    for game_id in range(first_id, first_id + count):
        # Minutes apart, or days at times, so idle uncertainty moves the ratings too.
        finished += rng.choice((60.0, 86_400.0 * 3))
        size = rng.randint(2, 6)
        seats: list[int | None] = rng.sample(range(1, 25), size)
        if rng.random() < 0.1:
            seats[0] = None
        ranks = [rng.randrange(size) for _ in range(size)]  # ties come often
        records.append(
            ResultRecord(
                game_id=game_id,
                game_key=rng.choice(("dragon", "dragon:variant", "ttr")),
                guild_id=rng.choice(GUILDS),
                finished_at=finished,
                seats=tuple(seats),
                ranks=tuple(ranks),
                counted=rng.random() < 0.9,
            )
        )
    return records


def _same_as_a_full_replay(ladders: Ladders, records: list[ResultRecord], now: float) -> None:
    for scope in (Scope("dragon", 7), Scope("dragon"), Scope("ttr", 8)):
        assert ladders.standings(records, scope, now) == standings(records, scope, now)
        for player in (1, 2, 3, 24):
            assert ladders.card(records, scope, player, now) == (
                standings(records, scope, now),
                rating_history(records, scope, player),
            )


@pytest.mark.parametrize("seed", range(6))
def test_a_kept_ladder_extended_game_by_game_answers_as_a_full_replay(seed: int) -> None:
    """Boards asked after every few new results (the kept ladder extended each time) show the
    ratings, records and chart points a replay of every result from scratch gives."""
    rng = random.Random(seed)
    records = _season(rng, 120)
    ladders = Ladders()
    shown = 0
    while shown < len(records):
        shown += rng.randint(1, 15)
        _same_as_a_full_replay(ladders, records[:shown], now=2_000_000_000.0)


@pytest.mark.parametrize("seed", range(4))
def test_a_kept_ladder_follows_results_changed_under_it(seed: int) -> None:
    """A result written late (dated before newer ones), a member forgotten (their seats
    rewritten to an alias) or a result gone: the kept ladder is replayed, never extended wrongly."""
    rng = random.Random(100 + seed)
    records = _season(rng, 80)
    ladders = Ladders()
    _same_as_a_full_replay(ladders, records, now=2_000_000_000.0)
    late = _season(rng, 1, first_id=500)[0]
    late = ResultRecord(**{**late.__dict__, "finished_at": records[10].finished_at + 1})
    with_late = sorted([*records, late], key=lambda r: (r.finished_at, r.game_id))
    _same_as_a_full_replay(ladders, with_late, now=2_000_000_000.0)
    forgotten = [
        ResultRecord(**{**r.__dict__, "seats": tuple(-5 if s == 1 else s for s in r.seats)})
        for r in with_late
    ]
    _same_as_a_full_replay(ladders, forgotten, now=2_000_000_000.0)
    _same_as_a_full_replay(ladders, forgotten[:40], now=2_000_000_000.0)


def test_new_results_extend_the_kept_ladder_without_replaying_it() -> None:
    """A board asked again after more games rates only the new games."""
    records = _season(random.Random(3), 60)
    ladders = Ladders()
    ladders.standings(records[:50], Scope("dragon", 7))
    ladders.standings(records, Scope("dragon", 7))
    ladders.card(records, Scope("dragon", 7), 1, now=0.0)
    assert ladders.replays == 1


def test_ladders_kept_are_bounded_by_their_games() -> None:
    """Past ``keep_games`` rated games kept in all, the least used ladder is dropped (and
    replayed when asked again), never the one just asked for."""
    records = _season(random.Random(4), 120)
    ladders = Ladders(keep_games=60)
    server, everywhere = Scope("dragon", 7), Scope("dragon")
    ladders.standings(records, server)
    ladders.standings(records, everywhere)  # more than 60 games: the server's goes
    assert ladders.standings(records, everywhere) == standings(records, everywhere)
    assert ladders.replays == 2
    ladders.standings(records, server)
    assert ladders.replays == 3


def test_the_rating_line_from_a_kept_ladder_matches_a_full_replay() -> None:
    """The line after each game (before → after) is the same from the kept ladder."""
    records = _season(random.Random(5), 60)
    stored = [StoredResult(r, tuple(f"P{s}" for s in r.seats), 1, None) for r in records]
    ladders = Ladders()
    for upto, record in enumerate(records, start=1):
        if record.guild_id != 7:
            continue
        kept = rating_changes(
            stored[:upto], game_id=record.game_id, game_key="dragon", guild_id=7, ladders=ladders
        )
        replayed = rating_changes(
            stored[:upto], game_id=record.game_id, game_key="dragon", guild_id=7
        )
        assert kept == replayed


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
