"""Play Junction in a terminal: the same seam and the same SQLite store as the Discord bot.

Each table is printed as text and also written as the PNG the bot would post, so the images
can be checked without Discord. With ``--script`` (or when standard input is not a terminal)
commands are read line by line from standard input, which is how the tests drive it.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.engine.core import GameError
from bot.engine.mille.state import HandResult
from bot.engine.mille.views import MillePublicView, MilleSeatView
from bot.render.mille import hand_png, result_png, table_png
from bot.store import open_store
from bot.store.base import SeatRecord
from bot.tables import Tables, TableUpdate
from bot.updates import outcome_line

CONSOLE_CHANNEL = 0  # the console's own "channel" in the store
PLAYER_ID = 1  # the console player's member id
HELP = """Commands:
  <number>            play the move with that number in the list
  <move>              a move in words: 'play go', 'discard 25', 'play stop', 'extend yes'
  table               show the table again
  help                this text
  resign              give up the game
  quit                leave (the game is saved; run the console again to resume)"""


@dataclass(frozen=True)
class ConsoleOptions:
    db: str
    out: Path
    seed: int | None = None
    deck: Sequence[str] | None = None
    opponent: str = "normal"
    deck_name: str = "bsd"
    length: str = "match"
    new: bool = False
    images: bool = True


def read_deck_file(path: str) -> list[str]:
    """A stacked deck file: card codes (top first) separated by spaces, commas or lines."""
    text = Path(path).read_text(encoding="utf-8")
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    return [code for line in lines for code in line.replace(",", " ").split()]


class Console:
    def __init__(self, tables: Tables, options: ConsoleOptions, out: TextIO) -> None:
        self.tables = tables
        self.options = options
        self.out = out
        self.hands_seen = 0  # finished hands already reported

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    async def begin(self) -> TableUpdate:
        if self.options.new:
            with contextlib.suppress(GameError):  # nothing to abandon
                await self.tables.abort(channel_id=CONSOLE_CHANNEL)
        try:
            update = await self.tables.table(CONSOLE_CHANNEL)
            self.say(f"Resuming your game #{update.game.id} (move {update.game.version}).")
            self.hands_seen = len(update.public.results)
            return update
        except GameError:
            pass
        name = os.environ.get("JUNCTION_PLAYER") or _login_name()
        update = await self.tables.start(
            channel_id=CONSOLE_CHANNEL,
            guild_id=None,
            game_key="mille",
            seats=[
                SeatRecord(0, name, user_id=PLAYER_ID),
                SeatRecord(1, f"Computer ({self.options.opponent})", policy=self.options.opponent),
            ],
            options={"deck": self.options.deck_name, "length": self.options.length},
            seed=self.options.seed,
            deck=self.options.deck,
        )
        self.say(f"New Mille Bornes game #{update.game.id} against the computer.")
        self.say("Type 'help' for the commands.")
        return update

    def show(self, update: TableUpdate) -> None:
        for step in update.steps:
            self.say(f"  » {step.caption}")
        view: MillePublicView = update.public
        for result in view.results[self.hands_seen :]:
            self.say(result_text(view, result))
        self.say(table_text(view))
        self.write_images(update)
        self.hands_seen = len(view.results)
        if update.outcome is not None:
            return
        seat_view: MilleSeatView = self.tables.private_view(update.game, PLAYER_ID)
        self.say(hand_text(seat_view))
        moves = self.tables.legal_moves(update.game, PLAYER_ID)
        for number, move in enumerate(moves, start=1):
            self.say(f"  {number:2}. {move.label:<38} [{move.notation}]")

    def write_images(self, update: TableUpdate) -> None:
        if not self.options.images:
            return
        self.options.out.mkdir(parents=True, exist_ok=True)
        stem = f"game{update.game.id}-move{update.game.version:04d}"
        table_file = self.options.out / f"{stem}-table.png"
        table_file.write_bytes(table_png(update.public))
        self.say(f"  (table image: {table_file})")
        results = update.public.results
        if len(results) > self.hands_seen:
            result_file = self.options.out / f"{stem}-score.png"
            result_file.write_bytes(result_png(update.public))
            self.say(f"  (score image: {result_file})")
        if update.outcome is None:
            hand_file = self.options.out / "hand.png"
            hand_file.write_bytes(hand_png(self.tables.private_view(update.game, PLAYER_ID)))

    async def command(self, line: str) -> bool:
        """Handle one line; False when the console should stop."""
        text = line.strip()
        if not text:
            return True
        word = text.lower()
        if word in ("quit", "exit", "q"):
            self.say("Game saved. Run the console again to resume.")
            return False
        if word in ("help", "?"):
            self.say(HELP)
            return True
        try:
            if word == "table":
                self.show(await self.tables.table(CONSOLE_CHANNEL))
                return True
            if word == "resign":
                update = await self.tables.resign(channel_id=CONSOLE_CHANNEL, user_id=PLAYER_ID)
                self.say(outcome_line(update))
                return False
            stored = await self.tables.current(CONSOLE_CHANNEL)
            if text.isdigit():
                moves = self.tables.legal_moves(stored, PLAYER_ID)
                index = int(text) - 1
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
        self.show(update)
        if update.outcome is not None:
            self.say(outcome_line(update))
            return False
        return True


def _login_name() -> str:
    try:
        return getpass.getuser().capitalize()
    except (KeyError, OSError):
        return "You"


def table_text(view: MillePublicView) -> str:
    """The Mille Bornes table in a few lines of text."""
    lines = [
        "",
        f"── Hand {view.hand_number} · trip {view.target} · deck {view.deck_count} cards "
        f"· discard {len(view.discard)} ──",
    ]
    for t in view.tableaus:
        marker = "▶" if view.turn == t.seat and view.winners is None else " "
        battle = t.battle_top.title if t.battle_top else "—"
        speed = "Speed Limit" if t.limited else "no limit"
        safeties = ", ".join(
            c.title + (" (coup fourré)" if c in t.coups else "") for c in t.safeties
        )
        status = "moving" if t.can_go else "stopped"
        lines.append(
            f"{marker} {t.name:<18} {t.mileage:>4} mi  score {t.score:<5} {status}, {speed}; "
            f"battle: {battle}; hand {t.hand_count}"
        )
        if safeties:
            lines.append(f"    safeties: {safeties}")
    if view.caption:
        lines.append(f"  {view.caption}")
    return "\n".join(lines)


def result_text(view: MillePublicView, result: HandResult) -> str:
    """A finished hand's score breakdown, both players side by side."""
    lines = [f"══ Hand {result.number} over: {result.reason} ══"]
    for seat, seat_lines in enumerate(result.lines):
        parts = ", ".join(f"{line.label} {line.points}" for line in seat_lines)
        lines.append(f"  {view.players[seat]}: {result.totals[seat]} ({parts})")
    totals = ", ".join(f"{t.name} {t.score}" for t in view.tableaus)
    lines.append(f"  Match totals: {totals}")
    return "\n".join(lines)


