"""How a simulated person plays through the emulator: their hand, the button they press."""

from __future__ import annotations

from bot.emulator.model import FakeMessage, FakeUser
from bot.emulator.server import FakeTelegram

TOKEN = "123456:" + "A" * 35  # a well-formed token the emulator accepts
PRIORITY = ("Побить", "• ", "Бито", "Пас", "Беру")


def hand_message(tg: FakeTelegram, user: FakeUser) -> FakeMessage | None:
    """The newest bot message with a keyboard in ``user``'s private chat: their hand."""
    for message in reversed(tg.messages(tg.private(user))):
        if message.keyboard and message.from_user and message.from_user.is_bot:
            return message
    return None


def choose(
    tg: FakeTelegram, message: FakeMessage, priority: tuple[str, ...] = PRIORITY
) -> str | None:
    """What a simple player presses: beat, play a marked card, then the words."""
    buttons = [b for row in tg.keyboard(message) for b in row if b[1]]
    for start in priority:
        for text, data in buttons:
            if text.startswith(start):
                return data
    return None
