"""The engine protocol every Junction game satisfies, its errors and the game registry.

A game is a stateless rules object (a :class:`Game`) plus a state value it never mutates:
``apply`` returns a new state. Chance lives in the state (a seed or an explicit deck order), so
a game replays exactly from its start and its move log. Only views leave the engine: a public
view everyone may see, and one seat's private view (its own hand plus everything public).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

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


def check_save_format(data: object, schema_version: int) -> None:
    """Refuse a saved game that is not a record, or was written in another format."""
    if not isinstance(data, Mapping):
        raise CorruptSave("This saved game is damaged: it is not a game record.")
    version = data.get("schema_version")
    if version != schema_version:
        raise CorruptSave(
            f"This saved game was written in format {version!r}, and this version of Junction "
            f"reads format {schema_version}; it cannot be resumed."
        )


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winning seats (empty for a draw), final scores, why."""

    winners: tuple[Seat, ...]
    scores: tuple[int, ...]
    reason: str
    # Further figures a leaderboard ranks by, e.g. a solitaire's cards cleared.
    details: Mapping[str, int] = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class OptionSpec:
    """One option a game accepts when it starts: its choices and the default."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str = ""


@dataclass(frozen=True)
class GameInfo:
    """What the lobby needs to know about a game before starting it."""

    key: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)


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
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every action ``seat`` may take now, in a stable order."""

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

    def resolve_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        """Fill in defaults and reject unknown names or values with a readable sentence."""
        given = {str(k).strip().lower(): str(v).strip().lower() for k, v in (options or {}).items()}
        specs = {spec.name: spec for spec in self.info.options}
        resolved: dict[str, str] = {}
        for name, value in given.items():
            spec = specs.get(name)
            if spec is None:
                known = ", ".join(sorted(specs)) or "none"
                raise BadOption(
                    f"{self.info.title} has no option called '{name}'. Its options: {known}."
                )
            if value not in spec.choices:
                raise BadOption(
                    f"'{value}' is not a choice for {name}. Choose one of: "
                    f"{', '.join(spec.choices)}."
                )
            resolved[name] = value
        for spec in self.info.options:
            resolved.setdefault(spec.name, spec.default)
        return resolved

    def check_players(self, players: Sequence[str]) -> None:
        count = len(players)
        if not self.info.min_players <= count <= self.info.max_players:
            if self.info.min_players == self.info.max_players:
                wanted = f"exactly {self.info.min_players}"
            else:
                wanted = f"{self.info.min_players} to {self.info.max_players}"
            raise BadOption(f"{self.info.title} needs {wanted} players, not {count}.")


_REGISTRY: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Make a game available by its key; registering a key twice is a programming error."""
    key = game.info.key
    if key in _REGISTRY and _REGISTRY[key] is not game:
        raise RuntimeError(f"two games registered as {key!r}")
    _REGISTRY[key] = game
    return game


def get_game(key: str) -> Game[Any, Any]:
    """The registered game called ``key``; an unknown key is a player-readable error."""
    _load_builtin_games()
    try:
        return _REGISTRY[key.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise BadOption(f"There is no game called '{key}'. Games: {known}.") from None


def all_games() -> list[Game[Any, Any]]:
    """Every registered game, by key."""
    _load_builtin_games()
    return [_REGISTRY[key] for key in sorted(_REGISTRY)]


def _load_builtin_games() -> None:
    # Importing a game package registers it; done lazily so core has no import cycle.
    from bot.engine import mille, solo  # noqa: F401
