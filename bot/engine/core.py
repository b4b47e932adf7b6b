"""The engine protocol every Junction game satisfies and its errors.

A game is a stateless rules object (a :class:`Game`) plus a state value it never mutates:
``apply`` returns a new state. Chance lives in the state (a seed or an explicit deck order), so
a game replays exactly from its start and its move log. Only views leave the engine: a public
view everyone may see, and one seat's private view (its own hand plus everything public).
Games are found by key through their bundles (``bot.games``), not here.
"""

from __future__ import annotations

import random
import unicodedata
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

Seat = int
"""A player's place at the table, 0-based, fixed for the whole game."""

S = TypeVar("S")  # a game's state type
A = TypeVar("A")  # a game's action type


class GameError(ValueError):
    """Anything a player did wrong; ``str(error)`` is a sentence a player can read."""


class NotationError(GameError):
    """The move text cannot be understood."""


class IllegalMove(GameError):
    """The move is understood but the rules forbid it now."""


class NotYourTurn(GameError):
    """Somebody tried to act while the rules wait for somebody else."""


class BadOption(GameError):
    """An option passed when starting a game is unknown or has a value it cannot take."""


class CorruptSave(GameError):
    """A stored game cannot be read back: damaged, or written by an incompatible version."""


DAMAGED_SAVE = "damaged_save"
"""The one key of the record a store hands back for a saved state it could not read at all (not
JSON, or not a JSON object), with the stored text as its value: the game stays readable as a
game whose save cannot be resumed, so it can be ended, and ending it keeps that text."""


def check_save_format(data: object, schema_version: int) -> None:
    """Refuse a saved game that is not a record, or was written in another format."""
    if not isinstance(data, Mapping):
        raise CorruptSave("This saved game is damaged: it is not a game record.")
    if DAMAGED_SAVE in data:
        raise CorruptSave("This saved game is damaged and cannot be resumed.")
    version = data.get("schema_version")
    if version is None:
        raise CorruptSave("This saved game is damaged: it does not say which format it is in.")
    if version != schema_version:
        raise CorruptSave(
            f"This saved game was written in format {version!r}, and this version of Junction "
            f"reads format {schema_version}; it cannot be resumed."
        )


