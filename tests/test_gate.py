"""``storage.gate.Gate``: transactions queued behind a holder all run in the pass of
the event loop that frees it, not one per pass as behind an ``asyncio.Lock``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from storage.connect import open_database
from storage.gate import Gate
from tests.backends import sqlite_file, value_of


async def passes_to_drain(
    lock: Gate | asyncio.Lock, waiters: int, body: Callable[[], Awaitable[object]] | None = None
) -> int:
    """Passes of the loop from the release of a holder that yielded until ``waiters``
    queued coroutines are all through: each takes ``lock`` (or runs ``body``, which
    takes it) and never yields inside."""
    done, passes = 0, 0

    async def short() -> None:
        nonlocal done
        if body is not None:
            await body()
        else:
            async with lock:
                pass
        done += 1

    async with lock:
        tasks = [asyncio.create_task(short()) for _ in range(waiters)]
        await asyncio.sleep(0)  # they queue
    while done < waiters:
        await asyncio.sleep(0)
        passes += 1
    await asyncio.gather(*tasks)
    return passes


async def test_a_queue_behind_the_gate_drains_in_one_pass() -> None:
    assert await passes_to_drain(Gate(), 200) <= 2
    assert await passes_to_drain(asyncio.Lock(), 200) >= 100  # what it replaces


async def test_the_gate_excludes_holders_that_yield() -> None:
    gate, inside, most = Gate(), 0, 0

    async def hold() -> None:
        nonlocal inside, most
        async with gate:
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0)
            inside -= 1

    await asyncio.gather(*(hold() for _ in range(50)))
    assert (most, gate.locked()) == (1, False)


async def test_a_waiter_cancelled_in_the_queue_leaves_the_gate_usable() -> None:
    gate = Gate()
    async with gate:
        waiter = asyncio.create_task(gate.__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
    async with gate:
        assert gate.locked()
    assert not gate.locked()


async def test_the_gate_is_taken_in_the_order_asked_for() -> None:
    """A coroutine that becomes ready in the pass of a release does not go before
    the one already waiting."""
    gate, go, order = Gate(), asyncio.Event(), []

    async def waiting() -> None:
        async with gate:
            order.append("waiting")

    async def late() -> None:
        await go.wait()
        async with gate:
            order.append("late")

    tasks = [asyncio.create_task(late())]
    async with gate:
        tasks.append(asyncio.create_task(waiting()))
        await asyncio.sleep(0)
        go.set()  # "late" runs before "waiting" is woken
    await asyncio.gather(*tasks)
    assert order == ["waiting", "late"]


async def test_a_waiter_cancelled_once_woken_passes_its_turn_on() -> None:
    gate, go = Gate(), asyncio.Event()

    async def behind() -> None:
        await go.wait()
        async with gate:  # the woken waiter still counts: this one waits for it
            pass

    later = asyncio.create_task(behind())
    async with gate:
        woken = asyncio.create_task(gate.__aenter__())
        await asyncio.sleep(0)
        go.set()
    woken.cancel()  # woken by the release, cancelled before it ran
    await asyncio.wait_for(later, 1.0)
    assert not gate.locked()


async def test_sqlite_transactions_queued_behind_a_checkpoint_run_at_once(
    tmp_path: Path,
) -> None:
    db = await open_database(tmp_path / "durak.sqlite3")
    ids = iter(range(1, 1000))

    async def insert() -> None:
        async with db.tx() as c:
            await c.execute(
                "INSERT INTO users (id, name, lang, updated_at) VALUES (?, 'игрок', 'ru', 0)",
                (next(ids),),
            )

    try:  # (the lock the checkpoint's second pass holds while aiosqlite's thread works)
        assert await passes_to_drain(sqlite_file(db)._lock, 100, insert) <= 2
        assert await value_of(db, "SELECT COUNT(*) FROM users") == 100
    finally:
        await db.close()
