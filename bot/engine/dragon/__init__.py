"""Dragon Mille Bornes (Death Race 1000): Mille Bornes and Car Wars: The Card Game at once.

Sources: ``shared/seeds/dragon-mille-bornes.txt`` settled by ``shared/RULINGS.md`` §5 (and §0–1
for the Mille Bornes cards and distance rules). Two to six cars race to exactly 1000 miles while
shooting at each other; the last driver alive also wins.

Modules: ``cards`` (the Car Wars card list as data, the car's tracks), ``state`` (the game and
its JSON), ``rules`` (turn flow, legality, reactions, damage), ``notation``, ``views`` (public
and per seat), ``game`` (the engine protocol object; its key is ``dragon``). The Mille
Bornes cards, tableau and can-go rule are imported from ``bot.engine.mille``.
"""

from __future__ import annotations

from bot.engine.dragon.game import DragonMilleBornes

GAME = DragonMilleBornes()

__all__ = ["GAME", "DragonMilleBornes"]
