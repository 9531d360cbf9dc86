"""Tables: a chat's lobby with settings and seats, and the games started from it.

Telegram-free: the bot calls these and turns ``TableError`` codes into texts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from storage.db import Conflict, Tx
from storage.repos import (
    ChatRepo,
    GameRepo,
    Seat,
    SeatKind,
    TableRecord,
    TableRepo,
    TableSettings,
    TableStatus,
    UserRepo,
)

from .games import Refusal, Refused
from .lobbies import Said, Shown
from .news import Update
from .series import series_start
from .table_base import Moved, Person, TableError, TableRefusal, locked
from .table_settings import BOT_LEVELS, TableSettingsOps, bot_seat, rules_for, settings_problem

__all__ = ["BOT_LEVELS", "Person", "TableError", "TableRefusal", "Tables", "rules_for"]


class Tables(TableSettingsOps):
    """A chat's table: opening it, its seats, its games' start and its closing (the
    creator's settings: ``TableSettingsOps``)."""

    async def remember(self, person: Person) -> None:
        async with self.db.tx() as c:
            await UserRepo.upsert(c, person.id, person.name, person.username, person.lang)

    async def open(self, chat_id: int, title: str, creator: Person) -> tuple[TableRecord, bool]:
        """The chat's open table, and whether it was just created. A new table speaks
        its creator's language: every group text of the table uses it."""
        existing = await self._repo.open_in_chat(chat_id)
        if existing is not None:
            return existing, False
        chat = await self.records.chat(chat_id)
        settings = chat.settings if chat else TableSettings()
        try:
            async with self.db.tx() as c:
                await ChatRepo.upsert(c, chat_id, title)
                await ChatRepo.set_lang(c, chat_id, creator.lang)
                await UserRepo.upsert(c, creator.id, creator.name, creator.username, creator.lang)
                table_id = await TableRepo.create(c, chat_id, creator.id, settings, [])
                shown = Shown(table_id, chat_id, new=True)
                await self._written(c, shown)
        except Conflict:  # a second /durak at the same instant opened it first
            existing = await self._repo.open_in_chat(chat_id)
            if existing is None:
                raise
            return existing, False
        table = await self._repo.get(table_id)
        assert table is not None
        await self._committed(table, shown)
        return table, True

    async def lang(self, chat_id: int, default: str = "ru") -> str:
        """The language of the chat's group texts: its last table's creator's."""
        chat = await self.records.chat(chat_id)
        return chat.lang if chat else default

    async def in_chat(self, chat_id: int) -> TableRecord | None:
        """The chat's open table."""
        return await self._repo.open_in_chat(chat_id)

    async def by_token(self, token: str) -> TableRecord | None:
        """The open table a deep link's join token names."""
        return await self._repo.by_join_token(token)

    async def record(self, table_id: int) -> TableRecord | None:
        """The table as stored, closed or not."""
        return await self._repo.get(table_id)

    async def table_of(self, user_id: int) -> TableRecord | None:
        """The open table where this user has a seat."""
        return await self._repo.seated_at(user_id)

    async def join(
        self,
        table_id: int,
        person: Person,
        *,
        private: bool = True,
        said: Callable[[TableRecord], Said] | None = None,
    ) -> TableRecord:
        """A seat for ``person``; their joins take turns, so two joins to two tables
        at once cannot both find them seated nowhere. ``private``: they must have
        started the bot (their hand comes to the private chat; else ``need_private``);
        False for one who plays from the group (their hand an ephemeral message).
        ``said``: the reply to the join, given the table with its new seat."""
        async with self._joining.setdefault(person.id, asyncio.Lock()):
            return await self._join(table_id, person, private, said)

    @locked
    async def _join(
        self,
        table_id: int,
        person: Person,
        private: bool,
        said: Callable[[TableRecord], Said] | None,
    ) -> TableRecord:
        table = await self.get(table_id)
        if table.status is not TableStatus.LOBBY:
            raise TableError(TableRefusal.PLAYING)
        if any(s.user_id == person.id for s in table.seats):
            raise TableError(TableRefusal.ALREADY_SEATED)
        other = await self._other_table(person)
        if other is not None:
            raise other
        user = await self.records.user(person.id)
        if private and (user is None or not user.can_message):
            raise TableError(TableRefusal.NEED_PRIVATE)
        if user is None:
            await self.remember(person)
        if len(table.seats) >= table.settings.seats:
            raise TableError(TableRefusal.TABLE_FULL)
        seat = Seat(SeatKind.HUMAN, person.name, user_id=person.id)
        try:
            return await self._set_seats(table, [*table.seats, seat], said)
        except Conflict:  # seated meanwhile at another table, by another process
            raise await self._other_table(person) or TableError(TableRefusal.NOT_NOW) from None

    async def _other_table(self, person: Person) -> TableError | None:
        """The refusal for a person seated at another open table."""
        other = await self.table_of(person.id)
        if other is None:
            return None
        chat = await self.records.chat(other.chat_id)
        return TableError(
            TableRefusal.OTHER_TABLE, chat_id=other.chat_id, title=chat.title if chat else ""
        )

    @locked
    async def leave(self, table_id: int, person: Person) -> TableRecord:
        """Free the person's seat. During a game only a player out of cards may leave
        (RULES §8); one holding cards can only surrender, which ends the game."""
        table = await self.get(table_id)
        seats = [s for s in table.seats if s.user_id != person.id]
        if len(seats) == len(table.seats):
            raise TableError(TableRefusal.NOT_SEATED)
        if table.status is TableStatus.PLAYING and await self.holds_cards(table.id, person.id):
            raise TableError(TableRefusal.CANNOT_LEAVE)
        return await self._set_seats(table, seats)

    async def holds_cards(self, table_id: int, user_id: int) -> bool:
        """Whether the user still plays (holds cards) in the table's running game."""
        return await self.games.holds_cards(table_id, user_id)

    @locked
    async def add_bot(self, table_id: int, person: Person) -> TableRecord:
        table = await self._as_creator(table_id, person)
        if len(table.seats) >= table.settings.seats:
            raise TableError(TableRefusal.TABLE_FULL)
        number = sum(not s.human for s in table.seats) + 1
        level = table.settings.bots
        return await self._set_seats(table, [*table.seats, bot_seat(level, number)])

    def check_start(self, table: TableRecord, person: Person | None) -> None:
        """Raise ``TableError`` when a game cannot start now (``person`` None: every seat
        was taken, or «Ещё партию» was pressed)."""
        if person is not None and person.id != table.creator_id:
            raise TableError(TableRefusal.ONLY_CREATOR)
        if table.status is not TableStatus.LOBBY:
            raise TableError(TableRefusal.PLAYING)
        if len(table.seats) < 2:
            raise TableError(TableRefusal.NEED_TWO)
        problem = settings_problem(table.settings, len(table.seats))
        if problem is not None:
            raise problem

    @locked
    async def start(self, table_id: int, person: Person | None, *, full: bool = False) -> Update:
        """Start a game with the seated players. The lobby message becomes the game's
        table message, unless it is the last game's summary: that one keeps its result
        and the table message will be a new one. A start decided on settings another
        process changed meanwhile is refused (``settings_moved``: «Начать» was pressed
        on others); one that nobody pressed «Начать» for is decided again on the new
        ones, as is any start whose seats or status changed meanwhile. ``full``: the
        start that follows the last seat taken, which each decision checks is still
        so (``not_full``: a seat was added meanwhile)."""
        table = await self.get(table_id)
        if full and len(table.seats) < table.settings.seats:
            raise TableError(TableRefusal.NOT_FULL)
        self.check_start(table, person)
        # The lobby message becomes the table message; a summary stays, without «Ещё партию».
        message = None if table.lobby_is_summary else table.lobby_message_id
        shown = None
        if table.lobby_is_summary and table.lobby_message_id is not None:
            shown = Shown(table.id, table.chat_id, summary=table.lobby_message_id)
        seats = list(table.seats)
        rules = rules_for(table.settings, len(seats))
        last_fool, ranks = series_start(table.series, table.seats, rules)

        async def claim(c: Tx) -> bool:
            """The start's part of the table, in its transaction: still these seats and
            settings, in its lobby (else nothing is written); the lobby message becomes
            the table's; what must be shown of the start."""
            if not await TableRepo.update(
                c,
                table.id,
                status=TableStatus.PLAYING,
                expect_seats=table.seats,
                expect_status=TableStatus.LOBBY,
                expect_settings=table.settings_version,
            ):
                return False
            if message is not None:
                await TableRepo.update(c, table.id, table_message_id=message)
            else:
                await TableRepo.update(c, table.id, clear=("table_message_id",))
            if shown is not None:
                await self._written(c, shown)
            return True

        try:
            update = await self.games.create_game(
                table.id, rules, seats, last_fool=last_fool, pogony_ranks=ranks, claim=claim
            )
        except Refused as e:  # another process started it, or changed the table, first
            if e.reason is Refusal.MOVED:
                raise (await self._moved(table) if person else Moved()) from None
            raise TableError(TableRefusal.PLAYING) from None
        await self._committed(table, shown)
        return update

    async def start_full(self, table_id: int) -> Update | None:
        """The start that follows a change taking the last seat (a join, a bot), if
        every seat is still taken (None: a seat was added meanwhile, or another press
        started the game); raises ``TableError`` when it cannot start. Unless a game
        runs, the lobby is shown then (alone, the seat's change did not show it)."""
        try:
            return await self.start(table_id, None, full=True)
        except TableError as e:
            if e.code is TableRefusal.PLAYING:
                return None
            table = await self.get(table_id)
            await self._committed(table, Shown(table.id, table.chat_id))
            if e.code is TableRefusal.NOT_FULL:
                return None
            raise

    def game_of(self, table_id: int) -> int | None:
        """The id of the table's running game."""
        return self.games.game_of(table_id)

    @locked
    async def close(
        self, table_id: int, *, why: str | None = None, title: str = "", said: Said | None = None
    ) -> None:
        """Close the table; its running game ends unfinished and leaves memory. Under
        the table's lock, so a game being started now is started first, then ended.
        ``why``: its messages say so with this text (``Shown.closed``), and ``said``
        answers the command after them."""
        table, shown = await self._repo.get(table_id), None
        async with self.db.tx() as c:
            await TableRepo.update(c, table_id, status=TableStatus.CLOSED)
            # in the same transaction: a step racing this close (here or in another
            # process) finds its game over and is dropped, never reopening the table
            game_id = await GameRepo.abandon_at_table(c, table_id)
            if why is not None and table is not None:
                shown = Shown(
                    table_id, table.chat_id, closed=why, title=title, game_id=game_id, said=said
                )
                await self._written(c, shown)
        self._locks.pop(table_id, None)
        await self.games.end_table(table_id)
        if table is not None:  # (as read: the ids of its messages)
            await self._committed(table, shown)

    async def _set_seats(
        self,
        table: TableRecord,
        seats: list[Seat],
        said: Callable[[TableRecord], Said] | None = None,
    ) -> TableRecord:
        """Raises ``Moved`` if the seats are no longer those read, ``Conflict`` if a
        person in them sits at another table. The lobby shows them, unless a game is
        being played (one out of cards left it); once every seat is taken, a start
        follows (``Shown.full``). ``said``: the reply, given the table as it will be."""
        shown = None
        if table.status is TableStatus.LOBBY:
            full = len(seats) >= table.settings.seats
            lobby = table.lobby_message_id if full else None
            reply = None if said is None else said(replace(table, seats=seats))
            shown = Shown(table.id, table.chat_id, full=full, lobby=lobby, said=reply)
        async with self.db.tx() as c:
            if not await TableRepo.update(
                c,
                table.id,
                seats=seats,
                expect_seats=table.seats,
                expect_status=table.status,
                expect_settings=table.settings_version,  # (fewer seats, say: decide again)
            ):
                raise Moved
            if shown is not None:
                await self._written(c, shown)
        return await self._committed(await self.get(table.id), shown)
