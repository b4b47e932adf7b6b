"""Buttons and select menus for any game, built from the presenter's pickers.

Every component is a ``DynamicItem`` whose custom id carries only numbers — the game, the turn
(its stored version), where it was shown (``t`` the public table, ``h`` a private hand) and the
picker's position — never a notation or anything else to trust. When it is pressed, the game is
looked up, the pickers are rebuilt from the same view of the same turn, and the position is
checked against them; an id from another game or an earlier turn gets a clear answer. Ids stay
far below Discord's 100 characters whatever a game's notation looks like, and buttons on
messages from before a restart keep working with no registration per message.

All components share one error handler (:class:`GameItem`): a ``GameError`` becomes an
ephemeral sentence, anything else is logged and answered with an apology.

Dependency direction: above ``cogs.layout`` (which pickers a turn shows, and how many fit) and
``cogs.moving`` (answering the move a component plays); neither imports this module. The
messages made of components — a hand (:func:`hand_message`), the components under a table
(:func:`table_view`, which ``cogs.ui`` imports when it posts a table) — live here, since the
"My hand" button shows one and a hand's buttons are these components.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, NoReturn, Self

import discord

from bot.engine.core import GameError, NotationError, NotYourTurn
from bot.engine.words import plural
from bot.games import bundle
from bot.games.bundle import ButtonSpec, GroupSpec, Picker, SelectSpec
from bot.hindsight import LEFT_THE_GAME, PLAYED_FOR_YOU
from bot.move_log import own_move, played_for
from bot.position import Position
from bot.store.base import MoveRecord, StoredGame
from bot.tables import Tables
from bot.updates import NotSeated, StaleButton, TableUpdate, and_list
from cogs.alt_text import described
from cogs.follow_ups import answer_once
from cogs.layout import (
    DEPTH,
    PER_ROW,
    PER_SELECT,
    ROWS,
    components_of,
    hand_button_places,
    menus_of,
    pickers_for,
    table_pickers,
)
from cogs.limits import TooSoon
from cogs.moving import play_move, private_to_presser
from cogs.permissions import permission_refusal
from cogs.ui import answer, answer_in_place, bot_of, defer, failure_text, plain, refuse

log = logging.getLogger("junction.pickers")

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
ID = r"[0-9]{1,19}"  # a Discord-sized number; bigger ones never match (no overflow downstream)


class GameItem(discord.ui.DynamicItem[Any], template=r"(?!)"):
    """A component rebuilt from its custom id, with the one shared error handler."""

    posts_images: ClassVar[bool] = True
    """Whether pressing it may post a table (the bot then needs Attach Files and Embed Links)."""

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.from_match(match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        refusal = permission_refusal(interaction, images=self.posts_images)
        if refusal is not None:
            await refuse(interaction, refusal)
            return
        try:
            await self.act(interaction)
        except GameError as error:
            await refuse(interaction, str(error))
        except TooSoon as error:
            # A button past a member's limit (a Rematch inviting again): when to try again.
            await refuse(interaction, error.sentence(interaction))
        except Exception as error:
            await refuse(interaction, failure_text(error, log, f"component {self.custom_id}"))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


def _option(picker: Picker | None, path: Sequence[int]) -> Picker | None:
    """The picker reached from ``picker`` by choosing the options ``path`` numbers, one level
    at a time (None: no such option, or a level that is not a group)."""
    for number in path:
        if not isinstance(picker, GroupSpec) or number >= len(picker.options):
            return None
        picker = picker.options[number]
    return picker


def _path_of(match: re.Match[str]) -> tuple[int, ...]:
    """The option numbers at the end of a custom id (``:2:0``), outermost first."""
    return tuple(int(number) for number in match["path"].split(":")[1:])


# --- components in a message (which pickers, and what fits: cogs.layout) -----------------------


def add_pickers(
    view: discord.ui.View,
    pickers: Sequence[Picker],
    game: StoredGame,
    where: str,
    *,
    reserved: int = 0,
) -> int:
    """Add the components for ``pickers`` (already :func:`fit`); how many were added."""
    added = 0
    for index, picker in enumerate(pickers):
        if isinstance(picker, SelectSpec):
            for part in range(menus_of(picker)):
                if _full(view):
                    return added
                view.add_item(PickSelect(game.id, game.version, where, index, part, picker))
                added += 1
        elif len(view.children) + reserved < ROWS * PER_ROW and not _full(view):
            if isinstance(picker, GroupSpec):
                view.add_item(GroupButton(game.id, game.version, where, index, (), picker))
            else:
                view.add_item(PickButton(game.id, game.version, where, index, (), picker))
            added += 1
    return added


def _full(view: discord.ui.View) -> bool:
    """Whether another row-filling select would overflow the message."""
    selects = sum(1 for c in view.children if isinstance(c, discord.ui.Select | PickSelect))
    buttons = len(view.children) - selects
    return selects + -(-buttons // PER_ROW) >= ROWS


# --- the turn a press belongs to ---------------------------------------------------------------


EARLIER_TURN = (
    "That button was shown before the latest move. Use the buttons on the newest table "
    "(or /table to post it again)."
)
"""A button of a table the game has moved on from. Not "from an earlier turn": a turn may be
several moves (a race's plays and its end, Dragon's two actions), and a button of the same
turn, pressed after one of them, is out of date too."""
NOT_THIS_TABLE = (
    "That button does not match this table. Use the buttons on the newest table "
    "(or /table to post it again)."
)
"""A button whose turn the game never reached: no real button carries it (it is forged, or from
another copy of the game), so "an earlier turn" would be untrue."""


def _not_offered(item: str, past: Sequence[MoveRecord] | None) -> StaleButton:
    """The refusal of a button or menu (``item``) its turn's pickers do not hold. Of an earlier
    turn (``past``: the log ``TurnItem.picked`` read for it), the table has moved on since. Of
    the turn the table is at (or of a hand whose decision still stands), no real one carries
    it (a forged picker number or option path) and the presser is on the newest table already:
    "no longer matches … use the newest one" would be untrue."""
    if past is not None:
        return StaleButton(f"That {item} no longer matches the table; use the newest one.")
    return StaleButton(f"That {item} is not one of this table's; nothing changed.")


@contextlib.contextmanager
def carried_move() -> Iterator[None]:
    """Around playing the move a custom id carries as text (an old move button, a hint's *Play
    it*): text that is no move of the game at all was forged or garbled on its way, the bot
    having written a move there. It is refused as a forged picker number is, in every game
    alike ("That button is not one of this table's; nothing changed."), not with the game's
    help for a move typed wrong ("I don't understand 'zzz'. Try 'play <card>'…"), which the
    member never typed."""
    try:
        yield
    except NotationError:
        raise _not_offered("button", None) from None


async def _turn_of(
    interaction: discord.Interaction[Any],
    game_id: int,
    version: int,
    where: str,
    *,
    read_old: bool = False,
) -> tuple[StoredGame, Position, Sequence[MoveRecord] | None]:
    """The game a component belongs to, the position its pickers were built from, and, when
    that position is past (the component can only be refused, see ``read_old``), the game's
    move log as read for it: the refusal reads it no more.

    A table's components hold for their turn only. A hand's hold while the presser's decision
    stands (``Hindsight.decision_shown``): in a stampede or at the opening tickets several members
    choose at once, and one's choice must not void the menus the others are looking at.
    ``read_old``: a component of an earlier turn, pressed by a member who has moved since, is
    read as of its turn (the log comes back): its caller refuses it, saying so when its move is
    the one the member made (a double click, ``_refuse_past``).
    """
    tables = bot_of(interaction).tables
    stored = await tables.game_by_id(game_id)
    if stored.status != "active":
        raise StaleButton("That button belongs to a game that has ended.")
    if stored.version == version:
        return stored, tables.position(stored), None
    if version > stored.version:
        raise StaleButton(NOT_THIS_TABLE)
    # The move log, read once: whether the hand's decision still stands, the position the
    # component was shown at, and why it is refused.
    moves = await tables.store.moves(stored.id)
    if where == "h":
        shown = await tables.hindsight.decision_shown(
            stored, interaction.user.id, version, moves=moves
        )
        if shown is not None:
            return stored, shown, None
    first = await tables.hindsight.first_move_since(
        stored, interaction.user.id, version, moves=moves
    )
    if read_old and own_move(first):
        earlier = await tables.hindsight.as_of(stored, version, moves=moves)
        if earlier is not None:
            return stored, earlier, moves
    await _refuse_stale(tables, stored, interaction.user.id, where, first, moves)


async def _refuse_stale(
    tables: Tables,
    stored: StoredGame,
    user_id: int,
    where: str,
    first: MoveRecord | None,
    moves: Sequence[MoveRecord],
) -> NoReturn:
    """Refuse a component of an earlier turn, before the presser's move ``first``
    (``Hindsight.first_move_since``): it is from an earlier turn, or (an old hand's) its presser
    left or waits for the others (``_left_or_waiting``), or the computer played that turn for
    its presser, whose time ran out, or the bot closed the presser's reaction window with its
    default (``Hindsight.window_closed``). ``moves``: the game's move log, read once by the caller
    for all of these."""
    if where == "h":
        with contextlib.suppress(NotSeated):
            await _left_or_waiting(tables, tables.position(stored), user_id, moves)
    if played_for(first):
        raise StaleButton(PLAYED_FOR_YOU)
    raise StaleButton(
        await tables.hindsight.window_closed(stored, first, moves=moves) or EARLIER_TURN
    )


async def _refuse_past(
    interaction: discord.Interaction[Any],
    stored: StoredGame,
    version: int,
    where: str,
    notation: str,
    moves: Sequence[MoveRecord],
) -> NoReturn:
    """Refuse a move offered at an earlier turn: "already made" when it is the very move its
    presser made next (the second press of a double click arriving after the first was
    applied), else as any component of an earlier turn. ``moves``: the game's move log, as
    ``_turn_of`` read it."""
    tables = bot_of(interaction).tables
    first = await tables.hindsight.first_move_since(
        stored, interaction.user.id, version, moves=moves
    )
    made = await tables.hindsight.already_made(stored, first, notation, moves=moves)
    if made is not None:
        raise StaleButton(made)
    await _refuse_stale(tables, stored, interaction.user.id, where, first, moves)


async def _left_or_waiting(
    tables: Tables, here: Position, user_id: int, moves: Sequence[MoveRecord]
) -> None:
    """Refuse an old hand component of a member who left the game, or who has made their part
    of a choice several make at once (Ticket to Ride's opening tickets, the last one still
    choosing included): "use the newest table" would not help them, why they cannot move
    would. Otherwise an old hand's component is from an earlier turn, which its caller says."""
    await _not_deciding(
        tables,
        here,
        user_id,
        only=lambda why: (
            why == LEFT_THE_GAME
            or ((len(here.acting) > 1 or here.deciding_at_once()) and not here.window_open)
        ),
        moves=moves,
    )


async def _not_deciding(
    tables: Tables,
    here: Position,
    user_id: int,
    only: Callable[[str], bool] = lambda _: True,
    moves: Sequence[MoveRecord] | None = None,
) -> None:
    """Say why a hand's button means nothing to its presser, when it is not theirs to press: a
    forged id of another member's hand (or an old one of the presser's, after they left) finds
    no picker in the presser's own hand, and "use the newest table" would not help them.
    ``only``: which of those reasons to say (the others are left to the caller). ``moves``: the
    game's move log, when the caller read it already."""
    seat = tables.seat_of(here.stored, user_id)
    if seat in here.acting:
        return
    why = await tables.hindsight.refusal(here, seat, moves=moves)
    if only(why):
        raise NotYourTurn(why)


# --- components ----------------------------------------------------------------------------------


class TurnItem(GameItem, template=r"(?!)"):
    """A component shown for one turn of one game, on the table (``t``) or in a hand (``h``)."""

    def __init__(self, item: discord.ui.Item[Any], game_id: int, version: int, where: str) -> None:
        super().__init__(item)
        self.game_id, self.version, self.where = game_id, version, where

    async def picked(
        self,
        interaction: discord.Interaction[Any],
        picker: int,
        *,
        players_only: bool = False,
        moves: bool = True,
    ) -> tuple[StoredGame, Picker | None, Sequence[MoveRecord] | None]:
        """The game, the picker at position ``picker`` among those its turn showed here (None:
        not there), and, when that turn is past, the game's move log (``_turn_of``): ``play``
        then refuses the move with it. ``moves``:
        the picker plays a move (a group only opens a choice, refused at once when past).
        ``players_only``: a presser without a seat is refused first."""
        tables = bot_of(interaction).tables
        stored, shown, past = await _turn_of(
            interaction, self.game_id, self.version, self.where, read_old=moves
        )
        if players_only:
            tables.seat_of(stored, interaction.user.id)
        pickers = await pickers_for(tables, shown, self.where, interaction.user.id)
        if picker >= len(pickers):
            if past is not None:
                user = interaction.user.id
                first = await tables.hindsight.first_move_since(
                    stored, user, self.version, moves=past
                )
                await _refuse_stale(tables, stored, user, self.where, first, past)
            if self.where == "h":
                await _not_deciding(tables, shown, interaction.user.id)
        return stored, pickers[picker] if picker < len(pickers) else None, past

    async def play(
        self,
        interaction: discord.Interaction[Any],
        notation: str,
        stored: StoredGame,
        *,
        past: Sequence[MoveRecord] | None = None,
    ) -> None:
        """Play ``notation`` on the game as it stands now (its turn held when pressed); a past
        turn's move is refused (``past``: the game's move log, as ``picked`` gave it)."""
        if past is not None:
            await _refuse_past(interaction, stored, self.version, self.where, notation, past)
        await play_move(
            interaction,
            notation,
            game_id=self.game_id,
            expected_version=stored.version,
            # A hand's decision may be shared (sides in a stampede, opening tickets): another
            # member's choice landing first must not void this one.
            shown_at=self.version if self.where == "h" else None,
            hand=hand_message if self.where == "h" else None,
        )


# A picker's place: the game, its turn, table or hand, the picker's position, then the options
# chosen inside a target picker (":2" its third option, ":2:0" the first option of that).
_PICKED = (
    rf":(?P<game>{ID}):(?P<version>[0-9]{{1,9}}):(?P<where>[th]):(?P<picker>[0-9]{{1,3}})"
    rf"(?P<path>(?::[0-9]{{1,3}}){{0,{DEPTH}}})"
)


class PickerButton(TurnItem, template=r"(?!)"):
    """A button at a picker's place (``path`` numbers the option chosen at each level of a
    target picker): a move of its own (``PickButton``), or a further choice (``GroupButton``)."""

    prefix: ClassVar[str]
    untitled: ClassVar[str]
    """The label of a button rebuilt from its custom id (Discord keeps the one it was sent with)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        where: str,
        picker: int,
        path: tuple[int, ...],
        spec: ButtonSpec | GroupSpec | None,
    ) -> None:
        tail = "".join(f":{number}" for number in path)
        super().__init__(
            discord.ui.Button(
                label=(spec.label if spec else self.untitled)[:80],
                style=_STYLES[spec.style] if spec else discord.ButtonStyle.secondary,
                emoji=spec.emoji if spec else None,
                custom_id=f"{self.prefix}:{game_id}:{version}:{where}:{picker}{tail}",
            ),
            game_id,
            version,
            where,
        )
        self.picker, self.path = picker, path

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(
            int(match["game"]),
            int(match["version"]),
            match["where"],
            int(match["picker"]),
            _path_of(match),
            None,
        )


class PickButton(PickerButton, template="jn:p" + _PICKED):
    """One move: a button of its own, or an option inside a target picker."""

    prefix, untitled = "jn:p", "Play"

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        stored, shown, past = await self.picked(interaction, self.picker)
        picked = _option(shown, self.path)
        if not isinstance(picked, ButtonSpec):
            raise _not_offered("button", past)
        await self.play(interaction, picked.notation, stored, past=past)


class GroupButton(PickerButton, template="jn:g" + _PICKED):
    """A card that needs a further choice (which car to aim at): shows that choice privately.

    A group inside a group (``path`` numbers it) is pressed in that private message, and the
    message turns into the next choice in place.
    """

    prefix, untitled = "jn:g", "Choose"

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        _, shown, past = await self.picked(interaction, self.picker, players_only=True, moves=False)
        group = _option(shown, self.path)
        if not isinstance(group, GroupSpec):
            raise _not_offered("button", past)
        view = discord.ui.View(timeout=None)
        for number, option in enumerate(group.options[: ROWS * PER_ROW]):
            path = (*self.path, number)
            if isinstance(option, GroupSpec) and len(path) < DEPTH:
                item: PickerButton = GroupButton(
                    self.game_id, self.version, self.where, self.picker, path, option
                )
            elif isinstance(option, ButtonSpec):
                item = PickButton(self.game_id, self.version, self.where, self.picker, path, option)
            else:
                continue
            view.add_item(item)
        # "3 Red…" opens "3 Red: How many Locomotives…?", not "3 Red…: How many…".
        content = f"{group.label.removesuffix('…')}: {group.prompt}"[:200]
        # In place only in the private choice it was shown in: a forged id pressed on the
        # public table must not turn the table into one member's choice of cards.
        if self.path and private_to_presser(interaction):
            await answer_in_place(interaction, content=content, view=view)
        else:
            await answer(interaction, content, view=unkept(view), ephemeral=True)


class PickSelect(
    TurnItem,
    template=(
        rf"jn:s:(?P<game>{ID}):(?P<version>[0-9]{{1,9}}):(?P<where>[th]):(?P<picker>[0-9]{{1,3}})"
        r":(?P<part>[0-9]{1,2})"
    ),
):
    """A select menu: one move among many, or several cards that make one move."""

    def __init__(
        self,
        game_id: int,
        version: int,
        where: str,
        picker: int,
        part: int,
        spec: SelectSpec | None,
    ) -> None:
        custom_id = f"jn:s:{game_id}:{version}:{where}:{picker}:{part}"
        if spec is None:
            select: discord.ui.Select[Any] = discord.ui.Select(custom_id=custom_id)
        else:
            choices = spec.choices[part * PER_SELECT : (part + 1) * PER_SELECT]
            pages = menus_of(spec)
            placeholder = spec.placeholder + (f" ({part + 1}/{pages})" if pages > 1 else "")
            select = discord.ui.Select(
                custom_id=custom_id,
                placeholder=placeholder[:150],
                min_values=min(spec.min_values, len(choices)),
                max_values=min(spec.max_values, len(choices)),
                options=[
                    discord.SelectOption(
                        label=c.label[:100],
                        value=c.value[:100],
                        description=c.description[:100] or None,
                    )
                    for c in choices
                ],
            )
        super().__init__(select, game_id, version, where)
        self.picker, self.part = picker, part

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(
            int(match["game"]),
            int(match["version"]),
            match["where"],
            int(match["picker"]),
            int(match["part"]),
            None,
        )

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        stored, spec, past = await self.picked(interaction, self.picker)
        if not isinstance(spec, SelectSpec):
            raise _not_offered("menu", past)
        offered = {c.value for c in spec.choices[self.part * PER_SELECT :][:PER_SELECT]}
        data: dict[str, Any] = dict(interaction.data or {})
        raw = data.get("values")
        values = [str(v) for v in raw] if isinstance(raw, list) else []
        if not values or any(v not in offered for v in values) or len(set(values)) != len(values):
            # Values are user input too: at the turn shown now, they were never offered.
            raise StaleButton(
                "That choice is not on offer any more; use the newest menu."
                if past is not None
                else "That choice is not one this menu offers; nothing changed."
            )
        if not spec.min_values <= len(values) <= spec.max_values:
            if spec.min_values == spec.max_values:
                raise GameError(f"Choose exactly {spec.min_values} of these.")
            raise GameError(f"Choose between {spec.min_values} and {spec.max_values} of these.")
        await self.play(interaction, spec.compose(values), stored, past=past)


class HandButton(GameItem, template=rf"jn:h:(?P<game>{ID})"):
    """The "My hand" button: the presser's own cards, ephemerally, with their pickers."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand",
                style=discord.ButtonStyle.primary,
                emoji="🃏",
                custom_id=f"jn:h:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        stored = await bot.tables.game_by_id(self.game_id)
        if stored.status != "active":
            raise GameError("That game has ended.")
        bot.tables.seat_of(stored, interaction.user.id)
        # Answer first, draw second: the 3-second window never waits on a picture.
        await defer(interaction, thinking=True, ephemeral=True)
        file, view, content = await hand_message(bot.tables, stored, interaction)
        await answer_once(interaction, content=content, file=file, view=view, ephemeral=True)


class LegacyMoveButton(
    TurnItem,
    template=rf"jn:m:(?P<game>{ID}):(?P<version>[0-9]{{1,9}}):(?P<where>[th]):(?P<move>[\w+\-.]{{1,60}})",
):
    """A move button from before pickers (its notation is checked like typed text)."""

    def __init__(self, game_id: int, version: int, where: str, notation: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play", custom_id=f"jn:m:{game_id}:{version}:{where}:{notation}"
            ),
            game_id,
            version,
            where,
        )
        self.notation = notation.replace("+", " ")

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["where"], match["move"])

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        stored, _, _ = await _turn_of(interaction, self.game_id, self.version, self.where)
        with carried_move():
            await self.play(interaction, self.notation, stored)


