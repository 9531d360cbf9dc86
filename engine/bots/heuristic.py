"""The fast heuristic player: «Новичок», and the playout policy of the stronger bots.

One decision function works on raw facts (the legal moves, one's own hand as a
mask, the table, the stock size), so the same rules of thumb serve a view
(``novice.NoviceBot``) and a sampled position inside a simulation (``state_policy``).

Rules of thumb: open with the lowest non-trump rank, all its non-trump cards at
once; transfer with a non-trump; beat the hardest card first with its cheapest
answer; take rather than spend a high trump on a plain card early in the game;
throw in every plain card that fits, lowest first; throw a trump only
as one's last card.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import ACCUSE, ACCUSES, BEAT, DONE, OPEN, PASS, TAKE, THROW, TRANSFER, Action
from ..cards import BEAT_MASKS, RANK_MASK, SUIT_MASK, lowest
from ..state import State
from ..view import View

TRUMP_BONUS = 13  # every trump costs more than every plain card
HIGH_TRUMP = 11  # K and A (rank index): not spent on plain cards early
EARLY_STOCK = 6  # "early": more than this many cards still in the stock


def cost(card: int, trump: int) -> int:
    """Plain cards by rank, then trumps above every plain card."""
    return (card >> 2) + (TRUMP_BONUS if card & 3 == trump else 0)


def action_cost(action: Action, trump: int) -> int:
    """How much a move gives away; words cost nothing."""
    return max((cost(c, trump) for c in action.cards), default=0)


def decide(
    legal: Sequence[Action],
    hand: int,
    trump: int,
    att: Sequence[int],
    dfn: Sequence[int],
    stock: int,
) -> Action | None:
    """The heuristic move among ``legal`` (all of one seat); None if there is none."""
    if not legal:
        return None
    kind = legal[0].kind
    if kind == OPEN:
        return _open(legal, hand, trump)
    if kind in (BEAT, TRANSFER, TAKE):
        return _defend(legal, trump, att, dfn, stock)
    return _throw(legal, hand, trump)


def _open(legal: Sequence[Action], hand: int, trump: int) -> Action:
    """All plain cards of the lowest plain rank; the lowest trump if only trumps are left."""
    plain = hand & ~SUIT_MASK[trump]
    low = lowest(plain or hand)
    want = plain & RANK_MASK[low >> 2] if plain else 1 << low
    best = legal[0]
    size = 0
    for a in legal:
        cs = a.cards
        if len(cs) > size and all(want >> c & 1 for c in cs):
            best, size = a, len(cs)
    return best


def _defend(
    legal: Sequence[Action], trump: int, att: Sequence[int], dfn: Sequence[int], stock: int
) -> Action:
    take: Action | None = None
    transfer: Action | None = None  # the cheapest transfer, plain cards first
    options: dict[int, list[Action]] = {}
    for a in legal:
        if a.kind == BEAT:
            options.setdefault(-1 if a.target is None else int(a.target), []).append(a)
        elif a.kind == TRANSFER:
            if transfer is None or cost(a.cards[0], trump) < cost(transfer.cards[0], trump):
                transfer = a
        elif a.kind == TAKE:
            take = a
    if transfer is not None and transfer.cards[0] & 3 != trump:
        return transfer
    unbeaten = [c for c, d in zip(att, dfn, strict=True) if d < 0]
    if take is not None and any(c not in options for c in unbeaten):
        return take if transfer is None else transfer
    # The hardest card first (fewest answers), with its cheapest answer.
    target = min(options, key=lambda t: (len(options[t]), -t))
    best = min(options[target], key=lambda a: cost(a.cards[0], trump))
    beater = best.cards[0]
    if (
        take is not None
        and stock > EARLY_STOCK
        and beater & 3 == trump
        and target & 3 != trump
        and beater >> 2 >= HIGH_TRUMP
    ):
        return take
    return best


def _throw(legal: Sequence[Action], hand: int, trump: int) -> Action | None:
    word: Action | None = None
    best: Action | None = None
    last = hand.bit_count() == 1  # throwing it in empties the hand
    for a in legal:
        if a.kind in (DONE, PASS):
            word = a
        elif a.kind == THROW:
            c = a.cards[0]
            if c & 3 == trump and not last:
                continue
            if best is None or cost(c, trump) < cost(best.cards[0], trump):
                best = a
    return best if best is not None else word


def lowest_move(legal: Sequence[Action], trump: int) -> Action:
    """The move with the lowest card (the fewest cards among equals); a word only
    when no move plays a card."""
    best: Action | None = None
    word = legal[0]
    top = (0, 0)
    for a in legal:
        if not a.cards:
            if a.kind != ACCUSE:
                word = a
            continue
        key = (action_cost(a, trump), len(a.cards))
        if best is None or key < top:
            best, top = a, key
    return best if best is not None else word


def state_policy(state: State, seat: int) -> Action | None:
    """The heuristic move of ``seat`` in a (sampled) position: the playout policy."""
    return decide(
        state.legal_actions(seat),
        state.hands[seat],
        state.trump,
        state.att,
        state.dfn,
        len(state.stock),
    )


def view_table(view: View) -> tuple[list[int], list[int]]:
    """The table of a view as the engine's lists: attack cards, defence cards or -1."""
    return [int(a) for a, _ in view.table], [-1 if d is None else int(d) for _, d in view.table]


def catch_cheat(view: View) -> Action | None:
    """«Антимухлёж» against a cheat anyone can see on the table (option ``cheating``):
    a card that does not beat what it covers, or a transfer of another rank."""
    if not view.rules.cheating or view.seat is None or not view.table:
        return None
    beats = BEAT_MASKS[view.rules.spades_by_spades][view.trump]
    rank = view.table[0][0] >> 2
    suspects = {d: BEAT for a, d in view.table if d is not None and not beats[a] >> d & 1}
    suspects.update({a: TRANSFER for a, _ in view.table if a >> 2 != rank})
    me = view.seat
    for action in reversed(view.history):  # who played each suspect card last
        if action.cards and suspects.get(action.cards[0]) == action.kind:
            if view.rules.team(action.seat) == view.rules.team(me):
                continue  # a partner's cheat helps the team: keep quiet
            accuse = ACCUSES[me][action.seat]
            if accuse in view.legal:
                return accuse
    return None


def must_act(view: View) -> bool:
    """True when the game waits for this seat; a thrower waits while the defender defends."""
    turn = view.turn
    return bool(view.legal) and turn is not None and view.seat in turn.seats
