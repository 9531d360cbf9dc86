"""The bout's bookkeeping that the moves, the checks and the end of a bout share.

Functions of a ``Board`` (RULES §4): who attacks and defends, who may throw in.
They read and write the board's fields and import only ``board`` and ``rules``.
"""

from __future__ import annotations

from .board import Board
from .rules import ThrowIn, ThrowOrder

# CLOCKWISE[n][seat]: the n seats clockwise from ``seat``.
CLOCKWISE = tuple(tuple(tuple((s + i) % n for i in range(n)) for s in range(n)) for n in range(7))


def _first_free(n: int, skip: int, seat: int) -> int:
    return next((s for s in CLOCKWISE[n][seat] if not skip >> s & 1), -1)


# FIRST_FREE[n][skip][seat]: the first seat clockwise from ``seat`` (itself included)
# that is not in the mask ``skip``, -1 if none: the end of a bout looks it up.
FIRST_FREE = tuple(
    tuple(tuple(_first_free(n, skip, seat) for seat in range(n)) for skip in range(1 << n))
    for n in range(7)
)


def start_bout(state: Board, opener: int) -> None:
    """A new bout: ``opener`` attacks the next opponent clockwise."""
    state.opener = state.attacker = opener
    state.defender = d = next_opponent(state, opener)
    state.cap = cap = 6 if state.bito_seen or not state.rules.first_bout_cap_5 else 5
    held = state.hands[d].bit_count()
    state.limit = cap if cap < held else held
    state.att = []
    state.dfn = []
    state.unbeaten = 0
    state.cover = 0
    state.taking = False
    state.said = 0
    state.throwers = throw_rights(state, d)
    state.spoke = False
    state.token = (d + 1) % state.n
    state.shows = 0
    state.cheats = 0
    state.closing = False
    if state.cheating:
        state.barred = [0] * state.n
    if state.rules.pogony:
        state.bout_attacks = [0] * state.n


def next_active(state: Board, seat: int) -> int:
    """The next player clockwise still in the game (``seat`` itself if alone)."""
    s = FIRST_FREE[state.n][state.out | 1 << seat][seat]
    return seat if s < 0 else s


def next_opponent(state: Board, seat: int) -> int:
    """The next player clockwise still in the game, passing over partners."""
    s = FIRST_FREE[state.n][state.out | state.partners[seat]][seat]
    if s < 0:
        raise RuntimeError("no opponent left")
    return s


def throw_rights(state: Board, d: int) -> int:
    """Bit mask of the seats that may throw in against defender ``d``."""
    if state.rules.simple:
        return 0
    seats = ((1 << state.n) - 1) & ~state.out & ~state.partners[d]
    if state.rules.throw_in is ThrowIn.NEIGHBORS:
        right = d
        for s in reversed(CLOCKWISE[state.n][d]):
            if not state.out >> s & 1:
                right = s
                break
        seats &= 1 << next_active(state, d) | 1 << right
    return seats


def may_throw(state: Board) -> int:
    """The seats that may throw in or say «Бито»/«Пас» now, as a mask (RULES §4)."""
    if state.closing:
        return 0  # no more cards: only «Антимухлёж» or «Бито» (see ``closing_seats``)
    free = state.throwers & ~state.said
    order = state.rules.throw_in_order
    if order is ThrowOrder.FREE or not free:
        return free
    hands = state.hands
    if order is ThrowOrder.ATTACKER_FIRST:
        a = state.attacker
        if not state.spoke and free >> a & 1 and hands[a]:
            return 1 << a  # the attacker has the first word
        return free
    n = state.n
    for i in range(n):  # circle: the first seat from the token on that has a say
        s = (state.token + i) % n
        if free >> s & 1 and hands[s]:
            return 1 << s
    return 0


def closing_seats(state: Board) -> int:
    """While a bout that the defender's beat ended stays open for «Антимухлёж»
    (``Board.closing``): the players but the defender who have not said «Бито»."""
    everyone = ((1 << state.n) - 1) & ~state.out
    return everyone & ~state.said & ~(1 << state.defender)


def waiting(state: Board) -> tuple[int, ...]:
    """Throwers who hold cards, have not said «Бито»/«Пас» yet and have the right now."""
    if state.closing:
        seats = closing_seats(state)
        return tuple(s for s in range(state.n) if seats >> s & 1)
    free = state.throwers & ~state.said if state.free_order else may_throw(state)
    hands = state.hands
    return tuple(s for s in range(state.n) if free >> s & 1 and hands[s])
