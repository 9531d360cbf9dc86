"""A Telegram Bot API emulator on 127.0.0.1: the fake Telegram of the end-to-end tests and
of the sandbox (``python -m bot --sandbox``), so both meet the same limits and errors.

It speaks the Bot API and knows nothing of the bot it serves: any aiogram ``Bot`` (or
another client) talks to it; how the project's test players read its keyboards lives
with them (``bench/playing.py``)."""

from telegram_emulator.ephemeral import FakeEphemeral
from telegram_emulator.model import (
    TOKEN,
    ApiError,
    Call,
    CallbackAnswer,
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeUser,
    PressHandle,
    RateLimits,
)
from telegram_emulator.polling import run_polling
from telegram_emulator.server import FakeTelegram

__all__ = [
    "TOKEN",
    "ApiError",
    "Call",
    "CallbackAnswer",
    "ChatRef",
    "FakeChat",
    "FakeEphemeral",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "PressHandle",
    "RateLimits",
    "run_polling",
]
