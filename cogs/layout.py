"""Which pickers a turn shows, and how they fit in one Discord message.

Discord allows five action rows a message: five buttons a row, or one select menu of 25
options. :func:`fit` folds a presenter's pickers into that room (every move kept), and
:func:`pickers_for` / :func:`table_pickers` rebuild the pickers a table or a hand shows for a
turn — the same ones whether they are being shown or a component of them was pressed.

Dependency direction: the bottom of the picker modules. ``cogs.moving`` and ``cogs.pickers``
(the components, which are laid into a message from these pickers) import this module; it
imports no cog and no Discord type.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from typing import Any

from bot.games.bundle import ButtonSpec, ChoiceSpec, GameBundle, GroupSpec, Picker, SelectSpec
from bot.position import Position
from bot.store.base import StoredGame
from bot.tables import Tables

ROWS = 5  # Discord: five action rows per message
PER_ROW = 5  # five buttons per row, or one select
PER_SELECT = 25  # options per select menu
DEPTH = 4  # how deep target pickers may nest (a group's option that is a group itself)


def fit(pickers: Sequence[Picker], *, reserved: int = 0) -> list[Picker]:
    """The pickers as they fit in a message with ``reserved`` buttons already taken.

    When buttons and selects need more than five rows, every button and target picker is
    folded into select menus of 25 (each choice playing the same notation), so nothing is lost.
    """
    wanted = list(pickers)
    if _rows(wanted, reserved) <= ROWS:
        return wanted
    choices: list[ChoiceSpec] = []
    folded: list[Picker] = []
    for picker in wanted:
        if isinstance(picker, ButtonSpec):
            choices.append(ChoiceSpec(picker.label[:100], picker.notation))
        elif isinstance(picker, GroupSpec):
            choices.extend(_leaves(picker, picker.label))
        else:
            folded.append(picker)
    if choices:
        folded.insert(0, SelectSpec("Choose a move", tuple(choices)))
    return folded


def _leaves(group: GroupSpec, said: str) -> Iterator[ChoiceSpec]:
    """Every move inside a target picker, however deep, labelled by the choices leading to it."""
    for option in group.options:
        if isinstance(option, GroupSpec):
            yield from _leaves(option, f"{said} → {option.label}")
        else:
            yield ChoiceSpec(f"{said} → {option.label}"[:100], option.notation)


def _rows(pickers: Sequence[Picker], reserved: int) -> int:
    buttons = reserved + sum(1 for p in pickers if not isinstance(p, SelectSpec))
    selects = sum(menus_of(p) for p in pickers if isinstance(p, SelectSpec))
    return selects + -(-buttons // PER_ROW)


def menus_of(select: SelectSpec) -> int:
    """How many select menus ``select`` takes: one per 25 choices."""
    return -(-len(select.choices) // PER_SELECT)


def components_of(pickers: Sequence[Picker]) -> int:
    """How many components ``pickers`` take (a long select is several of 25)."""
    return sum(menus_of(p) if isinstance(p, SelectSpec) else 1 for p in pickers)


async def pickers_for(
    tables: Tables, stored: StoredGame | Position, where: str, user_id: int
) -> list[Picker]:
    """The pickers shown on the table (``t``) or in ``user_id``'s hand (``h``) for this turn."""
    here = stored if isinstance(stored, Position) else tables.position(stored)
    if where == "t":
        return await table_pickers(here.bundle, here.game.public_view(here.state))
    view = tables.private_view(here, user_id)
    moves = tables.legal_moves(here, user_id)
    return fit(await asyncio.to_thread(here.bundle.presenter.hand_pickers, view, moves))


async def table_pickers(found: GameBundle, public: Any) -> list[Picker]:
    """The public pickers under the table, fitted beside "My hand" where hands are private."""
    # Ordering moves may run a search (a solitaire's hint): keep it off the event loop.
    shown = await asyncio.to_thread(found.presenter.table_pickers, public)
    return fit(shown, reserved=hand_button_places(found))


def hand_button_places(found: GameBundle) -> int:
    """How many places the "My hand" button takes under the table: one where hands are private."""
    return 1 if found.info.private_hands else 0
