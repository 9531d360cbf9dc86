"""Ephemeral messages (Bot API 10.2): a message in a group that only its receiver sees.

What Telegram documents (core.telegram.org/bots/api#ephemeral-messages-and-commands),
and the fake does:

- ``sendMessage`` with ``ephemeral_message_parameters`` (10.3; 10.2's top-level
  ``receiver_user_id`` / ``callback_query_id`` too) sends one to a non-bot member of a
  group. Any bot may do so within 15 seconds of that member's button press, naming its
  ``callback_query_id``; a bot that administers the group may do so at any time.
- The answer has ``message_id`` 0, ``receiver_user`` and an ``ephemeral_message_id``;
  ``editEphemeralMessageText``, ``editEphemeralMessageReplyMarkup`` and
  ``deleteEphemeralMessage`` address it by chat, receiver and that id, and return True.
- Only the receiver sees it and presses its buttons; delivery is not guaranteed and it
  may disappear (``vanish``: the app dropped it, the server does not know; ``expire``:
  the server forgot it too).

What Telegram does not document, and the fake chooses: the error texts
(``PEER_ID_INVALID``, ``USER_NOT_PARTICIPANT``, ``USER_IS_BOT``, ``CHAT_ADMIN_REQUIRED``,
``MESSAGE_ID_INVALID``); an edit that changes nothing succeeds; whether ephemeral
messages count against a group's limits: by default they are paced like a private
chat of their receiver and not counted against the group (``ephemeral_group_limits``
counts them as calls to the group). A server that refuses them: ``ephemeral_api``
False is a server older than 10.2 (the methods are unknown, 404, and ``sendMessage``
ignores the parameters it does not know: the message goes to the whole group), and
``refuse_ephemeral`` answers 400 for some receivers.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram_emulator.model import (
    ApiError,
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeUser,
    PressHandle,
    bad_request,
    check_text,
    normalize_markup,
    now,
    plain_text,
)

MEMBERS = ("creator", "administrator", "member", "restricted")
EDITS = ("editEphemeralMessageText", "editEphemeralMessageReplyMarkup", "deleteEphemeralMessage")
REFUSED = "Bad Request: ephemeral messages are not available for this user"
NOT_FOUND = "Not Found"  # Telegram's answer to a method it does not know


@dataclass(eq=False)
class FakeEphemeral(FakeMessage):
    """An ephemeral message: ``message_id`` 0, its own id in the chat, one receiver."""

    receiver: FakeUser | None = None
    ephemeral_id: int = 0
    after: int = 0  # the chat's last message id when it came: where it shows
    vanished: bool = False  # the receiver's app dropped it; the server does not know
    expired: bool = False  # the server forgot it as well

    @property
    def seen(self) -> bool:
        """Whether its receiver sees it now."""
        return not (self.deleted or self.vanished or self.expired)

    def to_api(self, *, with_reply: bool = True) -> dict[str, Any]:
        data = super().to_api(with_reply=with_reply)
        assert self.receiver is not None
        data["receiver_user"] = self.receiver.to_api()
        data["ephemeral_message_id"] = self.ephemeral_id
        return data

    def __repr__(self) -> str:
        who = self.receiver.id if self.receiver else None
        return f"FakeEphemeral(chat={self.chat.id}, to={who}, id={self.ephemeral_id})"


@dataclass
class EphemeralState:
    """The switches and the messages; one per server."""

    api: bool = True  # False: a server older than Bot API 10.2
    window: float = 15.0  # seconds after a press in which any bot may answer with one
    group_limits: bool = False  # count them against the group's limits
    refused: set[int] | None = field(default_factory=set)  # receivers refused; None: all
    lose: int = 0  # the next sends succeed but never reach their receiver
    messages: list[FakeEphemeral] = field(default_factory=list)
    stand_ins: dict[tuple[int, int], FakeChat] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


class Ephemerals:
    """The ephemeral methods and what tests do with such messages; mixed into
    :class:`FakeTelegram` before the methods it extends."""

    bot_user: FakeUser
    users: dict[int, FakeUser]
    chats: dict[int, FakeChat]
    callbacks: dict[str, PressHandle]
    button_styles: bool
    eph: EphemeralState
    resolve_chat: Callable[[Any], FakeChat]
    writable_chat: Callable[[dict[str, Any]], FakeChat]
    chat: Callable[[ChatRef], FakeChat]
    messages: Callable[..., list[FakeMessage]]
    _notify: Callable[[], None]

    # --- switches -------------------------------------------------------------------

    @property
    def ephemeral_api(self) -> bool:
        return self.eph.api

    @ephemeral_api.setter
    def ephemeral_api(self, on: bool) -> None:
        """False: the server is older than Bot API 10.2."""
        self.eph.api = on

    def refuse_ephemeral(self, user: FakeUser | None = None) -> None:
        """Ephemeral sends to ``user`` (everyone when None) get a 400."""
        if user is None:
            self.eph.refused = None
        elif self.eph.refused is not None:
            self.eph.refused.add(user.id)

    def lose_ephemeral(self, count: int = 1) -> None:
        """The next ``count`` ephemeral sends succeed but never reach their receiver."""
        self.eph.lose += count

    def vanish(self, message: FakeEphemeral) -> None:
        """The receiver's app drops the message (Telegram: "may disappear"); the server
        still takes its edits."""
        message.vanished = True
        self._notify()

    def expire(self, message: FakeEphemeral) -> None:
        """The message is gone for the server too: its edits fail."""
        message.expired = True
        self._notify()

    # --- looking ----------------------------------------------------------------------

    def ephemerals(
        self, chat: ChatRef, receiver: FakeUser | None = None, *, seen: bool = True
    ) -> list[FakeEphemeral]:
        """The chat's ephemeral messages (to ``receiver``); ``seen``: those shown now."""
        target = self.chat(chat)
        return [
            m
            for m in self.eph.messages
            if m.chat is target
            and (receiver is None or m.receiver is receiver)
            and (m.seen or not seen)
        ]

    def seen_by(self, user: FakeUser, chat: ChatRef) -> list[FakeMessage]:
        """What ``user`` sees in the chat: its messages and the ephemeral ones to them."""
        shown: list[FakeMessage] = [*self.messages(chat), *self.ephemerals(chat, user)]
        return sorted(shown, key=_place)

    def ephemeral(self, chat: ChatRef, ephemeral_id: int) -> FakeEphemeral | None:
        target = self.chat(chat)
        return next(
            (m for m in self.eph.messages if m.chat is target and m.ephemeral_id == ephemeral_id),
            None,
        )

    # --- the methods --------------------------------------------------------------------

    def _ephemeral_methods(
        self, handlers: dict[str, Callable[[dict[str, Any]], Any]]
    ) -> dict[str, Callable[[dict[str, Any]], Any]]:
        plain = handlers["sendMessage"]
        handlers["sendMessage"] = lambda p: self._send(p, plain)
        handlers["editEphemeralMessageText"] = self._known(self.api_edit_ephemeral_text)
        handlers["editEphemeralMessageReplyMarkup"] = self._known(self.api_edit_ephemeral_markup)
        handlers["deleteEphemeralMessage"] = self._known(self.api_delete_ephemeral)
        return handlers

    def _known(self, method: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
        def call(params: dict[str, Any]) -> Any:
            if not self.eph.api:
                raise ApiError(404, NOT_FOUND)
            return method(params)

        return call

    @staticmethod
    def _target(params: dict[str, Any]) -> tuple[int, str | None] | None:
        """(receiver, callback query id) of an ephemeral send; None for a plain one."""
        given = params.get("ephemeral_message_parameters")
        if isinstance(given, str) and given:
            try:
                given = json.loads(given)
            except ValueError:
                raise bad_request("can't parse ephemeral message parameters JSON object") from None
        if not isinstance(given, dict):
            given = {k: params[k] for k in ("receiver_user_id", "callback_query_id") if k in params}
        if given.get("receiver_user_id") in (None, ""):
            return None
        try:
            receiver = int(given["receiver_user_id"])
        except (TypeError, ValueError):
            raise bad_request("invalid user_id specified") from None
        query = given.get("callback_query_id")
        return receiver, None if query in (None, "") else str(query)

    def _send(self, params: dict[str, Any], plain: Callable[[dict[str, Any]], Any]) -> Any:
        target = self._target(params) if self.eph.api else None
        if target is None:
            return plain(params)  # an older server ignores what it does not know
        chat = self.writable_chat(params)
        if not chat.is_group:
            raise bad_request("PEER_ID_INVALID")
        receiver = self.users.get(target[0])
        if receiver is None or chat.members.get(receiver.id) not in MEMBERS:
            raise bad_request("USER_NOT_PARTICIPANT")
        if receiver.is_bot:
            raise bad_request("USER_IS_BOT")
        if self.eph.refused is None or receiver.id in self.eph.refused:
            raise ApiError(400, REFUSED)
        if chat.bot_status != "administrator" and not self._answers_press(chat, receiver, target):
            raise bad_request("CHAT_ADMIN_REQUIRED")
        raw = str(params.get("text") or "")
        text = check_text(plain_text(raw, params.get("parse_mode")))
        markup = normalize_markup(params.get("reply_markup"), styles=self.button_styles)
        message = FakeEphemeral(chat, 0, self.bot_user, text, markup, receiver=receiver)
        message.ephemeral_id = next(self.eph.ids)
        message.after = chat.next_message_id - 1
        message.raw_text, message.parse_mode = raw, params.get("parse_mode")
        if self.eph.lose > 0:
            self.eph.lose -= 1
            message.vanished = True
        self.eph.messages.append(message)
        self._notify()
        return message.to_api()

    def _answers_press(
        self, chat: FakeChat, receiver: FakeUser, target: tuple[int, str | None]
    ) -> bool:
        """The send names a press by the receiver in this chat, at most 15 s old."""
        handle = self.callbacks.get(target[1] or "")
        return (
            handle is not None
            and handle.user is receiver
            and handle.message.chat is chat
            and time.monotonic() - handle.pressed_at <= self.eph.window
        )

    def _addressed(self, params: dict[str, Any]) -> FakeEphemeral:
        chat = self.writable_chat(params)
        try:
            receiver = int(params.get("receiver_user_id") or 0)
            eid = int(params.get("ephemeral_message_id") or 0)
        except (TypeError, ValueError):
            raise bad_request("MESSAGE_ID_INVALID") from None
        message = self.ephemeral(chat, eid)
        if (
            message is None
            or message.receiver is None
            or message.receiver.id != receiver
            or message.deleted
            or message.expired
        ):
            raise bad_request("MESSAGE_ID_INVALID")
        return message

    def _edit(self, message: FakeEphemeral, raw: str | None, params: dict[str, Any]) -> bool:
        markup = normalize_markup(params.get("reply_markup"), styles=self.button_styles)
        message.history.append((message.text, message.reply_markup))
        if raw is not None:
            message.text = check_text(plain_text(raw, params.get("parse_mode")))
            message.raw_text, message.parse_mode = raw, params.get("parse_mode")
        message.reply_markup = markup  # without one the keyboard goes, as in editMessageText
        message.edit_date = now()
        self._notify()
        return True

    def api_edit_ephemeral_text(self, params: dict[str, Any]) -> bool:
        return self._edit(self._addressed(params), str(params.get("text") or ""), params)

    def api_edit_ephemeral_markup(self, params: dict[str, Any]) -> bool:
        return self._edit(self._addressed(params), None, params)

    def api_delete_ephemeral(self, params: dict[str, Any]) -> bool:
        self._addressed(params).deleted = True
        self._notify()
        return True

    # --- pacing -----------------------------------------------------------------------

    def _ephemeral_pacing(self, method: str, params: dict[str, Any]) -> FakeChat | None:
        """The chat whose limits an ephemeral call counts against: a stand-in per
        group and receiver (like a private chat), or the group itself; None for any
        other call."""
        if not self.eph.api:
            return None
        if method == "sendMessage":
            target = self._target(params)
            receiver = target[0] if target else None
        elif method in EDITS:
            receiver = params.get("receiver_user_id")
        else:
            return None
        try:
            chat = self.resolve_chat(params.get("chat_id"))
            key = (chat.id, int(receiver or 0))
        except (ApiError, TypeError, ValueError):
            return None
        if not key[1]:
            return None
        if self.eph.group_limits:
            return chat
        stand_in = self.eph.stand_ins.get(key)
        if stand_in is None:  # ids no chat has: the limiter keys its windows by id
            number = 10**15 + len(self.eph.stand_ins)
            stand_in = self.eph.stand_ins[key] = FakeChat(number, "ephemeral")
        return stand_in


def _place(message: FakeMessage) -> tuple[int, int]:
    """Where a message shows in its chat: an ephemeral one after the message before it."""
    if isinstance(message, FakeEphemeral):
        return message.after, 1
    return message.message_id, 0
