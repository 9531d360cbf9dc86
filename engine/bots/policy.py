"""A stronger playout policy: the club player's rules of thumb on a sampled position.

Inside a sampled deal every hand is known, so where the club player asks what
the defender *may* hold, this policy looks at what it does hold (with an empty
stock in a two-player game that is what the seat knows anyway).

- Open with plain cards, low pairs together; with the stock gone, with cards
  the defender cannot beat.
- Transfer with a plain card; beat every card with the cheapest answers, the
  hardest card first; take low plain cards rather than spend a high trump or
  two trumps on them while the stock is long.
- Throw in every plain card that fits; with the stock gone also what the
  defender cannot beat, and low trumps onto a take.

``lowest_policy`` is the plainest player of all, the search yardstick's playouts
(``bench.ismcts``): the lowest card it may play, trumps above every plain card, a
word only when it has no card to play (so it never takes what it can beat).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import BEAT, DONE, OPEN, PASS, TAKE, THROW, TRANSFER, Action
from ..state import State
from .heuristic import cost, lowest_move

LONG_STOCK = 8  # more cards than this in the stock: keep the trumps
HIGH = 10  # rank index of Q: a high card
LOW = 8  # rank index of 10: a low card, up to this one


def club_policy(state: State, seat: int) -> Action | None:
    """The club player's move of ``seat`` in a position where every hand is known."""
    legal = state.legal_actions(seat)
    if not legal:
        return None
    kind = legal[0].kind
    trump = state.trump
    stock = len(state.stock)
    if kind == OPEN:
        return _open(legal, trump, stock, state.beats, state.hands[state.defender])
    if kind in (BEAT, TRANSFER, TAKE):
        return _defend(legal, trump, stock, state.att, state.dfn, state.hands[seat])
    return _throw(state, legal, trump, stock, seat)


def _open(
    legal: Sequence[Action], trump: int, stock: int, beats: Sequence[int], defender: int
) -> Action:
    best = legal[0]
    top: tuple[int, int, int] | None = None
    for a in legal:
        cs = a.cards
        c = cs[0]
        n = len(cs)
        if stock == 0 and not any(beats[x] & defender for x in cs):
            score = (-1, -n, cost(c, trump))  # nothing the defender holds beats it
        else:
            plain = all(x & 3 != trump for x in cs)
            bonus = 2 * (n - 1) if c >> 2 <= LOW else 0
            score = (0 if plain else 1, cost(c, trump) - bonus, -n)
        if top is None or score < top:
            best, top = a, score
    return best


def _defend(
    legal: Sequence[Action],
    trump: int,
    stock: int,
    att: Sequence[int],
    dfn: Sequence[int],
    hand: int,
) -> Action:
    take: Action | None = None
    transfer: Action | None = None
    transfers = 0
    options: dict[int, list[Action]] = {}
    for a in legal:
        k = a.kind
        if k == BEAT:
            options.setdefault(-1 if a.target is None else int(a.target), []).append(a)
        elif k == TRANSFER:
            c = a.cards[0]
            if c & 3 != trump:
                transfers += 1
                if transfer is None or c < transfer.cards[0]:
                    transfer = a
        elif k == TAKE:
            take = a
    if transfer is not None and (stock > 0 or transfers == hand.bit_count()):
        return transfer
    unbeaten = [c for c, d in zip(att, dfn, strict=True) if d < 0]
    used = 0
    plan: list[Action] = []
    for target in sorted(unbeaten, key=lambda t: len(options.get(t, ()))):
        free = [a for a in options.get(target, ()) if not used >> a.cards[0] & 1]
        if not free:
            return take if take is not None else legal[0]
        best = min(free, key=lambda a: cost(a.cards[0], trump))
        used |= 1 << best.cards[0]
        plan.append(best)
    if not plan:
        return take if take is not None else legal[0]
    if take is not None and stock > LONG_STOCK:
        trumps = [b.cards[0] for b in plan if b.cards[0] & 3 == trump]
        high = any(c >> 2 >= HIGH for c in trumps)
        low_table = all(a >> 2 <= LOW and a & 3 != trump for a in att)
        if low_table and (high or len(trumps) >= 2):
            return take
    return plan[0]


def _throw(state: State, legal: Sequence[Action], trump: int, stock: int, seat: int) -> Action:
    word = legal[0]
    best: Action | None = None
    last = state.hands[seat].bit_count() == 1
    defender = state.hands[state.defender]
    beats = state.beats
    for a in legal:
        k = a.kind
        if k in (DONE, PASS):
            word = a
            continue
        if k != THROW:
            continue
        c = a.cards[0]
        if c & 3 == trump and not last:
            safe = stock == 0 and not beats[c] & defender
            if not (safe or (stock == 0 and state.taking and c >> 2 < HIGH)):
                continue
        if best is None or cost(c, trump) < cost(best.cards[0], trump):
            best = a
    return best if best is not None else word


def lowest_policy(state: State, seat: int) -> Action | None:
    """The move with the lowest card; a word only with no card to play."""
    legal = state.legal_actions(seat)
    if not legal:
        return None
    return lowest_move(legal, state.trump)
