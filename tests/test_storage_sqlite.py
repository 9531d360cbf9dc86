"""SQLite's two connections (``storage.sqlite``): transactions on the event loop's
thread, reads and checkpoints in aiosqlite's. A read after a commit sees it, through
the checkpoints that fold the log back into the file."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from storage import sqlite
from storage.db import Database
from storage.sqlite import SqliteDatabase


async def test_every_read_sees_the_commits_before_it_across_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 50)
    db = await Database.open(tmp_path / "durak.sqlite3")
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
    assert (await db.fetch_one("SELECT COUNT(*) FROM users"))[0] == 600
    # The 600th commit started a checkpoint: the file's size waits for it, then folds
    # the whole log in (else the log would hold the users and the file stay small).
    assert await db.stored_bytes() > 16_384
    assert os.path.getsize(f"{db.path}-wal") == 0
    await db.close()
    assert not os.path.exists(f"{db.path}-wal") or os.path.getsize(f"{db.path}-wal") == 0


async def test_the_read_connection_writes_nothing(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "durak.sqlite3")
    assert isinstance(db, SqliteDatabase) and db.reader is not None
    with pytest.raises(Exception, match="readonly"):
        await db.reader.execute("DELETE FROM users")
    await db.close()


async def test_a_failed_transaction_is_rolled_back_and_the_next_one_runs(
    tmp_path: Path,
) -> None:
    db = await Database.open(tmp_path / "durak.sqlite3")
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
