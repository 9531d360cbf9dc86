"""Wiring: the bot, the database, the game service, the presenter, the dispatcher."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import PRODUCTION, TelegramAPIServer
from aiogram.exceptions import TelegramAPIError
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    ErrorEvent,
)
from prometheus_client import CollectorRegistry

from service import Clock, GameService, LiveGames, SystemClock
from service.logctx import log_scope
from service.news import Listeners
from service.records import Records
from service.tables import Tables
from service.thinking import Thinker
from storage.connect import open_database
from storage.db import Database
from storage.shards import shard_of

from . import webhook
from .config import Config
from .delivery import Alone, Delivery, Poster, Shared
from .ephemeral import EphemeralHands
from .hand_pages import HandPages, SharedPages
from .handlers import routers
from .handlers.play import Hands
from .health import Health
from .i18n import LANGS, lang_of, t
from .inflight import InFlight
from .intake import Intake
from .logs import ChatScope, ids_of
from .metrics import Readings
from .miniapp import MiniApp, Watchers
from .miniapp.links import Links
from .miniapp.members import ChatMembers
from .once import Once
from .outbox import Outbox
from .polling import Polling
from .presenter import Presenter
from .reach import Reach
from .session import JsonSession
from .traffic import Arrivals, Calls
from .web import Routes, Site

log = logging.getLogger(__name__)

SHUTDOWN_WAIT = 5.0  # seconds for the updates in hand, then again for the last messages

GROUP_COMMANDS = ("durak", "settings", "rules", "stats", "stop", "help")
PRIVATE_COMMANDS = ("start", "help", "me")
COMMAND_TEXT = {
    "durak": "open",
    "rules": "rules",
    "settings": "settings",
    "stats": "stats",
    "stop": "stop",
    "start": "start",
    "help": "help",
    "me": "mystats",
}


# Young collections every 20,000 allocations instead of 700, so that what a move or a
# call allocates has died before one comes (at the default, its futures, tasks and
# keyboards were promoted, and at 1,000 tables a full collection of ~250k objects came
# every 1-2 s and stopped the loop for up to 0.7 s); the older generations seldom.
GC_THRESHOLDS = (20_000, 3, 50)
# Calls in flight to the Bot API at once (aiohttp's default is 100). Each chat has one
# at a time; at 1,000 tables the answers to presses waited for a free connection
# behind the edits (press -> answer p50 1.06 s at 100, 0.52 s at 1,000). Under the
# usual limit of 1,024 open files.
CONNECTIONS = 500


class Kept:
    """Which games a process follows, where several share the chats out: those of its
    shards, and of the tables a Mini App page open here shows."""

    def __init__(self, delivery: Delivery, watchers: Watchers) -> None:
        self.delivery, self.watchers = delivery, watchers

    def keeps(self, chat_id: int, table_id: int) -> bool:
        return self.delivery.keeps(chat_id) or self.watchers.watching(table_id)

    def shards(self) -> frozenset[int] | None:
        kept, count = self.delivery.kept(), self.delivery.shards
        watched = {shard_of(chat, count) for chat in self.watchers.chats()}
        return None if kept is None else kept | watched


class App:
    """Everything the running bot holds; ``start``/``stop`` around receiving updates."""

    def __init__(self, config: Config, db: Database, clock: Clock | None = None) -> None:
        """Every object is built here, whole, in the order they depend on each other."""
        self.config = config
        self.db = db
        clock = clock or SystemClock()
        registry = CollectorRegistry()  # this process's metrics (never the global one)
        calls = Calls(registry)
        api = TelegramAPIServer.from_base(config.api_base) if config.api_base else PRODUCTION
        session = JsonSession(calls, api=api, limit=CONNECTIONS)
        self.bot = Bot(
            config.token, session=session, default=DefaultBotProperties(parse_mode="HTML")
        )
        records = Records(db)
        reach = Reach(records)
        self.outbox = Outbox(self.bot, config.limits, on_blocked=reach.refused)
        games = LiveGames()  # held by the game service, read by the presenter
        leases = db.shard_leases() if config.shared else None
        pages = HandPages() if leases is None else SharedPages(db)
        links = (
            None if config.miniapp_url is None else Links(config.miniapp_url, config.miniapp_link)
        )
        self.group_hands = group_hands = EphemeralHands(self.outbox)
        self.presenter = Presenter(
            records, games, clock, self.outbox, pages, reach, group_hands, config.zone, links=links
        )
        poster = Poster(self.outbox, records, self.presenter, pages, reach, group_hands)
        # alone, or one of several processes, each showing the chats of its shards
        self.delivery: Delivery = (
            Alone(poster, self.presenter, shards=config.shards)
            if leases is None
            else Shared(db, leases, poster, self.presenter)
        )
        thinker = Thinker(config.bot_workers)
        self.watchers = Watchers(games)  # the Mini App's open pages
        self.service = GameService(
            db,
            games=games,
            clock=clock,
            listener=Listeners(self.delivery, self.watchers),
            thinker=thinker,
            pause=config.bot_pause,
            keeping=Kept(self.delivery, self.watchers),
        )
        self.tables = Tables(db, self.service, lobbies=self.delivery, records=records)
        self.dp = Dispatcher(disable_fsm=True)
        self.dp.include_routers(*routers())
        self.dp.errors.register(self._error)
        self.inflight = InFlight()
        self.once = Once(db)  # each update acts once, however often Telegram sends it
        self.dp.update.outer_middleware(Intake(Arrivals(registry), self.inflight, self.once))
        for observer in (self.dp.message, self.dp.my_chat_member):
            observer.middleware(ChatScope())
        self.dp.workflow_data.update(
            tables=self.tables,
            records=records,
            service=self.service,
            outbox=self.outbox,
            delivery=self.delivery,
            presenter=self.presenter,
            group_hands=group_hands,
            reach=reach,
            hands=Hands(self.service, self.presenter, pages, self.delivery),
        )
        Readings(  # (in the registry from now on: read at each scrape)
            registry, service=self.service, games=games, outbox=self.outbox, thinker=thinker,
            inflight=self.inflight, delivery=self.delivery,
        )  # fmt: skip
        self.health = Health(db, registry)  # /metrics, /healthz, /readyz
        self.routes: list[Routes] = [self.health]  # the web server's (and the webhook's)
        if config.miniapp_url is not None:  # /app: the table as a page in Telegram
            miniapp = MiniApp(
                token=config.token, tables=self.tables, games=games, mover=self.service,
                watchers=self.watchers, clock=clock, members=ChatMembers(self.bot),
            )  # fmt: skip
            self.routes.append(miniapp)
        port = config.metrics_port
        self.site = None if port is None else Site(self.routes, (config.metrics_host, port))

    @classmethod
    async def create(cls, config: Config, clock: Clock | None = None) -> App:
        db = await open_database(
            config.db_path, exclusive=not config.shared, shared=config.shared, shards=config.shards
        )
        return cls(config, db, clock)

    async def start(self) -> None:
        """Raises when Telegram does not say who the bot is (after a few tries): the token
        is wrong, or Telegram unreachable. Nothing else Telegram says stops a start."""
        if self.site is not None:  # (/readyz: 503 until the end of the start)
            await self.site.open()
        me = await self.bot.me()  # (kept: the handlers' deep links need no call)
        log.info("the bot is @%s", me.username)
        restored = await self.service.restore()
        log.info("restored %s running games", restored)
        await self._tell_broken()
        self.presenter.start()
        self.once.start()
        self.service.start()
        self.delivery.start(self.service)
        await self.set_commands()
        if not self.config.webhook_url:  # back to polling: getUpdates fails while one is set
            try:
                await self.bot.delete_webhook()
            except TelegramAPIError as e:  # (polling says so, and goes on asking)
                log.warning("the webhook was not deleted (deleteWebhook failed: %s)", e)
        # The imports leave ~240k long-lived objects; full collections that walk them
        # paused the event loop for 0.2-0.3 s (bench/bot_load.py). Freeze them out.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        self.health.started()

    async def run(self) -> None:
        """Receive updates until cancelled: by webhook when configured, else by long polling."""
        try:
            await self.start()
            if self.config.webhook_url:
                async with webhook.listening(self.config, self.dp, self.bot, routes=self.routes):
                    await asyncio.Event().wait()
            else:
                await Polling(self.dp, self.bot).run()
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Safe after a partial start; the database (whose thread keeps the process
        alive) is closed whatever fails before."""
        self.health.stopping()
        try:
            if not await self.inflight.settle(SHUTDOWN_WAIT):
                log.warning("stopping with %s updates still in hand", self.inflight.count)
            await self.once.stop()
            await self.service.stop()
            await self.delivery.halt()
            self.presenter.nudges.close()
            try:  # what the last moves changed reaches the players, unless Telegram stalls
                await asyncio.wait_for(self.delivery.drawn(), SHUTDOWN_WAIT)
                await asyncio.wait_for(self.presenter.idle(), SHUTDOWN_WAIT)
                await asyncio.wait_for(self.outbox.drain(), SHUTDOWN_WAIT)
            except TimeoutError:
                log.warning("stopping with messages still to send")
            await self.delivery.stop()  # (forgets what was sent: the next holders send the rest)
            await self.presenter.stop()
            await self.outbox.close()
            await self.bot.session.close()
        finally:
            try:
                await self.db.close()
            finally:
                if self.site is not None:
                    await self.site.close()

    async def set_commands(self) -> None:
        """The command menus, each on its own; they are cosmetic, so failures are one
        warning, not a failed start."""
        failed: list[TelegramAPIError] = []
        for lang in LANGS:
            code = None if lang == "ru" else lang
            for scope, names in (
                (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
                (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
            ):
                commands = [
                    BotCommand(command=n, description=t(lang, f"cmd.{COMMAND_TEXT[n]}"))
                    for n in names
                ]
                try:
                    await self.bot.set_my_commands(commands, scope=scope, language_code=code)
                except TelegramAPIError as e:
                    failed.append(e)
        if failed:
            log.warning(
                "command menu not set (%s of %s; setMyCommands failed: %s)",
                len(failed), 2 * len(LANGS), failed[0],
            )  # fmt: skip

    async def _tell_broken(self) -> None:
        """The games that could not be restored: their groups and players are told."""
        for broken in self.service.broken:
            lang = await self.tables.lang(broken.chat_id)
            await self.delivery.send(broken.chat_id, t(lang, "closed.broken"))
            for user_id in broken.user_ids:
                user = await self.tables.records.user(user_id)
                if user is not None and user.can_message:
                    await self.delivery.send(user_id, t(user.lang, "closed.broken"))

    async def _error(self, event: ErrorEvent) -> bool:
        """Log a handler's failure (with the ids of its table and game) and carry on."""
        table, game = await ids_of(event.update.event, self.service)
        with log_scope(table=table, game=game):
            log.exception("update %s failed: %s", event.update.update_id, event.exception)
        query = event.update.callback_query
        if query is not None:  # every press gets an answer; an answered one refuses a second
            with contextlib.suppress(TelegramAPIError):
                await query.answer(t(lang_of(query.from_user.language_code), "errors.failed"))
        return True
