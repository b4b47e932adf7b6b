"""The local console fed hostile input (a review round): huge numbers are sentences, not crashes.

The console is driven as ``tests/test_console.py`` drives it: lines on standard input. Each
docstring says what should happen and what happened before the fix.
"""

from __future__ import annotations

import errno
import io
from pathlib import Path

import pytest

from bot.console import ConsoleOptions, run_console

DECK = ["go", "100", "100", "100", "75", "50", *["25"] * 6, *["200", "50", "100", "75"] * 3]


async def _run(
    tmp_path: Path,
    commands: str,
    *,
    opponent: str | None = "random",
    images: bool = False,
    **extra: object,
) -> tuple[int, str]:
    out = io.StringIO()
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}",
        out=tmp_path / "tables",
        seed=4,
        opponent=opponent,
        images=images,
        **extra,  # type: ignore[arg-type]
    )
    code = await run_console(options, lines=io.StringIO(commands), out=out)
    return code, out.getvalue()


async def test_a_huge_number_is_answered_not_a_crash(tmp_path: Path) -> None:
    """A line of 5 000 digits (a pasted blob, a stuck key) is "a number from the list" that is
    far out of range: the console must say "! Choose a number from 1 to N" and go on, as it does
    for 22 digits. Before the fix, ``int(text)`` raises ValueError ("Exceeds the limit (4300
    digits) for integer string conversion") and the console dies with a traceback."""
    code, text = await _run(tmp_path, "9" * 5000 + "\nquit\n", deck=DECK)
    assert code == 0
    assert "! Choose a number from 1 to" in text
    assert "Game saved" in text


@pytest.mark.parametrize("line", ["play 9", "clear 9 with go", "sacrifice 100 on 9"])
async def test_solo_move_with_a_huge_number_is_a_sentence(tmp_path: Path, line: str) -> None:
    """In Mille Bornes Solo, a move naming a 5 000-digit number ('play 999…', 'clear 999… with
    go') must be refused with a sentence like any unreadable move (the engine contract: a refusal
    is a GameError whose text is a sentence). Before the fix, the solo notation parser calls
    ``int()`` on the digits and raises ValueError, which nothing catches: the console crashes."""
    huge = line.replace("9", "9" * 5000)
    code, text = await _run(tmp_path, f"{huge}\nquit\n", game="solo")
    assert code == 0
    assert "\n! " in text
    assert "Game saved" in text


@pytest.mark.parametrize("game", ["mille", "solo", "race", "dragon", "ttr"])
async def test_a_very_long_line_is_refused_in_one_short_sentence(tmp_path: Path, game: str) -> None:
    """A pasted 5 000-character line is refused as /move refuses it ("far too long"), in a
    sentence that fits on a screen, in every game. Before the fix Mille Bornes quoted all of it
    back ("There is no Mille Bornes card called 'xxxx…'", 5 000 characters) and Solo answered
    "Name one highway", which says nothing about what was wrong."""
    # A solitaire seats no computer (a level given is said to go unused).
    opponent = None if game == "solo" else "random"
    code, text = await _run(
        tmp_path, "play " + "x" * 5000 + "\nquit\n", game=game, opponent=opponent
    )
    assert code == 0
    (refusal,) = [line for line in text.splitlines() if line.startswith("! ")]
    assert "far too long" in refusal and len(refusal) < 200, refusal[:300]
    assert "Game saved" in text


@pytest.mark.parametrize("typed", ["1.", "#1", "1)", " 1. "])
async def test_a_number_written_as_the_list_prints_it_is_taken(tmp_path: Path, typed: str) -> None:
    """The list prints " 1. Play Go": typing "1." (or "#1", "1)") plays move 1 as "1" does.
    Before the fix it was refused with "I don't understand '1.'. Try 'play <card>', …", which
    never says that a plain number works."""
    code, text = await _run(tmp_path, f"{typed}\nquit\n", deck=DECK)
    assert code == 0
    assert "» " in text and "plays Go." in text, text
    assert "\n! " not in text


async def test_new_with_a_bad_deck_keeps_the_saved_game(tmp_path: Path) -> None:
    """``--new --deck FILE`` whose deck the game refuses (an unknown card code) is refused
    before anything is abandoned: the saved game is still there to resume. Before the fix
    ``--new`` abandoned the saved game first, then the deal refused the deck, so a typo in a
    deck file threw away the game in progress."""
    code, _ = await _run(tmp_path, "play go\nquit\n", deck=DECK)
    assert code == 0
    code, text = await _run(tmp_path, "quit\n", deck=["go", "zzz", *DECK], new=True)
    assert code == 2
    assert "'zzz'" in text
    code, text = await _run(tmp_path, "quit\n")
    assert "Resuming your Mille Bornes game #1 (after 1 move of yours)." in text, text


