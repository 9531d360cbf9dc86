"""The Bot API methods of the fake server, answering the way Telegram does."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from telegram_emulator.model import (
    NOT_MODIFIED,
    ApiError,
    CallbackAnswer,
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

if TYPE_CHECKING:
    from collections.abc import Callable

INT_FIELDS = {
    "chat_id", "message_id", "offset", "limit", "timeout", "user_id", "cache_time",
    "from_chat_id", "message_thread_id", "reply_to_message_id", "until_date",
}  # fmt: skip
BOOL_FIELDS = {
    "show_alert", "disable_notification", "protect_content", "drop_pending_updates",
    "disable_web_page_preview", "allow_sending_without_reply", "only_if_banned",
    "revoke_messages",
}  # fmt: skip
JSON_FIELDS = {
    "reply_markup", "allowed_updates", "commands", "scope", "entities", "caption_entities",
    "link_preview_options", "reply_parameters", "message_ids",
}  # fmt: skip

_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


def decode_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Form and query values arrive as strings; JSON bodies arrive typed."""
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str):
            if key in JSON_FIELDS and value[:1] in ("{", "["):
                try:
                    value = json.loads(value)
                except ValueError:
                    raise bad_request(f"can't parse {key} JSON object") from None
            elif key in INT_FIELDS and re.fullmatch(r"-?\d+", value):
                value = int(value)
            elif key in BOOL_FIELDS:
                value = value.lower() in ("true", "1")
        params[key] = value
    return params


def member_json(user: FakeUser, status: str) -> dict[str, Any]:
    """A ChatMember object for one of the statuses the fake uses."""
    data: dict[str, Any] = {"status": status, "user": user.to_api()}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(
            can_be_edited=False,
            is_anonymous=False,
            can_manage_chat=True,
            can_delete_messages=True,
            can_manage_video_chats=True,
            can_restrict_members=True,
            can_promote_members=False,
            can_change_info=True,
            can_invite_users=True,
            can_post_stories=False,
            can_edit_stories=False,
            can_delete_stories=False,
            can_send_welcome_messages=False,
            can_pin_messages=True,
        )
    elif status == "kicked":
        data["until_date"] = 0
    return data


