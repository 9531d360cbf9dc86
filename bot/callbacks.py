"""Compact, typed callback data (Telegram allows 64 bytes)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

from engine import State, View


class LobbyCb(CallbackData, prefix="l"):
    table: int
    op: str  # join, leave, bot, start, again, set
    arg: str = ""  # the setting for "set"; "+" / "-" for seats


class CardCb(CallbackData, prefix="c"):
    """A card tapped in a hand: the bot works out which move it means."""

    game: int
    v: int  # the game version the keyboard was drawn for
    card: str  # "10H"
    phase: str = ""  # bout_phase() then: a tap still counts while it has not changed


def bout_phase(game: State | View) -> str:
    """What a card tap means depends on this, not on every move: the bout, who defends in
    it and whether they said «Беру». A tap on a hand drawn before a throw-in or a beat
    of the same phase is honest (the opponent was just quicker); any other is stale."""
    return f"{game.bouts}.{game.defender}{'t' if game.taking else ''}"


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
