"""SQLite's two connections (``storage.sqlite``): transactions on the event loop's
thread, reads and checkpoints in aiosqlite's. A read after a commit sees it, through
the checkpoints that fold the log back into the file."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from storage import sqlite
from storage.connect import open_database
from storage.sqlite import SqliteDatabase
from tests.backends import sqlite_file, value_of


async def test_every_read_sees_the_commits_before_it_across_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 50)
    db = await open_database(tmp_path / "durak.sqlite3")
    assert isinstance(db, SqliteDatabase)
    missed = []

    async def write_then_read(i: int) -> None:
        async with db.tx() as c:
            await c.execute(
                "INSERT INTO users (id, name, lang, updated_at) VALUES (?, ?, 'ru', 0)",
                (i, f"игрок {i}"),
            )
        if await db.fetch_one("SELECT name FROM users WHERE id = ?", (i,)) is None:
            missed.append(i)

    for batch in range(6):  # side by side, so that checkpoints run among the reads
        await asyncio.gather(*(write_then_read(batch * 100 + i) for i in range(100)))
    assert missed == []
    assert await value_of(db, "SELECT COUNT(*) FROM users") == 600
    # The 600th commit started a checkpoint: the file's size waits for it, then folds
    # the whole log in (else the log would hold the users and the file stay small).
    assert await db.stored_bytes() > 16_384
    assert os.path.getsize(f"{db.path}-wal") == 0
    await db.close()
    assert not os.path.exists(f"{db.path}-wal") or os.path.getsize(f"{db.path}-wal") == 0


async def test_the_read_connection_writes_nothing(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "durak.sqlite3")
    assert isinstance(db, SqliteDatabase) and db.reader is not None
    with pytest.raises(Exception, match="readonly"):
        await db.reader.execute("DELETE FROM users")
    await db.close()


async def test_a_failed_transaction_is_rolled_back_and_the_next_one_runs(
    tmp_path: Path,
) -> None:
    db = await open_database(tmp_path / "durak.sqlite3")
    with pytest.raises(ZeroDivisionError):
        async with db.tx() as c:
            await c.execute(
                "INSERT INTO users (id, name, lang, updated_at) VALUES (1, 'Аня', 'ru', 0)"
            )
            _ = 1 / 0
    async with db.tx() as c:
        await c.execute(
            "INSERT INTO users (id, name, lang, updated_at) VALUES (2, 'Боря', 'ru', 0)"
        )
    rows = await db.fetch_all("SELECT id FROM users")
    assert [r[0] for r in rows] == [2]
    await db.close()


async def test_the_log_starts_over_under_steady_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checkpoints beside the writes would leave new pages behind them every time, and
    the log would never be written from its start again: it grew by the MB a second."""
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 20)
    db = await open_database(tmp_path / "durak.sqlite3")
    largest = 0
    for i in range(3000):  # ~3 pages each: 36 MB of log if it never started over
        async with db.tx() as c:
            await c.execute(
                "INSERT INTO users (id, name, lang, updated_at) VALUES (?, ?, 'ru', 0)",
                (i, "я" * 5000),
            )
        if i % 10 == 0:
            await asyncio.sleep(0)  # the loop turns: checkpoints run beside the writes
            largest = max(largest, os.path.getsize(f"{sqlite_file(db).path}-wal"))
    # seen: 1-5 MB, 21 MB on a machine busy with other work (and 55 MB before the fix)
    assert largest < 28 * 2**20
    await db.close()


async def test_a_write_waits_for_another_process_without_stopping_the_loop(
    tmp_path: Path,
) -> None:
    db = await open_database(tmp_path / "durak.sqlite3")
    other = sqlite3.connect(sqlite_file(db).path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # e.g. the sqlite3 shell, mid-write
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    asyncio.get_running_loop().call_later(0.4, other.execute, "COMMIT")
    async with db.tx() as c:
        await c.execute("INSERT INTO users (id, name, lang, updated_at) VALUES (1, 'Аня', 'ru', 0)")
    ticker.cancel()
    assert ticks >= 10  # the loop ran on while the write waited for the lock
    assert await value_of(db, "SELECT name FROM users WHERE id = 1") == "Аня"
    other.close()
    await db.close()