def competition_places(
    winners: Sequence[Seat], scores: Sequence[int], seats: int
) -> tuple[int, ...]:
    """Finishing places (0 = first) from the winners and the scores: winners share place 0, the
    others follow by score, and equal scores share a place ("1224" competition ranking).

    A draw (no winners) puts every seat in place 0.
    """
    if not winners:
        return tuple(0 for _ in range(seats))
    won = set(winners)
    points = list(scores) if len(scores) == seats else [0] * seats
    others = [points[s] for s in range(seats) if s not in won]
    return tuple(
        0 if seat in won else len(won) + sum(1 for o in others if o > points[seat])
        for seat in range(seats)
    )


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are the seats in first place (empty for a draw), ``scores`` the final points per
    seat and ``reason`` a sentence for the table. ``places`` ranks every seat (0 = first, equal
    places are ties); when a game leaves it empty it is derived from the winners and scores.
    ``seat_details`` carries per-seat figures a leaderboard ranks or shows (cards cleared, best
    hand, kills…), so nothing downstream ever parses option strings. ``loss_verdict`` is what a
    game played alone says in place of the front ends' plain "Game over." when it is lost to
    someone unseen ("The hidden tickets win."); empty when a loss has nobody to name.
    """

    winners: tuple[Seat, ...]
    scores: tuple[int, ...]
    reason: str
    places: tuple[int, ...] = ()
    seat_details: tuple[Mapping[str, int], ...] = ()
    loss_verdict: str = ""

    def __post_init__(self) -> None:
        seats = len(self.scores) or len(self.places) or len(self.seat_details)
        if not self.places:
            object.__setattr__(self, "places", competition_places(self.winners, self.scores, seats))
        if not self.seat_details:
            object.__setattr__(self, "seat_details", tuple({} for _ in self.places))
        if len(self.seat_details) != len(self.places):
            raise ValueError("seat_details must give one mapping per seat")

    @property
    def is_draw(self) -> bool:
        return not self.winners


SWITCH = ("off", "on")
"""The choices of an option that is switched on or off."""

_SWITCH_WORDS = {"yes": "on", "true": "on", "no": "off", "false": "off"}
"""What members type for a switch besides on and off."""


def option_name(typed: str) -> str:
    """An option's name as typed, spelled as the games name their options: in lower case, a
    hyphen or a space read as the underscore ("oil-slick" and "Oil Slick" are oil_slick)."""
    return "_".join(typed.lower().replace("-", " ").replace("_", " ").split())


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts when it starts: its choices and the default. ``aliases``:
    other words members type for a choice, each as (word, choice), such as ("classic", "bsd");
    a switch (choices ``SWITCH``) also takes yes, no, true and false. Only the choice itself
    is stored and suggested."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str = ""
    aliases: tuple[tuple[str, str], ...] = ()

    def words(self) -> list[tuple[str, str]]:
        """Every word this option takes as a value, each with the choice it means: the choices
        first, then their aliases."""
        said = [(choice, choice) for choice in self.choices] + list(self.aliases)
        if self.choices == SWITCH:
            said += list(_SWITCH_WORDS.items())
        return said

    def choice_of(self, typed: str) -> str | None:
        """The choice ``typed`` means (in any case), or None when it means none."""
        word = typed.strip().lower()
        return next((choice for said, choice in self.words() if said == word), None)


RankingKind = Literal["rating", "best"]


@dataclass(frozen=True)
class Ranking:
    """How a game's results rank on its leaderboard and what a member's stats show.

    ``"rating"``: an openskill rating over finishing places (games of members only).
    ``"best"``: each member's best single result, compared by the per-seat figures ``keys`` in
    order, higher first (``"score"`` is the seat's score and ``"won"`` 1 for a win; the rest
    come from ``Outcome.seat_details``); the board shows the figure ``shown`` in a column
    called ``label``. ``bests`` are per-seat figures whose best single value a member's stats
    show, ``totals`` figures they add up over all games, each as (figure, label).
    ``score_unit`` names what a seat's score counts ("pts"; Mille Bornes Solo's is miles).
    ``given_up_ranks``: whether a game given up may still rank on the best-results board; False
    where a seat that leaves gets the figure ``left`` (Ticket to Ride Solo: its score stands
    where the member stopped), which the board leaves out. Mille Bornes Solo keeps what was
    cleared, which playing on only adds to, so its give-up ranks.
    """

    kind: RankingKind = "rating"
    keys: tuple[str, ...] = ()
    label: str = "Rating"
    shown: str = ""
    bests: tuple[tuple[str, str], ...] = ()
    totals: tuple[tuple[str, str], ...] = ()
    score_unit: str = "pts"
    given_up_ranks: bool = True


@dataclass(frozen=True)
class GameInfo:
    """What the table layer needs to know about a game before starting it.

    ``private_hands``: seats hold cards nobody else may see (the bot offers "My hand").
    ``daily_deal``: a server-wide seeded deal of the day exists (one-seat games).
    ``max_moves``: a bound no real game reaches; a playout passing it is a bug.
    """

    key: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)
    private_hands: bool = True
    daily_deal: bool = False
    ranking: Ranking = field(default_factory=Ranking)
    max_moves: int = 100_000
    summary: str = ""  # one line for menus: "Race to 1000 miles, two decks, cheats"

    @property
    def ladder(self) -> str:
        """The rating ladder the game's results join: its own (see ``ratings.game_family``)."""
        return self.key

    @property
    def solitaire(self) -> bool:
        return self.max_players == 1


def players_wanted(fewest: int, most: int) -> str:
    """How many players a game takes, in words: "exactly 1 player", "2 to 4 players"."""
    if fewest == most:
        return f"exactly {fewest} player" if fewest == 1 else f"exactly {fewest} players"
    return f"{fewest} to {most} players"


def parsed_or_named(
    parse: Callable[[str], A],
    legal: Callable[[], Iterable[A]],
    words: Callable[[A], Iterable[str]],
    text: str,
) -> A:
    """``parse(text)``, the game's notation, else the one legal action (``legal()``, listed only
    then) that ``words`` writes as ``text`` (``named_action``): a move typed as /move's
    suggestions, the buttons or a /hint write it ("End your turn", "Stop on Bob"), which the
    notation alone refused. The notation's refusal stands when no move is so named."""
    try:
        return parse(text)
    except NotationError:
        found = named_action(legal(), words, text)
        if found is None:
            raise
        return found


