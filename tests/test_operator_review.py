"""What a review as a server operator found: someone who clones Junction and runs it.

Each test keeps one fix. A setting or database the bot cannot use is refused at start-up in
one sentence that names it (never a traceback, never a silent fallback, never a password);
``docker stop`` and Ctrl-C stop the bot cleanly; a second bot on the same SQLite file is
refused; the Docker build context leaves out the virtualenv, the database and the secrets.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.__main__ import _parser, main
from bot.store import redact_url
from bot.store.migrate import migrate_main
from bot.store.sqlite import SqliteStore
from tests.discord.fake_discord import FakeDiscord
from tests.e2e.harness import TOKEN, BotProcess
from tests.test_cli_hostile import as_nobody, skip_unless_nobody_can_run

REPO = Path(__file__).resolve().parents[1]
SECRET = "hunter2-secret"
_SETTINGS = (
    "DISCORD_TOKEN",
    "JUNCTION_DB",
    "JUNCTION_DEV_GUILD",
    "JUNCTION_CHALLENGE_TIMEOUT",
    "JUNCTION_RENDER_PROCESSES",
    "JUNCTION_THINK_PROCESSES",
    "JUNCTION_EXPERT_MS",
    "JUNCTION_LOG_LEVEL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "JUNCTION_BENCH_PG",
)


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting of the machine running the tests; files land in a scratch folder."""
    for name in _SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


# -- settings ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("JUNCTION_CHALLENGE_TIMEOUT", "abc"),
        ("JUNCTION_CHALLENGE_TIMEOUT", "-5"),
        ("JUNCTION_CHALLENGE_TIMEOUT", "0"),  # every challenge would expire at once
        ("JUNCTION_RENDER_PROCESSES", "-1"),
        ("JUNCTION_DEV_GUILD", "my-server"),
        ("JUNCTION_DEV_GUILD", "0"),  # no server: the sync at start failed against it
        ("JUNCTION_LOG_LEVEL", "LOUD"),  # logging.basicConfig raised at the bot's start
        ("JUNCTION_LOG_LEVEL", "verbose"),  # quoted as 'VERBOSE', a value nobody typed
        ("JUNCTION_EXPERT_MS", "abc"),  # the expert quietly thought for 300 ms instead
        ("JUNCTION_EXPERT_MS", "-3"),
        ("JUNCTION_EXPERT_MS", "1e300"),  # the searching worker thought for good
        ("JUNCTION_EXPERT_MS", "60001"),
        ("JUNCTION_DEV_GUILD", "9" * 20),  # past any Discord id: the sync at start failed
        ("DISCORD_API_BASE", "discord.com/api/v10"),  # no scheme: a traceback at login
        ("DISCORD_API_BASE", "http://127.0.0.1:port/api"),
        ("DISCORD_GATEWAY_URL", "gateway.discord.gg"),
        ("JUNCTION_CHALLENGE_TIMEOUT", "604801"),  # past a week, as the turn timer's longest
        ("JUNCTION_RENDER_PROCESSES", "9" * 12),  # the process pool failed at the bot's start
        ("JUNCTION_THINK_PROCESSES", "65"),
    ],
)
def test_a_bad_setting_is_one_sentence_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, value: str
) -> None:
    """A value the bot cannot use stops every command with one line naming the variable."""
    monkeypatch.setenv(name, value)
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"junction games: {name} must be")
    assert repr(value) in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("token", [f"{SECRET}\n{SECRET}", f"{SECRET}\r{SECRET}", f"a\x01{SECRET}"])
def test_a_token_with_a_line_break_is_one_sentence_without_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], token: str
) -> None:
    """A DISCORD_TOKEN with a line break inside (two lines pasted) or a control character:
    `junction run` reached the login and died in aiohttp's traceback ("Forbidden control
    character detected in headers"), exit status 1."""
    monkeypatch.setenv("DISCORD_TOKEN", token)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "junction run: DISCORD_TOKEN holds a line break or another invisible character; copy "
        "it again from the Bot page of your application at "
        "https://discord.com/developers/applications\n"
    )


