"""What a game's move log tells about its past, read for a press made on an earlier table.

A button, a picker or an autocomplete choice carries the version of the table it was shown
on. When the game has moved on since, :class:`Hindsight` reads the move log (once per
refusal) to say what became of it: the member's own move already made (a double click), a
turn the computer played for them, a reaction window the bot closed, their leaving; or that
the decision it offered still stands (several seats choosing at once). It also rebuilds the
game as it stood at a version, tells who has left, and reads finished games back for
replays. It never changes a game: :class:`bot.tables.Tables` does, and uses this.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.engine.core import BadOption, GameError
from bot.games import all_bundles, bundle
from bot.move_log import (
    LEAVE,
    Replayed,
    own_move,
    played_for,
    replay_states,
    replayed,
)
from bot.position import Position, position_of, seat_of
from bot.store.base import MoveRecord, SeatRecord, Store, StoredGame
from bot.typed_moves import typed_move
from bot.updates import NoGameHere, NoReplay, NotSeated, StaleButton

EARLIER_TURN = (
    "That was offered before the latest move. Use the buttons on the newest table "
    "(or /table to post it again)."
)
"""A suggestion or a button of a table the game has moved on from (a turn may be several
moves, so "from an earlier turn" was untrue of one pressed later in the same turn)."""
NOT_THIS_TABLE = (
    "That does not match this table. Use the buttons on the newest table "
    "(or /table to post it again)."
)
"""A turn mark (a button's, a suggestion's) past the game's stored version: no real button or
suggestion was ever shown for it, so it is forged or from another copy of the game, and "an
earlier turn" would be untrue."""
ALREADY_MADE = "You have already made that move."
"""A button pressed again once its move was made (a double click): "from an earlier turn" left
the member wondering whether their move counted. Followed by what they may do now."""
NEXT_MOVE = "Use the newest table for your next one (or /table to post it again)."
PLAYED_FOR_YOU = (
    "Your time ran out, so the computer played that turn for you. Use the newest table "
    "(or /table to post it again)."
)
WINDOW_CLOSED = "Your time to react ran out, so the bot answered for you: {answer}."
"""A reaction's button pressed after its window ran out and the bot played the default: "from
an earlier turn" did not say that the chance to react had passed, nor what was played."""
LEFT_THE_GAME = "You have left this game; the players still in it decide."
ABORTED_NOT_REPLAYED = "your game #{game} was aborted, and aborted games are not replayed."
GONE = "That game no longer exists."
NEVER_DEALT = "That game never existed."
"""A game id past every id the store handed out (or 0, or beyond the database's integers): no
game ever had it, so "no longer exists" would be untrue. It tells nothing new: an id that names
a game is answered otherwise already, so which ids were handed out shows either way."""
NO_REPLAY_BEFORE = "This game was played before Junction kept replays, so it cannot be replayed."


@dataclass(frozen=True)
class LastReplayable:
    """What /replay shows in a channel: ``game``, its last finished game that can be replayed,
    and ``passed_over``, the game that finished after it, when that one's game is no longer
    installed (None: ``game`` is the last game finished there)."""

    game: StoredGame
    passed_over: StoredGame | None = None

    @property
    def last_finished(self) -> StoredGame:
        """The channel's last finished game, replayable or not."""
        return self.passed_over or self.game


async def find_game(store: Store, game_id: int) -> StoredGame | None:
    """The game with this id, if any (an id beyond the database's integers, such as a forged
    button's, names none)."""
    return await store.get_game(game_id) if 0 <= game_id < 2**63 else None


async def no_game(store: Store, game_id: int) -> NoGameHere:
    """The refusal of a game id ``find_game`` found no game for: one handed out whose row is gone
    (``GONE``), or one no game ever had (``NEVER_DEALT``). Read only once refused."""
    if 0 < game_id <= await store.highest_game_id():
        return NoGameHere(GONE)
    return NoGameHere(NEVER_DEALT)


