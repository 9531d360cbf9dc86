"""Moves from the hand keyboards: in private chats, or ephemeral ones in the group.

Each handler gets the presser's seat resolved (``seated``), asks ``bot.taps`` what the
press means, and does that: a move through the service (an ``Action``), a page of the
hand through its owner (``HandPages``), or an answer saying why not.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NamedTuple

from aiogram import F, Router
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery

from engine import Accused, Action
from engine.actions import QUIT
from service import GameService, LiveGame, Refusal, Refused

from ..callbacks import CardCb, CheatCb, MoveCb, PageCb, PageName
from ..card_labels import card_label
from ..delivery import Delivery
from ..hand_answers import why_not
from ..hand_pages import HandPages, Page
from ..i18n import t
from ..presenter import Presenter
from ..render import seat_names
from ..render_cheating import accusation_answer
from ..taps import (
    ChooseTarget,
    NotMarkable,
    NotPlayable,
    Play,
    Show,
    Stale,
    Tap,
    accuse_tap,
    card_tap,
    cheat_tap,
    mark_tap,
    parse_action,
    parse_card,
)
from .chats import presses_of
from .seated import Seated, SeatMiddleware

TRIES = 3  # a press whose hand is still drawn as pressed, while the game moves on
MADE_KEPT = 10_000  # the players whose last press's repeat is recognised


class Checked(NamedTuple):
    """A press checked against its hand: whether the hand is still drawn so (``fresh``),
    and the game as the check left it (None: it ended)."""

    fresh: bool
    live: LiveGame | None


class Hands:
    """What a hand handler needs besides the press: the service, the presenter's hand
    keys, the pages' owner and where a hand is shown again (from the workflow data)."""

    def __init__(
        self, service: GameService, presenter: Presenter, pages: HandPages, delivery: Delivery
    ) -> None:
        self.service, self.presenter, self.pages = service, presenter, pages
        self.delivery = delivery
        # (game, user) -> the press whose move the player made last, here: its repeat (a
        # double tap) is answered calmly, not as a stale button; the newest MADE_KEPT
        self._made: dict[tuple[int, int], CallbackData] = {}

    async def fresh(self, seated: Seated, key: str, live: LiveGame | None = None) -> Checked:
        """Whether the press came from the hand as it would be drawn now (in ``live``; by
        default the game as the press found it); once more after catching up when not:
        the hand may have been drawn by another bot process at a version this one has
        not heard of yet (or this process, which does not show the games, has drawn
        none of the game's hands)."""
        game, user = seated.key
        live = live or seated.live
        drawn = self.presenter.hand_key(game, user, live)
        if drawn == key:
            return Checked(True, live)
        if drawn is None:  # not drawn here (the game is often just read for this press)
            await self.presenter.follow(game)
            await self.pages.sync(seated.key)  # a page opened through another process
            if self.presenter.hand_key(game, user) == key:
                return Checked(True, self.service.live(game))
        caught = await self.service.catch_up(game)
        if caught:
            await self.presenter.follow(game)
            await self.pages.sync(seated.key)
        return Checked(
            caught and self.presenter.hand_key(game, user) == key, self.service.live(game)
        )

    async def stale(self, query: CallbackQuery, seated: Seated, press: CallbackData) -> None:
        """Answer a press from a hand drawn before the game moved on: calmly when it
        repeats the press whose move was just made (a double tap), else as stale."""
        made = self._made.get(seated.key) == press
        await query.answer(t(seated.lang, "answer.already_made" if made else "answer.stale"))

    async def move(
        self,
        query: CallbackQuery,
        seated: Seated,
        action: Action,
        press: CallbackData,
        *,
        key: str | None = None,
        version: int | None = None,
        cheat: bool = False,
    ) -> None:
        """Make the move and answer the press: silently when made (an accusation with its
        result), with the reason when not. ``key``: the press's hand key, which must still
        be the hand's (another player's move that left the hand as it was does not make
        it stale); ``version``: the exact version instead. A made move is remembered as
        made by ``press`` (its player's pages close by themselves: ``HandPages``)."""
        lang = seated.lang
        live = seated.live
        for _ in range(TRIES):  # the game may move on between the check and the move
            if key is not None:
                checked = await self.fresh(seated, key, live)
                if not checked.fresh:
                    await self.stale(query, seated, press)
                    return
                live = checked.live or live
            v = len(live.state.history) if version is None else version
            try:
                update = await self.service.act(seated.game_id, action, v, cheat=cheat)
                break
            except Refused as e:
                if e.reason is Refusal.STALE and version is None:
                    live = self.service.live(seated.game_id) or live  # (as it moved on)
                    continue
                if e.reason is Refusal.STALE:
                    await self.stale(query, seated, press)
                else:
                    await query.answer(t(lang, f"answer.{refusal_answer(e.reason)}"))
                return
        else:
            await self.stale(query, seated, press)
            return
        self._made_by(seated.key, press)
        mine = [e for e in update.events if isinstance(e, Accused) and e.accuser == seated.seat]
        if mine:
            names = seat_names(lang, seated.live.seats)
            await query.answer(accusation_answer(lang, names[mine[0].accused], mine[0].exposed))
            return
        await query.answer()

    def _made_by(self, key: tuple[int, int], press: CallbackData) -> None:
        self._made.pop(key, None)  # (the newest last)
        self._made[key] = press
        if len(self._made) > MADE_KEPT:
            del self._made[next(iter(self._made))]  # the oldest

    async def page(
        self, query: CallbackQuery, seated: Seated, key: str, tap: Callable[[], Tap]
    ) -> None:
        """Open the page a press asked for (``tap``, asked once the press is known to come
        from the hand as drawn now), or answer why not."""
        lang = seated.lang
        if not (await self.fresh(seated, key)).fresh:
            await query.answer(t(lang, "answer.stale"))
            return
        match tap():
            case Show(page):
                await self.pages.show(seated.key, page, len(seated.state.history))
                await self.delivery.hand(seated.game_id, seated.user_id)
                await query.answer()
            case NotMarkable(card):
                await query.answer(t(lang, "answer.not_markable", card=card_label(card, lang)))
            case _:
                await query.answer(t(lang, "answer.not_now"))


