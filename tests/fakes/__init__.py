"""The end-to-end suite's fake Telegram: the Bot API emulator (:mod:`telegram_emulator`),
and how its people find their hand and pick a button (:mod:`bench.playing`)."""

from bench.playing import choose, hand_message
from telegram_emulator import *  # noqa: F403
from telegram_emulator import __all__ as _emulator

__all__ = [*_emulator, "choose", "hand_message"]
