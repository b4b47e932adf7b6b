"""Ticket to Ride: The Card Game — the standard game for two to four (``ttr``) and the Station
Clock solitaire (``ttr-solo``), one engine for both.

The rules as played here, with every ruling: ``docs/rules/ttr.md``. Players draw train cards, play
sets of a colour to their Railyard (robbing smaller sets of that colour), and every turn one card
of each Railyard set moves to their face-down On-the-Track stack, which completes Destination
Tickets at the final scoring.

Modules: ``cards`` (cards, tickets and Big Cities as data), ``state`` (the game, its actions and
JSON), ``table`` (the deck, the draw area, shuffles), ``dealing`` (the deal and the opening
ticket choice), ``moves`` (who acts, the legal moves), ``legality`` (why a move is refused),
``rules`` (applying a move), ``turns`` (the turn flow, the final round, the second deck),
``station_clock`` (solo: the Station Clock and robbing the draw area), ``ending`` (the final
scoring and the winners), ``scoring`` (the exact ticket allocation and Big City bonuses),
``views``, ``notation`` and ``game`` (the engine protocol objects, registered as ``ttr`` and
``ttr-solo``).
"""

from __future__ import annotations

from bot.engine.ttr.game import TicketToRide, TicketToRideSolo

GAME = TicketToRide()
SOLO_GAME = TicketToRideSolo()

__all__ = ["GAME", "SOLO_GAME", "TicketToRide", "TicketToRideSolo"]
