"""Dragon Mille Bornes move notation.

Canonical forms (``format_action``), targets are seat numbers::

    play 100            play stop @2        play right-of-way      discard 25
    mg-front @2         called-shot @3 left tire-shot @1          stampede
    jam @2              fireproof           cw-discard swerve mg-back    cw-discard all
    armor front         swerve              spin                   backfire
    oil-slick           pass                skid @1                side left
    drop tank           end

Parsing is forgiving: any case, ``@ 2``/``at 2``/``on 2`` for the target, card names or common
aliases (``machine gun front``, ``ac-f``, ``called shot``), a leading ``play``/``fire`` on a Car
Wars card, ``discard`` of Car Wars cards, a bare Mille Bornes card meaning "play" and a bare
side meaning "side". ``parse(format(a)) == a`` for every action.
"""

from __future__ import annotations

import re
from typing import NamedTuple, NoReturn

from bot.engine.core import NotationError
from bot.engine.dragon.cards import CW_ORDER, SIDES, SPECS, cw_from_text, side_from_text
from bot.engine.mille.cards import Card, card_from_text


class Action(NamedTuple):
    """One move (a named tuple: cheap to build, and menus list dozens of them).

    ``verb`` is one of: play, discard (Mille Bornes), cw (a Car Wars play), cw-discard,
    cw-discard-all, armor, side, swerve, spin, backfire, oil-slick, pass, skid, drop-tank, end.
    ``card`` is a card code, ``target`` a seat, ``side`` a side index, ``cards`` the Car Wars
    cards of a discard.
    """

    verb: str
    card: str = ""
    target: int | None = None
    side: int | None = None
    cards: tuple[str, ...] = ()


PASS = Action("pass")
END = Action("end")
SWERVE = Action("swerve")
SPIN = Action("spin")
BACKFIRE = Action("backfire")
OIL_SLICK = Action("oil-slick")
DROP_TANK = Action("drop-tank")
CW_DISCARD_ALL = Action("cw-discard-all")

_BARE = {
    "pass": PASS,
    "end": END,
    "swerve": SWERVE,
    "spin": SPIN,
    "backfire": BACKFIRE,
    "oil-slick": OIL_SLICK,
}


def format_action(action: Action) -> str:
    verb = action.verb
    at = "" if action.target is None else f" @{action.target}"
    if verb == "play":
        return f"play {action.card}{at}"
    if verb == "discard":
        return f"discard {action.card}"
    if verb == "cw":
        side = "" if action.side is None else f" {SIDES[action.side]}"
        return f"{action.card}{at}{side}"
    if verb == "cw-discard":
        return "cw-discard " + " ".join(action.cards)
    if verb == "cw-discard-all":
        return "cw-discard all"
    if verb in ("armor", "side"):
        return f"{verb} {SIDES[action.side or 0]}"
    if verb == "skid":
        return f"skid{at}"
    if verb == "drop-tank":
        return "drop tank"
    return verb


_TARGET = re.compile(r"@\s*#?(\d{1,2})\b|\b(?:at|on|seat)\s+#?(\d{1,2})\b")
_PASS_WORDS = {"pass", "no", "none", "noreaction", "nothing", "take", "takeit", "ok", "n"}
_END_WORDS = {"end", "endturn", "done", "finish", "next"}
_PLAY_WORDS = {"play", "use", "p", "fire", "shoot", "attack", "u", "coup", "jouer"}
_DISCARD_WORDS = {"discard", "d", "throw", "defausse", "défausse", "defausser", "défausser"}
_CW_DISCARD = {"cwdiscard", "discardcw", "cwd", "dumpcw", "cwdump"}


def _quote(text: str) -> str:
    text = text.strip()
    return text if len(text) <= 40 else text[:39] + "…"


_NOT_ALNUM = re.compile(r"[\W_]+")


def _squash(text: str) -> str:
    return _NOT_ALNUM.sub("", text)


def parse_action(text: str) -> Action:
    raw = text.strip().lower().replace("_", " ").replace(",", " ")
    if not raw:
        raise NotationError("Type a move, for example 'play 100', 'mg-front @2' or 'pass'.")
    if len(raw) > 200:
        raise NotationError("That move is far too long to be a move.")
    target: int | None = None
    match = _TARGET.search(raw)
    if match is None:
        return _untargeted(raw, target, text)
    target = int(match.group(1) or match.group(2))
    action = _untargeted(raw[: match.start()] + " " + raw[match.end() :], target, text)
    if action.target is None:
        # Dropping the car quietly let 'discard stop @2', typed for 'play stop @2', throw
        # the Stop away.
        _refuse_target(action, match.group(0).strip())
    return action


