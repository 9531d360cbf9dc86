"""Who watches which table in the Mini App, told of every step as the presenter is.

``Watchers`` is one more listener of the game service (``service.news.Listener``, beside
the delivery, see ``service.news.Listeners``): a step committed here (``news``), or a
game caught up from another process or let go (``moved``), wakes every page open on that
game's table. Waking costs a flag; each page draws the newest state when it sends
(render at send time: a burst of steps is one push).
"""

from __future__ import annotations

from typing import Protocol

from service.news import Update
from service.registry import Games


class Watcher(Protocol):
    def wake(self) -> None:
        """The table's game changed: draw it again."""
        ...


class Watchers:
    def __init__(self, games: Games) -> None:
        self.games = games
        self._tables: dict[int, set[Watcher]] = {}  # table id -> its open pages
        self._chats: dict[int, int] = {}  # table id watched -> its chat
        self._table_of: dict[int, int] = {}  # game id -> its table (a game let go too)

    def watch(self, table_id: int, chat_id: int, watcher: Watcher) -> None:
        self._tables.setdefault(table_id, set()).add(watcher)
        self._chats[table_id] = chat_id

    def unwatch(self, table_id: int, watcher: Watcher) -> None:
        pages = self._tables.get(table_id)
        if pages is not None:
            pages.discard(watcher)
            if not pages:
                del self._tables[table_id]
                self._chats.pop(table_id, None)

    def watching(self, table_id: int) -> bool:
        """Whether a page open here shows the table."""
        return table_id in self._tables

    def chats(self) -> set[int]:
        """The chats of the tables the pages open here show."""
        return set(self._chats.values())

    @property
    def count(self) -> int:
        """Pages open."""
        return sum(len(pages) for pages in self._tables.values())

    async def news(self, update: Update) -> None:
        self._table_of[update.game_id] = update.table_id
        self._wake_table(update.table_id)

    def moved(self, game_id: int) -> None:
        self._wake(game_id)

    def _wake(self, game_id: int) -> None:
        live = self.games.live(game_id)
        if live is not None:
            self._table_of[game_id] = live.table_id
        table_id = self._table_of.get(game_id)
        if live is None:  # let go: its table is closed, or it ended and a new one began
            self._table_of.pop(game_id, None)
        if table_id is not None:
            self._wake_table(table_id)

    def _wake_table(self, table_id: int) -> None:
        for watcher in list(self._tables.get(table_id, ())):
            watcher.wake()
