"""A position: one stored game with its state rebuilt once for a whole request, read in the
games' own words (who acts now, who is reacting in a window, why a seat may not move), and what a
move from one state to the next told the table (its caption, a round's end)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.core import CorruptSave, Game
from bot.games import bundle
from bot.games.bundle import GameBundle
from bot.store.base import StoredGame
from bot.updates import NotSeated, and_list

OUT_OF_THE_GAME = "You are out of this game; the others play on."
NOT_SEATED = "You are not playing in this game; only its players can do that."
DAMAGED_SEATS = "This saved game is damaged and cannot be resumed: its seats do not read."


def seat_of(stored: StoredGame, user_id: int) -> int:
    """The member's seat at the game (NotSeated, a readable refusal, for anyone else)."""
    for record in stored.seats:
        if record.user_id == user_id:
            return record.seat
    raise NotSeated(NOT_SEATED)


def move_caption(game: Game[Any, Any], before: Any, after: Any) -> str:
    """The caption a move leaves, or "" when the table shows nothing new: drawing instead of
    a coup fourré keeps the last caption, which a message listing the moves then told twice
    ("Alice plays Out of Gas on Bob!" again, as if a second hazard)."""
    if game.public_view(after) == game.public_view(before):
        return ""
    return game.caption(after)


def round_ended(found: GameBundle, before: Any, after: Any) -> bool:
    """Whether a move finished a round (its score image is due) and the game goes on."""
    game = found.game
    if game.outcome(after) is not None:
        return False  # the game's end: its last table tells the round's end with the result
    return bool(found.presenter.round_finished(game.public_view(before), game.public_view(after)))


@dataclass
class Position:
    """One stored game with its state rebuilt once for the whole request."""

    stored: StoredGame
    bundle: GameBundle
    state: Any

    @property
    def game(self) -> Game[Any, Any]:
        return self.bundle.game

    @property
    def acting(self) -> list[int]:
        if self.stored.status != "active":
            return []
        return sorted(self.game.to_act(self.state))

    def computers_due(self) -> list[int]:
        return [s for s in self.acting if self.stored.seats[s].is_computer]

    def reacting(self) -> list[int]:
        """Member seats deciding in a reaction window (the engine names their default)."""
        return [
            s
            for s in self.acting
            if not self.stored.seats[s].is_computer
            and self.game.default_action(self.state, s) is not None
        ]

    @property
    def window_open(self) -> bool:
        """Whether every seat deciding now decides out of turn, in a reaction window."""
        acting = self.acting
        return bool(acting) and all(
            self.game.default_action(self.state, s) is not None for s in acting
        )

    def waiting_for(self) -> str:
        """Whom the table waits for, in words: "waiting for Bob to react" while a reaction
        window is open (the seat whose turn it is waits too), else "waiting for Bob"."""
        names = and_list([self.stored.seats[s].name for s in self.acting])
        return f"waiting for {names} to react" if self.window_open else f"waiting for {names}"

    def deciding_at_once(self) -> bool:
        """Whether the seats to act make a choice every seat makes at once, rather than take a
        turn (the presenter's ``deciding``: Ticket to Ride's opening tickets)."""
        return bool(self.bundle.presenter.deciding(self.game.public_view(self.state)))

    def refusal(self, seat: int) -> str:
        """Why ``seat``, not deciding now, may not move: it is out (a Dragon driver killed:
        "not your turn" promised a turn that never comes), or others decide, in a reaction
        window (where "not your turn" was untrue for the seat whose turn it is), several at once
        (a seat that has chosen its opening tickets waits for the others) or a turn."""
        if seat in self.game.out(self.state):
            return OUT_OF_THE_GAME
        if self.window_open or len(self.acting) > 1 or self.deciding_at_once():
            # Several deciding at once (Ticket to Ride's opening tickets) is nobody's turn,
            # also once all but one have chosen.
            return f"Not now: {self.waiting_for()}."
        return f"It is not your turn; {self.waiting_for()}."


def position_of(stored: StoredGame) -> Position:
    """The stored game with its state rebuilt (a CorruptSave if it cannot be read)."""
    found = bundle(stored.game_key)
    state = found.game.from_dict(stored.state)
    info = found.info
    numbers = [record.seat for record in stored.seats]
    if numbers != list(range(len(numbers))) or not (
        info.min_players <= len(numbers) <= info.max_players
    ):
        # Seats stored otherwise (none at all, a gap) failed later, as a seat was looked up
        # by its number: "Something went wrong" for every command in the channel.
        raise CorruptSave(DAMAGED_SEATS)
    return Position(stored, found, state)
