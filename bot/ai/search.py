"""A game-agnostic search over hidden information: determinized rollouts, paired and pruned.

An ``expert`` computer player decides from one seat's private view, like every policy. It
cannot see the opponent's hand or the order of the cards to come, so it imagines them: a
game's :class:`Domain` *determinizes* the view — deals the unseen cards (the game's census
minus everything the view shows) into the hidden places with the right sizes, honouring what
the seat has seen — into a full engine state. On that imagined table every candidate move is
tried and the game is played on by the game's ``normal`` player for both seats (a *rollout*)
up to a horizon (the end of the hand, or of the game), where the domain scores it for the
seat: a number in [0, 1], roughly the chance of winning.

Every round deals one new imagined table and tries every move still in the running on that
same table (common random numbers): the moves are compared on equal luck, so a few dozen
rounds separate them much better than independent samples would. Every few rounds, a move
clearly behind the best (by the paired differences) is dropped, so the time goes to the moves
that are close. The answer is the move with the best mean; the ``normal`` player's own choice
(the domain lists it first) is kept unless another move beats it by a margin, because a
handful of noisy rollouts should not overturn a sound heuristic.

Time: a budget in milliseconds per decision (the constructor's ``budget_ms``, else the
``JUNCTION_EXPERT_MS`` environment variable, else 300), checked after every rollout, and an
optional cap on rounds. The search is deterministic given the ``rng`` as long as the round cap,
not the clock, ends it (the tests use a cap and no time limit); with a time budget the number of
rounds depends on the machine. The bot calls policies in a worker thread, never on its event
loop.

A game gets an expert by writing a small :class:`Domain` (``bot/ai/<game>_expert.py``): how to
determinize a view, how to roll out and score, which moves to consider. Everything else here
is shared.
"""

from __future__ import annotations

import math
import os
import random
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.ai.base import Policy
from bot.engine.core import Game

S = TypeVar("S")
T = TypeVar("T")

BUDGET_ENV = "JUNCTION_EXPERT_MS"
DEFAULT_BUDGET_MS = 300.0