@pytest.mark.parametrize("game", ["solo", "ttr-solo"])
async def test_an_unknown_computer_level_for_a_game_played_alone_is_refused(
    tmp_path: Path, game: str
) -> None:
    """``--opponent grandmaster`` (a level no game has) for a solitaire is refused in a sentence,
    as for any other game, and nothing is dealt. Before the fix a solitaire ignored it without a
    word and was dealt as if it had been left out. (A level the game knows stays accepted: one
    script may pass one level to every game.)"""
    out = io.StringIO()
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}",
        out=tmp_path / "tables",
        game=game,
        opponent="grandmaster",
    )
    assert await run_console(options, lines=io.StringIO("quit\n"), out=out) == 2
    assert "'grandmaster'" in out.getvalue(), out.getvalue()
    assert not (tmp_path / "console.db").exists()


@pytest.mark.parametrize("typed", ["\x1b[A", "\x1b[15~", "play\x00go", "\x07"])
async def test_control_keys_are_refused_without_echoing_them(tmp_path: Path, typed: str) -> None:
    """An arrow key (the console reads plain lines: Up arrives as ESC [ A), a function key or a
    Ctrl-letter typed as a move is refused in a sentence that says so, without sending the
    keys back. Before the fix the game's refusal quoted them ("I don't understand '␛[A'"),
    so the terminal ran them: the cursor jumped up and the line was written over the table."""
    code, text = await _run(tmp_path, f"{typed}\nquit\n", deck=DECK)
    assert code == 0
    (refusal,) = [line for line in text.splitlines() if line.startswith("! ")]
    assert "control" in refusal, refusal
    assert not any(ord(ch) < 32 or ch == "\x7f" for ch in refusal), repr(refusal)


async def test_images_that_cannot_be_written_are_said_once_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table image the disk refuses (full, or a folder like /proc that no check before the
    deal can foresee) is said once, and the game goes on without pictures. Before the fix the
    OSError ended the console with a traceback after the game was dealt."""

    def disk_full(self: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", disk_full)
    code, text = await _run(tmp_path, "play go\nquit\n", deck=DECK, images=True)
    assert code == 0
    refusals = [line for line in text.splitlines() if line.startswith("! ")]
    assert refusals == [
        f"! Cannot write the table images to {tmp_path / 'tables'}: no space left on device. "
        "The game goes on without them."
    ], text
    assert "plays Go." in text and "Game saved" in text


async def test_a_closed_standard_input_deals_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``junction console <&-`` (standard input closed, so Python has none) is refused in a
    sentence before anything is dealt. Before the fix the game was dealt and stored, then
    ``None.isatty()`` ended the console with an AttributeError traceback."""
    monkeypatch.setattr("sys.stdin", None)
    out = io.StringIO()
    options = ConsoleOptions(db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path / "tables")
    assert await run_console(options, out=out) == 2
    assert out.getvalue().startswith("! Standard input is closed")
    assert list(tmp_path.iterdir()) == []


async def test_a_computer_level_is_named_as_the_game_lists_it(tmp_path: Path) -> None:
    """``--opponent ' RANDOM'`` is read as ``random``, as the level is matched, and the
    computer sits as "Computer (random)". Before the fix it sat as "Computer ( RANDOM)", the
    level stored as typed."""
    code, text = await _run(tmp_path, "quit\n", deck=DECK, opponent=" RANDOM")
    assert code == 0 and "Computer (random)" in text, text


async def test_a_saved_game_that_cannot_be_read_says_how_to_get_past_it(tmp_path: Path) -> None:
    """The saved game's state is damaged (or was written by an incompatible version): the
    console said the Discord bot's "A game is already running in this channel. Finish it, or
    /resign or /abort it first.", naming neither the save nor the way past it. Now it says the
    save cannot be resumed and that --new abandons it; and --new does."""
    import sqlite3

    code, _ = await _run(tmp_path, "play go\nquit\n", deck=DECK)
    assert code == 0
    with sqlite3.connect(tmp_path / "console.db") as db:
        db.execute("""UPDATE games SET state = '{"schema_version": 1, "nonsense": true}'""")
    db.close()
    code, text = await _run(tmp_path, "quit\n")
    assert code == 2
    assert text.startswith("! This saved game is damaged and cannot be resumed (")
    assert text.endswith("). Add --new to abandon it and deal a new game.\n")
    code, text = await _run(tmp_path, "quit\n", new=True)
    assert code == 0 and text.startswith("New Mille Bornes game #2 against the computer.")


