"""Play Junction in a terminal: the same seam and the same SQLite store as the Discord bot.

Any registered game: you sit in seat 0 and computer players fill the other seats. Each table
is printed as text (the game's own console text) and also written as the PNG the bot would
post, so the images can be checked without Discord. With ``--script`` (or when standard input
is not a terminal) commands are read line by line from standard input, which is how the tests
drive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import io
import itertools
import os
import signal
import sys
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TextIO

from bot.config import ConfigError
from bot.engine.core import BadOption, CorruptSave, GameError, players_wanted
from bot.engine.words import plural
from bot.games import (
    DEFAULT_GAME,
    bundle,
    get_policy,
    hint_policy,
    policy_factory,
    suggest_move,
)
from bot.games.bundle import GameBundle, MoveChoice
from bot.move_log import LEAVE, replay_frames
from bot.seats import computer_names
from bot.store import StoreUnavailable, missing_sqlite_file, opened_store, unopened_store
from bot.store.base import CONSOLE_CHANNEL, SeatRecord, StoredGame, StoreError
from bot.store.sqlite import SqliteStore
from bot.tables import Tables, TableUpdate
from bot.typed_moves import MAX_MOVE_TEXT, typed_move
from bot.updates import NoGameHere, and_list, outcome_line, told

PLAYER_ID = 1  # the console player's member id
RECAP_LINES = 12
"""Resuming recalls at most this many moves (a Dragon table of computers may have played
hundreds after your car was out)."""
FOLD_ABOVE = 24
"""A kind of move (its first word) with more choices than this is folded into one line to
type out: every subset of a hand to cycle or discard would bury the other moves."""
HELP = """Commands:
  <number>            play the move with that number in the list
  <move>              a move as the list writes it in [brackets]{examples}
  table               show the table again
  hint                the expert computer player's suggestion, with its reason
  help                this text
  resign              leave the game (with two players, that loses it)
  quit                leave the console (the game is saved; run it again to resume)"""

PLAY_AGAIN = "Run the same command again to play a new game."


@dataclass(frozen=True)
class ConsoleOptions:
    db: str
    out: Path
    # The game to deal; None: the saved game, or the default game when none is saved. A game
    # named while another is saved is refused rather than ignored (see Console.begin).
    game: str | None = None
    players: int | None = None  # seats in all (you and the computers); None: the fewest
    seed: int | None = None
    deck: Sequence[str] | None = None
    opponent: str | None = None  # the computers' policy; None: the game's default
    options: Mapping[str, str] = field(default_factory=dict)
    new: bool = False
    images: bool = True
    script: bool = False  # read commands as a script (no prompt, each echoed), even from a terminal


DECK_FILE_LIMIT = 1 << 20
"""The most a --deck file may hold, in bytes: a deck is a few hundred card codes."""


def one_line(text: str) -> str:
    """``text`` with its control characters written out (``\\n``, ``\\x1b``): a file name
    quoted in a sentence stays on one line, and a terminal's escape in it is not run."""
    return "".join(
        repr(char)[1:-1] if unicodedata.category(char) == "Cc" else char for char in text
    )


ECHO_LIMIT = 100
"""The most of a line read from a script that the console echoes back."""


def echoed(line: str) -> str:
    """A line read from a script as the console echoes it after "> ": on one line, its
    control characters written out (a terminal's escape in it is not run) and cut short
    (a line of thousands of characters is refused in one sentence, not echoed whole)."""
    text = one_line(line.rstrip())
    return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT] + "…"


