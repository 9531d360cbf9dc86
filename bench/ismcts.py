"""The search yardstick: single-observer information-set MCTS in plain Python (issue 41).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE
TCIAIG 2012), the single-observer variant (SO-ISMCTS). Not a lobby level: a plain
search player that «Мастер» is measured against, with nothing of «Мастер»'s own
(no exact endgame, no reading of moves, no «Новичок»-like playouts).

- **One tree over the deciding seat's information sets.** Every move in Durak is
  public (each card is shown when played), so a sequence of moves from the view
  names one information set of the seat; a node is such a sequence, and every
  seat's moves are nodes, each seat choosing for its own result.
- **A new determinization every iteration**: the cards the seat cannot see are
  dealt uniformly at random to the other hands and the stock, every known card and
  hand size kept (``engine.bots.tracker``, ``engine.bots.world``; nothing read from
  how the others played).
- **UCB1 with availability counts**: a move's exploration term counts the
  iterations in which it was legal in the sampled deal, not its parent's visits.
  A node with a move never tried in this deal adds one at random, then plays out.
- **Playouts** play the lowest card for every seat (plain cards by rank, then
  trumps), a word («Беру», «Бито», «Пас») only with no card to play.
- A seat's result: 1 when it is not the fool, ½ for a draw, 0 for the fool.
- **The budget**: CPU seconds per decision (``time.process_time``) and an
  iteration cap; the most visited first move is played. A seeded ``random.Random``
  per decision: with the clock off the move depends on the view, the seed and
  the cap alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import process_time

from engine import Action, State, View
from engine.actions import ACCUSE
from engine.bots.tracker import Tracker
from engine.bots.world import sample_state
from engine.events import Outcome

EXPLORE = 0.7  # UCB1's exploration constant for results in [0, 1] (the paper's choice)
MAX_STEPS = 1500  # a playout longer than this is scored as a draw (never seen)
TRUMP_BONUS = 13  # every trump ranks above every plain card


@dataclass(frozen=True, kw_only=True)
class Allowance:
    """What one decision may spend: ``seconds`` of CPU (None: no clock) and at most
    ``iterations`` iterations; at least one iteration is always made."""

    seconds: float | None = 0.2
    iterations: int = 100_000
    explore: float = EXPLORE

    def __post_init__(self) -> None:
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be positive or None, not {self.seconds}")
        if self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")


class Node:
    """One move from its parent's information set, with the mover's statistics."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat that made the move leading here
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0  # the mover's results, summed
        self.available = 0  # iterations in which this move was legal at its parent


class IsmctsPlayer:
    """SO-ISMCTS on a seat's view; plugs into ``engine.players.Player``."""

    name = "ISMCTS"

    def __init__(
        self,
        seed: int = 0,
        allowance: Allowance | None = None,
        *,
        clock: Callable[[], float] = process_time,
    ) -> None:
        self.seed = seed
        self.allowance = allowance or Allowance()
        self.clock = clock
        self.last_iterations = 0  # iterations of the last searched decision

    def choose(self, view: View) -> Action | None:
        self.last_iterations = 0
        turn = view.turn
        if turn is None or view.seat not in turn.seats:
            return None
        moves = [a for a in view.legal if a.kind != ACCUSE]
        if len(moves) <= 1:
            return moves[0] if moves else None
        start = self.clock()
        # Seeded by the decision alone: the same view, seed and cap give the same move.
        rng = random.Random(f"ismcts:{self.seed}:{view.seat}:{len(view.history)}")
        search = Search(view, moves, rng, self.allowance.explore)
        limit = self.allowance.seconds
        while search.iterations < self.allowance.iterations:
            search.iterate()
            if limit is not None and self.clock() - start >= limit:
                break
        self.last_iterations = search.iterations
        return search.best()


