"""Moves from the hand keyboards in private chats."""

from __future__ import annotations

import logging
import time

from aiogram import Router
from aiogram.types import CallbackQuery

from engine import Accused, Card, State
from engine.actions import ACCUSE, QUIT
from service import GameService, Refused, Seat

from ..callbacks import CardCb, CheatCb, MoveCb, PageCb, tap_meaning
from ..i18n import lang_of, t
from ..presenter import Page, Presenter
from ..render import seat_names
from ..render_cheating import accusation_answer
from ..render_hand import is_tap

log = logging.getLogger(__name__)
CONFIRM_SECONDS = 10.0
_confirm_quit: dict[tuple[int, int], float] = {}


def seat_of(service: GameService, game_id: int, user_id: int) -> int | None:
    live = service.live(game_id)
    if live is None:
        return None
    for seat, info in enumerate(live.seats):
        if info.user_id == user_id and info.human:
            return seat
    return None


def current(service: GameService, game_id: int) -> State:
    """The game's newest state, once ``player_seat`` has found the presser in it."""
    live = service.live(game_id)
    assert live is not None, "player_seat checked that the game runs"
    return live.state


def seats_of(service: GameService, game_id: int) -> list[Seat]:
    live = service.live(game_id)
    return live.seats if live is not None else []


def _card(text: str) -> Card | None:
    try:
        return Card.parse(text)
    except ValueError:
        return None


async def player_seat(query: CallbackQuery, service: GameService, game: int) -> int | None:
    """The presser's seat in the game; answers and gives None when they do not play in it."""
    seat = seat_of(service, game, query.from_user.id)
    if seat is None:
        await query.answer(t(lang_of(query.from_user.language_code), "answer.not_your_game"))
    return seat


async def make_move(
    query: CallbackQuery,
    service: GameService,
    presenter: Presenter,
    game: int,
    seat: int,
    text: str,
    version: int,
    *,
    cheat: bool = False,
) -> None:
    """Make the move and answer the press: silently when made (an accusation with its
    result), with the reason when not. A made move closes the player's other pages."""
    lang = lang_of(query.from_user.language_code)
    try:
        update = await service.act(game, seat, text, version, cheat=cheat)
    except Refused as e:
        key = {"stale": "stale", "over": "game_over", "no_game": "game_over"}.get(
            e.reason, "not_now"
        )
        await query.answer(t(lang, f"answer.{key}"))
        return
    presenter.picking.pop((game, query.from_user.id), None)
    presenter.pages.pop((game, query.from_user.id), None)
    mine = [e for e in update.events if isinstance(e, Accused) and e.accuser == seat]
    if mine:
        names = seat_names(lang, seats_of(service, game))
        await query.answer(accusation_answer(lang, names[mine[0].accused], mine[0].exposed))
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
    await make_move(query, service, presenter, game, seat, callback_data.a, callback_data.v)


async def card_button(
    query: CallbackQuery, callback_data: CardCb, service: GameService, presenter: Presenter
) -> None:
    lang = lang_of(query.from_user.language_code)
    game, user = callback_data.game, query.from_user.id
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    state = current(service, game)
    version = len(state.history)
    fresh = callback_data.v == version
    if not fresh and not callback_data.meant:  # nothing a tap could play when drawn
        await query.answer(t(lang, "answer.stale"))
        return
    if callback_data.card == "-":  # back from choosing a target
        presenter.picking.pop((game, user), None)
        presenter.refresh(game, user)
        await query.answer()
        return
    card = _card(callback_data.card)
    if card is None:
        await query.answer(t(lang, "answer.not_now"))
        return
    moves = [a for a in state.legal_actions(seat) if a.cards[:1] == (card,) and is_tap(a)]
    if not fresh and (
        not moves or any(tap_meaning(state, a.kind) != callback_data.meant for a in moves)
    ):  # a double tap, or the tap would now mean another move than the player saw
        await query.answer(t(lang, "answer.stale"))
        return
    if not moves:
        await query.answer(t(lang, "answer.not_now"))
        return
    if len(moves) > 1:  # the card beats several attack cards: ask which
        presenter.picking[(game, user)] = card
        presenter.refresh(game, user)
        await query.answer(t(lang, "answer.choose_target"))
        return
    await make_move(query, service, presenter, game, seat, moves[0].text, version)


async def cheat_button(
    query: CallbackQuery, callback_data: CheatCb, service: GameService, presenter: Presenter
) -> None:
    """A cheat from the defender's cheat page; the service takes nothing else as one."""
    seat = await player_seat(query, service, callback_data.game)
    if seat is None:
        return
    await make_move(
        query,
        service,
        presenter,
        callback_data.game,
        seat,
        callback_data.a,
        callback_data.v,
        cheat=True,
    )


async def page_button(
    query: CallbackQuery, callback_data: PageCb, service: GameService, presenter: Presenter
) -> None:
    """Opens the cheat page (or a card's targets on it), the choice of whom to accuse,
    or goes back to the hand: only when the page has something to press."""
    lang = lang_of(query.from_user.language_code)
    game, user = callback_data.game, query.from_user.id
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    state = current(service, game)
    if callback_data.v != len(state.history):
        await query.answer(t(lang, "answer.stale"))
        return
    name, card = callback_data.page, None
    if name == "cheat":
        cheats = state.cheat_actions(seat)
        if callback_data.card:
            card = _card(callback_data.card)
            cheats = [a for a in cheats if a.cards[0] == card]
        ok = bool(cheats)
    elif name == "accuse":
        ok = any(a.kind == ACCUSE for a in state.legal_actions(seat))
    else:
        ok = name == "hand"
    if not ok:
        await query.answer(t(lang, "answer.not_now"))
        return
    presenter.picking.pop((game, user), None)
    if name == "hand":
        presenter.pages.pop((game, user), None)
    else:
        presenter.pages[(game, user)] = Page(state.bouts, name, card)
    presenter.refresh(game, user)
    await query.answer()


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="play")
    r.callback_query.register(move_button, MoveCb.filter())
    r.callback_query.register(card_button, CardCb.filter())
    r.callback_query.register(cheat_button, CheatCb.filter())
    r.callback_query.register(page_button, PageCb.filter())
    return r
