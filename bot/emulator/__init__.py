"""A Telegram Bot API emulator on 127.0.0.1: the fake Telegram of the end-to-end tests and
of the sandbox (``python -m bot --sandbox``), so both meet the same limits and errors."""

from bot.emulator.ephemeral import FakeEphemeral
from bot.emulator.model import (
    ApiError,
    Call,
    CallbackAnswer,
    FakeChat,
    FakeMessage,
    FakeUser,
    PressHandle,
    RateLimits,
)
from bot.emulator.playing import TOKEN, choose, hand_message
from bot.emulator.server import FakeTelegram, run_polling

__all__ = [
    "TOKEN",
    "ApiError",
    "Call",
    "CallbackAnswer",
    "FakeChat",
    "FakeEphemeral",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "PressHandle",
    "RateLimits",
    "choose",
    "hand_message",
    "run_polling",
]
