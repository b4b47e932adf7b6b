"""The ``junction`` command line fed hostile arguments: each is one sentence, no traceback, and
nothing stored changes.

Driven through ``bot.__main__.main`` as a shell would run it. Each docstring says what should
happen and what happened before the fix.
"""

from __future__ import annotations

import io
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import _parser, main

REPO = Path(__file__).resolve().parents[1]


def _console(tmp_path: Path, *extra: str) -> list[str]:
    return [
        "console",
        "--db",
        f"sqlite:///{tmp_path / 'j.db'}",
        "--out",
        str(tmp_path / "tables"),
        *extra,
    ]


def test_a_deck_file_that_is_not_text_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A binary file given as ``--deck`` (a picture, a database) is refused in a sentence that
    says the file is not text. Before the fix, reading it raised UnicodeDecodeError and the
    console died with a traceback."""
    deck = tmp_path / "deck.png"
    deck.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x82")
    assert main(_console(tmp_path, "--deck", str(deck))) == 2
    err = capsys.readouterr().err
    assert "is not text" in err and "Traceback" not in err
    assert not (tmp_path / "j.db").exists()


def test_a_deck_file_far_too_big_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deck file bigger than any deck could be (``/dev/zero``, a log file, a disk image) is
    refused as too big after reading at most its first megabyte. Before the fix it was read
    whole: ``--deck /dev/zero`` filled the memory until a MemoryError traceback, and a big
    file took seconds to be refused for holding "3000000 × 25 miles"."""
    deck = tmp_path / "huge.deck"
    deck.write_text("25 " * 400_000, encoding="utf-8")
    assert main(_console(tmp_path, "--deck", str(deck))) == 2
    err = capsys.readouterr().err
    assert "too big" in err and "Traceback" not in err
    assert not (tmp_path / "j.db").exists()


def test_an_out_folder_that_cannot_be_made_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out`` naming a file (or a place no folder can be made) is refused in a sentence that
    says what to do, before any game is dealt. Before the fix the game was dealt and stored,
    then writing its first image raised FileExistsError: a traceback, and a game left behind."""
    taken = tmp_path / "notes.txt"
    taken.write_text("not a folder", encoding="utf-8")
    args = _console(tmp_path, "--game", "mille")
    args[args.index("--out") + 1] = str(taken)
    assert main(args) == 2
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "--no-images" in said and "Traceback" not in said
    assert not (tmp_path / "j.db").exists()


def _interruptible() -> None:
    # A process started in the background inherits SIGINT ignored; a terminal's does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read_until(process: subprocess.Popen[bytes], marker: bytes, seconds: float) -> bytes:
    """What the process printed, up to ``marker`` (or ``seconds`` later)."""
    assert process.stdout is not None
    seen = b""
    end = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < end:
        ready, _, _ = select.select([process.stdout], [], [], 0.1)
        if ready:
            chunk = process.stdout.raw.read(65536)  # type: ignore[attr-defined]
            if not chunk:
                break
            seen += chunk
    return seen


def test_one_ctrl_c_at_the_prompt_leaves_with_a_sentence(tmp_path: Path) -> None:
    """Ctrl-C while the console waits for a move ends it at once, saying the game is saved.
    Before the fix the first Ctrl-C did nothing (asyncio only cancelled the task, which the
    blocking read of the next line never noticed) and a second one printed a KeyboardInterrupt
    traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", *_console(tmp_path, "--game", "mille", "--no-images")],
        cwd=REPO,
        stdin=subprocess.PIPE,  # left open: the console waits for a line
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_interruptible,
    )
    try:
        shown = _read_until(process, b"[discard ", 60)
        assert b"[discard " in shown, shown
        time.sleep(0.3)  # past the menu: reading the next line
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
    finally:
        if process.poll() is None:
            process.kill()
        out, err = process.communicate()
    assert code == 130, (code, err.decode()[-500:])
    assert b"the game is saved" in out and b"Traceback" not in err, err.decode()[-500:]