def hand_text(view: MilleSeatView) -> str:
    cards = ", ".join(card.name_in(view.public.lang) for card in view.hand)
    if view.phase == "draw":
        return f"Your hand: {cards}\nA hazard is on you and you hold its safety: coup fourré?"
    if view.phase == "extension":
        return f"Your hand: {cards}\nYou reached 700! Go on to 1000?"
    return f"Your hand: {cards}"


async def run_console(
    options: ConsoleOptions, lines: TextIO | None = None, out: TextIO | None = None
) -> int:
    """Play until the game ends or the player quits; returns a process exit code."""
    source = lines or sys.stdin
    sink = out or sys.stdout
    store = open_store(options.db)
    await store.open()
    try:
        console = Console(Tables(store), options, sink)
        try:
            update = await console.begin()
        except GameError as error:
            console.say(f"! {error}")
            return 2
        console.show(update)
        if update.outcome is not None:
            console.say(outcome_line(update))
            return 0
        interactive = source.isatty()
        while True:
            if interactive:
                sink.write("> ")
                sink.flush()
            line = source.readline()
            if not line:
                console.say("End of input: the game is saved.")
                return 0
            if not interactive:
                console.say(f"> {line.rstrip()}")
            if not await console.command(line):
                return 0
    finally:
        await store.close()


def console_main(options: ConsoleOptions) -> int:
    import asyncio

    return asyncio.run(run_console(options))


__all__ = ["ConsoleOptions", "read_deck_file", "run_console"]