def read_deck_file(path: str) -> list[str]:
    """A stacked deck file: card codes (top first) separated by spaces, commas or lines.
    Raises OSError when it cannot be read, BadOption when it is no deck file."""
    # At most a byte over the limit is read: ``/dev/zero`` or a disk image given by mistake
    # would otherwise fill the memory before being refused.
    with open(path, "rb") as file:
        data = file.read(DECK_FILE_LIMIT + 1)
    if len(data) > DECK_FILE_LIMIT:
        raise BadOption(
            f"The deck file {one_line(path)} is too big for a deck: it lists card codes, "
            f"a few hundred at most."
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # A picture or a database given by mistake: a sentence, not a decoder's traceback.
        raise BadOption(
            f"The deck file {one_line(path)} is not text: write card codes, top first, "
            "e.g. go 100 25."
        ) from None
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    return [code for line in lines for code in line.replace(",", " ").split()]


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``name=value`` pairs from the command line."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.replace(":", "=").partition("=")
        if not sep or not name.strip() or not value.strip():
            raise BadOption(f"Write options as name=value, e.g. deck=modern (not '{pair[:40]}').")
        name, value = name.strip().lower(), value.strip().lower()
        if options.get(name, value) != value:
            # Which one was meant is anyone's guess: ask, as /play does, rather than keep the last.
            raise BadOption(
                f"You gave {name[:40]} twice ({options[name][:40]}, then {value[:40]}). "
                "Give each option once."
            )
        options[name] = value
    return options


def check_request(options: ConsoleOptions) -> None:
    """Refuse an unknown game, a seat count it cannot seat, an unknown computer level, a bad
    option or a deck the game cannot deal before the database is opened: bad input leaves
    nothing behind, not even an empty database file, and ``--new`` abandons nothing.

    Without ``--game`` a database may hold a saved game of any kind, which is resumed and
    leaves those options unused (said, not refused): they are checked against the default
    game only where no database can hold one yet, else when a game is dealt
    (``check_deal``)."""
    player_name()
    found = bundle(DEFAULT_GAME if options.game is None else options.game)
    if options.game is not None or options.new or not _may_hold_a_game(options.db):
        check_deal(found, options)
    if options.images:
        check_out(options.out)


def _may_hold_a_game(url: str) -> bool:
    """Whether the store may hold a saved game: any but a SQLite file not made yet."""
    try:
        store = unopened_store(url)
    except StoreUnavailable:
        return True  # opening it says what is wrong with the URL
    if not isinstance(store, SqliteStore) or store.is_memory:
        return not isinstance(store, SqliteStore)
    try:
        return not missing_sqlite_file(store)
    except StoreUnavailable:
        return True  # opening it says why it cannot be seen


def check_deal(found: GameBundle, options: ConsoleOptions) -> None:
    """Refuse the options of a new deal that ``found`` cannot take (see check_request)."""
    if options.players is not None:
        _check_seats(found, options.players)
    if options.opponent is not None:
        # A solitaire's too: one script may pass one level to every game, but a level the
        # game does not know is a typo, not to be ignored without a word.
        get_policy(found.key, options.opponent)
    found.game.resolve_options(options.options)
    if options.deck is not None:
        # Dealt once on the side: an unknown card or a deck too short is refused here, not
        # after --new has thrown the saved game away.
        seats = options.players or max(found.info.min_players, 1)
        found.game.new_game([f"P{seat}" for seat in range(seats)], 0, options.options, options.deck)


def check_out(out: Path) -> None:
    """Refuse an images' folder that cannot be (``--out`` naming a file, a place no folder can
    be made) before a game is dealt, not at its first image. It is not made here: a request
    refused after this check (the database) leaves nothing behind."""
    if any(unicodedata.category(char) == "Cc" for char in str(out)):
        # A line break or a terminal's escape in the name (as in JUNCTION_DB): the folder was
        # made under it, and each "(table image: …)" line printed it, running the escape.
        raise BadOption(
            "Cannot write the table images to a folder whose name holds a line break or another "
            "control character: name another with --out, or add --no-images."
        )
    try:
        # The folder, or the nearest of its parents that exists, must be a folder to write in.
        existing = next(p for p in (out.absolute(), *out.absolute().parents) if p.exists())
        writable = existing.is_dir() and os.access(existing, os.W_OK | os.X_OK)
    except (OSError, StopIteration):
        writable = False
    if not writable:
        raise BadOption(
            f"Cannot write the table images to {out}: name a folder with --out, or add --no-images."
        )


def _check_seats(found: GameBundle, seats: int) -> None:
    info = found.info
    if not info.min_players <= seats <= info.max_players:
        raise BadOption(
            f"{info.title} is played by {players_wanted(info.min_players, info.max_players)}."
        )


class Console:
    def __init__(self, tables: Tables, options: ConsoleOptions, out: TextIO) -> None:
        self.tables = tables
        self.options = options
        self.out = out
        # On resuming: what happened since your last move, said once with the first table.
        self.recap: list[str] = []
        # The stored version whose numbered list was printed last: a number means a move of
        # that list, so one typed after the game moved elsewhere (another console on the same
        # database) must not play whatever the new list numbers so.
        self.listed_version: int | None = None
        self.images = options.images  # off after a write fails (see write_images)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def new_game_flags(self) -> list[str]:
        """The options given that only a new deal reads (a saved game keeps its own)."""
        given = {
            "--players": self.options.players is not None,
            "--seed": self.options.seed is not None,
            "--deck": self.options.deck is not None,
            "--opponent": self.options.opponent is not None,
            "--option": bool(self.options.options),
        }
        return [flag for flag, present in given.items() if present]

    async def begin(self) -> TableUpdate:
        # An unknown --game is refused first, before --new abandons anything.
        found = bundle(DEFAULT_GAME if self.options.game is None else self.options.game)
        info = found.info
        if self.options.new:
            check_deal(found, self.options)  # before the saved game is abandoned
            with contextlib.suppress(GameError):  # nothing to abandon
                await self.tables.abort(channel_id=CONSOLE_CHANNEL)
        try:
            update = await self.tables.table(CONSOLE_CHANNEL)
        except NoGameHere:
            update = None  # nothing saved: deal a new game
        except GameError as error:
            # A save this console cannot read (damaged, written by an incompatible version, of
            # a game no longer installed) stands in the way of every new deal. Dealing one was
            # refused with the bot's own sentence ("A game is already running in this channel
            # … /resign or /abort it"), which named neither the save nor the way past it.
            said = (
                str(error)
                if isinstance(error, CorruptSave)
                else (f"Your saved game cannot be resumed: {error}")
            )
            raise BadOption(f"{said} Add --new to abandon it and deal a new game.") from None
        if update is not None:
            title = bundle(update.game.game_key).info.title
            if self.options.game is not None and found.key != update.game.game_key:
                # The console keeps one game: resuming it when another was asked for would
                # quietly put the player at the wrong table.
                raise BadOption(
                    f"Your {title} game #{update.game.id} is still saved here: run the console "
                    f"without --game to resume it, or add --new to abandon it and start "
                    f"{found.info.title}."
                )
            # Your own moves: the stored version counts the computers' too, a number the
            # table shows nowhere.
            moves = await self.tables.store.moves(update.game.id)
            yours = sum(1 for move in moves if move.seat == 0 and move.action != LEAVE)
            when = f"after {plural(yours, 'move')} of yours" if yours else "you have not moved yet"
            self.say(f"Resuming your {title} game #{update.game.id} ({when}).")
            unused = self.new_game_flags()
            if unused:
                # Said, not refused: the same command line resumes the game it started.
                what = "is not used: it sets" if len(unused) == 1 else "are not used: they set"
                self.say(
                    f"! {and_list(unused)} {what} up a new game. Add --new to abandon this one "
                    "and deal a new game."
                )
            self.recap = await self.since_your_move(update.game)
            return update
        check_deal(found, self.options)  # not checked before the database was opened
        seats_wanted = self.options.players or max(info.min_players, 1)
        _check_seats(found, seats_wanted)
        name = player_name()
        # As the level is matched (see policy_factory): ' Expert' sits as "Computer (expert)".
        policy = (self.options.opponent or found.default_policy).strip().lower()
        computers = computer_names(seats_wanted - 1, policy)
        seats = [SeatRecord(0, name, user_id=PLAYER_ID)] + [
            SeatRecord(i, computer, policy=policy) for i, computer in enumerate(computers, 1)
        ]
        update = await self.tables.start(
            channel_id=CONSOLE_CHANNEL,
            guild_id=None,
            game_key=found.key,
            seats=seats,
            options=self.options.options,
            seed=self.options.seed,
            deck=self.options.deck,
        )
        rivals = "alone" if seats_wanted == 1 else "against the computer"
        self.say(f"New {info.title} game #{update.game.id} {rivals}.")
        if seats_wanted == 1 and self.options.opponent is not None:
            # Taken (one script may pass one level to every game), but not without a word:
            # the player would believe a computer of that level sat somewhere.
            self.say("! --opponent is not used: no computer plays a game played alone.")
        self.say("Type 'help' for the commands.")
        if update.dealt:
            # The computer moved first: say the deal's own line before its moves ("Hand 1:
            # Computer starts.", the Race's revealed cards), which no step repeats.
            self.say(f"  » {update.dealt}")
        return update

    async def present(self, update: TableUpdate) -> None:
        """``show`` the update, its score sheet after the move that ended the round."""
        self.show(update, self.round_ended_after(update))

    @staticmethod
    def round_ended_after(update: TableUpdate) -> int | None:
        """How many of the update's steps belong to the round (a Mille Bornes hand) that ended
        in it while the game goes on: the steps after them (the computer starting the next
        hand) belong to the next round. None when no round ended (or the game did)."""
        if update.outcome is not None:
            return None
        ends = [n for n, step in enumerate(update.steps) if step.round_ended]
        return ends[-1] + 1 if ends else None

    def show(self, update: TableUpdate, round_ended_after: int | None = None) -> None:
        """Print what happened and the table. ``round_ended_after``: how many steps the round
        that ended took, its score sheet printed after them, before anything of the next round;
        else a sheet comes after every step."""
        found = bundle(update.game.game_key)
        shown = found.presenter
        # Each event once, as the Discord message tells them: a caption that goes on from the
        # one before (a Stampede, car by car) replaces it, and the game's end reason is left
        # to the result line.
        reason = update.outcome.reason if update.outcome is not None else ""
        captions = [step.caption for step in update.steps]
        finished = update.outcome is not None or (
            update.previous is not None and shown.round_finished(update.previous, update.public)
        )
        if finished and shown.result_text is not None and round_ended_after:
            # The hand that ended, its score sheet, then the next hand's first line ("Hand 2:
            # Bob starts.", which ended the caption of the move that finished the hand) and its
            # first moves, as the Discord messages tell them.
            *before_last, last = captions[:round_ended_after]
            ending, opening = shown.round_opening(update.public, last)
            for caption in told([*before_last, ending]):
                self.say(f"  » {caption}")
            self.say(shown.result_text(update.public))
            captions, finished = captions[round_ended_after:], False
            if opening:
                captions.insert(0, opening)
        said = told(captions, reason)
        if self.recap:
            said, self.recap = self.recap, []
            self.say("Since your last move:")
            if len(said) > RECAP_LINES:
                earlier = len(said) - RECAP_LINES
                said = said[-RECAP_LINES:]
                self.say(f"  … ({plural(earlier, 'earlier move')} not shown)")
        for caption in said:
            self.say(f"  » {caption}")
        # A match left mid-hand has no sheet to print (Mille Bornes' result_text is empty).
        sheet = shown.result_text(update.public) if finished and shown.result_text else ""
        if sheet:
            self.say(sheet)
        table = shown.console_table(update.public)
        # The table's last line is the last move's caption (the image's "last move", in its
        # alt text): just said above, it is left out; on its own (resuming, 'table') it stays.
        last = f"\n  {getattr(update.public, 'caption', '')}"
        if said and last.strip() and table.endswith(last):
            table = table[: -len(last)]
        elif reason and last.strip() and table.endswith(last):
            # The game's end reason is the result line's, printed below: the table keeps only
            # what its last line says beyond it ("Root left the arena.", not "Root left the
            # game." twice in a row).
            rest = "".join(f"\n  {line}" for line in told([last], reason))
            table = table[: -len(last)] + rest
        # One blank line before every table, whatever the game's text begins with (Mille
        # Bornes' begins with one; the Race's, Dragon's and Ticket to Ride's ran on from the
        # moves above).
        self.say()
        self.say(table.lstrip("\n"))
        self.write_images(update, found)
        if update.outcome is not None:
            return
        view, moves = self.tables.hand(update.game, PLAYER_ID)
        if found.info.private_hands:  # an open hand is on the table already
            self.say(shown.console_hand(view))
        if not moves:
            waiting = ", ".join(s.name for s in update.waiting)
            self.say(f"  (waiting for {waiting})")
        listed, folded = menu(moves)
        self.listed_version = update.game.version
        for number, move in enumerate(listed, start=1):
            self.say(f"  {number:2}. {move.label:<42} [{move.notation}]")
        labels = {move.notation: move.label for move in moves}
        for verb, count, example in folded:
            # The example's label says what the kind of move does ('cycle' alone does not).
            self.say(
                f"   …  {verb}: {count} choices; type one out, for example '{example}'"
                f" — {labels[example]}"
            )

    def write_images(self, update: TableUpdate, found: GameBundle) -> None:
        if not self.images:
            return
        try:
            self._write_images(update, found)
        except OSError as error:
            # A folder the check before the deal could not foresee (/proc, a full disk, one
            # taken away meanwhile): said once, and the game goes on without pictures.
            why = (error.strerror or str(error)).lower()
            self.say(
                f"! Cannot write the table images to {self.options.out}: {why}. "
                "The game goes on without them."
            )
            self.images = False

    def _write_images(self, update: TableUpdate, found: GameBundle) -> None:
        shown = found.presenter
        self.options.out.mkdir(parents=True, exist_ok=True)
        stem = f"game{update.game.id}-move{update.game.version:04d}"
        table_file = self.options.out / f"{stem}-table.png"
        table_file.write_bytes(shown.table_png(update.public))
        self.say(f"  (table image: {table_file})")
        finished = update.outcome is not None or (
            update.previous is not None and shown.round_finished(update.previous, update.public)
        )
        if finished:
            score = shown.result_png(update.public)
            if score:
                result_file = self.options.out / f"{stem}-score.png"
                result_file.write_bytes(score)
                self.say(f"  (score image: {result_file})")
        if update.outcome is None and found.info.private_hands:
            view, _ = self.tables.hand(update.game, PLAYER_ID)
            (self.options.out / "hand.png").write_bytes(shown.hand_png(view))

    async def command(self, line: str) -> bool:
        """Handle one line; False when the console should stop."""
        text = line.strip()
        # Read as the table reads a typed move ('ｑｕｉｔ', '１', a zero-width space pasted from
        # chat), so a number is a number from the list and never reaches a game as its own
        # notation ('1' is a slot in Ticket to Ride). The cap comes first: a longer line is no
        # move (MAX_MOVE_TEXT, the /move command's limit; a longer number is still answered
        # as a number out of range).
        typed = typed_move(text) if len(text) <= MAX_MOVE_TEXT else text
        if not typed:
            return True
        if any(unicodedata.category(char) == "Cc" for char in typed):
            # An arrow key (ESC [ A: the console reads plain lines) or a Ctrl-letter. Quoted
            # back in a refusal, the terminal would run it: the cursor jumped over the table.
            self.say(
                "! That line holds control keys (an arrow key, a Ctrl-letter): type a number "
                "from the list, or a move as the list writes it in [brackets]."
            )
            return True
        word = typed.lower()
        if word in ("quit", "exit", "q"):
            self.say("Game saved. Run the console again to resume.")
            return False
        if word in ("help", "?"):
            self.say(await self.help_text())
            return True
        try:
            if word == "table":
                await self.present(await self.tables.table(CONSOLE_CHANNEL))
                return True
            if word == "hint":
                await self.hint()
                return True
            if word == "resign":
                update = await self.tables.leave(channel_id=CONSOLE_CHANNEL, user_id=PLAYER_ID)
                await self.present(update)
                if update.outcome is not None:
                    self.ended(update)
                return False
            if len(text) > MAX_MOVE_TEXT and not text.rstrip(".").isdecimal():
                # As /move refuses it: a pasted blob is no move, and a game's refusal would
                # quote all of it back ("no Mille Bornes card called 'xxxx…'", 5 000 wide).
                self.say(
                    "! That line is far too long to be a move: type a number from the list, "
                    "or a move as the list writes it in [brackets]."
                )
                return True
            # The number as the list prints it ("3.") or as a chat would write it ("#3").
            number = typed.removeprefix("#").rstrip(".)").strip()
            if number.isdecimal():
                stored = await self.tables.current(CONSOLE_CHANNEL)
                if stored.version != self.listed_version:
                    # The list shown is of an earlier turn: its number played another move.
                    self.say(
                        "! The game has moved on since that list (in another console on this "
                        "database?). Here it is as it stands: choose again."
                    )
                    await self.present(await self.tables.table(CONSOLE_CHANNEL))
                    return True
                moves, folded = menu(self.tables.hand(stored, PLAYER_ID)[1])
                # Past six digits it is out of range anyway (and int() refuses 4 300 digits).
                index = int(number) - 1 if len(number) <= 6 else -1
                if not moves:
                    example = f", for example '{folded[0][2]}'" if folded else ""
                    self.say(f"! No move is numbered here: type one out{example}.")
                    return True
                if not 0 <= index < len(moves):
                    self.say(f"! Choose a number from 1 to {len(moves)}.")
                    return True
                text = moves[index].notation
            update = await self.tables.move(
                channel_id=CONSOLE_CHANNEL, user_id=PLAYER_ID, action=text
            )
        except GameError as error:
            self.say(f"! {error}")
            return True
        await self.present(update)
        if update.outcome is not None:
            self.ended(update)
            return False
        return True

    async def help_text(self) -> str:
        """HELP, its examples taken from the moves open to you now: every game has its own
        words ('clear 3 with go', 'keep T03 T28'), and Mille Bornes' 'play go' fits no other."""
        try:
            stored = await self.tables.current(CONSOLE_CHANNEL)
            moves = self.tables.hand(stored, PLAYER_ID)[1]
        except GameError:
            moves = []
        listed, folded = menu(moves)
        examples: list[str] = []
        for notation in [m.notation for m in listed] + [example for _, _, example in folded]:
            if notation.split()[:1] not in [e.split()[:1] for e in examples]:
                examples.append(notation)  # one of each kind: 'play …', then 'discard …'
        shown = ", ".join(f"'{e}'" for e in examples[:2])
        return HELP.format(examples=f", e.g. {shown}" if shown else "")

    async def since_your_move(self, stored: StoredGame) -> list[str]:
        """The captions of your last move and of every move after it, each told once. The
        table names only the last move, and a computer's whole turn (a hazard on you, then
        its miles) may lie between: a player coming back needs it all. Rebuilt from the deal
        and the move log, public views only."""
        store = self.tables.store
        try:
            initial = await store.initial_state(stored.id)
            moves = await store.moves(stored.id)
            if initial is None or not moves:
                return []
            yours = [i for i, move in enumerate(moves) if move.seat == 0]  # your seat is 0
            start = yours[-1] if yours else 0
            game = bundle(stored.game_key).game
            frames = await asyncio.to_thread(replay_frames, game, initial, moves)
        except (StoreError, CorruptSave):
            # Only the retelling needs the deal: the game itself, saved as it stands, plays
            # on. This ended the console in a traceback, or called the sound game damaged.
            return ["(cannot be told: the saved deal is damaged)"]
        captions = (
            str(getattr(after, "caption", ""))
            for before, after in itertools.pairwise(frames[start:])
            if after != before  # a move that changed nothing in sight left the old caption
        )
        return told(captions)

    def ended(self, update: TableUpdate) -> None:
        """The result, and how to play again (the console ends with its game)."""
        self.say(outcome_line(update))
        self.say(PLAY_AGAIN)

    async def hint(self) -> None:
        """Say the expert's (else the default player's) move for the player, and why."""
        stored = await self.tables.current(CONSOLE_CHANNEL)
        view, moves = self.tables.hand(stored, PLAYER_ID)
        if not moves:
            self.say("! There is nothing to suggest right now: it is not your move.")
            return
        found = bundle(stored.game_key)
        name = hint_policy(found.key)
        factory = policy_factory(found.key, name)
        notation, reason = await asyncio.to_thread(
            suggest_move, found.presenter.hint, factory, name, view
        )
        label = next((m.label for m in moves if m.notation == notation), notation)
        listed, _ = menu(moves)
        number = next((i for i, m in enumerate(listed, start=1) if m.notation == notation), None)
        self.say(hint_line(label, notation, number, reason))


def hint_line(label: str, notation: str, number: int | None, reason: str) -> str:
    """The hint as the move list shows the move: its number first ("Hint: 3. Ace on 5
    (highway 4) — …"), or for a folded move its notation in brackets, so a label that ends
    in brackets of its own (Solo's highway) never gets a second pair after it."""
    if number is not None:
        return f"Hint: {number}. {label} — {reason}"
    shown = label if label == notation else f"{label} [{notation}]"
    return f"Hint: {shown} — {reason}"


def menu(moves: Sequence[MoveChoice]) -> tuple[list[MoveChoice], list[tuple[str, int, str]]]:
    """The moves to number, and per folded kind (see ``FOLD_ABOVE``) its first word, how many
    choices it has and one of them as an example, in the order the game lists them."""
    counts = Counter(_verb(move) for move in moves)
    listed = [move for move in moves if counts[_verb(move)] <= FOLD_ABOVE]
    examples: dict[str, str] = {}
    for move in moves:
        verb = _verb(move)
        # Prefer an example naming two cards: it shows how several are written.
        if counts[verb] > FOLD_ABOVE and len(examples.get(verb, "").split()) < 3:
            examples[verb] = move.notation
    return listed, [(verb, counts[verb], example) for verb, example in examples.items()]


def _verb(move: MoveChoice) -> str:
    return move.notation.split(maxsplit=1)[0] if move.notation.strip() else move.notation


NAME_LIMIT = 32
"""The longest JUNCTION_PLAYER: a Discord display name's limit, so tables look as they do there."""


def player_name() -> str:
    """Your name at the table: JUNCTION_PLAYER, else your login name. A value no table can show
    (a pasted paragraph, a terminal's escape that would clear the screen each time the name is
    printed) is a setting the console cannot use: ConfigError, as for the others."""
    # Read as every other setting is: a blank value (``JUNCTION_PLAYER=`` followed by a
    # space, in a .env) is no name, not a seat called "   ".
    name = os.environ.get("JUNCTION_PLAYER", "").strip()
    # "Cs": bytes that are not UTF-8 (a Latin-1 .env), which Python keeps as lone surrogates
    # that no database or terminal can write; the first table printed raised UnicodeEncodeError.
    if len(name) > NAME_LIMIT or any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise ConfigError(
            f"JUNCTION_PLAYER must be a name of at most {NAME_LIMIT} characters, "
            "without control characters, written in UTF-8"
        )
    return name or _login_name()


def _login_name() -> str:
    try:
        return getpass.getuser().capitalize()
    except (KeyError, OSError):
        return "You"


async def run_console(
    options: ConsoleOptions, lines: TextIO | None = None, out: TextIO | None = None
) -> int:
    """Play until the game ends or the player quits; returns a process exit code."""
    source = lines or sys.stdin
    sink = out or sys.stdout
    if source is None:  # started with standard input closed (``<&-``): Python gives none
        print(
            "! Standard input is closed: there is nowhere to read your moves from.",
            file=sink,
            flush=True,
        )
        return 2
    try:
        check_request(options)
    except GameError as error:
        print(f"! {error}", file=sink, flush=True)
        return 2
    store = await opened_store(options.db)
    try:
        console = Console(Tables(store, record_results=False), options, sink)
        try:
            update = await console.begin()
        except GameError as error:
            console.say(f"! {error}")
            return 2
        await console.present(update)
        if update.outcome is not None:
            console.ended(update)
            return 0
        interactive = source.isatty() and not options.script
        while True:
            if interactive:
                sink.write("> ")
                sink.flush()
            line = source.readline()
            if not line:
                console.say("End of input: the game is saved.")
                return 0
            if not interactive:
                console.say(f"> {echoed(line)}")
            if not await console.command(line):
                return 0
    finally:
        await store.close()


def console_main(options: ConsoleOptions) -> int:
    # Ctrl-C ends the console at once, at the prompt too. asyncio.run's own handler only
    # cancels the task, which a blocking read of the next line never notices: the first Ctrl-C
    # did nothing and a second one printed a traceback. Every move is stored as it is made,
    # and computers left due when it came move first when the game resumes.
    previous = signal.signal(signal.SIGINT, _interrupted)
    if isinstance(sys.stdin, io.TextIOWrapper):
        # Bytes that are not UTF-8 (a paste from a Latin-1 terminal) are a move not understood,
        # not a UnicodeDecodeError: a strict UTF-8 locale decodes standard input strictly.
        sys.stdin.reconfigure(errors="replace")
    try:
        return asyncio.run(run_console(options))
    except KeyboardInterrupt:
        print(f"\n{INTERRUPTED}", flush=True)
        return 130  # as a shell reports a program ended by Ctrl-C
    finally:
        signal.signal(signal.SIGINT, previous)


INTERRUPTED = "Interrupted: the game is saved. Run the console again to resume."


def _interrupted(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


__all__ = ["ConsoleOptions", "parse_options", "read_deck_file", "run_console"]
