"""A hand keyboard's pages other than the hand: «⋯», the cards marked for an opening,
the cheat page, whom to accuse (``Page``), and the card whose target is being chosen.

``HandPages`` is their one owner: the handlers change them through its verbs
(``show``, ``pick``), the presenter reads them (``current``). A page stays open until
its player moves (a move of their own after the page was opened, in whichever process
it was made), goes back, or it stops making sense (``still_open``): others' moves, and
the automatic ones (a computer player's quick ones above all, a forced «Бито» or «Пас»
made for the player), do not close it under the player's finger.

Alone, a process keeps them in memory (``HandPages``). One of several keeps them in
the database as well (``SharedPages``): a press that does not fit the hand as this
process would draw it reads its player's page from there (``sync``; the page may have
been opened through another process), and so does the process that shows the games
before it draws that hand.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from engine import Card, State
from engine.actions import ACCUSE, BEAT
from storage.db import Database
from storage.outgoing import HandPageRepo

from .callbacks import PageName
from .hand_moves import markable

Key = tuple[int, int]  # (game, user)


class Page(NamedTuple):
    """A page of a hand keyboard other than the hand: open until its player moves, goes
    back, or it stops making sense (``still_open``)."""

    bout: int
    name: PageName
    card: Card | None = None  # cheat: the card whose target is being chosen
    marked: tuple[Card, ...] = ()  # mark: the cards marked for an opening


def still_open(page: Page, state: State, seat: int) -> bool:
    """Whether ``page`` still makes sense for ``seat``: «⋯» (to surrender) while the
    player is in the game; the marks while the marked cards may still open together;
    the cheat page while the seat has those cheats; whom to accuse while it may."""
    if state.is_over or state.place[seat]:
        return False
    match page.name:
        case PageName.MORE:
            return True
        case PageName.MARK:
            can = markable(state.view(seat))
            return bool(can) and all(c in can for c in page.marked)
        case PageName.CHEAT:
            cheats = state.cheat_actions(seat)
            return any(page.card is None or a.cards[0] == page.card for a in cheats)
        case PageName.ACCUSE:
            return any(a.kind == ACCUSE for a in state.legal_actions(seat))
    return page.bout == state.bouts


class HandPages:
    """The open pages and target choices of one process (alone: all there are)."""

    def __init__(self) -> None:
        self._pages: dict[Key, Page] = {}  # (game, user) -> the page shown
        self._picking: dict[Key, Card] = {}  # (game, user) -> card awaiting a target
        self._opened: dict[Key, int] = {}  # the game's version when they were opened

    def shown(self, key: Key) -> Page | None:
        """The page the player's hand shows (None: the hand)."""
        return self._pages.get(key)

    def current(self, key: Key, state: State, seat: int) -> tuple[Page | None, Card | None]:
        """The page and target choice the hand shows now (closing those out of date)."""
        page = self._pages.get(key)
        if page is not None and not still_open(page, state, seat):
            del self._pages[key]
            page = None
        picking = self._picking.get(key)
        if picking is not None and not any(
            a.kind == BEAT and a.cards[0] == picking for a in state.legal_actions(seat)
        ):
            del self._picking[key]  # the card beats nothing now
            picking = None
        opened = self._opened.get(key)
        history, auto = state.history, state.auto
        if opened is not None and any(
            history[i].seat == seat and not auto[i] for i in range(opened, len(history))
        ):
            self._forget(key)  # its player has moved since
            return None, None
        if page is None and picking is None:
            self._opened.pop(key, None)
        return page, picking

    async def show(self, key: Key, page: Page | None, version: int) -> None:
        """Open ``page`` (None: back to the hand), at the game's ``version``."""
        self._picking.pop(key, None)
        if page is None:
            self._pages.pop(key, None)
        else:
            self._pages[key] = page
        self._opened_at(key, version)
        await self._save(key)

    async def pick(self, key: Key, card: Card | None, version: int) -> None:
        """Ask which attack card ``card`` should beat (None: no longer)."""
        if card is None:
            self._picking.pop(key, None)
        else:
            self._picking[key] = card
        self._opened_at(key, version)
        await self._save(key)

    def forget_game(self, game_id: int) -> None:
        for key in [k for k in (*self._pages, *self._picking, *self._opened) if k[0] == game_id]:
            self._forget(key)

    async def sync(self, key: Key) -> None:
        """Read the player's page as the other processes left it (alone: nothing to do)."""

    async def _save(self, key: Key) -> None:
        """Write the player's page for the other processes (alone: nothing to do)."""

    def _forget(self, key: Key) -> None:
        self._pages.pop(key, None)
        self._picking.pop(key, None)
        self._opened.pop(key, None)

    def _opened_at(self, key: Key, version: int) -> None:
        if key in self._pages or key in self._picking:
            self._opened[key] = version
        else:
            self._opened.pop(key, None)

    def _body(self, key: Key) -> str | None:
        page, picking, opened = self._pages.get(key), self._picking.get(key), self._opened.get(key)
        if opened is None:
            return None
        body: dict[str, Any] = {"opened": opened, "picking": picking and str(picking)}
        if page is not None:
            body["page"] = [page.bout, page.name, page.card and str(page.card)]
            body["marked"] = [str(c) for c in page.marked]
        return json.dumps(body)

    def _load(self, key: Key, stored: str | None) -> None:
        self._forget(key)
        if stored is None:
            return
        body = json.loads(stored)
        self._opened[key] = int(body["opened"])
        if body.get("picking"):
            self._picking[key] = Card.parse(body["picking"])
        if body.get("page"):
            bout, name, card = body["page"]
            marked = tuple(Card.parse(c) for c in body.get("marked", ()))
            self._pages[key] = Page(int(bout), PageName(name), card and Card.parse(card), marked)


class SharedPages(HandPages):
    """The pages of one of several processes: written to the database at each change."""

    def __init__(self, db: Database) -> None:
        super().__init__()
        self._repo = HandPageRepo(db)

    async def sync(self, key: Key) -> None:
        self._load(key, await self._repo.get(*key))

    async def _save(self, key: Key) -> None:
        await self._repo.put(*key, self._body(key))
