"""The outbox's calls that carry a keyboard: aiogram methods whose keyboard is the bot's
own (``bot.keyboard``, written into the JSON body by ``bot.session``) and whose answer
is read as a ``Posted``, the little the bot uses of a sent message. Building aiogram's
models for a hand's buttons, and reading them back from the echo, was most of what an
edit cost in the bot's CPU. Their fields are flat, so they are written out without
pydantic's dump (``Flat``: a third of its cost), and a successful answer is read
without aiogram's ``Response`` model. Request middlewares see these like any other
method. They carry only the fields the outbox sets, and of the bot's defaults
``parse_mode``: a default added to the bot (link previews, say) needs its field here
too."""

from __future__ import annotations

from typing import Any, cast, get_args

from aiogram.client.default import Default
from aiogram.methods import TelegramMethod
from aiogram.types import EphemeralMessageParameters, ReplyParameters
from pydantic import BaseModel, ConfigDict, Field, ValidationError

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


class Flat:
    """A method of the bot's own: its declared fields (an extra one is not sent) as JSON
    values, None left out, without pydantic's dump; its answer as the method's result."""

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in cast(BaseModel, self).__class__.model_fields:
            value = getattr(self, name)
            if isinstance(value, Keyboard):
                out[name] = value.json()
            elif isinstance(value, BaseModel):  # (reply or ephemeral parameters: rare)
                out[name] = value.model_dump(warnings=False, exclude_none=True)
            elif value is not None:
                out[name] = value
        return out

    def result(self, raw: object) -> Posted | bool | None:
        """A successful answer's result; None if it is not what the method returns."""
        returning = cast(TelegramMethod[Any], self).__returning__
        takes = get_args(returning) or (returning,)
        if isinstance(raw, bool) and bool in takes:
            return raw
        if isinstance(raw, dict) and Posted in takes:
            try:
                return Posted.model_validate(raw)
            except ValidationError:  # not a message: aiogram's check says what it is
                return None
        return None


class SendText(Flat, TelegramMethod[Posted]):
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


class EditText(Flat, TelegramMethod[Posted | bool]):
    """``editMessageText`` with the bot's keyboard."""

    __returning__ = Posted | bool
    __api_method__ = "editMessageText"

    chat_id: int
    message_id: int
    text: str
    parse_mode: str | Default | None = Default("parse_mode")
    reply_markup: Keyboard | None = None


class EditKeyboard(Flat, TelegramMethod[Posted | bool]):
    """``editMessageReplyMarkup`` with the bot's keyboard (None: none)."""

    __returning__ = Posted | bool
    __api_method__ = "editMessageReplyMarkup"

    chat_id: int
    message_id: int
    reply_markup: Keyboard | None = None


class EditEphemeralText(Flat, TelegramMethod[bool]):
    """``editEphemeralMessageText`` with the bot's keyboard."""

    __returning__ = bool
    __api_method__ = "editEphemeralMessageText"

    chat_id: int
    receiver_user_id: int
    ephemeral_message_id: int
    text: str
    parse_mode: str | Default | None = Default("parse_mode")
    reply_markup: Keyboard | None = None
