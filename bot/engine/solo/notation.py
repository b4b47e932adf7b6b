"""Mille Bornes Solo move notation: ``clear 3 with go`` and ``sacrifice 100 on 5``.

Highways are numbered 1 to 7 from the left. Parsing is forgiving: case, extra words (``with``,
``on``, ``highway``, French ``avec``/``sur``), the highway and the card in either order, ``h3``
or ``#3`` for a highway, English or French card names and the classic game's aliases, and a
move with no verb means ``clear`` (``go on 3``, ``3 go``). Formatting is canonical, and
``parse(format(a)) == a`` for every action. Highway numbers (1–7) never collide with distance
values (25–200), so ``clear 7 with 75`` reads one way only.
"""

from __future__ import annotations

import re

from bot.engine.core import NotationError
from bot.engine.mille.cards import card_from_text
from bot.engine.solo.state import HIGHWAYS, Action

_CLEAR_WORDS = {"clear", "c", "play", "p", "use", "match", "jouer", "poser", "vider"}
_SACRIFICE_WORDS = {"sacrifice", "sac", "sacrifier", "burn"}
_REFUSED_WORDS = {"discard", "d", "defausse", "défausse", "defausser", "défausser", "draw"}
_REFUSED_WORDS |= {"pass", "piocher"}
_FILLER = {"with", "on", "onto", "using", "highway", "hwy", "road", "to", "the", "a", "my"}
_FILLER |= {"avec", "sur", "route", "la", "le", "claimed"}
_HIGHWAY = re.compile(r"^(?:h|hw|hwy|highway|#|route)?([0-9]{1,4})$")
_DISTANCE_VALUES = {25, 50, 75, 100, 200}
EXAMPLES = "'clear 3 with go' or 'sacrifice 100 on 5'"


def format_action(action: Action) -> str:
    if action.verb == "sacrifice":
        return f"sacrifice {action.card.value} on {action.highway}"
    return f"clear {action.highway} with {action.card.value}"


def parse_action(text: str) -> Action:
    cleaned = re.sub(r"[,.;:!?()]", " ", text.strip().lower().replace("_", " "))
    words = cleaned.split()
    if not words:
        raise NotationError(f"Type a move, for example {EXAMPLES}.")
    if words[0] in _REFUSED_WORDS:
        raise NotationError(
            "Mille Bornes Solo has no voluntary discards or draws: when no move is left, "
            f"Junction draws for you. Clear a highway instead, e.g. {EXAMPLES}."
        )
    verb = "clear"
    if words[0] in _CLEAR_WORDS:
        words = words[1:]
    elif words[0] in _SACRIFICE_WORDS:
        verb = "sacrifice"
        words = words[1:]
    highways: list[int] = []
    rest: list[str] = []
    for word in words:
        found = _HIGHWAY.match(word)
        if found and int(found.group(1)) not in _DISTANCE_VALUES:
            highways.append(int(found.group(1)))
        elif word not in _FILLER:
            rest.append(word)
    if len(highways) != 1 or not 1 <= highways[0] <= HIGHWAYS:
        raise NotationError(f"Name one highway, numbered 1 to {HIGHWAYS}, for example {EXAMPLES}.")
    if not rest:
        raise NotationError(f"Say which card to play, for example {EXAMPLES}.")
    name = " ".join(rest)
    card = card_from_text(name)
    if card is None:
        raise NotationError(f"There is no Mille Bornes card called '{name}'.")
    if verb == "sacrifice" and not card.is_distance:
        raise NotationError(
            "Only a distance card you have claimed can be sacrificed, e.g. 'sacrifice 100 on 5'."
        )
    return Action("sacrifice" if verb == "sacrifice" else "clear", highways[0], card)