@pytest.mark.parametrize(
    "name",
    [
        "JUNCTION_CHALLENGE_TIMEOUT",
        "JUNCTION_RENDER_PROCESSES",
        "JUNCTION_THINK_PROCESSES",
        "JUNCTION_DEV_GUILD",
    ],
)
def test_thousands_of_digits_are_one_short_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Past 4 300 digits int() raised its own ValueError: a traceback at every command."""
    monkeypatch.setenv(name, "9" * 5000)
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"junction games: {name} must be")
    assert err.endswith("…'\n") and len(err) < 200


def test_an_expert_may_think_a_whole_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """The largest JUNCTION_EXPERT_MS taken is a minute per move."""
    monkeypatch.setenv("JUNCTION_EXPERT_MS", "60000")
    assert main(["games"]) == 0


# -- the database --------------------------------------------------------------------------------


def _garbage(path: Path) -> str:
    path.write_bytes(b"this is not a database " * 200)
    return f"sqlite:///{path.name}"


def _directory(path: Path) -> str:
    path.mkdir()
    return f"sqlite:///{path.name}"  # what a path the bot cannot write to looks like as root


def _newer(path: Path) -> str:
    with sqlite3.connect(path) as db:  # as a newer Junction would have left it
        db.execute("CREATE TABLE schema_version (version INTEGER, name TEXT, applied_at REAL)")
        db.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
    db.close()
    return f"sqlite:///{path.name}"


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_garbage, "file is not a database"),
        (_directory, "unable to open database file"),
        (_newer, "schema version 99"),
    ],
)
def test_a_database_that_cannot_be_opened_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    make: Callable[[Path], str],
    said: str,
) -> None:
    """A corrupt file, an unwritable path or a newer schema: JUNCTION_DB named, no traceback."""
    url = make(tmp_path / "junction.db")
    monkeypatch.setenv("JUNCTION_DB", url)
    assert main(["console", "--no-images"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"junction console: JUNCTION_DB: cannot open the database {url}: ")
    assert said in err and "Traceback" not in err


async def _a_database(path: Path) -> None:
    """A Junction database at ``path``, as the bot leaves it."""
    async with SqliteStore(path):
        pass


def _listing(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


@pytest.mark.parametrize("held", [False, True], ids=["new", "existing"])
def test_a_folder_this_account_may_not_write_is_said(held: bool) -> None:
    """JUNCTION_DB in a folder the bot's account may not write (another account's, or kept
    read-only): SQLite's own "unable to open database file" said nothing of why, since SQLite
    keeps its -wal and -shm files beside the database. The sentence names the folder, and
    nothing in it changes. Run as the account of no rights, as root may write anything."""
    skip_unless_nobody_can_run()
    with tempfile.TemporaryDirectory() as place:  # pytest's own folder is root's alone
        folder = Path(place) / "data"
        folder.mkdir()
        if held:
            asyncio.run(_a_database(folder / "junction.db"))
            (folder / "junction.db").chmod(0o666)  # the file may be written, not its folder
        folder.chmod(0o555)
        Path(place).chmod(0o755)
        before = _listing(folder)
        done = as_nobody("console", "--no-images", env={"JUNCTION_DB": str(folder / "junction.db")})
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == (
            f"junction console: JUNCTION_DB: cannot open the database {folder}/junction.db: "
            f"the folder {folder} cannot be written (permission denied)\n"
        )
        assert _listing(folder) == before


@pytest.mark.parametrize("case", ["new", "existing", "in a folder to make"])
def test_a_read_only_mount_is_said(tmp_path: Path, case: str) -> None:
    """The same in a folder mounted read-only, where root too may not write (its access()
    says it may): SQLite's "unable to open database file" again, now the folder named; a
    folder to make there was "[Errno 30] Read-only file system: '…'"."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to mount a folder read-only")
    if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        pytest.skip("this machine lets no one make a mount namespace")
    folder = tmp_path / "data"
    folder.mkdir()
    if case == "existing":
        asyncio.run(_a_database(folder / "junction.db"))
    database = (
        folder / "sub" / "junction.db" if case == "in a folder to make" else folder / "junction.db"
    )
    before = _listing(folder)
    junction = f"{shlex.quote(sys.executable)} -m bot console --no-images"
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", f'mount --bind -o ro "$1" "$1" && {junction}', "-", folder],
        cwd=REPO,
        env={**os.environ, "JUNCTION_DB": f"sqlite:///{database}"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout) == (2, "")
    why = (
        f"the folder {folder}/sub cannot be created"
        if case == "in a folder to make"
        else f"the folder {folder} cannot be written"
    )
    assert done.stderr == (
        f"junction console: JUNCTION_DB: cannot open the database sqlite:///{database}: "
        f"{why} (read-only file system)\n"
    )
    assert _listing(folder) == before


def test_a_failed_connect_leaves_no_stray_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """aiosqlite's thread, stopped without being waited for, reported to a closed loop."""
    (tmp_path / "folder.db").mkdir()
    monkeypatch.setenv("JUNCTION_DB", "sqlite:///folder.db")
    stray: list[BaseException | None] = []
    monkeypatch.setattr("threading.excepthook", lambda args: stray.append(args.exc_value))
    assert main(["console", "--no-images"]) == 2
    for _ in range(20):  # the thread reported within milliseconds when it did
        if stray:
            break
        time.sleep(0.025)
    assert stray == []


