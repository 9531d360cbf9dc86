"""A game's position as plain values: what ``State`` is built from.

``State(rules, seed, position=...)`` is the one place a game is built from one:
a snapshot (``serialize``), a bot's sampled deal (``bots.world``), a copy, a
scripted deal. The fields the state derives (seats out, unbeaten cards, ranks on
the table, the trump suit) are not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .actions import Action
from .cards import Card
from .events import Outcome


class Bout(NamedTuple):
    """The bout in progress; see ``Board`` for the meaning of each field."""

    attacker: int
    defender: int
    cap: int
    limit: int
    att: list[int]
    dfn: list[int]
    taking: bool
    said: int
    throwers: int
    spoke: bool
    token: int
    shows: int
    cheats: int
    barred: list[int]
    bout_attacks: list[int]
    closing: bool = False


class Position(NamedTuple):
    """Hands, stock and the game so far; ``bout`` None opens a new bout at ``opener``.
    None for a per-seat list means the start of a game (all zeros)."""

    hands: list[int]
    stock: list[int]  # drawn from the end; stock[0] is the face-up trump card
    trump_card: int
    opener: int
    known: list[int] | None = None
    shown: Card | None = None
    discard: int = 0
    place: list[int] | None = None
    missed: list[int] | None = None
    bito_seen: bool = False
    bouts: int = 0
    last_fool: int | None = None
    pogony_ranks: Sequence[int] | None = None
    pogony_awards: Sequence[tuple[int, int]] = ()
    history: Sequence[Action] = ()
    auto: Sequence[bool] = ()
    outcome: Outcome | None = None
    bout: Bout | None = None