def named_action(actions: Iterable[A], words: Callable[[A], Iterable[str]], text: str) -> A | None:
    """The one action of ``actions`` that ``words`` writes as ``text`` (read in any case and
    spacing, a hyphen for a minus sign, accents or none: "Vehicule prioritaire" for the
    French card), or None: a move typed as the member reads it in a menu or on a button,
    which a game's notation alone need not understand."""
    listed = [(action, list(words(action))) for action in actions]
    # Accents are let go only when the text as typed names no move: "Zoé" and "Zoe" may sit at
    # one table, and "Stop on Zoé" is hers.
    for read in (_as_read, _unaccented):
        said = read(text)
        found = [action for action, said_as in listed if said in {read(w) for w in said_as}]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _as_read(text: str) -> str:
    return " ".join(text.replace("\u2212", "-").casefold().split())


def _unaccented(text: str) -> str:
    bare = unicodedata.normalize("NFKD", _as_read(text))
    return "".join(char for char in bare if not unicodedata.combining(char))


def resample_rng(rng: Any) -> random.Random:
    """What a ``resample_hidden`` shuffles with: ``rng`` itself when it is a ``random.Random``
    (as the protocol says), else a ``random.Random`` seeded with it, so a caller passing a seed
    gets the same deal every time. Every game reads its ``rng`` argument through this."""
    return rng if isinstance(rng, random.Random) else random.Random(rng)


