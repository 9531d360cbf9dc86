"""The sandbox (``python -m bot --sandbox``): the real bot against the Bot API emulator in
the same process, and a web page on 127.0.0.1 that shows its chats the way Telegram does."""

from bot.sandbox.run import Sandbox, sandbox

__all__ = ["Sandbox", "sandbox"]
