"""The games: their rows (the state as of the last step, its deadline) and action log.

Several bot processes share them on PostgreSQL: a step changes a game's row only
at the version it started from (``save_state``), tells the other processes
(``changed``, a NOTIFY sent at commit), and a due deadline is claimed by the one
process that locks its row first (``claim_due``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection
from typing import Any

from .db import Database, Listener, Row, Tx
from .records import ActionRecord, GameRecord, GameStatus, Seat

Conn = Tx

CHANNEL = "durak_games"  # payload "<game id> <version>" after every step; a channel a shard


def _now() -> float:
    return time.time()


def _seats(text: str) -> list[Seat]:
    return [Seat.from_dict(s) for s in json.loads(text)]


def _seats_json(seats: list[Seat]) -> str:
    return json.dumps([s.to_dict() for s in seats])


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def _game(row: Row) -> GameRecord:
    return GameRecord(
        row["id"],
        row["table_id"],
        json.loads(row["rules"]),
        _seats(row["seats"]),
        int(row["seed_text"]) if row["seed_text"] is not None else row["seed"],
        GameStatus(row["status"]),
        row["version"],
        json.loads(row["snapshot"]),
        row["deadline"],
        row["deadline_for"],
        None if row["outcome"] is None else json.loads(row["outcome"]),
        row["last_fool"],
        None if row["pogony_ranks"] is None else json.loads(row["pogony_ranks"]),
        row["time_added"],
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
        await c.effect()
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
        await c.effect()
        where = "id = ?"
        if expect_version is not None:  # and still running: not ended by a closed table
            where = "id = ? AND version = ? AND status = 'playing'"
        changed = await c.execute(
            "UPDATE games SET version = ?, snapshot = ?, deadline = ?, deadline_for = ?,"
            " time_added = NULL,"
            f" outcome = ?, status = ?, ended_at = ?, seats = COALESCE(?, seats) WHERE {where}",
            (
                version,
                _dump(snapshot),
                deadline,
                deadline_for,
                None if outcome is None else json.dumps(outcome),
                (GameStatus.PLAYING if outcome is None else GameStatus.OVER).value,
                None if outcome is None else _now(),
                None if seats is None else _seats_json(seats),
                game_id,
                *(() if expect_version is None else (expect_version,)),
            ),
        )
        if changed and outcome is not None:
            await GameRepo.drop_pages(c, game_id)
        return changed == 1

    @staticmethod
    async def abandon_at_table(c: Conn, table_id: int) -> int | None:
        """End the table's running game, if any, unfinished (the table is being closed);
        returns its id."""
        row = await c.fetch_one(
            "SELECT id FROM games WHERE table_id = ? AND status = 'playing'", (table_id,)
        )
        if row is None:
            return None
        await GameRepo.abandon(c, row[0])
        return int(row[0])

    @staticmethod
    async def abandon(c: Conn, game_id: int) -> None:
        """End a game that was not played out (its table was closed): over, no outcome."""
        await c.effect()
        await c.execute(
            "UPDATE games SET status = 'over', deadline = NULL, deadline_for = NULL,"
            " ended_at = ? WHERE id = ? AND status = 'playing'",
            (_now(), game_id),
        )
        await GameRepo.drop_pages(c, game_id)
        await GameRepo.changed(c, game_id, -1, await GameRepo._chat(c, game_id))

    @staticmethod
    async def _chat(c: Conn, game_id: int) -> int | None:
        """The chat of the game's table (for its notifications)."""
        row = await c.fetch_one(
            "SELECT t.chat_id FROM games g JOIN tables t ON t.id = g.table_id WHERE g.id = ?",
            (game_id,),
        )
        return None if row is None else int(row[0])

    @staticmethod
    async def drop_pages(c: Conn, game_id: int) -> None:
        """In the transaction that ends the game: its hands' open pages go
        (``storage.outgoing.HandPageRepo``; none is written once it has ended)."""
        await c.execute("DELETE FROM hand_pages WHERE game_id = ?", (game_id,))

    async def get(self, game_id: int) -> GameRecord | None:
        row = await self.db.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def newest_at(self, table_id: int) -> int | None:
        """The id of the table's newest game (running or not)."""
        row = await self.db.fetch_one("SELECT MAX(id) FROM games WHERE table_id = ?", (table_id,))
        return None if row is None or row[0] is None else int(row[0])

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

    @staticmethod
    async def changed(
        c: Conn, game_id: int, version: int, chat_id: int | None, *, retimed: bool = False
    ) -> None:
        """Tell the processes that hear the shard of the game's chat, once this
        transaction commits, that the game moved (or ended: ``version`` -1), or that its
        deadline at ``version`` did (``retimed``). (Without a table, nobody keeps it.)"""
        if chat_id is not None:
            payload = f"{game_id} {version}" + (" retimed" if retimed else "")
            await c.notify(CHANNEL, payload, chat=chat_id)

    @staticmethod
    async def move_deadline(
        c: Conn, game_id: int, version: int, deadline: float, later: float
    ) -> bool:
        """Move the running game's deadline at ``version`` from ``deadline`` to ``later``
        (the time added is noted for the players, until the next step); False when it is
        no longer that (moved, or another process moved it first)."""
        moved = await c.execute(
            "UPDATE games SET deadline = ?, time_added = COALESCE(time_added, 0) + ?"
            " WHERE id = ? AND version = ? AND status = 'playing' AND deadline = ?",
            (later, later - deadline, game_id, version, deadline),
        )
        if moved:
            await GameRepo.changed(
                c, game_id, version, await GameRepo._chat(c, game_id), retimed=True
            )
        return bool(moved)

    @staticmethod
    async def claim_due(c: Conn, game_id: int, version: int, now: float) -> bool:
        """Whether the game's deadline at ``version`` is due and this transaction holds it.
        On PostgreSQL the row is locked until the transaction ends; a row another
        process holds (firing it, or moving) is skipped, not waited for."""
        lock = " FOR UPDATE SKIP LOCKED" if c.backend == "postgres" else ""
        row = await c.fetch_one(
            "SELECT id FROM games WHERE id = ? AND version = ? AND status = 'playing'"
            f" AND deadline <= ?{lock}",
            (game_id, version, now),
        )
        return row is not None

    async def versions(self) -> dict[int, int]:
        """Each running game's version."""
        rows = await self.db.fetch_all("SELECT id, version FROM games WHERE status = 'playing'")
        return {int(r[0]): int(r[1]) for r in rows}

    async def versions_of(self, game_ids: Collection[int]) -> dict[int, int]:
        """The version of each of these games that runs."""
        if not game_ids:
            return {}
        marks = ", ".join("?" * len(game_ids))
        rows = await self.db.fetch_all(
            f"SELECT id, version FROM games WHERE status = 'playing' AND id IN ({marks})",
            tuple(game_ids),
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def places(self) -> dict[int, tuple[int, int, int]]:
        """Each running game's version, chat and table."""
        rows = await self.db.fetch_all(
            "SELECT g.id, g.version, t.chat_id, t.id FROM games g"
            " JOIN tables t ON t.id = g.table_id WHERE g.status = 'playing'"
        )
        return {int(r[0]): (int(r[1]), int(r[2]), int(r[3])) for r in rows}

    async def follow(self, on_change: Callable[[int, int, bool], None]) -> Listener | None:
        """Hear the steps the other processes commit and the deadlines they move, in
        the games of every shard's chats until told which (``Listener.hear``):
        ``on_change(game, version, retimed)``. None where there are no other processes
        (SQLite)."""

        def heard(payload: str) -> None:
            game, version, *rest = payload.split(" ") if " " in payload else ("", "")
            if game.isdecimal() and version.lstrip("-").isdecimal():
                on_change(int(game), int(version), rest == ["retimed"])

        return await self.db.listen(CHANNEL, heard, sharded=True)
