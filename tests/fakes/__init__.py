"""Test doubles for the end-to-end suite: a fake Telegram Bot API server."""

from tests.fakes.telegram import FakeTelegram, run_polling
from tests.fakes.telegram_model import (
    ApiError,
    Call,
    CallbackAnswer,
    FakeChat,
    FakeMessage,
    FakeUser,
    PressHandle,
    RateLimits,
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
