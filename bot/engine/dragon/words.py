"""A Dragon move in the words its button and /move's suggestions use ("Stop on Bob",
"Machine Gun (Front) on Bob"): the game reads them typed, and its refusals give them as
examples."""

from __future__ import annotations

from bot.engine.dragon.cards import SIDES, SPECS, cw_name
from bot.engine.dragon.notation import Action, format_action
from bot.engine.dragon.state import DragonState, Phase
from bot.engine.mille.cards import Card


def describe(state: DragonState, seat: int, action: Action) -> str:
    """An action in plain words for a menu."""
    lang = state.options.get("names", "en")
    players = state.players
    verb = action.verb
    on = ""
    if action.target is not None:
        known = 0 <= action.target < len(players)
        on = f" on {players[action.target]}" if known else f" on car @{action.target}"
    if verb == "play":
        card = Card(action.card)
        title = card.name_in(lang)
        if card.is_distance:
            # The card's own name, as its button says it: "Drive 100 bornes" with French names.
            return f"Drive {title}"
        if card.is_safety:
            return f"Coup fourré! {title}" if state.phase is not Phase.TURN else f"Safety: {title}"
        return f"{title}{on}"
    if verb == "discard":
        return f"Discard {Card(action.card).name_in(lang)}"
    if verb == "cw":
        spec = SPECS[action.card]
        side = "" if action.side is None else f" ({SIDES[action.side]})"
        if spec.kind == "fireproof":
            return "Fit Fireproof Armor"
        if spec.kind == "stampede":
            return "Stampede: 2 hits to every other car"
        if spec.kind == "jam":
            return f"Jam the machine guns{on}"
        return f"{spec.name}{side}{on}"
    if verb == "cw-discard":
        return "Discard " + ", ".join(cw_name(code) for code in action.cards)
    if verb == "cw-discard-all":
        # As My hand's button reads (and the rules): a hint or a /move suggestion saying
        # "Discard the whole Car Wars hand" sent the member looking for a button not there.
        return "Discard all Car Wars cards"
    if verb == "armor":
        return f"Armor on the {SIDES[action.side or 0]}"
    if verb == "side":
        return f"Take it on the {SIDES[action.side or 0]}"
    if verb == "skid":
        return f"Skid Into a Wall{on}"
    words = {
        "swerve": "Swerve: the shot misses",
        "spin": "Spin: the shot misses, no more attacks",
        "backfire": "Autocannon Backfires",
        "oil-slick": "Oil Slick: the shooter must roll",
        "pass": "No reaction",
        "drop-tank": f"Drop the {Card.EXTRA_TANK.name_in(lang)}",
        "end": "End the turn",
    }
    return words.get(verb, format_action(action))
