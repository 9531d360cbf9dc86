"""«Опытный» and «Мастер»: an exact endgame, else determinized Monte Carlo (PIMC).

When the seat's view leaves only one possible deal and two opponents are left
(with two players: once the stock is empty), ``endgame.Solver`` searches every
move to the end and the bot plays the best one; when every move loses against
the best defence, it plays the one that does best against the playout policy
(an opponent who may go wrong), found by its search. Otherwise the bot samples
deals that agree with everything its seat knows (``Tracker`` + ``world``; the
other players' moves read by ``infer``), plays
each candidate move out on every deal with the heuristic player for all seats,
and picks the move with the best mean result for its team. Every candidate is
tried on the same deals (common random numbers), so their scores differ by the move, not by luck.
Ties go to the move the heuristic prefers, so an equal trump is never wasted.
That is «Опытный»'s ``flat`` search; «Мастер» grows a tree over the same sampled
deals instead (``plan``, ``tree.py``), so its own later moves are searched too.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from time import perf_counter

from ..actions import ACCUSE, Action
from ..view import View
from .endgame import LOSS, Solver, known_world
from .heuristic import action_cost, catch_cheat, decide, must_act, view_table
from .infer import lacking as lacking_cards
from .playout import POLICIES, Policy, playout
from .tracker import Tracker
from .tree import Search, signature
from .world import sample_state

# The playouts live in a compiled module; re-exported here for the benchmarks.
__all__ = ["POLICIES", "SEARCHES", "Budget", "MonteCarloBot", "Policy", "candidates", "playout"]

PRUNE_AFTER = 6  # sampled deals before a clearly worse move is dropped
LACKS = 0.05  # ``Budget.lacks``: 1 reads nothing from the other players' moves (infer.py)


@dataclass(frozen=True, kw_only=True)
class Budget:
    """How much thinking one decision may take.

    ``worlds`` caps the sampled deals; ``actions`` caps the actions simulated in
    all playouts together, a measure of work that does not depend on the machine;
    ``seconds`` caps the wall clock, a safety net for a loaded machine. Each is
    checked after every deal (at least one deal is always played). A decision
    depends only on the view and the seed unless the clock is what stopped it.
    ``endgame`` caps the moves the exact endgame search may play (0: no search);
    they count as simulated actions, and a search that runs out of them leaves
    the decision to sampling.
    """

    worlds: int = 200
    actions: int | None = None
    seconds: float | None = 0.5
    endgame: int = 0
    max_steps: int = 1500  # a playout longer than this counts as a draw
    draw: float = 0.5  # a draw's worth (nobody is the fool; a win is 1), bar the exact search
    policy: str = "novice"  # the playout policy, a key of ``POLICIES``
    lacks: float = LACKS  # a hidden card's weight where its holder's moves say it lacks it
    search: str = "flat"  # a key of ``SEARCHES``
    # The tree's models of an opponent whose moves do not fit «Новичок»'s style (keys of
    # ``POLICIES``, one picked at random per iteration; ``tree.Search``). Empty: none.
    mix: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 0 < self.lacks <= 1:
            raise ValueError(f"lacks is a weight in (0, 1], not {self.lacks}")
        for name in (self.policy, *self.mix):
            if name not in POLICIES:
                raise ValueError(f"a policy is one of {', '.join(POLICIES)}, not {name!r}")

    def scaled(self, share: float, least: int = 0) -> Budget:
        """This budget with ``share`` (at most 1) of its actions, but no fewer than
        ``least``. The exact endgame and the clock keep theirs."""
        assert share > 0, share
        if share >= 1 or self.actions is None:
            return self
        return replace(self, actions=min(self.actions, max(least, round(self.actions * share))))


# The searches outside the exact endgame: every candidate played out on every deal;
# a tree of every seat's moves (ISMCTS, ``tree.py``); a tree of the bot team's own
# moves, the opponents playing the playout policy.
SEARCHES = ("flat", "tree", "plan")


def candidates(view: View) -> list[Action]:
    """The legal moves worth simulating, the heuristic's choice first.

    Of moves that differ only by an equivalent card (the same rank, or beating
    the same card, trump or not) only the cheapest is kept.
    """
    trump = view.trump
    best: dict[tuple[object, ...], Action] = {}
    for a in view.legal:
        if a.kind == ACCUSE:
            continue  # a sampled deal knows no cheats: accusations follow ``catch_cheat``
        sig = signature(a, trump)
        old = best.get(sig)
        if old is None or action_cost(a, trump) < action_cost(old, trump):
            best[sig] = a
    att, dfn = view_table(view)
    hand = sum(1 << c for c in view.hand)
    first = decide(view.legal, hand, trump, att, dfn, view.stock_size)
    rest = sorted(
        (a for a in best.values() if a != first),
        key=lambda a: (action_cost(a, trump), a.kind, a.cards),
    )
    return ([first] if first is not None else []) + rest


class MonteCarloBot:
    """A PIMC player; ``name`` is what the lobby shows."""

    def __init__(self, name: str, budget: Budget, seed: int = 0) -> None:
        if budget.search not in SEARCHES:
            raise ValueError(f"search is one of {', '.join(SEARCHES)}, not {budget.search!r}")
        self.name = name
        self.budget = budget
        self.seed = seed
        self.last_worlds = 0  # deals simulated for the last decision (0: no simulation)
        self.last_actions = 0  # actions simulated for the last decision

    def choose(self, view: View) -> Action | None:
        self.last_worlds = self.last_actions = 0
        if not must_act(view):
            return None
        caught = catch_cheat(view)
        if caught is not None:
            return caught
        moves = candidates(view)
        if len(moves) <= 1:
            return moves[0] if moves else None
        start = perf_counter()
        exact = self.solve(view, moves, start)
        if exact is not None:
            return exact
        evaluate = self.evaluate if self.budget.search == "flat" else self.search
        scores = evaluate(view, moves, start)
        return moves[scores.index(max(scores))]  # the first of the best: the heuristic's order

    def solve(self, view: View, moves: list[Action], start: float) -> Action | None:
        """The best move by exact search when the view leaves one possible deal (if
        every move loses, the one the sampling search likes best); None when the view
        leaves several deals, or the exact search ran out of its budget."""
        budget = self.budget
        if not budget.endgame:
            return None
        state = known_world(view)
        if state is None:
            return None
        assert view.seat is not None
        # Every legal move, not only the candidates: equivalent-looking cards differ
        # later. Ties go to the heuristic's order of the candidates, then the cheapest.
        trump = view.trump
        rest = sorted(
            (a for a in view.legal if a.kind != ACCUSE and a not in moves),
            key=lambda a: (action_cost(a, trump), a.kind, a.cards),
        )
        actions = moves + rest
        deadline = None if budget.seconds is None else start + budget.seconds
        # A win always ranks above a draw here, even where the budget counts a draw
        # as good as a win: when all is known, nothing is risked by preferring it.
        solver = Solver(state.partners[view.seat], budget.endgame, deadline=deadline)
        found = solver.best(state, actions)
        self.last_actions = solver.spent
        if found is None:
            return None
        if found[1] == LOSS:
            # Lost against the best defence whatever it does: the move that does best
            # against the playout policy's opponent, who may well go wrong.
            evaluate = self.evaluate if budget.search == "flat" else self.search
            scores = evaluate(view, moves, start)
            return moves[scores.index(max(scores))]
        return actions[found[0]]

    def search(self, view: View, moves: list[Action], start: float) -> list[float]:
        """Each move's visits in a tree (``tree.Search``), the opponents' moves
        searched too (``tree``) or the playout policy's (``plan``)."""
        budget = self.budget
        assert view.seat is not None
        rng = random.Random(f"{self.seed}:{view.seat}:{len(view.history)}")
        tree = Search(
            view,
            moves,
            rng,
            POLICIES[budget.policy],
            max_steps=budget.max_steps,
            draw=budget.draw,
            opponents=budget.search == "tree",
            lacks=budget.lacks,
            mix=[POLICIES[name] for name in budget.mix],
        )
        actions = None if budget.actions is None else budget.actions - self.last_actions
        deadline = None if budget.seconds is None else start + budget.seconds
        visits = tree.run(budget.worlds * len(moves), actions, deadline)
        self.last_worlds = tree.iterations
        self.last_actions += tree.spent
        return [float(v) for v in visits]

    def evaluate(self, view: View, moves: list[Action], start: float | None = None) -> list[float]:
        """Each move's mean score over the sampled deals (1 a win, 0.5 a draw, 0 the fool).

        Moves far behind the best (by more than about two standard deviations of
        a paired difference) stop being simulated and keep a score of -1, so the
        budget goes to the moves still in contention.
        """
        assert view.seat is not None
        seat, budget = view.seat, self.budget
        start = perf_counter() if start is None else start
        tracker = Tracker.from_view(view)
        # Seeded by the decision alone: the same view and seed give the same move.
        rng = random.Random(f"{self.seed}:{seat}:{len(view.history)}")
        worlds = 1 if tracker.certain else budget.worlds  # one possible deal says all
        lacking = None if tracker.certain else lacking_cards(view, tracker, budget.lacks)
        policy = POLICIES[budget.policy]
        sums = [0.0] * len(moves)
        alive = list(range(len(moves)))
        spent = self.last_actions  # actions simulated, an exact search's included
        for w in range(1, worlds + 1):
            state = sample_state(view, tracker, rng, lacking)
            base = len(state.history)
            for i in alive:
                s = state.copy()
                s.apply(moves[i])
                sums[i] += playout(s, seat, budget.max_steps, policy, budget.draw)
                spent += len(s.history) - base
            self.last_worlds = w
            self.last_actions = spent
            if w >= PRUNE_AFTER and len(alive) > 1:
                top = max(sums[i] for i in alive)
                alive = [i for i in alive if top - sums[i] <= 2 * math.sqrt(w)]
            if (
                len(alive) == 1
                or (budget.actions is not None and spent >= budget.actions)
                or (budget.seconds is not None and perf_counter() - start > budget.seconds)
            ):
                break
        return [sums[i] / self.last_worlds if i in alive else -1.0 for i in range(len(moves))]
