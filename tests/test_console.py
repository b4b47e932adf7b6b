"""The local console, driven through standard input as a player would type."""

from __future__ import annotations

import dataclasses
import io
import itertools
from pathlib import Path

import pytest

from bot.console import (
    FOLD_ABOVE,
    ConsoleOptions,
    hint_line,
    menu,
    read_deck_file,
    run_console,
)
from bot.games.bundle import MoveChoice

# Seat 0 (the player) holds a Go and 100s; the computer holds hazards it cannot use at once.
DECK = ["go", "100", "100", "100", "75", "50", *["25"] * 6, *["200", "50", "100", "75"] * 3]


async def _run(tmp_path: Path, commands: str, **extra: object) -> str:
    out = io.StringIO()
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}",
        out=tmp_path / "tables",
        seed=4,
        deck=DECK,
        opponent="random",
        **extra,  # type: ignore[arg-type]
    )
    code = await run_console(options, lines=io.StringIO(commands), out=out)
    assert code == 0
    return out.getvalue()


async def test_console_plays_moves_and_writes_images(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves typed in words or by number are played and each table is written as a PNG."""
    monkeypatch.setenv("JUNCTION_PLAYER", "Ann")
    text = await _run(tmp_path, "play go\n1\nquit\n")
    assert "» Ann plays Go." in text
    images = sorted((tmp_path / "tables").glob("*-table.png"))
    assert len(images) >= 3 and images[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Game saved" in text


async def test_a_blank_player_name_falls_back_to_the_login_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JUNCTION_PLAYER of spaces sat the player as "   " (other settings are read stripped)."""
    monkeypatch.setenv("JUNCTION_PLAYER", "   ")
    monkeypatch.setattr("getpass.getuser", lambda: "ann")
    text = await _run(tmp_path, "play go\nquit\n")
    assert "» Ann plays Go." in text


class _Terminal(io.StringIO):
    """Commands typed at a terminal."""

    def isatty(self) -> bool:
        return True


async def test_script_reads_a_terminal_as_a_script(tmp_path: Path) -> None:
    """At a terminal the console prompts ("> ") and does not echo what was typed; with
    ``--script`` it reads the same input as a script: no prompt, each command echoed. Found
    by a review of the README against the code: the flag was parsed and never used."""
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path, seed=4, deck=DECK, images=False
    )
    for script, echoed in ((False, False), (True, True)):
        out = io.StringIO()
        run = dataclasses.replace(options, script=script, new=True)
        assert await run_console(run, lines=_Terminal("play go\nquit\n"), out=out) == 0
        assert ("> play go" in out.getvalue()) is echoed, out.getvalue()


async def test_console_explains_a_bad_move_and_goes_on(tmp_path: Path) -> None:
    """An illegal or unreadable move prints a sentence and changes nothing."""
    text = await _run(tmp_path, "play 100\nplay unicorn\n42\nquit\n")
    assert "! You cannot move yet" in text
    assert "! There is no Mille Bornes card called 'unicorn'" in text
    assert "! Choose a number from 1 to" in text


async def test_console_resumes_a_saved_game(tmp_path: Path) -> None:
    """Quitting and starting again resumes the same game from the same SQLite file."""
    await _run(tmp_path, "play go\nquit\n")
    text = await _run(tmp_path, "quit\n")
    assert "Resuming your Mille Bornes game #1" in text


async def test_resuming_says_which_new_game_options_go_unused(tmp_path: Path) -> None:
    """Resuming the saved game with --seed or --opponent said nothing: the player believed
    they sat against `expert` (or at deal 7) while the saved game went on as it was."""
    options = ConsoleOptions(db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path, images=False)
    assert await run_console(options, lines=io.StringIO("quit\n"), out=io.StringIO()) == 0
    out = io.StringIO()
    again = dataclasses.replace(options, seed=7, opponent="expert")
    assert await run_console(again, lines=io.StringIO("quit\n"), out=out) == 0
    assert "! --seed and --opponent are not used: they set up a new game." in out.getvalue()
    plain = io.StringIO()
    assert await run_console(options, lines=io.StringIO("quit\n"), out=plain) == 0
    assert "Resuming your" in plain.getvalue() and "are not used" not in plain.getvalue()