# --- messages ---------------------------------------------------------------------------------


def unkept(view: discord.ui.View) -> discord.ui.View:
    """``view``, to be sent in a private message, marked finished so that discord.py keeps
    nothing of it. Every item is rebuilt from its custom id at each press (``GameItem``), so
    nothing is lost; but a view sent ephemerally unfinished is given a fifteen-minute timeout,
    a sleeping task holding the view for each private message, thousands an hour on a busy
    bot."""
    view.stop()
    return view


async def hand_message(
    tables: Tables, stored: StoredGame, interaction: discord.Interaction[Any]
) -> tuple[discord.File, discord.ui.View, str]:
    """The owner's hand image with their pickers (only ever sent ephemerally)."""
    user_id = interaction.user.id
    found = bundle(stored.game_key)
    here = tables.position(stored)
    seat_view = tables.private_view(here, user_id)
    seat = tables.seat_of(stored, user_id)
    png = await bot_of(interaction).renderer.run(found.presenter.hand_png, seat_view)
    view = discord.ui.View(timeout=None)
    pickers = await pickers_for(tables, here, "h", user_id)
    shown = add_pickers(view, pickers, stored, "h")
    if seat in here.reacting():
        content = _react_now(here, seat)
    elif pickers:
        content = "Your hand — your move."
    elif seat in here.game.out(here.state):
        content = "Your hand — you are out of this game; the others play on."
    elif await tables.hindsight.refusal(here, seat) == LEFT_THE_GAME:
        content = "Your hand — you have left this game; the players still in it decide."
    elif here.window_open:
        # The seat whose turn it is waits for the reaction too: "not your turn" was untrue.
        # Both lines name the members waited for: plain text, whatever their names hold.
        content = f"Your hand — {plain(here.waiting_for())}."
    else:
        content = f"Your hand — {plain(_waiting(here, found.presenter.deciding))}."
    if shown < components_of(pickers):
        # Never a dead end: a message holds 25 components, /move's list holds every move.
        content += " Not every move fits here: type /move to find the others."
    # Alt text for screen readers: the hand in words (this message is only ever the owner's).
    alt = described(found.presenter.console_hand(seat_view))
    hand = discord.File(io.BytesIO(png), filename="hand.png", description=alt)
    return hand, unkept(view), content