def _refuse_target(action: Action, typed: str) -> NoReturn:
    """Refuse a move that names no car, typed with one (``typed``, as the member wrote it)."""
    if action.verb not in ("discard", "cw-discard", "cw-discard-all"):
        raise NotationError(f"That move names no car: leave out '{typed}'.")
    if action.verb == "discard" and Card(action.card).is_hazard:
        # No card named: the notation does not know the game's card names (French or not).
        raise NotationError(
            f"A discard names no car: leave out '{typed}', or type 'play' instead of "
            "'discard' to play the card on that car."
        )
    raise NotationError(f"A discard names no car: leave out '{typed}'.")


def _untargeted(raw: str, target: int | None, text: str) -> Action:
    """The move ``raw`` says once its car (``target``, None: none typed) is taken out of it."""
    words = raw.split()
    if not words:
        raise NotationError("Say what to play as well as the target, for example 'mg-front @2'.")
    head = _squash(words[0])
    rest = words[1:]
    whole = _squash(raw)
    if whole in _PASS_WORDS:
        return PASS
    if whole in _END_WORDS:
        return END
    if whole in ("droptank", "dumptank", "scraptank", "droptheextratank", "dropextratank"):
        return DROP_TANK
    if head in _CW_DISCARD or (head == "cw" and rest and _squash(rest[0]) in _DISCARD_WORDS):
        cards = rest[1:] if head == "cw" else rest
        return _cw_discard(cards, text)
    if head in _DISCARD_WORDS and rest:
        card = card_from_text(" ".join(rest))
        if card is not None:
            return Action("discard", card.value)
        return _cw_discard(rest, text)
    if head in ("armor", "armour") and len(rest) == 1 and side_from_text(rest[0]) is not None:
        return Action("armor", side=side_from_text(rest[0]))
    if head == "side" and len(rest) == 1:
        side = side_from_text(rest[0])
        if side is None:
            raise NotationError("Name a side: front, back, left or right.")
        return Action("side", side=side)
    if len(words) == 1 and side_from_text(words[0]) is not None and len(words[0]) > 1:
        return Action("side", side=side_from_text(words[0]))
    if head in _PLAY_WORDS:
        if not rest:
            raise NotationError("Say which card to play, for example 'play 100'.")
        words = rest
    return _card_play(words, target, text)


def _cw_discard(words: list[str], text: str) -> Action:
    if not words:
        raise NotationError("Say which Car Wars cards to discard, or 'cw-discard all'.")
    if len(words) == 1 and words[0] == "all":
        return CW_DISCARD_ALL
    cards = []
    for word in words:
        code = cw_from_text(word)
        if code is None:
            raise NotationError(f"There is no Car Wars card called '{_quote(word)}'.")
        cards.append(code)
    return Action("cw-discard", cards=tuple(sorted(cards, key=CW_ORDER.__getitem__)))


def _card_play(words: list[str], target: int | None, text: str) -> Action:
    phrase = " ".join(words)
    card = card_from_text(phrase)
    if card is not None:
        return Action("play", card.value, target)
    side: int | None = None
    code = cw_from_text(phrase)
    if code is None and len(words) > 1:
        if words[-1] in ("tire", "tires", "tyre", "tyres") and "call" in phrase:
            raise NotationError(
                "A Called Shot never hits the tires: name front, back, left or right."
            )
        side = side_from_text(words[-1])
        if side is not None:
            code = cw_from_text(" ".join(words[:-1]))
    if code is None:
        raise NotationError(
            f"I don't understand '{_quote(text)}'. Try 'play 100', 'play stop @2', "
            "'mg-front @2', 'cw-discard all', 'armor front', 'swerve' or 'pass'."
        )
    kind = SPECS[code].kind
    if side is not None and kind != "called-shot":
        # Dropping the word quietly let 'tire-shot @1 left' read as if it had aimed.
        raise NotationError(
            f"Only a Called Shot names the side it hits: leave out '{_quote(words[-1])}'."
        )
    if kind == "armor":
        return Action("armor", side=SPECS[code].side)
    if code in _BARE:
        return _BARE[code]
    if kind == "skid":
        return Action("skid", target=target)
    if kind == "called-shot" and side is None:
        raise NotationError("Name the side for a Called Shot, for example 'called-shot @2 left'.")
    if kind != "called-shot":
        side = None
    return Action("cw", code, target, side)