async def test_console_resign_ends_the_game(tmp_path: Path) -> None:
    """Resigning gives the game to the computer."""
    text = await _run(tmp_path, "resign\n")
    assert "Computer (random) won!" in text
    assert text.rstrip().endswith("Run the same command again to play a new game.")


async def test_after_a_game_the_console_deals_a_new_one(tmp_path: Path) -> None:
    """What the last line promises: the same command starts a new game."""
    await _run(tmp_path, "resign\n")
    text = await _run(tmp_path, "quit\n")
    assert "New Mille Bornes game #2" in text


def test_deck_file_reads_codes_in_order(tmp_path: Path) -> None:
    """A deck file lists card codes top first, with commas, lines and comments allowed."""
    path = tmp_path / "deck.txt"
    path.write_text("go, 100  # first hand\nstop\n\n25\n", encoding="utf-8")
    assert read_deck_file(str(path)) == ["go", "100", "stop", "25"]


async def test_console_hint_names_a_listed_move_and_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`hint` prints the expert's move (the only sensible one: Go) with its number in the
    list and a reason."""
    monkeypatch.setenv("JUNCTION_EXPERT_MS", "5")
    text = await _run(tmp_path, "hint\nquit\n")
    (line,) = [row for row in text.splitlines() if "Hint:" in row]
    assert "Hint: 1. Play Go — " in line


def test_hint_line_reads_as_the_move_list_does() -> None:
    """The number goes first, as in the list, so Solo's "(highway 4)" is the line's only
    bracket; a folded move shows the notation to type, in the list's square brackets."""
    assert (
        hint_line("Ace on 5 (highway 4)", "clear 4 with ace", 3, "it clears a card.")
        == "Hint: 3. Ace on 5 (highway 4) — it clears a card."
    )
    assert (
        hint_line("Cycle", "cycle 25 50", None, "two draws.")
        == "Hint: Cycle [cycle 25 50] — two draws."
    )
    assert hint_line("end", "end", None, "done.") == "Hint: end — done."


def test_menu_folds_only_a_crowded_kind_of_move() -> None:
    """Every subset of a hand to cycle would bury the other moves: a kind with more than
    FOLD_ABOVE choices becomes one line with an example naming two cards."""
    plays = [MoveChoice(f"play {n}", f"Drive {n}") for n in (25, 50)]
    cycles = [MoveChoice(f"cycle {' '.join(['25'] * k)}", "Cycle") for k in range(1, 27)]
    listed, folded = menu([*plays, *cycles, MoveChoice("end", "End your turn")])
    assert [m.notation for m in listed] == ["play 25", "play 50", "end"]
    assert folded == [("cycle", 26, "cycle 25 25")]
    few, none = menu(cycles[:FOLD_ABOVE])
    assert len(few) == FOLD_ABOVE and none == []


def _against_random(tmp_path: Path, game: str, seed: int) -> ConsoleOptions:
    """A console game against ``random``, without writing images."""
    return ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}",
        out=tmp_path / "tables",
        game=game,
        seed=seed,
        opponent="random",
        images=False,
    )


async def test_console_numbers_skip_folded_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In 1000 Mile Race the cycles are folded, and the numbers count the listed moves only:
    the last one ends the turn."""
    monkeypatch.setenv("JUNCTION_PLAYER", "Ada")
    out = io.StringIO()
    options = _against_random(tmp_path, "race", seed=5)
    code = await run_console(options, lines=io.StringIO("9\n7\nquit\n"), out=out)
    assert code == 0
    text = out.getvalue()
    assert "cycle: 143 choices; type one out, for example 'cycle 200 200'" in text
    assert "! Choose a number from 1 to 7." in text
    assert "Ada ends the turn." in text


async def test_a_number_where_every_move_is_folded_asks_for_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ticket to Ride's first choice (which tickets to keep) is all folded: a number gets a
    sentence saying to type the move, not 'from 1 to 0', and the typed move is then taken."""
    monkeypatch.setenv("JUNCTION_PLAYER", "Ada")
    out = io.StringIO()
    options = _against_random(tmp_path, "ttr", seed=7)
    lines = io.StringIO("1\nkeep T11 T13\nquit\n")
    code = await run_console(options, lines=lines, out=out)
    assert code == 0
    text = out.getvalue()
    assert "from 1 to 0" not in text
    assert "! No move is numbered here: type one out, for example 'keep " in text
    assert "Tickets kept — Ada: 2" in text


