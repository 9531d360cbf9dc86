"""The test's side of the fake Telegram: building the world and acting as users."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

from telegram_emulator.ephemeral import FakeEphemeral
from telegram_emulator.methods import member_json
from telegram_emulator.model import (
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeUser,
    PressHandle,
    command_entities,
    now,
    unique_id,
)

ANONYMOUS_ADMIN = FakeUser(1087968824, "Group", username="GroupAnonymousBot", is_bot=True)


class UserActions:
    """Users, chats and what users do; mixed into :class:`FakeTelegram`."""

    bot_user: FakeUser
    users: dict[int, FakeUser]
    chats: dict[int, FakeChat]
    callbacks: dict[str, PressHandle]
    privacy_mode: bool

    _queue: Callable[[str, dict[str, Any]], dict[str, Any]]
    _notify: Callable[[], None]

    # --- world building --------------------------------------------------------

    def add_user(
        self,
        id: int,
        first_name: str,
        language_code: str | None = "ru",
        started: bool = False,
        *,
        last_name: str | None = None,
        username: str | None = None,
    ) -> FakeUser:
        user = FakeUser(id, first_name, last_name, username, language_code, started=started)
        self.users[id] = user
        return user

    def private(self, user: FakeUser) -> FakeChat:
        """The private chat between ``user`` and the bot (its id is the user's id)."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = FakeChat(user.id, "private", user=user)
        return chat

    def add_group(
        self,
        id: int,
        title: str,
        members: Iterable[FakeUser] = (),
        supergroup: bool = False,
        *,
        admins: Iterable[FakeUser] = (),
        creator: FakeUser | None = None,
        bot_admin: bool = False,
        username: str | None = None,
    ) -> FakeChat:
        """A group the bot is already in; ``creator`` defaults to the first member."""
        chat = FakeChat(id, "supergroup" if supergroup else "group", title, username=username)
        chat.bot_status = "administrator" if bot_admin else "member"
        members = list(members)
        for user in [*members, *admins]:
            self.users.setdefault(user.id, user)
            chat.members[user.id] = "member"
        for user in admins:
            chat.members[user.id] = "administrator"
        creator = creator or (members[0] if members else None)
        if creator is not None:
            self.users.setdefault(creator.id, creator)
            chat.members[creator.id] = "creator"
        self.chats[id] = chat
        return chat

    def chat(self, ref: ChatRef) -> FakeChat:
        if isinstance(ref, FakeChat):
            return ref
        if isinstance(ref, FakeUser):
            return self.private(ref)
        if ref in self.chats:
            return self.chats[ref]
        if ref in self.users:
            return self.private(self.users[ref])
        raise KeyError(f"no chat {ref}")

    def _chat_id(self, ref: ChatRef) -> int:
        return ref if isinstance(ref, int) else self.chat(ref).id

    def _new_message(
        self,
        chat: FakeChat,
        sender: FakeUser,
        text: str | None,
        *,
        markup: dict[str, Any] | None = None,
        reply_to: FakeMessage | None = None,
        entities: list[dict[str, Any]] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            chat, chat.next_message_id, sender, text, markup, entities=entities or None
        )
        message.reply_to = reply_to
        message.extra = extra or {}
        chat.next_message_id += 1
        chat.all_messages.append(message)
        self._notify()
        return message

    def _queue_member_update(
        self, chat: FakeChat, actor: FakeUser, old: str, new: str
    ) -> dict[str, Any]:
        return self._queue(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": actor.to_api(),
                "date": now(),
                "old_chat_member": member_json(self.bot_user, old),
                "new_chat_member": member_json(self.bot_user, new),
            },
        )

    def _actor(self, chat: FakeChat, by: FakeUser | None) -> FakeUser:
        if by is not None:
            return by
        for status in ("creator", "administrator", "member"):
            for uid, member_status in chat.members.items():
                if member_status == status:
                    return self.users[uid]
        return ANONYMOUS_ADMIN

    # --- acting as users -----------------------------------------------------

    def start_private(self, user: FakeUser, payload: str | None = None) -> FakeMessage:
        """The user presses Start (``t.me/<bot>?start=<payload>``): queues ``/start``."""
        chat = self.private(user)
        if user.blocked:
            user.blocked = False
            self._queue_member_update(chat, user, "kicked", "member")
        user.started = True
        text = "/start" + (f" {payload}" if payload else "")
        message = self._new_message(chat, user, text, entities=command_entities(text))
        self._queue("message", message.to_api())
        return message

    def block(self, user: FakeUser) -> None:
        """The user blocks the bot: sends fail with 403, a my_chat_member is queued."""
        user.blocked = True
        self._queue_member_update(self.private(user), user, "member", "kicked")

    async def send_text(
        self, user: FakeUser, chat: ChatRef, text: str, *, reply_to: FakeMessage | None = None
    ) -> FakeMessage:
        """The user writes ``text`` in a group or in the private chat with the bot."""
        target = self.chat(chat)
        if target.user is not None:
            assert target.user is user, "a user can only write in their own private chat"
            if user.blocked:  # the user unblocks the bot to write to it
                user.blocked = False
                self._queue_member_update(target, user, "kicked", "member")
            user.started = True
        else:
            assert target.migrated_to is None, "the group became a supergroup"
            self.users.setdefault(user.id, user)
            if target.members.get(user.id) in (None, "left", "kicked"):
                target.members[user.id] = "member"
        entities = command_entities(text)
        message = self._new_message(target, user, text, reply_to=reply_to, entities=entities)
        if self._delivered_to_bot(target, message):
            self._queue("message", message.to_api())
        await asyncio.sleep(0)
        return message

    def _delivered_to_bot(self, chat: FakeChat, message: FakeMessage) -> bool:
        if chat.user is not None:
            return True
        if chat.bot_status not in ("member", "administrator"):
            return False
        if not self.privacy_mode or chat.bot_status == "administrator":
            return True
        entities = message.entities or []
        starts_with_command = bool(entities) and entities[0]["offset"] == 0
        reply_to_bot = message.reply_to is not None and message.reply_to.from_user.is_bot
        return starts_with_command or reply_to_bot

    async def press(
        self,
        user: FakeUser,
        message: FakeMessage,
        callback_data: str | None = None,
        *,
        button_text: str | None = None,
        forge: bool = False,
    ) -> PressHandle:
        """The user taps an inline button of ``message`` (by data or by its text).

        The button must be on the message's current keyboard unless ``forge``.
        ``await handle`` gives the bot's ``answerCallbackQuery``.
        """
        if button_text is not None:
            found = [d for row in message.keyboard for t, d in row if t == button_text]
            assert found, f"no button {button_text!r} on {message}: {message.keyboard}"
            callback_data = found[0]
        assert callback_data is not None, "give callback_data or button_text"
        if isinstance(message, FakeEphemeral):  # only its receiver sees it
            assert message.receiver is user and message.seen, f"{user.id} does not see {message}"
        if not forge:
            assert not message.deleted, f"{message} was deleted"
            assert callback_data in message.button_data(), (
                f"no button {callback_data!r} on {message}: {message.keyboard}"
            )
        chat = message.chat
        if chat.user is not None:
            assert chat.user is user, "only the chat's user sees a private message"
        else:
            chat.members.setdefault(user.id, "member")
        handle = PressHandle(str(7_000_000_000 + unique_id()), user, message, callback_data)
        self.callbacks[handle.query_id] = handle
        update = self._queue(
            "callback_query",
            {
                "id": handle.query_id,
                "from": user.to_api(),
                "message": message.to_api(),
                "chat_instance": str(abs(chat.id) * 31 + 17),
                "data": callback_data,
            },
        )
        handle.update_id = update["update_id"]
        await asyncio.sleep(0)
        return handle

    def migrate_to_supergroup(
        self, chat: FakeChat, new_id: int, *, by: FakeUser | None = None
    ) -> FakeChat:
        """The group becomes a supergroup with ``new_id``; old-id calls get a 400."""
        assert chat.type == "group", "only basic groups migrate"
        actor = self._actor(chat, by)
        new = FakeChat(new_id, "supergroup", chat.title, members=dict(chat.members))
        new.bot_status = chat.bot_status
        self.chats[new_id] = new
        old_note = self._new_message(chat, actor, None, extra={"migrate_to_chat_id": new_id})
        self._queue("message", old_note.to_api())
        chat.migrated_to = new_id
        new_note = self._new_message(new, actor, None, extra={"migrate_from_chat_id": chat.id})
        self._queue("message", new_note.to_api())
        return new

    def remove_bot_from(
        self, chat: FakeChat, *, kicked: bool = True, by: FakeUser | None = None
    ) -> None:
        """An admin removes the bot: status ``kicked`` (or ``left``), my_chat_member queued."""
        old = chat.bot_status
        chat.bot_status = "kicked" if kicked else "left"
        self._queue_member_update(chat, self._actor(chat, by), old, chat.bot_status)

    def add_bot_to(
        self, chat: FakeChat, *, by: FakeUser | None = None, admin: bool = False
    ) -> None:
        """Someone adds the bot (back) to a group; my_chat_member queued."""
        old = chat.bot_status
        chat.bot_status = "administrator" if admin else "member"
        self._queue_member_update(chat, self._actor(chat, by), old, chat.bot_status)
