"""Tables: a chat's lobby with settings and seats, and the games started from it.

Telegram-free: the bot calls these and turns ``TableError`` codes into texts.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from engine import Rules
from engine.bots import NAMES as BOT_NAMES
from engine.presets import PRESETS
from engine.rules import DECK_PLAYERS, Mode
from storage.db import Conflict, Database, Tx
from storage.repos import (
    ChatRepo,
    GameRepo,
    Seat,
    TableRecord,
    TableRepo,
    TableSettings,
    UserRepo,
)

from .games import GameService, Refused, Update
from .lobbies import Lobbies, Shown
from .lobby_rules import (
    OPTIONS,
    TRANSFER_ONLY,
    changed,
    page_of,
    rules_problem,
    table_rules,
    with_option,
    with_preset,
)
from .records import Records
from .series import series_start

# A setting's values, in the order its button cycles them.
CYCLES: dict[str, tuple[str | int | bool, ...]] = {
    "mode": ("podkidnoy", "perevodnoy"),
    "deck": (24, 36, 52),
    "throw_in": ("all", "neighbors"),
    "pairs": (False, True),
    "speed": ("normal", "fast"),
}
BOT_LEVELS = tuple(BOT_NAMES)  # novice, expert, master
MAX_SEATS = max(high for _, high in DECK_PLAYERS.values())


class TableError(Exception):
    """A refused lobby request: ``code`` names the text, ``params`` fill it in."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def bot_seat(level: str, number: int) -> Seat:
    """A bot seat named by its strength and number: «Мастер 2»."""
    return Seat("bot", f"{BOT_NAMES[level]} {number}", level=level)


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    username: str | None = None
    lang: str = "ru"


def settings_problem(settings: TableSettings, players: int | None = None) -> TableError | None:
    """Why these settings cannot be played (by ``players``; the seats by default), or None."""
    deck, seats = settings.deck, settings.seats if players is None else players
    low, high = DECK_PLAYERS[deck]
    if not low <= seats <= high:
        return TableError("bad_settings", reason="deck_players", deck=deck, low=low, high=high)
    if settings.pairs and seats not in (4, 6):
        return TableError("bad_settings", reason="pairs_players")
    problem = rules_problem(settings, players)
    if problem is not None:
        return TableError("bad_settings", reason=problem[0], **problem[1])
    return None


P = ParamSpec("P")
R = TypeVar("R")


class _Moved(Exception):
    """The table's seats changed in the database since they were read (another
    process wrote them): read them again and decide again."""


RETRIES = 5  # reads of a table whose seats another process keeps changing


