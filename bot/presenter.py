"""Shows committed game updates: the group's table message and every player's hand.

The service reports each committed step here, and the handlers ask here for a
player's hand to be shown again; per game, one worker renders the newest state
and hands the texts to the outbox, so renders of one game never overlap or
overtake each other. A message is edited only when its text or keyboard changed,
and a new message is sent only when there is none.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, tzinfo
from typing import Any, NamedTuple

from aiogram.types import InlineKeyboardMarkup, Message

from engine import Card, Outcome
from service import GameService, Update
from service.logctx import log_scope
from service.series import pogony_pairs
from storage.db import Database
from storage.repos import ChatRepo, GameRepo, TableRepo, UserRepo

from . import render
from .config import zone_from_env
from .outbox import Outbox

log = logging.getLogger(__name__)

Key = tuple[Any, ...]  # ("table", game_id) or ("hand", game_id, user_id)


class Page(NamedTuple):
    """A page of a hand keyboard other than the hand (option ``cheating``): open until
    its player moves, goes back, or the bout it was opened in ends."""

    bout: int
    name: str  # "cheat" or "accuse"
    card: Card | None = None  # cheat: the card whose target is being chosen


class Presenter:
    def __init__(
        self, db: Database, service: GameService, outbox: Outbox, zone: tzinfo | None = None
    ) -> None:
        self.db = db
        self.service = service
        self.outbox = outbox
        self.zone = zone or zone_from_env()
        self.picking: dict[tuple[int, int], Card] = {}  # (game, user) -> card awaiting a target
        self.pages: dict[tuple[int, int], Page] = {}  # (game, user) -> the page shown
        self.blocked: set[int] = set()  # users who blocked the bot: their hands are not sent
        self._ids: dict[Key, int] = {}
        self._shown: dict[Key, tuple[str, str]] = {}
        self._langs: dict[tuple[int, int], str] = {}  # (game, user) -> the hand's language
        self._table_langs: dict[int, str] = {}  # game -> the language of its group texts
        # One worker per game with news: a slow send (a new message waiting for its
        # slot under Telegram's limits) holds up that game only, never the others.
        # The news: None for the table and every hand, or the users whose hand to show.
        self._news: dict[int, set[int | None]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._running = False

    async def on_update(self, update: Update) -> None:
        """Called by the service after each commit; never blocks the game."""
        self._mark(update.game_id, None)

    def redraw(self, game_id: int) -> None:
        """Show the table and every hand again (after a restart: the keyboards the
        last process drew may be out of date or of an older version of the bot)."""
        self._mark(game_id, None)

    def refresh(self, game_id: int, user_id: int) -> None:
        """Show the user's hand again (a page or a target choice changed): by the game's
        worker, after any render under way. A finished game's hands stay as they are."""
        live = self.service.games.get(game_id)
        if live is not None and not live.state.is_over:
            self._mark(game_id, user_id)

    def _mark(self, game_id: int, what: int | None) -> None:
        self._news.setdefault(game_id, set()).add(what)
        if self._running and game_id not in self._workers:
            self._spawn(game_id)

    def start(self) -> None:
        self._running = True
        for game_id in self._news.keys() - self._workers.keys():
            self._spawn(game_id)

    async def stop(self) -> None:
        self._running = False
        workers = list(self._workers.values())
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until every reported update has been handed to the outbox."""
        while self._workers:
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    def _spawn(self, game_id: int) -> None:
        self._workers[game_id] = asyncio.create_task(self._work(game_id), name=f"show-{game_id}")

    async def _work(self, game_id: int) -> None:
        """Show the game's newest state until no news is left (versions in between may
        be skipped: a render always shows the state as it is now)."""
        try:
            while game_id in self._news:
                news = self._news.pop(game_id)
                live = self.service.games.get(game_id)
                with log_scope(table=live.table_id if live else None, game=game_id):
                    try:
                        if None in news:
                            await self.show(game_id)
                        else:
                            for user_id in news:
                                await self.show(game_id, user_id)
                    except Exception:
                        log.exception("showing the game failed")
        finally:
            del self._workers[game_id]

    async def show(self, game_id: int, user_id: int | None = None) -> None:
        """Render the game as it is now: the table message and the hands (or one user's
        hand). Only the game's worker calls this, so a message never has two sends
        in flight."""
        live = self.service.games.get(game_id)
        if live is None:
            return
        table = await TableRepo(self.db).get(live.table_id)
        if table is None:
            return
        lang = await self._table_lang(game_id, table.chat_id)
        users = {
            info["user_id"]: await self._lang(game_id, info["user_id"])
            for info in live.seats
            if info["kind"] == "human"
            and info.get("user_id") is not None
            and user_id in (None, info["user_id"])
            and info["user_id"] not in self.blocked  # sending would only get 403s
        }
        state = live.state  # read after the awaits: the newest committed state
        puts: list[tuple[Key, int, str, InlineKeyboardMarkup | None]] = []
        idle = [state.idle(s) for s in range(state.n)]
        names = render.seat_names(lang, live.seats)
        if user_id is None:
            text = render.table_message(
                lang, state.view(), names, idle, self._deadline(game_id), table.settings
            )
            puts.append((("table", game_id), table.chat_id, text, None))
        seated = {s.get("user_id") for s in table.seats}
        for seat, info in enumerate(live.seats):
            uid = info.get("user_id")
            if uid is None or uid not in users:
                continue
            picking = self.picking.get((game_id, uid))
            page = self.pages.get((game_id, uid))
            if page is not None and page.bout != state.bouts:  # that bout is over
                del self.pages[(game_id, uid)]
                page = None
            hand_lang = users[uid]
            text, markup = render.hand(
                hand_lang,
                state.view(seat),
                game_id,
                picking=picking,
                idle=idle[seat],
                leave=live.table_id if uid in seated else None,
                names=render.seat_names(hand_lang, live.seats),
                cheats=state.cheat_actions(seat),
                page=page.name if page else None,
                cheat_card=page.card if page else None,
            )
            puts.append((("hand", game_id, uid), uid, text, markup))
        for put in puts:
            await self._put(*put)
        if state.outcome is not None and user_id is None:
            pogony = pogony_pairs(state.outcome, state.pogony_awards)
            await self._summary(game_id, live.table_id, state.outcome, names, lang, pogony)
            self._forget(game_id)

    def _forget(self, game_id: int) -> None:
        """Drop a finished game's entries once its summary is out: nothing shows it
        again (``refresh`` ignores it, and the service reports no more steps)."""
        self._news.pop(game_id, None)
        self._table_langs.pop(game_id, None)
        for per_user in (self.pages, self.picking, self._langs):
            for key in [k for k in per_user if k[0] == game_id]:
                del per_user[key]
        for keyed in (self._ids, self._shown):
            for key in [k for k in keyed if k[1] == game_id]:
                del keyed[key]

    def _deadline(self, game_id: int) -> datetime | None:
        """When the current move's time runs out, in the configured zone."""
        armed = self.service.timers.deadline(game_id)
        live = self.service.games[game_id]
        if armed is None or armed[1] != len(live.state.history):
            return None
        return datetime.fromtimestamp(armed[0], self.zone)

    async def _table_lang(self, game_id: int, chat_id: int) -> str:
        if game_id not in self._table_langs:
            chat = await ChatRepo(self.db).get(chat_id)
            self._table_langs[game_id] = chat.lang if chat else "ru"
        return self._table_langs[game_id]

    async def _summary(
        self,
        game_id: int,
        table_id: int,
        outcome: Outcome,
        names: list[str],
        lang: str,
        pogony: list[tuple[int, int]],
    ) -> None:
        """The short result in the group, with «Ещё партию»: it is the next lobby message."""
        table = await TableRepo(self.db).get(table_id)
        if table is None or table.status == "closed":
            return
        text = render.outcome_text(lang, outcome, names, pogony)
        sent = await self.outbox.send(table.chat_id, text, render.again(lang, table_id))
        async with self.db.tx() as c:
            await TableRepo.update(
                c,
                table_id,
                lobby_message_id=sent.message_id if sent else None,
                lobby_is_summary=True,
            )
        log.info("table %s: game %s over, fools %s", table_id, game_id, outcome.fools)

    async def _lang(self, game_id: int, user_id: int) -> str:
        """The user's language, read once per game (a change shows from the next game)."""
        if (game_id, user_id) not in self._langs:
            user = await UserRepo(self.db).get(user_id)
            self._langs[(game_id, user_id)] = user.lang if user else "ru"
        return self._langs[(game_id, user_id)]

    async def _put(
        self, key: Key, chat_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        shown = (text, markup.model_dump_json() if markup else "")
        if self._shown.get(key) == shown:
            return
        message_id = self._ids.get(key) or await self._stored_id(key)
        if message_id is not None:
            self.outbox.edit(chat_id, message_id, text, markup)
        else:
            sent = await self.outbox.send(chat_id, text, markup)
            if not isinstance(sent, Message):
                return  # not shown: the game's next render sends it again
            await self._remember(key, sent.message_id)
        self._shown[key] = shown

    async def _stored_id(self, key: Key) -> int | None:
        if key[0] == "hand":
            found = await GameRepo(self.db).hand_message(key[1], key[2])
        else:
            live = self.service.games.get(key[1])
            table = await TableRepo(self.db).get(live.table_id) if live else None
            found = table.table_message_id if table else None
        if found is not None:
            self._ids[key] = found
        return found

    async def _remember(self, key: Key, message_id: int) -> None:
        self._ids[key] = message_id
        async with self.db.tx() as c:
            if key[0] == "hand":
                await GameRepo.set_hand_message(c, key[1], key[2], message_id)
            else:
                live = self.service.games.get(key[1])
                if live is not None:
                    await TableRepo.update(c, live.table_id, table_message_id=message_id)

    async def replaced(self, chat_id: int, old: int, new: int) -> None:
        """The outbox had to send a new message instead of editing ``old``."""
        for key, mid in list(self._ids.items()):
            if mid == old:
                await self._remember(key, new)
