"""Moves from the hand keyboards in private chats."""

from __future__ import annotations

import logging
import time

from aiogram import Router
from aiogram.types import CallbackQuery

from engine import Card
from engine.actions import BEAT, OPEN, QUIT, THROW
from service import GameService, Refused

from ..callbacks import CardCb, MoveCb
from ..i18n import lang_of, t
from ..presenter import Presenter

log = logging.getLogger(__name__)
CONFIRM_SECONDS = 10.0
_confirm_quit: dict[tuple[int, int], float] = {}


def seat_of(service: GameService, game_id: int, user_id: int) -> int | None:
    live = service.games.get(game_id)
    if live is None:
        return None
    for seat, info in enumerate(live.seats):
        if info.get("user_id") == user_id and info["kind"] == "human":
            return seat
    return None


async def player_seat(query: CallbackQuery, service: GameService, game: int) -> int | None:
    """The presser's seat in the game; answers and gives None when they do not play in it."""
    seat = seat_of(service, game, query.from_user.id)
    if seat is None:
        await query.answer(t(lang_of(query.from_user.language_code), "answer.not_your_game"))
    return seat


async def make_move(
    query: CallbackQuery, service: GameService, game: int, seat: int, text: str, version: int
) -> None:
    """Make the move and answer the press: silently when made, with the reason when not."""
    try:
        await service.act(game, seat, text, version)
    except Refused as e:
        key = {"stale": "stale", "over": "game_over", "no_game": "game_over"}.get(
            e.reason, "not_now"
        )
        await query.answer(t(lang_of(query.from_user.language_code), f"answer.{key}"))
        return
    await query.answer()


async def move_button(
    query: CallbackQuery, callback_data: MoveCb, service: GameService, presenter: Presenter
) -> None:
    lang = lang_of(query.from_user.language_code)
    game, user = callback_data.game, query.from_user.id
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    if callback_data.a == QUIT:
        asked = _confirm_quit.pop((game, user), 0.0)
        if time.monotonic() - asked > CONFIRM_SECONDS:
            _confirm_quit[(game, user)] = time.monotonic()
            await query.answer(t(lang, "answer.confirm_quit"), show_alert=True)
            return
    presenter.picking.pop((game, user), None)
    await make_move(query, service, game, seat, callback_data.a, callback_data.v)


async def card_button(
    query: CallbackQuery, callback_data: CardCb, service: GameService, presenter: Presenter
) -> None:
    lang = lang_of(query.from_user.language_code)
    game, user = callback_data.game, query.from_user.id
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    state = service.games[game].state
    if callback_data.v != len(state.history):
        await query.answer(t(lang, "answer.stale"))
        return
    if callback_data.card == "-":  # back from choosing a target
        presenter.picking.pop((game, user), None)
        await presenter.show(game, user)
        await query.answer()
        return
    try:
        card = Card.parse(callback_data.card)
    except ValueError:
        await query.answer(t(lang, "answer.not_now"))
        return
    moves = [
        a
        for a in state.legal_actions(seat)
        if a.cards[:1] == (card,)
        and (a.kind in (THROW, BEAT) or (a.kind == OPEN and len(a.cards) == 1))
    ]
    if not moves:
        await query.answer(t(lang, "answer.not_now"))
        return
    if len(moves) > 1:  # the card beats several attack cards: ask which
        presenter.picking[(game, user)] = card
        await presenter.show(game, user)
        await query.answer(t(lang, "answer.choose_target"))
        return
    await make_move(query, service, game, seat, moves[0].text, callback_data.v)


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="play")
    r.callback_query.register(move_button, MoveCb.filter())
    r.callback_query.register(card_button, CardCb.filter())
    return r
