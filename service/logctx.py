"""Which table and game the running code is about, for the log lines it writes.

``bot.logs`` prints these ids on every line, so ``grep -w game=7`` follows one game.
A scope belongs to the task that opened it: a task started inside a scope (an
outbox worker, say) outlives it and later works for other games, so it does not
inherit the ids.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Scope:
    table: int | None
    game: int | None
    task: asyncio.Task[object] | None


_scope: ContextVar[Scope | None] = ContextVar("durak_log_scope", default=None)


def _task() -> asyncio.Task[object] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop in this thread
        return None


@contextmanager
def log_scope(*, table: int | None = None, game: int | None = None) -> Iterator[None]:
    """Log lines written inside are about this table and game (outer ids are kept)."""
    outer = current()
    scope = Scope(
        table if table is not None else outer.table if outer else None,
        game if game is not None else outer.game if outer else None,
        _task(),
    )
    token = _scope.set(scope)
    try:
        yield
    finally:
        _scope.reset(token)


def current() -> Scope | None:
    """The scope opened by the running task, if any."""
    scope = _scope.get()
    if scope is None or scope.task is not _task():
        return None
    return scope
