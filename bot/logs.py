"""Logs: stderr, one line per event, with the table and game ids; secrets never shown.

Every line written while handling an update, a move, a timer or a rendering of
one game carries ``table=<id> game=<id>``::

    2026-01-01 12:00:00,000 INFO service.games table=3 game=7: game 7: timeout ...

so ``grep -w game=7`` follows one game and ``grep -w table=3`` one table. A traceback
stays on its line, its breaks written as ``\\n``.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import IO, Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, ChatMemberUpdated, Message, TelegramObject

from service import GameService
from service.logctx import current, log_scope

from .callbacks import CardCb, CheatCb, LobbyCb, MoveCb, PageCb

FORMAT = "%(asctime)s %(levelname)s %(name)s%(ids)s: %(message)s"
HIDDEN = "<hidden>"


class IdsFilter(logging.Filter):
    """Adds ``record.ids``: `` table=3 game=7`` inside a log scope, else empty."""

    def filter(self, record: logging.LogRecord) -> bool:
        scope = current()
        ids = ""
        if scope is not None:
            if scope.table is not None:
                ids += f" table={scope.table}"
            if scope.game is not None:
                ids += f" game={scope.game}"
        record.ids = ids
        return True


class OneLineFormatter(logging.Formatter):
    """One line per event (a traceback's line breaks become ``\\n``), with the
    secrets (the token, the webhook secret) replaced wherever they appear."""

    def __init__(self, secrets: Iterable[str], fmt: str = FORMAT) -> None:
        super().__init__(fmt)
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record).replace("\n", "\\n")
        for secret in self.secrets:
            line = line.replace(secret, HIDDEN)
        return line


def setup(level: str, secrets: Iterable[str], stream: IO[str] | None = None) -> logging.Handler:
    """Send every log line to ``stream`` (stderr), formatted as above; returns the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(IdsFilter())
    handler.setFormatter(OneLineFormatter(secrets))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("aiogram.event", "aiosqlite"):  # a line per update, two per SQL statement
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
    return handler


Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]
Ids = tuple[int | None, int | None]  # table, game
GameCb = type[CardCb] | type[MoveCb] | type[PageCb] | type[CheatCb]
GAME_CALLBACKS: dict[str, GameCb] = {  # the buttons of a hand, each naming its game
    cb.__prefix__: cb for cb in (CardCb, MoveCb, PageCb, CheatCb)
}


class ChatScope(BaseMiddleware):
    """Opens a log scope for each message or member update in a group with a table (an
    inner middleware; a press's scope is opened where its table or game is resolved:
    ``handlers.seated.SeatMiddleware``, ``handlers.lobby.PressedTable``)."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        table, game = await ids_of(event, data["service"])
        if table is None and game is None:
            return await handler(event, data)
        with log_scope(table=table, game=game):
            return await handler(event, data)


def button_ids(data: str | None) -> Ids:
    """The table of a lobby's button, or the game of a hand's (their data says so)."""
    data = data or ""
    try:
        factory = GAME_CALLBACKS.get(data.partition(":")[0])
        if factory is not None:
            return None, factory.unpack(data).game
        if data.startswith(f"{LobbyCb.__prefix__}:"):
            return LobbyCb.unpack(data).table, None
    except (TypeError, ValueError):  # forged data: the handlers answer it
        pass
    return None, None


async def ids_of(event: TelegramObject, service: GameService) -> Ids:
    """The table and game an update is about: from a button's data (a game's table
    looked up), or the chat's table."""
    if isinstance(event, CallbackQuery):
        table, game = button_ids(event.data)
        live = None if game is None else service.live(game)
        return (live.table_id if live else table), game
    if isinstance(event, Message | ChatMemberUpdated) and event.chat.type != "private":
        table = await service.table_in_chat(event.chat.id)
        if table is not None:
            return table, next(iter(service.games_of(table)), None)
    return None, None
