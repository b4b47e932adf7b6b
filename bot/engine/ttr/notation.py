"""Move notation: ``take 3``, ``take clock``, ``take blind``, ``yard red red loco``,
``yard red green blue``, ``tickets``, ``keep T04 T17``, ``keep none`` and ``pass``.

Parsing is forgiving (case, commas, initials such as ``r r l``, counts such as ``2 red`` or
``red x2``, ``pink`` for purple, ``wild`` for Locomotive, bare ticket numbers, a bare slot number
or a bare list of cards); formatting is canonical and ``parse(format(a)) == a``. A face-up card
may also be taken by its name (``take purple``, ``take the loco``) when the caller passes the
draw area: the name is read as the first slot showing that card.

Errors speak of the game being played when the caller says which (``solo``): the standard game
has five face-up slots, solo four and the Station Clock card. A caller that knows the position
passes ``keep_example`` (the tickets actually on offer, as ``'keep T05 T12' or 'keep none'``),
so an example never names a ticket the player was not offered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.engine.core import NotationError
from bot.engine.ttr.cards import (
    CARD_NAMES,
    COLOURS,
    KINDS,
    LOCO,
    TICKETS,
    card_from_text,
    ticket_from_text,
)
from bot.engine.ttr.state import (
    BLIND,
    CLOCK,
    CLOCK_DECK,
    DRAW_TICKETS,
    PASS,
    SLOTS,
    SOLO_SLOTS,
    Action,
)

_TAKE = {"take", "t", "draw", "pick", "grab"}
_YARD = {"yard", "railyard", "rail", "play", "ry"}
_TICKETS = {"tickets", "ticket", "tix", "destinations", "dt"}
_KEEP = {"keep", "k"}
_NONE = {"none", "nothing", "no", "0", "-"}
_BLIND = {"blind", "deck", "pile", "top", "facedown", "face-down"}
# Words around a card's name that say nothing about which card: "take the red card".
_FILLER = {"a", "an", "the", "one", "card", "face-up", "faceup", "face", "up", "from"}


def _hint(keep_example: str) -> str:
    """The moves to try; while tickets are on offer, choosing them is the only move."""
    if keep_example:
        return f"Choose which tickets to keep, e.g. {keep_example}."
    return "Try 'take 3', 'take blind', 'yard red red loco', 'tickets' or 'pass'."


def _takes(solo: bool | None, clock: bool = True) -> str:
    """The take moves of the game being played, for an error sentence (both when unknown);
    ``clock`` false: no Station Clock card shows (taken or robbed), so none is offered."""
    if solo is None:
        return "'take 1' to 'take 5' (to 'take 4' and 'take clock' in solo), or 'take blind'"
    if solo and not clock:
        return "'take 1' to 'take 4' or 'take blind'"
    if solo:
        return "'take 1' to 'take 4', 'take clock' or 'take blind'"
    return "'take 1' to 'take 5', or 'take blind'"


def quoted(text: str, limit: int = 40) -> str:
    """A player's text, cut short, for an error sentence."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_action(action: Action) -> str:
    kind = action.kind
    if kind == "take":
        if action.slot == BLIND:
            return "take blind"
        if action.slot == CLOCK:
            return "take clock"
        return f"take {action.slot}"
    if kind == "clockdeck":
        return "take clock deck"
    if kind == "yard":
        if action.singles:
            return "yard " + " ".join(COLOURS[c] for c in action.singles)
        words = [COLOURS[action.colour]] * action.naturals + ["loco"] * action.locos
        return "yard " + " ".join(words)
    if kind == "keep":
        if not action.tickets:
            return "keep none"
        return "keep " + " ".join(TICKETS[t].code for t in action.tickets)
    return kind  # "tickets", "pass"