class Search:
    """One decision's tree, rooted at the view's information set."""

    def __init__(self, view: View, moves: Sequence[Action], rng: random.Random, explore: float):
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        self.moves = list(moves)
        self.rng = rng
        self.explore = explore
        self.tracker = Tracker.from_view(view)
        self.root = Node(-1)
        self.iterations = 0

    def determinize(self) -> State:
        """A deal drawn uniformly from those the seat's view allows."""
        return sample_state(self.view, self.tracker, self.rng)

    def iterate(self) -> None:
        """Select down the tree in a fresh determinization, expand one move, play
        out, and credit every node on the way (availability to every legal sibling)."""
        state = self.determinize()
        node = self.root
        path: list[Node] = []
        offered: list[list[Node]] = []  # per level: the children legal in this deal
        mover, legal = self.seat, self.moves  # the root is the seat's own decision
        while True:
            children = node.children
            present = [children[a] for a in legal if a in children]
            untried = [a for a in legal if a not in children]
            if untried:
                move = untried[0] if len(untried) == 1 else self.rng.choice(untried)
                child = Node(mover)
                children[move] = child
                present.append(child)
                offered.append(present)
                path.append(child)
                state.play(move)
                break
            child, move = self.select(present, legal)
            offered.append(present)
            path.append(child)
            state.play(move)
            node = child
            if state.outcome is not None:
                break
            mover, legal = to_move(state)
            if mover < 0:
                break
        results = playout(state)
        for child in path:
            child.visits += 1
            child.total += results[child.mover]
        for siblings in offered:
            for sibling in siblings:
                sibling.available += 1
        self.iterations += 1

    def select(self, present: list[Node], legal: Sequence[Action]) -> tuple[Node, Action]:
        """UCB1 over the moves legal in this deal, each from its mover's side
        (``present`` is in the order of ``legal``; every one has been visited)."""
        best = 0
        top = -math.inf
        c = self.explore
        for i, n in enumerate(present):
            score = n.total / n.visits + c * math.sqrt(math.log(n.available) / n.visits)
            if score > top:
                best, top = i, score
        return present[best], legal[best]

    def best(self) -> Action:
        """The most visited first move (ties: the better mean, then the view's order)."""
        top: tuple[int, float] | None = None
        choice = self.moves[0]
        for a in self.moves:
            n = self.root.children.get(a)
            if n is None:
                continue
            key = (n.visits, n.total / n.visits)
            if top is None or key > top:
                top, choice = key, a
        return choice


def to_move(state: State) -> tuple[int, list[Action]]:
    """The seat the game waits for and its moves (several throwers: clockwise from
    the attacker, the first with a move, as ``engine.bots.arena`` asks them); -1
    when nobody can move."""
    turn = state.turn()
    if turn is None:
        return -1, []
    seats = turn.seats
    if len(seats) > 1:
        n, attacker = state.n, state.attacker
        seats = tuple(sorted(seats, key=lambda s: (s - attacker) % n))
    for s in seats:
        legal = [a for a in state.legal_actions(s) if a.kind != ACCUSE]
        if legal:
            return s, legal
    return -1, []


def lowest_card(legal: Sequence[Action], trump: int) -> Action:
    """The move with the lowest card (plain cards by rank, then trumps; the fewest
    cards among equals); a word only when no move plays a card."""
    best: Action | None = None
    top = (0, 0)
    for a in legal:
        if not a.cards:
            continue
        worth = max((c >> 2) + (TRUMP_BONUS if c & 3 == trump else 0) for c in a.cards)
        key = (worth, len(a.cards))
        if best is None or key < top:
            best, top = a, key
    return best if best is not None else legal[0]


def playout(state: State) -> list[float]:
    """Play to the end with the lowest-card policy for every seat; each seat's result."""
    steps = 0
    trump = state.trump
    while state.outcome is None:
        mover, legal = to_move(state)
        if mover < 0 or steps >= MAX_STEPS:
            return [0.5] * state.n
        state.play(lowest_card(legal, trump))
        steps += 1
    return results(state.outcome, state.n)


def results(outcome: Outcome, n: int) -> list[float]:
    """Per seat: 1 out of the game in time, ½ for a draw, 0 for a fool."""
    if outcome.draw:
        return [0.5] * n
    fools = set(outcome.fools)
    return [0.0 if s in fools else 1.0 for s in range(n)]