def budget_from_env(default: float = DEFAULT_BUDGET_MS) -> float:
    """The move-time budget in milliseconds: ``JUNCTION_EXPERT_MS`` when set and valid."""
    text = os.environ.get(BUDGET_ENV, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        return default
    return value if math.isfinite(value) and value > 0 else default


def deal_hidden_hand(
    pool: Sequence[T],
    size: int,
    kept: Callable[[T], bool],
    keep_chance: float,
    rng: random.Random,
    forced: Sequence[T] = (),
    barred: Callable[[T], bool] | None = None,
) -> tuple[list[T], list[T]]:
    """Deal an opponent's hidden hand of ``size`` from the unseen ``pool``; the rest shuffled.

    ``forced`` cards are in the hand for certain (taken out of the pool: e.g. the answer a
    pending reaction shows they hold). Cards players *keep* (``kept``: safeties, answers) are
    each in the hand with ``keep_chance`` — the chance they were among the cards the opponent
    drew, since a kept card is never let go — and the other places are filled uniformly from
    the rest, so a keeper's hand is not mistaken for a random sample of the unseen cards.
    ``barred`` cards are ones the opponent's own play shows they do not hold (they would have
    played them): they go to the hand only if nothing else is left to fill it.
    """
    cards = list(pool)
    hand: list[T] = []
    for card in forced:
        cards.remove(card)
        hand.append(card)
    rng.shuffle(cards)
    keepers: list[T] = []
    others: list[T] = []
    spare: list[T] = []
    held_back: list[T] = []
    for card in cards:
        if barred is not None and barred(card):
            held_back.append(card)
        elif kept(card):
            if len(hand) + len(keepers) < size and rng.random() < keep_chance:
                keepers.append(card)
            else:
                spare.append(card)
        else:
            others.append(card)
    hand += keepers
    need = max(0, size - len(hand))
    hand += others[:need]
    others = others[need:]
    short = size - len(hand)
    if short > 0:
        hand += spare[:short]
        spare = spare[short:]
    short = size - len(hand)
    if short > 0:
        hand += held_back[:short]
        held_back = held_back[short:]
    rest = others + spare + held_back
    rng.shuffle(rest)
    return hand, rest


def deal_weighted(
    pool: Sequence[T],
    size: int,
    weight: Callable[[T], float],
    rng: random.Random,
    *,
    shuffle: bool = True,
) -> tuple[list[T], list[T]]:
    """Deal a hidden hand of ``size`` from ``pool`` where each card is ``weight`` times as
    likely as a plain card to be in it (weighted sampling without replacement: each card in
    turn is drawn with a chance proportional to its weight among the cards left). A weight of
    0 deals a card only when nothing else is left. The rest comes back shuffled, or in no
    particular order when ``shuffle`` is false (for a caller that deals again from it and
    shuffles once at the end).

    The draws run over kinds of card, not cards: a pool is mostly copies (a hundred cards of
    twenty kinds), so a hand costs its size times the kinds, not the pool's size."""
    counts = Counter(pool)
    kinds = list(counts)
    weights = [max(0.0, weight(kind)) for kind in kinds]
    left = [counts[kind] for kind in kinds]
    hand: list[T] = []
    for _ in range(min(size, len(pool))):
        total = sum(w * n for w, n in zip(weights, left, strict=True))
        chosen = -1
        if total > 0:
            pick = rng.random() * total
            for index, w in enumerate(weights):
                if w > 0 and left[index]:
                    chosen = index
                    pick -= w * left[index]
                    if pick < 0:
                        break
        else:
            # Only weightless cards are left: any of them, alike.
            pick = rng.randrange(sum(left))
            for index, n in enumerate(left):
                if pick < n:
                    chosen = index
                    break
                pick -= n
        left[chosen] -= 1
        hand.append(kinds[chosen])
    rest = [kind for kind, n in zip(kinds, left, strict=True) for _ in range(n)]
    if shuffle:
        rng.shuffle(rest)
    return hand, rest


PARSED_KEPT = 4096
"""How many notations a domain remembers having read (``Domain.parse``)."""


class Domain(ABC, Generic[S]):
    """What the search needs to know about one game (one object per game, stateless)."""

    game: Game[S, Any]
    figure: float | None = None
    """What the last rollout ended on in the game's own terms, for a hint to quote (Ticket to
    Ride Solo: your final score); a domain that has such a figure sets it in ``rollout``."""

    @abstractmethod
    def determinize(self, view: Any, rng: random.Random) -> S:
        """A full state whose private view for ``view.seat`` is ``view``; hidden cards dealt
        from the unseen ones, as likely as the domain can judge from what the seat has seen."""

    @abstractmethod
    def candidates(self, view: Any) -> list[str]:
        """The moves worth searching (a subset of ``view.legal``), the baseline choice first.

        One move means no search is needed; the domain may also cut obviously bad moves.
        """

    @abstractmethod
    def rollout(
        self, state: S, seat: int, rng: random.Random, deadline: float | None = None
    ) -> float:
        """Play on from ``state`` to the domain's horizon; the result's worth for ``seat``,
        in [0, 1]. ``state`` belongs to the caller's round and may be changed in place. Past
        ``deadline`` (a ``time.perf_counter()`` value) it may give up by raising
        :class:`OutOfTime`, checking every few moves."""

    _parsed: dict[str, Any] | None = None
    """This domain's notations already read (made on first use, so subclasses need no
    ``__init__`` for it)."""

    def parse(self, text: str) -> Any:
        """The engine action for a notation, remembered: a policy's domain reads the same few
        moves decision after decision. At most ``PARSED_KEPT`` are kept, so a domain that lives
        as long as the bot cannot grow without end."""
        if self._parsed is None:
            self._parsed = {}
        action = self._parsed.get(text)
        if action is None:
            action = self.game.parse_action(text)
            if len(self._parsed) < PARSED_KEPT:
                self._parsed[text] = action
        return action

    def explain(self, view: Any, move: str, report: SearchReport) -> str:
        """A one-line reason in a player's words (for hints); domains override it."""
        return "it came out best when the rest of the game was played out many times."


class OutOfTime(Exception):
    """A rollout gave up: the move's time is spent."""


CHECK_EVERY = 16
"""Rollouts look at the clock every this many moves."""

QUOTED_ROUNDS = 8
"""A hint quotes the move's worth only after this many imagined deals (``keep_rounds``)."""


@dataclass
class SearchReport:
    """What a search found: each candidate's mean worth and sample count, and the pick."""

    move: str
    candidates: list[str]
    means: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    figures: list[float | None] = field(default_factory=list)  # mean of the domain's figure
    rounds: int = 0
    seconds: float = 0.0

    def mean_of(self, move: str) -> float:
        index = self.candidates.index(move)
        return self.means[index] if self.means else 0.0

    def figure_of(self, move: str) -> float | None:
        """The mean of the domain's own figure over ``move``'s rollouts (None without one)."""
        index = self.candidates.index(move)
        return self.figures[index] if self.figures else None

    def reason(self, why: str, move: str, what: str = "to win") -> str:
        """A hint's sentence: ``why``, then the move's worth when the search saw enough deals
        to mean it (below ``QUOTED_ROUNDS`` a figure would be noise, and the search keeps the
        baseline's move anyway)."""
        if self.rounds < QUOTED_ROUNDS:
            return f"{why}."
        return self.quoted(why, self.mean_of(move), what)

    def quoted(self, why: str, chance: float | None, what: str = "to win") -> str:
        """``why``, then ``chance`` as a percentage over the deals seen, as ``reason`` does; for
        a domain whose worth is no chance a player could read (it blends in a margin) and
        which kept the plain chance as its figure. None, or too few deals, quotes nothing."""
        if self.rounds < QUOTED_ROUNDS or chance is None:
            return f"{why}."
        return f"{why} (about {round(100 * chance)}% {what}, over {self.rounds} imagined deals)."


@dataclass(frozen=True)
class SearchSettings:
    """How a search spends its time (see the module docstring)."""

    budget_ms: float | None = None  # None: JUNCTION_EXPERT_MS, else 300
    max_rounds: int | None = None  # None: as many as the budget allows
    min_rounds: int = 6  # rounds before any move is dropped
    prune_every: int = 3  # rounds between two prunings
    prune_z: float = 2.0  # drop a move this many standard errors behind the best
    keep_rounds: int = QUOTED_ROUNDS  # the baseline stays unless this many rounds were played...
    keep_margin: float = 0.004  # ...and another beats it by this much on average...
    keep_z: float = 2.0  # ...and by this many standard errors of the paired difference
    timed: bool = True  # False: ignore the clock (tests with a round cap)

    def budget_seconds(self) -> float:
        ms = self.budget_ms if self.budget_ms is not None else budget_from_env()
        return max(ms, 1.0) / 1000.0


def search(
    domain: Domain[S],
    view: Any,
    rng: random.Random,
    settings: SearchSettings | None = None,
) -> SearchReport:
    """The best move for ``view.seat`` by determinized, paired rollouts (module docstring)."""
    settings = settings or SearchSettings()
    started = time.perf_counter()
    # Leave a little of the budget for choosing and returning.
    deadline = started + settings.budget_seconds() * 0.97
    moves = domain.candidates(view)
    if not moves:
        raise ValueError("The expert was asked to act with no legal move.")
    report = SearchReport(move=moves[0], candidates=list(moves))
    if len(moves) == 1:
        return report
    seat: int = view.seat
    actions = [domain.parse(m) for m in moves]
    game = domain.game
    values: list[list[float]] = [[] for _ in moves]  # per move, per round
    figures: list[list[float]] = [[] for _ in moves]  # the domain's figure, where it has one
    active = list(range(len(moves)))
    rounds = 0
    max_rounds = settings.max_rounds
    out_of_time = False
    while not out_of_time and (max_rounds is None or rounds < max_rounds):
        world = domain.determinize(view, rng)
        seed = rng.getrandbits(64)
        done: list[int] = []
        limit = deadline if settings.timed else None
        for index in active:
            state = game.apply(world, seat, actions[index])
            domain.figure = None
            try:
                value = domain.rollout(state, seat, random.Random(seed), limit)
            except OutOfTime:
                out_of_time = True
                break
            values[index].append(value)
            figure = _figure(domain)
            if figure is not None:
                figures[index].append(figure)
            done.append(index)
            if limit is not None and time.perf_counter() >= limit:
                out_of_time = True
                break
        if len(done) < len(active):
            # An unfinished round would compare moves on unequal luck: drop it.
            for index in done:
                values[index].pop()
                if len(figures[index]) > len(values[index]):
                    figures[index].pop()
            break
        rounds += 1
        if rounds >= settings.min_rounds and rounds % settings.prune_every == 0:
            active = _prune(values, active, rounds, settings.prune_z)
            if len(active) == 1:
                break
    report.rounds = rounds
    report.means = [sum(v) / len(v) if v else -1.0 for v in values]
    report.counts = [len(v) for v in values]
    report.figures = [sum(f) / len(f) if f else None for f in figures]
    report.move = moves[_pick(values, active, rounds, settings)]
    report.seconds = time.perf_counter() - started
    return report


def _figure(domain: Domain[Any]) -> float | None:
    """The figure the rollout just played left (read through a call: the search cleared it
    before the rollout, and the rollout sets it behind a type checker's back)."""
    return domain.figure


def _paired(values: list[list[float]], a: int, b: int, rounds: int) -> tuple[float, float]:
    """Mean and standard error of (a - b) over the last ``rounds`` rounds both played."""
    xs = values[a][-rounds:]
    ys = values[b][-rounds:]
    n = min(len(xs), len(ys))
    if n == 0:
        return 0.0, 1.0
    diffs = [x - y for x, y in zip(xs[-n:], ys[-n:], strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, 1.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _prune(values: list[list[float]], active: list[int], rounds: int, z: float) -> list[int]:
    """Drop the moves clearly behind the best one (paired over the rounds all played)."""
    best = max(active, key=lambda i: sum(values[i][-rounds:]))
    kept = []
    for index in active:
        if index == best:
            kept.append(index)
            continue
        mean, error = _paired(values, index, best, rounds)
        if mean + z * error >= 0.0:
            kept.append(index)
    return kept


def _pick(
    values: list[list[float]], active: list[int], rounds: int, settings: SearchSettings
) -> int:
    """The best mean among the moves still in the running; the baseline (index 0) keeps its
    place unless the best beats it clearly."""
    if rounds < settings.keep_rounds:
        return 0
    best = max(active, key=lambda i: (sum(values[i][-rounds:]), -i))
    if best == 0 or 0 not in active:
        return best
    mean, error = _paired(values, best, 0, rounds)
    if mean > settings.keep_margin and mean > settings.keep_z * error:
        return best
    return 0


class SearchPolicy(Policy):
    """An expert: the shared search over one game's :class:`Domain`.

    ``budget_ms`` per decision (default: ``JUNCTION_EXPERT_MS``, else 300); ``max_rounds``
    caps the rounds (deterministic given the rng when the cap ends the search).
    """

    name = "expert"
    searches = True
    domain: Domain[Any]
    domain_class: Callable[[], Domain[Any]]
    """What a game's expert sets: its domain, made once per player."""
    keep_z: float = SearchSettings.keep_z
    """How sure the search must be before it leaves the baseline's move (a game may ask for
    less when ``tests/ai/search_headroom.py`` shows its rollouts are trustworthy)."""

    def __init__(
        self,
        budget_ms: float | None = None,
        max_rounds: int | None = None,
        *,
        timed: bool = True,
    ) -> None:
        self.settings = SearchSettings(
            budget_ms=budget_ms, max_rounds=max_rounds, timed=timed, keep_z=self.keep_z
        )
        self.last: SearchReport | None = None
        self.domain = self.domain_class()

    def choose(self, view: Any, rng: random.Random) -> str:
        legal: Sequence[str] = view.legal
        if not legal:
            raise ValueError("The expert was asked to act with no legal action.")
        if len(legal) == 1:
            return legal[0]
        report = search(self.domain, view, rng, self.settings)
        self.last = report
        return report.move

    def hint(self, view: Any, rng: random.Random | None = None) -> tuple[str, str] | None:
        """The expert's move for ``view`` and a one-line reason, or None with nothing to do."""
        if not view.legal:
            return None
        chooser = rng or random.Random(0)
        if len(view.legal) == 1:
            move = view.legal[0]
            return move, "it is the only move you have."
        report = search(self.domain, view, chooser, self.settings)
        return report.move, self.domain.explain(view, report.move, report)
