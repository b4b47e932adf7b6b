"""1000 Mile Race as a Junction game: both fields on the table, the hand with its moves, a
multi-select for cycling, reaction buttons in the hand, and the computer player."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.race_expert import RaceExpertPolicy
from bot.ai.race_expert import hint as expert_hint
from bot.ai.race_normal import NormalRacePolicy
from bot.engine.core import Outcome
from bot.engine.race import GAME
from bot.engine.race.cards import NAME, TYPE_OF
from bot.engine.race.hands import drawable
from bot.engine.race.views import RacePublicView, RaceSeatView
from bot.games.bundle import (
    ButtonSpec,
    ButtonStyle,
    ChoiceSpec,
    GameBundle,
    MoveChoice,
    Picker,
    Presenter,
    SelectSpec,
    computer_players,
)
from bot.games.rules_text import in_short
from bot.render.race import hand_png, phase_line, table_png

_STYLE: dict[str, ButtonStyle] = {
    "miles": "primary",
    "hazard": "danger",
    "removal": "success",
    "trump": "success",
    "cheat": "secondary",
}


def hand_pickers(view: RaceSeatView, moves: Sequence[MoveChoice]) -> list[Picker]:
    """A button per play, answer or discard; every cycle as one multi-select of the hand."""
    pickers: list[Picker] = []
    cycles = False
    for move in moves:
        verb, _, rest = move.notation.partition(" ")
        if verb == "cycle":
            cycles = True
            continue
        card = rest.split(" ")[0] if rest else ""
        if verb in ("react", "pass"):
            style: ButtonStyle = "success" if verb == "react" else "secondary"
            emoji = "⚡" if verb == "react" else None
            pickers.append(ButtonSpec(move.label[:80], move.notation, style, emoji))
        elif verb == "end":
            pickers.append(ButtonSpec("End turn", move.notation, "secondary", "⏭"))
        else:
            kind = TYPE_OF.get(card, "cheat")
            pickers.append(
                ButtonSpec(move.label[:80], move.notation, _STYLE.get(kind, "secondary"))
            )
    if len(pickers) > 15:
        # Many plays (a big hand with tow-truck targets): one menu for all of them.
        plays = tuple(
            ChoiceSpec(p.label[:100], p.notation) for p in pickers if isinstance(p, ButtonSpec)
        )
        pickers = [SelectSpec("Play a card", plays)]
    if cycles:
        # Every sub-multiset of the hand is a legal cycle: pick the cards instead of a cycle.
        counts: dict[str, int] = {}
        choices: list[ChoiceSpec] = []
        for card in view.hand:
            counts[card] = counts.get(card, 0) + 1
            kind = TYPE_OF[card]
            choices.append(ChoiceSpec(NAME[card], f"{card}#{counts[card]}", kind))
        side = view.public.sides[view.seat]
        # With the library and the one reshuffle spent a cycle draws nothing (its moves say
        # "nothing left to draw"); the menu promised a card per type all the same.
        spent = not drawable(side.library_count, len(side.junkyard), side.reshuffled, 1)
        pickers.append(
            SelectSpec(
                "Cycle: junk cards (your library is spent: nothing is drawn)"
                if spent
                else "Cycle: junk cards (draw one per card type junked)",
                tuple(choices),
                min_values=1,
                max_values=len(choices),
                prefix="cycle",
            )
        )
    return pickers


_ACTS = {"react": "may react", "discard": "discarding"}
"""What the acting seat is doing, in the table image's words ("▶ MAY REACT", "▶ DISCARDING"),
where it is not an ordinary play."""


def console_table(view: RacePublicView) -> str:
    return _table_text(view, said=False)


def alt_tables(view: RacePublicView) -> list[tuple[str, str]]:
    """The table in words for its image's description: the console's table, with the seat
    asked to react or discarding said so ("may react: Bob (Blue): …"), as the image's chip
    says it. The console's "▶" is read "to play:", which the alt text said of Bob while the
    image said MAY REACT."""
    return [(_table_text(view, said=True), "")]


def _table_text(view: RacePublicView, said: bool) -> str:
    """The table as text; ``said``: for a screen reader, the acting seat's line led by what it
    does in words rather than by the marker (read "to play:") where it is not an ordinary
    play."""
    # Words, not the engine's phase names ("play", "react", "discard"): this text is also the
    # table image's alt text, which a screen reader reads out (found by a newcomer's review).
    if view.is_over:
        now = "the race is over"
    elif view.phase == "react" and view.reactor is not None:
        now = f"{view.players[view.reactor]} may react"
    elif view.phase == "discard":
        now = f"{view.players[view.turn]} discards down to {view.hand_limit}"
    else:
        now = f"{view.players[view.turn]} to play"
    lines = [f"── 1000 Mile Race · turn {view.turn_number} · {now} ──"]
    # The seat that must act, as the image frames it: in an answer window the one asked to
    # answer, not the player whose turn it is (the alt text read "to play: Alice" while Bob was
    # asked to react).
    acting = view.reactor if view.phase == "react" else view.turn
    for side in view.sides:
        marker = "▶" if acting == side.seat and not view.is_over else " "
        if said and marker == "▶" and view.phase in _ACTS:
            marker = f"{_ACTS[view.phase]}:"
        hazards = ", ".join(NAME[h] for h in side.hazards) or "none"
        trumps = ", ".join(NAME[t] for t in side.trumps) or "none"
        junkyard = (
            f"junkyard {len(side.junkyard)} (top {NAME[side.junkyard[-1]]})"
            if side.junkyard
            else "junkyard empty"
        )
        lines.append(
            f"{marker} {side.name} ({side.colour}): {side.total} miles; hazards {hazards}; "
            f"trumps {trumps}; hand {side.hand_count}, library {side.library_count}, {junkyard}"
        )
    if view.stack:
        waiting = ", ".join(NAME[c.card] for c in view.stack)
        lines.append(f"  waiting for a reaction: {waiting}")
    if view.caption:
        lines.append(f"  {view.caption}")
    return "\n".join(lines)


def console_hand(view: RaceSeatView) -> str:
    hand = f"Your hand: {', '.join(NAME[c] for c in view.hand)}"
    if view.phase == "discard":
        # As the hand image's top line says: the hand alone did not tell a screen reader (or
        # the console) that cards must go before the turn can end.
        return f"{hand}\n{phase_line(view)}"
    if view.phase in ("play", "react"):
        # What the hand image says above and under the cards (its top line, PLAY or REACT!
        # under a card): the hand alone did not tell a screen reader which cards it could use.
        verb = "play" if view.phase == "play" else "react"
        codes = {
            words[1]
            for words in (text.split() for text in view.legal)
            if len(words) > 1 and words[0] == verb
        }
        usable = dict.fromkeys(NAME[card] for card in view.hand if card in codes)
        said = ", ".join(usable) or "none"
        told = f"Playable now: {said}" if verb == "play" else f"React with: {said}"
        return f"{hand}\n{phase_line(view)}\n{told}"
    return hand


def result_png(view: RacePublicView) -> bytes:
    """The table says who won; there is no separate score sheet."""
    return b""


def arena_metrics(view: RacePublicView, outcome: Outcome) -> dict[str, float]:
    """How far each game got: turns, and whether someone reached exactly 1000."""
    return {
        "turns": float(view.turn_number),
        "finished_at_1000": float(any(s.total == view.target for s in view.sides)),
    }


FALLBACK_RULES = """**1000 Mile Race** — two decks; whoever ends their own turn with exactly \
1000 miles wins. Full rules: docs/rules/race.md."""

BUNDLE = GameBundle(
    game=GAME,
    presenter=Presenter(
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        hand_pickers=hand_pickers,
        rules=in_short("race", FALLBACK_RULES),
        console_table=console_table,
        console_hand=console_hand,
        hint=expert_hint,
        alt_tables=alt_tables,
    ),
    policies=computer_players(NormalRacePolicy, RaceExpertPolicy),
    default_policy="normal",
    arena_metrics=arena_metrics,
)
__all__ = ["BUNDLE"]