async def test_a_number_from_a_list_the_game_has_moved_past_plays_nothing(tmp_path: Path) -> None:
    """Two consoles on one database (a second terminal left open): the first listed
    "1. Discard 25 miles", the other moved, and the first's "1" then played whatever the new
    list numbered 1 ("Accident on Computer"), a move its player never saw. Now the number is
    refused, the table shown as it stands, and nothing played."""
    import asyncio
    import sqlite3
    import threading

    code, _ = await _run(tmp_path, "quit\n", deck=DECK)  # dealt and saved
    assert code == 0
    options = ConsoleOptions(db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path, images=False)

    class OtherConsoleMovesFirst(io.StringIO):
        """This console's input: before its first line, another console plays a move."""

        def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
            if self.tell() == 0:
                other = run_console(options, lines=io.StringIO("1\nquit\n"), out=io.StringIO())
                thread = threading.Thread(target=asyncio.run, args=(other,))
                thread.start()
                thread.join()
            return super().readline(size)

    out = io.StringIO()
    assert await run_console(options, lines=OtherConsoleMovesFirst("1\nquit\n"), out=out) == 0
    assert "! The game has moved on since that list" in out.getvalue()
    with sqlite3.connect(tmp_path / "console.db") as db:
        [(yours,)] = db.execute("SELECT count(*) FROM moves WHERE seat = 0").fetchall()
    db.close()
    assert yours == 1  # the other console's move only


async def test_resuming_another_game_leaves_options_for_the_default_game_unused(
    tmp_path: Path,
) -> None:
    """Resuming a saved Ticket to Ride game with the command line that started another game
    (``--players 3 --deck FILE``, a Mille Bornes deck too short for it) resumes it, saying the
    options go unused. Before the fix they were checked against Mille Bornes, the default
    game, as if one were to be dealt: "Mille Bornes is played by exactly 2 players." and the
    saved game could not be resumed with them."""
    code, _ = await _run(tmp_path, "quit\n", game="ttr")
    assert code == 0
    code, text = await _run(tmp_path, "quit\n", opponent="random", players=3, deck=["go", "25"])
    assert code == 0, text
    assert "Resuming your Ticket to Ride: The Card Game game #1" in text, text
    assert "! --players, --seed, --deck and --opponent are not used" in text, text


async def test_options_a_new_deal_cannot_take_are_refused_on_a_database_without_a_game(
    tmp_path: Path,
) -> None:
    """Where the database exists but holds no saved game, the default game is dealt, and a
    seat count it cannot take is still refused in a sentence, dealing nothing."""
    (tmp_path / "console.db").touch()
    code, text = await _run(tmp_path, "quit\n", players=3)
    assert code == 2
    assert "! Mille Bornes is played by exactly 2 players." in text, text
    code, text = await _run(tmp_path, "quit\n")
    assert "New Mille Bornes game #1" in text, text


@pytest.mark.parametrize(("game", "title"), [("solo", "Mille Bornes Solo"), ("ttr-solo", "")])
async def test_a_computer_level_for_a_game_played_alone_is_said_unused(
    tmp_path: Path, game: str, title: str
) -> None:
    """``--opponent expert`` for a solitaire (a level the game lists) is taken, and said to go
    unused: nobody sits against you. Before the fix it was ignored without a word."""
    code, text = await _run(tmp_path, "quit\n", game=game, opponent="expert")
    assert code == 0
    assert f"New {title}" in text and " alone.\n" in text, text
    assert "! --opponent is not used: no computer plays a game played alone." in text, text


@pytest.mark.parametrize("damage", ["{{{ not json", '{"schema_version": 1, "nonsense": true}'])
async def test_a_damaged_deal_still_resumes_the_game(tmp_path: Path, damage: str) -> None:
    """The saved deal (the state before the first move, read only to tell what happened since
    your last move) is damaged, the game itself sound: resuming printed a traceback ending
    "StoreError: stored initial state is damaged: not valid JSON". Now the game resumes,
    saying what cannot be told, and plays on."""
    import sqlite3

    code, _ = await _run(tmp_path, "play go\nquit\n", deck=DECK)
    assert code == 0
    with sqlite3.connect(tmp_path / "console.db") as db:
        db.execute("UPDATE games SET initial_state = ?", (damage,))
    db.close()
    code, text = await _run(tmp_path, "1\nquit\n")
    assert code == 0, text
    assert text.startswith("Resuming your Mille Bornes game #1 (after 1 move of yours).\n")
    assert "Since your last move:\n  » (cannot be told: the saved deal is damaged)\n" in text
    assert "> 1\n  » Root drives 50 miles (50 so far).\n" in text  # played, not refused


@pytest.mark.parametrize("typed", ["\x1b[2J\x1b[H", "x" * 200_000])
async def test_a_line_read_from_a_script_is_echoed_on_one_short_line(
    tmp_path: Path, typed: str
) -> None:
    """Moves piped in are echoed after "> ". The echo wrote the line as it came: a terminal
    escape in a script's line was run (this one clears the screen), and a line of 200 000
    characters was echoed whole above its one-sentence refusal. Now the echo writes control
    characters out and cuts a long line short."""
    code, text = await _run(tmp_path, f"{typed}\nquit\n", deck=DECK)
    assert code == 0
    assert not any(ord(ch) < 32 and ch != "\n" for ch in text), "a control character echoed"
    echoed = [line for line in text.splitlines() if line.startswith("> ")]
    assert echoed[-1] == "> quit" and all(len(line) <= 120 for line in echoed), echoed[0][:200]
