"""Computer players' moves: each one a step of its own, in a task per game.

After every step the game's task looks for a computer seat (a bot, or the
stand-in of an idle person) with a move to make, has it decided outside the
game's lock against the version it saw, and makes it only if the game is
still at that version; otherwise it decides again. Moves come one at a time,
``pause`` seconds apart, so that a table reads like a game; the words «Бито»
and «Пас» are not paced (they show no card and would only hold the bout up).

A person is never asked for a word that is forced: a thrower whose only
possible move is «Бито» or «Пас» (nothing of a rank on the table, or no room
left) says it at once, as an automatic move; a new card on the table asks
them again (RULES §4).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from engine import Action, State, View
from engine.actions import DONE, PASS
from engine.bots import make_bot
from engine.players import Player
from storage.repos import Seat

from .live import LiveGame
from .logctx import log_scope
from .registry import LiveGames
from .thinking import Thinker, ThinkingFailed

# (game, live, version, action, auto): the move made if the game is still at that version
Step = Callable[[int, LiveGame, int, Action, bool], Awaitable[bool]]

log = logging.getLogger(__name__)

MAX_FAILURES = 5  # steps in a row that raised; then the move's timer takes over


class Autoplay:
    def __init__(
        self,
        games: LiveGames,
        step: Step,
        thinker: Thinker | None,
        player_for: Callable[[Seat], Player],
        pause: tuple[float, float],
    ) -> None:
        self._held = games
        self._step = step
        self.thinker = thinker
        self.player_for = player_for
        self.pause = pause
        self.decisions = 0  # computer decisions asked for
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._rng = random.Random()  # for the pauses only
        self._stopped = False

    def kick(self, game_id: int) -> None:
        """The game moved: let its computer players look whether it is their turn."""
        if game_id not in self._tasks and not self._stopped:
            self._tasks[game_id] = asyncio.create_task(
                self._run(game_id), name=f"autoplay-{game_id}"
            )

    async def idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def stop(self) -> None:
        """No computer player moves from now on (a late press does not wake them)."""
        self._stopped = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.thinker is not None:
            self.thinker.close()

    async def _run(self, game_id: int) -> None:
        failures = 0
        try:
            while True:
                live = self._held.live(game_id)
                if live is None or live.state.is_over:
                    return
                version = len(live.state.history)
                with log_scope(table=live.table_id, game=game_id):
                    try:
                        moved = await self._move(game_id, live, version)
                        failures = 0
                    except Exception:
                        failures += 1
                        log.exception("computer move at version %s failed", version)
                        if failures >= MAX_FAILURES:
                            return
                        await asyncio.sleep(min(30.0, 0.5 * 2**failures))
                        continue
                unchanged = len(live.state.history) == version
                if not moved and unchanged and self._held.holds(game_id, live):
                    return  # a person must act now
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _move(self, game_id: int, live: LiveGame, version: int) -> bool:
        """Decide and make one computer move; False if none was made."""
        choice = await self._choose(live)
        if choice is None:
            return False
        action, auto = choice
        if action.kind not in (DONE, PASS):
            loop = asyncio.get_running_loop()
            wait = live.moved_at + self._rng.uniform(*self.pause) - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
        return await self._step(game_id, live, version, action, auto)

    async def _choose(self, live: LiveGame) -> tuple[Action, bool] | None:
        """The first automatic move: a person's forced word, else a computer seat's
        move (those the game waits for first)."""
        state = live.state
        turn = state.turn()
        waiting = turn.seats if turn else ()
        for seat in [*waiting, *(s for s in range(state.n) if s not in waiting)]:
            info = live.seats[seat]
            bot = not info.human
            if state.place[seat]:
                continue
            if not (bot or state.idle(seat)):
                word = forced_word(state, seat)
                if word is not None:
                    return word, True
                continue
            view = state.view(seat)
            if not view.legal:
                continue
            action = await self._decide(info, view, live.bots_seed)
            if action is not None:
                return action, not bot
        return None

    async def _decide(self, info: Seat, view: View, seed: int) -> Action | None:
        self.decisions += 1
        level = info.level or "novice"
        if self.thinker is None or level == "novice":  # «Новичок» takes microseconds
            return self.player_for(info).choose(view)
        try:
            return await self.thinker.decide(level, view, seed)
        except ThinkingFailed:
            log.error("no worker could decide for seat %s: «Новичок» moves instead", view.seat)
            return make_bot("novice").choose(view)


def forced_word(state: State, seat: int) -> Action | None:
    """«Бито» or «Пас» when it is the only move ``seat`` has (accusations of the
    cheating rule are a choice, so they keep the word the player's own)."""
    legal = state.legal_actions(seat)
    if len(legal) == 1 and legal[0].kind in (DONE, PASS):
        return legal[0]
    return None
