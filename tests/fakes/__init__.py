"""The end-to-end suite's fake Telegram: the Bot API emulator of :mod:`bot.emulator`."""

from bot.emulator import *  # noqa: F403
from bot.emulator import __all__ as __all__
