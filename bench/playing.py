"""How a simulated person plays the bot through the Bot API emulator: their hand, the
button they press. A driver of this bot (its words and its callback data), not of
Telegram: the benchmarks and the end-to-end tests share it."""

from __future__ import annotations

from bot.callbacks import CardCb, CheatCb, MoveCb, PageCb
from telegram_emulator import FakeChat, FakeEphemeral, FakeMessage, FakeTelegram, FakeUser

PRIORITY = ("Побить", "• ", "Бито", "Пас", "Беру")
CARD = f"{CardCb.__prefix__}{CardCb.__separator__}"  # a card's callback data starts so
HAND_DATA = tuple(f"{cb.__prefix__}{cb.__separator__}" for cb in (CardCb, MoveCb, PageCb, CheatCb))


def hand_message(tg: FakeTelegram, user: FakeUser) -> FakeMessage | None:
    """The newest bot message with a keyboard in ``user``'s private chat: their hand."""
    for message in reversed(tg.messages(tg.private(user))):
        if message.keyboard and message.from_user and message.from_user.is_bot:
            return message
    return None


def hand_buttons(message: FakeMessage) -> list[tuple[str, str]]:
    """The buttons as (text, callback data), a playable card's text as «• 7♠️» (the bot
    gives it a style, or marks it «✓» where the server keeps no styles)."""
    rows = (message.reply_markup or {}).get("inline_keyboard") or []
    found = []
    for b in (b for row in rows for b in row if b.get("callback_data")):
        text, data = b["text"], b["callback_data"]
        if data.startswith(CARD) and (b.get("style") == "success" or text.startswith("✓")):
            text = "• " + text.removeprefix("✓")
        found.append((text, data))
    return found


def hand_key(message: FakeMessage) -> str:
    """The key a hand's buttons carry: the last field of their callback data."""
    return next(d.rsplit(":", 1)[1] for d in message.button_data() if d.startswith(HAND_DATA))


def choose(
    tg: FakeTelegram, message: FakeMessage, priority: tuple[str, ...] = PRIORITY
) -> str | None:
    """What a simple player presses: beat, play a marked card, then the words."""
    buttons = hand_buttons(message)
    for start in priority:
        for text, data in buttons:
            if text.startswith(start):
                return data
    return None


def ephemeral_hand(tg: FakeTelegram, user: FakeUser, group: FakeChat) -> FakeEphemeral | None:
    """The newest ephemeral message with a keyboard that ``user`` sees in ``group``."""
    for message in reversed(tg.ephemerals(group, user)):
        if message.keyboard:
            return message
    return None
