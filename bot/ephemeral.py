"""The hand as an ephemeral message in the group (Bot API 10.2): only its player sees it.

A seated player's «🃏 Мои карты» on the table message sends their hand there, answering
that press (any bot may, within 15 s of it); the older one is deleted. It is edited as
the game goes on, like the private hand, and deleted when the game ends. A bot that
administers the group may send one at any time: it pushes the hand to those who play
from the group (they opened it, or the bot cannot write to them privately) when their
turn comes. The private chat stays the reliable copy for everyone who started the bot:
an ephemeral hand is an extra view, and Telegram may drop it («Мои карты» again).

Where the server refuses them (older than 10.2: its methods unknown; or a 400 for one
player) the bot keeps to the private hand and its deep link, and says so once. Whether
the server knows them is asked once, with a deletion that cannot succeed: an older
server would post an ephemeral send to the whole group (a hand that slips out so is
deleted at once).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from enum import StrEnum

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramNotFound
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from service import LiveGame

from .callbacks import CardsCb
from .i18n import t
from .outbox import Outbox
from .render_hand import Drawn

log = logging.getLogger(__name__)

Draw = Callable[[int], Drawn | None]  # a user's hand in one game, as it would be drawn now
ADMIN_FOR = 60.0  # seconds an answer to "is the bot an administrator here" is trusted
PROBE_WAIT = 5  # seconds for the answer to whether the server knows ephemeral messages
OPEN_WAIT = 10.0  # seconds a press waits for its ephemeral hand (Telegram allows 15)
Key = tuple[int, int]  # (game, user)


class Mode(StrEnum):
    """Where a group's players see their cards."""

    PRIVATE = "private"  # the server has no ephemeral messages: the private chat only
    ADMIN = "admin"  # in the group, pushed at their turn (the bot administers it)
    BUTTON = "button"  # in the group when asked («Мои карты»)


def cards_button(
    lang: str, game_id: int, beside: InlineKeyboardButton | None = None
) -> InlineKeyboardMarkup:
    """The table message's keyboard: «🃏 Мои карты» (and ``beside`` it the Mini App's)."""
    data = CardsCb(game=game_id).pack()
    row = [InlineKeyboardButton(text=t(lang, "eph.button"), callback_data=data)]
    return InlineKeyboardMarkup(inline_keyboard=[row if beside is None else [*row, beside]])


