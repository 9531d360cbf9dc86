"""Every callback gets an answer: forged, foreign or out-of-date data included."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from ..i18n import lang_of, t


async def unknown_button(query: CallbackQuery) -> None:
    await query.answer(t(lang_of(query.from_user.language_code), "answer.stale"))


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="fallback")
    r.callback_query.register(unknown_button)
    return r