def parse_action(
    text: str,
    solo: bool | None = None,
    keep_example: str = "",
    face_up: Sequence[int] | None = None,
    clock_card: int = -1,
) -> Action:
    """The action ``text`` names. ``solo`` (None: not known) and ``keep_example`` only shape
    the wording of errors (module docstring); what parses is the same in both games.
    ``face_up`` (the draw area's slots, -1 for an empty one) and ``clock_card`` (solo) let a
    take name the card instead of its slot; without them a card's name asks for the slot."""
    cleaned = re.sub(r"[,;+&/]", " ", text.strip().lower())
    # "and" joins a list as "&" does: "keep T02 and T14" read "There is no ticket 'and'".
    words = [word for word in cleaned.split() if word != "and"]
    if not words:
        raise NotationError(f"Type a move. {_hint(keep_example)}")
    head, rest = words[0], words[1:]
    if head in _TAKE:
        if rest and rest[0] in _TICKETS:
            return DRAW_TICKETS
        return _parse_take(rest, solo, face_up, clock_card)
    if head in _BLIND and not rest:
        return Action("take", slot=BLIND)
    if head in ("clock", "station") and not rest:
        return Action("take", slot=CLOCK)
    if head in _TICKETS and not rest:
        return DRAW_TICKETS
    if head in _YARD:
        if not rest:
            raise NotationError("Say which cards to play, e.g. 'yard red red loco'.")
        return _parse_yard(rest)
    if head in _KEEP:
        return _parse_keep(rest, keep_example)
    if head == "pass" and not rest:
        return PASS
    if len(words) == 1 and words[0].isdecimal():
        return _parse_take(words, solo)
    try:
        return _parse_yard(words)
    except NotationError:
        pass
    raise NotationError(f"I don't understand '{quoted(text)}'. {_hint(keep_example)}")


def kind_named(text: str) -> str | None:
    """The kind of move ``text`` starts to name by its first word ("yard", "keep", "take",
    "tickets"), however the rest reads; None when the first word names none."""
    words = text.strip().lower().split()
    if not words:
        return None
    head = words[0]
    if head in _TAKE:
        return "tickets" if words[1:2] and words[1] in _TICKETS else "take"
    for kind, heads in (("yard", _YARD), ("keep", _KEEP), ("tickets", _TICKETS)):
        if head in heads:
            return kind
    return None


def _parse_take(
    rest: list[str],
    solo: bool | None,
    face_up: Sequence[int] | None = None,
    clock_card: int = -1,
) -> Action:
    phrase = " ".join(rest)
    if not rest:
        raise NotationError(f"Say which card to take: {_takes(solo)}.")
    if phrase in _BLIND or phrase in ("from deck", "the deck", "train deck"):
        return Action("take", slot=BLIND)
    if phrase in ("clock", "clock card", "station clock", "station clock card", "c"):
        return Action("take", slot=CLOCK)
    if ("clock" in phrase and ("deck" in phrase or "pile" in phrase)) or phrase in (
        "station deck",
        "stationdeck",
    ):
        return CLOCK_DECK
    word = phrase.removeprefix("slot").strip().removeprefix("#")
    if word.isdecimal() and len(word) <= 2:
        slot = int(word)
        if 1 <= slot <= (SOLO_SLOTS if solo else SLOTS):
            return Action("take", slot=slot)
        if solo is None:
            where = "slot 1 to 5 (1 to 4 and the Station Clock card in solo), or 'take blind'"
        elif solo:
            where = "slot 1 to 4, the Station Clock card ('take clock') or 'take blind'"
        else:
            where = "slot 1 to 5, or 'take blind'"
        raise NotationError(f"There is no slot {slot}: take a face-up card from {where}.")
    named = [w for w in rest if w not in _FILLER]
    card = card_from_text(named[0]) if len(named) == 1 else None
    if card is not None:
        return _take_by_name(card, solo, face_up, clock_card)
    raise NotationError(f"I can't tell which card '{quoted(phrase)}' means: {_takes(solo)}.")


