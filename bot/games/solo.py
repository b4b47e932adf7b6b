"""Mille Bornes Solo as a Junction game: the open hand's moves on the table, hints, the daily
deal and a leaderboard of best runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.ai.easy import easy
from bot.ai.solo_policies import ExpertSoloPolicy, GreedySoloPolicy, hint, rank_moves
from bot.engine.core import Outcome
from bot.engine.mille.cards import Card, distance_word
from bot.engine.solo import GAME
from bot.engine.solo.game import SUGGESTED
from bot.engine.solo.views import SoloPublicView, SoloSeatView
from bot.games.bundle import ButtonSpec, ButtonStyle, GameBundle, MoveChoice, Picker, Presenter
from bot.games.rules_text import in_short
from bot.render.solo import hand_png, result_png, result_words, table_png


def _public(view: SoloPublicView | SoloSeatView) -> SoloPublicView:
    return view.public if isinstance(view, SoloSeatView) else view


def table_pickers(view: SoloPublicView | SoloSeatView) -> list[Picker]:
    """Every move, the expert's favourite first: the hand is open, so the table offers them
    (Discord fits 25 buttons; one row stays free for the bot's own)."""
    table = _public(view)
    if table.result is not None or not table.legal:
        return []
    lang = table.lang
    specs: list[Picker] = []
    for rank, (notation, _) in enumerate(rank_moves(table)[:24]):
        words = notation.split()
        number = int(words[1] if words[0] == "clear" else words[3])
        top = table.highways[number - 1].top
        on = top.name_in(lang) if top is not None else "?"
        if words[0] == "sacrifice":
            label = f"{number}: sacrifice a claimed {words[1]}"
            style: ButtonStyle = "danger"
        else:
            card = Card(words[3])
            label = f"{number}: {card.name_in(lang)} on {on}"
            style = "primary" if card.is_distance or (top and top.is_distance) else "secondary"
        if rank != 0:
            specs.append(ButtonSpec(label[:80], notation, style))
            continue
        # The favourite's words say it is suggested (a screen reader reads the star "star"),
        # kept whole at Discord's 80 characters; the star and the green only show it.
        label = label[: 80 - len(SUGGESTED)] + SUGGESTED
        specs.append(ButtonSpec(label, notation, "success", "⭐"))
    return specs


def hand_pickers(view: SoloSeatView, moves: Sequence[MoveChoice]) -> list[Picker]:
    return table_pickers(view)


def round_finished(
    before: SoloPublicView | SoloSeatView, after: SoloPublicView | SoloSeatView
) -> bool:
    return _public(before).result is None and _public(after).result is not None


def solo_hint(view: SoloPublicView | SoloSeatView) -> tuple[str, str] | None:
    move, reason = hint(view)
    return (move, reason) if move else None


def console_table(view: SoloPublicView) -> str:
    lines = [
        "",
        f"── Mille Bornes Solo · preset {view.preset} · tank {view.tank_count} · "
        f"cleared {view.cleared}/49 · {view.mileage} {distance_word(view.lang)} ──",
    ]
    for number, highway in enumerate(view.highways, start=1):
        top = highway.top.name_in(view.lang) if highway.top is not None else "(empty)"
        lines.append(f"  highway {number}: {top:<20} {highway.hidden} face down")
    # The hand lies open on the table image: its words (the alt text) say it too.
    cards = ", ".join(card.name_in(view.lang) for card in view.hand)
    lines.append(f"  hand: {cards or 'empty'}")
    if view.caption:
        lines.append(f"  {view.caption}")
    return "\n".join(lines)


def console_hand(view: SoloSeatView) -> str:
    cards = ", ".join(card.name_in(view.public.lang) for card in view.public.hand)
    return f"Your hand: {cards}"


def arena_metrics(view: SoloPublicView, outcome: Outcome) -> dict[str, float]:
    """Cards cleared, miles and hands thrown away per deal."""
    return {
        "cleared": float(view.cleared),
        "miles": float(view.mileage),
        "wipes": float(view.wipes),
    }


def winnable(options: Mapping[str, str]) -> bool:
    """Whether a game with these (stored) options could be won: every preset but ``classic``
    (the printed rules, and the daily deal), a score attack nobody clears completely. A result
    stored without a preset was played at the game's default."""
    preset = options.get("preset", GAME.resolve_options({})["preset"])
    return preset != "classic"


def start_notice(options: Mapping[str, str]) -> str:
    """The literal solitaire cannot be won: say so before anyone tries. The daily deal takes
    no options, so there it names no other preset to try."""
    if winnable(options):
        return ""
    if options.get("daily"):
        return (
            "The daily deal uses the classic preset, which cannot be cleared completely: it is "
            f"a score attack on cards cleared, then {distance_word(options.get('names', 'en'))}."
        )
    return (
        "The classic preset cannot be cleared completely: it is a score attack on cards "
        "cleared. For a winnable game use `options: preset:refuel` or `preset:easy`."
    )


FALLBACK_RULES = """**Mille Bornes Solo** — clear all 49 cards from the seven highways by \
pairing cards from your hand with the highway tops. Full rules: docs/rules/solo.md."""

BUNDLE = GameBundle(
    game=GAME,
    presenter=Presenter(
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        result_text=result_words,
        hand_pickers=hand_pickers,
        table_pickers=table_pickers,
        round_finished=round_finished,
        rules=in_short("solo", FALLBACK_RULES),
        hint=solo_hint,
        console_table=console_table,
        console_hand=console_hand,
        start_notice=start_notice,
    ),
    policies={
        "expert": ExpertSoloPolicy,
        "greedy": GreedySoloPolicy,
        "easy": easy(ExpertSoloPolicy),
    },
    default_policy="expert",
    arena_metrics=arena_metrics,
    display_options=frozenset({"names"}),  # English or French card names: the same game
    winnable=winnable,
)
__all__ = ["BUNDLE"]
