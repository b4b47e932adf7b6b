"""Alt text for the images the bot posts, so a member using a screen reader can play.

Discord reads an attachment's *description* aloud in place of the picture. Every image the bot
sends carries one made from the same input as the picture: a table from the public view (the
console's text table), a hand from its owner's view (sent only to them), a leaderboard from its
rows, a stats card from its figures. Nothing here sees more than its image shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.words import plural
from bot.render.leaderboard import TOP_N, LeaderboardRow
from bot.render.stats import (
    MemberStats,
    board_caption,
    board_value_text,
    off_board_note,
    rated_games,
    solitaire_record,
    solitaire_win_rate,
)

DESCRIPTION_LIMIT = 1024
"""Discord's longest attachment description, in characters."""

_UNCUT = 1 << 30
"""A limit no text reaches: ``described`` then only says it."""
_DECORATION = "─▶ "
_TURN = "▶"
"""The console tables' marker of the seat to play: read out as words, not dropped."""


def described(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """``text`` as one attachment description: the console's rules and markers dropped, whole
    lines kept while they fit, and a cut line ended with "…" (a clipped word reads badly)."""
    lines = [_spoken(line) for line in text.splitlines()]
    kept: list[str] = []
    used = 0
    for line in (line for line in lines if line):
        gap = 1 if kept else 0  # the newline before it
        room = limit - used - gap
        if len(line) <= room:
            kept.append(line)
            used += gap + len(line)
            continue
        if room > 1:
            kept.append(line[: room - 1].rstrip() + "…")
        break
    return "\n".join(kept) or "(empty)"


def described_fitting(texts: Sequence[tuple[str, str]], limit: int = DESCRIPTION_LIMIT) -> str:
    """The fullest of ``texts`` (the fullest first, each as what must be said whole and what may
    be cut after it) whose first part fits ``limit`` as said, cut at the limit after it; the
    last, cut, when none fits."""
    told = [described(f"{whole}\n{rest}", limit) for whole, rest in texts]
    for (whole, _), said in zip(texts, told, strict=True):
        if len(described(whole, _UNCUT)) <= limit:
            return said
    return told[-1] if told else described("")


def _spoken(line: str) -> str:
    """A console line without its rules and markers; the turn marker becomes "to play:"."""
    bare = line.strip(_DECORATION)
    return f"to play: {bare}" if bare and line.lstrip().startswith(_TURN) else bare


def _record(row: LeaderboardRow, value_label: str) -> str:
    # A column headed "Cleared /49" is read out "cleared 30/49", not "cleared /49 30".
    label, _, out_of = value_label.lower().partition(" /")
    value = f"{label} {row.value:,}/{out_of}" if out_of else f"{label} {row.value:,}"
    line = f"{row.rank}. {row.name}, {value}, {plural(row.games, 'game')}"
    if row.win_rate is not None:
        line += f", {round(100 * row.win_rate)}% won"
    return line


def board_text(
    title: str,
    rows: Sequence[LeaderboardRow],
    caller_row: LeaderboardRow | None,
    period_label: str,
    value_label: str,
) -> str:
    """What the leaderboard image shows, a line per row: the top ten, the caller's own row marked
    among them or, when lower down, added last (as the image draws it)."""
    period = f", {period_label}" if period_label else ""
    lines = [f"Leaderboard: {title}{period}."]
    shown = list(rows[:TOP_N])
    for row in shown:
        mine = " (you)" if row == caller_row else ""
        lines.append(_record(row, value_label) + mine)
    if caller_row is not None and caller_row not in shown:
        lines.append("You: " + _record(caller_row, value_label))
    elif shown:  # the image's note under the rows, where the caller's row is not drawn
        lines.append(f"{plural(len(rows), 'player')} on this board.")
    if not shown and caller_row is None:
        lines.append("Nobody is ranked yet.")
    return described("\n".join(lines))


def stats_text(card: MemberStats) -> str:
    """What a member's stats card shows, in a few sentences."""
    lines = [f"Stats of {card.name}, {card.scope_label}."]
    if card.solitaire:
        return described("\n".join(lines + _solitaire_lines(card)))
    if card.rating is not None:
        rating = f"Rating {card.rating:,}"
        if card.rank is not None and card.ranked_players:
            rating += f", {card.rank} of {card.ranked_players} on the ladder"
        lines.append(rating + ".")
    rated = card.wins + card.losses + card.draws
    # The win rate and the chart's peak, as the image shows them.
    rate = f", {round(100 * (card.wins + 0.5 * card.draws) / rated)}% won" if rated else ""
    lines.append(
        f"{plural(card.games, 'game')}; rated record {card.wins} won, {card.losses} lost, "
        f"{card.draws} drawn{rate}."
    )
    if card.history:
        peak = max(point.rating for point in card.history)
        count = plural(rated_games(card.history), "rated game")
        lines.append(f"Rating over time: {count}, peak {peak:,}.")
    if card.favourite_game:
        lines.append(f"Favourite game: {card.favourite_game} ({card.favourite_game_plays}).")
    for rival in card.opponents:
        lines.append(f"Against {rival.name}: {rival.wins}–{rival.losses}–{rival.draws}.")
    for best in card.best:
        detail = f" ({best.detail})" if best.detail else ""
        lines.append(f"{best.label}: {best.value}{detail}.")
    return described("\n".join(lines))


def _solitaire_lines(card: MemberStats) -> list[str]:
    """A solitaire's card in words: its record, its best on the board, favourite and bests."""
    record = {label: value for label, value in solitaire_record(card)}
    line = f"{plural(record['PLAYED'], 'game')} played"
    if card.winnable:
        line += f": {record['WON']} won, {record['LOST']} lost"
        rate = solitaire_win_rate(card)
        if rate is not None:
            line += f", {round(100 * rate)}% won"
    lines = [line + "."]
    label = board_caption(card.board_label).lower()
    if card.board_value is None:
        # As the header's "CLEARED —": "No result on the best-results board (cleared /49)
        # yet." was read out slash and all, a "49" the card does not show.
        lines.append(f"Best {label} on the best-results board: none yet. {off_board_note(card)}")
    else:
        best = f"{label} {board_value_text(card.board_label, card.board_value)}"
        place = ""
        if card.rank is not None and card.ranked_players:
            place = f", {card.rank} of {card.ranked_players} on the board"
        lines.append(f"Best on the best-results board: {best}{place}.")
    if card.favourite_game:
        lines.append(f"Favourite game: {card.favourite_game} ({card.favourite_game_plays}).")
    for best_line in card.best:
        detail = f" ({best_line.detail})" if best_line.detail else ""
        lines.append(f"{best_line.label}: {best_line.value}{detail}.")
    return lines


__all__ = ["DESCRIPTION_LIMIT", "board_text", "described", "described_fitting", "stats_text"]
