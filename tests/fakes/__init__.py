"""The end-to-end suite's fake Telegram: the Bot API emulator of :mod:`bot.emulator`."""

from bot.emulator import (
    ApiError,
    Call,
    CallbackAnswer,
    FakeChat,
    FakeMessage,
    FakeTelegram,
    FakeUser,
    PressHandle,
    RateLimits,
    run_polling,
)

__all__ = [
    "ApiError",
    "Call",
    "CallbackAnswer",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "PressHandle",
    "RateLimits",
    "run_polling",
]