def _take_by_name(
    card: int, solo: bool | None, face_up: Sequence[int] | None, clock_card: int
) -> Action:
    """``take purple``: the first face-up slot showing the card. In solo, the Station Clock card
    is not replaced once taken and a slot is, so when both show the card the player says which.
    """
    name = CARD_NAMES[card]
    if face_up is None:
        raise NotationError(f"Say which slot holds the {name} card: {_takes(solo)}.")
    slots = [i + 1 for i, shown in enumerate(face_up) if shown == card]
    on_clock = bool(solo) and clock_card == card
    if slots and on_clock:
        raise NotationError(
            f"{name} shows in slot {slots[0]} and on the Station Clock card: "
            f"'take {slots[0]}' or 'take clock'."
        )
    if slots:
        return Action("take", slot=slots[0])
    if on_clock:
        return Action("take", slot=CLOCK)
    showing = [CARD_NAMES[c] for c in face_up if c >= 0]
    if solo and clock_card >= 0:
        showing.append(f"{CARD_NAMES[clock_card]} (the Station Clock card)")
    area = ", ".join(showing) if showing else "nothing"
    takes = _takes(solo, clock=clock_card >= 0)
    raise NotationError(f"No {name} card is face up (the draw area shows {area}): {takes}.")


_COUNTED = re.compile(r"^(\d{1,2})x?([a-z]+)$|^([a-z]+)[x×*](\d{1,2})$")
_TIMES = re.compile(r"[x×*]\d{1,2}")


def _parse_yard(words: list[str]) -> Action:
    counts = [0] * KINDS
    # A count read before its card ("2 red"); None when none is waiting. Zero is a count too:
    # "yard 2 red 0 loco" played a Locomotive when 0 read as no count at all.
    pending: int | None = None
    for word in words:
        if word.isdecimal() and len(word) <= 2:
            pending = int(word)
            continue
        if _TIMES.fullmatch(word):
            raise NotationError("Write counts before the colour, e.g. 'yard 3 red loco'.")
        card = card_from_text(word)
        times = 1
        if card is None:
            match = _COUNTED.match(word)
            if match:
                number, name = (match[1], match[2]) if match[1] else (match[4], match[3])
                card, times = card_from_text(name), int(number)
        if card is None and len(word) <= 9 and all(card_from_text(ch) is not None for ch in word):
            for ch in word:  # initials run together: "rrl"
                initial = card_from_text(ch)
                assert initial is not None
                counts[initial] += 1
            pending = None
            continue
        if card is None:
            raise NotationError(f"There is no train card called '{quoted(word, 20)}'.")
        counts[card] += times if pending is None else pending
        pending = None
    if pending is not None:
        raise NotationError("Say what the number counts, e.g. 'yard 3 red'.")
    colours = [c for c in range(len(COLOURS)) if counts[c]]
    locos = counts[LOCO]
    if not colours:
        if locos:
            raise NotationError(
                "A Railyard set needs at least one card of its colour; Locomotives only join "
                "a colour set."
            )
        raise NotationError("Say which cards to play, e.g. 'yard red red loco'.")
    if len(colours) == 1:
        return Action("yard", colour=colours[0], naturals=counts[colours[0]], locos=locos)
    if len(colours) == 3 and not locos and all(counts[c] == 1 for c in colours):
        return Action("yard", singles=tuple(colours))
    raise NotationError(
        "Play one colour (Locomotives may join it), or exactly three single cards of "
        "different colours without Locomotives."
    )


def _parse_keep(rest: list[str], keep_example: str) -> Action:
    if not rest:
        if keep_example:
            raise NotationError(f"Say which tickets to keep, e.g. {keep_example}.")
        raise NotationError("Say which tickets to keep by their codes, or 'keep none'.")
    if len(rest) == 1 and rest[0] in _NONE:
        return Action("keep", tickets=())
    kept: set[int] = set()
    for word in rest:
        ticket = ticket_from_text(word)
        if ticket is None:
            raise NotationError(f"There is no ticket '{quoted(word, 20)}': tickets are T01 to T46.")
        kept.add(ticket)
    return Action("keep", tickets=tuple(sorted(kept)))