async def test_a_hands_score_is_printed_once(tmp_path: Path) -> None:
    """The score of a finished hand is printed when the hand ends, not again above every table
    of the next hand (as it was before the fix: the table's text began with it)."""
    text = await _run(tmp_path, "1\n" * 400 + "quit\n", images=False)
    assert "── Hand 2 ·" in text, "the first hand did not end"
    assert text.count("══ Hand 1: ") == 1, text


async def test_the_solo_hand_is_shown_once_with_the_table(tmp_path: Path) -> None:
    """Mille Bornes Solo's open hand is a line of its table (as on the image, and in its alt
    text), so the console no longer prints it a second time below."""
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path, game="solo", seed=4, images=False
    )
    out = io.StringIO()
    assert await run_console(options, lines=io.StringIO("quit\n"), out=out) == 0
    text = out.getvalue()
    assert text.count("  hand: ") == 1 and "Your hand" not in text, text


async def test_the_last_move_is_told_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move's caption is said once, above the table: the table's own last line (the image's
    "last move", which is its alt text too) is left out after it. Before the fix every move
    read twice ("» Computer plays …" and then the same under the players); shown on its own
    (``table``) the table keeps the line."""
    monkeypatch.setenv("JUNCTION_PLAYER", "Ann")
    text = await _run(tmp_path, "play go\ntable\nquit\n", images=False)
    played, shown_again = text.split("> table", 1)
    assert played.count("Ann plays Go.") == 1, played
    last = [line for line in played.splitlines() if line.startswith("  » ")][-1]
    assert played.count(last.removeprefix("  » ")) == 1, played  # the computer's answer
    assert f"\n  {last.removeprefix('  » ')}\n" in shown_again, shown_again


async def _six_car_dragon(tmp_path: Path, commands: str) -> str:
    """The player and five computers at Dragon Mille Bornes (seed 11, no images), ``commands``
    typed: what the console printed."""
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}",
        out=tmp_path,
        game="dragon",
        players=6,
        seed=11,
        images=False,
    )
    out = io.StringIO()
    assert await run_console(options, lines=io.StringIO(commands), out=out) == 0
    return out.getvalue()


async def test_a_stampede_is_told_once_not_car_by_car(tmp_path: Path) -> None:
    """In Dragon Mille Bornes each car that meets a Stampede adds to the same caption. The
    console tells each event once, as the Discord message does (``told``): before the fix it
    printed the growing sentence once per car, five times at a table of six."""
    text = await _six_car_dragon(tmp_path, "play go\nrocket-front @1\nquit\n")
    assert text.count("starts a Stampede") == 1, text
    said = [line for line in text.splitlines() if line.startswith("  » ")]
    assert all(not b.startswith(a) for a, b in itertools.pairwise(said)), said


async def test_ticket_to_ride_ends_with_its_scoring_in_words(tmp_path: Path) -> None:
    """At the end of Ticket to Ride the console prints the final scoring as the score image
    has it: each total with its tickets, completed or not, and the Big Cities. Before the fix
    it printed the totals only ("Root -16 · Computer (random) -100"), and the score image's alt
    text on Discord was the table's."""
    options = _against_random(tmp_path, "ttr", seed=7)
    out = io.StringIO()
    lines = io.StringIO("keep T11 T13\n" + "1\n" * 400 + "quit\n")
    assert await run_console(options, lines=lines, out=out) == 0
    text = out.getvalue()
    assert "🏆" in text, "the game did not end"
    assert "══ Final scoring: " in text
    assert "T11 Los Angeles – Las Vegas " in text.split("══ Final scoring: ")[1]
    assert "(tickets " in text


