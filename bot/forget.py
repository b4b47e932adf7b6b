"""Taking a member out of Junction's database when they ask (``junction forget-member``).

Discord's developer policy has a bot delete what it keeps about a user who asks. Junction keeps
a member's Discord id and the name they played under in every game and result, inside the
games' states (the names captions are written with), in invitations and in abort requests.

Forgetting keeps every game, so the other players lose nothing: the member's seats stay, played
by a *former player*, under an alias id drawn at random and kept nowhere else (so it cannot be
traced back to the member). Results and ratings of the others stay exactly as they were, and
the former player keeps their place on the boards under that name. The names inside a game's
states are rebuilt by replaying its deal and moves with the new name. Where a replay cannot
reproduce the stored game (one stored before initial states were kept, one dealt from a stacked
deck, one stored before a rules fix, one of a plug-in game no longer installed), the name is
replaced in its player list and, as a whole word, in the text of its captions instead.

A member still seated in a game in play is refused: the game would go on under their name.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import sys
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.core import Game, GameError
from bot.engine.words import plural
from bot.games import bundle
from bot.move_log import LEAVE, replay_states
from bot.names import unused_name
from bot.store.base import (
    Forgotten,
    GameRewrite,
    MemberSeated,
    MoveRecord,
    Store,
    StoredGame,
    StoreError,
)
from bot.updates import and_list

FORMER = "Former player"
_ATTEMPTS = 3  # reads of the member's games, should they start one while being forgotten


class StillPlaying(GameError):
    """The member sits in a game still in play."""


@dataclass(frozen=True)
class Found:
    """What the database holds of a member before anything is changed."""

    games: tuple[StoredGame, ...]

    @property
    def in_play(self) -> tuple[StoredGame, ...]:
        return tuple(g for g in self.games if g.status == "active")


async def find_member(store: Store, user_id: int) -> Found:
    return Found(tuple(await store.games_of_member(user_id)))


async def forget_member(store: Store, user_id: int) -> Forgotten:
    """Take ``user_id`` out of every game, result, claim, vote and invitation (see the module
    docstring); StillPlaying, with nothing changed, while they sit in a game in play."""
    for _attempt in range(_ATTEMPTS):
        found = await find_member(store, user_id)
        playing = await still_playing(store, found, user_id)
        if playing is not None:
            raise StillPlaying(playing)
        alias = -1 - secrets.randbelow(2**62)  # negative: never a Discord id
        rewrites = [await _rewrite(store, stored, user_id, alias) for stored in found.games]
        try:
            done = await store.forget_member(user_id, alias=alias, name=FORMER, games=rewrites)
            return replace(done, damaged_deals=await damaged_deals(store, found))
        except MemberSeated:
            # The bot runs meanwhile: they started a game while the rewrites were made. Look
            # again (a game still in play refuses it, one already over is rewritten too).
            continue
    raise StillPlaying(f"Member {user_id} kept starting games while being forgotten; try again.")


async def damaged_deals(store: Store, found: Found) -> tuple[int, ...]:
    """The member's ended games whose deal (initial state) cannot be read: forgetting keeps
    it as it is (``_rewrite``), where it stopped the command in a traceback."""
    damaged = []
    for stored in found.games:
        if stored.status == "active":
            continue
        try:
            await store.initial_state(stored.id)
        except StoreError:
            damaged.append(stored.id)
    return tuple(damaged)


async def still_playing(store: Store, found: Found, user_id: int) -> str | None:
    """Why the member cannot be forgotten yet (None: they can): the games in play that seat
    them, and what ends them. The dry run says it too, where it said "run again with --yes"
    and the real run then refused."""
    if not found.in_play:
        return None
    where = [await _in_play(store, stored, user_id) for stored in found.in_play]
    # /resign is no help in a game they cannot leave any more: only its end is.
    advice = (
        "a moderator can /abort it"
        if all(left for _, left in where)
        else "they can /resign, or a moderator can /abort it"
    )
    return (
        f"Member {user_id} is still seated in a game in play "
        f"({', '.join(text for text, _ in where)}); it must end first ({advice})."
    )


async def _in_play(store: Store, stored: StoredGame, user_id: int) -> tuple[str, bool]:
    """Where a game in play that seats the member is, for the operator, and whether /resign
    can no longer help there: they have left it, or the rules count them out (a Dragon driver
    out of the race), and the others play on."""
    mine = {s.seat for s in stored.seats if s.user_id == user_id}
    try:
        moves = await store.moves(stored.id)
    except StoreError:  # a damaged move log: whether they left cannot be told
        moves = []
    left = any(m.action == LEAVE and m.seat in mine for m in moves)
    stuck = left or not _may_resign(stored, mine)
    gone = ", which they can no longer /resign from: the others are still playing it"
    return f"game {stored.id} in channel {stored.channel_id}{gone if stuck else ''}", stuck


def _may_resign(stored: StoredGame, seats: Iterable[int]) -> bool:
    """Whether the rules would let these seats leave the game as it stands (/resign)."""
    try:
        game = bundle(stored.game_key).game
        state = game.from_dict(stored.state)
        for seat in seats:
            game.leave(state, seat)
    except GameError:
        return False
    return True


async def _rewrite(store: Store, stored: StoredGame, user_id: int, alias: int) -> GameRewrite:
    mine = [s.seat for s in stored.seats if s.user_id == user_id]
    names = {stored.seats[seat].name for seat in mine}
    # A second member of the game forgotten is "Former player (2)": captions such as "Former
    # player plays Accident on Former player" would not say who did what to whom.
    former = unused_name(FORMER, [s.name for s in stored.seats if s.seat not in mine])
    seats = tuple(
        replace(s, user_id=alias, name=former) if s.seat in mine else s for s in stored.seats
    )
    scrubbed = _scrubbed(stored.state, mine, names, former)
    try:
        initial = await store.initial_state(stored.id)
    except StoreError:
        # A deal too damaged to read: kept as it is and named (``damaged_deals``), the rest
        # of the game renamed where it stands.
        initial = None
    if initial is None:
        return GameRewrite(stored.id, seats, scrubbed, None)
    try:
        game = bundle(stored.game_key).game
        moves = await store.moves(stored.id)
    except (GameError, StoreError):
        # A plug-in game no longer installed (no rules to deal or replay it with), or a move
        # log too damaged to read: renamed where it stands (its rows stay, as for every other
        # game; a move holds no name).
        return GameRewrite(stored.id, seats, scrubbed, _scrubbed(initial, mine, names, former))
    dealt = _dealt_again(game, stored, initial, [s.name for s in seats])
    if dealt is None or not _replays_exactly(game, initial, moves, stored.state):
        return GameRewrite(stored.id, seats, scrubbed, _scrubbed(initial, mine, names, former))
    return GameRewrite(stored.id, seats, _final(game, dealt, moves) or scrubbed, dealt)


def _dealt_again(
    game: Game[Any, Any], stored: StoredGame, initial: Mapping[str, Any], players: list[str]
) -> dict[str, Any] | None:
    """The game's deal with these player names, dealt again from its seed and settings; None
    unless dealing with the old names gives exactly the stored deal (a stacked deck, say)."""
    settings = {option.name for option in game.info.options}
    options = {k: v for k, v in stored.options.items() if k in settings}
    try:
        seed = int(initial["seed"])
        same = game.new_game([s.name for s in stored.seats], seed, options)
        if _as_stored(game.to_dict(same)) != dict(initial):
            return None
        return _as_stored(game.to_dict(game.new_game(players, seed, options)))
    except (GameError, KeyError, TypeError, ValueError):
        return None


def _as_stored(state: Mapping[str, Any]) -> dict[str, Any]:
    """A state as it reads back from the database (JSON: tuples become lists)."""
    value: dict[str, Any] = json.loads(json.dumps(state))
    return value


def _renamed(state: Mapping[str, Any], seats: Iterable[int], former: str) -> dict[str, Any]:
    """A stored state with the players at ``seats`` called ``former`` (every game keeps its
    seat names in a top-level ``players`` list)."""
    players = list(state.get("players") or [])
    for seat in seats:
        if seat < len(players):
            players[seat] = former
    return {**state, "players": players}


def _final(game: Game[Any, Any], initial: Mapping[str, Any], moves: Sequence[MoveRecord]) -> Any:
    """The state after every move, replayed from ``initial``; None if the rules refuse one."""
    # Only the last state counts; a short replay stopped at a move the rules refuse.
    last = deque(replay_states(game, initial, moves), maxlen=1)
    if not last or last[0][0] != len(moves):
        return None
    return game.to_dict(last[0][1])


def _replays_exactly(
    game: Game[Any, Any],
    initial: Mapping[str, Any],
    moves: Sequence[MoveRecord],
    stored: Mapping[str, Any],
) -> bool:
    """Whether replaying the stored deal and moves gives the stored final state, so the
    replay with the new names is the same game with only the names changed."""
    try:
        replayed = _final(game, initial, moves)
    except GameError:
        return False
    return replayed is not None and _as_stored(replayed) == dict(stored)


def _scrubbed(
    state: Mapping[str, Any], seats: Iterable[int], names: set[str], former: str = FORMER
) -> dict[str, Any]:
    """The state renamed (to ``former``) without a replay: the player list, and the names
    wherever they appear in prose (a string with a space: captions, reasons). Card codes and
    other values have no spaces, so a name that happens to equal one is left alone there."""

    # A name as a whole word only: "Al" must not turn "Alice" or "Always" into nonsense. The
    # other seats' names are matched too, longest first, and kept: "Sam" is not to turn the
    # other player's "Sam (2)" (two Sams are numbered when dealt) into "Former player (2)".
    mine = {n for n in names if n.strip()}
    others = {str(n) for n in state.get("players") or [] if str(n).strip()} - mine
    every = sorted(mine | others, key=len, reverse=True)
    spelled = "|".join(re.escape(n) for n in every)
    pattern = re.compile(rf"(?<!\w)(?:{spelled})(?!\w)") if mine else None

    def rename(match: re.Match[str]) -> str:
        return former if match.group(0) in mine else match.group(0)

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            if pattern is None or " " not in value:
                return value
            return pattern.sub(rename, value)
        if isinstance(value, list):
            return [scrub(item) for item in value]
        if isinstance(value, dict):
            return {key: scrub(item) for key, item in value.items()}
        return value

    renamed = _renamed(state, seats, former)
    return {key: value if key == "players" else scrub(value) for key, value in renamed.items()}


def _changes(done: Forgotten, *, done_now: bool) -> str:
    """What forgetting changes (``done_now``) or would change, the same counts in both."""
    name, deleted = ("now name", "deleted") if done_now else ("would name", "would be deleted")
    said = (
        f"{plural(done.games, 'game')} and {plural(done.results, 'result')} {name} a "
        f"{FORMER.lower()}; {plural(done.lobbies, 'invitation')} {deleted}"
    )
    if done.kept:
        # The newest invitation is kept for its number (``Store.forget_member``), not deleted.
        kept = "kept" if done_now else "would be kept"
        said += f"; the newest invitation {kept}, closed, with a {FORMER.lower()} in their place"
    if done.seats:
        freed = "freed" if done_now else "would be freed"
        said += f"; {plural(done.seats, 'seat')} {freed} at open tables"
    return said


def _damaged(done: Forgotten, *, done_now: bool) -> str | None:
    """The rows holding the member's id that forgetting cannot read, hence leaves as they are
    (``Forgotten.damaged_games`` and ``damaged_results``), for the operator to mend or delete;
    None when there are none. One damaged result stopped the command in a traceback."""
    rows = []
    if done.damaged_results:
        rows.append(f"the {_of_games('result', done.damaged_results)}")
    if done.damaged_games:
        rows.append(f"the seats of {_of_games('', done.damaged_games)}")
    if done.damaged_deals:
        rows.append(f"the {_of_games('deal', done.damaged_deals)}")
    if not rows:
        return None
    singles = (*done.damaged_results, *done.damaged_deals)
    one = not done.damaged_games and len(singles) == 1  # seats are "they"
    left = ("would be" if not done_now else "was" if one else "were") + " left"
    they, are, them = ("it", "is", "it") if one else ("they", "are", "them")
    return (
        f"{and_list(rows)} {left} as {they} {are}: {they} {are} damaged (this version cannot "
        f"read {them}) and may still hold their id; mend or delete {them} in the database"
    )


def _of_games(what: str, ids: Sequence[int]) -> str:
    """ "result of game 3", "results of games 3 and 5" (``what`` empty: "game 3")."""
    games = f"{'game' if len(ids) == 1 else 'games'} {and_list([str(i) for i in ids])}"
    if not what:
        return games
    return f"{what if len(ids) == 1 else what + 's'} of {games}"


async def forget_main(db_url: str, user_id: int, *, confirmed: bool) -> int:
    """``junction forget-member``: say what forgetting the member would change and, with
    ``--yes``, forget them; the exit status (2 while they sit in a game in play, or when there
    is no database where ``db_url`` points). Without ``--yes`` only reads: a SQLite file this
    account may not write is read through a copy, as ``junction migrate-db`` reads a source."""
    import tempfile

    from bot.store import (
        StoreUnavailable,
        migrate,
        missing_sqlite_file,
        opened_store,
        redact_url,
        unopened_store,
    )
    from bot.store.sqlite import SqliteStore

    named = unopened_store(db_url)
    if missing_sqlite_file(named):
        # Opening it would create an empty database and report the member forgotten from it:
        # most likely JUNCTION_DB is not set in this shell (it defaults to ./junction.db).
        print(
            f"junction forget-member: there is no database at {named.path}; set JUNCTION_DB "
            "to the bot's database and run it again.",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="junction-forget-") as folder:
        url = db_url
        if (
            not confirmed
            and isinstance(named, SqliteStore)
            and not named.is_memory
            and not migrate._writable(named.path)
        ):
            # Opening a store writes (WAL mode, the migrations): a dry run on a database this
            # account may only read was refused ("attempt to write a readonly database").
            url = await asyncio.to_thread(migrate._readable_copy, named.path, folder, db_url)
        try:
            store = await opened_store(url)
        except StoreUnavailable as exc:
            # Said of the database named, not of the temporary copy nobody asked for.
            raise StoreUnavailable(str(exc).replace(url, redact_url(db_url), 1)) from exc
        try:
            return await _forget_in(store, user_id, confirmed=confirmed)
        except StoreError as error:
            # A row it could not get past (a game too damaged to read at all): one sentence,
            # not a traceback; forgetting is one transaction, so nothing was changed.
            print(
                f"junction forget-member: {error}; nothing was changed: mend or delete it in "
                "the database and run it again.",
                file=sys.stderr,
            )
            return 1
        finally:
            await store.close()


async def _forget_in(store: Store, user_id: int, *, confirmed: bool) -> int:
    found = await find_member(store, user_id)
    if not confirmed:
        preview = replace(
            await store.forget_preview(user_id), damaged_deals=await damaged_deals(store, found)
        )
        playing = await still_playing(store, found, user_id)
        then = "run again with --yes to forget them" if playing is None else f"not now: {playing}"
        damaged = _damaged(preview, done_now=False)
        print(
            f"member {user_id} sits in {plural(len(found.games), 'stored game')} "
            f"({len(found.in_play)} in play); forgetting them: "
            f"{_changes(preview, done_now=False)}; {f'{damaged}; ' if damaged else ''}{then}"
        )
        return 0
    try:
        done = await forget_member(store, user_id)
    except StillPlaying as error:
        print(f"junction forget-member: {error}", file=sys.stderr)
        return 2
    print(f"member {user_id} forgotten: {_changes(done, done_now=True)}")
    damaged = _damaged(done, done_now=True)
    if damaged is not None:
        # Forgotten everywhere else, but not wholly: status 1, as a copy that went wrong is
        # (``junction migrate-db``), so a script does not take the member for gone.
        print(f"junction forget-member: {damaged[0].upper()}{damaged[1:]}.", file=sys.stderr)
        return 1
    return 0