def test_bytes_that_are_not_utf8_are_a_move_not_understood(tmp_path: Path) -> None:
    """A line of bytes that are not UTF-8 (a paste from a Latin-1 terminal) typed under a
    strict UTF-8 locale, as most desktops run, is answered as any move not understood. Before
    the fix reading it raised UnicodeDecodeError: a traceback, the console gone."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", *_console(tmp_path, "--game", "mille", "--no-images")],
        cwd=REPO,
        input=b"caf\xe9 \xff\nquit\n",
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
    )
    assert done.returncode == 0, done.stderr.decode()[-500:]
    assert b"Traceback" not in done.stderr
    assert b"\n! " in done.stdout and b"Game saved" in done.stdout


@pytest.mark.parametrize("command", ["console", "arena"])
def test_an_option_given_twice_with_two_values_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """``--option deck=modern --option deck=bsd``: which one was meant is anyone's guess, so it
    is refused as /play refuses it, and nothing is dealt. Before the fix the last one won
    silently (a console game dealt with the bsd deck, an arena run reporting ``deck: bsd``)."""
    twice = ["--option", "deck=modern", "--option", "deck=bsd"]
    if command == "console":
        args = _console(tmp_path, "--game", "mille", "--no-images", *twice)
    else:
        args = ["arena", "mille", "--games", "1", *twice]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert "twice" in captured.err and "Traceback" not in captured.err
    assert captured.out == ""
    assert not (tmp_path / "j.db").exists()


def test_an_option_given_twice_alike_is_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same option twice with the same value (a script adding it again) is no conflict."""
    args = ["arena", "mille", "--games", "1", "--option", "deck=modern", "--option", "DECK=modern"]
    assert main(args) == 0
    assert '"deck": "modern"' in capsys.readouterr().out


def test_an_empty_db_url_is_refused_not_taken_for_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--db ""`` (a shell variable left unset: ``--db "$DB"``) is refused as migrate-db
    refuses an empty URL, naming --db, not JUNCTION_DB. Before the fix it was read as no --db
    at all: the game went into the default junction.db of the current folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUNCTION_DB", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["console", "--db", "", "--no-images"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction console: ") and "the store URL is empty" in err, err
    assert "JUNCTION_DB" not in err
    assert list(tmp_path.iterdir()) == []


def test_output_closed_early_ends_without_a_traceback(tmp_path: Path) -> None:
    """``junction console --script < moves | head -3``: once the reader of the output has gone,
    the console stops quietly (the game is saved move by move). Before the fix every print
    after that raised BrokenPipeError: a traceback on the terminal, twice."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", *_console(tmp_path, "--game", "mille", "--no-images")],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stdin is not None
    process.stdout.readline()
    process.stdout.close()  # as `head -1` does once it has its line
    _, err = process.communicate(b"1\n" * 200 + b"quit\n", timeout=60)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode()[-800:]


@pytest.mark.parametrize("command", ["arena", "bench"])
@pytest.mark.parametrize("players", ["0", "-1"])
def test_zero_or_fewer_players_is_refused(
    capsys: pytest.CaptureFixture[str], command: str, players: str
) -> None:
    """``--players 0`` is a seat count no game takes, refused as ``--players 7`` is, naming
    the number given. Before the fix 0 was read as "not given": the arena and the bench ran
    at the default table as if nothing had been asked."""
    if command == "arena":
        args = ["arena", "mille", "--games", "1", "--players", players]
    else:
        args = ["bench", "--game", "mille", "--quick", "--players", players]
    code = main(args)
    assert code == 2
    captured = capsys.readouterr()
    assert f"not {players}" in captured.err, captured.err
    assert captured.out == ""


@pytest.mark.parametrize(
    "options", [["--shard-ids", "0", "--shard-count", "2"], ["--shard-count", "4"], ["--sync"]]
)
def test_bot_options_without_a_token_start_no_console(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    options: list[str],
) -> None:
    """``junction run --shard-ids 0 --shard-count 2`` asks for the bot; without DISCORD_TOKEN
    that is refused in one sentence naming the token, and nothing is dealt. Before the fix the
    options were ignored and the local console started: a service whose token was missing
    dealt a console game into its database, read end of input and exited 0."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("JUNCTION_DB", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction run: ") and "DISCORD_TOKEN" in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["missing.deck", "."])
def test_a_deck_file_that_cannot_be_read_is_a_plain_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A ``--deck`` that does not exist or is a folder: a sentence naming the file and why,
    without the OS's error number. Before the fix it read "Cannot read the deck file: [Errno
    21] Is a directory: '.'"."""
    deck = str(tmp_path / name)
    assert main(_console(tmp_path, "--deck", deck)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"Cannot read the deck file {deck}: ") and "[Errno" not in err, err
    assert not (tmp_path / "j.db").exists()


@pytest.mark.parametrize("name", ["x" * 3000, "Ann\x1b[2J", "Ann\nBob", "Ren\udce9e"])
def test_a_player_name_the_table_cannot_show_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    """JUNCTION_PLAYER of 3 000 characters, or holding control characters (a terminal's
    escape, a line break) or bytes that are not UTF-8 ("Renée" from a Latin-1 file), stops the
    console with one line naming the variable, as any setting it cannot use does, and nothing is
    dealt. Before the fix the game was dealt under it: every table line 3 000 wide, a name that
    cleared the screen each time it was printed, or a UnicodeEncodeError traceback."""
    monkeypatch.setenv("JUNCTION_PLAYER", name)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(_console(tmp_path, "--no-images")) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction console: JUNCTION_PLAYER "), err[:200]
    assert not (tmp_path / "j.db").exists()


