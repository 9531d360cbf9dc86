"""A rule-based player of club strength: the yardstick the bots are measured against.

Not a lobby level. It plays by the rules of thumb of experienced players and
counts cards (``engine.bots.tracker``): it opens with its lowest plain rank,
pairs of low cards together, and once the stock is gone with a card nobody can
beat; it keeps its trumps and high cards while the stock is long, takes a low
card rather than spend a high trump on it early, and beats whatever it can once
the stock is short; it transfers with a plain card; it throws in every plain
card that fits, and anything the defender cannot beat once the stock is gone; it
solves small endgames exactly when it can count every card.
"""

from __future__ import annotations

from engine import Action, View
from engine.actions import ACCUSE, BEAT, DONE, OPEN, PASS, TAKE, THROW, TRANSFER
from engine.bots.endgame import Solver, known_world
from engine.bots.heuristic import cost
from engine.bots.novice import NoviceBot
from engine.bots.tracker import Tracker
from engine.cards import BEAT_MASKS

ENDGAME_NODES = 20_000  # moves of exact search it may try
LONG_STOCK = 8  # more cards than this in the stock: keep the trumps
HIGH = 10  # rank index of Q: a high card
LOW = 8  # rank index of 10: a low card, up to this one


class ClubPlayer(NoviceBot):
    """Decides from its view alone, deterministically."""

    name = "club"

    def decide(self, view: View) -> Action | None:
        legal = [a for a in view.legal if a.kind != ACCUSE]
        if len(legal) <= 1:
            return legal[0] if legal else None
        exact = solved(view, legal)
        if exact is not None:
            return exact
        tracker = Tracker.from_view(view)
        kind = legal[0].kind
        if kind == OPEN:
            return self.open(view, tracker, legal)
        if kind in (BEAT, TRANSFER, TAKE):
            return self.defend(view, legal)
        return self.throw(view, tracker, legal)

    def open(self, view: View, tracker: Tracker, legal: list[Action]) -> Action:
        trump = view.trump
        if view.stock_size == 0:
            safe = [a for a in legal if unbeatable(view, tracker, a)]
            if safe:
                return min(safe, key=lambda a: (-len(a.cards), cost(a.cards[0], trump)))

        def score(a: Action) -> tuple[int, int]:
            c = a.cards[0]
            plain = all(x & 3 != trump for x in a.cards)
            bonus = 2 * (len(a.cards) - 1) if c >> 2 <= LOW else 0
            return (0 if plain else 1, cost(c, trump) - bonus)

        # Plain cards first, low ones, low pairs together.
        return min(legal, key=lambda a: (score(a), -len(a.cards)))

    def defend(self, view: View, legal: list[Action]) -> Action:
        trump = view.trump
        take = next((a for a in legal if a.kind == TAKE), None)
        transfers = [a for a in legal if a.kind == TRANSFER and a.cards[0] & 3 != trump]
        if transfers and (view.stock_size > 0 or len(transfers) == len(view.hand)):
            return min(transfers, key=lambda a: cost(a.cards[0], trump))
        plan = cover(view, legal)
        if plan is None:
            return take if take is not None else legal[0]
        if take is not None and view.stock_size > LONG_STOCK:
            trumps = [b for b in plan if b.cards[0] & 3 == trump]
            high = [b for b in trumps if b.cards[0] >> 2 >= HIGH]
            low_table = all(a >> 2 <= LOW and a & 3 != trump for a, _ in view.table)
            if low_table and (high or len(trumps) >= 2):
                return take
        return plan[0]

    def throw(self, view: View, tracker: Tracker, legal: list[Action]) -> Action:
        trump = view.trump
        word = next((a for a in legal if a.kind in (DONE, PASS)), legal[0])
        throws = [a for a in legal if a.kind == THROW]
        last = len(view.hand) == 1
        stock = view.stock_size

        def worth(a: Action) -> bool:
            c = a.cards[0]
            if last or (stock == 0 and unbeatable(view, tracker, a)):
                return True
            if c & 3 == trump:
                return stock == 0 and view.taking and c >> 2 < HIGH
            return True  # every plain card that fits: measured better than low ones only

        good = [a for a in throws if worth(a)]
        if not good:
            return word
        return min(good, key=lambda a: cost(a.cards[0], trump))


def cover(view: View, legal: list[Action]) -> list[Action] | None:
    """A beat for every unbeaten card, cheapest answers to the hardest cards first;
    None when some card cannot be beaten."""
    trump = view.trump
    options: dict[int, list[Action]] = {}
    for a in legal:
        if a.kind == BEAT and a.target is not None:
            options.setdefault(int(a.target), []).append(a)
    unbeaten = [int(a) for a, d in view.table if d is None]
    used: set[int] = set()
    plan = []
    for target in sorted(unbeaten, key=lambda t: len(options.get(t, ()))):
        free = [a for a in options.get(target, ()) if a.cards[0] not in used]
        if not free:
            return None
        best = min(free, key=lambda a: cost(a.cards[0], trump))
        used.add(best.cards[0])
        plan.append(best)
    return plan


def unbeatable(view: View, tracker: Tracker, action: Action) -> bool:
    """True when no card the defender may hold beats any card of ``action``."""
    beats = BEAT_MASKS[view.rules.spades_by_spades][view.trump]
    possible = tracker.possible(view.defender)
    return not any(beats[c] & possible for c in action.cards)


def solved(view: View, legal: list[Action]) -> Action | None:
    """The best move by exact search when every card can be counted and it is small."""
    state = known_world(view)
    if state is None:
        return None
    assert view.seat is not None
    found = Solver(state.partners[view.seat], ENDGAME_NODES).best(state, legal)
    return None if found is None else legal[found[0]]
