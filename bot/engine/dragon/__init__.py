"""Dragon Mille Bornes (Death Race 1000): Mille Bornes and Car Wars: The Card Game at once.

Two to six cars race to exactly 1000 miles while shooting at each other; the last driver alive
also wins. The rules as played here, with every ruling: ``docs/rules/dragon.md``.

Modules: ``cards`` (the Car Wars card list as data, the car's tracks), ``state`` (the game and
its JSON), ``facts`` (what the table learns of a hand), ``notation``, ``views`` (public and per
seat), ``game`` (the engine protocol object; its key is ``dragon``), and the rules in small
modules: ``table`` (reading the cars), ``turns`` (dealing, the turn flow), ``moves`` (who acts
and what they may do), ``legality`` (why a play is refused), ``mille_plays`` (the Mille Bornes
half of a turn), ``shots`` (Car Wars plays and the reactions they open), ``damage``,
``ending``, and ``rules`` (applying a move, leaving, re-dealing hidden cards). The Mille Bornes
cards, tableau and can-go rule are imported from ``bot.engine.mille``.
"""

from __future__ import annotations

from bot.engine.dragon.game import DragonMilleBornes

GAME = DragonMilleBornes()

__all__ = ["GAME", "DragonMilleBornes"]
