"""A fake Telegram Bot API server on 127.0.0.1 for end-to-end tests and the sandbox.

Point aiogram at it with ``TelegramAPIServer.from_base(server.base_url)`` (or use
``server.make_bot()``), run the real Dispatcher polling loop (``run_polling``),
and act as users::

    async with FakeTelegram() as server:
        anna = server.add_user(1, "Анна")
        group = server.add_group(-100, "Друзья", members=[anna])
        async with run_polling(dp, server.make_bot(), server):
            await server.send_text(anna, group, "/durak")
            lobby = await server.wait_for_message(group)
            answer = await (await server.press(anna, lobby, "join"))

The server keeps users, chats and every message (text and inline keyboard),
records every call in ``server.calls`` and answers errors the way Telegram does
(403 for users who never started or blocked the bot, 400 "message is not
modified", 429 on demand or when rate limits are enforced).
"""

from __future__ import annotations

import asyncio
import math
import socket
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from telegram_emulator.ephemeral import Ephemerals, EphemeralState
from telegram_emulator.methods import BotApiMethods, decode_params
from telegram_emulator.model import (
    ApiError,
    Call,
    ChatRef,
    FakeChat,
    FakeUser,
    PressHandle,
    RateLimiter,
    RateLimits,
    too_many_requests,
)
from telegram_emulator.watch import Watching

if TYPE_CHECKING:  # aiogram is the clients' library: imported when a test asks for a Bot
    from aiogram import Bot
    from aiogram.client.session.base import BaseSession

T = TypeVar("T")

#: Update types Telegram sends when ``allowed_updates`` is empty or never given.
DEFAULT_UPDATE_TYPES = frozenset(
    {
        "message", "edited_message", "channel_post", "edited_channel_post", "inline_query",
        "chosen_inline_result", "callback_query", "shipping_query", "pre_checkout_query",
        "poll", "poll_answer", "my_chat_member", "chat_join_request", "chat_boost",
        "removed_chat_boost", "business_connection", "business_message",
        "edited_business_message", "deleted_business_messages", "purchased_paid_media",
    }
)  # fmt: skip


class _Poll:
    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.conflict = False


class _Injection:
    """The next ``remaining`` matching calls fail: with a 429, or with a fault that is
    not a Bot API answer (``FAULTS``)."""

    def __init__(
        self,
        count: int,
        chat_id: int | None,
        methods: set[str] | None,
        *,
        retry_after: int = 1,
        fault: str | None = None,
        delay: float = 0.0,
    ):
        self.remaining = count
        self.retry_after = retry_after
        self.chat_id = chat_id
        self.methods = methods
        self.fault = fault
        self.delay = delay

    def matches(self, method: str, params: dict[str, Any]) -> bool:
        if self.remaining <= 0:
            return False
        if self.methods is None and method == "getUpdates":
            return False
        if self.methods is not None and method not in self.methods:
            return False
        return self.chat_id is None or params.get("chat_id") == self.chat_id


#: What ``inject_fault`` can do to a call: a proxy's HTML error page instead of JSON,
#: a 500 whose JSON body is not a Bot API answer (no ``ok``), no answer within ``delay``
#: seconds (the call is not carried out), a connection reset.
FAULTS = ("502", "500", "timeout", "reset")
#: A server in front of the Bot API failing in its own words (no ``ok``, no ``error_code``).
NOT_AN_ANSWER = {"error": "Internal Server Error", "status": 500}
BAD_GATEWAY = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)


