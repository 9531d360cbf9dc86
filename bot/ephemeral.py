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
from dataclasses import dataclass
from enum import StrEnum

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramNotFound

from service import LiveGame

from .callbacks import CardsCb, packed
from .i18n import t
from .keyboard import Button, Keyboard
from .outbox import Outbox
from .outgoing import Posted
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


def cards_button(lang: str, game_id: int, beside: Button | None = None) -> Keyboard:
    """The table message's keyboard: «🃏 Мои карты» (and ``beside`` it the Mini App's)."""
    data = packed(CardsCb, game=game_id)
    row = [Button(t(lang, "eph.button"), data)]
    return Keyboard([row if beside is None else [*row, beside]])


@dataclass
class _Hand:
    """One player's hand in the group: what it is and what it shows."""

    message_id: int | None = None  # the ephemeral message's id (None: none there)
    key: str | None = None  # the key of the hand it shows
    turn: bool | None = None  # whether it was their turn at the game's last news
    opened: bool = False  # they asked for it («Мои карты»): they play from the group


class EphemeralHands:
    """The hands shown in the group, and what the server and each group allow. Built by
    the app and given to those who show or open them; its state changes by its verbs."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self._supported: bool | None = None  # whether the server knows them (asked once)
        self._refused: set[int] = set()  # users Telegram refused one: private hands only
        self._told: set[int] = set()  # users told so
        self._hands: dict[Key, _Hand] = {}
        self._chats: dict[int, int] = {}  # game -> its group
        self._admin: dict[int, tuple[bool, float]] = {}
        self._asking: asyncio.Lock = asyncio.Lock()

    @property
    def bot(self) -> Bot:
        return self.outbox.bot

    @property
    def supported(self) -> bool | None:
        """Whether the server knows ephemeral messages (None: not asked yet, or the
        asking failed)."""
        return self._supported

    def opened(self, game_id: int, user_id: int) -> bool:
        """Whether the user asked for their hand in the group in this game."""
        hand = self._hands.get((game_id, user_id))
        return hand is not None and hand.opened

    def showing(self, game_id: int, user_id: int) -> bool:
        """Whether the group shows the user their hand in this game now."""
        hand = self._hands.get((game_id, user_id))
        return hand is not None and hand.message_id is not None

    # --- what the server and the group allow ----------------------------------------

    async def available(self, chat_id: int, user_id: int) -> bool:
        """Whether the server knows ephemeral messages: a deletion of one that cannot
        exist is refused by a server that does (400) and unknown to one that does not."""
        if self._supported is not None:  # (known: no queue behind the lock)
            return self._supported
        async with self._asking:
            if self._supported is None:
                try:
                    await self.bot.delete_ephemeral_message(
                        chat_id=chat_id, receiver_user_id=user_id, ephemeral_message_id=0,
                        request_timeout=PROBE_WAIT,
                    )  # fmt: skip
                    self._supported = True
                except TelegramNotFound:
                    self._supported = False
                    log.warning("the Bot API server has no ephemeral messages: private hands only")
                except TelegramBadRequest:
                    self._supported = True
                except TelegramAPIError as e:  # (a bad answer too): ask again next time
                    log.warning("chat %s: asking for ephemeral messages failed: %s", chat_id, e)
                    return False
            return self._supported

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
        self._hands.setdefault(key, _Hand()).opened = True
        self._chats[game_id] = chat_id
        future = self._send(game_id, chat_id, user_id, draw, query)
        try:
            sent = await asyncio.wait_for(asyncio.shield(future), OPEN_WAIT)
        except TimeoutError:
            return True  # still on its way (the outbox keeps it)
        if not sent:
            self._refused.add(user_id)
        return sent

    async def update(
        self, game_id: int, chat_id: int, live: LiveGame, news: set[int | None], draw: Draw,
        private_off: set[int],
    ) -> list[asyncio.Future[bool]]:  # fmt: skip
        """After the game's news: edit the ephemeral hands that show it; an administrator
        bot pushes a new one to those who play from the group (``private_off``: the bot
        cannot write to them privately) when their turn comes. Returns the pushes of a
        player's first hand in the game (True once it is there)."""
        firsts: list[asyncio.Future[bool]] = []
        humans = [uid for s in live.seats if s.human and (uid := s.user_id) is not None]
        wanted = bool(private_off) or any(self.opened(game_id, uid) for uid in humans)
        admin = wanted and await self.is_admin(chat_id)
        self._chats[game_id] = chat_id
        turn = live.state.turn()
        for seat, info in enumerate(live.seats):
            uid = info.user_id
            if uid is None or not info.human or uid in self._refused:
                continue
            hand = self._hands.setdefault((game_id, uid), _Hand())
            mine = turn is not None and seat in turn.seats
            was, hand.turn = hand.turn, mine
            from_group = hand.opened or uid in private_off
            first = was is None and uid in private_off and hand.message_id is None
            push = admin and from_group and self._supported is not False
            if push and ((mine and not was) or first):
                sending = self._send(game_id, chat_id, uid, draw, None)
                if hand.message_id is None:
                    firsts.append(sending)
            elif hand.message_id is not None and (None in news or uid in news):
                self._edit(game_id, chat_id, uid, draw)
        return firsts

    async def again(self, game_id: int, chat_id: int, draw: Draw) -> None:
        """The game's table message was posted anew below an answer: an administrator bot
        sends the hands the group shows again, below it (the old ones go)."""
        shown = [k[1] for k, hand in self._hands.items() if k[0] == game_id and hand.message_id]
        if shown and await self.is_admin(chat_id):
            for user_id in shown:
                self._send(game_id, chat_id, user_id, draw, None)

    def finish(self, game_id: int) -> None:
        """The game ended or its table closed: its ephemeral hands go."""
        chat_id = self._chats.pop(game_id, None)
        for key in [k for k in self._hands if k[0] == game_id]:
            message_id = self._hands.pop(key).message_id
            if chat_id is not None and message_id is not None:
                self.outbox.delete_ephemeral(chat_id, key[1], message_id)

    # --- the calls -----------------------------------------------------------------------

    def _send(
        self, game_id: int, chat_id: int, user_id: int, draw: Draw, query: str | None
    ) -> asyncio.Future[bool]:
        """A new ephemeral hand (the old one deleted once it is there); True when sent."""
        key = (game_id, user_id)
        drawn: list[str] = []

        def render() -> tuple[str, Keyboard | None] | None:
            hand = draw(user_id)
            if hand is None:
                return None
            drawn.append(hand.key)
            return hand.text, hand.markup

        result: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def done(future: asyncio.Future[Posted | None]) -> None:
            sent = None if future.cancelled() else future.result()
            result.set_result(self._sent(key, chat_id, sent, drawn))

        self.outbox.ephemeral(chat_id, user_id, None, render, query=query).add_done_callback(done)
        return result

    def _sent(self, key: Key, chat_id: int, sent: Posted | None, drawn: list[str]) -> bool:
        if sent is None:
            return False
        if sent.ephemeral_message_id is None:  # an older server posted it for everyone
            log.warning("chat %s: a hand went to the whole group; deleting it", chat_id)
            self.outbox.delete(chat_id, sent.message_id)
            self._supported = False
            return False
        if key[0] not in self._chats:  # the game ended (or went elsewhere) meanwhile
            self.outbox.delete_ephemeral(chat_id, key[1], sent.ephemeral_message_id)
            return False
        hand = self._hands.setdefault(key, _Hand())
        old, hand.message_id = hand.message_id, sent.ephemeral_message_id
        if drawn:
            hand.key = drawn[-1]
        if old is not None and old != sent.ephemeral_message_id:
            self.outbox.delete_ephemeral(chat_id, key[1], old)
        return True

    def _edit(self, game_id: int, chat_id: int, user_id: int, draw: Draw) -> None:
        key = (game_id, user_id)
        hand = self._hands[key]
        eid = hand.message_id
        assert eid is not None, "an edit of a hand the group shows"
        handed: list[str] = []

        def render() -> tuple[str, Keyboard | None] | None:
            drawn = draw(user_id)
            if drawn is None or (hand.key == drawn.key and drawn.key not in handed):
                return None  # it shows this already (the seconds left aside)
            handed.append(drawn.key)
            hand.key = drawn.key
            return drawn.text, drawn.markup

        def done(future: asyncio.Future[Posted | None]) -> None:
            edited = None if future.cancelled() else future.result()
            if edited is None and handed and hand.message_id == eid:
                hand.message_id = hand.key = None  # gone: «Мои карты» sends a new one

        self.outbox.ephemeral(chat_id, user_id, eid, render).add_done_callback(done)
