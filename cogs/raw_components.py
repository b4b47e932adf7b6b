"""A button press, a menu choice or a form as Discord delivered it, read for its shape before
discord.py routes it to a component (``cogs.pickers``' dynamic items).

Discord's client presses a component the message shows: its custom id (text, up to 100
characters), its type, the message it is on, and for a menu a list of up to 25 of the menu's
values. A request made by hand may send anything. discord.py failed on a custom id or a type
left out, or ``data`` or ``message`` that is no record (before any handler: no answer, the
gateway's reading of events stopped), and left unanswered, spinning until Discord gave up, a
custom id or type the message does not show (a button's id sent as a menu), a press with no
message, and any form (Junction opens none). Each is refused here in one sentence, privately:
nothing is stored or posted. What a real component's values mean (a value the menu does not
offer, or given twice) is still the component's to judge.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MALFORMED_PRESS = (
    "That button or menu did not arrive as Discord sends one; nothing changed. Use the ones on "
    "the newest message (or /table to post the game's table again)."
)
NO_FORMS = "Junction asks for nothing in a form; nothing changed."

_COMMAND = 2
"""A slash command (``InteractionType.application_command``)."""
COMPONENT = 3
"""A press of a message component (``InteractionType.component``)."""
MODAL_SUBMIT = 5
"""A form sent (``InteractionType.modal_submit``)."""
_BUTTON = 2
"""A button's ``component_type`` (a menu's values are read; a button has none)."""

_CUSTOM_ID_LIMIT = 100
_VALUES_LIMIT = 25
"""Discord's limits: a custom id's length, and the options a select menu may hold."""


def refusal(payload: Any) -> str | None:
    """The sentence refusing an ``INTERACTION_CREATE`` a component or form cannot take (None:
    not one, or as Discord's client sends it)."""
    if not isinstance(payload, dict):
        return None
    kind = payload.get("type")
    if kind == MODAL_SUBMIT:
        return NO_FORMS
    if kind != COMPONENT:
        return None
    data, message = payload.get("data"), payload.get("message")
    if not isinstance(data, dict) or not isinstance(message, dict):
        return MALFORMED_PRESS
    custom_id, component_type = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or not 0 < len(custom_id) <= _CUSTOM_ID_LIMIT:
        return MALFORMED_PRESS
    if not any(
        c.get("custom_id") == custom_id and c.get("type") == component_type
        for c in _components(message.get("components"))
    ) or isinstance(component_type, bool):
        # discord.py rebuilds the component from the message, and finding none there it left
        # the press unanswered.
        return MALFORMED_PRESS
    if str(message.get("channel_id")) != str(payload.get("channel_id")):
        return MALFORMED_PRESS  # a message of another channel than the press came from
    if component_type == _BUTTON:
        return MALFORMED_PRESS if "values" in data else None  # a button is pressed, never chosen
    values = data.get("values")
    if not isinstance(values, list) or len(values) > _VALUES_LIMIT:
        return MALFORMED_PRESS
    if not all(isinstance(v, str) and len(v) <= _CUSTOM_ID_LIMIT for v in values):
        return MALFORMED_PRESS
    return None


def unreadable(payload: dict[str, Any]) -> str | None:
    """The sentence refusing an interaction discord.py could not read (a member's record, or
    the message's author, in pieces), by its kind; None for one that cannot be answered in
    words (an autocomplete, a ping)."""
    from cogs.raw_options import MALFORMED

    kind = payload.get("type")
    return (
        {COMPONENT: MALFORMED_PRESS, _COMMAND: MALFORMED}.get(kind)
        if isinstance(kind, int)
        else None
    )


def _components(components: Any) -> Iterator[dict[str, Any]]:
    """Every component of a message, those inside rows (and containers) included."""
    if not isinstance(components, list):
        return
    for component in components:
        if isinstance(component, dict):
            yield component
            yield from _components(component.get("components"))
