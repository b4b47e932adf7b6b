"""What one game gives the rest of the bot: its engine, presenter, computer players and metrics.

A :class:`GameBundle` is the only thing the cogs, the seam, boards, results, replays, timers,
the console, the arena and the bench ever ask about a game. It sees views only (like the
renderers): a presenter turns the public view or one seat's private view into images, text and
*pickers* — buttons, selects and target pickers — that a front end lays out.

Pickers carry notations, never indices into anything the front end cannot recompute: Discord
custom ids point at a picker by its position in the list the presenter returns for the same
view, and the front end rebuilds that list when the button is pressed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.ai.base import Policy
from bot.ai.easy import easy
from bot.engine.core import Game, GameInfo, Outcome

ButtonStyle = Literal["primary", "secondary", "success", "danger"]
PolicyFactory = Callable[[], Policy]


@dataclass(frozen=True)
class MoveChoice:
    """A legal move for a menu: its notation and a plain-words label."""

    notation: str
    label: str


@dataclass(frozen=True)
class ButtonSpec:
    """One button that plays one move."""

    label: str
    notation: str
    style: ButtonStyle = "secondary"
    emoji: str | None = None


@dataclass(frozen=True)
class ChoiceSpec:
    """One option of a select menu: what it says and the value it adds to the notation.

    Values must be unique within a select; a suffix ``#n`` (e.g. ``50#2`` for a second 50 in
    the hand) tells equal cards apart and is dropped when the notation is composed.
    """

    label: str
    value: str
    description: str = ""


@dataclass(frozen=True)
class SelectSpec:
    """A select menu: one move among many (``max_values`` 1), or several cards for one move.

    The notation played is ``prefix`` followed by the chosen values (``cycle 25 50 gasoline``,
    ``keep T04 T17``); with no prefix and one value, the value is the notation itself. Long
    lists are split into selects of 25 by the front end.
    """

    placeholder: str
    choices: tuple[ChoiceSpec, ...]
    min_values: int = 1
    max_values: int = 1
    prefix: str = ""

    def compose(self, values: Sequence[str]) -> str:
        """The notation for the chosen values (each must be one of ``choices``)."""
        words = [value.split("#", 1)[0] for value in values]
        return " ".join([self.prefix, *words] if self.prefix else words)


@dataclass(frozen=True)
class GroupSpec:
    """A button that opens a further choice, e.g. a card that asks which car to aim at.

    Its options are buttons shown in one message of their own, so at most 25. An option may
    itself be a group, for a choice too big for one message: a Ticket to Ride colour asks how
    many cards of it, then how many Locomotives join them.
    """

    label: str
    options: tuple[ButtonSpec | GroupSpec, ...]
    style: ButtonStyle = "secondary"
    emoji: str | None = None
    prompt: str = "Choose:"


Picker = ButtonSpec | SelectSpec | GroupSpec


def buttons_or_select(
    moves: Sequence[MoveChoice], *, placeholder: str = "Choose a move", limit: int = 15
) -> list[Picker]:
    """A button per move while they fit, else one select menu over all of them."""
    if len(moves) <= limit:
        return [ButtonSpec(m.label[:80], m.notation) for m in moves]
    choices = tuple(ChoiceSpec(m.label[:100], m.notation) for m in moves)
    return [SelectSpec(placeholder, choices)]


@dataclass(frozen=True)
class Presenter:
    """How a game is shown: images, pickers, texts. Functions of views only.

    ``table_png``, ``hand_png`` and ``result_png`` must be module-level functions: the bot draws
    in a worker process. ``result_png`` returns b"" when there is nothing to show.
    ``table_pickers(public)``: moves anyone may see offered (the extension question, a
    solitaire's open hand); ``hand_pickers(private, moves)``: one seat's choices, given its legal
    moves with labels. ``round_finished(before, after)``: post the score image now?
    ``hint(private)``: a suggested move and a one-line reason, or None.
    ``start_notice(options)``: a line said when a game starts with these options.
    ``result_text(public)``: the score image in words (its alt text, and the console's lines
    when a round ends); without it the score image is described by ``console_table``.
    ``round_opening(public, caption)``: the caption of the move that finished a round, split
    into the round's end and the next round's first line ("Hand 2: Bob starts."), which the
    front ends say after the score, with the next round's table; ``(caption, "")`` when the
    caption holds no such line.
    ``deciding(public)``: what the seats to act now are deciding, said after their names to a
    member who waits for them ("to keep their tickets" while Ticket to Ride's opening tickets
    are chosen); "" when that is an ordinary turn.
    ``alt_tables(public)``: for a game whose ``console_table`` can run past an image
    description's limit (Dragon's six cars), the table in words at several lengths, the fullest
    first, each as (what must be said whole: the heading and every seat; what may be cut after
    it): the description is the fullest whose first part fits, so every seat is said in fewer
    words rather than the last seats cut off. Without it, ``console_table`` cut at the limit.
    ``rules_more``: a second part of ``/rules`` for a game whose summary fills its message
    (Dragon's French card names), sent with it as an embed's description; "" when none.
    """

    table_png: Callable[[Any], bytes]
    hand_png: Callable[[Any], bytes]
    result_png: Callable[[Any], bytes]
    hand_pickers: Callable[[Any, Sequence[MoveChoice]], list[Picker]]
    rules: str
    console_table: Callable[[Any], str]
    console_hand: Callable[[Any], str]
    table_pickers: Callable[[Any], list[Picker]] = lambda view: []
    round_finished: Callable[[Any, Any], bool] = lambda before, after: False
    hint: Callable[[Any], tuple[str, str] | None] | None = None
    start_notice: Callable[[Mapping[str, str]], str] = lambda options: ""
    result_text: Callable[[Any], str] | None = None
    round_opening: Callable[[Any, str], tuple[str, str]] = lambda public, caption: (caption, "")
    deciding: Callable[[Any], str] = lambda public: ""
    alt_tables: Callable[[Any], Sequence[tuple[str, str]]] | None = None
    rules_more: str = ""


def computer_players(normal: PolicyFactory, expert: PolicyFactory) -> dict[str, PolicyFactory]:
    """A bundle's ``policies`` for a game with a heuristic player and a searching one: ``normal``,
    ``expert``, and ``easy``, the normal player weakened (``bot.ai.easy``). Every game with both
    players offers these three, so the levels a member picks read alike from game to game."""
    return {"normal": normal, "expert": expert, "easy": easy(normal)}


@dataclass(frozen=True)
class GameBundle:
    """Everything that makes one game, registered once (see ``bot/games/__init__.py``).

    ``policies`` maps computer-player names to factories (``random`` is always added);
    ``default_policy`` plays computer seats unless the table asked for another, and plays for
    a member whose turn timer ran out. ``arena_metrics(final public view, outcome)`` adds the
    game's own figures to ``junction arena``'s report. ``display_options`` are options that only
    change how the game is shown (the card names' language): a best-result board, which ranks
    games played at the standard settings only, does not mind them. ``winnable(options)``: for a
    solitaire whose settings decide whether it can be won at all, whether a game with these
    (stored) options could be; None: as the game ranks, by ``won`` (see ``can_be_won``).
    """

    game: Game[Any, Any]
    presenter: Presenter
    policies: Mapping[str, PolicyFactory] = field(default_factory=dict)
    default_policy: str = "random"
    arena_metrics: Callable[[Any, Outcome], Mapping[str, float]] = lambda view, outcome: {}
    display_options: frozenset[str] = frozenset()
    winnable: Callable[[Mapping[str, str]], bool] | None = None

    @property
    def info(self) -> GameInfo:
        return self.game.info

    @property
    def key(self) -> str:
        return self.game.info.key

    def changed(self, options: Mapping[str, str]) -> dict[str, str]:
        """The (stored) options whose value is not the game's default; an option this version
        no longer knows counts as changed."""
        defaults = self.game.resolve_options({})
        return {name: value for name, value in options.items() if defaults.get(name) != value}

    def can_be_won(self, options: Mapping[str, str]) -> bool:
        """Whether a game with these (stored) options could have been won, so that not winning
        it is a loss: the game's own ``winnable`` when it has one, else whether it ranks wins."""
        if self.winnable is not None:
            return self.winnable(options)
        return "won" in self.info.ranking.keys

    def standard(self, options: Mapping[str, str]) -> bool:
        """Whether a game with these (stored) options was played at the standard settings,
        display options aside. An option a result does not name predates it: its default."""
        settings = {spec.name for spec in self.info.options} - self.display_options
        return not settings & self.changed(options).keys()
