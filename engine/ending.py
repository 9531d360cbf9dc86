"""The end of a bout: the table taken or discarded, drawing, leaving, the game's end.

Functions of a ``Board`` (RULES §4-7), split from ``state`` to keep both short.
"""

from __future__ import annotations

from .board import Board
from .bout import CLOCKWISE, closing_seats, next_active, start_bout
from .cards import RANK_MASK, SUIT_MASK, cards_of
from .deal import HAND_SIZE
from .events import BoutEnded, Drew, Event, GameOver, Left, Outcome

# Hot-path events are built by tuple.__new__, a C call, not the NamedTuple's Python one.
fast_event = tuple.__new__
# DRAW_ORDER[n][opener][defender]: who draws, in order: the defender last.
DRAW_ORDER = tuple(
    tuple(tuple((*(s for s in way if s != d), d) for d in range(n)) for way in ways)
    for n, ways in enumerate(CLOCKWISE)
)
DROPPED: list[Event] = []  # the events of ``State.play``, not kept


def settle(state: Board, events: list[Event], *, beaten: bool = False) -> None:
    """End the bout if nothing more can happen in it (RULES §4). With ``cheating``, a
    bout that the defender's beat (``beaten``) ends stays open for «Антимухлёж» until
    everyone else has said «Бито» or the throw-in clock runs out (RULES §9)."""
    if state.closing:
        if not closing_seats(state):
            end_bout(state, events, taken=False)
        return
    if state.unbeaten and not state.taking:
        return
    if len(state.att) < state.limit and (state.taking or state.hands[state.defender]):
        free, hands = state.throwers & ~state.said, state.hands
        while free:
            low = free & -free
            if hands[low.bit_length() - 1]:
                return  # a thrower with cards has not decided yet
            free ^= low
    if beaten and state.cheating:
        state.closing = True  # whether or not it was a cheat: the window tells nothing
        state.said = 0
        return
    end_bout(state, events, taken=state.taking)


def end_bout(state: Board, events: list[Event], *, taken: bool) -> None:
    d = state.defender
    state.closing = False
    table = 0
    for c in state.att:
        table |= 1 << c
    for c in state.dfn:
        if c >= 0:
            table |= 1 << c
    if taken:
        state.hands[d] |= table
        state.known[d] |= table
    else:
        state.discard |= table
        state.bito_seen = True
    if events is not DROPPED:  # ``play`` drops the events: skip the costliest one
        events.append(fast_event(BoutEnded, (taken, d, cards_of(table))))
    state.att = []
    state.dfn = []
    state.bouts += 1
    draw(state, events)
    if leave(state, events):
        return
    if taken or state.place[d]:
        start_bout(state, next_active(state, d))
    else:
        start_bout(state, d)


def draw(state: Board, events: list[Event]) -> None:
    """Opener first, then clockwise, the defender last; the trump card last of all."""
    stock = state.stock
    if not stock:
        return
    hands, out = state.hands, state.out
    order = DRAW_ORDER[state.n][state.opener][state.defender]
    if state.rules.last_cards_evenly:
        needs = [0 if out >> s & 1 else max(0, HAND_SIZE - hands[s].bit_count()) for s in order]
        if sum(needs) > len(stock):
            draw_evenly(state, order, needs, events)
            return
    for s in order:
        need = HAND_SIZE - hands[s].bit_count()
        if need <= 0 or out >> s & 1:
            continue
        got = need if need < len(stock) else len(stock)
        hand = hands[s]
        for _ in range(got):
            hand |= 1 << stock.pop()
        hands[s] = hand
        if not stock:  # the face-up trump card: everyone sees who takes it
            state.known[s] |= 1 << state.trump_card
            events.append(fast_event(Drew, (s, got, True)))
            return
        if events is not DROPPED:
            events.append(fast_event(Drew, (s, got, False)))


def draw_evenly(
    state: Board, order: tuple[int, ...], needs: list[int], events: list[Event]
) -> None:
    """A stock too short for everyone goes round one card at a time, in drawing order."""
    stock, hands = state.stock, state.hands
    got = [0] * len(order)
    last = -1
    while stock:
        for i, s in enumerate(order):
            if got[i] < needs[i] and stock:
                hands[s] |= 1 << stock.pop()
                got[i] += 1
                last = s
    state.known[last] |= 1 << state.trump_card  # the face-up card went to the last one served
    for i, s in enumerate(order):
        if got[i]:
            events.append(fast_event(Drew, (s, got[i], s == last)))


def leave(state: Board, events: list[Event]) -> bool:
    """Players without cards leave once the stock is empty. True if the game ended."""
    if state.stock:
        return False
    hands, place, out = state.hands, state.place, state.out
    rank = 1 + out.bit_count()
    for s in range(state.n):
        if not out >> s & 1 and not hands[s]:
            place[s] = rank
            out |= 1 << s
            events.append(Left(s, rank))
            if state.rules.pogony:
                pogony_check(state, s)
    state.out = out
    if state.rules.teams:
        finished = [t for t in (0, 1) if not state.partners[t] & ~out]
        if not finished:
            return False
        fools = () if len(finished) == 2 else tuple(range(1 - finished[0], state.n, 2))
    else:
        active = ((1 << state.n) - 1) & ~out
        if active & (active - 1):
            return False  # two or more still play
        fools = (active.bit_length() - 1,) if active else ()
    finish(state, events, fools, surrendered=None)
    return True


def pogony_check(state: Board, seat: int) -> None:
    """``seat`` left: did it leave by attacking with two pogony cards, one not a trump?"""
    d = state.defender
    low = state.bout_attacks[seat] & RANK_MASK[state.pogony_ranks[seat]]
    if seat != d and low.bit_count() >= 2 and low & ~SUIT_MASK[state.trump]:
        state.pogony_awards.append((seat, d))


def finish(
    state: Board, events: list[Event], fools: tuple[int, ...], surrendered: int | None
) -> None:
    place = state.place
    rank = 1 + state.out.bit_count()
    rest = [s for s in range(state.n) if not place[s] and s not in fools]
    for s in rest:
        place[s] = rank
    rank += len(rest)
    for s in range(state.n):
        if not place[s]:
            place[s] = rank
    state.out = (1 << state.n) - 1
    givers = {giver for giver, fool in state.pogony_awards if fool in fools}
    state.outcome = Outcome(fools, tuple(place), not fools, surrendered, tuple(sorted(givers)))
    state.said = state.throwers = 0  # a surrender leaves the table as it was
    events.append(GameOver(state.outcome))