WAITING_NAMES = 60
"""The longest list of names a waiting member's hand header spells out; past it, a count."""


def _waiting(here: Position, deciding: Callable[[Any], str]) -> str:
    """What a member who is not to act (nor out, nor gone) waits for, from public information:
    an ordinary turn is "not your turn yet", but at a decision several make at once (Ticket to
    Ride's opening tickets, where there are no turns yet) whom they wait for, and for what."""
    doing = deciding(here.game.public_view(here.state))
    if not doing and len(here.acting) < 2:
        return "it is not your turn yet"
    names = and_list([here.stored.seats[s].name for s in here.acting])
    if len(names) > WAITING_NAMES:
        names = plural(len(here.acting), "other player")
    return f"waiting for {names} {doing}".rstrip()


def _react_now(here: Position, seat: int) -> str:
    """What a member asked to react reads above their hand: until when, and what the bot plays
    if the time runs out. "Or let it pass" was untrue where there is no passing: a Dragon car
    skidding into a wall, or caught in a stampede, takes the hits on a side either way."""
    deadline = here.stored.turn_deadline
    until = f" (until <t:{int(deadline)}:T>)" if deadline else ""
    default = here.game.default_action(here.state, seat)
    if default is None:
        return f"You may react now{until}."
    label = plain(here.game.describe_action(here.state, seat, default))
    return f"You may react now{until} — if you do not, the bot plays **{label}**."