class Hindsight:
    """Reads of a stored game's move log (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def stale(
        self,
        stored: StoredGame,
        user_id: int,
        typed: str,
        expected_version: int,
        shown_at: int | None,
    ) -> StaleButton | None:
        """The refusal of a move offered at ``expected_version`` (from a hand shown at
        ``shown_at``) to a game now at another version: None while the decision that hand
        offered still stands (``decision_shown``). The move log is read at most once, for that
        and for every reason the refusal may give."""
        if shown_at is None and expected_version > stored.version:
            return StaleButton(NOT_THIS_TABLE)
        moves = await self.store.moves(stored.id)
        # Two victims pressing their sides at once both read the same version before either
        # held the lock: the second's decision still stands.
        if (
            shown_at is not None
            and await self.decision_shown(stored, user_id, shown_at, moves=moves) is not None
        ):
            return None
        if expected_version > stored.version:
            return StaleButton(NOT_THIS_TABLE)
        since = expected_version if shown_at is None else shown_at
        first = await self.first_move_since(stored, user_id, since, moves=moves)
        made = await self.already_made(stored, first, typed, moves=moves)
        if made is None and played_for(first):
            made = PLAYED_FOR_YOU
        if made is None and await self.has_left(stored, user_id, moves=moves):
            made = LEFT_THE_GAME
        if made is None:
            made = await self.window_closed(stored, first, moves=moves)
        return StaleButton(made or EARLIER_TURN)

    async def moves_of(
        self, stored: StoredGame, moves: Sequence[MoveRecord] | None
    ) -> Sequence[MoveRecord]:
        """The game's move log: ``moves`` when the caller read it already (a refusal reads it
        once for all its reasons), else read now."""
        return await self.store.moves(stored.id) if moves is None else moves

    # --- decisions made at the same time -------------------------------------------------------

    async def still_deciding(self, stored: StoredGame, user_id: int, since: int) -> bool:
        """Whether the decision a member was offered at version ``since`` still stands (see
        ``decision_shown``)."""
        return await self.decision_shown(stored, user_id, since) is not None

    async def decision_shown(
        self,
        stored: StoredGame,
        user_id: int,
        since: int,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> Position | None:
        """The position a member's hand was shown at, while the decision it offered still
        stands: the game moved on only by other seats' moves, and the member must still make
        the same choice (None otherwise).

        Several seats may decide at once (every victim's side in a stampede, everyone's
        opening tickets): a member's hand shown before another chose stays good, while a hand
        the member has acted on since (a double click) does not. Nor does one whose decision
        changed under it: an attacker who leaves closes the victim's window and may hand the
        victim the turn, where an old "Coup fourré!" button would play an ordinary safety.
        ``moves``: the move log, when the caller read it already (``moves_of``).
        """
        if stored.status != "active" or not 0 <= since <= stored.version:
            return None
        seat = seat_of(stored, user_id)
        here = position_of(stored)
        if seat not in here.acting:
            return None
        if since == stored.version:
            return here
        moves = await self.moves_of(stored, moves)
        if any(move.seq > since and move.seat == seat for move in moves):
            return None
        shown = await self.as_of(stored, since, moves=moves)
        if shown is None or seat not in shown.acting:
            return None
        game = here.game
        if game.legal_actions(shown.state, seat) != game.legal_actions(here.state, seat):
            return None
        return shown

    async def first_move_since(
        self,
        stored: StoredGame,
        user_id: int,
        since: int,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> MoveRecord | None:
        """The member's first stored move after version ``since`` (None: none yet, or not
        seated), read once for every reason a move offered then may be refused now
        (``own_move``, ``played_for``, ``already_made``). ``moves``: the move log, when the
        caller read it already (``moves_of``)."""
        try:
            seat = seat_of(stored, user_id)
        except NotSeated:
            return None
        moves = await self.moves_of(stored, moves)
        return next((m for m in moves if m.seq > since and m.seat == seat), None)

    async def window_closed(
        self,
        stored: StoredGame,
        first: MoveRecord | None,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> str | None:
        """When the member's move ``first`` (``first_move_since``) is the default the bot played
        for them as their reaction window ran out, the refusal that says so and what it played
        ("no reaction", a side): None otherwise. A window's default is the one move of a
        member's seat stored with no interaction id that is not their leaving. ``moves``: the
        move log, when the caller read it already (``moves_of``)."""
        if first is None or first.interaction_id is not None or first.action == LEAVE:
            return None
        before = await self.as_of(stored, first.seq - 1, moves=moves)
        if before is None:
            return None
        game = before.game
        default = game.default_action(before.state, first.seat)
        if default is None or game.format_action(default) != first.action:
            return None
        answer = game.describe_action(before.state, first.seat, default)
        said = WINDOW_CLOSED.format(answer=answer[:1].lower() + answer[1:])
        return f"{said} {NEXT_MOVE}"

    async def already_made(
        self,
        stored: StoredGame,
        first: MoveRecord | None,
        action: str,
        *,
        moves: Sequence[MoveRecord] | None = None,
    ) -> str | None:
        """When ``action``, offered to a member before their move ``first``
        (``first_move_since``: a button, a suggestion), is that very move — a double click
        whose first press was applied — the refusal that says so, and what they may do now
        (None otherwise: it is only from an earlier turn). ``moves``: the move log, when the
        caller read it already (``moves_of``)."""
        made = own_move(first)
        if made is None:
            return None
        here = position_of(stored)
        try:
            again = here.game.format_action(here.game.parse_action(typed_move(action)))
        except GameError:
            return None
        if again != made.action:
            return None
        if made.seat in here.acting:
            return f"{ALREADY_MADE} {NEXT_MOVE}"
        # Not theirs to move now: why (the others choosing their tickets, a turn) helps more
        # than a table to press on.
        return f"{ALREADY_MADE} {await self.refusal(here, made.seat, moves=moves)}"

    async def as_of(
        self, stored: StoredGame, version: int, *, moves: Sequence[MoveRecord] | None = None
    ) -> Position | None:
        """The game as it stood at ``version``, rebuilt from its deal and move log (None if
        the log cannot rebuild it), for reading a button shown then. ``moves``: the move log,
        when the caller read it already (``moves_of``)."""
        if version == stored.version:
            return position_of(stored)
        initial = await self.store.initial_state(stored.id)
        if initial is None:
            return None
        moves = [move for move in await self.moves_of(stored, moves) if move.seq <= version]
        found = bundle(stored.game_key)
        played, state = await asyncio.to_thread(
            lambda: deque(replay_states(found.game, initial, moves), maxlen=1)[0]
        )
        if played != len(moves):
            return None
        earlier = replace(stored, version=version, state=found.game.to_dict(state))
        return Position(earlier, found, state)

    # --- replays ---------------------------------------------------------------------------------

    async def last_replayable(self, channel_id: int, user_id: int | None = None) -> LastReplayable:
        """The channel's last finished game, if it can be replayed, or the last before it that
        can when its game is no longer installed (else a readable refusal that says when
        ``user_id``'s own game here was aborted, ``aborted_here``)."""
        last = await self.store.last_finished_game(channel_id)
        if last is None:
            aborted = None if user_id is None else await self.aborted_here(channel_id, user_id)
            said = "No game has finished here yet"
            if aborted is None:
                raise NoReplay(f"{said}.")
            raise NoReplay(f"{said}: {ABORTED_NOT_REPLAYED.format(game=aborted.id)}")
        found = LastReplayable(last)
        try:
            bundle(last.game_key)
        except BadOption:
            # A plug-in game uninstalled since: its rules are gone, but the channel's games
            # before it may still be shown (a member asking for "the last game here" was
            # refused for as long as that game stayed the channel's last).
            installed = [each.key for each in all_bundles()]
            older = await self.store.last_finished_game(channel_id, installed)
            if older is None:
                # "There is no game called …" came after the replay's public "thinking…",
                # to the whole channel.
                raise NoReplay(
                    f"The last game finished here, game #{last.id}, is of {last.game_key}, a "
                    "game this bot no longer plays: it cannot be replayed."
                ) from None
            found = LastReplayable(older, passed_over=last)
        if await self.store.initial_state(found.game.id) is None:
            raise NoReplay(NO_REPLAY_BEFORE)
        return found

    async def aborted_here(
        self, channel_id: int, user_id: int, after: int = 0
    ) -> StoredGame | None:
        """The member's last game in this channel, when it was aborted and is newer than game
        ``after``: /replay shows the last finished game, and without a word the member took
        it for the game they had just aborted."""
        # A channel's games are played one after another (one in play at a time), so an
        # aborted game of the member's above ``after`` — the channel's last finished game, or
        # none when none has — is their last ended game here. Only that game is read and
        # parsed: /replay asks this before any limit applies, and before it answers Discord.
        return await self.store.last_aborted_game_of(user_id, channel_id, after)

    async def replay(self, game_id: int) -> Replayed:
        """The public view after every step of an ended game's log (frame 0 is the deal), and
        which steps are players' moves (not seats leaving).

        Rebuilt from the stored deal and the move log, so it shows exactly what the table
        showed. Public views only: no frame can reveal a hand.
        """
        stored = await find_game(self.store, game_id)
        if stored is None:
            raise await no_game(self.store, game_id)
        if stored.status == "active":
            raise NoReplay("Replays are for finished games; this one is still being played.")
        initial = await self.store.initial_state(game_id)
        if initial is None:
            raise NoReplay(NO_REPLAY_BEFORE)
        moves = await self.store.moves(game_id)
        # Replaying hundreds of moves is CPU work: keep it off the event loop.
        return await asyncio.to_thread(replayed, bundle(stored.game_key).game, initial, moves)

    async def refusal(
        self, here: Position, seat: int, *, moves: Sequence[MoveRecord] | None = None
    ) -> str:
        """Why ``seat``, not deciding now, may not move (``Position.refusal``), or that it has
        left: a member who resigned from a game of three or more was told "It is not your
        turn", as if a turn were still to come. Who left is the move log's to know (``moves``,
        when the caller read it already)."""
        if all(s.seat != seat for s in await self.members_playing(here.stored, moves=moves)):
            return LEFT_THE_GAME
        return here.refusal(seat)

    async def seats_left(
        self, stored: StoredGame, *, moves: Sequence[MoveRecord] | None = None
    ) -> frozenset[int]:
        """The seats whose members left the game (resigned or forfeited; read from the move
        log, or ``moves`` when the caller read it already)."""
        return frozenset(m.seat for m in await self.moves_of(stored, moves) if m.action == LEAVE)

    async def has_left(
        self, stored: StoredGame, user_id: int, *, moves: Sequence[MoveRecord] | None = None
    ) -> bool:
        """Whether ``user_id`` holds a seat of ``stored`` and has left it (resigned, or forfeited
        when their time ran out): an old move of theirs is refused for that, not as one of "an
        earlier turn" whose newest table would not help them. ``moves``: as ``seats_left``."""
        seats = [s.seat for s in stored.seats if s.user_id == user_id]
        return bool(seats) and seats[0] in await self.seats_left(stored, moves=moves)

    async def members_playing(
        self, stored: StoredGame, *, moves: Sequence[MoveRecord] | None = None
    ) -> list[SeatRecord]:
        """The members' seats that have not left the game (read from the move log, or
        ``moves`` when the caller read it already)."""
        left = await self.seats_left(stored, moves=moves)
        return [s for s in stored.seats if not s.is_computer and s.seat not in left]
