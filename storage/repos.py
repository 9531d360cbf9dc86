"""Repositories: small typed reads and writes. No game logic lives here.

Writers take the connection of an open transaction (``async with db.tx() as c``)
so that a caller can commit several records at once; readers use the Database.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from .db import Database, Row, Tx
from .records import (
    ActionRecord,
    Chat,
    GameRecord,
    Seat,
    Standing,
    Stats,
    TableRecord,
    TableSettings,
    User,
)

__all__ = [
    "ActionRecord",
    "Chat",
    "ChatRepo",
    "GameRecord",
    "GameRepo",
    "Seat",
    "Standing",
    "Stats",
    "StatsRepo",
    "TableRecord",
    "TableRepo",
    "TableSettings",
    "User",
    "UserRepo",
    "new_join_token",
]

Conn = Tx


def _now() -> float:
    return time.time()


def new_join_token() -> str:
    """128 random bits in the characters a deep link's payload allows (22 of A-Z a-z
    0-9 _ -): a table's join link cannot be guessed from another one."""
    return secrets.token_urlsafe(16)


def _seats(text: str) -> list[Seat]:
    return [Seat.from_dict(s) for s in json.loads(text)]


def _seats_json(seats: list[Seat]) -> str:
    return json.dumps([s.to_dict() for s in seats])


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
        row["status"],
        row["lobby_message_id"],
        row["table_message_id"],
        json.loads(row["series"]),
        bool(row["lobby_is_summary"]),
        row["join_token"] or "",
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
        status: str | None = None,
        lobby_message_id: int | None = None,
        table_message_id: int | None = None,
        series: dict[str, Any] | None = None,
        lobby_is_summary: bool | None = None,
        clear: tuple[str, ...] = (),
        expect_seats: list[Seat] | None = None,
        expect_status: str | None = None,
    ) -> bool:
        """Set the given columns (None leaves one as it is; ``clear`` names the message
        id columns to empty). ``expect_seats``, ``expect_status``: only if the table is
        still as it was read (False: it changed meanwhile). New seats raise ``Conflict``
        when a person in them is seated at another open table; closing frees them."""
        changes: dict[str, Any] = {
            "series": None if series is None else json.dumps(series),
            "settings": None if settings is None else json.dumps(settings.to_dict()),
            "seats": None if seats is None else _seats_json(seats),
            "status": status,
            "lobby_message_id": lobby_message_id,
            "table_message_id": table_message_id,
            "lobby_is_summary": lobby_is_summary,
        }
        sets = {k: v for k, v in changes.items() if v is not None}
        for column in clear:
            if column not in ("lobby_message_id", "table_message_id"):
                raise ValueError(f"cannot clear {column}")
            sets[column] = None
        where, args = "id = ?", list[Any]([table_id])
        if expect_seats is not None:
            where, args = f"{where} AND seats = ?", [*args, _seats_json(expect_seats)]
        if expect_status is not None:
            where, args = f"{where} AND status = ?", [*args, expect_status]
        if sets:
            columns = ", ".join(f"{k} = ?" for k in sets)
            sql = f"UPDATE tables SET {columns} WHERE {where}"
            if not await c.execute(sql, (*sets.values(), *args)):
                return False
        if seats is not None or status == "closed":
            await c.execute("DELETE FROM table_seats WHERE table_id = ?", (table_id,))
        people = [] if seats is None or status == "closed" else seats
        for seat in people:
            if seat.human and seat.user_id is not None:
                await c.execute(
                    "INSERT INTO table_seats (table_id, user_id) VALUES (?, ?)",
                    (table_id, seat.user_id),
                )
        return True

    @staticmethod
    async def series_in(c: Conn, table_id: int) -> dict[str, Any]:
        """The table's series, read inside a transaction."""
        row = await c.fetch_one("SELECT series FROM tables WHERE id = ?", (table_id,))
        return {} if row is None else dict(json.loads(row[0]))

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

    async def open_tables(self) -> list[TableRecord]:
        rows = await self.db.fetch_all("SELECT * FROM tables WHERE status != 'closed'")
        return [_table(r) for r in rows]

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


def _game(row: Row) -> GameRecord:
    return GameRecord(
        row["id"],
        row["table_id"],
        json.loads(row["rules"]),
        _seats(row["seats"]),
        int(row["seed_text"]) if row["seed_text"] is not None else row["seed"],
        row["status"],
        row["version"],
        json.loads(row["snapshot"]),
        row["deadline"],
        row["deadline_for"],
        None if row["outcome"] is None else json.loads(row["outcome"]),
        row["last_fool"],
        None if row["pogony_ranks"] is None else json.loads(row["pogony_ranks"]),
    )


class GameRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def create(
        c: Conn,
        table_id: int,
        rules: dict[str, Any],
        seats: list[Seat],
        seed: int,
        snapshot: dict[str, Any],
        *,
        last_fool: int | None = None,
        pogony_ranks: list[int] | None = None,
    ) -> int:
        return await c.insert(
            "INSERT INTO games (table_id, rules, seats, seed, seed_text, status, snapshot,"
            " started_at, last_fool, pogony_ranks)"
            " VALUES (?, ?, ?, 0, ?, 'playing', ?, ?, ?, ?)",
            (
                table_id,
                json.dumps(rules),
                _seats_json(seats),
                str(seed),  # any size (see migration 0006)
                _dump(snapshot),
                _now(),
                last_fool,
                None if pogony_ranks is None else json.dumps(pogony_ranks),
            ),
        )

    @staticmethod
    async def append_action(
        c: Conn, game_id: int, seq: int, seat: int, action: str, auto: bool, at: float
    ) -> None:
        """Add one action to the log; (game, seq) is unique, so nothing is applied twice."""
        await c.execute(
            "INSERT INTO actions (game_id, seq, seat, action, auto, at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, seat, action, int(auto), at),
        )

    @staticmethod
    async def save_state(
        c: Conn,
        game_id: int,
        *,
        version: int,
        snapshot: dict[str, Any],
        deadline: float | None,
        deadline_for: str | None,
        outcome: dict[str, Any] | None = None,
        seats: list[Seat] | None = None,
        expect_version: int | None = None,
    ) -> bool:
        """``expect_version``: only if the game still runs at that version (a compare-and-set:
        False when another process moved first; on PostgreSQL the row stays locked until
        the transaction ends, so a second writer waits, then finds the version moved)."""
        where = "id = ?"
        if expect_version is not None:  # and still running: not ended by a closed table
            where = "id = ? AND version = ? AND status = 'playing'"
        changed = await c.execute(
            "UPDATE games SET version = ?, snapshot = ?, deadline = ?, deadline_for = ?,"
            f" outcome = ?, status = ?, ended_at = ?, seats = COALESCE(?, seats) WHERE {where}",
            (
                version,
                _dump(snapshot),
                deadline,
                deadline_for,
                None if outcome is None else json.dumps(outcome),
                "playing" if outcome is None else "over",
                None if outcome is None else _now(),
                None if seats is None else _seats_json(seats),
                game_id,
                *(() if expect_version is None else (expect_version,)),
            ),
        )
        return changed == 1

    @staticmethod
    async def abandon(c: Conn, game_id: int) -> None:
        """End a game that was not played out (its table was closed): over, no outcome."""
        await c.execute(
            "UPDATE games SET status = 'over', deadline = NULL, deadline_for = NULL,"
            " ended_at = ? WHERE id = ? AND status = 'playing'",
            (_now(), game_id),
        )

    async def get(self, game_id: int) -> GameRecord | None:
        row = await self.db.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def running_ids(self) -> list[tuple[int, int]]:
        """(game, table) of every running game: read without parsing, so that one
        damaged row can be dealt with on its own."""
        rows = await self.db.fetch_all(
            "SELECT id, table_id FROM games WHERE status = 'playing' ORDER BY id"
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def running(self) -> list[GameRecord]:
        rows = await self.db.fetch_all("SELECT * FROM games WHERE status = 'playing' ORDER BY id")
        return [_game(r) for r in rows]

    async def actions(self, game_id: int) -> list[ActionRecord]:
        rows = await self.db.fetch_all(
            "SELECT seq, seat, action, auto, at FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [ActionRecord(r[0], r[1], r[2], bool(r[3]), r[4]) for r in rows]

    @staticmethod
    async def set_hand_message(c: Conn, game_id: int, user_id: int, message_id: int) -> None:
        await c.execute(
            "INSERT INTO hand_messages (game_id, user_id, message_id) VALUES (?, ?, ?)"
            " ON CONFLICT(game_id, user_id) DO UPDATE SET message_id = excluded.message_id",
            (game_id, user_id, message_id),
        )

    async def hand_message(self, game_id: int, user_id: int) -> int | None:
        row = await self.db.fetch_one(
            "SELECT message_id FROM hand_messages WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return None if row is None else int(row[0])


class StatsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def get_in(c: Conn, chat_id: int, user_id: int) -> Stats | None:
        row = await c.fetch_one(
            "SELECT * FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)
        )
        return None if row is None else Stats(*tuple(row))

    @staticmethod
    async def put(c: Conn, s: Stats) -> None:
        await c.execute(
            "INSERT INTO stats (chat_id, user_id, games, wins, fools, draws,"
            " surrenders, pogony, mu, sigma, pogony_given)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
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
            "SELECT * FROM stats WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)
        )
        return None if row is None else Stats(*tuple(row))

    async def chat_top(self, chat_id: int, limit: int = 10) -> list[Stats]:
        rows = await self.db.fetch_all(
            "SELECT * FROM stats WHERE chat_id = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
            (chat_id, limit),
        )
        return [Stats(*tuple(r)) for r in rows]

    async def standings(self, user_id: int) -> list[Standing]:
        """The user's statistics in every chat where they finished a game, most played first."""
        rows = await self.db.fetch_all(
            "SELECT s.*, c.title,"
            " (SELECT COUNT(*) FROM stats o WHERE o.chat_id = s.chat_id"
            "  AND o.mu - 3 * o.sigma > s.mu - 3 * s.sigma) + 1,"
            " (SELECT COUNT(*) FROM stats o WHERE o.chat_id = s.chat_id)"
            " FROM stats s JOIN chats c ON c.id = s.chat_id"
            " WHERE s.user_id = ? ORDER BY s.games DESC, s.chat_id",
            (user_id,),
        )
        return [Standing(Stats(*tuple(r)[:11]), r[11], r[12], r[13]) for r in rows]


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))
