"""Ticket to Ride: The Card Game as a Junction game: the draw area and Railyards on the table,
the hand grouped by colour with its tickets, Railyard plays and ticket choices as multi-selects
(a huge hand's Railyard sets as a choice of colour, then of the set), and the final scoring as an
image."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.ttr_expert import TtrExpertPolicy
from bot.ai.ttr_expert import hint as expert_hint
from bot.ai.ttr_normal import NormalTtrPolicy
from bot.engine.core import Outcome
from bot.engine.ttr import GAME
from bot.engine.ttr.cards import (
    CARD_CODES,
    CARD_NAMES,
    CITIES,
    CITY_BONUS,
    COLOURS,
    TICKETS,
    set_words,
)
from bot.engine.ttr.state import Action
from bot.engine.ttr.views import TtrPublicView, TtrSeatView, robbed_by
from bot.engine.words import plural
from bot.games.bundle import (
    ButtonSpec,
    ButtonStyle,
    ChoiceSpec,
    GameBundle,
    GroupSpec,
    MoveChoice,
    Picker,
    Presenter,
    SelectSpec,
    computer_players,
)
from bot.games.rules_text import in_short
from bot.render.ttr import hand_png, phase_line, result_png, table_png

PER_SELECT = 25  # a Discord select offers 25 choices
PER_MESSAGE = 25  # a target picker's choices are buttons in one message: 25 at most


def hand_pickers(view: TtrSeatView, moves: Sequence[MoveChoice]) -> list[Picker]:
    """Draws as buttons; the Railyard as a multi-select of the hand's cards (a huge hand: a
    button per colour that asks which set); tickets to keep as a multi-select with the keep
    rule's minimum."""
    pickers: list[Picker] = []
    yard: list[MoveChoice] = []
    keeps = False
    for move in moves:
        verb = move.notation.split()[0]
        if verb == "yard":
            yard.append(move)
        elif verb == "keep":
            keeps = True
        else:
            style: ButtonStyle = "primary" if verb == "take" else "secondary"
            pickers.append(ButtonSpec(move.label[:80], move.notation, style))
    if keeps:
        pickers.extend(_keep_pickers(view))
    if yard:
        pickers.extend(_yard_pickers(view, yard))
    return pickers


def _keep_pickers(view: TtrSeatView) -> list[Picker]:
    choices = tuple(
        ChoiceSpec(f"{t.code} {t.route} ({t.points})"[:100], t.code, t.requirement()[:100])
        for t in view.offered
    )
    least = max(1, view.keep_minimum)
    # The menu takes at least one ticket ("Keep none" is its own button when allowed); solo
    # openings must keep the highest-value ticket, and say so before a refusal does.
    # Drawn mid-game, any number may be kept: "at least 1" beside "Keep none" contradicted it.
    rule = f"at least {least}" if view.keep_minimum else "one or more, or press Keep none"
    if view.keep_one_of:
        rule += f", including {' or '.join(t.code for t in view.keep_one_of)}"
    pickers: list[Picker] = [
        SelectSpec(
            f"Keep tickets ({rule})"[:150],
            choices,
            min_values=least,
            max_values=len(choices),
            prefix="keep",
        )
    ]
    if view.keep_minimum == 0:
        pickers.append(ButtonSpec("Keep none", "keep none", "secondary"))
    return pickers


def _yard_pickers(view: TtrSeatView, plays: Sequence[MoveChoice]) -> list[Picker]:
    """Pick the cards to play; with more than 25 cards in hand (too many for one menu), a
    button per colour that asks which of its legal sets to play, and three singles by their
    colours (listing every three of eight colours would take more menus than a message holds).

    Every legal set stays a press or two away: a hand's legal sets can run to hundreds (ten
    Reds and sixteen Locomotives make 169), more than any list of menus in one message.
    """
    cards = [code for code, count in zip(CARD_CODES, view.hand, strict=True) for _ in range(count)]
    if 2 <= len(cards) <= PER_SELECT:
        counts: dict[str, int] = {}
        choices: list[ChoiceSpec] = []
        for code in cards:
            counts[code] = counts.get(code, 0) + 1
            name = CARD_NAMES[CARD_CODES.index(code)]
            choices.append(ChoiceSpec(name, f"{code}#{counts[code]}"))
        return [
            SelectSpec(
                "Play to your Railyard (cards of one colour, or three singles)",
                tuple(choices),
                min_values=2,
                max_values=len(choices),
                prefix="yard",
            )
        ]
    singles: list[MoveChoice] = []
    colours: dict[int, list[tuple[Action, MoveChoice]]] = {}
    for move in plays:
        action = GAME.parse_action(move.notation)
        if action.singles:
            singles.append(move)
        else:
            colours.setdefault(action.colour, []).append((action, move))
    pickers: list[Picker] = [_colour_picker(view, c, sets) for c, sets in colours.items()]
    if singles:
        kinds = sorted({word for m in singles for word in m.notation.split()[1:]})
        pickers.append(
            SelectSpec(
                "Play three singles to your Railyard: pick their colours",
                tuple(ChoiceSpec(CARD_NAMES[CARD_CODES.index(kind)], kind) for kind in kinds),
                min_values=3,
                max_values=3,
                prefix="yard",
            )
        )
    return pickers


