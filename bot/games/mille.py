"""Classic Mille Bornes as a Junction game: its engine, pictures, pickers, texts and players."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.mille_expert import MilleExpertPolicy
from bot.ai.mille_expert import hint as expert_hint
from bot.ai.mille_normal import NormalMillePolicy
from bot.engine.core import Outcome
from bot.engine.mille import GAME
from bot.engine.mille.cards import Card, distance_word, in_deck_order
from bot.engine.mille.rules import hand_opening
from bot.engine.mille.state import HandResult
from bot.engine.mille.views import MillePublicView, MilleSeatView
from bot.games.bundle import ButtonSpec, GameBundle, MoveChoice, Picker, Presenter, computer_players
from bot.games.rules_text import in_short
from bot.render.mille import hand_png, result_png, table_png


def table_pickers(view: MillePublicView) -> list[Picker]:
    """The extension question is public (everyone sees the 700 on the table); nothing else
    the player to act may do can be shown without revealing their hand."""
    if view.phase == "extension":
        return [
            ButtonSpec("Go on to 1000!", "extend yes", "success", "🏁"),
            ButtonSpec("Stop at 700", "extend no", "secondary", "🛑"),
        ]
    return []


def hand_pickers(view: MilleSeatView, moves: Sequence[MoveChoice]) -> list[Picker]:
    """A button per legal move, coloured by what the card does."""
    lang = view.public.lang
    specs: list[Picker] = []
    for move in moves:
        notation = move.notation
        verb, _, code = notation.partition(" ")
        if verb == "draw":
            specs.append(ButtonSpec("Draw", notation, "secondary", "🂠"))
        elif verb == "extend":
            yes = code == "yes"
            label = "Go on to 1000!" if yes else "Stop at 700"
            specs.append(ButtonSpec(label, notation, "success" if yes else "secondary"))
        elif verb == "play":
            card = Card(code)
            if view.phase == "draw":
                # The engine's words say whether it is a coup fourré (the hazard came since the
                # last draw) or only a safety played before drawing.
                coup = move.label.startswith("Coup fourré")
                emoji = "⚡" if coup else "🛡"
                specs.append(ButtonSpec(move.label[:80], notation, "success", emoji))
            elif card.is_hazard:
                # The engine's words name the target ("Out of Gas on Bob"), as Dragon's do.
                specs.append(ButtonSpec(move.label[:80], notation, "danger"))
            elif card.is_safety:
                specs.append(ButtonSpec(card.name_in(lang), notation, "success", "🛡"))
            else:
                specs.append(ButtonSpec(card.name_in(lang), notation, "primary"))
        else:
            specs.append(ButtonSpec(f"Discard {Card(code).name_in(lang)}", notation))
    return specs


def round_finished(before: MillePublicView, after: MillePublicView) -> bool:
    """A hand was scored: post its score sheet."""
    return len(after.results) > len(before.results)


def round_opening(view: MillePublicView, caption: str) -> tuple[str, str]:
    """The caption of the move that ended a hand ("… Hand 1 is over: … Hand 2: Bob starts."),
    split before the new hand's first line: that line heads the new hand's table, where the
    player who starts must act, instead of closing the finished hand's message."""
    for name in view.players:
        opening = hand_opening(view.hand_number, name)
        if caption.endswith(f" {opening}"):
            return caption[: -len(opening)].rstrip(), opening
    return caption, ""


# --- console ---------------------------------------------------------------------------------


def console_table(view: MillePublicView) -> str:
    """The table in a few lines of text (the last hand's score is ``last_result_text``: the
    table's alt text said it before every table of the next hand)."""
    # The match's goal, as the image's corner says it: the score column means nothing without.
    match = "single hand" if view.match_target is None else f"match to {view.match_target}"
    lines = [
        "",
        f"── Hand {view.hand_number} · trip {view.target} · deck {view.deck_count} cards "
        f"· discard {len(view.discard)} · {match} ──",
    ]
    lang = view.lang  # the image's card names, French with names: fr
    unit = distance_word(lang, short=True)  # "150 bornes" beside the card "75 bornes"
    for t in view.tableaus:
        marker = "▶" if view.turn == t.seat and view.winners is None else " "
        # A word for the empty pile: a screen reader read the dash as "em dash".
        battle = t.battle_top.name_in(lang) if t.battle_top else "none"
        speed = Card.SPEED_LIMIT.name_in(lang) if t.limited else "no limit"
        safeties = ", ".join(
            c.name_in(lang) + (" (coup fourré)" if c in t.coups else "") for c in t.safeties
        )
        status = "moving" if t.can_go else "stopped"
        lines.append(
            f"{marker} {t.name:<18} {t.mileage:>4} {unit}  score {t.score:<5} {status}, {speed}; "
            f"battle: {battle}; hand {t.hand_count}"
        )
        if safeties:
            lines.append(f"    safeties: {safeties}")
    if view.caption:
        lines.append(f"  {view.caption}")
    return "\n".join(lines)


