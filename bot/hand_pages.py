"""A hand keyboard's pages other than the hand: «⋯», the cards marked for an opening,
the cheat page, whom to accuse (``Page``), and the card whose target is being chosen.

A page stays open until its player moves, goes back, or the bout it was opened in ends.
Alone, a process keeps them in memory. One of several (``share``), it also writes each
change to the database, and reads a player's page from there when a press does not fit
the hand as it would draw it (the page may have been opened through another process)
and before the process that shows the games draws that hand (``bot.relay``); a page
opened at a version is closed once its player has moved since, wherever that move was
made.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from engine import Card, State
from storage.db import Database
from storage.outgoing import HandPageRepo

Key = tuple[int, int]  # (game, user)


class Page(NamedTuple):
    """A page of a hand keyboard other than the hand (option ``cheating``): open until
    its player moves, goes back, or the bout it was opened in ends."""

    bout: int
    name: str  # "more", "mark", "cheat" or "accuse"
    card: Card | None = None  # cheat: the card whose target is being chosen
    marked: tuple[Card, ...] = ()  # mark: the cards marked for an opening


class HandPages:
    def __init__(self) -> None:
        self.pages: dict[Key, Page] = {}  # (game, user) -> the page shown
        self.picking: dict[Key, Card] = {}  # (game, user) -> card awaiting a target
        self.opened: dict[Key, int] = {}  # shared: the version they were opened at
        self._repo: HandPageRepo | None = None

    def share(self, db: Database) -> None:
        self._repo = HandPageRepo(db)

    def current(self, key: Key, state: State, seat: int) -> tuple[Page | None, Card | None]:
        """The page and target choice the hand shows now (closing those out of date)."""
        page = self.pages.get(key)
        if page is not None and page.bout != state.bouts:  # that bout is over
            del self.pages[key]
            page = None
        opened = self.opened.get(key)
        if opened is not None and any(a.seat == seat for a in state.history[opened:]):
            self.forget(key)  # its player has moved since (perhaps through another process)
            return None, None
        return page, self.picking.get(key)

    def forget(self, key: Key) -> None:
        self.pages.pop(key, None)
        self.picking.pop(key, None)
        self.opened.pop(key, None)

    def forget_game(self, game_id: int) -> None:
        for key in [k for k in (*self.pages, *self.picking) if k[0] == game_id]:
            self.forget(key)

    async def save(self, key: Key, version: int) -> None:
        """Shared: the player's page and target choice as they are now, opened at
        ``version``, for the other processes (nothing to do alone)."""
        if self._repo is None:
            return
        page, picking = self.pages.get(key), self.picking.get(key)
        if page is None and picking is None:
            self.opened.pop(key, None)
            await self._repo.put(*key, None)
            return
        self.opened[key] = version
        body: dict[str, Any] = {"opened": version, "picking": picking and str(picking)}
        if page is not None:
            body["page"] = [page.bout, page.name, page.card and str(page.card)]
            body["marked"] = [str(c) for c in page.marked]
        await self._repo.put(*key, json.dumps(body))

    async def load(self, key: Key) -> None:
        """Shared: the player's page and target choice as the database has them."""
        if self._repo is None:
            return
        stored = await self._repo.get(*key)
        self.forget(key)
        if stored is None:
            return
        body = json.loads(stored)
        self.opened[key] = int(body["opened"])
        if body.get("picking"):
            self.picking[key] = Card.parse(body["picking"])
        if body.get("page"):
            bout, name, card = body["page"]
            marked = tuple(Card.parse(c) for c in body.get("marked", ()))
            self.pages[key] = Page(int(bout), name, card and Card.parse(card), marked)
