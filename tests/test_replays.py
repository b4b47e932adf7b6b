"""The bot's replays: drawn once per game however often they are asked for, and kept."""

from __future__ import annotations

import asyncio
import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.move_log import Replayed
from bot.render.pool import RenderPool
from bot.render.replay import MAX_FRAMES
from bot.replays import Inputs, Replays


def _replayed(views: list[int]) -> Replayed:
    """Stand-in views, every step after the deal a player's move."""
    return Replayed(views, [True] * (len(views) - 1))


def _table_png(view: Any) -> bytes:
    """A stand-in table image: one colour per view."""
    out = io.BytesIO()
    Image.new("RGB", (64, 32), (int(view) * 40 % 256, 80, 120)).save(out, format="PNG")
    return out.getvalue()


async def test_a_replay_asked_for_at_once_and_again_is_drawn_once() -> None:
    """Three requests at the same moment and one later: the views are read and the frames
    drawn once; every request gets the same GIF and the number of moves it shows."""
    replays = Replays(RenderPool(0))
    asked = 0

    async def inputs() -> Inputs:
        nonlocal asked
        asked += 1
        await asyncio.sleep(0.01)
        return _table_png, _replayed([0, 1, 2, 3])

    results = await asyncio.gather(*(replays.gif(7, inputs) for _ in range(3)))
    later = await replays.gif(7, inputs)
    assert asked == 1
    assert all(result == results[0] for result in (*results, later))
    gif, steps, tables, _, moves, _ = later
    # n_frames: multi-frame formats only, absent from the stubs.
    assert steps == moves == 3 and getattr(Image.open(io.BytesIO(gif)), "n_frames", 1) == 4
    assert tables == 4 and not later.sampled


async def test_only_the_latest_replays_are_kept() -> None:
    """Past ``kept`` replays, the oldest is drawn again when asked for."""
    replays = Replays(RenderPool(0), kept=2)
    asked: list[int] = []

    def inputs_of(game_id: int) -> Any:
        async def inputs() -> Inputs:
            asked.append(game_id)
            return _table_png, _replayed([game_id])

        return inputs

    for game_id in (1, 2, 3, 1):
        await replays.gif(game_id, inputs_of(game_id))
    assert asked == [1, 2, 3, 1]


async def test_a_failed_drawing_is_not_kept() -> None:
    """A replay that could not be drawn is tried again on the next request."""
    replays = Replays(RenderPool(0))
    calls = 0

    async def inputs() -> Inputs:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the log could not be read")
        return _table_png, _replayed([0])

    with pytest.raises(RuntimeError):
        await replays.gif(5, inputs)
    assert (await replays.gif(5, inputs))[1] == 0 and calls == 2


def _noisy_png(view: Any) -> bytes:
    """A stand-in table image that hardly compresses: random pixels."""
    rng = random.Random(int(view))
    image = Image.new("RGB", (160, 100))
    image.putdata([(rng.randrange(256), rng.randrange(256), 0) for _ in range(160 * 100)])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


async def test_a_replay_is_drawn_within_the_upload_limit() -> None:
    """A replay heavier than the bot may upload is drawn with fewer frames, not posted whole
    (Discord would refuse it and the member would get an apology)."""
    replays = Replays(RenderPool(0), max_bytes=1_500_000)

    async def inputs() -> Inputs:
        return _noisy_png, _replayed(list(range(20)))

    gif, steps, tables, *_ = await replays.gif(9, inputs)
    assert len(gif) <= 1_500_000 and steps == 19
    assert 1 < getattr(Image.open(io.BytesIO(gif)), "n_frames", 1) == tables < 20


async def test_kept_replays_stay_within_their_memory_budget() -> None:
    """Replays weigh up to a few MB each (a six-car Dragon one about 7 MB): past the bytes
    the bot may keep, the oldest is let go even when fewer than ``kept`` are held. Found in
    review: eight were kept whatever they weighed, up to 60 MB of a bot that otherwise runs
    in about 100 MB."""
    asked: list[int] = []

    def inputs_of(game_id: int) -> Any:
        async def inputs() -> Inputs:
            asked.append(game_id)
            return _noisy_png, _replayed([game_id, game_id + 100])

        return inputs

    one = (await Replays(RenderPool(0)).gif(1, inputs_of(1))).gif
    replays = Replays(RenderPool(0), kept=8, kept_bytes=len(one) * 5 // 2)
    asked.clear()
    for game_id in (1, 2, 3, 1, 3):
        await replays.gif(game_id, inputs_of(game_id))
    assert asked == [1, 2, 3, 1]


async def test_a_long_game_s_replay_counts_the_tables_it_shows() -> None:
    """A game of more moves than a replay has pictures shows an even sample, and says how many
    it shows (the command tells the members: else they think moves went missing)."""
    replays = Replays(RenderPool(0))

    async def inputs() -> Inputs:
        return _table_png, _replayed(list(range(MAX_FRAMES + 40)))

    replay = await replays.gif(3, inputs)
    assert replay.steps == MAX_FRAMES + 39 and replay.tables == MAX_FRAMES and replay.sampled


async def test_a_seat_leaving_is_a_table_of_the_replay_but_no_move() -> None:
    """Two moves, then a seat leaves, in a log of four steps of which the replay stops at the
    third (a move today's rules refuse): every step replayed has its table, and the moves
    counted are the players' (a game only given up was said to have "1 move")."""
    replays = Replays(RenderPool(0))

    async def inputs() -> Inputs:
        return _table_png, Replayed([0, 1, 2, 3], [True, True, False, True])

    replay = await replays.gif(4, inputs)
    assert (replay.steps, replay.tables, replay.moves, replay.moves_in_log) == (3, 4, 2, 3)