def test_a_server_that_never_answers_is_said_in_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port that takes the connection and never answers (a wrong service, a firewall that
    holds it): after a minute the console said "cannot open the database …: TimeoutError"."""
    import asyncpg

    silent = socket.create_server(("127.0.0.1", 0))  # accepts (the backlog), says nothing
    port = silent.getsockname()[1]
    create_pool = asyncpg.create_pool
    # A second, not asyncpg's minute: the wait is the same, only shorter.
    monkeypatch.setattr(
        asyncpg, "create_pool", lambda *args, **kwargs: create_pool(*args, timeout=1, **kwargs)
    )
    monkeypatch.setenv("JUNCTION_DB", f"postgresql://bob:{SECRET}@127.0.0.1:{port}/junction")
    try:
        assert main(["console", "--no-images"]) == 2
    finally:
        silent.close()
    assert capsys.readouterr().err == (
        f"junction console: JUNCTION_DB: cannot open the database "
        f"postgresql://bob:***@127.0.0.1:{port}/junction: the server did not answer in time; "
        "check the host and port\n"
    )


@pytest.mark.parametrize(
    ("url", "said"),
    [
        (
            "mysql://bob:hunter2-secret@db/junction",
            "cannot open the database mysql://bob:***@db/junction: unsupported store URL scheme",
        ),
        # One slash: this was taken for a file path and a database created under "postgresql:".
        ("postgresql:/bob:hunter2-secret@db/junction", "needs '://' after the scheme"),
        ("postgresql://bob:hunter2-secret@127.0.0.1:1/junction", "cannot open the database"),
        ("postgresql://bob:hunter2-secret@127.0.0.1:99999/junction", "cannot open the database"),
        ("postgresql://bob:hunter2-secret@[::1/junction", "cannot open the database"),
    ],
)
def test_a_bad_database_url_is_one_sentence_without_its_password(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    url: str,
    said: str,
) -> None:
    """Unknown schemes, mistyped URLs, servers that do not answer: no password, no new file."""
    monkeypatch.setenv("JUNCTION_DB", url)
    assert main(["console", "--no-images"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction console: JUNCTION_DB: ") and said in err
    assert SECRET not in err and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == []


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # urlsplit raised on these, so the error message about them was a traceback instead.
        ("postgresql://bob:hunter2-secret@db:abc/j", "postgresql://bob:***@db:abc/j"),
        ("postgresql://bob:hunter2-secret@db:99999/j", "postgresql://bob:***@db:99999/j"),
        ("postgresql://bob:hunter2-secret@[::1/j", "postgresql://bob:***@[::1/j"),
        # An unescaped @ or / in the password: everything up to the last @ is credentials.
        ("postgresql://bob:hunter2-secret@x/y@db/j", "postgresql://bob:***@db/j"),
        # libpq also takes the password as a parameter.
        (
            "postgresql://bob@db/j?sslmode=require&password=hunter2-secret",
            "postgresql://bob@db/j?sslmode=require&password=***",
        ),
        # The client key's passphrase, which asyncpg takes as a parameter too: it was shown.
        (
            "postgresql://bob@db/j?sslkey=k.pem&sslpassword=hunter2-secret&sslmode=require",
            "postgresql://bob@db/j?sslkey=k.pem&sslpassword=***&sslmode=require",
        ),
        # asyncpg decodes a parameter's name, so an escaped letter still names a password.
        ("postgresql://bob@db/j?pass%77ord=hunter2-secret", "postgresql://bob@db/j?pass%77ord=***"),
    ],
)
def test_redact_url_hides_the_password_of_malformed_urls(url: str, shown: str) -> None:
    """Redaction never raises and never lets the password through."""
    assert redact_url(url) == shown


def test_migrate_db_refuses_a_source_that_does_not_exist(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A mistyped source was created empty and "copied": 0 games, exit status 0."""
    assert migrate_main("sqlite:///typo.db", "sqlite:///target.db") == 2
    err = capsys.readouterr().err
    assert err == "junction migrate-db: the source database typo.db does not exist\n"
    assert [p.name for p in tmp_path.iterdir()] == []


@pytest.mark.parametrize("running", ["source.db", "target.db"])
def test_migrate_db_refuses_a_database_a_running_bot_holds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, running: str
) -> None:
    """README says to stop the bot first; a copy made while it ran lost the moves made
    meanwhile (or, into a bot's file with --force, rewrote its games under it)."""
    sqlite3.connect(tmp_path / "source.db").close()
    with (tmp_path / f"{running}.lock").open("a") as claim:
        fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as the running bot holds it
        code = migrate_main("sqlite:///source.db", "sqlite:///target.db", force=True)
    assert code == 2
    err = capsys.readouterr().err
    assert err == f"junction migrate-db: a Junction bot is running on {running}: stop it first\n"
    assert not (tmp_path / "target.db").exists()