def refusal_answer(reason: Refusal) -> str:
    """The text key of the answer to a move the service refused."""
    match reason:
        case Refusal.STALE:
            return "stale"
        case Refusal.OVER | Refusal.NO_GAME:
            return "game_over"
        case _:
            return "not_now"


async def move_button(
    query: CallbackQuery, callback_data: MoveCb, seated: Seated, hands: Hands
) -> None:
    """One exact move: «Беру», «Бито», «Пас», a transfer, an opening of marked cards..."""
    action = parse_action(seated.seat, callback_data.a)
    if action is None:
        await query.answer(t(seated.lang, "answer.not_now"))
        return
    # «Сдаться» means the same whatever others did since its page was drawn
    key = None if action.kind == QUIT else callback_data.k
    await hands.move(query, seated, action, callback_data, key=key)


async def cheat_button(
    query: CallbackQuery, callback_data: CheatCb, seated: Seated, hands: Hands
) -> None:
    """A cheat from the defender's cheat page; the service takes nothing else as one."""
    action = parse_action(seated.seat, callback_data.a)
    if action is None:
        await query.answer(t(seated.lang, "answer.not_now"))
        return
    await hands.move(query, seated, action, callback_data, key=callback_data.k, cheat=True)


async def card_button(
    query: CallbackQuery, callback_data: CardCb, seated: Seated, hands: Hands
) -> None:
    """A tap on a card: the move it makes, or the choice of its target."""
    lang = seated.lang
    fresh, live = await hands.fresh(seated, callback_data.k)
    if live is None:  # catching up found it ended (its table closed)
        await query.answer(t(lang, "answer.game_over"))
        return
    card = parse_card(callback_data.card)
    if card is None:
        await query.answer(t(lang, "answer.not_now"))
        return
    match card_tap(live.state, seated.seat, card, callback_data.meant, fresh=fresh):
        case Stale():
            await hands.stale(query, seated, callback_data)
        case NotPlayable(card):
            names = seat_names(lang, live.seats)
            await query.answer(why_not(lang, live.state.view(seated.seat), card, names))
        case ChooseTarget(card):
            await hands.pages.pick(seated.key, card, len(live.state.history))
            await hands.delivery.hand(seated.game_id, seated.user_id)
            await query.answer(t(lang, "answer.choose_target"))
        case Play(action, version):
            await hands.move(query, seated, action, callback_data, version=version)