async def test_help_gives_examples_from_the_game_being_played(tmp_path: Path) -> None:
    """`help` takes its move examples from the moves open now: in Mille Bornes Solo, where
    nothing is played with 'play go' or 'discard 25', it shows a 'clear … with …'. Before the
    fix every game's help gave Mille Bornes' 'play go', 'discard 25'."""
    options = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path, game="solo", seed=4, images=False
    )
    out = io.StringIO()
    assert await run_console(options, lines=io.StringIO("help\nquit\n"), out=out) == 0
    (line,) = [row for row in out.getvalue().splitlines() if "<move>" in row]
    assert "'clear " in line and "play go" not in line, line


async def test_ticket_to_ride_solo_scoring_names_the_hidden_tickets(tmp_path: Path) -> None:
    """Giving up a Ticket to Ride Solo game prints its scoring in words with the hidden
    tickets' column, headed as the score image is ('you gave up', not 'the hidden tickets
    win')."""
    options = _against_random(tmp_path, "ttr-solo", seed=7)
    out = io.StringIO()
    assert await run_console(options, lines=io.StringIO("keep T46\nresign\n"), out=out) == 0
    text = out.getvalue()
    assert "══ Final scoring: you gave up. ══" in text, text
    assert "T46 Seattle – Miami -21 (not completed)" in text
    assert "  Hidden tickets: " in text


async def test_a_folded_kind_of_move_says_what_it_does(tmp_path: Path) -> None:
    """The one line standing for dozens of cycles gives its example's description too: 'cycle'
    alone does not tell a newcomer that cycling junks cards and draws new ones. Before the fix
    the line ended with the notation ('cycle 200 200')."""
    out = io.StringIO()
    options = _against_random(tmp_path, "race", seed=5)
    assert await run_console(options, lines=io.StringIO("quit\n"), out=out) == 0
    (line,) = [row for row in out.getvalue().splitlines() if "choices; type one out" in row]
    example = "'cycle 200 200' — Cycle 2 cards (200 miles, 200 miles) and draw 1 card"
    assert line.endswith(example), line


@pytest.mark.parametrize(("length", "goal"), [("match", "match to 5000"), ("hand", "single hand")])
async def test_mille_table_names_the_goal(tmp_path: Path, length: str, goal: str) -> None:
    """The Mille Bornes table in words says what the score column counts towards, as the
    image's corner does ('Match to 5000', 'Single hand'). Before the fix a newcomer saw 'score
    0' and a trip of 700 and no word of the match."""
    text = await _run(tmp_path, "quit\n", images=False, options={"length": length})
    assert f"· {goal} ──" in text, text


async def test_dragon_table_says_why_a_car_is_stopped_and_what_it_has(tmp_path: Path) -> None:
    """Dragon Mille Bornes' table in words (the image's alt text too) says what the image
    shows of each car: why it is stopped ('stopped (Out of Gas)'), its safeties and Fireproof
    Armor. Before the fix it said 'stopped' and nothing of safeties or armor, so a player could
    not tell which remedy they needed or which rival was immune to what."""
    played = await _six_car_dragon(
        tmp_path, "play go\nrocket-front @1\narmor back\nside front\nquit\n"
    )
    table = played.split("> side front", 1)[1]
    assert "Computer 4 (normal) plays Out of Gas on Root!" in table, table
    assert "▶ Root: 0 mi, stopped (Out of Gas);" in table, table
    assert "; safeties Driving Ace" in table and "; Fireproof Armor" in table, table