def test_a_database_refused_leaves_no_images_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The images' folder is checked, not made, before the database is opened: a store URL
    refused leaves nothing behind, not even an empty folder for the images."""
    args = _console(tmp_path, "--game", "mille")
    args[args.index("--db") + 1] = "mysql://nobody@nowhere/junction"
    assert main(args) == 2
    assert "cannot open the database" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command", [["arena", "mille", "--games", "1000000"], ["bench", "--quick"]]
)
def test_ctrl_c_in_a_long_command_is_one_line(command: list[str]) -> None:
    """Ctrl-C stops ``junction arena`` (a million games) or ``bench`` with one line and the
    status a shell gives a program stopped by Ctrl-C. Before the fix it printed a
    KeyboardInterrupt traceback from deep inside a game's rules."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", *command],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_interruptible,
    )
    try:
        time.sleep(2.5)  # well into the games
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err.decode()[-500:]
    assert err.decode().strip() == f"junction {command[0]}: interrupted.", err.decode()[-500:]


def test_a_shard_count_past_any_bot_is_refused_before_logging_in(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--shard-count`` of twenty digits (alone: every shard in this process) is refused in
    one sentence giving the range, and the bot is not started. Before the fix the bot logged
    in and then opened shard after shard, each refused by Discord."""
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setattr("bot.client.run_bot", _no_bot)
    assert main(["run", "--shard-count", "9" * 20]) == 2
    assert capsys.readouterr().err == (
        f"junction run: --shard-count is the total number of shards, from 1 to 10 000, "
        f"not {'9' * 20}\n"
    )


def _no_bot(*args: object, **kwargs: object) -> int:
    raise AssertionError("the bot was started")


@pytest.mark.parametrize(
    "args",
    [
        ["console", "--seed"],
        ["console", "--players"],
        ["arena", "mille", "--games"],
        ["arena", "mille", "--seed"],
        ["bench", "--game", "mille", "--players"],
        ["run", "--shard-count"],
        ["run", "--shard-count", "2", "--shard-ids"],
    ],
)
def test_a_number_of_thousands_of_digits_is_quoted_cut_short(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """A number option of 5 000 digits is a usage error (status 2) quoting it cut short, on
    one line. Before the fix argparse quoted all 5 000 digits ("invalid int value: '9999…")."""
    with pytest.raises(SystemExit) as stopped:
        main([*args, "9" * 5000])
    assert stopped.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert "…'" in last and len(last) < 200, last[:300]


@pytest.mark.parametrize("args", [["console", "--game", ""], ["bench", "--game", " "]])
def test_an_empty_game_is_refused_not_read_as_none_given(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
) -> None:
    """``--game ""`` (``--game "$GAME"`` with the variable unset) is a usage error asking for a
    game. Before the fix it was read as no --game: the console dealt the default game into
    junction.db, and the bench timed every game."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUNCTION_DB", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 2
    assert "argument --game: name a game, like mille" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_empty_policies_list_is_refused_as_a_list_of_commas_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``arena mille --policies ""`` is refused as ``--policies ,,`` is. Before the fix it was
    read as no --policies: a hundred games of the default pair, printed as asked for."""
    assert main(["arena", "mille", "--games", "1", "--policies", ""]) == 2
    captured = capsys.readouterr()
    assert captured.err == "junction arena: An arena needs at least one policy.\n"
    assert captured.out == ""


@pytest.mark.parametrize("junk", ["\n", "\x1b[2J", "\t"])
def test_a_database_url_with_a_control_character_is_refused_on_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    junk: str,
) -> None:
    """JUNCTION_DB holding a line break (two lines pasted) or a terminal's escape is refused in
    one line naming it, and no file is made. Before the fix a database file was created under
    that name ("j⏎.db"), which a listing shows as two lines or garbles."""
    monkeypatch.setenv("JUNCTION_DB", f"sqlite:///{tmp_path}/j{junk}.db")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["console", "--no-images"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction console: JUNCTION_DB: cannot open the database "), err
    assert err.endswith("holds a line break or another control character\n"), err
    assert err.count("\n") == 1 and "\x1b" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_database_url_that_names_no_database_is_refused_before_logging_in(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``junction run`` with a JUNCTION_DB of an unknown scheme says so before the bot starts.
    Before the fix the bot logged in to Discord first, and only its start-up then failed."""
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("JUNCTION_DB", "mysql://nobody@nowhere/junction")
    monkeypatch.setattr("bot.client.run_bot", _no_bot)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction run: JUNCTION_DB: cannot open the database mysql://"), err


NOBODY = 65534
"""The account of no rights that ``as_nobody`` runs ``junction`` as."""


def skip_unless_nobody_can_run() -> None:
    """Skip the test unless ``as_nobody`` can run: as root, with setpriv, and a checkout and
    Python that another account may read."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run a command as an account of no rights")
    if _setpriv(sys.executable, "-c", "import bot.__main__").returncode:
        pytest.skip("this checkout or its Python cannot be read by another account")


def as_nobody(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``junction ARGS`` run as the account of no rights (see skip_unless_nobody_can_run)."""
    return _setpriv(sys.executable, "-m", "bot", *args, env=env)


def _setpriv(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *args],
        cwd=REPO,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    "command",
    [["forget-member", "80351110224678912"], ["void-game", "1"], ["console", "--no-images"]],
)
def test_a_database_in_a_folder_this_account_may_not_enter_is_one_sentence(
    tmp_path: Path, command: list[str]
) -> None:
    """A command run by another account than the bot's, on the bot's database in a folder it
    may not enter (pytest's own folder is root's alone), says so in one line. Before the fix
    each of them ended in a PermissionError traceback, from asking whether the file exists."""
    skip_unless_nobody_can_run()
    database = tmp_path / "j.db"
    database.touch()
    done = as_nobody(*command, env={"JUNCTION_DB": f"sqlite:///{database}"})
    assert done.returncode == 2, done.stderr
    said = f"junction {command[0]}: JUNCTION_DB: cannot open the database "
    assert done.stderr.startswith(said) and done.stderr.count("\n") == 1, done.stderr
    assert "permission denied" in done.stderr.lower(), done.stderr