class EphemeralHands:
    @property
    def bot(self) -> Bot:
        return self.outbox.bot

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.supported: bool | None = None  # whether the server knows them (asked once)
        self._refused: set[int] = set()  # users Telegram refused one: private hands only
        self._told: set[int] = set()  # users told so
        self.hands: dict[Key, int] = {}  # the ephemeral hand's id
        self.drawn: dict[Key, str] = {}  # the key it shows
        self.players: set[Key] = set()  # who opened it: they play from the group
        self.turns: dict[Key, bool] = {}  # whether it was their turn at the last news
        self.chats: dict[int, int] = {}  # game -> its group
        self._admin: dict[int, tuple[bool, float]] = {}
        self._asking: asyncio.Lock = asyncio.Lock()

    # --- what the server and the group allow ----------------------------------------

    async def available(self, chat_id: int, user_id: int) -> bool:
        """Whether the server knows ephemeral messages: a deletion of one that cannot
        exist is refused by a server that does (400) and unknown to one that does not."""
        if self.supported is not None:  # (known: no queue behind the lock)
            return self.supported
        async with self._asking:
            if self.supported is None:
                try:
                    await self.bot.delete_ephemeral_message(
                        chat_id=chat_id, receiver_user_id=user_id, ephemeral_message_id=0,
                        request_timeout=PROBE_WAIT,
                    )  # fmt: skip
                    self.supported = True
                except TelegramNotFound:
                    self.supported = False
                    log.warning("the Bot API server has no ephemeral messages: private hands only")
                except TelegramBadRequest:
                    self.supported = True
                except TelegramAPIError as e:  # (a bad answer too): ask again next time
                    log.warning("chat %s: asking for ephemeral messages failed: %s", chat_id, e)
                    return False
            return self.supported

    async def is_admin(self, chat_id: int) -> bool:
        """Whether the bot administers the group (asked at most once a minute)."""
        known = self._admin.get(chat_id)
        if known is not None and time.monotonic() - known[1] < ADMIN_FOR:
            return known[0]
        try:
            member = await self.bot.get_chat_member(chat_id, self.bot.id)
            admin = member.status == "administrator"
        except TelegramAPIError as e:
            log.warning("chat %s: getChatMember for the bot failed: %s", chat_id, e)
            admin = False
        self._admin[chat_id] = (admin, time.monotonic())
        return admin

    def refuses(self, user_id: int) -> bool:
        """Whether Telegram refused the user an ephemeral hand (private hands only)."""
        return user_id in self._refused

    def first_telling(self, user_id: int) -> bool:
        """Whether the user is told for the first time that the group cannot show them
        their hand (told once: noted now)."""
        first = user_id not in self._told
        self._told.add(user_id)
        return first

    def status_changed(self, chat_id: int, admin: bool) -> None:
        """The bot's status in the group changed (a my_chat_member update)."""
        self._admin[chat_id] = (admin, time.monotonic())

    async def mode(self, chat_id: int, user_id: int) -> Mode:
        """Where the group's players see their cards (``user_id``: a member to ask the
        server with)."""
        if not await self.available(chat_id, user_id):
            return Mode.PRIVATE
        return Mode.ADMIN if await self.is_admin(chat_id) else Mode.BUTTON

    async def mode_line(self, lang: str, chat_id: int, user_id: int) -> str:
        """The lobby's short line saying where the players' cards are shown (how to have
        the bot push them is for the group's owner: /help says it)."""
        return t(lang, f"eph.mode_{(await self.mode(chat_id, user_id)).value}")

    # --- showing -------------------------------------------------------------------------

    async def open(self, game_id: int, chat_id: int, user_id: int, draw: Draw, query: str) -> bool:
        """«Мои карты»: a new ephemeral hand answering the press ``query``; False when
        Telegram refused it (the player is then shown the private hand)."""
        key = (game_id, user_id)
        if user_id in self._refused or not await self.available(chat_id, user_id):
            return False
        if draw(user_id) is None:  # not shown by this process (another holds the lease)
            return False
        self.players.add(key)
        self.chats[game_id] = chat_id
        future = self._send(game_id, chat_id, user_id, draw, query)
        try:
            sent = await asyncio.wait_for(asyncio.shield(future), OPEN_WAIT)
        except TimeoutError:
            return True  # still on its way (the outbox keeps it)
        if not sent:
            self._refused.add(user_id)
        return sent

    def update(
        self, game_id: int, chat_id: int, live: LiveGame, news: set[int | None], draw: Draw,
        *, admin: bool, private_off: set[int],
    ) -> None:  # fmt: skip
        """After the game's news: edit the ephemeral hands that show it; an administrator
        bot pushes a new one to those who play from the group when their turn comes."""
        self.chats[game_id] = chat_id
        turn = live.state.turn()
        for seat, info in enumerate(live.seats):
            uid = info.user_id
            if uid is None or not info.human or uid in self._refused:
                continue
            key = (game_id, uid)
            mine = turn is not None and seat in turn.seats
            was, self.turns[key] = self.turns.get(key), mine
            from_group = key in self.players or uid in private_off
            first = was is None and uid in private_off and key not in self.hands
            push = admin and from_group and self.supported is not False
            if push and ((mine and not was) or first):
                self._send(game_id, chat_id, uid, draw, None)
            elif key in self.hands and (None in news or uid in news):
                self._edit(game_id, chat_id, uid, draw)

    def finish(self, game_id: int) -> None:
        """The game ended or its table closed: its ephemeral hands go."""
        chat_id = self.chats.pop(game_id, None)
        for key in [k for k in self.hands if k[0] == game_id]:
            if chat_id is not None:
                self.outbox.delete_ephemeral(chat_id, key[1], self.hands[key])
            del self.hands[key]
        for per_key in (self.drawn, self.turns):
            for key in [k for k in per_key if k[0] == game_id]:
                del per_key[key]
        self.players = {k for k in self.players if k[0] != game_id}

    # --- the calls -----------------------------------------------------------------------

    def _send(
        self, game_id: int, chat_id: int, user_id: int, draw: Draw, query: str | None
    ) -> asyncio.Future[bool]:
        """A new ephemeral hand (the old one deleted once it is there); True when sent."""
        key = (game_id, user_id)
        drawn: list[str] = []

        def render() -> tuple[str, InlineKeyboardMarkup | None] | None:
            hand = draw(user_id)
            if hand is None:
                return None
            drawn.append(hand.key)
            return hand.text, hand.markup

        result: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def done(future: asyncio.Future[Message | None]) -> None:
            sent = None if future.cancelled() else future.result()
            result.set_result(self._sent(key, chat_id, sent, drawn))

        self.outbox.ephemeral(chat_id, user_id, None, render, query=query).add_done_callback(done)
        return result

    def _sent(self, key: Key, chat_id: int, sent: Message | None, drawn: list[str]) -> bool:
        if sent is None:
            return False
        if sent.ephemeral_message_id is None:  # an older server posted it for everyone
            log.warning("chat %s: a hand went to the whole group; deleting it", chat_id)
            self.outbox.delete(chat_id, sent.message_id)
            self.supported = False
            return False
        old = self.hands.get(key)
        self.hands[key] = sent.ephemeral_message_id
        if drawn:
            self.drawn[key] = drawn[-1]
        if old is not None and old != sent.ephemeral_message_id:
            self.outbox.delete_ephemeral(chat_id, key[1], old)
        return True

    def _edit(self, game_id: int, chat_id: int, user_id: int, draw: Draw) -> None:
        key = (game_id, user_id)
        eid = self.hands[key]
        handed: list[str] = []

        def render() -> tuple[str, InlineKeyboardMarkup | None] | None:
            hand = draw(user_id)
            if hand is None or (self.drawn.get(key) == hand.key and hand.key not in handed):
                return None  # it shows this already (the seconds left aside)
            handed.append(hand.key)
            self.drawn[key] = hand.key
            return hand.text, hand.markup

        def done(future: asyncio.Future[Message | None]) -> None:
            edited = None if future.cancelled() else future.result()
            if edited is None and handed and self.hands.get(key) == eid:
                del self.hands[key]  # gone for the server: «Мои карты» sends a new one
                self.drawn.pop(key, None)

        self.outbox.ephemeral(chat_id, user_id, eid, render).add_done_callback(done)