def result_text(view: MillePublicView, result: HandResult) -> str:
    """A finished hand's score breakdown, both players side by side."""
    lines = [f"══ Hand {result.number}: {result.reason} ══"]
    for seat, seat_lines in enumerate(result.lines):
        # "+400" as the score image has it: "Safeties ×4 400" read as one number.
        parts = ", ".join(f"{line.label} +{line.points}" for line in seat_lines)
        lines.append(f"  {view.players[seat]}: {result.totals[seat]} ({parts})")
    if view.match_target is not None:
        # The image's banner: the match's totals once this hand was scored, so a member using
        # a screen reader knows where the match stands (the hand's totals alone did not say).
        counted = [r for r in view.results if r.number <= result.number] or [result]
        totals = " · ".join(
            f"{name} {sum(r.totals[seat] for r in counted)}"
            for seat, name in enumerate(view.players)
        )
        lines.append(f"  Match: {totals} (first to {view.match_target})")
    return "\n".join(lines)


def last_result_text(view: MillePublicView) -> str:
    """The score image in words: the breakdown of the hand that just ended (none when a
    player left the match mid-hand: no hand just ended, as ``result_png`` shows none)."""
    return result_text(view, view.results[-1]) if view.results and not view.left_mid_hand else ""


def console_hand(view: MilleSeatView) -> str:
    # The hand image's order (the buttons' too), so the words read as the picture does.
    hand = in_deck_order(view.hand)
    cards = ", ".join(card.name_in(view.public.lang) for card in hand)
    if view.phase == "draw":
        # A coup fourré only if the hazard landed since the last draw (``view.coups``).
        offer = "coup fourré?" if view.coups else "play it before drawing?"
        return f"Your hand: {cards}\nA hazard is on you and you hold its safety: {offer}"
    if view.phase == "extension":
        return f"Your hand: {cards}\nYou reached 700! Go on to 1000?"
    if view.phase == "act":
        # What the hand image marks under each card (PLAY, or discard only): the hand alone
        # did not tell a screen reader which cards could be played.
        playable = dict.fromkeys(
            card.name_in(view.public.lang) for card in hand if f"play {card.value}" in view.legal
        )
        can = f"playable now: {', '.join(playable)}; or" if playable else "nothing to play now:"
        return f"Your hand: {cards}\nYour turn — {can} discard a card"
    return f"Your hand: {cards}"


def arena_metrics(view: MillePublicView, outcome: Outcome) -> dict[str, float]:
    """Hands per match and how often the extension was called in the last hand."""
    return {"hands": float(len(view.results)), "extension": float(view.extension_called)}


FALLBACK_RULES = """**Mille Bornes** — race to exactly **700 miles** (1000 with an extension). \
Each turn draw a card, then play one or discard one. Hazards stop your rival; remedies and \
safeties answer them. Full rules: docs/rules/mille.md."""

BUNDLE = GameBundle(
    game=GAME,
    presenter=Presenter(
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        hand_pickers=hand_pickers,
        table_pickers=table_pickers,
        round_finished=round_finished,
        rules=in_short("mille", FALLBACK_RULES),
        hint=expert_hint,
        console_table=console_table,
        console_hand=console_hand,
        result_text=last_result_text,
        round_opening=round_opening,
    ),
    policies=computer_players(NormalMillePolicy, MilleExpertPolicy),
    default_policy="normal",
    arena_metrics=arena_metrics,
)
__all__ = ["BUNDLE"]