def test_migrate_db_refuses_a_running_bots_database_named_through_a_symlink(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The bot's lock sits beside the file itself; a copy from a linked name looked beside
    the link, found no lock, and copied while the bot wrote."""
    sqlite3.connect(tmp_path / "source.db").close()
    (tmp_path / "link.db").symlink_to("source.db")
    with (tmp_path / "source.db.lock").open("a") as claim:
        fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as the running bot holds it
        code = migrate_main("sqlite:///link.db", "sqlite:///target.db")
    assert code == 2
    assert "a Junction bot is running on link.db: stop it first" in capsys.readouterr().err
    assert not (tmp_path / "target.db").exists()


def test_migrate_db_copies_once_the_bot_has_stopped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A lock file a stopped bot left behind holds nothing: the copy goes ahead."""
    sqlite3.connect(tmp_path / "source.db").close()
    (tmp_path / "source.db.lock").touch()
    assert migrate_main("sqlite:///source.db", "sqlite:///target.db") == 0
    assert capsys.readouterr().out.startswith("copied 0 games and 0 moves")


def test_migrate_db_with_a_malformed_target_says_so_without_the_password(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A bad port in the target URL was a traceback out of the password redaction."""
    sqlite3.connect(tmp_path / "source.db").close()
    assert migrate_main("sqlite:///source.db", f"postgresql://bob:{SECRET}@db:abc/j") == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "junction migrate-db: cannot open the database postgresql://bob:***@db:abc/j"
    )
    assert SECRET not in err


# -- other commands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["bench", "--game", "nosuchgame"], "There is no game called 'nosuchgame'"),
        (["bench", "--game", "mille", "--players", "9"], "Mille Bornes needs exactly 2 players"),
    ],
)
def test_bench_with_a_bad_game_is_one_sentence(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    """`junction bench --game x` was a traceback."""
    assert main(args) == 2
    out = capsys.readouterr()
    assert out.err.startswith("junction bench: ") and said in out.err
    assert out.out == ""  # refused before any timing


def _little_memory() -> None:
    # A gigabyte and a half of address space: the bot's imports fit, a list of 10**20 names
    # does not, so a command that builds one fails at once instead of filling the machine.
    import resource

    limit = 1536 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_bench_with_a_huge_seat_count_is_refused_by_the_count_alone() -> None:
    """`junction bench --game mille --players 99999999999999999999` built a list of that many
    names to check the seats, and filled the memory for minutes instead of refusing."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "bench", "--game", "mille", "--players", str(10**20 - 1)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_little_memory,
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr == (
        "junction bench: Mille Bornes needs exactly 2 players, not 99999999999999999999.\n"
    )


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("scratch", "a postgresql:// URL to a scratch database is needed, not 'scratch'"),
        (f"postgresql://bench:{SECRET}@127.0.0.1:1/x", "cannot open the database "),
    ],
)
def test_a_bench_database_it_cannot_use_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], url: str, said: str
) -> None:
    """A JUNCTION_BENCH_PG that is no PostgreSQL URL, or that nothing answers at, was a
    traceback after the SQLite half had run; now it is said first and nothing is measured."""
    monkeypatch.setenv("JUNCTION_BENCH_PG", url)
    assert main(["bench", "--store", "--quick"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"junction bench: JUNCTION_BENCH_PG: {said}")
    assert len(err.strip().splitlines()) == 1 and SECRET not in err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--store", "--game", "mille"], "--store times only the stores; leave out --game."),
        (
            ["--store", "--players", "2", "--discord"],
            "--store times only the stores; leave out --players and --discord.",
        ),
        (["--players", "3"], "--players needs --game: each game seats its own."),
        (["--boards", "--game", "mille"], "--boards times only the boards; leave out --game."),
        (["--store", "--boards"], "--store times only the stores; leave out --boards."),
    ],
)
def test_bench_options_another_would_leave_unused_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    """`bench --store --game mille` timed the stores and ignored the game; `bench --players 3`
    was refused as "Mille Bornes needs exactly 2 players", a game nobody named."""
    assert main(["bench", "--quick", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"junction bench: {said}\n"


def test_the_discord_bench_without_the_tests_folder_is_one_sentence_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Where tests/ is missing (the Docker image, an installed package) `bench --discord` timed
    every game, then ended in a RuntimeError traceback."""
    from bot import bench_discord

    monkeypatch.setattr(bench_discord, "__file__", str(tmp_path / "bot" / "bench_discord.py"))
    assert main(["bench", "--discord", "--quick", "--game", "race"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("junction bench: The Discord bench drives the bot through the test")
    assert len(err.strip().splitlines()) == 1


def test_arena_with_a_table_the_game_cannot_seat_says_how_many_it_can(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It said "Mille Bornes is played by 2–2." (no "players", a range of one)."""
    assert main(["arena", "mille", "--players", "9", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err == "junction arena: Mille Bornes is played by exactly 2 players, not 9.\n"


def test_run_without_a_token_or_a_terminal_deals_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A container started without DISCORD_TOKEN ran the console on no input: it dealt a game
    into the bot's database, printed a table and exited 0, for a restart policy to loop on."""
    with open(os.devnull) as nothing:  # a container's or a service's standard input
        monkeypatch.setattr("sys.stdin", nothing)
        assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "junction run: DISCORD_TOKEN is not set. Set it to run the bot; to play in a terminal, "
        "run `junction console`.\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_sync_without_a_token_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    """`junction sync` without DISCORD_TOKEN was a ValueError traceback."""
    assert main(["sync"]) == 2
    assert capsys.readouterr().err.startswith("junction sync: DISCORD_TOKEN is not set")


def _bot_runs_recorded(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """A token set and ``run_bot`` replaced: the list of the bot runs `junction run` starts."""
    started: list[object] = []

    def run_bot(*args: object, **kwargs: object) -> int:
        started.append(args)
        return 0

    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setattr("bot.client.run_bot", run_bot)
    return started


def test_run_with_sync_but_no_dev_guild_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`junction run --sync` without JUNCTION_DEV_GUILD started the bot, synced nothing and
    said nothing: the operator waited for commands that never came."""
    started = _bot_runs_recorded(monkeypatch)
    assert main(["run", "--sync"]) == 2
    assert started == []
    assert capsys.readouterr().err == (
        "junction run: --sync syncs the commands to JUNCTION_DEV_GUILD, which is not set; "
        "to publish them to every server, run `junction sync`.\n"
    )


def test_some_shards_on_a_sqlite_database_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`junction run --shard-ids 0,1 --shard-count 4` on the default SQLite database started
    shards 0 and 1 and said nothing, though the process for 2 and 3 could never start (a
    second bot on the file is refused): the servers on those shards went unanswered."""
    started = _bot_runs_recorded(monkeypatch)
    assert main(["run", "--shard-ids", "0,1", "--shard-count", "4"]) == 2
    assert started == []
    assert capsys.readouterr().err == (
        "junction run: --shard-ids runs only some of the shards here, and the process for the "
        "others cannot share a SQLite database; set JUNCTION_DB to a PostgreSQL server, or "
        "leave out --shard-ids to run every shard here.\n"
    )
    assert main(["run", "--shard-ids", "0,1", "--shard-count", "2"]) == 0  # all of them: fine
    assert len(started) == 1


@pytest.mark.parametrize("guild", ["0", "-5", "my-server"])
def test_sync_to_a_server_id_that_is_none_is_refused(
    capsys: pytest.CaptureFixture[str], guild: str
) -> None:
    """`junction sync --guild 0` was read as no server at all: a global sync, the rate-limited
    owner action the operator did not ask for (found by a review of the help against the code)."""
    with pytest.raises(SystemExit) as stopped:
        _parser().parse_args(["sync", "--guild", guild])
    assert stopped.value.code == 2
    assert "a server id is a number" in capsys.readouterr().err


def test_top_level_help_is_plain_text() -> None:
    """`junction --help` printed the module docstring, code markup (double backticks) and
    all."""
    text = _parser().format_help()
    assert "``" not in text
    assert "DISCORD_TOKEN" in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["forget-member"], "a Discord user id is a number"),
        (["sync", "--guild"], "a server id is a number"),
    ],
)
def test_an_id_of_thousands_of_digits_is_refused_in_words(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    """int() refused it first, and argparse named our function: 'invalid _user_id value'."""
    with pytest.raises(SystemExit) as stopped:
        _parser().parse_args([*args, "9" * 5000])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "_id value" not in err and len(err) < 400


@pytest.mark.parametrize("user_id", ["²", "1²", "１２", "٣٤"])
def test_a_member_id_in_other_digits_is_refused_in_words(
    capsys: pytest.CaptureFixture[str], user_id: str
) -> None:
    """`junction forget-member ²` (a superscript two, a digit to Python) answered "invalid
    _user_id value: '²'", naming our function, and "１２" (full width) or "٣٤" (Arabic-Indic)
    were read as members 12 and 34, whom the operator never typed as Discord writes ids. Each
    is refused as `--guild` refuses them, saying what an id looks like."""
    with pytest.raises(SystemExit) as stopped:
        _parser().parse_args(["forget-member", user_id])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "a Discord user id is a number like" in err and "_id value" not in err, err


# -- the bot process -----------------------------------------------------------------------------


async def test_sigterm_stops_the_bot_cleanly(tmp_path: Path) -> None:
    """`docker stop` sends SIGTERM: the bot closes and exits 0 (as PID 1 it ignored it)."""
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        bot = BotProcess(fake, tmp_path / "junction.db", tmp_path / "bot.log")
        try:
            await bot.start()
            assert bot.process is not None
            bot.process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(bot.process.wait(), 20)
        finally:
            await bot.kill()
    log = bot.log_text()
    assert code == 0, log
    assert "INFO junction: stopped" in log and "Traceback" not in log
    # The start-up lines say where the games are; nothing about voice, which Junction lacks.
    assert f"games are stored in {tmp_path / 'junction.db'}" in log
    assert "voice will NOT be supported" not in log
    assert TOKEN not in log


@pytest.mark.parametrize(("servers", "said"), [(1, "in 1 server"), (2, "in 2 servers")])
async def test_the_ready_line_counts_servers_in_words(
    caplog: pytest.LogCaptureFixture, servers: int, said: str
) -> None:
    """The start-up line said "ready as Junction in 1 servers"."""
    from types import SimpleNamespace

    from bot.client import JunctionBot

    bot = SimpleNamespace(user="Junction#0001", guilds=[object()] * servers)
    with caplog.at_level("INFO", logger="junction"):
        await JunctionBot.on_ready(bot)  # type: ignore[arg-type]
    assert caplog.messages == [f"ready as Junction#0001 {said}"]


async def test_a_second_bot_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    """Two bots on one token and one SQLite file would both answer every interaction."""
    db = tmp_path / "junction.db"
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        first = BotProcess(fake, db, tmp_path / "first.log")
        second = BotProcess(fake, db, tmp_path / "second.log")
        try:
            await first.start()
            with pytest.raises(RuntimeError, match="exited with code 2"):
                await second.start()
            assert first.running
        finally:
            await second.kill()
            await first.kill()
        # Once the first is gone (even killed), a bot may start on the file again.
        third = BotProcess(fake, db, tmp_path / "third.log")
        try:
            await third.start()
        finally:
            await third.kill()
    said = second.log_text()
    assert f"junction run: another Junction bot is already running on {db}" in said
    assert "Traceback" not in said


async def test_a_refused_token_is_one_sentence_without_the_token(tmp_path: Path) -> None:
    """A wrong DISCORD_TOKEN was a LoginFailure traceback."""
    wrong = "wrong-token-123"
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        bot = BotProcess(
            fake, tmp_path / "junction.db", tmp_path / "bot.log", extra_env={"DISCORD_TOKEN": wrong}
        )
        with pytest.raises(RuntimeError, match="exited with code 2"):
            await bot.start()
    log = bot.log_text()
    assert "junction run: Discord refused DISCORD_TOKEN" in log
    assert "Traceback" not in log and wrong not in log


async def test_a_dev_guild_the_bot_is_not_in_is_logged_not_fatal(tmp_path: Path) -> None:
    """Discord's 403 on the dev guild's command sync ended the bot with a traceback."""
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        bot = BotProcess(
            fake,
            tmp_path / "junction.db",
            tmp_path / "bot.log",
            extra_env={"JUNCTION_DEV_GUILD": "123"},
        )
        with (tmp_path / "bot.log").open("ab") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "run",
                cwd=REPO,
                env=bot.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        try:
            await fake.wait_for_ready(timeout=30)
            process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(process.wait(), 20)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    text = bot.log_text()
    assert code == 0, text
    assert "ERROR junction: could not sync commands to JUNCTION_DEV_GUILD=123" in text
    assert "Traceback" not in text


async def _junction(env: dict[str, str], *args: str) -> tuple[int, str]:
    """Run ``python -m bot ARGS`` as an operator would; its exit status and everything it said."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=REPO,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    said, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, said.decode(errors="replace")


async def test_a_sync_to_a_server_the_bot_is_not_in_is_one_sentence(tmp_path: Path) -> None:
    """Discord's 403 on `junction sync --guild ID` was a Forbidden traceback, exit status 1."""
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        env = BotProcess(fake, tmp_path / "junction.db", tmp_path / "bot.log").environment()
        code, said = await _junction(env, "sync", "--guild", "123")
    assert code == 2, said
    assert said.startswith("junction sync: Discord refused the sync to server 123 (403 ")
    assert said.rstrip().endswith("is the bot in that server?")
    assert "Traceback" not in said


@pytest.mark.parametrize("command", ["run", "sync"])
async def test_discord_out_of_reach_is_one_sentence(tmp_path: Path, command: str) -> None:
    """No network (or a DISCORD_API_BASE nothing answers at) was an aiohttp traceback."""
    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with FakeDiscord(token=TOKEN, patch_discord=False) as fake:
        env = BotProcess(fake, tmp_path / "junction.db", tmp_path / "bot.log").environment()
    env.update(
        DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
        JUNCTION_RENDER_PROCESSES="0",
        JUNCTION_THINK_PROCESSES="0",
    )
    code, said = await _junction(env, command)
    assert code == 2, said
    assert f"junction {command}: cannot reach Discord at 127.0.0.1:{port} (" in said
    assert "Traceback" not in said and TOKEN not in said


_CTRL_C_A_WORKER = """
import asyncio, os, signal
from bot.render.pool import RenderPool

async def main():
    pool = RenderPool(1, warm=False)
    await pool.start()
    try:
        worker = await pool.run(os.getpid)
        os.kill(worker, signal.SIGINT)
        await asyncio.sleep(0.5)
        print("same worker" if await pool.run(os.getpid) == worker else "another worker")
    finally:
        await pool.close()

asyncio.run(main())
"""


def _interruptible() -> None:
    # A process started in the background inherits SIGINT ignored; a terminal's does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_worker_process_leaves_ctrl_c_to_the_bot() -> None:
    """Ctrl-C reaches the whole process group: each worker printed a KeyboardInterrupt."""
    done = subprocess.run(
        [sys.executable, "-c", _CTRL_C_A_WORKER],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_interruptible,
    )
    assert done.stdout.strip() == "same worker", done.stderr
    assert "KeyboardInterrupt" not in done.stderr


# -- the settings' documentation -----------------------------------------------------------------


def _names(text: str, pattern: str = r"\b((?:JUNCTION|DISCORD)_[A-Z_]+)\b") -> set[str]:
    return set(re.findall(pattern, text, re.MULTILINE))


def test_readme_env_example_and_code_name_the_same_settings() -> None:
    """JUNCTION_LOG_LEVEL was in .env.example but not in the README's table; JUNCTION_PLAYER
    was read by the console and documented nowhere, then only in the console's paragraph, and
    JUNCTION_BENCH_PG only under *Scaling out*: every setting is in the table and the example."""
    code = set[str]()
    for source in [*(REPO / "bot").rglob("*.py"), *(REPO / "cogs").rglob("*.py")]:
        code |= _names(source.read_text(), r"[\"']((?:JUNCTION|DISCORD)_[A-Z_]+)[\"']")
    example = _names((REPO / ".env.example").read_text(), r"^((?:JUNCTION|DISCORD)_[A-Z_]+)=")
    readme = (REPO / "README.md").read_text()
    table = _names(readme.split("## Configuration")[1].split("\n## ")[0])
    assert example <= code, "in .env.example but read by nothing"
    assert example == table, "the README's settings and .env.example differ"
    assert code <= table, "read by the code but not in the README's Configuration table"


def _commands_table() -> dict[str, str]:
    """The README's Commands table: each ``junction <command>`` row's whole line, by command."""
    section = (REPO / "README.md").read_text().split("\n## Commands\n")[1].split("\n## ")[0]
    return dict(re.findall(r"^\| `junction ([a-z-]+)([^\n]*)", section, re.MULTILINE))


def test_readme_commands_table_names_every_subcommand_and_flag() -> None:
    """`junction run --shard-ids/--shard-count/--sync` were parsed but missing from the README's
    Commands table (found by a review of the docs against the parser)."""
    parser = _parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    table = _commands_table()
    assert set(table) == set(commands.choices), "the table and the parser list other commands"
    for name, sub in commands.choices.items():
        flags = [f for a in sub._actions for f in a.option_strings if f.startswith("--")]
        for flag in (f for f in flags if f != "--help"):
            assert re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", table[name]), (
                f"junction {name} {flag} is not in the README's Commands table"
            )


def test_every_flag_says_what_it_does_in_help() -> None:
    """`junction arena --help` listed --games and --seed with no word on them or their
    defaults, which only the README gave."""
    (commands,) = (a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    silent = [
        f"junction {name} {action.option_strings or action.dest}"
        for name, sub in commands.choices.items()
        for action in sub._actions
        if not action.help
    ]
    assert silent == []


def test_the_quick_start_is_two_make_targets() -> None:
    """A fresh clone needs two commands, each a target the Makefile has."""
    section = (REPO / "README.md").read_text().split("\n## Quick start\n")[1].split("\n## ")[0]
    (block,) = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make run", "make test"]
    makefile = (REPO / "Makefile").read_text()
    for target in ("run", "test"):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE)


def test_the_readmes_docker_commands_match_the_dockerfile() -> None:
    """The README's `docker run` mounts the volume where the Dockerfile keeps the database."""
    readme = (REPO / "README.md").read_text()
    dockerfile = (REPO / "Dockerfile").read_text()
    (database,) = re.findall(r"JUNCTION_DB=(sqlite:////\S+)", dockerfile)
    assert f"`JUNCTION_DB={database}`" in readme
    (volume,) = re.findall(r'^VOLUME \["(/[\w/]+)"\]', dockerfile, re.MULTILINE)
    assert database.startswith(f"sqlite:///{volume}/")
    assert f"-v junction-data:{volume} junction`" in readme
    assert "docker build -t junction ." in readme


def test_docker_runs_the_bot_behind_an_init() -> None:
    """As PID 1 the bot ignored a SIGTERM sent before it handles signals itself (its first
    seconds), and docker stop waited its ten seconds to kill it: every way the README and the
    compose file run the image puts Docker's init first."""
    readme = (REPO / "README.md").read_text()
    assert "`docker run -d --init " in readme
    # The Dockerfile's own usage line too: an operator reading it there ran it without.
    usage = re.findall(r"^#.*`(docker run [^`]*)`", (REPO / "Dockerfile").read_text(), re.M)
    assert usage and all(" --init " in line for line in usage), usage
    compose = (REPO / "docker-compose.yml").read_text()
    shared = compose.split("x-bot: &bot\n", 1)[1].split("\nservices:", 1)[0]
    assert re.search(r"^  init: true$", shared, re.MULTILINE), shared


def test_env_example_does_not_promise_that_make_run_reads_dot_env() -> None:
    """It said "Copy to .env … before `make run`", which reads only the environment."""
    header = (REPO / ".env.example").read_text().split("\nDISCORD_TOKEN=")[0]
    assert ".env" not in (REPO / "Makefile").read_text()
    assert "export them first" in header


# -- Docker --------------------------------------------------------------------------------------


def test_the_docker_build_context_leaves_out_secrets_and_state() -> None:
    """Without .dockerignore, `docker build .` sent .env (the token), .venv and *.db along."""
    ignored = (REPO / ".dockerignore").read_text().split()
    for entry in (".env", ".venv", "*.db", ".git", "junction-tables"):
        assert entry in ignored


def test_the_image_has_a_junction_command(tmp_path: Path) -> None:
    """README's operator commands (`junction forget-member …`) had no `junction` in the image:
    it runs the source tree and uninstalls the package. The Dockerfile's script is written and
    run here as in the container, with its PYTHONPATH, from another folder."""
    dockerfile = (REPO / "Dockerfile").read_text()
    (path,) = re.findall(r"^ENV PYTHONPATH=(\S+)$", dockerfile, re.MULTILINE)
    (writes,) = re.findall(r"^RUN (printf .*/usr/local/bin/junction) ", dockerfile, re.MULTILINE)
    script = tmp_path / "junction"
    subprocess.run(["sh", "-c", writes.replace("/usr/local/bin/junction", str(script))], check=True)
    script.chmod(0o755)
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    assert path == "/app" and "WORKDIR /app" in dockerfile
    done = subprocess.run(
        [str(script), "games"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dragon ")


def test_games_lists_seats_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    """`junction games` counts seats as /help does; it printed "Mille Bornes Solo — 1 players"."""
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "Mille Bornes Solo — exactly 1 player;" in out
    assert "Dragon Mille Bornes — 2 to 6 players;" in out and "1 players" not in out


def test_run_without_a_token_plays_moves_piped_in(tmp_path: Path) -> None:
    """Moves piped into `junction run` without a token play the console, as the quick start
    promises: only a missing or null standard input (a container, a service) is refused."""
    env = {**os.environ, "JUNCTION_DB": f"sqlite:///{tmp_path / 'piped.db'}"}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("No DISCORD_TOKEN set: starting the local console"), done.stdout
    assert "Game saved" in done.stdout, done.stdout


def test_a_second_bot_on_the_same_sqlite_file_by_another_name_is_refused(
    tmp_path: Path,
) -> None:
    """The lock file sat beside the name JUNCTION_DB gave: a second bot reaching the same
    database through a symlink (a linked data folder, a linked file) took a lock of its own."""
    from bot.client import _claim_sqlite_file, _release
    from bot.config import ConfigError

    (tmp_path / "disk").mkdir()
    (tmp_path / "srv").symlink_to(tmp_path / "disk")
    (tmp_path / "disk" / "link.db").symlink_to("junction.db")
    first = _claim_sqlite_file(f"sqlite:///{tmp_path}/disk/junction.db")
    assert first is not None
    try:
        for other in ("srv/junction.db", "disk/link.db"):
            with pytest.raises(ConfigError, match="another Junction bot is already running"):
                _claim_sqlite_file(f"sqlite:///{tmp_path}/{other}")
    finally:
        _release(first)
    assert sorted(p.name for p in (tmp_path / "disk").iterdir()) == ["link.db"]


def test_run_without_a_token_plays_where_no_images_can_be_written(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`junction run` without a token plays the console, whose images go to junction-tables/
    in the current folder. Where that cannot be a folder (the Docker image's /app, which its
    user may not write; here a file of that name), `docker run -it junction` was refused with
    "name a folder with --out, or add --no-images", two options `junction run` does not take.
    Now the game is dealt without images, and the console says so once."""
    import io

    (tmp_path / "junction-tables").write_text("not a folder")
    monkeypatch.setenv("JUNCTION_DB", f"sqlite:///{tmp_path / 'run.db'}")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["run"]) == 0
    out = capsys.readouterr().out
    assert "Game saved" in out, out
    said = [line for line in out.splitlines() if "table images" in line]
    assert said == [
        "! Cannot write the table images to junction-tables: the game goes on without them "
        "(`junction console --out FOLDER` writes them elsewhere)."
    ], said
