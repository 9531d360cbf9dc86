"""The one place where moves are made: check, apply, commit, then tell.

Every move goes through ``GameService.act`` (players), a timer (timeouts) or
the autoplay (computer players). One step is one move: checked, committed,
then published. Per game, a lock serializes this process's steps, and the
database those of every process (a step is written only at the version it
started from, see ``steps``); every move names the game version its player
saw, so a stale or repeated press is refused, never applied twice. Computer
players (bot seats, and humans' seats while they are idle) think outside the
lock, each move a step of its own (see ``autoplay``). Other processes' steps
reach this one through ``follow``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from enum import StrEnum

from engine import Action, Event, IllegalAction, Rules, State
from engine.bots import make_bot
from engine.players import Player
from storage.db import Conflict, Database, Tx
from storage.repos import GameRepo, Seat, TableRepo, TableStatus

from .autoplay import Autoplay
from .clock import Clock, SystemClock
from .follow import Follower, Keeping
from .live import LiveGame, bots_seed
from .logctx import log_scope
from .news import Listener, Update
from .outage import Watch, moved_deadline
from .registry import LiveGames
from .restore import Broken, rebuild, restore_games
from .steps import Behind, Step, Unclaimed, write_step
from .thinking import Thinker
from .timers import Timers

log = logging.getLogger(__name__)

CLAIM_RETRY = 1.0  # seconds before a deadline another process holds is looked at again


class Refusal(StrEnum):
    """Why the service did not make a move (or start a game)."""

    NO_GAME = "no_game"  # no such game runs (any more)
    OVER = "over"  # the game is over
    STALE = "stale"  # the game has moved on since the version the player saw
    ILLEGAL = "illegal"  # not a move of that seat now (or a cheat taken as honest)
    MOVED = "moved"  # the table changed since it was read (a start)
    PLAYING = "playing"  # the table plays a game already (a start)


class Refused(Exception):
    """A move that was not made; ``reason`` says which kind, the message why."""

    def __init__(self, reason: Refusal, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _player(seat: Seat) -> Player:
    """The computer player for a bot seat, or the stand-in for an idle human («Новичок»)."""
    return make_bot(seat.level or "novice")


class GameService:
    def __init__(
        self,
        db: Database,
        *,
        games: LiveGames | None = None,
        clock: Clock | None = None,
        listener: Listener | None = None,
        player_for: Callable[[Seat], Player] | None = None,
        thinker: Thinker | None = None,
        pause: tuple[float, float] = (0.0, 0.0),
        keeping: Keeping | None = None,  # several processes: the games this one keeps
    ) -> None:
        """``games``: where the running games are held (the presenter reads them too;
        only this service and its helpers change them); ``listener``: told of every
        step committed here, and of games moved elsewhere (the layer that shows them);
        ``thinker``: the worker processes «Опытный» and «Мастер» think in (without
        one they think on the loop's thread: tests and tools only); ``player_for``:
        the in-process players instead (tests); ``pause``: seconds between two
        computer moves of a game (a range to draw from)."""
        self.db = db
        self.clock = clock or SystemClock()
        self._listener = listener
        self._held = LiveGames() if games is None else games
        self.broken: list[Broken] = []  # games ``restore`` could not load
        self.moves = 0  # moves committed here (people's, timeouts', computer players')
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(128)  # tests fix the deal
        self._timers = Timers(self.clock, self._on_timer)
        # outages of the database: known to within seconds, and deadlines fired at its end
        self._watch = Watch(db, busy=lambda: len(self._held) > 0, back=self._timers.hurry)
        self.autoplay = Autoplay(self._held, self.step, thinker, player_for or _player, pause)
        # other processes' steps (started by ``follow``)
        self.follower = Follower(
            db,
            self._held,
            arm=self._arm,
            kick=self.autoplay.kick,
            moved=self._moved,
            keeping=keeping,
        )
        self._tables = TableRepo(db)
        self._games = GameRepo(db)

    # ------------------------------------------------------------ lifecycle

    async def restore(self) -> int:
        """Load every running game and re-arm its stored deadline; returns their number.
        A deadline that passed while the bot was down fires at the next ``fire_due``.
        Each game on its own: one that cannot be loaded is ended, its table goes back
        to the lobby, and it is listed in ``broken`` for the players to be told."""
        self.broken = await restore_games(self.db, self._held, self._arm)
        return len(self._held)

    def start(self) -> None:
        """Fire the timers from now on, and let the computer players of the restored
        games move (a crash may have come between a person's move and theirs)."""
        self._timers.start()
        self._watch.start()
        for game_id in self._held.ids():
            self.autoplay.kick(game_id)

    async def idle(self) -> None:
        """Wait until no computer player has a move to make (tests, benchmarks)."""
        await self.autoplay.idle()

    def follow(self) -> None:
        """Keep up with the other bot processes on the database (PostgreSQL; see
        ``follow``): their steps reach this cache, and their games' deadlines fire here
        too. Call after ``start``."""
        self.follower.start()

    async def stop(self) -> None:
        await self.follower.stop()
        await self._watch.stop()
        await self._timers.stop()
        await self.autoplay.stop()

    async def fire_due(self) -> int:
        """Fire every move timer whose deadline has passed, now, and wait for them;
        returns how many (tests and tools: the timers fire by themselves once started)."""
        return await self._timers.fire_due()

    # -------------------------------------------------------------- queries
    # What the other layers may read of the running games (held in ``LiveGames``).

    def live(self, game_id: int) -> LiveGame | None:
        """A running (or just finished) game as last committed; read-only for callers."""
        return self._held.live(game_id)

    def seat_of(self, game_id: int, user_id: int) -> int | None:
        """The person's seat in the running game (None: they do not play in it)."""
        live = self._held.live(game_id)
        return None if live is None else live.seat_of(user_id)

    def game_of(self, table_id: int) -> int | None:
        """The id of the table's running game, if one is being played."""
        return self._held.running(table_id)

    def game_ids(self) -> list[int]:
        """Every game held in memory (running, or just finished)."""
        return self._held.ids()

    async def table_in_chat(self, chat_id: int) -> int | None:
        """The id of the chat's open table."""
        table = await self._tables.open_in_chat(chat_id)
        return None if table is None else table.id

    def games_of(self, table_id: int) -> list[int]:
        """The table's games held in memory (running or just finished)."""
        return self._held.of_table(table_id)

    async def holds_cards(self, table_id: int, user_id: int) -> bool:
        """Whether the user still plays (holds cards) in the table's running game (read
        from the database when another process keeps it: its chat's shard is not here)."""
        game_id = self.game_of(table_id)
        if game_id is None and (newest := await self._games.newest_at(table_id)) is not None:
            game_id = newest if await self.catch_up(newest) else None
        live = None if game_id is None else self._held.live(game_id)
        return live is not None and any(
            info.user_id == user_id and not live.state.place[seat]
            for seat, info in enumerate(live.seats)
        )

    def deadline(self, game_id: int) -> float | None:
        """When the game's current move times out (epoch seconds), as stored with the
        state held now (a deadline another process is firing is retried a moment later
        here, but shown as it was); None: no move is timed."""
        return self._held.deadline(game_id)

    async def end_table(self, table_id: int) -> None:
        """The table was closed: its running game ends unfinished (stored as over, with
        no outcome), its timer is cancelled and it leaves memory."""
        for game_id in self.games_of(table_id):
            live = self._held.live(game_id)
            if live is None:
                continue
            async with live.lock:
                self._arm(game_id, live, None)
                if not live.state.is_over:
                    async with self.db.tx() as c:
                        await GameRepo.abandon(c, game_id)
                self._held.let_go(game_id, live)  # (a step that found it over let it go)

    def chat_moved(self, old: int, new: int) -> None:
        """A group became a supergroup: its running games now belong to the new chat id."""
        self._held.chat_moved(old, new)

    async def rebuild_from_log(self, game_id: int) -> State:
        """The game rebuilt from (rules, seed, action log) alone."""
        record = await self._games.get(game_id)
        if record is None:
            raise KeyError(game_id)
        return rebuild(record, await self._games.actions(game_id))

    # ----------------------------------------------------------------- moves

    async def create_game(
        self,
        table_id: int,
        rules: Rules,
        seats: list[Seat],
        seed: int | None = None,
        *,
        last_fool: int | None = None,
        pogony_ranks: list[int] | None = None,
        claim: Callable[[Tx], Awaitable[bool]] | None = None,
    ) -> Update:
        """A new game at the table; ``last_fool`` and ``pogony_ranks`` carry the table's
        series on (see ``engine.State``). ``claim``: the table's part of the start, in
        the start's transaction (``Tables.start``: its lobby's compare-and-set); False
        refuses it (``Refused(Refusal.MOVED)``); without one the table is only marked as
        playing. A table that plays a game already refuses (``Refusal.PLAYING``): two
        processes may start it at once."""
        table = await self._tables.get(table_id)
        if table is None:
            raise KeyError(f"no table {table_id}")
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} seats")
        seed = self.new_seed() if seed is None else seed
        state = State(rules, seed, last_fool=last_fool, pogony_ranks=pogony_ranks)
        try:
            async with self.db.tx() as c:
                if claim is None:
                    await TableRepo.update(c, table_id, status=TableStatus.PLAYING)
                elif not await claim(c):
                    raise Refused(Refusal.MOVED, "the table changed since it was read")
                game_id = await GameRepo.create(
                    c,
                    table_id,
                    rules.to_dict(),
                    seats,
                    seed,
                    state.to_dict(),
                    last_fool=last_fool,
                    pogony_ranks=pogony_ranks,
                )
        except Conflict:
            raise Refused(Refusal.PLAYING, "the table plays a game already") from None
        live = LiveGame(state, table_id, table.chat_id, seats, bots_seed(seed))
        self._held.hold(game_id, live)  # (the table's finished games leave memory)
        with log_scope(table=table_id, game=game_id):
            log.info("game %s started", game_id)  # never the seed: it gives away every hand
            async with live.lock:
                update = await self._commit(game_id, live, state.copy(), [], [])
        self.autoplay.kick(game_id)
        return update

    async def act(
        self,
        game_id: int,
        action: Action,
        version: int,
        *,
        auto: bool = False,
        cheat: bool = False,
    ) -> Update:
        """Make ``action`` (its seat's move) against the version its player saw.
        ``cheat``: the move is one of the defender's cheats (option ``cheating``); an
        honest move is refused then, and a cheat is refused without it."""
        live = self._held.live(game_id)
        if live is None and await self.catch_up(game_id):  # started by another process
            live = self._held.live(game_id)
        if live is None:
            raise Refused(Refusal.NO_GAME, "this game is not running")
        with log_scope(table=live.table_id, game=game_id):
            update = await self._act(game_id, live, action, version, auto, cheat)
        self.autoplay.kick(game_id)
        return update

    async def _act(
        self,
        game_id: int,
        live: LiveGame,
        action: Action,
        version: int,
        auto: bool,
        cheat: bool,
    ) -> Update:
        async with live.lock:
            if not self._held.holds(game_id, live):  # its table was closed meanwhile
                raise Refused(Refusal.NO_GAME, "this game is not running")
            state = live.state
            if state.is_over:
                raise Refused(Refusal.OVER, "the game is over")
            if version > len(state.history):  # another process moved it: catch up
                await self.follower.reload(game_id, live)
                state = live.state
                if state.is_over:
                    raise Refused(Refusal.OVER, "the game is over")
            if version != len(state.history):
                raise Refused(Refusal.STALE, "the game has moved on since")
            if cheat != (action in state.cheat_actions(action.seat)):
                why = "not one of the defender's cheats" if cheat else "a cheat, not an honest move"
                raise Refused(Refusal.ILLEGAL, why)
            trial = state.copy()
            try:
                events = trial.apply(action, auto=auto)
            except IllegalAction as e:
                raise Refused(Refusal.ILLEGAL, str(e)) from None
            try:
                return await self._commit(game_id, live, trial, events, [(action, auto)])
            except Behind:  # another process moved first: as a press from an older hand
                raise Refused(Refusal.STALE, "the game has moved on since") from None

    async def _on_timer(self, game_id: int, version: int) -> None:
        live = self._held.live(game_id)
        if live is None:
            return
        with log_scope(table=live.table_id, game=game_id):
            await self._timeout(game_id, live, version)
        self.autoplay.kick(game_id)

    async def _timeout(self, game_id: int, live: LiveGame, version: int) -> None:
        async with live.lock:
            state = live.state
            if not self._held.holds(game_id, live) or state.is_over:
                return  # its table was closed, or the game is over
            if len(state.history) != version:
                return  # a move was made in time: this timer is stale
            deadline = live.deadline
            later = None if deadline is None else moved_deadline(
                deadline, self.db.reach.outage(), self.clock.now()
            )  # fmt: skip
            if later is not None:  # it fell in an outage of the database
                assert deadline is not None
                await self._give_time(game_id, live, version, deadline, later)
                return
            trial = state.copy()
            events: list[Event] = []
            done: list[tuple[Action, bool]] = []
            for action in trial.timeout_actions():
                if trial.is_over:
                    break
                events += trial.apply(action, auto=True)
                done.append((action, True))
            log.info(
                "game %s: timeout at version %s, %s automatic moves", game_id, version, len(done)
            )
            try:
                await self._commit(game_id, live, trial, events, done, timeout=True)
            except Unclaimed:  # not due there, or another process is firing it now
                armed, now = self._timers.deadline(game_id), self.clock.now()
                if armed is not None and armed[1] == version and armed[0] <= now:
                    self._timers.arm(game_id, version, now + CLAIM_RETRY)  # if it dies
            except Behind:  # a move was made in time, elsewhere
                pass

    async def _give_time(
        self, game_id: int, live: LiveGame, version: int, deadline: float, later: float
    ) -> None:
        """Move the deadline on instead of firing it (``outage``), the time added shown
        to the players until the next step; where another process did first, take its
        deadline. Raises while the database is still away."""
        async with self.db.tx() as c:
            moved = await GameRepo.move_deadline(c, game_id, version, deadline, later)
        if not moved:
            await self.follower.reload(game_id, live)  # (shown again if it moved)
            return
        live.time_added = (live.time_added or 0.0) + (later - deadline)  # (as the row adds it)
        self._arm(game_id, live, later)
        log.info("game %s: deadline moved on %.0f s after an outage", game_id, later - deadline)
        self._moved(game_id)  # the table and the hands say so

    async def step(
        self, game_id: int, live: LiveGame, version: int, action: Action, auto: bool
    ) -> bool:
        """A computer player's move decided at ``version``: made and committed if the
        game is still there (False: it moved on, decide again)."""
        async with live.lock:
            if not self._held.holds(game_id, live) or len(live.state.history) != version:
                return False
            trial = live.state.copy()
            events = trial.apply(action, auto=auto)
            try:
                await self._commit(game_id, live, trial, events, [(action, auto)])
            except Behind:
                return False
            return True

    async def _commit(
        self,
        game_id: int,
        live: LiveGame,
        state: State,
        events: list[Event],
        done: list[tuple[Action, bool]],
        *,
        timeout: bool = False,
    ) -> Update:
        """Store the step in one transaction, then publish it. Raises ``Behind`` (with
        the game reloaded) when another process moved first; ``timeout``: the steps of
        a deadline, which this process must claim (see ``steps.write_step``)."""
        version = len(state.history)
        now = self.clock.now()
        step = Step.of(state, done, now)
        try:
            async with self.db.tx() as c:
                await write_step(c, game_id, live, step, now, timeout=timeout)
        except Behind:
            log.info("game %s moved on elsewhere (or its deadline did): reloaded", game_id)
            await self.follower.reload(game_id, live)
            raise
        live.state = state  # only now: what is in memory was committed
        self.moves += len(done)
        live.moved_at = asyncio.get_running_loop().time()
        live.time_added = None
        if timeout:  # claimed and committed here: it fires nowhere else
            log.info("game %s: the deadline at version %s fired", game_id, version - len(done))
        self._arm(game_id, live, step.deadline)
        update = Update(game_id, version, events, state, live.table_id, live.seats, done)
        if self._listener is not None:
            try:
                await self._listener.news(update)
            except Exception:
                log.exception("game %s: notifying version %s failed", game_id, version)
        return update

    def _arm(self, game_id: int, live: LiveGame, deadline: float | None) -> None:
        """The game's timer for the state held now (None: no move is timed)."""
        live.deadline = None if live.state.is_over else deadline
        if live.deadline is None:
            self._timers.cancel(game_id)
        else:
            self._timers.arm(game_id, len(live.state.history), live.deadline)

    def _moved(self, game_id: int) -> None:
        if self._listener is not None:
            self._listener.moved(game_id)

    # ------------------------------------------------------ other processes

    async def catch_up_all(self) -> int:
        """Catch up every game whose version here differs from the database's (or that
        ended there), hearing the steps of every game kept; returns how many."""
        try:
            await self.follower.hear()
        except Exception:  # (the follower's loop listens anew, and reads every game then)
            log.exception("listening to the shards kept failed")
        return await self.follower.sync()

    async def follow_table(self, table_id: int) -> None:
        """Hold the table's running game, if another process keeps it (a Mini App page
        open here on the table: kept from then on, its steps heard)."""
        if self.game_of(table_id) is None:
            newest = await self._games.newest_at(table_id)
            if newest is not None:
                await self.catch_up(newest)

    async def catch_up(self, game_id: int) -> bool:
        """Load the game as the database has it, when another process may have moved it
        (or started it); False when it does not run (any more)."""
        return await self.follower.catch_up(game_id)