class FakeTelegram(Ephemerals, Watching, BotApiMethods):
    """A Bot API server with chats, users and messages, driven from the test."""

    def __init__(
        self,
        token: str = "42:TEST",
        *,
        bot_username: str = "durak_test_bot",
        bot_name: str = "Дурак",
        privacy_mode: bool = False,
        rate_limits: RateLimits | None = None,
        callback_timeout: float | None = 15.0,
    ) -> None:
        self.token = token
        self.bot_user = FakeUser(
            int(token.split(":")[0]), bot_name, username=bot_username, is_bot=True
        )
        self.privacy_mode = privacy_mode
        self.callback_timeout = callback_timeout
        self.button_styles = True  # False: a server before Bot API 9.4 (it drops them)
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.calls: list[Call] = []
        self.updates: list[dict[str, Any]] = []
        self.dropped_updates: list[dict[str, Any]] = []
        self.unknown_methods: list[str] = []
        self.callbacks: dict[str, PressHandle] = {}
        self.my_commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.webhook_url: str | None = None
        self.rate_limited = 0
        self.internal_errors: list[Exception] = []
        self._pending: list[dict[str, Any]] = []
        self._next_update_id = 100_000
        self._allowed: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._active_poll: _Poll | None = None
        self._injections: list[_Injection] = []
        self._limiter = RateLimiter(rate_limits) if rate_limits else None
        self.eph = EphemeralState()
        self._handlers = self._ephemeral_methods(self._methods())
        self._canonical = {name.lower(): name for name in [*self._handlers, "getUpdates"]}
        self._changed: asyncio.Event | None = None
        self.listeners: set[asyncio.Event] = set()  # each set on every change (sandbox pages)
        self._runner: web.AppRunner | None = None
        self._closing = False
        self.port = 0

    # --- lifecycle -----------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> FakeTelegram:
        self._changed = asyncio.Event()
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        return self

    async def stop(self) -> None:
        self._closing = True
        if self._active_poll is not None:
            self._active_poll.event.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def make_bot(self, session: Callable[..., BaseSession] | None = None, **kwargs: Any) -> Bot:
        """An ``aiogram.Bot`` talking to this server through ``session`` (a session class
        taking ``api=``; aiogram's own by default)."""
        from aiogram import Bot
        from aiogram.client.session.aiohttp import AiohttpSession
        from aiogram.client.telegram import TelegramAPIServer

        api = TelegramAPIServer.from_base(self.base_url)
        return Bot(self.token, session=(session or AiohttpSession)(api=api), **kwargs)

    def enforce_rate_limits(self, limits: RateLimits | None = None) -> None:
        """Answer 429 above Telegram's limits (``RateLimits()`` by default)."""
        self._limiter = RateLimiter(limits or RateLimits())

    def disable_rate_limits(self) -> None:
        self._limiter = None

    def inject_429(
        self,
        count: int = 1,
        retry_after: int = 1,
        *,
        chat: ChatRef | None = None,
        methods: Iterable[str] | None = None,
    ) -> None:
        """Answer the next ``count`` calls (to ``chat`` / ``methods`` only) with a 429.

        ``getUpdates`` is only hit when named in ``methods``.
        """
        chat_id = None if chat is None else self._chat_id(chat)
        names = None if methods is None else set(methods)
        self._injections.append(_Injection(count, chat_id, names, retry_after=retry_after))

    def inject_fault(
        self,
        fault: str,
        count: int = 1,
        *,
        chat: ChatRef | None = None,
        methods: Iterable[str] | None = None,
        delay: float = 30.0,
    ) -> None:
        """The next ``count`` calls (to ``chat`` / ``methods`` only) fail without a Bot
        API answer: ``"502"`` an HTML Bad Gateway page, ``"500"`` a JSON body without
        ``ok``, ``"timeout"`` no answer for ``delay`` seconds, ``"reset"`` the connection
        closed. The call is not carried out (``call.status`` is 502, 500, 504 or 599).
        ``getUpdates`` only when named."""
        assert fault in FAULTS, f"unknown fault {fault!r}, one of {FAULTS}"
        chat_id = None if chat is None else self._chat_id(chat)
        names = None if methods is None else set(methods)
        self._injections.append(_Injection(count, chat_id, names, fault=fault, delay=delay))

    @property
    def faults(self) -> int:
        """Calls answered with an injected fault (502, 500, timeout, reset)."""
        return sum(c.faulted for c in self.calls)

    # --- HTTP ----------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            body = {"ok": False, "error_code": 401, "description": "Unauthorized"}
            return web.json_response(body, status=401)
        name = request.match_info["method"]
        method = self._canonical.get(name.lower(), name)
        raw: dict[str, Any] = dict(request.query)
        if request.method == "POST" and request.can_read_body:
            if request.content_type == "application/json":
                raw.update(await request.json())
            else:
                form = await request.post()
                for key, value in form.items():
                    raw[key] = value if isinstance(value, str) else getattr(value, "filename", "")
        return await self._carry_out(Call(method, raw, time.monotonic(), status=0), request)

    async def carry_out(self, reply: dict[str, Any]) -> None:
        """A webhook's answer that names a ``method``: that call carried out with the
        answer's other fields, as Telegram does (the bot learns nothing of its result)."""
        raw = dict(reply)
        name = raw.pop("method", None)
        if isinstance(name, str):
            method = self._canonical.get(name.lower(), name)
            await self._carry_out(Call(method, raw, time.monotonic(), status=0, replied=True))

    async def _carry_out(self, call: Call, request: web.Request | None = None) -> web.Response:
        """``request``: the bot's own (not a webhook's answer), which a fault may fail."""
        self.calls.append(call)
        try:
            call.params = decode_params(call.params)
            fault = None if request is None else self._fault(call.method, call.params)
            if fault is not None and request is not None:
                return await self._fail(request, call, fault)
            result = await self._dispatch(call.method, call.params)
            body = {"ok": True, "result": result}
            status = 200
        except ApiError as error:
            body, status = error.envelope(), error.code
        except Exception as error:  # a bug in the fake or a malformed request
            self.internal_errors.append(error)
            body = {
                "ok": False,
                "error_code": 500,
                "description": f"Internal Server Error: {error!r}",
            }
            status = 500
        call.status, call.response = status, body
        self._notify()
        return web.json_response(body, status=status)

    def _fault(self, method: str, params: dict[str, Any]) -> _Injection | None:
        for injection in self._injections:
            if injection.matches(method, params):
                injection.remaining -= 1
                if injection.fault is None:
                    raise too_many_requests(injection.retry_after)
                return injection
        return None

    async def _fail(self, request: web.Request, call: Call, fault: _Injection) -> web.Response:
        call.faulted = True
        if fault.fault == "500":
            call.status = 500
            self._notify()
            return web.json_response(NOT_AN_ANSWER, status=500)
        if fault.fault == "502":
            call.status = 502
            self._notify()
            return web.Response(status=502, text=BAD_GATEWAY, content_type="text/html")
        if fault.fault == "timeout":
            call.status = 504
            self._notify()
            await asyncio.sleep(fault.delay)  # the client gives up first
            return web.Response(status=504, text="Gateway Timeout", content_type="text/html")
        call.status = 599
        self._notify()
        if request.transport is not None:
            request.transport.abort()  # a reset: the client reads no answer
        return web.Response(status=599)

    async def _dispatch(self, method: str, params: dict[str, Any]) -> Any:
        if method == "getUpdates":
            return await self._get_updates(params)
        limited = self._paced(method, params) if self._limiter is not None else None
        if limited is not None and self._limiter is not None:
            moment = time.monotonic()
            wait = self._limiter.retry_after(limited, moment)
            if wait > 0:
                self.rate_limited += 1
                raise too_many_requests(max(1, math.ceil(wait)))
        handler = self._handlers.get(method)
        if handler is None:
            self.unknown_methods.append(method)
            return True
        result = handler(params)
        if limited is not None and self._limiter is not None:
            self._limiter.record(limited, time.monotonic())
        return result

    def _paced(self, method: str, params: dict[str, Any]) -> FakeChat | None:
        """The chat whose limits the call counts against; None: not limited."""
        assert self._limiter is not None
        special = self._ephemeral_pacing(method, params)
        if special is not None or not self._limiter.limits.applies_to(method):
            return special
        try:
            return self.resolve_chat(params.get("chat_id"))
        except ApiError:
            return None

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active;"
                " use deleteWebhook to delete the webhook first",
            )
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = max(int(params.get("timeout") or 0), 0)
        if isinstance(params.get("allowed_updates"), list):
            self._allowed = frozenset(params["allowed_updates"]) or DEFAULT_UPDATE_TYPES
        if offset > 0:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        elif offset < 0:
            self._pending = self._pending[offset:]
        if self._active_poll is not None:  # Telegram ends the older request with 409
            self._active_poll.conflict = True
            self._active_poll.event.set()
        poll = self._active_poll = _Poll()
        deadline = time.monotonic() + timeout
        try:
            while True:
                batch = self._deliverable()[:limit]
                remaining = deadline - time.monotonic()
                if batch or self._closing or remaining <= 0:
                    return batch
                poll.event.clear()
                with suppress(TimeoutError):
                    await asyncio.wait_for(poll.event.wait(), remaining)
                if poll.conflict:
                    raise ApiError(
                        409,
                        "Conflict: terminated by other getUpdates request;"
                        " make sure that only one bot instance is running",
                    )
        finally:
            if self._active_poll is poll:
                self._active_poll = None

    def _deliverable(self) -> list[dict[str, Any]]:
        kept = []
        for update in self._pending:
            if self._update_type(update) in self._allowed:
                kept.append(update)
            else:
                self.dropped_updates.append(update)
        self._pending = kept
        return kept

    @staticmethod
    def _update_type(update: dict[str, Any]) -> str:
        return next(key for key in update if key != "update_id")

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()
        for listener in self.listeners:
            listener.set()

    def _queue(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        self._next_update_id += 1
        update = {"update_id": self._next_update_id, kind: payload}
        self.updates.append(update)
        self._pending.append(update)
        if self._active_poll is not None:
            self._active_poll.event.set()
        self._notify()
        return update

    def send_again(self, update_id: int) -> None:
        """Telegram sends an update again, as it does when its delivery was not confirmed
        (no 200 from the webhook, no later ``offset`` from getUpdates): pending once more,
        in its place among the others."""
        update = next(u for u in self.updates if u["update_id"] == update_id)
        if update not in self._pending:
            self._pending.append(update)
            self._pending.sort(key=lambda u: int(u["update_id"]))
        if self._active_poll is not None:
            self._active_poll.event.set()
        self._notify()

    # --- webhook delivery --------------------------------------------------------

    def webhook_params(self) -> tuple[frozenset[str], int]:
        """The update types the last setWebhook asked for, and its ``max_connections``."""
        params = self.calls_to("setWebhook")[-1].params
        allowed = frozenset(params.get("allowed_updates") or ()) or DEFAULT_UPDATE_TYPES
        return allowed, int(params.get("max_connections") or 40)

    def take_pending(self, allowed: frozenset[str]) -> list[dict[str, Any]]:
        """The updates not delivered yet, from now on delivered, of the ``allowed`` types;
        the others dropped (for a webhook pusher that POSTs them itself)."""
        self._allowed = allowed
        taken, self._pending = self._deliverable(), []
        return taken

    async def deliver_to_webhook(
        self,
        address: str,
        *,
        secret: str | None = None,
        pending: bool = True,
        limit: int | None = None,
    ) -> list[int]:
        """POST each pending update to ``address`` as Telegram does to a webhook.

        ``address`` is where a reverse proxy would forward the URL given to setWebhook.
        The secret header and the update types are those of the last setWebhook,
        unless ``secret`` replaces it. An update answered with 200 is delivered (with
        the call its answer may name: ``carry_out``);
        the others stay pending (``pending=False`` drops them). ``limit``: POST at most
        that many (a proxy spreading updates over several processes). Returns the statuses.
        """
        from aiohttp import ClientSession

        params = self.calls_to("setWebhook")[-1].params
        allowed = frozenset(params.get("allowed_updates") or ()) or DEFAULT_UPDATE_TYPES
        token = params.get("secret_token") if secret is None else secret
        headers = {"X-Telegram-Bot-Api-Secret-Token": token} if token else {}
        statuses, done = [], set()
        async with ClientSession() as session:
            for update in list(self._pending)[:limit]:
                done.add(update["update_id"])
                if self._update_type(update) not in allowed:
                    self.dropped_updates.append(update)
                    continue
                async with session.post(address, json=update, headers=headers) as response:
                    statuses.append(response.status)
                    if response.status != 200 and pending:
                        done.discard(update["update_id"])
                    if response.status == 200:
                        await self.carry_out(await response.json(content_type=None) or {})
        self._pending = [u for u in self._pending if u["update_id"] not in done]
        self._notify()
        return statuses
