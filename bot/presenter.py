"""Shows committed game updates: the group's table message and every player's hand.

The service reports each committed step here, and the handlers ask here for a hand to
be shown again. Per game, one worker reads what rendering needs (the table, the
languages, the message ids) and tells the outbox which messages should show the game's
newest state; the outbox renders each when its chat's turn comes, so what is sent is
never older than the newest commit, and a message whose rendering did not change is not
edited (a hand: its key, the seconds left aside). A new message is sent only when there
is none and none is on its way; the worker does not wait for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, tzinfo
from functools import partial

from service import Clock, Games, LiveGame, Update
from service.logctx import log_scope
from service.records import Records
from storage.repos import TableStatus

from . import render
from .config import zone_from_env
from .ephemeral import EphemeralHands, cards_button
from .hand_pages import HandPages
from .miniapp.links import Links
from .nudges import Nudges
from .outbox import Outbox, Rendered
from .outgoing import Posted
from .reach import Reach
from .render_hand import Drawn, hand
from .results import Results
from .shown import Shown, Who, added_seconds, read_shown

log = logging.getLogger(__name__)


class Presenter:
    def __init__(
        self,
        records: Records,
        games: Games,
        clock: Clock,
        outbox: Outbox,
        pages: HandPages,
        reach: Reach,
        group_hands: EphemeralHands,
        zone: tzinfo | None = None,
        links: Links | None = None,
    ) -> None:
        """``pages``: the hands' pages other than the hand (read here, changed by the
        handlers through their owner's verbs); ``reach``: who cannot be written to
        privately; ``group_hands``: the hands shown in the group (edited here, opened by
        the handlers); ``links``: the Mini App's, when it is served."""
        self.records = records
        self.games = games  # the running games, as the game service holds them
        self.clock = clock
        self.outbox = outbox
        self.zone = zone or zone_from_env()
        self.hand_pages = pages
        self.reach = reach
        self.links = links
        self.styled = True  # the server keeps button styles (else: marks in the labels)
        self._games: dict[int, Shown] = {}
        self._followed: dict[int, Shown] = {}  # games another process shows (``follow``)
        # One worker per game with news (a new message waiting for its slot holds up that
        # game only). The news: None for the table and every hand, or the users' hands.
        self._news: dict[int, set[Who]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._noting: set[asyncio.Task[None]] = set()  # messages' ids being stored, ...
        self.results = Results(records, outbox)
        self.nudges = Nudges(games, clock, outbox, self._lang, reach.blocked, self.hand_delivered)
        self.group_hands = group_hands
        self._running = False

    async def on_update(self, update: Update) -> None:
        """Called by the service after each commit; never blocks the game."""
        seats = update.seats
        for action, auto in update.actions:  # made by the person's own press
            seat = seats[action.seat] if action.seat < len(seats) else None
            if not auto and seat is not None and seat.human and seat.user_id is not None:
                self.nudges.moved(seat.user_id)
        self._mark(update.game_id, None)

    def redraw_all(self) -> int:
        """Show every game held again (``redraw``); returns how many."""
        held = self.games.ids()
        for game_id in held:
            self._mark(game_id, None)
        return len(held)

    def redraw(self, game_id: int) -> None:
        """Show the table and every hand again (the last process's may be out of date)."""
        self._mark(game_id, None)

    def let_go(self, game_id: int) -> None:
        """Another process shows the game from now on (its shard moved there)."""
        self._forget(game_id)

    def refresh(self, game_id: int, user_id: int) -> None:
        """Show the user's hand again (a page or a choice changed), unless the game ended."""
        live = self.games.live(game_id)
        if live is not None and not live.state.is_over:
            self._mark(game_id, user_id)

    async def show_in_group(self, game_id: int, user_id: int, query: str) -> bool:
        """«Мои карты» (or a press that started the game): the user's hand in the group,
        answering the press ``query``; False when it is not shown (Telegram refused it,
        or another bot process shows the game)."""
        game = self._games.get(game_id)
        if game is None or not await self.group_hands.open(
            game_id, game.chat_id, user_id, self.draw(game_id), query
        ):
            return False
        self._mark(game_id, None)  # (the table may have named them as not shown their cards)
        return True

    def rendered(self, game_id: int, who: Who = None) -> Rendered | None:
        """The table message (or ``who``'s hand) as it would be sent now."""
        game = self._games.get(game_id)
        return self._render(game_id, game, who) if game else None

    def draw(self, game_id: int) -> Callable[[int], Drawn | None]:
        """A user's hand in the game as it would be drawn now (None: not shown)."""

        def drawn(user_id: int) -> Drawn | None:
            game = self._games.get(game_id)
            return self._hand(game_id, game, user_id) if game else None

        return drawn

    async def ready(self, game_id: int) -> bool:
        """Whether the game is shown here, once the news in hand is (a game that has
        just started is read first)."""
        worker = self._workers.get(game_id)
        if worker is not None:
            await asyncio.wait({worker})
        return game_id in self._games

    def table_below(self, game_id: int) -> None:
        """Post the game's table message anew below an answer that buried it (the old one
        deleted); not when another process shows the game, or its message is on its way."""
        game = self._games.get(game_id)
        table = game.slot(None) if game is not None else None
        if game is None or table is None or table.id is None or table.sending:
            return
        old, table.id = table.id, None
        noted = self._new(game_id, game, None)
        self.outbox.delete(game.chat_id, old)  # queued after the new one

        async def hands_below() -> None:  # the hands the group shows: below the table too
            await noted
            if self._games.get(game_id) is game:  # (not once another process shows it)
                await self.group_hands.again(game_id, game.chat_id, self.draw(game_id))

        self._track(asyncio.create_task(hands_below(), name=f"below-{game_id}"))

    def hand_key(self, game_id: int, user_id: int, live: LiveGame | None = None) -> str | None:
        """The key the user's hand would be drawn with now (in ``live``, else in the game
        as held; not drawn again if drawn since it changed); None if it is not shown."""
        game = self._games.get(game_id) or self._followed.get(game_id)
        drawn = self._hand(game_id, game, user_id, any_seconds=True, live=live) if game else None
        return drawn.key if drawn else None

    def hand_delivered(self, game_id: int, user_id: int) -> bool:
        """Whether the user's hand, as it would be drawn now, has reached their chat."""
        game, key = self._games.get(game_id), self.hand_key(game_id, user_id)
        return game is not None and key is not None and game.slot(user_id).delivered == key

    async def follow(self, game_id: int) -> None:
        """Read what the keys of a game's hands need where another process shows the
        game (``bot.delivery.holder``), so that a press from a hand it drew is checked here as
        that process draws the hand (the languages and the seated, read once; kept
        apart from the games this process shows: their message ids are not read)."""
        live = self.games.live(game_id)
        if live is None or game_id in self._games or game_id in self._followed:
            return
        table = await self.records.table(live.table_id)
        if table is None or table.status == TableStatus.CLOSED:
            return
        game, _ = await read_shown(self.records, game_id, live, table, messages=False)
        for gone in [g for g in self._followed if self.games.live(g) is None]:
            del self._followed[gone]
        self._followed[game_id] = game

    def start(self) -> None:
        self._running = True
        for game_id in self._news.keys() - self._workers.keys():
            self._spawn(game_id)

    async def stop(self) -> None:
        self._running = False
        workers = [*self._workers.values(), *self._noting]
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until every reported update has been handed to the outbox (and every
        new message sent and noted)."""
        while self._workers or self._noting:
            await asyncio.gather(*self._workers.values(), *self._noting, return_exceptions=True)

    # --- the workers ----------------------------------------------------------------

    def _mark(self, game_id: int, what: Who) -> None:
        self._news.setdefault(game_id, set()).add(what)
        if self._running and game_id not in self._workers:
            self._spawn(game_id)

    def _spawn(self, game_id: int) -> None:
        self._workers[game_id] = asyncio.create_task(self._work(game_id), name=f"show-{game_id}")

    async def _work(self, game_id: int) -> None:
        """Hand the game's news to the outbox until none is left."""
        try:
            while game_id in self._news:
                news = self._news.pop(game_id)
                live = self.games.live(game_id)
                with log_scope(table=live.table_id if live else None, game=game_id):
                    try:
                        await self._show(game_id, news)
                        self.nudges.update(game_id)  # a notice's deletion after the hands
                    except Exception:
                        log.exception("showing the game failed")
        finally:
            del self._workers[game_id]

    async def _show(self, game_id: int, news: set[Who]) -> None:
        live = self.games.live(game_id)
        if live is not None and live.state.is_over:
            # a newer game was started at its table (this process took over from the one
            # that showed this one, and heard of its end late): the table message is the
            # newer game's now, and this result was sent or is out of date
            newer = await self.records.superseded(game_id, live.table_id)
            live = None if newer else live
        game = await self._read(game_id, live, news) if live is not None else None
        if live is None or game is None:
            self._forget(game_id)  # closed: its messages say so already
            return
        game.chat_id = live.chat_id  # a group may have become a supergroup
        everything = None in news
        shown: list[Who] = [None] if everything else []
        shown += [
            uid
            for info in live.seats
            if (uid := info.user_id) is not None
            and info.human
            and (everything or uid in news)
            and not self.reach.blocked(uid)  # sending would only get 403s
        ]
        for who in shown:
            slot = game.slot(who)
            if slot.id is not None:
                self._put(game_id, game, who)
            elif slot.sending:
                slot.missed = True  # shown again once the message is there
            else:
                self._new(game_id, game, who)
        state = live.state
        if state.outcome is None:
            await self._show_ephemeral(game_id, game, live, news)
        if everything and state.outcome is not None:
            await self.results.post(game_id, game, live)
            self._forget(game_id)

    def _put(self, game_id: int, game: Shown, who: Who) -> asyncio.Future[Posted | None]:
        """Queue the message's newest state (a new message when it has none yet)."""
        slot = game.slot(who)
        message_id = slot.id
        chat = game.chat_id if who is None else who
        if who is None:
            future = self.outbox.show(chat, message_id, lambda: self._render(game_id, game, None))
            self._follow_replaced(game_id, game, who, message_id, future)
            return future
        handed: list[Drawn] = []  # what this job rendered (the outbox may ask twice)

        def render() -> Rendered | None:
            drawn = self._hand(game_id, game, who)
            if drawn is None:
                return None
            again = drawn.key in [d.key for d in handed]  # the outbox asked before its wait
            if message_id is not None and slot.drawn == drawn.key and not again:
                return None  # the hand shows this already
            handed.append(drawn)
            slot.drawn = drawn.key
            if self.links is not None:  # the Mini App's button, under the hand's own
                lang = game.langs.get(who, "ru")
                return drawn.text, self.links.under_hand(drawn.markup, lang, game.token)
            return drawn.text, drawn.markup

        def done(future: asyncio.Future[Posted | None]) -> None:
            sent = None if future.cancelled() else future.result()
            if sent is None:
                if any(slot.drawn == d.key for d in handed):
                    slot.drawn = None  # not shown: draw it again at the next news
                return
            if handed:
                slot.delivered = handed[-1].key
                self.nudges.hand_shown(game_id, who)
            markup = handed[-1].markup if handed else None
            if self.styled and markup is not None and markup.styled and not sent.styled:
                log.warning("the Bot API server drops button styles: marking cards «✓»")
                self.styled = False
                self._mark(game_id, who)

        future = self.outbox.show(chat, message_id, render)
        future.add_done_callback(done)
        self._follow_replaced(game_id, game, who, message_id, future)
        return future

    def _follow_replaced(
        self,
        game_id: int,
        game: Shown,
        who: Who,
        message_id: int | None,
        future: asyncio.Future[Posted | None],
    ) -> None:
        """An edit the outbox had to send as a new message (the old one could no longer
        be edited): the new one is noted as the game's."""

        def done(future: asyncio.Future[Posted | None]) -> None:
            sent = None if future.cancelled() else future.result()
            if message_id is None or sent is None or sent.message_id == message_id:
                return
            remember = self._remember(game_id, game, who, sent.message_id)
            self._track(asyncio.create_task(remember, name=f"note-{game_id}"))

        if message_id is not None:
            future.add_done_callback(done)

    def _new(self, game_id: int, game: Shown, who: Who) -> asyncio.Task[None]:
        """Send the message; its id is noted when it has gone (the worker goes on; the
        task returned ends then)."""
        slot = game.slot(who)
        slot.sending = True
        future = self._put(game_id, game, who)

        async def note() -> None:
            try:
                sent = await future
                if sent is not None:  # else the game's next news sends it again
                    await self._remember(game_id, game, who, sent.message_id)
            finally:
                slot.sending = False
            if slot.missed and self._games.get(game_id) is game:  # (still shown here)
                slot.missed = False
                self._mark(game_id, who)

        return self._track(asyncio.create_task(note(), name=f"note-{game_id}"))

    def _track(self, task: asyncio.Task[None]) -> asyncio.Task[None]:
        self._noting.add(task)  # (waited for by ``idle``, cancelled by ``stop``)
        task.add_done_callback(self._noting.discard)
        return task

    async def _show_ephemeral(
        self, game_id: int, game: Shown, live: LiveGame, news: set[Who]
    ) -> None:
        """The hands shown in the group (``bot.ephemeral``): edited, or pushed at a turn."""
        off = {u for s in live.seats if (u := s.user_id) and s.human and self.reach.blocked(u)}
        draw = self.draw(game_id)
        firsts = await self.group_hands.update(game_id, game.chat_id, live, news, draw, off)
        for sending in firsts:  # the table stops naming them as not shown their cards
            sending.add_done_callback(partial(self._first_in_group, game_id))

    def _first_in_group(self, game_id: int, sending: asyncio.Future[bool]) -> None:
        if sending.result() and game_id in self._games:
            self._mark(game_id, None)

    # --- rendering (when the outbox asks) ---------------------------------------------

    def _render(self, game_id: int, game: Shown, who: Who) -> Rendered | None:
        if who is not None:
            drawn = self._hand(game_id, game, who)
            return None if drawn is None else (drawn.text, drawn.markup)
        live = self.games.live(game_id)
        if live is None:
            return None  # the table was closed
        state = live.state
        idle = [state.idle(s) for s in range(state.n)]
        names = render.seat_names(game.lang, live.seats)
        unseen = [  # play from the group, and have not had their cards shown there yet
            (uid, names[seat])
            for seat, s in enumerate(live.seats)
            if (uid := s.user_id) is not None
            and s.human
            and self.reach.blocked(uid)
            and not state.place[seat]
            and not self.group_hands.showing(game_id, uid)
        ]
        until = self.games.deadline(game_id)  # (in the configured zone)
        deadline = None if until is None else datetime.fromtimestamp(until, self.zone)
        view, added = state.view(), added_seconds(live)
        text = render.table_message(
            game.lang, view, names, idle, deadline, game.settings, unseen=unseen, added=added
        )
        if state.is_over:
            return text, None
        app = None if self.links is None else self.links.table_button(game.lang, game.token)
        return text, cards_button(game.lang, game_id, app)

    def _hand(
        self,
        game_id: int,
        game: Shown,
        who: int,
        *,
        any_seconds: bool = False,
        live: LiveGame | None = None,
    ) -> Drawn | None:
        """The hand as it would be drawn now; ``any_seconds``: for its key only, so one
        drawn with other seconds left will do (the clock unread if drawn since)."""
        live = live or self.games.live(game_id)
        if live is None:
            return None  # the table was closed
        state = live.state
        seat = next(s for s, info in enumerate(live.seats) if info.user_id == who)
        page, picking = self.hand_pages.current((game_id, who), state, seat)
        lang = game.langs.get(who, "ru")
        added = added_seconds(live)
        names = render.seat_names(lang, live.seats)
        leave = live.table_id if who in game.seated else None
        drawn_from = (
            id(state), len(state.history), page, picking, leave, added, self.styled, *names
        )  # fmt: skip
        slot = game.slot(who)
        if any_seconds and (known := slot.recall(drawn_from)) is not None:
            return known
        deadline = self.games.deadline(game_id)
        seconds = None if deadline is None else round(deadline - self.clock.now())
        if (known := slot.recall_timed(drawn_from, lang, seconds)) is not None:
            return known
        drawn = hand(
            lang,
            state.view(seat),
            game_id,
            picking=picking,
            idle=state.idle(seat),
            leave=leave,
            names=names,
            cheats=state.cheat_actions(seat),
            page=page.name if page else None,
            cheat_card=page.card if page else None,
            marked=page.marked if page else (),
            seconds=seconds,
            added=added,
            styled=self.styled,
        )
        slot.memo = (drawn_from, seconds, drawn)
        return drawn

    def _lang(self, game_id: int, user: int) -> str:
        game = self._games.get(game_id)
        return game.langs.get(user, "ru") if game else "ru"

    # --- what rendering needs -----------------------------------------------------

    async def _read(self, game_id: int, live: LiveGame, news: set[Who]) -> Shown | None:
        """What rendering needs: at the first news the table, the languages and the
        messages; the table again when a hand is shown for another reason than a move
        (a player who left it loses the button to leave)."""
        game = self._games.get(game_id)
        if game is not None and None in news:
            return game  # a move: nothing rendering reads from the database changed
        table = await self.records.table(live.table_id)
        if table is None or table.status == TableStatus.CLOSED:
            return None
        if game is None:
            game, group_only = await read_shown(self.records, game_id, live, table, messages=True)
            for user in group_only:  # a private hand would get a 403 (until /start)
                self.reach.set(user, True)
            for gone in [g for g in self._games if self.games.live(g) is None]:
                self._forget(gone)  # closed tables' games: no news comes for them
            self._games[game_id] = game
        game.settings = table.settings
        game.token = table.join_token
        game.seated = {uid for s in table.seats if (uid := s.user_id) is not None}
        return game

    async def _remember(self, game_id: int, game: Shown, who: Who, message_id: int) -> None:
        game.slot(who).id = message_id
        if who is None:
            await self.records.set_table_message(game.table_id, message_id)
        else:
            await self.records.set_hand_message(game_id, who, message_id)

    def _forget(self, game_id: int) -> None:
        """Drop a game's entries (finished and summed up, or closed): nothing shows it
        again (``refresh`` ignores it, and the service reports no more steps)."""
        self._news.pop(game_id, None)
        self._games.pop(game_id, None)
        self.nudges.forget(game_id)
        self.group_hands.finish(game_id)
        self.hand_pages.forget_game(game_id)
