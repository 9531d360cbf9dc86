"""The outbox's calls that carry a keyboard: aiogram methods whose keyboard is the bot's
own (``bot.keyboard``, written into the JSON body by ``bot.session``) and whose answer
is read as a ``Posted``, the little the bot uses of a sent message. Building aiogram's
models for a hand's buttons, and reading them back from the echo, was most of what an
edit cost in the bot's CPU. Request middlewares see these like any other method. They
carry only the fields the outbox sets, and of the bot's defaults ``parse_mode``: a
default added to the bot (link previews, say) needs its field here too."""

from __future__ import annotations

from typing import Any

from aiogram.client.default import Default
from aiogram.methods import TelegramMethod
from aiogram.types import EphemeralMessageParameters, ReplyParameters
from pydantic import BaseModel, ConfigDict, Field

from .keyboard import Keyboard, styled


class Posted(BaseModel):
    """A sent or edited message as the bot needs it."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    message_id: int
    ephemeral_message_id: int | None = None  # an ephemeral message (Bot API 10.2)
    echo: dict[str, Any] | None = Field(None, alias="reply_markup")  # as the server has it

    @property
    def styled(self) -> bool:
        """Whether the server kept the buttons' styles (Bot API 9.4; an older one drops
        them). Without its echo (``bot.session`` drops one that tells nothing): yes."""
        return self.echo is None or styled(self.echo)


class SendText(TelegramMethod[Posted]):
    """``sendMessage`` with the bot's keyboard."""

    __returning__ = Posted
    __api_method__ = "sendMessage"

    chat_id: int
    text: str
    parse_mode: str | Default | None = Default("parse_mode")
    reply_markup: Keyboard | None = None
    message_thread_id: int | None = None
    reply_parameters: ReplyParameters | None = None
    ephemeral_message_parameters: EphemeralMessageParameters | None = None


class EditText(TelegramMethod[Posted | bool]):
    """``editMessageText`` with the bot's keyboard."""

    __returning__ = Posted | bool
    __api_method__ = "editMessageText"

    chat_id: int
    message_id: int
    text: str
    parse_mode: str | Default | None = Default("parse_mode")
    reply_markup: Keyboard | None = None


class EditKeyboard(TelegramMethod[Posted | bool]):
    """``editMessageReplyMarkup`` with the bot's keyboard (None: none)."""

    __returning__ = Posted | bool
    __api_method__ = "editMessageReplyMarkup"

    chat_id: int
    message_id: int
    reply_markup: Keyboard | None = None


class EditEphemeralText(TelegramMethod[bool]):
    """``editEphemeralMessageText`` with the bot's keyboard."""

    __returning__ = bool
    __api_method__ = "editEphemeralMessageText"

    chat_id: int
    receiver_user_id: int
    ephemeral_message_id: int
    text: str
    parse_mode: str | Default | None = Default("parse_mode")
    reply_markup: Keyboard | None = None
