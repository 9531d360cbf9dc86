"""The sandbox (``python -m bot --sandbox``): the real bot against the Bot API emulator in
the same process, and a web page on 127.0.0.1 that shows its chats the way Telegram does.

A package of its own on top of :mod:`bot` and :mod:`telegram_emulator`; the bot imports it
only when asked for the sandbox."""

from sandbox.run import Sandbox, environment, play, sandbox

__all__ = ["Sandbox", "environment", "play", "sandbox"]
