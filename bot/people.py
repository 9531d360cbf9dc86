"""Telegram users as the service's ``Person``, and the deep link that opens the private chat."""

from __future__ import annotations

from aiogram.types import User

from service.tables import Person

from .i18n import lang_of


def person(user: User) -> Person:
    return Person(user.id, user.full_name, user.username, lang_of(user.language_code))


def deep_link(bot_username: str, join_token: str) -> str:
    """The link that opens the private chat and joins the table with this token."""
    return f"https://t.me/{bot_username}?start=join_{join_token}"