async def cancel_target(
    query: CallbackQuery, callback_data: CardCb, seated: Seated, hands: Hands
) -> None:
    """«Назад» from choosing a card's target."""
    if not (await hands.fresh(seated, callback_data.k)).fresh:
        await query.answer(t(seated.lang, "answer.stale"))
        return
    await hands.pages.pick(seated.key, None, len(seated.state.history))
    await hands.delivery.hand(seated.game_id, seated.user_id)
    await query.answer()


async def back_to_hand(
    query: CallbackQuery, callback_data: PageCb, seated: Seated, hands: Hands
) -> None:
    """«Назад» to the hand: meant whatever the others did since its page was drawn."""
    await hands.pages.show(seated.key, None, len(seated.state.history))
    await hands.delivery.hand(seated.game_id, seated.user_id)
    await query.answer()


async def open_more(
    query: CallbackQuery, callback_data: PageCb, seated: Seated, hands: Hands
) -> None:
    """«⋯»: «Сдаться»."""
    await hands.page(
        query, seated, callback_data.k, lambda: Show(Page(seated.state.bouts, PageName.MORE))
    )


async def mark_card(
    query: CallbackQuery, callback_data: PageCb, seated: Seated, hands: Hands
) -> None:
    """«Несколько карт», or a card marked (or unmarked) on that page."""
    card = parse_card(callback_data.card) if callback_data.card else None
    shown = hands.pages.shown
    await hands.page(
        query,
        seated,
        callback_data.k,
        lambda: mark_tap(seated.state, seated.seat, card, shown(seated.key)),
    )


async def open_cheats(
    query: CallbackQuery, callback_data: PageCb, seated: Seated, hands: Hands
) -> None:
    """The defender's cheat page, or a card's targets on it."""
    card = parse_card(callback_data.card) if callback_data.card else None
    await hands.page(
        query, seated, callback_data.k, lambda: cheat_tap(seated.state, seated.seat, card)
    )


async def open_accuse(
    query: CallbackQuery, callback_data: PageCb, seated: Seated, hands: Hands
) -> None:
    """The choice of whom to accuse."""
    await hands.page(query, seated, callback_data.k, lambda: accuse_tap(seated.state, seated.seat))


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="play")
    r.callback_query.filter(presses_of(MoveCb, CardCb, CheatCb, PageCb))
    r.callback_query.middleware(SeatMiddleware())
    r.callback_query.register(move_button, MoveCb.filter())
    r.callback_query.register(cancel_target, CardCb.filter(F.card == "-"))
    r.callback_query.register(card_button, CardCb.filter())
    r.callback_query.register(cheat_button, CheatCb.filter())
    pages: dict[PageName, Callable[..., Awaitable[None]]] = {
        PageName.HAND: back_to_hand,
        PageName.MORE: open_more,
        PageName.MARK: mark_card,
        PageName.CHEAT: open_cheats,
        PageName.ACCUSE: open_accuse,
    }
    for name, handler in pages.items():
        r.callback_query.register(handler, PageCb.filter(F.page == name))
    return r
