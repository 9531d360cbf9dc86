"""Repositories: small typed reads and writes. No game logic lives here.

Writers take the connection of an open transaction (``async with db.tx() as c``)
so that a caller can commit several records at once; readers use the Database.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from .db import Database, Row, Tx
from .game_repo import GameRepo, _now, _seats, _seats_json
from .records import (
    ActionRecord,
    Chat,
    GameRecord,
    GameStatus,
    Seat,
    SeatKind,
    Series,
    Standing,
    Stats,
    TableRecord,
    TableSettings,
    TableStatus,
    User,
)

__all__ = [
    "ActionRecord",
    "Chat",
    "ChatRepo",
    "GameRecord",
    "GameRepo",
    "GameStatus",
    "Seat",
    "SeatKind",
    "Series",
    "Standing",
    "Stats",
    "StatsRepo",
    "TableRecord",
    "TableRepo",
    "TableSettings",
    "TableStatus",
    "User",
    "UserRepo",
    "new_join_token",
]

Conn = Tx


def new_join_token() -> str:
    """128 random bits in the characters a deep link's payload allows (22 of A-Z a-z
    0-9 _ -): a table's join link cannot be guessed from another one."""
    return secrets.token_urlsafe(16)


class ChatRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def upsert(c: Conn, chat_id: int, title: str, lang: str = "ru") -> None:
        await c.execute(
            "INSERT INTO chats (id, title, lang, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(id) DO UPDATE SET title = excluded.title",
            (chat_id, title, lang, _now()),
        )

    @staticmethod
    async def set_settings(c: Conn, chat_id: int, settings: TableSettings) -> None:
        await c.execute(
            "UPDATE chats SET settings = ? WHERE id = ?",
            (json.dumps(settings.to_dict()), chat_id),
        )

    @staticmethod
    async def set_lang(c: Conn, chat_id: int, lang: str) -> None:
        await c.execute("UPDATE chats SET lang = ? WHERE id = ?", (lang, chat_id))

    @staticmethod
    async def migrate_id(c: Conn, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its tables and statistics follow (ON UPDATE CASCADE)."""
        await c.execute("UPDATE chats SET id = ? WHERE id = ?", (new_id, old_id))

    async def get(self, chat_id: int) -> Chat | None:
        row = await self.db.fetch_one("SELECT * FROM chats WHERE id = ?", (chat_id,))
        if row is None:
            return None
        settings = TableSettings.from_dict(json.loads(row["settings"]))
        return Chat(row["id"], row["title"], row["lang"], settings)


class UserRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def upsert(
        c: Conn, user_id: int, name: str, username: str | None = None, lang: str = "ru"
    ) -> None:
        await c.execute(
            "INSERT INTO users (id, name, username, lang, updated_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(id) DO UPDATE SET name = excluded.name, username = excluded.username,"
            " lang = excluded.lang, updated_at = excluded.updated_at",
            (user_id, name, username, lang, _now()),
        )

    @staticmethod
    async def set_can_message(c: Conn, user_id: int, can: bool) -> None:
        await c.execute("UPDATE users SET can_message = ? WHERE id = ?", (int(can), user_id))

    async def get(self, user_id: int) -> User | None:
        row = await self.db.fetch_one("SELECT * FROM users WHERE id = ?", (user_id,))
        if row is None:
            return None
        return User(row["id"], row["name"], row["username"], row["lang"], bool(row["can_message"]))


def _table(row: Row) -> TableRecord:
    return TableRecord(
        row["id"],
        row["chat_id"],
        row["creator_id"],
        TableSettings.from_dict(json.loads(row["settings"])),
        _seats(row["seats"]),
        TableStatus(row["status"]),
        row["lobby_message_id"],
        row["table_message_id"],
        Series.from_dict(json.loads(row["series"])),
        bool(row["lobby_is_summary"]),
        row["join_token"] or "",
        row["settings_version"],
    )


class TableRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def create(
        c: Conn,
        chat_id: int,
        creator_id: int,
        settings: TableSettings,
        seats: list[Seat],
        join_token: str | None = None,
    ) -> int:
        """A new table in the lobby; ``join_token`` is random unless given."""
        await c.effect()
        return await c.insert(
            "INSERT INTO tables (chat_id, creator_id, settings, seats, status, created_at,"
            " join_token) VALUES (?, ?, ?, ?, 'lobby', ?, ?)",
            (
                chat_id,
                creator_id,
                json.dumps(settings.to_dict()),
                _seats_json(seats),
                _now(),
                join_token or new_join_token(),
            ),
        )

    @staticmethod
    async def update(
        c: Conn,
        table_id: int,
        *,
        settings: TableSettings | None = None,
        seats: list[Seat] | None = None,
        status: TableStatus | None = None,
        lobby_message_id: int | None = None,
        table_message_id: int | None = None,
        series: Series | None = None,
        lobby_is_summary: bool | None = None,
        clear: tuple[str, ...] = (),
        expect_seats: list[Seat] | None = None,
        expect_status: TableStatus | None = None,
        expect_settings: int | None = None,
    ) -> bool:
        """Set the given columns (None leaves one as it is; ``clear`` names the message
        id columns to empty). ``expect_seats``, ``expect_status``, ``expect_settings``
        (the ``settings_version`` read): only if the table is still as it was read
        (False: it changed meanwhile); new settings count one more version. New seats
        raise ``Conflict`` when a person in them is seated at another open table;
        closing frees them."""
        changes: dict[str, Any] = {
            "series": None if series is None else json.dumps(series.to_dict()),
            "settings": None if settings is None else json.dumps(settings.to_dict()),
            "seats": None if seats is None else _seats_json(seats),
            "status": None if status is None else status.value,
            "lobby_message_id": lobby_message_id,
            "table_message_id": table_message_id,
            "lobby_is_summary": lobby_is_summary,
        }
        sets = {k: v for k, v in changes.items() if v is not None}
        if sets.keys() - {"lobby_message_id", "table_message_id", "lobby_is_summary"}:
            await c.effect()  # (not a message's id: the same when written again)
        for column in clear:
            if column not in ("lobby_message_id", "table_message_id"):
                raise ValueError(f"cannot clear {column}")
            sets[column] = None
        where, args = "id = ?", list[Any]([table_id])
        if expect_seats is not None:
            where, args = f"{where} AND seats = ?", [*args, _seats_json(expect_seats)]
        if expect_status is not None:
            where, args = f"{where} AND status = ?", [*args, expect_status.value]
        if expect_settings is not None:
            where, args = f"{where} AND settings_version = ?", [*args, expect_settings]
        if sets:
            columns = ", ".join(f"{k} = ?" for k in sets)
            if settings is not None:
                columns += ", settings_version = settings_version + 1"
            sql = f"UPDATE tables SET {columns} WHERE {where}"
            if not await c.execute(sql, (*sets.values(), *args)):
                return False
        closing = status is TableStatus.CLOSED
        if seats is not None or closing:
            await c.execute("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
        people = [] if seats is None or closing else seats
        for seat in people:
            if seat.human and seat.user_id is not None:
                await c.execute(
                    "INSERT INTO table_seats (table_id, user_id) VALUES (?, ?)",
                    (table_id, seat.user_id),
                )
        return True

    @staticmethod
    async def series_in(c: Conn, table_id: int) -> Series:
        """The table's series, read inside a transaction."""
        row = await c.fetch_one("SELECT series FROM tables WHERE id = ?", (table_id,))
        return Series() if row is None else Series.from_dict(json.loads(row["series"]))

    async def get(self, table_id: int) -> TableRecord | None:
        row = await self.db.fetch_one("SELECT * FROM tables WHERE id = ?", (table_id,))
        return None if row is None else _table(row)

    async def seated_at(self, user_id: int) -> TableRecord | None:
        """The open table where this user has a seat (``table_seats``: at most one)."""
        row = await self.db.fetch_one(
            "SELECT t.* FROM table_seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.user_id = ? AND t.status != 'closed'",
            (user_id,),
        )
        return None if row is None else _table(row)

    async def by_join_token(self, token: str) -> TableRecord | None:
        """The open table with this join token."""
        row = await self.db.fetch_one(
            "SELECT * FROM tables WHERE join_token = ? AND status != 'closed'", (token,)
        )
        return None if row is None else _table(row)

    async def open_in_chat(self, chat_id: int) -> TableRecord | None:
        row = await self.db.fetch_one(
            "SELECT * FROM tables WHERE chat_id = ? AND status != 'closed'", (chat_id,)
        )
        return None if row is None else _table(row)


# The statistics' columns, in the order of ``Stats``' fields.
STATS = (
    "chat_id",
    "user_id",
    "games",
    "wins",
    "fools",
    "draws",
    "surrenders",
    "pogony",
    "mu",
    "sigma",
    "pogony_given",
)


def _columns(table: str = "") -> str:
    """The statistics' columns for a SELECT (``table``: the alias with its dot)."""
    return ", ".join(f"{table}{name}" for name in STATS)


def _stats(row: Row) -> Stats:
    """A row with the columns of ``_columns()``, read by name."""
    return Stats(
        chat_id=row["chat_id"],
        user_id=row["user_id"],
        games=row["games"],
        wins=row["wins"],
        fools=row["fools"],
        draws=row["draws"],
        surrenders=row["surrenders"],
        pogony=row["pogony"],
        mu=row["mu"],
        sigma=row["sigma"],
        pogony_given=row["pogony_given"],
    )


class StatsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def get_in(c: Conn, chat_id: int, user_id: int) -> Stats | None:
        row = await c.fetch_one(
            f"SELECT {_columns()} FROM stats WHERE chat_id = ? AND user_id = ?",
            (chat_id, user_id),
        )
        return None if row is None else _stats(row)

    @staticmethod
    async def put(c: Conn, s: Stats) -> None:
        await c.execute(
            f"INSERT INTO stats ({_columns()}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (chat_id, user_id) DO UPDATE SET games = excluded.games,"
            " wins = excluded.wins, fools = excluded.fools, draws = excluded.draws,"
            " surrenders = excluded.surrenders, pogony = excluded.pogony, mu = excluded.mu,"
            " sigma = excluded.sigma, pogony_given = excluded.pogony_given",
            (
                s.chat_id,
                s.user_id,
                s.games,
                s.wins,
                s.fools,
                s.draws,
                s.surrenders,
                s.pogony,
                s.mu,
                s.sigma,
                s.pogony_given,
            ),
        )

    async def get(self, chat_id: int, user_id: int) -> Stats | None:
        row = await self.db.fetch_one(
            f"SELECT {_columns()} FROM stats WHERE chat_id = ? AND user_id = ?",
            (chat_id, user_id),
        )
        return None if row is None else _stats(row)

    async def chat_top(self, chat_id: int, limit: int = 10) -> list[Stats]:
        rows = await self.db.fetch_all(
            f"SELECT {_columns()} FROM stats WHERE chat_id = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
            (chat_id, limit),
        )
        return [_stats(r) for r in rows]

    async def standings(self, user_id: int) -> list[Standing]:
        """The user's statistics in every chat where they finished a game, most played first."""
        rows = await self.db.fetch_all(
            f"SELECT {_columns('s.')}, c.title,"
            " (SELECT COUNT(*) FROM stats o WHERE o.chat_id = s.chat_id"
            "  AND o.mu - 3 * o.sigma > s.mu - 3 * s.sigma) + 1 AS place,"
            " (SELECT COUNT(*) FROM stats o WHERE o.chat_id = s.chat_id) AS players"
            " FROM stats s JOIN chats c ON c.id = s.chat_id"
            " WHERE s.user_id = ? ORDER BY s.games DESC, s.chat_id",
            (user_id,),
        )
        return [Standing(_stats(r), r["title"], r["place"], r["players"]) for r in rows]
