"""Which game, which seat: resolved once per press on a hand, for every hand handler.

The play router's handlers all take ``seated``: the middleware finds the presser's seat
in the game the button names (a game another bot process started is loaded first), or
answers the press and calls no handler when they do not play in it, or there is no
such game (forged data, or a game that ended long ago). What the handler logs carries
the game's ids.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, TelegramObject

from engine import State
from service import GameService, LiveGame
from service.logctx import log_scope

from ..i18n import lang_of, t


@dataclass(frozen=True)
class Seated:
    """The presser, their seat and the game, as the press found them."""

    game_id: int
    seat: int
    user_id: int
    lang: str
    live: LiveGame

    @property
    def key(self) -> tuple[int, int]:
        """(game, user): the key of the player's hand pages."""
        return self.game_id, self.user_id

    @property
    def state(self) -> State:
        """The game's newest committed state."""
        return self.live.state


Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class SeatMiddleware(BaseMiddleware):
    """Injects ``seated`` into the hand handlers (an inner middleware: after the filters
    chose the handler, whose callback data names the game)."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        assert isinstance(event, CallbackQuery)
        service: GameService = data["service"]
        game_id: int = data["callback_data"].game
        user = event.from_user
        lang = lang_of(user.language_code)
        live = service.live(game_id)
        if live is None and await service.catch_up(game_id):
            live = service.live(game_id)
        seat = None if live is None else live.seat_of(user.id)
        if live is None or seat is None:
            await event.answer(t(lang, "answer.not_your_game" if live else "answer.no_game"))
            return None
        data["seated"] = Seated(game_id, seat, user.id, lang, live)
        with log_scope(table=live.table_id, game=game_id):
            return await handler(event, data)