async def test_resuming_recalls_the_moves_since_yours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Coming back to a saved game tells your last move and everything the computer did after
    it, as the first session printed them, before the table. Before the fix the table's last
    line ('Computer (random) ends the turn.') was all a returning player learnt of a whole
    turn (a hazard on them included)."""
    monkeypatch.setenv("JUNCTION_PLAYER", "Ada")
    options = _against_random(tmp_path, "race", seed=5)
    first = io.StringIO()
    assert await run_console(options, lines=io.StringIO("end\nquit\n"), out=first) == 0
    played = [row for row in first.getvalue().splitlines() if row.startswith("  » ")]
    assert played[0] == "  » Ada ends the turn." and len(played) >= 2, played
    again = io.StringIO()
    assert await run_console(options, lines=io.StringIO("quit\n"), out=again) == 0
    text = again.getvalue()
    recalled = text.split("Since your last move:\n", 1)[1].split("\n──", 1)[0]
    assert recalled.splitlines() == played, text
    assert text.count(played[-1].removeprefix("  » ")) == 1, text  # not again in the table


async def test_a_long_recap_keeps_the_latest_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recap longer than RECAP_LINES (a Dragon table of computers racing on after your car
    is out) keeps the latest moves and counts the others."""
    monkeypatch.setattr("bot.console.RECAP_LINES", 1)
    options = _against_random(tmp_path, "race", seed=5)
    assert await run_console(options, lines=io.StringIO("end\nquit\n"), out=io.StringIO()) == 0
    again = io.StringIO()
    assert await run_console(options, lines=io.StringIO("quit\n"), out=again) == 0
    recalled = again.getvalue().split("Since your last move:\n", 1)[1].split("\n──", 1)[0]
    lines = recalled.splitlines()
    assert lines[0] == "  … (1 earlier move not shown)" and len(lines) == 2, recalled


async def test_when_the_computer_starts_the_deal_is_told_first(tmp_path: Path) -> None:
    """When a computer moves first, the deal's own line (in the 1000 Mile Race, the revealed
    cards that decide who starts) comes before its moves. Before the fix the console opened
    on the computer's moves with no word of why it went first: no step repeats the deal's
    caption, and the table's line was the computer's last move."""
    options = _against_random(tmp_path, "race", seed=1)
    out = io.StringIO()
    assert await run_console(options, lines=io.StringIO("quit\n"), out=out) == 0
    said = [row for row in out.getvalue().splitlines() if row.startswith("  » ")]
    assert said[0].endswith("Computer (random) goes first."), said
    assert said[1].startswith("  » Computer (random) "), said


async def test_a_typed_refusal_speaks_of_this_game_and_its_tickets(tmp_path: Path) -> None:
    """Moves typed at the table are read in the player's position: a bare 'keep' gets an
    example from the tickets on offer, a take before the tickets are kept is refused for that,
    and 'take 9' in a two-player game names five slots and not solo's. Before the fixes:
    'keep T04 T17', 'There is no slot 9' while tickets were still to keep, and '(1 to 4 in
    solo)'."""
    options = _against_random(tmp_path, "ttr", seed=1)
    out = io.StringIO()
    script = io.StringIO("keep\ntake 9\nkeep T03\ntake 9\nquit\n")
    assert await run_console(options, lines=script, out=out) == 0
    refusals = [row for row in out.getvalue().splitlines() if row.startswith("! ")]
    assert refusals == [
        "! Say which tickets to keep, e.g. 'keep T03 T10'.",
        "! First choose which tickets to keep, e.g. 'keep T03 T10'.",
        "! There is no slot 9: take a face-up card from slot 1 to 5, or 'take blind'.",
    ], refusals
    assert "On offer: T03 Chicago – Saint Louis (6); T10 New York – Montreal (8)" in out.getvalue()


