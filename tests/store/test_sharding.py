"""Sharded processes: ``junction run --shard-ids 0,1 --shard-count 4`` and who syncs commands.

Several processes share one PostgreSQL store; each runs some gateway shards as an
AutoShardedBot. Only the process holding shard 0 (or one given ``--sync``) syncs the dev
guild's commands at start-up. No gateway is contacted here.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands

from bot.__main__ import _parser, main
from bot.client import JunctionBot, ShardedJunctionBot, check_shards, make_bot
from bot.config import Settings

DEV_GUILD = 4242


def _settings(tmp_path: Path) -> Settings:
    return dataclasses.replace(
        Settings.from_env({}),
        db_url=f"sqlite:///{tmp_path / 'bot.db'}",
        dev_guild=DEV_GUILD,
        render_processes=0,  # threads: no worker process per test bot
        think_processes=0,
    )


def test_run_parses_shard_options() -> None:
    """The run command takes --shard-ids as a comma list, --shard-count and --sync/--no-sync."""
    args = _parser().parse_args(["run", "--shard-ids", "0,1", "--shard-count", "4"])
    assert (args.shard_ids, args.shard_count, args.sync) == ([0, 1], 4, None)
    args = _parser().parse_args(["run", "--shard-ids", "3", "--shard-count", "4", "--sync"])
    assert (args.shard_ids, args.sync) == ([3], True)
    assert _parser().parse_args(["run"]).shard_ids is None


def test_bad_shard_ids_are_refused_by_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    """Shard ids that are not numbers are a usage error."""
    with pytest.raises(SystemExit):
        _parser().parse_args(["run", "--shard-ids", "zero", "--shard-count", "2"])
    assert "shard ids are numbers" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("ids", "count", "message"),
    [([0, 1], None, "needs --shard-count"), ([4], 4, "between 0 and 3"), ([-1], 2, "between")],
)
def test_impossible_shards_are_refused(ids: list[int], count: int | None, message: str) -> None:
    """Shard ids without a count, or outside 0..count-1, raise a readable ValueError."""
    with pytest.raises(ValueError, match=message):
        check_shards(ids, count)


@pytest.mark.parametrize("ids", [None, [0]])
def test_a_shard_count_below_one_is_named(ids: list[int] | None) -> None:
    """`--shard-count 0` alone was told that --shard-ids needs --shard-count."""
    with pytest.raises(
        ValueError, match=r"^--shard-count is the total number of shards, from 1 to 10 000, not 0$"
    ):
        check_shards(ids, 0)


def test_run_exits_2_on_impossible_shards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`junction run` with impossible shard options says why and starts nothing."""
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    assert main(["run", "--shard-ids", "5", "--shard-count", "2"]) == 2
    assert "between 0 and 1" in capsys.readouterr().err


def test_plain_bot_without_shard_options(tmp_path: Path) -> None:
    """Without shard options the bot is a plain commands.Bot that syncs the dev guild."""
    bot = make_bot(_settings(tmp_path))
    assert type(bot) is JunctionBot and bot.sync_at_start


@pytest.mark.parametrize(
    ("ids", "sync", "expected"),
    [([0, 1], None, True), ([2, 3], None, False), ([2, 3], True, True), ([0], False, False)],
)
def test_sharded_bot(tmp_path: Path, ids: list[int], sync: bool | None, expected: bool) -> None:
    """Shard options give an AutoShardedBot on those shards; shard 0's process syncs."""
    bot = make_bot(_settings(tmp_path), shard_ids=[*reversed(ids)], shard_count=4, sync=sync)
    assert isinstance(bot, ShardedJunctionBot)
    assert isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_ids, bot.shard_count) == (ids, 4)
    assert bot.sync_at_start is expected


def test_shard_count_alone_runs_every_shard(tmp_path: Path) -> None:
    """--shard-count without ids runs all shards in this process, which then syncs."""
    bot = make_bot(_settings(tmp_path), shard_count=2)
    assert isinstance(bot, ShardedJunctionBot)
    assert (bot.shard_ids, bot.shard_count, bot.sync_at_start) == (None, 2, True)


@pytest.mark.parametrize(("ids", "synced"), [([0, 1], True), ([2, 3], False)])
async def test_only_shard_zero_syncs_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ids: list[int], synced: bool
) -> None:
    """setup_hook syncs the dev guild's commands in shard 0's process and nowhere else."""
    bot = make_bot(_settings(tmp_path), shard_ids=ids, shard_count=4)
    calls: list[Any] = []

    async def fake_sync(*, guild: Any = None) -> list[Any]:
        calls.append(guild)
        return []

    monkeypatch.setattr(bot.tree, "sync", fake_sync)
    await bot._async_setup_hook()  # what login() does first: the loop and the shard queue
    try:
        await bot.setup_hook()
        assert bot.tree.get_commands(guild=None), "the cogs loaded their commands"
    finally:
        await bot.close()
    assert [g.id for g in calls] == ([DEV_GUILD] if synced else [])
