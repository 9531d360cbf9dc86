"""Monte Carlo tree search over sampled deals: «Мастер»'s search (README).

Information-set MCTS (single observer: Cowling, Powley and Whitehouse 2012): one
tree of move sequences from the bot's view. Every iteration samples a deal that
agrees with the view, walks down the tree with the moves legal in that deal
(UCB1 over the iterations in which a move was available), adds one move, and
plays the rest out with the playout policy. The tree shares its statistics
across deals, so the bot's later moves are searched instead of being the
heuristic's. With ``opponents`` every seat's moves are nodes and each seat plays
for its team (opponents minimize the bot's result); without, the opponents play
the playout policy's move, as in flat PIMC, and only the bot team's moves are
searched. Moves of one signature (an equivalent card) share a node.

With ``mix`` the opponents do not all play like the playout policy: in each
iteration an opponent whose moves so far did not fit «Новичок»'s style
(``infer.reading``; its trust t) plays the iteration's moves and playout by
one of the ``mix`` policies with probability 1 - t, chosen at random. So the
search leans on one model of a player only as far as that model predicted
him; against «Новичок» itself (t = 1) nothing changes.

Compiled with the engine (``engine.build.BOTS``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from time import perf_counter

from ..actions import ACCUSE, BEAT, OPEN, THROW, TRANSFER, Action
from ..state import State
from ..view import View
from .heuristic import action_cost, decide
from .infer import reading
from .playout import Policy, playout
from .tracker import Tracker
from .world import sample_state

EXPLORE = 0.7  # UCB1's exploration constant, for results in [0, 1]

Signature = tuple[object, ...]


def signature(a: Action, trump: int) -> Signature:
    """What a move is, up to an equivalent card (the same rank, or beating the
    same card, trump or not)."""
    if not a.cards:
        return (a.kind,)
    has_trump = False
    for c in a.cards:
        if c & 3 == trump:
            has_trump = True
    if a.kind == OPEN:
        return (OPEN, a.cards[0] >> 2, has_trump, len(a.cards))
    if a.kind == BEAT:
        return (BEAT, a.target, has_trump)
    if a.kind == THROW:
        return (THROW, a.cards[0] >> 2, has_trump)
    if a.kind == TRANSFER:
        return (TRANSFER, 0, has_trump)
    return (a.kind, a.cards)


def signed(
    legal: Sequence[Action], trump: int, first: Action | None
) -> list[tuple[Signature, Action]]:
    """One move of each signature: ``first`` (the heuristic's move) leading and
    standing for its own, the cheapest for each other one."""
    best: dict[Signature, tuple[int, Action]] = {}
    for a in legal:
        if a.kind == ACCUSE:
            continue  # a sampled deal knows no cheats
        sig = signature(a, trump)
        cost = action_cost(a, trump)
        old = best.get(sig)
        if old is None or cost < old[0]:
            best[sig] = (cost, a)
    out: list[tuple[Signature, Action]] = []
    if first is not None:
        sig = signature(first, trump)
        best.pop(sig, None)
        out.append((sig, first))
    rest = sorted(best.items(), key=_order)
    for sig, (_, a) in rest:
        out.append((sig, a))
    return out


def _order(item: tuple[Signature, tuple[int, Action]]) -> tuple[int, str, tuple[int, ...]]:
    a = item[1][1]
    return (item[1][0], a.kind, a.cards)


class Node:
    def __init__(self) -> None:
        self.children: dict[Signature, Node] = {}
        self.visits = 0
        self.total = 0.0  # the bot team's results, summed
        self.available = 0  # iterations in which this move was legal


class Search:
    """One decision's tree over the root ``moves`` (the bot's candidates)."""

    def __init__(
        self,
        view: View,
        moves: list[Action],
        rng: random.Random,
        policy: Policy,
        *,
        max_steps: int,
        draw: float,
        opponents: bool = True,
        lacks: float = 1.0,
        mix: Sequence[Policy] = (),
    ) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        self.moves = moves
        self.rng = rng
        self.policy = policy
        self.max_steps = max_steps
        self.draw = draw
        self.opponents = opponents  # whether the opponents' moves are searched too
        self.tracker = tracker = Tracker.from_view(view)
        # What the other players' moves say they lack (``infer.py``; 1: nothing), and
        # how far each one's moves fitted the style they are read by.
        weights, self.fits = reading(view, tracker, lacks)
        self.lacking = None if tracker.certain else weights
        self.mix = list(mix)
        self.seats: list[Policy | None] | None = None  # this iteration's opponent models
        self.roots = [Node() for _ in moves]
        self.iterations = 0
        self.spent = 0  # actions simulated, in the tree and in the playouts

    def run(self, iterations: int, actions: int | None, deadline: float | None) -> list[int]:
        """Iterate until a limit is reached or the choice cannot change, but at
        least once per root move; each root move's visits (the most visited is
        the move)."""
        while self.iterations < iterations:
            self.step()
            if self.iterations < len(self.roots):
                continue
            if actions is not None and self.spent >= actions:
                break
            if deadline is not None and perf_counter() > deadline:
                break
            if self.settled(iterations, actions):
                break
        return [n.visits for n in self.roots]

    def settled(self, iterations: int, actions: int | None) -> bool:
        """Whether the most visited root move stays so for the iterations the
        budget has left (at the mean cost of one so far)."""
        done = self.iterations
        left = iterations - done
        if actions is not None:
            left = min(left, (actions - self.spent) * done // max(self.spent, 1) + 1)
        first = second = 0
        for n in self.roots:
            if n.visits > first:
                first, second = n.visits, first
            elif n.visits > second:
                second = n.visits
        return first - second > left

    def step(self) -> None:
        """One iteration: a sampled deal, a walk down the tree, one new node, a playout."""
        state = sample_state(self.view, self.tracker, self.rng, self.lacking)
        if self.mix:
            self.seats = self.models(state.partners[self.seat])
        base = len(state.history)
        for node in self.roots:
            node.available += 1
        i = pick(self.roots, True)
        path = [self.roots[i]]
        state.play(self.moves[i])
        value = self.descend(state, path)
        for node in path:
            node.visits += 1
            node.total += value
        self.iterations += 1
        self.spent += len(state.history) - base

    def models(self, team: int) -> list[Policy | None] | None:
        """Per seat, the policy that plays it this iteration (None: the playout
        policy): an opponent that does not fit «Новичок»'s style (trust t) gets one
        of ``mix`` with probability 1 - t; None when every seat plays the policy."""
        seats: list[Policy | None] | None = None
        for s, fit in enumerate(self.fits):
            if fit >= 1.0 or team >> s & 1 or self.rng.random() < fit:
                continue
            if seats is None:
                seats = [None] * len(self.fits)
            seats[s] = self.mix[self.rng.randrange(len(self.mix))]
        return seats

    def descend(self, state: State, path: list[Node]) -> float:
        """Walk down from ``path[-1]``, add one node, play out: the bot team's result."""
        team = state.partners[self.seat]
        trump = state.trump
        node = path[-1]
        while state.outcome is None:
            turn = state.turn()
            mover = -1
            legal: list[Action] = []
            if turn is not None:
                for s in turn.seats:
                    legal = state.legal_actions(s)
                    if legal:
                        mover = s
                        break
            if mover < 0:
                return self.draw
            if not self.opponents and not team >> mover & 1:
                model = None if self.seats is None else self.seats[mover]
                if model is not None:
                    move = model(state, mover)  # an opponent plays its model's move
                else:  # or the playout policy's
                    move = decide(
                        legal, state.hands[mover], trump, state.att, state.dfn, len(state.stock)
                    )
                assert move is not None
                state.play(move)
                continue
            first = decide(legal, state.hands[mover], trump, state.att, state.dfn, len(state.stock))
            pairs = signed(legal, trump, first)
            children = node.children
            nodes: list[Node] = []
            for sig, a in pairs:
                child = children.get(sig)
                if child is None:  # a move not tried here yet: add it, then play out
                    child = Node()
                    child.available = 1
                    children[sig] = child
                    path.append(child)
                    state.play(a)
                    return self.playout(state)
                child.available += 1
                nodes.append(child)
            j = pick(nodes, team >> mover & 1 == 1)
            node = nodes[j]
            path.append(node)
            state.play(pairs[j][1])
        return self.playout(state)

    def playout(self, state: State) -> float:
        """The rest played by the policy (a finished game graded at once)."""
        return playout(state, self.seat, self.max_steps, self.policy, self.draw, self.seats)


def pick(nodes: list[Node], maximize: bool) -> int:
    """UCB1 with availability counts; an unvisited node first."""
    best = 0
    best_score = -math.inf
    for j, n in enumerate(nodes):
        if n.visits == 0:
            return j
        mean = n.total / n.visits
        if not maximize:
            mean = 1.0 - mean
        score = mean + EXPLORE * math.sqrt(math.log(n.available) / n.visits)
        if score > best_score:
            best, best_score = j, score
    return best