class Game(ABC, Generic[S, A]):
    """The rules of one game. Stateless: every method takes the state it works on."""

    info: GameInfo

    @abstractmethod
    def new_game(
        self,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, str] | None = None,
        deck: Sequence[str] | None = None,
    ) -> S:
        """A fresh game; ``deck`` (card codes, top first) replaces the shuffle when given."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """The seats that may act now (empty once the game is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]:
        """Every action ``seat`` may take now, in a stable order: a list, or a read-only
        sequence that behaves as one (Dragon's turn menus make their discards on demand)."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: A) -> S:
        """The state after ``seat`` takes ``action``; raises a GameError when it may not."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def public_view(self, state: S) -> Any:
        """What every onlooker may see."""

    @abstractmethod
    def private_view(self, state: S, seat: Seat) -> Any:
        """What ``seat`` may see: the public view plus its own hidden cards."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """An action from its text notation; raises NotationError."""

    def parse_for(self, state: S, seat: Seat, text: str) -> A:
        """An action ``seat`` typed in ``state``: ``parse_action``, whose errors may speak of
        the position (the tickets on offer, not made-up ones). The same action either way."""
        return self.parse_action(text)

    @abstractmethod
    def format_action(self, action: A) -> str:
        """The canonical text notation of an action (``parse_action`` reads it back)."""

    @abstractmethod
    def describe_action(self, state: S, seat: Seat, action: A) -> str:
        """The action in plain words for a menu, e.g. 'Play Stop on Ann'."""

    @abstractmethod
    def to_dict(self, state: S) -> dict[str, Any]:
        """A JSON-ready form of the state, carrying a ``schema_version``."""

    @abstractmethod
    def from_dict(self, data: Mapping[str, Any]) -> S:
        """The state back from ``to_dict``; raises CorruptSave when it cannot."""

    # --- leaving, reactions, captions -------------------------------------------------------

    @abstractmethod
    def leave(self, state: S, seat: Seat) -> S:
        """The state after ``seat`` leaves the game (resigns, or forfeits on a turn timer).

        With two seats the leaver loses and the game ends. With three or more the seat drops
        out: it never acts again, ranks below every seat still playing (a later leaver above an
        earlier one) and the others play on; the game ends when one seat is left. Leaving is
        allowed whoever's turn it is; leaving twice, or after the end, raises IllegalMove.
        While the game goes on, the caption says who left and what it means, from public facts:
        where the leaver will finish, what became of their cards, who plays on and whose turn it
        is now (the front ends say it as the leaving's line).
        """

    def default_action(self, state: S, seat: Seat) -> A | None:
        """The action the bot plays for ``seat`` when its reaction window closes.

        None (the default) means the seat's decision is an ordinary turn, timed by the turn
        timer; an action (e.g. "no reaction") marks an out-of-turn decision the engine asks
        for, which the bot answers with it when the window runs out. Engines know no clocks.
        """
        return None

    def simultaneous(self, state: S) -> bool:
        """Whether the seats to act decide at once, each decision a turn of its own (the
        opening tickets of Ticket to Ride). A member late on it has only that decision played
        for them, not the turn after it. False by default: seats take turns."""
        return False

    def out(self, state: S) -> frozenset[Seat]:
        """Seats still seated that will not act again in this game: knocked out, as a Dragon
        driver killed in the arena (seats that left are the store's to know). Empty by
        default: in most games every seat plays to the end."""
        return frozenset()

    def caption(self, state: S) -> str:
        """One public line saying what the last move did (shown above the table)."""
        return str(getattr(state, "caption", ""))

    # --- conformance hooks: every registered game supplies them -----------------------------

    @abstractmethod
    def census(self, state: S) -> Counter[str]:
        """Every card in the game, wherever it lies, counted by its code.

        Moves rearrange cards but never create or destroy them: the census of every state of a
        game equals the census of its deal.
        """

    @abstractmethod
    def resample_hidden(self, state: S, seat: Seat | None, rng: Any) -> S:
        """The state with every card ``seat`` cannot see dealt again at random.

        Hidden cards (other hands, face-down piles, hidden stacks; with ``seat=None``
        everything no onlooker sees) swap places among the hidden places, each keeping its
        size. Nothing ``seat`` (or the public) can see may change, so its view must not.
        ``rng`` is a ``random.Random`` (read it through ``resample_rng``, which takes a seed too).
        """

    def resolve_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        """Fill in defaults and reject unknown names or values with a readable sentence."""
        given = [
            (str(k).strip().lower(), str(v).strip().lower()) for k, v in (options or {}).items()
        ]
        # Matched as the names read (a plug-in's "win-at" is typed "win_at" too), each stored
        # in its own spelling.
        specs = {option_name(spec.name): spec for spec in self.info.options}
        resolved: dict[str, str] = {}
        for typed, value in given:
            # "oil-slick", "deck:classic", "oil_slick:yes": the words members type, read as
            # the option's own spelling, which is what is stored.
            spec = specs.get(option_name(typed))
            if spec is None and not specs:
                # "Its options: none." read as if there were a list to choose from.
                raise BadOption(f"{self.info.title} has no options.")
            if spec is None:
                raise BadOption(
                    f"{self.info.title} has no option called '{typed}'. "
                    f"Its options: {', '.join(sorted(s.name for s in self.info.options))}."
                )
            name = spec.name
            choice = spec.choice_of(value)
            if choice is None:
                raise BadOption(
                    f"'{value}' is not a choice for {name}. Choose one of: "
                    f"{', '.join(spec.choices)}."
                )
            if resolved.get(name, choice) != choice:
                # Two spellings of one option ("oil-slick:on", "oil_slick:off").
                raise BadOption(
                    f"You gave {name} twice ({resolved[name]}, then {choice}). "
                    "Give each option once."
                )
            resolved[name] = choice
        for spec in self.info.options:
            resolved.setdefault(spec.name, spec.default)
        return resolved

    def check_players(self, players: Sequence[str]) -> None:
        count = len(players)
        if not self.info.min_players <= count <= self.info.max_players:
            wanted = players_wanted(self.info.min_players, self.info.max_players)
            raise BadOption(f"{self.info.title} needs {wanted}, not {count}.")


_V = TypeVar("_V")
_new_object = object.__new__


def build_frozen(cls: type[_V], **fields: Any) -> _V:
    """A frozen dataclass made without its ``__init__`` (which sets every field through
    ``object.__setattr__``): the same value, several times faster to make, and an expert's
    search makes views by the thousand. Every field must be given."""
    made = _new_object(cls)
    made.__dict__.update(fields)
    return made
