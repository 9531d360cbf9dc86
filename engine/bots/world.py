"""Sampled deals: a full ``State`` that agrees with everything a seat may know.

``sample_hands`` deals the hidden cards of a ``Tracker`` at random to the other
hands and the stock, respecting every known card and every hand size;
``build_state`` turns a view plus such hands into a position the engine can
play on. This is the only place where a bot makes a ``State``.
"""

from __future__ import annotations

import random

from ..cards import RANK_MASK, cards_of
from ..state import State
from ..view import View
from .tracker import Tracker


def sample_hands(tracker: Tracker, rng: random.Random) -> tuple[list[int], list[int]]:
    """Hands (masks, one per seat) and a stock (draw order from the end, the
    face-up trump card first) that agree with the tracker."""
    pool = list(cards_of(tracker.hidden))
    rng.shuffle(pool)
    hands = list(tracker.known)
    i = 0
    for s, need in enumerate(tracker.slots):
        h = hands[s]
        for c in pool[i : i + need]:
            h |= 1 << c
        hands[s] = h
        i += need
    stock = (
        [tracker.trump_card, *pool[i : i + tracker.stock_hidden]] if tracker.trump_in_stock else []
    )
    return hands, stock


def build_state(view: View, hands: list[int], stock: list[int]) -> State:
    """The position of ``view`` with the given hands and stock, ready to play on."""
    rules, n = view.rules, view.rules.players
    state = State.scripted(rules, [()] * n, view.trump_card, (), opener=view.opener)
    state.hands = hands
    state.stock = stock
    state.discard = sum(1 << c for c in view.discard)
    state.known = [sum(1 << c for c in k) for k in view.known]
    state.shown = view.shown
    state.place = list(view.places)
    state.out = sum(1 << s for s, p in enumerate(view.places) if p)
    state.missed = list(view.missed)
    # Only «Бито» puts cards in the discard, so a discard means the cap is 6.
    state.bito_seen = bool(view.discard)
    state.cap = 6 if state.bito_seen or not rules.first_bout_cap_5 else 5
    state.bouts = view.bouts
    state.opener, state.attacker, state.defender = view.opener, view.attacker, view.defender
    state.limit = view.limit
    state.att = [int(a) for a, _ in view.table]
    state.dfn = [-1 if d is None else int(d) for _, d in view.table]
    state.unbeaten = state.dfn.count(-1)
    cover = 0
    for a, d in view.table:
        cover |= RANK_MASK[a >> 2]
        if d is not None:
            cover |= RANK_MASK[d >> 2]
    state.cover = cover
    state.taking = view.taking
    state.said = sum(1 << s for s in view.said)
    state.throwers = sum(1 << s for s in view.throwers)
    state.spoke = view.spoke
    state.token = view.token
    state.shows = sum(1 << c for c in view.shows)
    state.barred = [sum(1 << x for x in b) for b in view.barred]
    return state


def sample_state(view: View, tracker: Tracker, rng: random.Random) -> State:
    """One random deal consistent with the view, as a playable position."""
    hands, stock = sample_hands(tracker, rng)
    return build_state(view, hands, stock)
