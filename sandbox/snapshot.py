"""What one person sees in the sandbox, as JSON for the page: their groups and their
private chat with the bot, each message with its text (HTML as the bot sent it) and its
inline keyboard; in a group, the ephemeral messages only they see (``id`` below 0)."""

from __future__ import annotations

import html
from typing import Any

from telegram_emulator import FakeChat, FakeEphemeral, FakeMessage, FakeTelegram, FakeUser

SHOWN = 100  # the newest messages of a chat that the page gets
MEMBERS = ("creator", "administrator", "member")


def snapshot(tg: FakeTelegram, me: FakeUser) -> dict[str, Any]:
    people = [u for u in tg.users.values() if not u.is_bot]
    return {
        "me": me.id,
        "lang": me.language_code or "ru",
        "bot": tg.bot_user.username,
        "people": [{"id": u.id, "name": u.first_name} for u in people],
        "chats": [chat_json(tg, chat, me) for chat in chats_of(tg, me)],
    }


def chats_of(tg: FakeTelegram, me: FakeUser) -> list[FakeChat]:
    """The groups ``me`` is in (where the bot still is), then the private chat."""
    groups = [
        c
        for c in tg.chats.values()
        if c.is_group and c.migrated_to is None and c.members.get(me.id) in MEMBERS
    ]
    return [*groups, tg.private(me)]


def chat_json(tg: FakeTelegram, chat: FakeChat, me: FakeUser) -> dict[str, Any]:
    private = chat.user is not None
    shown = tg.messages(chat) if private else tg.seen_by(me, chat)  # with ephemeral ones to me
    messages = [m for m in shown if m.text is not None][-SHOWN:]
    return {
        "id": chat.id,
        "title": tg.bot_user.first_name if private else chat.title,
        "private": private,
        "started": me.started if private else True,
        "commands": commands(tg, me, private),
        "messages": [message_json(m, me) for m in messages],
    }


def message_json(message: FakeMessage, me: FakeUser) -> dict[str, Any]:
    text = message.text or ""
    if message.chat.user is not None and text.startswith("/start "):
        text = "/start"  # a deep link's payload goes to the bot; Telegram shows /start
    rich = message.raw_text if (message.parse_mode or "").upper() == "HTML" else None
    rows = (message.reply_markup or {}).get("inline_keyboard") or []
    return {
        "id": json_id(message),
        "ephemeral": isinstance(message, FakeEphemeral),
        "from": message.from_user.first_name,
        "mine": message.from_user is me,
        "html": rich if rich is not None else html.escape(text),
        "edited": message.edit_date is not None,
        "keyboard": [[button_json(b) for b in row] for row in rows],
    }


def json_id(message: FakeMessage) -> int:
    """The message's id on the page: an ephemeral one's is its ephemeral id below 0."""
    return -message.ephemeral_id if isinstance(message, FakeEphemeral) else message.message_id


def button_json(button: dict[str, Any]) -> dict[str, Any]:
    """An inline button: its label and what it does (callback data, a link, or a page
    opened as a Mini App)."""
    kept = ("text", "callback_data", "url", "web_app", "style")
    return {key: button[key] for key in kept if button.get(key) is not None}


def commands(tg: FakeTelegram, me: FakeUser, private: bool) -> list[dict[str, str]]:
    """The command menu the bot set for this kind of chat, in ``me``'s language."""
    scope = {"type": "all_private_chats" if private else "all_group_chats"}
    return tg.commands(scope, me.language_code or "") or tg.commands(scope)
