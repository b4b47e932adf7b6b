"""The replay GIF: frame sampling and the animation itself."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games import get_game
from bot.render.mille import table_png
from bot.render.replay import MAX_FRAMES, pick_frames, replay_from_views, replay_gif


def test_short_games_keep_every_frame() -> None:
    """A game with few moves keeps all its frames."""
    assert pick_frames(5) == [0, 1, 2, 3, 4]


def test_long_games_are_sampled_with_first_and_last() -> None:
    """A long game keeps an even sample that starts with the deal and ends on the result."""
    frames = pick_frames(500)
    assert len(frames) <= MAX_FRAMES and frames[0] == 0 and frames[-1] == 499
    assert frames == sorted(set(frames))


def test_replay_is_an_animated_gif_of_the_views() -> None:
    """The GIF has a frame per distinct kept view (identical ones merge) and loops."""
    game = get_game("mille")
    state = game.new_game(["Ann", "Bob"], seed=2)
    views = [game.public_view(state)]
    for _ in range(3):
        (seat,) = game.to_act(state)
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
        views.append(game.public_view(state))
    gif = Image.open(io.BytesIO(replay_from_views(table_png, views)))
    distinct = len({table_png(view) for view in views})
    frames = getattr(gif, "n_frames", 1)  # multi-frame formats only; absent from the stubs
    assert gif.format == "GIF" and frames == distinct and gif.info.get("loop") == 0


def test_replay_needs_a_frame() -> None:
    """An empty replay is refused rather than written as a broken file."""
    with pytest.raises(ValueError, match="at least one frame"):
        replay_gif([])
