"""What the bot layer reads and writes besides moves: people, chats, statistics and
the ids of the messages that show a table or a hand. The bot never touches the
repositories itself; each write here is one transaction."""

from __future__ import annotations

from storage.db import Database
from storage.repos import (
    Chat,
    ChatRepo,
    GameRecord,
    GameRepo,
    Standing,
    Stats,
    StatsRepo,
    TableRecord,
    TableRepo,
    User,
    UserRepo,
)


class Records:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._users = UserRepo(db)
        self._chats = ChatRepo(db)
        self._tables = TableRepo(db)
        self._games = GameRepo(db)
        self._stats = StatsRepo(db)

    # --- people and chats

    async def user(self, user_id: int) -> User | None:
        return await self._users.get(user_id)

    async def set_can_message(self, user_id: int, can: bool) -> None:
        """Whether the bot may write to the user privately (they started or blocked it)."""
        async with self.db.tx() as c:
            await UserRepo.set_can_message(c, user_id, can)

    async def chat(self, chat_id: int) -> Chat | None:
        return await self._chats.get(chat_id)

    async def chat_moved(self, old: int, new: int) -> None:
        """A group became a supergroup: its rows follow it to the new id."""
        async with self.db.tx() as c:
            await ChatRepo.migrate_id(c, old, new)

    # --- the messages that show a game

    async def table(self, table_id: int) -> TableRecord | None:
        return await self._tables.get(table_id)

    async def game(self, game_id: int) -> GameRecord | None:
        return await self._games.get(game_id)

    async def superseded(self, game_id: int, table_id: int) -> bool:
        """Whether a newer game was started at the game's table."""
        newest = await self._games.newest_at(table_id)
        return newest is not None and newest > game_id

    async def hand_message(self, game_id: int, user_id: int) -> int | None:
        return await self._games.hand_message(game_id, user_id)

    async def set_hand_message(self, game_id: int, user_id: int, message_id: int) -> None:
        async with self.db.tx() as c:
            await GameRepo.set_hand_message(c, game_id, user_id, message_id)

    async def set_table_message(self, table_id: int, message_id: int) -> None:
        async with self.db.tx() as c:
            await TableRepo.update(c, table_id, table_message_id=message_id)

    async def set_lobby_message(
        self, table_id: int, message_id: int | None, *, summary: bool
    ) -> None:
        """The table's lobby message; ``summary``: it is the last game's result."""
        async with self.db.tx() as c:
            await TableRepo.update(
                c, table_id, lobby_message_id=message_id, lobby_is_summary=summary
            )

    # --- statistics

    async def stats(self, chat_id: int, user_id: int) -> Stats | None:
        return await self._stats.get(chat_id, user_id)

    async def chat_top(self, chat_id: int) -> list[Stats]:
        return await self._stats.chat_top(chat_id)

    async def standings(self, user_id: int) -> list[Standing]:
        return await self._stats.standings(user_id)
