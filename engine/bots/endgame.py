"""The exact endgame: alpha-beta over every remaining move once nothing is hidden.

With two players left and at most the face-up trump card in the stock, each
knows the other's hand by counting, so the game is one of full information.
``Solver`` searches it to the end with the engine's own moves (``State.copy`` +
``State.play``), so it plays by exactly the table's rules, and grades outcomes for one team: a win
(2), a draw (1) or being the fool (0). A transposition table keyed on the
hands, the table and the bout's state keeps each position solved once; the
heuristic's move is tried first so that cut-offs come early.

The search is bounded by ``nodes`` (moves played); past it ``solve`` gives
up (``None``) and the caller falls back to sampling, so the exact endgame can
never take more than its share of the budget.

As in the arena and the game service, a thrower adds cards only when the game
waits for it (everything beaten, or after «Беру»), not while the defender is
still defending.
"""

from __future__ import annotations

import random
from time import perf_counter

from ..actions import ACCUSE, Action
from ..state import State
from ..view import View
from .heuristic import state_policy
from .tracker import Tracker
from .world import sample_state

LOSS, DRAW, WIN = 0, 1, 2
MAX_DEPTH = 300  # moves deep; a deeper line gives up (Python's stack is ~1000 frames)
Key = tuple[object, ...]


class OutOfNodes(Exception):
    """The search hit its node limit."""


def solvable(state: State) -> bool:
    """True when the exact search applies: no cheats can be made and exactly two
    opponents still hold cards. The stock may hold cards whose order is known
    (with two players: only the face-up trump card, or the cards a seat can count)."""
    if state.cheating or state.outcome is not None:
        return False
    active = [s for s in range(state.n) if not state.place[s]]
    return len(active) == 2 and not state.partners[active[0]] >> active[1] & 1


def known_world(view: View) -> State | None:
    """The one deal a seat's view allows, ready to search, if the exact search applies."""
    tracker = Tracker.from_view(view)
    if not tracker.certain:
        return None
    state = sample_state(view, tracker, random.Random(0))  # any generator: one deal
    if not solvable(state):
        return None
    state.history = []  # not needed, and copied at every node otherwise
    state.auto = []
    return state


def grade(state: State, team: int) -> int:
    """The value of a finished game for ``team`` (a mask of seats)."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.draw:
        return DRAW
    return LOSS if any(team >> s & 1 for s in outcome.fools) else WIN


def key(state: State) -> Key:
    """Everything the rest of a stock-less game depends on."""
    return (
        tuple(state.hands),
        tuple(sorted(zip(state.att, state.dfn, strict=True))),
        state.attacker,
        state.defender,
        state.limit,
        state.cap,
        state.taking,
        state.said,
        state.throwers,
        state.spoke,
        state.token,
        state.shows,
        state.bouts == 0,
        len(state.stock),  # the stock's order is known: its size says what is left
        state.opener,  # who draws first
    )


def moves(state: State, seat: int) -> list[Action]:
    """The seat's moves, the heuristic's choice first."""
    legal = [a for a in state.legal_actions(seat) if a.kind != ACCUSE]
    first = state_policy(state, seat)
    if first is not None and first in legal and legal[0] != first:
        legal.remove(first)
        legal.insert(0, first)
    return legal


class Solver:
    """Exact values for ``team`` (a mask of seats), sharing one transposition table
    across calls on positions of one game."""

    def __init__(self, team: int, nodes: int, *, deadline: float | None = None) -> None:
        self.team = team
        self.nodes = nodes  # moves the search may play in all
        self.deadline = deadline  # perf_counter() time past which it gives up (a safety net)
        self.spent = 0  # moves played so far
        self.table: dict[Key, tuple[int, int]] = {}  # position -> (lower, upper) bound

    def solve(self, state: State) -> int | None:
        """The exact value of ``state``, or None when the node limit ran out."""
        try:
            return self._search(state, LOSS, WIN, 0)
        except OutOfNodes:
            return None

    def best(self, state: State, actions: list[Action]) -> tuple[int, int] | None:
        """(index, value) of the first action of greatest value, or None when the
        limit ran out. Each later action is only asked whether it does better."""
        top, value = 0, -1
        try:
            for i, action in enumerate(actions):
                child = state.copy()
                child.play(action)
                v = self._search(child, max(value, LOSS), WIN, 1)
                if v > value:
                    top, value = i, v
                    if v == WIN:
                        break
        except OutOfNodes:
            return None
        return top, value

    def values(self, state: State, actions: list[Action]) -> list[int] | None:
        """The exact value of each action in ``state``, or None when the limit ran out."""
        out = []
        for action in actions:
            child = state.copy()
            child.play(action)
            value = self.solve(child)
            if value is None:
                return None
            out.append(value)
        return out

    def _search(self, state: State, alpha: int, beta: int, depth: int) -> int:
        if state.outcome is not None:
            return grade(state, self.team)
        if depth > MAX_DEPTH:
            raise OutOfNodes
        k = key(state)
        lo, hi = self.table.get(k, (LOSS, WIN))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        low, high = max(alpha, lo), min(beta, hi)  # the window searched
        a, b = low, high
        turn = state.turn()
        assert turn is not None and turn.seats
        seat = turn.seats[0]
        maximize = bool(self.team >> seat & 1)
        best = LOSS if maximize else WIN
        for action in moves(state, seat):
            if self.spent >= self.nodes:
                raise OutOfNodes
            self.spent += 1
            if not self.spent & 1023 and self.deadline and perf_counter() > self.deadline:
                raise OutOfNodes
            child = state.copy()
            child.play(action)
            value = self._search(child, a, b, depth + 1)
            if maximize:
                if value > best:
                    best = value
                    a = max(a, value)
            elif value < best:
                best = value
                b = min(b, value)
            if a >= b:
                break
        # Fail-soft bounds: a cut-off proves only one side of the value.
        if best <= low:
            hi = min(hi, best)
        elif best >= high:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[k] = (lo, hi)
        return best
