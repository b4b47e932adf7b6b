"""Classic two-player Mille Bornes, played as the BSD ``mille`` program plays it.

The rules as played here, with every ruling: ``docs/rules/mille.md``. Hands are races to exactly
700 miles (1000 with an extension); hazards stop the opponent, remedies and safeties answer them, a
safety played against a fresh hazard before drawing is a coup fourré. Hands are scored
(``scoring.py``) until someone has 5000 points.

Modules: ``cards`` (faces, decks, names), ``state`` (the match and its JSON), ``rules`` (turn
flow and legality), ``scoring``, ``views`` (public and per seat), ``notation``, ``game`` (the
engine protocol object, registered as ``mille``).
"""

from __future__ import annotations

from bot.engine.mille.game import MilleBornes

GAME = MilleBornes()

__all__ = ["GAME", "MilleBornes"]