def _colour_picker(
    view: TtrSeatView, colour: int, sets: Sequence[tuple[Action, MoveChoice]]
) -> Picker:
    """The button "Play Red", which asks which Red set to play (``sets``: the colour's legal
    sets with their moves); a colour with one legal set plays it at once. More sets than a
    message holds ask in two steps: how many Red, then how many Locomotives join them (at most
    10 and 17 choices). Sets are worded and their robberies told by the engine's own functions,
    so a button names its set as the move's description does."""
    name = CARD_NAMES[colour]
    if len(sets) == 1:
        action, move = sets[0]
        label = set_words(colour, action.naturals, action.locos)
        return ButtonSpec(f"Play {label}", move.notation, "success", "🚂")
    # Every legal set of a colour robs the same Railyards (each is bigger than every rival set).
    robs = robbed_by(view.public, view.seat, sets[0][0])
    note = f" It robs {robs}." if robs else ""
    buttons = [
        (a.naturals, ButtonSpec(set_words(colour, a.naturals, a.locos), m.notation, "success"))
        for a, m in sets
    ]
    options: list[ButtonSpec | GroupSpec] = []
    if len(sets) <= PER_MESSAGE:
        options = [button for _, button in buttons]
        prompt = "Which set goes to your Railyard?"
    else:
        sizes: dict[int, list[ButtonSpec]] = {}
        for n, button in buttons:
            sizes.setdefault(n, []).append(button)
        for n, same in sizes.items():
            if len(same) == 1:
                options.append(same[0])
            else:
                # "1 Red: How many Locomotives join it?" ("join them" of one card read wrong).
                them = "it" if n == 1 else "them"
                options.append(
                    GroupSpec(
                        f"{n} {name}…",
                        tuple(same),
                        "success",
                        prompt=f"How many Locomotives join {them}?",
                    )
                )
        prompt = f"How many {name} go to your Railyard?"
    return GroupSpec(f"Play {name}", tuple(options), "success", "🚂", f"{prompt}{note}")


def _card_name(code: str | None) -> str:
    """A face-up card as the captions call it ("Red", "Locomotive"); "empty" for an empty slot
    (a screen reader read a dash as "em dash")."""
    return "empty" if code is None else CARD_NAMES[CARD_CODES.index(code)]


def console_table(view: TtrPublicView) -> str:
    slots = ", ".join(map(_card_name, view.slots))
    title = "Ticket to Ride Solo" if view.solo else "Ticket to Ride"
    lines = [f"── {title} · deck {view.deck_count} · discard {view.discard_count} ──"]
    lines.append(f"  draw area: {slots}")
    if view.solo:
        lines.append(
            f"  Station Clock: {_card_name(view.clock_card)}, "
            f"turn {view.clock_turn}/{view.clock_turns}"
        )
    for seat in view.seats:
        marker = "▶" if view.turn == seat.seat else " "
        if seat.left:
            # As the image's LEFT chip says: "hand 0, Railyard empty, …" read as a player
            # still at the table with nothing in hand.
            lines.append(f"{marker} {seat.name}: left the game")
            continue
        # The alt text reads these lines out: sets in the words the captions use.
        sets = [set_words(COLOURS.index(s.colour), s.naturals, s.locos) for s in seat.yard]
        yard = ", ".join(sets) or "empty"
        # Tickets still to choose from, as the image's chip says ("tickets 1 (+4 to choose)").
        choosing = f" (+{seat.choosing} to choose)" if seat.choosing else ""
        lines.append(
            f"{marker} {seat.name}: hand {seat.hand_count}, Railyard {yard}, "
            f"On-the-Track {seat.track_count}, tickets {seat.ticket_count}{choosing}"
        )
    if view.caption:
        lines.append(f"  {view.caption}")
    return "\n".join(lines)


def console_hand(view: TtrSeatView) -> str:
    cards = ", ".join(
        plural(n, name) if name == "Locomotive" else f"{n} {name}"
        for name, n in zip(CARD_NAMES, view.hand, strict=True)
        if n
    )
    tickets = "; ".join(f"{t.code} {t.route} {t.requirement()} ({t.points})" for t in view.tickets)
    offered = "; ".join(f"{t.code} {t.route} ({t.points})" for t in view.offered)
    text = f"Your hand: {cards or 'empty'}"
    if offered:
        # As the hand image's top line says: tickets on offer are a choice to make now. Said
        # before the tickets held: after fifteen of them the choice ran past an alt text's
        # 1,024 characters, and a screen reader never heard what was on offer.
        text += f"\n{phase_line(view)}\nOn offer: {offered}"
    return f"{text}\nYour tickets: {tickets or 'none'}"