REMATCH_PREFIX = "jn:r:"
"""The custom id of a finished game's "Rematch" button, before the game's id (cogs/rematch.py
answers it)."""


def rematch_button(game_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Rematch",
        style=discord.ButtonStyle.success,
        emoji="🔁",
        custom_id=f"{REMATCH_PREFIX}{game_id}",
    )


async def table_view(update: TableUpdate) -> discord.ui.View:
    """The components under a table image: the public pickers and "My hand"; once the game is
    over, "Rematch"."""
    view = discord.ui.View(timeout=None)
    if update.outcome is not None or update.game.status != "active":
        # The item that answers it, not its bare button: discord.py keeps a view holding a
        # bare button with an id to answer, per message and for good (one per game finished);
        # a view of items rebuilt from their ids it keeps nothing of. Imported here: the
        # rematch cog is built on this module.
        from cogs.rematch import RematchButton

        view.add_item(RematchButton(update.game.id))
        return view
    found = bundle(update.game.game_key)
    pickers = await table_pickers(found, update.public)
    add_pickers(view, pickers, update.game, "t", reserved=hand_button_places(found))
    if found.info.private_hands:
        view.add_item(HandButton(update.game.id))
    return view


_KNOWN: dict[str, type[GameItem]] = {}


def register_items(bot: discord.Client, *items: type[GameItem]) -> None:
    """Make components answer after restarts (and remember them for :func:`add_catch_all`)."""
    for item in items:
        _KNOWN[item.__name__] = item
    bot.add_dynamic_items(*items)


