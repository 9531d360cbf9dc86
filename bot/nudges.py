"""The turn notification: edits notify nobody, so when a person's attack or defence has
waited ``delay`` seconds, a short new message tells them («⏰ Ваш ход — отбивайтесь.
Осталось 25 с.»); it is deleted once they have moved (or the turn is no longer
theirs). One per turn at most; none for throw-ins, none for a seat a bot plays for.
The wait counts once their hand shows the turn: a hand late in a busy outbox would
have its notice (and the notice's deletion) queued behind it, for nothing. A person who
made a move of their own in the last ``ACTIVE`` seconds is watching their hand: their
notice waits ``WATCHING`` times as long, so a quick exchange of moves buzzes nobody's
phone at every turn (nor, under load, one whose press Telegram has yet to deliver)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from engine import State
from service import Clock, Games

from .i18n import t
from .outbox import Outbox, Rendered
from .outgoing import Posted

log = logging.getLogger(__name__)
DELAY = 5.0  # seconds a turn waits before its player is notified
ACTIVE, WATCHING = 30.0, 3  # see above

Turn = tuple[int, str, int]  # (the bout, "attack" or "defend", the seat's moves so far)


@dataclass(eq=False)
class _Nudge:
    turn: Turn
    timer: asyncio.TimerHandle | None = None
    held: int | None = None  # the seat, while the wait waits for the hand to show the turn
    sent: asyncio.Future[Posted | None] | None = None


def waiting_turn(state: State, seat: int) -> Turn | None:
    """The turn the game waits for ``seat`` to attack or defend in, if it does: a new
    one after each of the seat's own moves."""
    turn = state.turn()
    if turn is None or seat not in turn.seats or turn.kind not in ("attack", "defend"):
        return None
    if state.idle(seat):
        return None  # the stand-in moves for them
    return state.bouts, turn.kind, sum(a.seat == seat for a in state.history)


class Nudges:
    def __init__(
        self,
        games: Games,
        clock: Clock,
        outbox: Outbox,
        lang: Callable[[int, int], str],
        blocked: Callable[[int], bool],
        delivered: Callable[[int, int], bool],
    ) -> None:
        """``lang(game, user)``: the language of the user's hand; ``blocked(user)``:
        whether the user cannot be written to privately (no notice is sent to them);
        ``delivered(game, user)``: whether their hand as it is now has reached them."""
        self.games, self.clock = games, clock
        self.outbox, self.lang, self.blocked = outbox, lang, blocked
        self.delivered = delivered
        self.delay = DELAY
        self._shown: dict[tuple[int, int], _Nudge] = {}  # (game, user) -> their turn's
        self._moved: dict[int, float] = {}  # user -> when they last moved (the loop's time)
        self._forget_at = 4096
        self._closed = False

    def moved(self, user: int) -> None:
        """The user made a move themselves (not their stand-in, nor their timer)."""
        now = asyncio.get_running_loop().time()
        if len(self._moved) >= self._forget_at:  # forget those who have not moved lately
            self._moved = {u: t for u, t in self._moved.items() if now - t < ACTIVE}
            self._forget_at = max(4096, 2 * len(self._moved))
        self._moved[user] = now

    def _wait(self, user: int) -> float:
        last = self._moved.get(user)
        watching = last is not None and asyncio.get_running_loop().time() - last < ACTIVE
        return self.delay * WATCHING if watching else self.delay

    def update(self, game_id: int) -> None:
        """After a commit: start the wait for each person the game now waits for, and
        take back the notices of those who have moved."""
        live = None if self._closed else self.games.live(game_id)
        users = [(s, i.user_id) for s, i in enumerate(live.seats) if i.human] if live else []
        for seat, user in users:
            if user is None or self.blocked(user):
                continue
            assert live is not None
            turn = None if live.state.is_over else waiting_turn(live.state, seat)
            key = (game_id, user)
            nudge = self._shown.get(key)
            if nudge is not None and nudge.turn == turn:
                continue  # the same turn: its timer runs on, or its notice stays
            if nudge is not None:
                self._take_back(key)
            if turn is not None:
                loop = asyncio.get_running_loop()
                new = self._shown[key] = _Nudge(turn)
                new.timer = loop.call_later(self._wait(user), self._send, game_id, user, seat, new)

    def hand_shown(self, game_id: int, user: int) -> None:
        """The user's hand has reached them: a wait held for it starts now."""
        nudge = self._shown.get((game_id, user))
        if nudge is not None and nudge.held is not None and self.delivered(game_id, user):
            seat, nudge.held = nudge.held, None
            loop = asyncio.get_running_loop()
            nudge.timer = loop.call_later(self._wait(user), self._send, game_id, user, seat, nudge)

    def forget(self, game_id: int) -> None:
        for key in [k for k in self._shown if k[0] == game_id]:
            self._take_back(key)

    def close(self) -> None:
        """At shutdown: no notice is sent from now on, and those shown are taken back
        (the next process knows nothing of them)."""
        self._closed = True
        for key in list(self._shown):
            self._take_back(key)

    def _send(self, game_id: int, user: int, seat: int, nudge: _Nudge) -> None:
        nudge.timer = None
        if not self.delivered(game_id, user):  # the wait starts when the hand shows it
            nudge.held = seat
            return

        def render() -> Rendered | None:
            live = self.games.live(game_id)
            if self._shown.get((game_id, user)) is not nudge or live is None:
                return None  # they moved while it waited for its slot
            deadline = self.games.deadline(game_id)
            left = 0 if deadline is None else max(0, round(deadline - self.clock.now()))
            key = "hand.nudge_attack" if nudge.turn[1] == "attack" else "hand.nudge_defend"
            return t(self.lang(game_id, user), key, n=left), None

        nudge.sent = self.outbox.show(user, None, render)
        nudge.sent.add_done_callback(lambda _: self._sent(game_id, user, nudge))

    def _sent(self, game_id: int, user: int, nudge: _Nudge) -> None:
        if self._shown.get((game_id, user)) is not nudge:
            self._delete(user, nudge)  # they moved while it was being sent

    def _take_back(self, key: tuple[int, int]) -> None:
        nudge = self._shown.pop(key)
        if nudge.timer is not None:
            nudge.timer.cancel()
        elif nudge.sent is not None and nudge.sent.done():
            self._delete(key[1], nudge)
        # else: still on its way; ``_sent`` deletes it when it is there

    def _delete(self, user: int, nudge: _Nudge) -> None:
        """Once: a move can take the notice back after Telegram answered its sending
        and before ``_sent`` learns of it, and then both would delete it."""
        future, nudge.sent = nudge.sent, None
        sent = future.result() if future and future.done() and not future.cancelled() else None
        if sent is not None:
            self.outbox.delete(user, sent.message_id)