def result_text(view: TtrPublicView) -> str:
    """The final scoring in words, as the score image shows it: each total with its tickets
    (completed or not, with their points) and the Big Cities each player took. It is the score
    image's alt text and the console's lines at the end (before, both gave the totals only)."""
    result = view.result
    if result is None:
        return ""
    names = [*view.players]
    if view.solo:
        headline = "you beat the hidden tickets!" if view.winners else "the hidden tickets win."
        if not view.winners and "gave up" in view.end_reason:
            headline = "you gave up."  # as the score image says: nobody beat you
    elif view.drawn:
        headline = "it's a draw!"
    elif view.winners:
        headline = " and ".join(names[s] for s in view.winners)
        headline += " wins!" if len(view.winners) == 1 else " tie for the win!"
    else:
        headline = "game over."
    lines = [f"══ Final scoring: {headline} ══"]
    # Every total first, each player's tickets after them: read out (or cut at an alt text's
    # 1,024 characters) seat by seat, the last players' totals came after the first players'
    # fifteen tickets and were never heard.
    details: list[str] = []

    def cities(won: Sequence[int], bonus: int) -> str:
        taken = ", ".join(f"{CITIES[c]} +{CITY_BONUS[c]}" for c in won)
        return f"Big Cities +{bonus}: {taken}" if taken else "no Big City"

    for score in result.seats:
        if not view.solo and view.seats[score.seat].left:
            # As the score image and the result line say it: not a score of 0.
            lines.append(f"  {names[score.seat]}: left the game")
            continue
        tickets = "; ".join(
            f"{t.code} {TICKETS[t.ticket].route} {t.points:+d}"
            + ("" if t.completed else " (not completed)")
            for t in score.lines
        )
        lines.append(
            f"  {names[score.seat]}: {score.total} (tickets {score.ticket_points:+d}, "
            f"{cities(score.cities_won, score.bonus)})"
        )
        details.append(f"  {names[score.seat]}'s tickets: {tickets or 'none'}")
    hidden = result.opponent
    if hidden is not None:
        tickets = "; ".join(
            f"{code} {TICKETS[t].route} +{TICKETS[t].points}"
            for t, code in zip(hidden.tickets, hidden.codes, strict=True)
        )
        lines.append(
            f"  Hidden tickets: {hidden.total} (tickets +{hidden.ticket_points}, "
            f"{cities(hidden.cities_won, hidden.bonus)})"
        )
        details.append(f"  The hidden tickets: {tickets}")
    return "\n".join(lines + details)


def arena_metrics(view: TtrPublicView, outcome: Outcome) -> dict[str, float]:
    """The winning score and the deck the game ended on."""
    return {
        "winning_score": float(max(outcome.scores)) if outcome.scores else 0.0,
        "second_deck": float(view.deck_number == 2),
    }


FALLBACK_RULES = """**Ticket to Ride: The Card Game** — collect train cards, rob Railyards and \
complete Destination Tickets. Full rules: docs/rules/ttr.md."""

FALLBACK_SOLO_RULES = """**Ticket to Ride Solo** — play alone for 16 turns timed by the Station \
Clock and outscore six hidden tickets; the draw area robs your Railyard and you rob it. Full \
rules: docs/rules/ttr.md."""


def deciding(view: TtrPublicView) -> str:
    """What the table waits for at the opening, when every player keeps tickets at once (after
    it, a player choosing tickets they drew is only taking their turn)."""
    return "to keep their tickets" if view.phase == "setup" else ""


def presenter(solo: bool = False) -> Presenter:
    """The presenter of the standard game and of the solo variant (one rules page, ttr.md,
    with an "In short" for each)."""
    return Presenter(
        table_png=table_png,
        hand_png=hand_png,
        result_png=result_png,
        hand_pickers=hand_pickers,
        rules=(
            in_short("ttr", FALLBACK_SOLO_RULES, "Solo in short")
            if solo
            else in_short("ttr", FALLBACK_RULES)
        ),
        console_table=console_table,
        console_hand=console_hand,
        hint=expert_hint,
        result_text=result_text,
        deciding=deciding,
    )


BUNDLE = GameBundle(
    game=GAME,
    presenter=presenter(),
    policies=computer_players(NormalTtrPolicy, TtrExpertPolicy),
    default_policy="normal",
    arena_metrics=arena_metrics,
)
__all__ = ["BUNDLE", "presenter"]