def locked(
    method: Callable[Concatenate[Tables, int, P], Awaitable[R]],
) -> Callable[Concatenate[Tables, int, P], Awaitable[R]]:
    """Hold the table's lock across the method: aiogram handles updates concurrently,
    and two presses must not both read the same seats or both start a game. Other
    processes do not see the lock: the seats are written only if they are still what
    was read (else the method runs again), and the database keeps one seat per person
    and one game per table."""

    @wraps(method)
    async def run(self: Tables, table_id: int, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self._locks.setdefault(table_id, asyncio.Lock()):
            for _ in range(RETRIES - 1):
                try:
                    return await method(self, table_id, *args, **kwargs)
                except _Moved:
                    continue
            try:
                return await method(self, table_id, *args, **kwargs)
            except _Moved:
                raise TableError("not_now") from None

    return run


def rules_for(settings: TableSettings, players: int) -> Rules:
    return table_rules(settings, players)


class Tables:
    def __init__(self, db: Database, games: GameService) -> None:
        self.db = db
        self.games = games
        self.lobbies: Lobbies | None = None  # each change's lobby message (none: tests)
        self._repo = TableRepo(db)
        self.records = Records(db)  # people, chats, statistics, message ids
        self._locks: dict[int, asyncio.Lock] = {}  # table id -> its lock (see ``locked``)
        # person id -> the lock their joins take turns on (gone once no join holds it)
        self._joining: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

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

    async def _written(self, c: Tx, shown: Shown) -> None:
        if self.lobbies is not None:
            await self.lobbies.written(c, shown)

    async def _committed(self, table: TableRecord, shown: Shown | None) -> TableRecord:
        if self.lobbies is not None and shown is not None:
            await self.lobbies.committed(table, shown)
        return table

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

    async def get(self, table_id: int) -> TableRecord:
        table = await self._repo.get(table_id)
        if table is None or table.status == "closed":
            raise TableError("no_table")
        return table

    async def table_of(self, user_id: int) -> TableRecord | None:
        """The open table where this user has a seat."""
        return await self._repo.seated_at(user_id)

    async def join(self, table_id: int, person: Person, *, private: bool = True) -> TableRecord:
        """A seat for ``person``; their joins take turns, so two joins to two tables
        at once cannot both find them seated nowhere. ``private``: they must have
        started the bot (their hand comes to the private chat; else ``need_private``);
        False for one who plays from the group (their hand an ephemeral message)."""
        async with self._joining.setdefault(person.id, asyncio.Lock()):
            return await self._join(table_id, person, private)

    @locked
    async def _join(self, table_id: int, person: Person, private: bool) -> TableRecord:
        table = await self.get(table_id)
        if table.status != "lobby":
            raise TableError("playing")
        if any(s.user_id == person.id for s in table.seats):
            raise TableError("already_seated")
        other = await self._other_table(person)
        if other is not None:
            raise other
        user = await self.records.user(person.id)
        if private and (user is None or not user.can_message):
            raise TableError("need_private")
        if user is None:
            await self.remember(person)
        if len(table.seats) >= table.settings.seats:
            raise TableError("table_full")
        seat = Seat("human", person.name, user_id=person.id)
        try:
            return await self._set_seats(table, [*table.seats, seat])
        except Conflict:  # seated meanwhile at another table, by another process
            raise await self._other_table(person) or TableError("not_now") from None

    async def _other_table(self, person: Person) -> TableError | None:
        """The refusal for a person seated at another open table."""
        other = await self.table_of(person.id)
        if other is None:
            return None
        chat = await self.records.chat(other.chat_id)
        return TableError("other_table", chat_id=other.chat_id, title=chat.title if chat else "")

    @locked
    async def leave(self, table_id: int, person: Person) -> TableRecord:
        """Free the person's seat. During a game only a player out of cards may leave
        (RULES §8); one holding cards can only surrender, which ends the game."""
        table = await self.get(table_id)
        seats = [s for s in table.seats if s.user_id != person.id]
        if len(seats) == len(table.seats):
            raise TableError("not_seated")
        if table.status == "playing" and self.holds_cards(table.id, person.id):
            raise TableError("cannot_leave")
        return await self._set_seats(table, seats)

    def holds_cards(self, table_id: int, user_id: int) -> bool:
        """Whether the user still plays (holds cards) in the table's running game."""
        return self.games.holds_cards(table_id, user_id)

    @locked
    async def add_bot(self, table_id: int, person: Person) -> TableRecord:
        table = await self._as_creator(table_id, person)
        if len(table.seats) >= table.settings.seats:
            raise TableError("table_full")
        number = sum(not s.human for s in table.seats) + 1
        level = table.settings.bots
        return await self._set_seats(table, [*table.seats, bot_seat(level, number)])

    @locked
    async def set_bots(self, table_id: int, person: Person, level: str) -> TableRecord:
        """Choose the strength of the table's bots: the seated ones and those added later."""
        table = await self._as_creator(table_id, person)
        if level not in BOT_LEVELS:
            raise TableError("not_now")
        settings = replace(table.settings, bots=level)
        seats, number = [], 0
        for seat in table.seats:
            if not seat.human:
                number += 1
                seat = bot_seat(level, number)
            seats.append(seat)
        shown = Shown(table.id, table.chat_id)
        async with self.db.tx() as c:
            written = await TableRepo.update(
                c,
                table.id,
                settings=settings,
                seats=seats,
                expect_seats=table.seats,
                expect_settings=table.settings_version,
            )
            if written:
                await ChatRepo.set_settings(c, table.chat_id, settings)
                await self._written(c, shown)
        if not written:
            raise await self._moved(table)
        return await self._committed(await self.get(table.id), shown)

    @locked
    async def set_preset(
        self, table_id: int, person: Person, key: str
    ) -> tuple[TableRecord, list[str]]:
        """Choose a preset: its options, and the players, deck and mode it fixes. Also
        says which of the table's mode, deck, seats and pairs changed with it."""
        table = await self._as_creator(table_id, person)
        if key not in PRESETS:
            raise TableError("not_now")
        settings = with_preset(table.settings, key, len(table.seats))
        saved = await self._save_settings(table, settings, page="rules")
        return saved, changed(table.settings, saved.settings)

    @locked
    async def set_option(self, table_id: int, person: Person, option: str) -> TableRecord:
        """Move one optional rule to its next value."""
        table = await self._as_creator(table_id, person)
        if option not in OPTIONS:
            raise TableError("not_now")
        settings = table.settings
        if option in TRANSFER_ONLY and settings.mode != Mode.PEREVODNOY:
            raise TableError("bad_settings", reason="transfer_only")
        return await self._save_settings(table, with_option(settings, option), page_of(option))

    @locked
    async def change(self, table_id: int, person: Person, field: str, step: int = 1) -> TableRecord:
        """Move one setting to its next value (``seats`` by ``step``)."""
        table = await self._as_creator(table_id, person)
        settings = table.settings
        if field == "seats":
            value: Any = settings.seats + step
            if value < max(2, len(table.seats)):
                raise TableError("need_two" if value < 2 else "seats_taken")
        elif field in CYCLES:
            values = CYCLES[field]
            value = values[(values.index(getattr(settings, field)) + 1) % len(values)]
        else:
            raise TableError("not_now")
        own = {k: v for k, v in settings.own.items() if k != field}  # the creator's choice now
        return await self._save_settings(table, replace(settings, own=own, **{field: value}))

    @locked
    async def next_seats(self, table_id: int, person: Person) -> TableRecord:
        """One more seat, or back to the fewest once no more can be played (the seated
        players keep theirs); counts these settings cannot play are skipped."""
        table = await self._as_creator(table_id, person)
        settings, low = table.settings, max(2, len(table.seats))
        counts = [*range(settings.seats + 1, MAX_SEATS + 1), *range(low, settings.seats)]
        for seats in counts:
            if settings_problem(replace(settings, seats=seats)) is None:
                own = {k: v for k, v in settings.own.items() if k != "seats"}
                return await self._save_settings(table, replace(settings, seats=seats, own=own))
        raise settings_problem(replace(settings, seats=settings.seats + 1)) or TableError("not_now")

    async def _save_settings(
        self, table: TableRecord, settings: TableSettings, page: str | None = None
    ) -> TableRecord:
        """Store playable settings with the table and as the chat's default; the lobby
        shows them on ``page``."""
        problem = settings_problem(settings)
        if problem is not None:
            raise problem
        shown = Shown(table.id, table.chat_id, page=page)
        async with self.db.tx() as c:
            written = await TableRepo.update(
                c,
                table.id,
                settings=settings,
                expect_seats=table.seats,
                expect_status="lobby",
                expect_settings=table.settings_version,
            )
            if written:
                await ChatRepo.set_settings(c, table.chat_id, settings)
                await self._written(c, shown)
        if not written:
            raise await self._moved(table)
        return await self._committed(await self.get(table.id), shown)

    async def _moved(self, table: TableRecord) -> Exception:
        """Why a settings change did not write: the settings were changed meanwhile by
        another process (refused: the creator decided on settings no longer there), or
        only the seats or the status were (``_Moved``: read them again and decide again)."""
        now = await self._repo.get(table.id)
        if now is not None and now.settings_version != table.settings_version:
            return TableError("settings_moved")
        return _Moved()

    def check_start(self, table: TableRecord, person: Person | None) -> None:
        """Raise ``TableError`` when a game cannot start now (``person`` None: every seat
        was taken, or «Ещё партию» was pressed)."""
        if person is not None and person.id != table.creator_id:
            raise TableError("only_creator")
        if table.status != "lobby":
            raise TableError("playing")
        if len(table.seats) < 2:
            raise TableError("need_two")
        problem = settings_problem(table.settings, len(table.seats))
        if problem is not None:
            raise problem

    @locked
    async def start(self, table_id: int, person: Person | None) -> Update:
        """Start a game with the seated players. The lobby message becomes the game's
        table message, unless it is the last game's summary: that one keeps its result
        and the table message will be a new one. A start decided on settings another
        process changed meanwhile is refused (``settings_moved``: «Начать» was pressed
        on others); one that nobody pressed «Начать» for is decided again on the new
        ones, as is any start whose seats or status changed meanwhile."""
        table = await self.get(table_id)
        self.check_start(table, person)
        message = None if table.lobby_is_summary else table.lobby_message_id
        shown = Shown(table.id, table.chat_id) if message is None else None  # (a summary's
        seats = list(table.seats)  # «Ещё партию» goes; else it is the table message now)
        rules = rules_for(table.settings, len(seats))
        last_fool, ranks = series_start(table.series, table.seats, rules)
        try:
            update = await self.games.create_game(
                table.id,
                rules,
                seats,
                last_fool=last_fool,
                pogony_ranks=ranks,
                lobby=table.seats,
                settings_version=table.settings_version,
                table_message=message,
                along=None if shown is None else lambda c: self._written(c, shown),
            )
        except Refused as e:  # another process started it, or changed the table, first
            if e.reason == "moved":
                raise (await self._moved(table) if person else _Moved()) from None
            raise TableError("playing") from None
        if shown is not None and (started := await self._repo.get(table.id)) is not None:
            await self._committed(started, shown)
        return update

    def game_of(self, table_id: int) -> int | None:
        """The id of the table's running game."""
        return self.games.game_of(table_id)

    @locked
    async def close(self, table_id: int, *, why: str | None = None, title: str = "") -> None:
        """Close the table; its running game ends unfinished and leaves memory. Under
        the table's lock, so a game being started now is started first, then ended.
        ``why``: its messages say so with this text (``Shown.closed``)."""
        table, shown = await self._repo.get(table_id), None
        async with self.db.tx() as c:
            await TableRepo.update(c, table_id, status="closed")
            # in the same transaction: a step racing this close (here or in another
            # process) finds its game over and is dropped, never reopening the table
            game_id = await GameRepo.abandon_at_table(c, table_id)
            if why is not None and table is not None:
                shown = Shown(table_id, table.chat_id, closed=why, title=title, game_id=game_id)
                await self._written(c, shown)
        self._locks.pop(table_id, None)
        await self.games.end_table(table_id)
        if table is not None:  # (as read: the ids of its messages)
            await self._committed(table, shown)

    async def _as_creator(self, table_id: int, person: Person) -> TableRecord:
        table = await self.get(table_id)
        if person.id != table.creator_id:
            raise TableError("only_creator")
        if table.status != "lobby":
            raise TableError("playing")
        return table

    async def _set_seats(self, table: TableRecord, seats: list[Seat]) -> TableRecord:
        """Raises ``_Moved`` if the seats are no longer those read, ``Conflict`` if a
        person in them sits at another table. The lobby shows them, unless a game is
        being played (one out of cards left it) or every seat is taken (it starts)."""
        shown = None
        if table.status == "lobby" and len(seats) < table.settings.seats:
            shown = Shown(table.id, table.chat_id)
        async with self.db.tx() as c:
            if not await TableRepo.update(
                c,
                table.id,
                seats=seats,
                expect_seats=table.seats,
                expect_status=table.status,
                expect_settings=table.settings_version,  # (fewer seats, say: decide again)
            ):
                raise _Moved
            if shown is not None:
                await self._written(c, shown)
        return await self._committed(await self.get(table.id), shown)
