"""The sandbox's web page: static files and one WebSocket per open page.

The page says who it acts as and what that person does (``as``, ``send``, ``press``,
``start``); the server pushes that person's chats whenever the emulator changes, the
answer to each press (a toast, an alert or a link), and a ``refused`` code for input it
does not carry out (which then changes nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

from aiohttp import WSMsgType, web

from bot.miniapp import sign
from telegram_emulator import FakeMessage, FakeTelegram, FakeUser, PressHandle

from .snapshot import MEMBERS, json_id, snapshot

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what Telegram allows after ?start=
COALESCE = 0.03  # seconds: one push for a burst of changes
INTEGER = re.compile(r"-?[0-9]{1,19}")  # an id: a 64-bit number at most
MAX_REQUEST = 64 * 1024  # characters of one request from the page
ANSWER_WAIT = 15.0  # seconds: Telegram's callback query timeout


class Refused(Exception):
    """Input the page should not have sent; the code names it for the page's texts."""


class Routes(Protocol):
    def add_routes(self, server: web.Application) -> None: ...


def make_app(tg: FakeTelegram, pages: Sequence[Routes] = ()) -> web.Application:
    """The sandbox's page, and ``pages`` (the bot's Mini App) beside it."""

    async def socket(request: web.Request) -> web.WebSocketResponse:
        return await Page(tg).serve(request)

    app = web.Application()
    app.router.add_get("/", _index)
    app.router.add_get("/ws", socket)
    app.router.add_static("/static/", STATIC)
    for routes in pages:
        routes.add_routes(app)
    return app


async def _index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


class Page:
    """One open page: acts as one person at a time."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self.me = next(u for u in tg.users.values() if not u.is_bot)
        self.ws = web.WebSocketResponse(heartbeat=30.0)
        self.changed = asyncio.Event()
        self.answers: set[asyncio.Task[None]] = set()

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        with contextlib.suppress(Refused):
            self.me = self.person(request.query.get("as"))
        await self.ws.prepare(request)
        self.tg.listeners.add(self.changed)
        pushing = asyncio.create_task(self.push())
        try:
            async for message in self.ws:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    await self.act(message.data)
                except Refused as e:
                    await self.send({"type": "refused", "code": str(e)})
        finally:
            self.tg.listeners.discard(self.changed)
            for task in [pushing, *self.answers]:
                task.cancel()
        return self.ws

    async def send(self, data: dict[str, Any]) -> None:
        """Sends ``data`` to the page; a page closed meanwhile is no error."""
        with contextlib.suppress(ConnectionResetError):
            await self.ws.send_json(data)

    async def push(self) -> None:
        """Sends the person's chats now and after every change that alters them."""
        last: dict[str, Any] | None = None
        while not self.ws.closed:
            self.changed.clear()
            shown: dict[str, Any] | None = last
            try:
                shown = {"type": "state", **snapshot(self.tg, self.me)}
            except Exception:  # the page keeps its last view and gets the next change
                log.exception("sandbox: the page's view could not be drawn")
            if shown is not None and shown != last:
                await self.send(shown)
                last = shown
            await self.changed.wait()
            await asyncio.sleep(COALESCE)

    def person(self, raw: Any) -> FakeUser:
        uid = raw if isinstance(raw, int) else _int(raw)
        user = None if uid is None else self.tg.users.get(uid)
        if user is None or user.is_bot:
            raise Refused("no_person")
        return user

    async def act(self, raw: str) -> None:
        try:
            request = json.loads(raw) if len(raw) <= MAX_REQUEST else None
        except (ValueError, RecursionError):  # not JSON, or nested beyond reason
            request = None
        if not isinstance(request, dict):
            raise Refused("bad_request")
        op = request.get("op")
        if op == "as":
            self.me = self.person(request.get("user"))
            self.changed.set()
        elif op == "send":
            await self.say(request.get("chat"), request.get("text"))
        elif op == "press":
            await self.press(request.get("chat"), request.get("message"), request.get("data"))
        elif op == "start":
            payload = request.get("payload") or None
            if payload is not None and not (isinstance(payload, str) and PAYLOAD.match(payload)):
                raise Refused("bad_link")
            self.tg.start_private(self.me, payload)
        elif op == "app":
            await self.launch(request.get("start"))
        else:
            raise Refused("bad_request")

    async def launch(self, start: Any) -> None:
        """The Mini App opened by this person, as Telegram opens it: the launch, signed
        with the bot's token, in the page's fragment (``start``: the table's token)."""
        if not (isinstance(start, str) and PAYLOAD.match(start)):
            raise Refused("bad_link")
        me = self.me
        init_data = sign(
            self.tg.token, user_id=me.id, first_name=me.first_name, start_param=start,
            auth_date=int(time.time()), language_code=me.language_code or "ru",
        )  # fmt: skip
        fragment = urlencode({
            "tgWebAppData": init_data, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "web",
            "tgWebAppStartParam": start,
        })  # fmt: skip
        await self.send({"type": "app", "url": f"/app#{fragment}"})

    def chat(self, chat_id: Any) -> Any:
        """A chat this person may write in: their group or their private chat."""
        chat = self.tg.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None or (chat.user is not None and chat.user is not self.me):
            raise Refused("no_chat")
        if chat.is_group and chat.members.get(self.me.id) not in MEMBERS:
            raise Refused("no_chat")
        return chat

    async def say(self, chat_id: Any, text: Any) -> None:
        chat = self.chat(chat_id)
        if not isinstance(text, str) or not text.strip() or len(text) > 4096:
            raise Refused("bad_text")
        await self.tg.send_text(self.me, chat, text.strip())

    async def press(self, chat_id: Any, message_id: Any, data: Any) -> None:
        chat = self.chat(chat_id)
        message: FakeMessage | None = None
        if isinstance(message_id, int) and message_id < 0:  # an ephemeral message to me
            message = self.tg.ephemeral(chat, -message_id)
            if message is not None and (message.receiver is not self.me or not message.seen):
                message = None
        elif isinstance(message_id, int):
            message = chat.message(message_id)
        if message is None or not isinstance(data, str) or data not in message.button_data():
            raise Refused("stale_button")
        handle = await self.tg.press(self.me, message, data)
        task = asyncio.create_task(self.answer(handle))
        self.answers.add(task)
        task.add_done_callback(self.answers.discard)

    async def answer(self, handle: PressHandle) -> None:
        try:
            answer = await handle.wait_answer(ANSWER_WAIT)
        except AssertionError:  # the bot did not answer in time: Telegram's spinner stops
            await self.send({"type": "answer", "message": json_id(handle.message)})
            return
        await self.send(
            {
                "type": "answer",
                "message": json_id(handle.message),
                "text": answer.text,
                "alert": answer.show_alert,
                "url": answer.url,
            }
        )


def _int(raw: Any) -> int | None:
    """A whole number written as text («-100», «7»); None for anything else."""
    return int(raw) if isinstance(raw, str) and INTEGER.fullmatch(raw) else None
