"""The Mini App's routes: the page (``GET /app``), its files (``/app/static/``) and one
WebSocket per open page (``/app/ws``).

The page's first message is its launch (``{"type": "hello", "init_data", "start"}``);
the socket is closed with a reason unless ``auth.authenticate`` accepts it, its join
token names an open table, and the person is seated there or a member of its group.
Then the server pushes the table (``picture.Picture``, the seat's own view, or the
public one for a spectator) now and after every step of its game,
and carries out the moves the page sends (``{"type": "move", "text", "version", "seat",
"game", "cheat"}``: the picture's version and game the move was listed in, ``cheat`` for
one of the seat's cheats) for the authenticated seat only, through ``GameService.act``
like a press; a move that is not made is answered ``{"type": "refused", "reason",
"text"}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from engine import Action, MalformedAction
from engine.actions import BACK, QUIT
from service import Clock
from service.games import Refusal, Refused
from service.news import Update
from service.registry import LiveGames
from storage.records import TableRecord

from ..i18n import DEFAULT, t
from .auth import MAX_AGE, AuthError, Launch, authenticate
from .picture import Picture, picture
from .watchers import Watchers

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
HELLO_WAIT = 10.0  # seconds the page has to say who opened it
MAX_MESSAGE = 4096  # characters of one message from the page
TRIES = 3  # «Сдаться» or «Вернуть управление» while the game moves on
PAGE_TEXTS = (
    "title", "connecting", "lobby", "spectator", "stock", "discard", "trump", "your_cards",
    "choose", "cancel", "seconds_unit", "lost", "several", "mark_hint", "cheat", "cheat_hint",
    "cheat_choose", "several_go", "surrender", "surrender_confirm", "surrender_yes", "back",
    "moved_on", "last_moves",
)  # fmt: skip


class TableFinder(Protocol):
    async def by_token(self, token: str) -> TableRecord | None: ...


class Members(Protocol):
    async def member(self, chat_id: int, user_id: int) -> bool: ...


class Mover(Protocol):
    async def act(
        self, game_id: int, action: Action, version: int, *, cheat: bool = False
    ) -> Update: ...

    async def follow_table(self, table_id: int) -> None:
        """Hold the table's running game here (another process may keep it)."""
        ...


