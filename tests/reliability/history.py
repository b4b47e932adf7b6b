"""A stored game's states, rebuilt from its deal and move log (the replay of what was stored)."""

from __future__ import annotations

from typing import Any

from bot.engine.core import Game
from bot.games import bundle
from bot.move_log import LEAVE
from bot.store.base import Store


class History:
    """Every state a stored game passed through, by version (0 = the deal)."""

    def __init__(self, store: Store, game_id: int) -> None:
        self.store = store
        self.game_id = game_id
        self.states: list[Any] = []
        self.game: Game[Any, Any] | None = None
        self.actions: list[str] = []  # the notation of each stored move, version 1 first

    async def update(self) -> list[Any]:
        """Read the log again; the states up to the newest stored version."""
        if self.game is None:
            stored = await self.store.get_game(self.game_id)
            assert stored is not None
            self.game = bundle(stored.game_key).game
            initial = await self.store.initial_state(self.game_id)
            assert initial is not None
            self.states = [self.game.from_dict(initial)]
        game = self.game
        for move in (await self.store.moves(self.game_id))[len(self.states) - 1 :]:
            state = self.states[-1]
            if move.action == LEAVE:
                state = game.leave(state, move.seat)
            else:
                state = game.apply(state, move.seat, game.parse_action(move.action))
            self.states.append(state)
            self.actions.append(move.action)
        return self.states

    def views(self, since: int) -> list[Any]:
        """The public views of every state from version ``since`` on, and the notation of every
        move that led there: a card a move played was on the table at that moment, even when
        the same step dealt a new hand and put it out of sight again."""
        assert self.game is not None
        played = tuple(word for action in self.actions[since:] for word in action.split())
        return [*(self.game.public_view(s) for s in self.states[since:]), played]
