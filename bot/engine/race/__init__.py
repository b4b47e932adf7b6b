"""1000 Mile Race: two players, one 60-card deck each, exactly 1000 miles to win.

The rules as played here, with every ruling: ``docs/rules/race.md``. Each turn: an automatic draw,
then play (no more than one card each of miles, hazard and removal; trumps and Pit Crew free) or
cycle, then the end of the turn. Coup Fourré, Roadblock and Jammer answer cards out of turn in
explicit reaction windows.

Modules: ``cards`` (the deck as a table, card facts, names), ``state`` (the game, its actions
and JSON), ``dealing`` (the reveal and the deal), ``hands`` (drawing, the junkyard reshuffle),
``moves`` (the legal moves, which card answers which), ``legality`` (why a play is refused),
``rules`` (applying a move, leaving), ``turns`` (the turn flow and the end of the game),
``reactions`` (the stack, its reaction windows and each card's effect), ``views`` (public and
per seat), ``notation``, ``game`` (the engine protocol object; its bundle is
``bot.games.race``).
"""

from __future__ import annotations

from bot.engine.race.game import MileRace

GAME = MileRace()

__all__ = ["GAME", "MileRace"]
