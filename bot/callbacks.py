"""Compact, typed callback data (Telegram allows 64 bytes).

Every field has a type with bounds and a pattern: data that does not fit (forged, or
from an older bot) does not unpack, so no handler sees it and the fallback answers it.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

from engine import Action, State, View
from engine.actions import BEAT, SHOW, TRANSFER

Id = Annotated[int, Field(ge=1, le=2**62)]  # a table or game id (SQLite INTEGER)
# A hand keyboard's key: a digest of what the hand showed (``render_hand.seal``). A press
# counts only while the player's hand would still be drawn with the same key, so a hand
# that no move changed need not be edited, and an old keyboard's press is stale.
HandKey = Annotated[str, Field(pattern=r"^[0-9a-f]{8}$")]
DRAFT = "0" * 8  # the key a hand's buttons are packed with until it is sealed
Word = Annotated[str, Field(max_length=24, pattern=r"^[a-z0-9_]*[+-]?$")]
CardText = Annotated[str, Field(max_length=3, pattern=r"^(?:-|(?:10|[2-9JQKA])[SCDH])?$")]
# the engine's text form of a move ("take", "d 9H>7H", "a 7S 7H", "accuse 2")
ACTION = r"^[a-z]{1,6}(?: [0-9JQKASCDH>]{1,7}){0,6}$"
ActionText = Annotated[str, Field(max_length=40, pattern=ACTION)]
MEANING = r"^(?:[a-z]{1,2}[0-9]{1,4}\.[0-9]\.[0-9]{1,3}t?(?:\.[0-9]{1,2})?)?$"
Meaning = Annotated[str, Field(max_length=20, pattern=MEANING)]


def packed(cls: type[CallbackData], **values: str | int) -> str:
    """``cls(**values).pack()`` without building and checking a model (a hand packs a
    dozen buttons at every move; this is 4 times faster): only for values the bot
    made itself, never for data that came in."""
    prefix, sep, fields, names = _layout(cls)
    if not values.keys() <= names:
        raise ValueError(f"{cls.__name__} has no field {sorted(values.keys() - names)}")
    parts = [prefix]
    for name, default in fields:
        value = values.get(name, default)
        if type(value) not in (int, str) or sep in str(value):  # (no None, bool, enum)
            raise ValueError(f"{cls.__name__}.{name}: {value!r} does not pack as it is")
        parts.append(str(value))
    data = sep.join(parts)
    if len(data.encode()) > 64:
        raise ValueError(f"{data!r} is over Telegram's 64 bytes")
    return data


@functools.cache
def _layout(
    cls: type[CallbackData],
) -> tuple[str, str, tuple[tuple[str, object], ...], frozenset[str]]:
    """The prefix, the separator, the fields with their defaults in order, their names."""
    fields = tuple((name, info.default) for name, info in cls.model_fields.items())
    return cls.__prefix__, cls.__separator__, fields, frozenset(cls.model_fields)


class LobbyOp(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    BOT = "bot"
    BOTS = "bots"
    SET = "set"
    RULES = "rules"
    BACK = "back"
    PRESET = "preset"
    OPT = "opt"
    START = "start"
    AGAIN = "again"


class LobbyCb(CallbackData, prefix="l"):
    table: Id
    op: LobbyOp  # packed as its value: the buttons of older messages keep working
    arg: Word = ""  # the setting for "set" (with "+" / "-" for seats), a level, a preset


class CardsCb(CallbackData, prefix="e"):
    """«Мои карты» on the table message: the presser's hand as an ephemeral message."""

    game: Id


class CardCb(CallbackData, prefix="c"):
    """A card tapped in a hand: the bot works out which move it means."""

    game: Id
    card: CardText  # "10H"; "-" cancels a choice of target
    meant: Meaning = ""  # tap_meaning() when drawn; "" if a tap could not play the card then
    k: HandKey  # last, as in every hand callback (see ``render_hand.seal``)


def tap_meaning(game: State | View, kind: str) -> str:
    """What a tap on a card meant when its hand was drawn: the kind of move (open, throw
    in, beat) and the phase of the bout: the bout, its defender, the transfers so far and
    «Беру». A tap on a hand drawn before the opponent's last throw-in or beat (they were
    quicker than the edit) still counts while this is unchanged; another old tap is stale.
    A beat also names the number of attack cards then (see ``still_meant``)."""
    transfers = sum(a.kind in (TRANSFER, SHOW) for a in game.history)
    taking = "t" if game.taking else ""
    meaning = f"{kind}{game.bouts}.{game.defender}.{transfers}{taking}"
    if kind == BEAT:
        meaning += f".{len(game.table if isinstance(game, View) else game.att)}"
    return meaning


def still_meant(state: State, action: Action, meant: str) -> bool:
    """Whether a tap on a hand drawn with ``meant`` may make ``action`` now: the same
    phase of the bout and, for a beat, a target that was on the table then (a card
    thrown in since is one its player has not seen)."""
    now = tap_meaning(state, action.kind)
    if action.kind != BEAT:
        return now == meant
    phase, _, seen = meant.rpartition(".")
    if now.rpartition(".")[0] != phase or not seen.isdecimal() or action.target is None:
        return False
    return state.att.index(int(action.target)) < int(seen)


class MoveCb(CallbackData, prefix="m"):
    """One exact move in the engine's text form (``take``, ``x 7C``, ``d 9H>7H``)."""

    game: Id
    a: ActionText
    k: HandKey


class PageName(StrEnum):
    HAND = "hand"  # back to the hand itself
    MORE = "more"  # «⋯»: «Сдаться»
    MARK = "mark"  # cards of one rank marked for an opening
    CHEAT = "cheat"  # the defender's cheats (option ``cheating``)
    ACCUSE = "accuse"  # «Антимухлёж» against one of several players


class PageCb(CallbackData, prefix="p"):
    """Leaves the hand for another page of its keyboard and back: ``page`` is ``hand``,
    ``more`` («⋯»: «Сдаться»), ``mark`` (cards of one rank marked for an opening; ``card``
    marks or unmarks one), and with the option ``cheating`` ``cheat`` (the defender's
    cheats; ``card`` picks a target for that card) or ``accuse`` («Антимухлёж» against
    one of several players)."""

    game: Id
    page: PageName
    card: CardText = ""
    k: HandKey


class CheatCb(CallbackData, prefix="f"):
    """One exact cheat of the defender in the engine's text form (``d 7S>9H``, ``x 8C``):
    kept apart from ``MoveCb`` so that a cheat is never taken for an honest move."""

    game: Id
    a: ActionText
    k: HandKey