class BotApiMethods:
    """Method implementations; state lives in :class:`FakeTelegram`."""

    bot_user: FakeUser
    users: dict[int, FakeUser]
    chats: dict[int, FakeChat]
    callbacks: dict[str, PressHandle]
    callback_timeout: float | None
    webhook_url: str | None
    my_commands: dict[tuple[str, str], list[dict[str, Any]]]
    privacy_mode: bool
    button_styles: bool
    _pending: list[dict[str, Any]]
    private: Callable[[FakeUser], FakeChat]
    _queue_member_update: Callable[..., dict[str, Any]]
    _new_message: Callable[..., FakeMessage]

    def _methods(self) -> dict[str, Callable[[dict[str, Any]], Any]]:
        return {
            "getMe": self.api_get_me,
            "logOut": lambda p: True,
            "close": lambda p: True,
            "setWebhook": self.api_set_webhook,
            "deleteWebhook": self.api_delete_webhook,
            "getWebhookInfo": self.api_get_webhook_info,
            "setMyCommands": self.api_set_my_commands,
            "getMyCommands": self.api_get_my_commands,
            "deleteMyCommands": self.api_delete_my_commands,
            "sendMessage": self.api_send_message,
            "editMessageText": self.api_edit_message_text,
            "editMessageReplyMarkup": self.api_edit_message_reply_markup,
            "deleteMessage": self.api_delete_message,
            "answerCallbackQuery": self.api_answer_callback_query,
            "getChat": self.api_get_chat,
            "getChatMember": self.api_get_chat_member,
            "getChatAdministrators": self.api_get_chat_administrators,
            "leaveChat": self.api_leave_chat,
            "sendChatAction": self.api_send_chat_action,
        }

    # --- chats ---------------------------------------------------------------

    def resolve_chat(self, chat_id: Any) -> FakeChat:
        """The chat named by ``chat_id`` (id or @username); 400 when unknown or migrated."""
        chat: FakeChat | None = None
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            name = chat_id[1:].lower()
            chat = next(
                (c for c in self.chats.values() if (c.username or "").lower() == name), None
            )
        elif chat_id not in (None, ""):
            try:
                key = int(chat_id)
            except (TypeError, ValueError):
                raise bad_request("chat not found") from None
            chat = self.chats.get(key)
            if chat is None and key in self.users:
                chat = self.private(self.users[key])
        if chat is None:
            raise bad_request("chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def check_can_write(self, chat: FakeChat) -> None:
        """403 answers for a private chat not started / blocked, or a group left."""
        if chat.user is not None:
            if chat.user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat")

    def writable_chat(self, params: dict[str, Any]) -> FakeChat:
        chat = self.resolve_chat(params.get("chat_id"))
        self.check_can_write(chat)
        return chat

    # --- bot and setup -------------------------------------------------------

    def api_get_me(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            **self.bot_user.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
        }

    def api_set_webhook(self, params: dict[str, Any]) -> bool:
        self.webhook_url = params.get("url") or None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def api_delete_webhook(self, params: dict[str, Any]) -> bool:
        self.webhook_url = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def api_get_webhook_info(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }

    @staticmethod
    def _commands_key(params: dict[str, Any]) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), params.get("language_code") or ""

    def api_set_my_commands(self, params: dict[str, Any]) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("can't parse commands JSON object")
        for command in commands:
            if not _COMMAND_NAME.match(str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise bad_request("command description must be non-empty")
        self.my_commands[self._commands_key(params)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def api_get_my_commands(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        return list(self.my_commands.get(self._commands_key(params), []))

    def api_delete_my_commands(self, params: dict[str, Any]) -> bool:
        self.my_commands.pop(self._commands_key(params), None)
        return True

    # --- messages ------------------------------------------------------------

    def api_send_message(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self.writable_chat(params)
        raw = params.get("text")
        text = check_text(plain_text(str(raw or ""), params.get("parse_mode")))
        markup = normalize_markup(params.get("reply_markup"), styles=self.button_styles)
        reply_to = None
        reply = params.get("reply_parameters") or {}
        reply_id = reply.get("message_id") or params.get("reply_to_message_id")
        if reply_id:
            reply_to = chat.message(int(reply_id))
            allow = reply.get("allow_sending_without_reply") or params.get(
                "allow_sending_without_reply"
            )
            if reply_to is None and not allow:
                raise bad_request("message to be replied not found")
        message = self._new_message(chat, self.bot_user, text, markup=markup, reply_to=reply_to)
        message.raw_text = str(raw)
        message.parse_mode = params.get("parse_mode")
        return message.to_api()

    def _editable(self, params: dict[str, Any]) -> FakeMessage:
        if params.get("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")
        chat = self.writable_chat(params)
        message = chat.message(int(params.get("message_id") or 0))
        if message is None:
            raise bad_request("message to edit not found")
        if message.from_user is not self.bot_user:
            raise bad_request("message can't be edited")
        return message

    @staticmethod
    def _apply_edit(
        message: FakeMessage,
        text: str | None,
        raw: str | None,
        parse_mode: str | None,
        markup: dict[str, Any] | None,
    ) -> dict[str, Any]:
        if (text, raw, markup) == (message.text, message.raw_text, message.reply_markup):
            raise bad_request(NOT_MODIFIED.removeprefix("Bad Request: "))
        message.history.append((message.text, message.reply_markup))
        message.text, message.raw_text, message.parse_mode = text, raw, parse_mode
        message.reply_markup = markup
        message.edit_date = now()
        return message.to_api()

    def api_edit_message_text(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._editable(params)
        raw = str(params.get("text") or "")
        text = check_text(plain_text(raw, params.get("parse_mode")))
        # Without reply_markup Telegram removes the inline keyboard.
        markup = normalize_markup(params.get("reply_markup"), styles=self.button_styles)
        return self._apply_edit(message, text, raw, params.get("parse_mode"), markup)

    def api_edit_message_reply_markup(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._editable(params)
        markup = normalize_markup(params.get("reply_markup"), styles=self.button_styles)
        return self._apply_edit(message, message.text, message.raw_text, message.parse_mode, markup)

    def api_delete_message(self, params: dict[str, Any]) -> bool:
        chat = self.resolve_chat(params.get("chat_id"))
        if chat.is_group:
            self.check_can_write(chat)
        message = chat.message(int(params.get("message_id") or 0))
        if message is None:
            raise bad_request("message to delete not found")
        if (
            chat.is_group
            and message.from_user is not self.bot_user
            and chat.bot_status != "administrator"
        ):
            raise bad_request("message can't be deleted")
        message.deleted = True
        return True

    def api_send_chat_action(self, params: dict[str, Any]) -> bool:
        self.writable_chat(params)
        return True

    def api_answer_callback_query(self, params: dict[str, Any]) -> bool:
        handle = self.callbacks.get(str(params.get("callback_query_id")))
        expired = (
            handle is not None
            and self.callback_timeout is not None
            and time.monotonic() - handle.pressed_at > self.callback_timeout
        )
        if handle is None or handle.answered or expired:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        handle._resolve(
            CallbackAnswer(
                text=params.get("text") or None,
                show_alert=bool(params.get("show_alert")),
                url=params.get("url") or None,
                cache_time=params.get("cache_time"),
            )
        )
        return True

    # --- chats and members ---------------------------------------------------

    def _readable_chat(self, params: dict[str, Any]) -> FakeChat:
        chat = self.resolve_chat(params.get("chat_id"))
        if chat.is_group:
            self.check_can_write(chat)
        return chat

    def api_get_chat(self, params: dict[str, Any]) -> dict[str, Any]:
        return self._readable_chat(params).to_full_api()

    def api_get_chat_member(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._readable_chat(params)
        user_id = params.get("user_id")
        if user_id == self.bot_user.id:
            status = chat.bot_status if chat.is_group else "member"
            return member_json(self.bot_user, status)
        user = self.users.get(user_id) if isinstance(user_id, int) else None
        if user is None:
            raise bad_request("user not found")
        if chat.user is not None:
            if user is not chat.user:
                raise bad_request("user not found")
            return member_json(user, "member")
        return member_json(user, chat.members.get(user.id, "left"))

    def api_get_chat_administrators(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        chat = self._readable_chat(params)
        if not chat.is_group:
            raise bad_request("there are no administrators in the private chat")
        admins = [
            member_json(self.users[uid], status)
            for uid, status in chat.members.items()
            if status in ("creator", "administrator")
        ]
        if chat.bot_status == "administrator":
            admins.append(member_json(self.bot_user, "administrator"))
        return admins

    def api_leave_chat(self, params: dict[str, Any]) -> bool:
        chat = self._readable_chat(params)
        if not chat.is_group:
            raise bad_request("chat member status can't be changed in private chats")
        old = chat.bot_status
        chat.bot_status = "left"
        self._queue_member_update(chat, self.bot_user, old, "left")
        return True