class Declined(Exception):
    """A message from the page that is not carried out; ``reason`` names the text."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MiniApp:
    """The routes, and what they need: the token that signs launches, the tables, the
    running games, the game service's moves, the pages to wake."""

    def __init__(
        self,
        *,
        token: str,
        tables: TableFinder,
        games: LiveGames,
        mover: Mover,
        watchers: Watchers,
        clock: Clock,
        members: Members | None = None,
        max_age: float = MAX_AGE,
    ) -> None:
        self.token = token
        self.tables = tables
        self.games = games
        self.mover = mover
        self.watchers = watchers
        self.clock = clock
        self.members = members  # who may watch without a seat (None: nobody)
        self.max_age = max_age

    def add_routes(self, server: web.Application) -> None:
        server.router.add_get("/app", self.page)
        server.router.add_get("/app/ws", self.socket)
        server.router.add_static("/app/static/", STATIC)

    async def page(self, _request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        try:
            launch, table = await self._hello(ws)
        except Declined as e:
            await _send(ws, {"type": "refused", "reason": e.reason, "text": _text(DEFAULT, e)})
            await ws.close()
            return ws
        await Page(self, ws, launch, table).serve()
        return ws

    async def _hello(self, ws: web.WebSocketResponse) -> tuple[Launch, TableRecord]:
        try:
            async with asyncio.timeout(HELLO_WAIT):
                message = await ws.receive()
        except TimeoutError:
            raise Declined("auth.missing") from None
        hello = _json(message.data) if message.type == WSMsgType.TEXT else None
        if hello is None or hello.get("type") != "hello":
            raise Declined("auth.missing")
        init_data, start = hello.get("init_data"), hello.get("start")
        if not isinstance(init_data, str) or not isinstance(start, str | None):
            raise Declined("auth.missing")
        try:
            launch = authenticate(
                self.token, init_data, start=start, now=self.clock.now(), max_age=self.max_age
            )
        except AuthError as e:
            log.info("mini app: a launch refused (%s)", e.reason)
            raise Declined(f"auth.{e.reason}") from None
        table = None if launch.start is None else await self.tables.by_token(launch.start)
        if table is None:
            raise Declined("auth.no_table" if launch.start else "auth.tampered")
        if launch.user_id in {s.user_id for s in table.seats}:
            return launch, table
        if self.members is not None and await self.members.member(table.chat_id, launch.user_id):
            return launch, table  # a member of the group watches the public table
        raise Declined("auth.not_seated")  # (the link travels with a forwarded table message)


@dataclass
class Seen:
    """The game a page shows and the seat it plays there (None: it watches)."""

    game: int
    seat: int | None


class Page:
    """One open page of an authenticated person on one table."""

    def __init__(
        self, app: MiniApp, ws: web.WebSocketResponse, launch: Launch, table: TableRecord
    ) -> None:
        self.app = app
        self.ws = ws
        self.launch = launch
        self.table = table.id
        self.chat = table.chat_id
        self.lang = launch.lang
        self._woken = asyncio.Event()

    def wake(self) -> None:
        self._woken.set()

    async def serve(self) -> None:
        texts = {k: t(self.lang, f"miniapp.{k}") for k in PAGE_TEXTS}
        await _send(self.ws, {"type": "hello", "lang": self.lang, "texts": texts})
        self.app.watchers.watch(self.table, self.chat, self)
        await self.app.mover.follow_table(self.table)  # (kept here from now on)
        pushing = asyncio.create_task(self._push(), name=f"mini app page {self.table}")
        try:
            async for message in self.ws:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    await self._act(message.data)
                except Declined as e:
                    reply = {"type": "refused", "reason": e.reason, "text": _text(self.lang, e)}
                    await _send(self.ws, reply)
        finally:
            self.app.watchers.unwatch(self.table, self)
            pushing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pushing

    def seen(self) -> Seen | None:
        """The table's game (the newest held: running, or just ended) and the seat."""
        ids = self.app.games.of_table(self.table)
        if not ids:
            return None
        game = max(ids)
        live = self.app.games.live(game)
        assert live is not None
        seat = next(
            (s for s, info in enumerate(live.seats) if info.human and info.user_id == self.me),
            None,
        )
        return Seen(game, seat)

    @property
    def me(self) -> int:
        return self.launch.user_id

    def draw(self) -> dict[str, Any]:
        """What the page shows now."""
        seen = self.seen()
        live = None if seen is None else self.app.games.live(seen.game)
        if seen is None or live is None:
            return {"type": "lobby", "status": t(self.lang, "miniapp.lobby")}
        deadline = self.app.games.deadline(seen.game)
        left = None if deadline is None else max(0, round(deadline - self.app.clock.now()))
        names = [info.name for info in live.seats]
        state, seat = live.state, seen.seat
        shown: Picture = picture(
            state.view(seat), names, self.lang, game=seen.game, seconds=left,
            cheats=() if seat is None else state.cheat_actions(seat),
            idle=seat is not None and state.idle(seat),
        )  # fmt: skip
        return shown.to_json()

    async def _push(self) -> None:
        """The table now, then again whenever its game changes (unless it looks the same)."""
        last: dict[str, Any] | None = None
        while not self.ws.closed:
            self._woken.clear()
            try:
                shown: dict[str, Any] | None = self.draw()
            except Exception:  # the page keeps what it shows and gets the next change
                log.exception("mini app: table %s could not be drawn", self.table)
                shown = None
            if shown is not None and shown != last:
                await _send(self.ws, shown)
                last = shown
            await self._woken.wait()

    async def _act(self, raw: str) -> None:
        message = _json(raw)
        if message is None or message.get("type") != "move":
            raise Declined("refused.bad_request")
        text, version = message.get("text"), _whole(message.get("version"))
        seat, game, cheat = message.get("seat"), message.get("game"), message.get("cheat", False)
        if (
            not isinstance(text, str)
            or version is None
            or (seat is not None and _whole(seat) is None)
            or (game is not None and _whole(game) is None)
            or not isinstance(cheat, bool)
        ):
            raise Declined("refused.bad_request")
        seen = self.seen()
        if seen is None:
            raise Declined("refused.no_game")
        if seen.seat is None:
            raise Declined("refused.not_seated")
        if seat is not None and seat != seen.seat:
            raise Declined("refused.not_your_seat")
        if game is not None and game != seen.game:  # listed in a game that is not the newest
            raise Declined("refused.stale")
        try:
            action = Action.from_text(seen.seat, text)
        except MalformedAction:
            raise Declined("refused.bad_request") from None
        anyway = action.kind in (QUIT, BACK)  # meant whatever the others did since
        for _ in range(TRIES if anyway else 1):
            live = self.app.games.live(seen.game)
            if anyway and live is not None:
                version = len(live.state.history)
            try:
                await self.app.mover.act(seen.game, action, version, cheat=cheat)
                return
            except Refused as e:
                if not (anyway and e.reason is Refusal.STALE):
                    raise Declined(f"refused.{e.reason}") from None
        raise Declined("refused.stale")


def _whole(value: object) -> int | None:
    """``value`` if it is a whole number in reason (a version, a seat)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31
    return value if ok and isinstance(value, int) else None


def _json(raw: Any) -> dict[str, Any] | None:
    try:
        found = json.loads(raw) if isinstance(raw, str) and len(raw) <= MAX_MESSAGE else None
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


def _text(lang: str, refusal: Declined) -> str:
    return t(lang, f"miniapp.{refusal.reason}")


async def _send(ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
    """Sends ``data``; a page closed meanwhile is no error."""
    with contextlib.suppress(ConnectionResetError):
        await ws.send_json(data)