async def test_typed_lines_are_read_in_compatibility_forms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A number with a zero-width space pasted after it is the list's number (before the fix it
    went to the game as its notation and was refused: Ticket to Ride would have read '1' as a
    slot), a full-width move is read as the table reads it, and 'ｑｕｉｔ' quits."""
    monkeypatch.setenv("JUNCTION_PLAYER", "Ann")
    text = await _run(tmp_path, "１\u200b\nＤＩＳＣＡＲＤ\u00a0５０\nｑｕｉｔ\n", images=False)
    assert "!" not in "".join(row[:1] for row in text.splitlines()), text
    assert "» Ann plays Go." in text and "» Ann discards 50 miles." in text, text
    assert "Game saved" in text and "End of input" not in text, text


async def test_another_game_is_refused_while_one_is_saved(tmp_path: Path) -> None:
    """The console keeps one game. Asked for another with --game while one is saved, it says
    so, changes nothing and exits 2; the saved game resumes without --game, and --new deals
    the game asked for. Found by a review of the README ("Any other game is `junction console
    --game K`"): the saved Mille Bornes game was resumed instead, --game silently ignored."""
    await _run(tmp_path, "play go\nquit\n")
    solo = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path, game="solo", images=False
    )
    out = io.StringIO()
    assert await run_console(solo, lines=io.StringIO("quit\n"), out=out) == 2
    assert out.getvalue().splitlines() == [
        "! Your Mille Bornes game #1 is still saved here: run the console without --game to "
        "resume it, or add --new to abandon it and start Mille Bornes Solo."
    ]
    assert "Resuming your Mille Bornes game #1 (" in await _run(tmp_path, "quit\n")
    out = io.StringIO()
    again = dataclasses.replace(solo, new=True)
    assert await run_console(again, lines=io.StringIO("quit\n"), out=out) == 0
    assert "New Mille Bornes Solo game #2 alone." in out.getvalue()


async def test_an_unknown_game_with_new_abandons_nothing(tmp_path: Path) -> None:
    """--new with a game that does not exist is refused before the saved game is abandoned."""
    await _run(tmp_path, "play go\nquit\n")
    typo = ConsoleOptions(
        db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path, game="sollo", new=True
    )
    out = io.StringIO()
    assert await run_console(typo, lines=io.StringIO("quit\n"), out=out) == 2
    assert out.getvalue().startswith("! There is no game called 'sollo'.")
    assert "Resuming your Mille Bornes game #1 (" in await _run(tmp_path, "quit\n")


async def test_a_hands_score_sheet_comes_before_the_next_hands_moves(tmp_path: Path) -> None:
    """The computer starts hand 2 in the same request as the move that ends hand 1: the score
    sheet follows the move that ended the hand, and the computer's first move of hand 2
    comes after it. Before the fix the sheet was printed after every caption, the next
    hand's moves included."""
    text = await _run(tmp_path, "1\n" * 400 + "quit\n", images=False)
    before, sheet = text.split("══ Hand 1: ", 1)
    assert before.splitlines()[-1].startswith("  » ") and "Hand 1 is over" in before, before
    between = sheet.split("\n── Hand 2 ·", 1)[0].splitlines()
    assert between[1:4] == [
        "  Root: 625 (Milestones +625)",
        "  Computer (random): 0 (Milestones +0)",
        "  Match: Root 625 · Computer (random) 0 (first to 5000)",
    ]
    # The new hand's first line, then its first move: "Hand 2: Computer (random) starts."
    # ended the caption of the move that ended hand 1, above the sheet, before the fix.
    assert between[4:] == [
        "  » Hand 2: Computer (random) starts.",
        "  » Computer (random) discards Go.",
    ], between
    assert "starts." not in before.splitlines()[-1], before


async def test_the_member_who_starts_the_next_hand_reads_it_after_the_score(
    tmp_path: Path,
) -> None:
    """Hand 2 ends on the computer's move and the player starts hand 3: the move that ended
    the hand, its score sheet, then "Hand 3: Root starts." right above the new table, where
    Root plays. Before the fix "Hand 3: Root starts." ended the line above the sheet."""
    text = await _run(tmp_path, "1\n" * 1500 + "quit\n", images=False)
    before, sheet = text.split("══ Hand 2: ", 1)
    assert before.splitlines()[-1] == (
        "  » Computer (random) drives 75 miles (375 so far). Hand 2 is over: the deck ran out "
        "and neither player can play."
    ), before.splitlines()[-1]
    lines = sheet.split("\n── Hand 3 ·", 1)[0].splitlines()
    assert lines[-2:] == [
        "  Match: Root 1650 · Computer (random) 675 (first to 5000)",
        "  » Hand 3: Root starts.",
    ], lines


async def test_resuming_counts_your_own_moves(tmp_path: Path) -> None:
    """The line that resumes a game counts the moves you made, a number you can use; it used
    to say "(move 2)" after your one move, counting the computer's answer (every stored move,
    which nothing on the table shows)."""
    await _run(tmp_path, "quit\n")
    assert "(you have not moved yet)" in await _run(tmp_path, "play go\nquit\n")
    text = await _run(tmp_path, "quit\n")
    assert "Resuming your Mille Bornes game #1 (after 1 move of yours)." in text, text


@pytest.mark.parametrize("game", ["mille", "solo", "race", "dragon", "ttr", "ttr-solo"])
async def test_every_table_follows_one_blank_line(tmp_path: Path, game: str) -> None:
    """Each table printed stands apart from the moves above it by one blank line, in every
    game. Before the fix the Race's, Dragon's and Ticket to Ride's tables ran on from the
    line above ("  » Computer (random) ends the turn." then "── 1000 Mile Race · …")."""
    out = io.StringIO()
    script = io.StringIO("table\n" + "1\n" * 3 + "quit\n")
    assert await run_console(_against_random(tmp_path, game, seed=3), lines=script, out=out) == 0
    rows = out.getvalue().splitlines()
    headers = [i for i, row in enumerate(rows) if row.startswith("── ")]
    assert len(headers) >= 2, out.getvalue()
    for i in headers:
        assert rows[i - 1] == "" and rows[i - 2] != "", "\n".join(rows[i - 3 : i + 1])


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"game": "nosuch"}, "nosuch"),
        ({"game": "dragon", "players": 9}, "is played by 2"),
        ({"opponent": "grandmaster"}, "grandmaster"),
        ({"options": {"deck": "purple"}}, "purple"),
    ],
)
async def test_bad_request_is_refused_before_any_database_is_made(
    tmp_path: Path, extra: dict[str, object], said: str
) -> None:
    """An unknown game, a seat count, computer level or option the game cannot take is
    refused in one sentence, and no database file is left behind."""
    out = io.StringIO()
    options = dataclasses.replace(
        ConsoleOptions(db=f"sqlite:///{tmp_path / 'console.db'}", out=tmp_path / "tables"),
        **extra,  # type: ignore[arg-type]
    )
    code = await run_console(options, lines=io.StringIO("quit\n"), out=out)
    assert code == 2
    assert said in out.getvalue()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", ["mille", "race", "dragon", "ttr"])
async def test_the_table_above_the_result_does_not_repeat_its_reason(
    tmp_path: Path, game: str
) -> None:
    """After 'resign' the result line says why the game ended; the table just above it does
    not say it again. Before the fix Ticket to Ride's table ended "Root left the game." and
    Dragon's "Root left the arena. Root left the game.", right above "🏆 … Root left the
    game." (what the table's last line says beyond the reason, "left the arena", stays)."""
    out = io.StringIO()
    options = dataclasses.replace(_against_random(tmp_path, game, seed=3), new=True)
    assert await run_console(options, lines=io.StringIO("resign\n"), out=out) == 0
    lines = out.getvalue().split("> resign", 1)[1].splitlines()
    (result,) = [n for n, line in enumerate(lines) if line.startswith("🏆 ")]
    reason = lines[result].rsplit(". ", 1)[-1]  # "Root left the game."
    header = max(n for n, line in enumerate(lines[:result]) if line.startswith("── "))
    table = lines[header:result]
    assert not [line for line in table if reason in line], (reason, table)


async def test_a_match_left_in_its_second_hand_prints_no_earlier_score_sheet(
    tmp_path: Path,
) -> None:
    """Root ends hand 1 (625 to 0, its sheet printed then) and resigns in hand 2. The console
    printed hand 1's sheet again after the result, as if that hand had decided the match; the
    hand left is never scored, so the result line ends the game alone."""
    text = await _run(tmp_path, "1\n" * 8 + "resign\n", images=False)
    assert "── Hand 2 ·" in text and text.count("══ Hand 1: ") == 1, text
    after = text.split("> resign", 1)[1]
    assert "🏆 Computer (random) won! Root 625 · Computer (random) 0. Root left the game." in after
    assert "══" not in after, after
