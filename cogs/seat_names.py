"""A member's name as a seat shows it: invisible and right-to-left characters out, no piles of
accents, no Discord syntax, never a computer's name nor a seat's number, never empty.

Every front end that seats a member, or names one in a result line, takes the name from
:func:`display_name`; a server's or a channel's name, anyone's words as well, is shown cleaned
alike (:func:`place_name`, for /mygames).

Dependency direction: the bottom of the game-starting modules. ``cogs.new_game``,
``cogs.lobby``, ``cogs.rematch``, ``cogs.play``, ``cogs.leaderboard`` and ``cogs.mygames``
import it; it imports no cog.
"""

from __future__ import annotations

import re
import unicodedata

import discord

from bot.bidi import isolated_name
from bot.names import looks
from bot.render.common import few_marks

_JOINERS = {"\u200c", "\u200d"}
"""Invisible characters a name keeps: the zero-width (non-)joiners spell Persian and Indic
words and join emoji sequences (👩‍🚀)."""
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
"""Letters that draw nothing (the Hangul fillers, the blank Braille pattern): a name made of
them looks empty."""


_DISCORD_SYNTAX = re.compile(r"<(?=[@#:/]|(?i:a|t|id):)")
"""Where Discord reads a mention, channel, emoji, timestamp, command or a link into the
server's own pages (``<id:customize>``, ``<id:guide>``) out of message text."""


def _kept(char: str) -> bool:
    """Whether a name keeps ``char``: not an invisible format character (category Cf) other
    than a joiner or an emoji tag (the flag of Scotland spells its region in tags), nor a
    control character other than a space (an escape, a bell: Discord refuses them in a
    nickname, a hostile client may not, and the images drew each as an empty box)."""
    category = unicodedata.category(char)
    if category == "Cc":
        return char.isspace()  # a line break or tab becomes a space (``_seat_name``)
    return category != "Cf" or char in _JOINERS or "\U000e0020" <= char <= "\U000e007f"


def _seat_name(name: str) -> str:
    """``name`` as a seat shows it: format characters out, no piles of accents, one line, at
    most 32 characters.

    A right-to-left override (U+202E) in a name would turn every caption, image line and
    text table it appears in backwards after it ("yalp ot Alice"), and zero-width characters
    only hide what a name really is. A "Zalgo" name (a letter under thirty combining marks)
    would smear the bot's messages and buttons over the lines around them: it keeps the
    accents any language needs, as the images draw it (``few_marks``). A name spelling
    Discord's own syntax (``<@id>``, ``<#id>``, ``<t:…>``, ``<id:guide>``) would show in the
    bot's messages as another member, a channel, a time or a link to the server's guide: its
    "<" becomes "‹", so it shows as typed."""
    return _cleaned(name, 32)


def _cleaned(name: str, most: int) -> str:
    """``name`` with format characters out, a few accents, on one line, at most ``most``
    characters, Discord's syntax defused."""
    kept = " ".join(few_marks("".join(char for char in name if _kept(char))).split())[:most]
    return _DISCORD_SYNTAX.sub("‹", kept)


def place_name(name: str) -> str | None:
    """A server's or a channel's name as the bot repeats it to a member, cleaned as a seat's
    name is (``_seat_name``: format characters out, a few accents, one line, Discord's syntax
    defused), whole up to Discord's 100 characters; None when it shows nothing. Anyone who
    made the server or channel chose it, as a member chose their name."""
    shown = _cleaned(name, 100)
    return isolated_name(shown) if _visible(shown) else None


def _visible(name: str) -> bool:
    """Whether ``name`` shows anything: a letter, digit, symbol or punctuation mark that draws."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in _BLANK for c in name)


_COMPUTER = re.compile(r"computer\d*\(.+\)|computer\d+")
"""What a computer's seat is called ("Computer (normal)", "Computer 2 (expert)"), or a numbered
one without its level ("Computer 2", as a six-car table's image names it where the level does
not fit), as ``looks`` reads a name: case, width and spaces aside."""


def _passes_for_a_computer(name: str) -> bool:
    """Whether ``name`` reads like a computer's seat. A member so named took the computer's
    name at the table and the computer was numbered instead ("Computer 2 (expert) (2)"), so
    every caption, target button and result line said the member was the computer. A member
    called "Computer 1" beside "Computer 1 (normal)" read as that computer in every caption
    ("Engines roar: Computer 1 starts."), and on an image with no room for levels the two
    were drawn alike."""
    return _COMPUTER.fullmatch(looks(name)) is not None


_SEAT_NUMBER = re.compile(r"(?:@|seat)?#?\d{1,2}")
"""How a seat's number reads ("@2" on Dragon's table and in its moves, "seat 2", "#2", "2"), as
``looks`` reads a name: case, width and spaces aside."""


def _passes_for_a_seat(name: str) -> bool:
    """Whether ``name`` reads like a seat's number. Dragon's table marks each car "@0", "@1"…,
    and a move aims at one by that number ("mg-front @2", "on 2"): a member called "@2" in
    seat 1 had a target button and captions reading "@2", so a player aiming at the car
    marked @2 shot theirs instead."""
    return _SEAT_NUMBER.fullmatch(looks(name)) is not None


def display_name(user: discord.abc.User) -> str:
    """A member's name for a seat: their server name as :func:`_seat_name` shows it, or their
    username when that name shows nothing (only spaces or invisible characters), passes for
    a computer's or reads like a seat's number. A name written right to left comes between
    invisible directional isolates (``isolated_name``): the only invisible characters a seat
    name holds, so a figure or another name after it is not read as part of it."""
    for name in (user.display_name, user.name):
        shown = _seat_name(name or "")
        if _visible(shown) and not _passes_for_a_computer(shown) and not _passes_for_a_seat(shown):
            return isolated_name(shown)
    return "Player"
