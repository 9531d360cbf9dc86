"""Moves from the hand keyboards: in private chats, or ephemeral ones in the group."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery

from engine import Accused, Card, State
from engine.actions import ACCUSE
from service import GameService, Refused, Seat

from ..callbacks import CardCb, CheatCb, MoveCb, PageCb, still_meant
from ..card_labels import card_label
from ..hand_answers import why_not
from ..i18n import lang_of, t
from ..presenter import Page, Presenter
from ..relay import Relay
from ..render import seat_names
from ..render_cheating import accusation_answer
from ..render_hand import is_tap, markable

log = logging.getLogger(__name__)


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
    """The presser's seat in the game; answers and gives None when they do not play in it
    (or there is no such game: forged data, or a game that ended long ago). A game
    another bot process started is loaded here first."""
    if service.live(game) is None:
        await service.catch_up(game)
    seat = seat_of(service, game, query.from_user.id)
    if seat is None:
        key = "not_your_game" if service.live(game) is not None else "no_game"
        await query.answer(t(lang_of(query.from_user.language_code), f"answer.{key}"))
    return seat


def fresh(presenter: Presenter, game: int, user: int, key: str) -> bool:
    """Whether the press came from the hand as it would be drawn now."""
    return presenter.hand_key(game, user) == key


async def fresh_here(
    service: GameService, presenter: Presenter, game: int, user: int, key: str
) -> bool:
    """``fresh``, once more after catching up when not: the hand may have been drawn by
    another bot process at a version this one has not heard of yet (or this process,
    which does not show the games, has drawn none of the game's hands)."""
    if fresh(presenter, game, user, key):
        return True
    if not await service.catch_up(game):
        return False
    await presenter.follow(game)
    await presenter.hand_pages.load((game, user))  # a page opened through another process
    return fresh(presenter, game, user, key)


async def make_move(
    query: CallbackQuery,
    service: GameService,
    presenter: Presenter,
    game: int,
    seat: int,
    text: str,
    *,
    key: str | None = None,
    version: int | None = None,
    cheat: bool = False,
) -> None:
    """Make the move and answer the press: silently when made (an accusation with its
    result), with the reason when not. ``key``: the press's hand key, which must still be
    the hand's (another player's move that left the hand as it was does not make it
    stale); ``version``: the exact version instead. A made move closes the player's pages."""
    lang, user = lang_of(query.from_user.language_code), query.from_user.id
    for _ in range(3):  # the game may move on between the check and the move
        if key is not None and not await fresh_here(service, presenter, game, user, key):
            await query.answer(t(lang, "answer.stale"))
            return
        v = len(current(service, game).history) if version is None else version
        try:
            update = await service.act(game, seat, text, v, cheat=cheat)
            break
        except Refused as e:
            if e.reason == "stale" and version is None:
                continue
            answer = {"stale": "stale", "over": "game_over", "no_game": "game_over"}
            await query.answer(t(lang, f"answer.{answer.get(e.reason, 'not_now')}"))
            return
    else:
        await query.answer(t(lang, "answer.stale"))
        return
    pages = presenter.hand_pages
    if (game, user) in pages.pages or (game, user) in pages.picking:
        pages.forget((game, user))
        await pages.save((game, user), len(current(service, game).history))  # closed
    mine = [e for e in update.events if isinstance(e, Accused) and e.accuser == seat]
    if mine:
        names = seat_names(lang, seats_of(service, game))
        await query.answer(accusation_answer(lang, names[mine[0].accused], mine[0].exposed))
        return
    await query.answer()


async def move_button(
    query: CallbackQuery, callback_data: MoveCb, service: GameService, presenter: Presenter
) -> None:
    game = callback_data.game
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    await make_move(query, service, presenter, game, seat, callback_data.a, key=callback_data.k)


async def card_button(
    query: CallbackQuery,
    callback_data: CardCb,
    service: GameService,
    presenter: Presenter,
    relay: Relay,
) -> None:
    lang = lang_of(query.from_user.language_code)
    game, user = callback_data.game, query.from_user.id
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    now = await fresh_here(service, presenter, game, user, callback_data.k)
    if service.live(game) is None:  # catching up found it ended (its table closed)
        await query.answer(t(lang, "answer.game_over"))
        return
    state = current(service, game)
    if not now and not callback_data.meant:  # nothing a tap could play when drawn
        await query.answer(t(lang, "answer.stale"))
        return
    if callback_data.card == "-":  # back from choosing a target
        presenter.picking.pop((game, user), None)
        await presenter.hand_pages.save((game, user), len(state.history))
        await relay.hand(game, user)
        await query.answer()
        return
    card = _card(callback_data.card)
    if card is None:
        await query.answer(t(lang, "answer.not_now"))
        return
    moves = [a for a in state.legal_actions(seat) if a.cards[:1] == (card,) and is_tap(a)]
    if not now and (
        not moves or not all(still_meant(state, a, callback_data.meant) for a in moves)
    ):  # a double tap, or the tap would now mean another move than the player saw
        await query.answer(t(lang, "answer.stale"))
        return
    if not moves:
        names = seat_names(lang, seats_of(service, game))
        await query.answer(why_not(lang, state.view(seat), card, names))
        return
    if len(moves) > 1:  # the card beats several attack cards: ask which
        presenter.picking[(game, user)] = card
        await presenter.hand_pages.save((game, user), len(state.history))
        await relay.hand(game, user)
        await query.answer(t(lang, "answer.choose_target"))
        return
    version = len(state.history)
    await make_move(query, service, presenter, game, seat, moves[0].text, version=version)


async def cheat_button(
    query: CallbackQuery, callback_data: CheatCb, service: GameService, presenter: Presenter
) -> None:
    """A cheat from the defender's cheat page; the service takes nothing else as one."""
    game = callback_data.game
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    text, key = callback_data.a, callback_data.k
    await make_move(query, service, presenter, game, seat, text, key=key, cheat=True)


async def page_button(
    query: CallbackQuery,
    callback_data: PageCb,
    service: GameService,
    presenter: Presenter,
    relay: Relay,
) -> None:
    """Opens «⋯», the marking of cards for an opening (or marks one), the cheat page (or
    a card's targets on it), the choice of whom to accuse, or goes back to the hand:
    only when the page has something to press."""
    lang = lang_of(query.from_user.language_code)
    game, user = callback_data.game, query.from_user.id
    seat = await player_seat(query, service, game)
    if seat is None:
        return
    if not await fresh_here(service, presenter, game, user, callback_data.k):
        await query.answer(t(lang, "answer.stale"))
        return
    state = current(service, game)
    name, card = callback_data.page, _card(callback_data.card) if callback_data.card else None
    marked: tuple[Card, ...] = ()
    if name == "mark":
        can = markable(state.view(seat))
        shown = presenter.pages.get((game, user))
        marked = shown.marked if shown is not None and shown.name == "mark" else ()
        if card is not None and card not in can:
            await query.answer(t(lang, "answer.not_markable", card=card_label(card, lang)))
            return
        if card is not None:
            marked = _toggled(marked, card)
        ok = bool(can)
    elif name == "cheat":
        cheats = state.cheat_actions(seat)
        if card is not None:
            cheats = [a for a in cheats if a.cards[0] == card]
        ok = bool(cheats)
    elif name == "accuse":
        ok = any(a.kind == ACCUSE for a in state.legal_actions(seat))
    else:
        ok = name in ("hand", "more")
    if not ok:
        await query.answer(t(lang, "answer.not_now"))
        return
    presenter.picking.pop((game, user), None)
    if name == "hand":
        presenter.pages.pop((game, user), None)
    else:
        presenter.pages[(game, user)] = Page(state.bouts, name, card, marked)
    await presenter.hand_pages.save((game, user), len(state.history))
    await relay.hand(game, user)
    await query.answer()


def _toggled(marked: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """The marks after a tap on ``card``: off if it was marked, else on; a card of
    another rank starts the marks again (one opening has one rank)."""
    if card in marked:
        return tuple(c for c in marked if c != card)
    return (*[c for c in marked if c.rank == card.rank], card)


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="play")
    r.callback_query.register(move_button, MoveCb.filter())
    r.callback_query.register(card_button, CardCb.filter())
    r.callback_query.register(cheat_button, CheatCb.filter())
    r.callback_query.register(page_button, PageCb.filter())
    return r