class UnknownComponentBase(GameItem, template=r"(?!)"):
    """Any other custom id (forged, malformed, or from a version long gone): one clear answer."""

    def __init__(self, custom_id: str = "jn:?") -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=custom_id[:100] or "jn:?"))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match.group(0))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        raise GameError(
            "That button is not one Junction knows (it may be from an old version). "
            "Use /table to post the game's table again."
        )


def add_catch_all(bot: discord.Client) -> None:
    """Answer every component no other template matches, so no press goes unanswered.

    discord.py runs every template that matches, so this one matches exactly what the known
    ones do not (a negative lookahead built from their templates).
    """
    known = [
        re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern)
        for item in _KNOWN.values()
    ]
    # \Z, not $: "$" also matches before a final newline, so "jn:h:1\n" would be neither a
    # known id (those full-match) nor unknown, and nobody would answer it.
    template = rf"(?!(?:{'|'.join(known)})\Z)[\s\S]{{0,200}}"
    unknown = type("UnknownComponent", (UnknownComponentBase,), {}, template=template)
    bot.add_dynamic_items(unknown)


DYNAMIC_ITEMS: tuple[type[GameItem], ...] = (
    PickButton,
    GroupButton,
    PickSelect,
    HandButton,
    LegacyMoveButton,
)
