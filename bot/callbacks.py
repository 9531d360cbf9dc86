"""Compact, typed callback data (Telegram allows 64 bytes)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

from engine import State, View
from engine.actions import SHOW, TRANSFER


class LobbyCb(CallbackData, prefix="l"):
    table: int
    op: str  # join, leave, bot, start, again, set
    arg: str = ""  # the setting for "set"; "+" / "-" for seats


class CardCb(CallbackData, prefix="c"):
    """A card tapped in a hand: the bot works out which move it means."""

    game: int
    v: int  # the game version the keyboard was drawn for
    card: str  # "10H"
    meant: str = ""  # tap_meaning() when drawn; "" if a tap could not play the card then


def tap_meaning(game: State | View, kind: str) -> str:
    """What a tap on a card meant when its hand was drawn: the kind of move (open, throw
    in, beat) and the phase of the bout: the bout, its defender, the transfers so far and
    «Беру». A tap on a hand drawn before the opponent's last throw-in or beat (they were
    quicker than the edit) still counts while this is unchanged; another old tap is stale."""
    transfers = sum(a.kind in (TRANSFER, SHOW) for a in game.history)
    taking = "t" if game.taking else ""
    return f"{kind}{game.bouts}.{game.defender}.{transfers}{taking}"


class MoveCb(CallbackData, prefix="m"):
    """One exact move in the engine's text form (``take``, ``x 7C``, ``d 9H>7H``)."""

    game: int
    v: int
    a: str


class PageCb(CallbackData, prefix="p"):
    """Leaves the hand for another page of its keyboard and back (option ``cheating``):
    ``page`` is ``hand``, ``cheat`` (the defender's cheats; ``card`` picks a target for
    that card) or ``accuse`` («Антимухлёж» against one of several players)."""

    game: int
    v: int
    page: str
    card: str = ""


class CheatCb(CallbackData, prefix="f"):
    """One exact cheat of the defender in the engine's text form (``d 7S>9H``, ``x 8C``):
    kept apart from ``MoveCb`` so that a cheat is never taken for an honest move."""

    game: int
    v: int
    a: str