def test_an_images_folder_named_with_a_control_character_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out`` holding a terminal's escape is refused in a sentence that does not print it,
    before anything is made. Before the fix the folder was made under that name, and every
    "(table image: …)" line printed the escape, which cleared the screen."""
    args = _console(tmp_path, "--game", "mille")
    args[args.index("--out") + 1] = str(tmp_path / "tables\x1b[2J")
    assert main(args) == 2
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "control character" in said and "\x1b" not in said, said
    assert list(tmp_path.iterdir()) == []


def test_a_deck_file_name_with_a_terminals_escape_is_quoted_harmless(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``--deck`` name holding a terminal's escape (a missing file) is named in the refusal
    with the escape written out, on one line. Before the fix the name was printed as it was,
    and the terminal ran the escape (the screen cleared over the refusal)."""
    deck = str(tmp_path / "deck\x1b[2J\n.txt")
    assert main(_console(tmp_path, "--deck", deck)) == 2
    err = capsys.readouterr().err
    assert err.startswith("Cannot read the deck file ") and "\\x1b[2J\\n.txt" in err, err
    assert "\x1b" not in err and err.count("\n") == 1, err


@pytest.mark.parametrize(("given", "read"), [("+5", 5), (" 7 ", 7), ("-3", -3)])
def test_a_number_option_reads_what_int_reads(given: str, read: int) -> None:
    """The number options read a sign and spaces around as Python's int() does."""
    assert _parser().parse_args(["arena", "mille", "--seed", given]).seed == read


def test_a_failed_start_leaves_no_lock_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``junction run`` on a file that is not a database is refused in one sentence, and leaves
    nothing beside it. Before the fix the lock it took (``bad.db.lock``, empty) stayed behind
    after every start, failed or not."""
    (tmp_path / "bad.db").write_bytes(b"not a database at all")
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("JUNCTION_DB", f"sqlite:///{tmp_path / 'bad.db'}")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction run: ") and err.count("\n") == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.db"]


def test_an_arena_of_absurdly_many_games_is_refused_unplayed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``junction arena mille --games 99999999999`` is refused in one sentence naming the most
    an arena plays, before a game is dealt. Before the fix it started playing, to run for
    centuries (until Ctrl-C, with no report)."""
    monkeypatch.setattr("bot.arena._play_game", _no_game)
    assert main(["arena", "mille", "--games", "99999999999"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("junction arena: An arena plays at most 1,000,000 games"), err
    assert err.count("\n") == 1 and "99,999,999,999" in err, err


@pytest.mark.parametrize("games", ["0", "-3"])
def test_an_arena_of_no_games_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, games: str
) -> None:
    """``junction arena mille --games 0`` is refused in one sentence, as too many games are.
    Before the fix it printed a report of nothing ("games": 0, every win rate 0.0), exit
    status 0, which a script took for a measurement; -3 read "An arena needs a non-negative
    number of games.", which allowed the 0."""
    monkeypatch.setattr("bot.arena._play_game", _no_game)
    assert main(["arena", "mille", "--games", games]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"junction arena: An arena plays at least 1 game, not {games}: give --games 1 or more.\n"
    )


def _no_game(*args: object, **kwargs: object) -> None:
    raise AssertionError("a game was played")
