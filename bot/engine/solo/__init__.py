"""Mille Bornes Solo: the seven-highway solitaire, played with the Mille Bornes cards.

The rules as played here, with every ruling: ``docs/rules/solo.md``. Seven highways of seven cards
are dealt, each with its top card face up; you hold seven cards and the rest is the gas tank. Each
move clears one highway top: a remedy on its hazard or a hazard on its remedy (Go↔Stop and End of
Limit↔Speed Limit count too); a distance card on an equal one (one goes in front of you and
scores); any safety with any 200 in either direction (you keep the 200); or a claimed
distance card sacrificed onto an equal one (both discarded, its miles lost). The card beneath a
cleared top turns face up at once; an emptied highway stays empty. You never discard by choice:
when you have no move the engine refuels an empty tank (if the preset allows), then draws up to
seven, or discards a full hand of seven and draws seven. Clear all 49 cards to win (option
``require_fuel_left``: with a card still in the tank); stuck with an empty tank, you lose.

Presets: ``classic`` (the printed rules; it can never be won, so it is a score attack on cards
cleared), ``refuel`` (the discard pile refills an empty tank, twice) and ``easy`` (one refuel,
and any two cards of one family cancel).

Modules: ``state`` (the game, its actions and JSON), ``rules`` (pairing, the automatic steps,
the end), ``views``, ``notation`` (``clear 3 with go``, ``sacrifice 100 on 5``) and ``game``
(the engine protocol object, registered as ``solo``). The cards are the classic game's
(``bot.engine.mille.cards``).
"""

from __future__ import annotations

from bot.engine.solo.game import MilleBornesSolo

GAME = MilleBornesSolo()

__all__ = ["GAME", "MilleBornesSolo"]
