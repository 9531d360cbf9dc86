"""What the game service tells the layer that shows the games (``Listener``), given to it
when it is built: each step committed here, and each game whose cache moved otherwise."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

from engine import Action, Event, State
from storage.records import Seat

log = logging.getLogger(__name__)


@dataclass
class Update:
    """What one committed step did: the new version and the events, in order; the
    game's table and seats."""

    game_id: int
    version: int
    events: list[Event]
    state: State
    table_id: int
    seats: list[Seat]
    actions: list[tuple[Action, bool]] = field(default_factory=list)


class Listener(Protocol):
    async def news(self, update: Update) -> None:
        """A step was committed here (a move, a timeout, a computer's move)."""
        ...

    def moved(self, game_id: int) -> None:
        """The game was caught up from the database at a new version (another process
        moved it), or let go (its table was closed)."""
        ...


class Listeners:
    """Several listeners told in turn (the delivery first, then the Mini App's pages);
    one that fails is logged and does not keep the news from the next."""

    def __init__(self, *listeners: Listener) -> None:
        self.listeners = listeners

    async def news(self, update: Update) -> None:
        for listener in self.listeners:
            try:
                await listener.news(update)
            except Exception:
                log.exception("game %s: telling version %s failed", update.game_id, update.version)

    def moved(self, game_id: int) -> None:
        for listener in self.listeners:
            try:
                listener.moved(game_id)
            except Exception:
                log.exception("game %s: telling of its move failed", game_id)
