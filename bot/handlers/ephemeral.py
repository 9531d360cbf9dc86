"""«🃏 Мои карты» on the table message: the presser's hand, seen by them alone."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.types import CallbackQuery

from service import GameService
from service.records import Records

from ..callbacks import CardsCb
from ..ephemeral import EphemeralHands
from ..i18n import lang_of, t
from ..presenter import Presenter


async def my_cards(
    query: CallbackQuery,
    callback_data: CardsCb,
    service: GameService,
    presenter: Presenter,
    group_hands: EphemeralHands,
    records: Records,
    bot: Bot,
) -> None:
    """A player gets their hand as an ephemeral message; anyone else is told why not.
    Where Telegram refuses it, the private chat: said once, then its link."""
    lang, user, game = (
        lang_of(query.from_user.language_code),
        query.from_user.id,
        callback_data.game,
    )
    live = service.live(game)
    if live is None or live.state.is_over:
        await query.answer(t(lang, "eph.game_over"))
        return
    if service.seat_of(game, user) is None:
        await query.answer(t(lang, "eph.not_player"), show_alert=True)
        return
    if await presenter.show_in_group(game, user, query.id):
        await query.answer(t(lang, "eph.shown"))
        return
    person = await records.user(user)
    private = person is not None and person.can_message
    first = group_hands.first_telling(user)
    if private:  # the private hand is there already
        await query.answer(t(lang, "eph.in_private"), show_alert=first)
    elif first:
        await query.answer(t(lang, "eph.refused_start"), show_alert=True)
    else:
        me = await bot.me()
        await query.answer(url=f"https://t.me/{me.username}?start=cards")


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="ephemeral")
    r.callback_query.register(my_cards, CardsCb.filter())
    return r
