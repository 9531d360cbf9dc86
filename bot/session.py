"""aiogram's HTTP session with JSON request bodies.

aiogram posts every call as a form, preparing each field in Python: it walks the
model's dump value by value (a keyboard is a few dozen) and quotes the result into
the form, about half of a call's CPU in the bot. The Bot API takes JSON bodies as
well; here pydantic dumps the call without its empty fields in one go, the bot's
defaults (``parse_mode``) are filled in, and the standard library's encoder writes
the body, which ``bot.http`` posts (a quarter of the CPU aiohttp's client took). A
call carrying what JSON cannot (a file to upload, a date) goes the form way, through
aiohttp, as before.

Each call is tried as ``bot.calls`` says, each try counted (``bot.traffic``); a press's
answer that can ride the webhook's reply to its update is handed there instead
(``bot.replies``).

An answer echoes back the keyboard sent with the call. The bot holds that keyboard
already; what it learns from the echo is only whether the server keeps button styles
(Bot API 9.4; an older one drops them). So the echo is dropped before aiogram checks
the rest, unless styles were sent and did not come back (``bot.outgoing.Posted``). An
update's pressed message comes as where it is only (``lean``): no handler reads its
text or buttons, and their models (one for each button and entity) were most of the
update's parsing.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any, cast

from aiogram import Bot
from aiogram.client.default import Default
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import ClientDecodeError, TelegramNetworkError, TelegramServerError
from aiogram.methods import GetUpdates, Response, TelegramMethod
from aiogram.methods.base import TelegramType
from prometheus_client import CollectorRegistry
from yarl import URL

from .calls import patiently
from .http import HttpClient, HttpError, Poster
from .keyboard import styled
from .outgoing import Flat
from .replies import REPLY
from .traffic import Calls

SHOWN = 120  # characters of a bad answer in its error's message


class BadAnswer(TelegramServerError):
    """The server's answer is not a Bot API answer: worth another try, like a 5xx."""

    def __init__(self, method: TelegramMethod[Any], status: int, content: object) -> None:
        body = " ".join(str(content).split())
        if len(body) > SHOWN:
            body = body[:SHOWN] + "…"
        super().__init__(method=method, message=f"not a Bot API answer (HTTP {status}): {body}")


class _NotJson(Exception):
    """The call holds a value only the form way knows how to send."""


def _nested(bot: Bot) -> Callable[[object], object]:
    """The encoder's hook for what is not JSON: a default inside an object is the bot's
    (``ReplyParameters.quote_parse_mode``); anything else, or a default the bot leaves
    unset (aiogram would drop that field), goes the form way."""

    def default(value: object) -> object:
        if isinstance(value, Default) and bot.default[value.name] is not None:
            return bot.default[value.name]
        raise _NotJson(type(value).__name__)

    return default


def _loads(content: Any) -> Any:
    """aiogram's JSON decoder: the answers ``JsonSession`` has decoded already pass."""
    return content if isinstance(content, dict) else json.loads(content)


PRESSED = frozenset(  # what the bot and aiogram's context read of a pressed message
    {"message_id", "date", "chat", "message_thread_id", "is_topic_message",
     "business_connection_id"}
)  # fmt: skip


def lean(update: Any) -> Any:
    """An update (as JSON) whose pressed message comes as where it is only: no handler
    reads its text or keyboard (the bot knows what it sent), and parsing them (a model
    for each button and entity) cost more than the rest of the update."""
    query = update.get("callback_query") if isinstance(update, dict) else None
    message = query.get("message") if isinstance(query, dict) else None
    if isinstance(query, dict) and isinstance(message, dict):
        query["message"] = {k: v for k, v in message.items() if k in PRESSED}
    return update


class JsonSession(AiohttpSession):
    """Each call tried as ``bot.calls`` says, and each try counted (``calls``: the
    process's metrics; by default a registry of the session's own); the JSON bodies
    posted by ``http`` (by default ``bot.http``'s client, with ``limit`` connections)."""

    def __init__(
        self,
        calls: Calls | None = None,
        *,
        limit: int = 100,
        http: Poster | None = None,
        **kwargs: Any,
    ) -> None:
        if kwargs.get("proxy") is not None:  # (``bot.http`` goes straight to the server)
            raise ValueError("JsonSession sends its calls without a proxy")
        super().__init__(json_loads=_loads, limit=limit, **kwargs)
        self.calls = calls if calls is not None else Calls(CollectorRegistry())
        self.http = http if http is not None else HttpClient(limit)
        self._urls: dict[tuple[str, str], URL] = {}

    async def close(self) -> None:
        await self.http.close()
        await super().close()

    def check_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, content: str
    ) -> Response[TelegramType]:
        try:
            return super().check_response(bot, method, status_code, content)
        except ClientDecodeError as e:
            raise BadAnswer(method, status_code, e.data) from e

    def body(self, bot: Bot, method: TelegramMethod[Any]) -> tuple[bytes, bool] | None:
        """The call as a JSON body, and whether its keyboard has styled buttons; None
        when it must go as a form."""
        fields: dict[str, Any] = {}
        dumped = (
            method.fields()
            if isinstance(method, Flat)
            else method.model_dump(warnings=False, exclude_none=True)
        )
        for key, value in dumped.items():
            if isinstance(value, Default):
                value = bot.default[value.name]
            if value is not None and value != "":  # as the form way: those are not sent
                fields[key] = value
        try:
            body = json.dumps(fields, default=_nested(bot), ensure_ascii=False).encode()
        except _NotJson:
            return None
        return body, styled(fields.get("reply_markup"))

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        reply = REPLY.get()
        if reply is not None and reply.take(method):  # (``bot.replies``: no call)
            self.calls.made(method, "reply")
            return cast(TelegramType, True)
        return cast(TelegramType, await patiently(method, lambda: self._try(bot, method, timeout)))

    async def _try(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None
    ) -> TelegramType:
        try:
            result = await self._post(bot, method, timeout)
        except BaseException as e:
            self.calls.failed(method, e)
            raise
        self.calls.made(method)
        return result

    def _url(self, bot: Bot, name: str) -> URL:
        """The method's URL, parsed once (a call's URL was a fifth of aiohttp's work)."""
        url = self._urls.get((bot.token, name))
        if url is None:
            url = self._urls[(bot.token, name)] = URL(self.api.api_url(bot.token, name))
        return url

    async def _post(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None
    ) -> TelegramType:
        prepared = self.body(bot, method)
        if prepared is None:
            return await super().make_request(bot, method, timeout)
        body, sent_styled = prepared
        url = self._url(bot, method.__api_method__)
        try:
            status, raw = await self.http.post(
                url, body, self.timeout if timeout is None else timeout
            )
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except HttpError as e:
            raise TelegramNetworkError(method=method, message=str(e)) from e
        content: Any
        try:
            content = json.loads(raw)
        except ValueError:  # not JSON, or bad bytes: aiogram's check says what it is
            content = raw.decode(errors="replace")
        else:
            with contextlib.suppress(TypeError, KeyError, AttributeError):  # no message in it
                if isinstance(method, GetUpdates):
                    for update in content["result"]:
                        lean(update)
                echo = content["result"].get("reply_markup")
                if echo is not None and (styled(echo) or not sent_styled):
                    del content["result"]["reply_markup"]
        if status == 200 and isinstance(method, Flat) and isinstance(content, dict):
            result = method.result(content.get("result")) if content.get("ok") is True else None
            if result is not None:  # (the bot's own call answered: no model of aiogram's)
                return cast(TelegramType, result)
        response = self.check_response(bot, method, status, content)
        return cast(TelegramType, response.result)
