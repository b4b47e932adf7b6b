"""Replays for the bot: drawn a frame at a time in the render pool, and kept once drawn.

A replay is up to 60 table images and a GIF: seconds of drawing. The render pool also draws
every channel's table, so a replay is sent to it one frame per job: a table asked for meanwhile
waits for one frame, not for the whole replay. A finished game's replay never changes, so the
last few are kept (as many as ``KEPT_BYTES`` holds), and requests for a replay being drawn wait
for that drawing instead of starting another: /replay sent again and again costs one replay.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from bot.move_log import Replayed
from bot.render.pool import RenderPool
from bot.render.replay import UPLOAD_LIMIT, gif_within, pick_frames, replay_frame

KEPT = 8  # replays kept at most
KEPT_BYTES = 24_000_000
"""The memory the kept replays may take: a replay weighs one to seven MB (a six-car arena is
the heaviest), so eight of them could take as much again as the rest of the bot."""


Inputs = tuple[Callable[[Any], bytes], Replayed]
"""A game's table renderer and its replay: the public views, one after each step of the log
(frame 0: the deal), and which steps are players' moves."""


class ReplayGif(NamedTuple):
    """A drawn replay: the GIF, the steps of the log it covers (moves and seats leaving), the
    tables it shows (the deal and the final table included: every step's when there are few,
    else an even sample), the final table, and the players' moves it covers and the log
    holds (a seat leaving is no move)."""

    gif: bytes
    steps: int
    tables: int
    last: Any = None
    """The final table's public view (its words are the replay's alt text)."""
    moves: int = 0
    moves_in_log: int = 0

    @property
    def sampled(self) -> bool:
        """Whether some steps' tables are left out (a long game, or a heavy one)."""
        return self.tables < self.steps + 1


class Replays:
    """Replays by game id: drawn once, on the given pool, and kept."""

    def __init__(
        self,
        renderer: RenderPool,
        kept: int = KEPT,
        max_bytes: int = UPLOAD_LIMIT,
        kept_bytes: int = KEPT_BYTES,
    ) -> None:
        self.renderer = renderer
        self.kept = kept
        self.kept_bytes = kept_bytes
        self.max_bytes = max_bytes
        self._done: OrderedDict[int, ReplayGif] = OrderedDict()
        self._drawing: dict[int, asyncio.Future[ReplayGif]] = {}

    async def gif(self, game_id: int, inputs: Callable[[], Awaitable[Inputs]]) -> ReplayGif:
        """The replay of finished game ``game_id``; ``inputs`` is asked for the renderer and
        the views only when it must be drawn."""
        if game_id in self._done:
            self._done.move_to_end(game_id)
            return self._done[game_id]
        drawing = self._drawing.get(game_id)
        if drawing is None:
            drawing = asyncio.ensure_future(self._draw(inputs))
            self._drawing[game_id] = drawing
            drawing.add_done_callback(lambda done: self._keep(game_id, done))
        # Shielded: one requester giving up must not cancel the drawing the others wait for.
        return await asyncio.shield(drawing)

    async def _draw(self, inputs: Callable[[], Awaitable[Inputs]]) -> ReplayGif:
        table_png, replayed = await inputs()
        views = replayed.views
        frames = [
            await self.renderer.run(replay_frame, table_png, views[i])
            for i in pick_frames(len(views))
        ]
        gif, shown = await self.renderer.run(gif_within, frames, self.max_bytes)
        return ReplayGif(
            gif, len(views) - 1, shown, views[-1], replayed.moves, replayed.moves_in_log
        )

    def _keep(self, game_id: int, done: asyncio.Future[ReplayGif]) -> None:
        self._drawing.pop(game_id, None)
        if done.cancelled() or done.exception() is not None:
            return
        self._done[game_id] = done.result()
        while len(self._done) > self.kept or (
            len(self._done) > 1
            and sum(len(replay.gif) for replay in self._done.values()) > self.kept_bytes
        ):
            self._done.popitem(last=False)
