"""Sampled deals: a full ``State`` that agrees with everything a seat may know.

``sample_hands`` deals the hidden cards of a ``Tracker`` at random to the other
hands and the stock, respecting every known card and every hand size;
``build_state`` turns a view plus such hands into a position the engine can
play on. This is the only place where a bot makes a ``State``.
"""

from __future__ import annotations

import math
import random

from ..cards import cards_of
from ..position import Bout, Position
from ..state import State
from ..view import View
from .infer import Weights
from .tracker import Tracker

Lacking = tuple[Weights | None, ...] | None  # per seat, as ``infer.lacking`` reads them


def sample_hands(
    tracker: Tracker, rng: random.Random, lacking: Lacking = None
) -> tuple[list[int], list[int]]:
    """Hands (masks, one per seat) and a stock (draw order from the end, the
    face-up trump card first) that agree with the tracker. A seat with weights
    (``lacking``) gets its hidden cards by weighted sampling without replacement
    (Efraimidis and Spirakis 2006), in seat order, so where two seats lack the
    same card the later one (or the stock) gets it more often; the others a
    shuffled share."""
    pool = list(cards_of(tracker.hidden))
    rng.shuffle(pool)
    hands = list(tracker.known)
    for s, need in enumerate(tracker.slots):
        if not need:
            continue
        w = None if lacking is None else lacking[s]
        if w is None:
            got, pool = pool[:need], pool[need:]
        else:
            got = sorted(pool, key=lambda c: math.log(1.0 - rng.random()) / w[c])[-need:]
            pool = [c for c in pool if c not in got]
        h = hands[s]
        for c in got:
            h |= 1 << c
        hands[s] = h
    stock = [tracker.trump_card, *pool[: tracker.stock_hidden]] if tracker.trump_in_stock else []
    return hands, stock


def build_state(view: View, hands: list[int], stock: list[int]) -> State:
    """The position of ``view`` with the given hands and stock, ready to play on."""
    rules = view.rules
    # Only «Бито» puts cards in the discard, so a discard means the cap is 6.
    bito_seen = bool(view.discard)
    bout = Bout(
        attacker=view.attacker,
        defender=view.defender,
        cap=6 if bito_seen or not rules.first_bout_cap_5 else 5,
        limit=view.limit,
        att=[int(a) for a, _ in view.table],
        dfn=[-1 if d is None else int(d) for _, d in view.table],
        taking=view.taking,
        said=sum(1 << s for s in view.said),
        throwers=sum(1 << s for s in view.throwers),
        spoke=view.spoke,
        token=view.token,
        shows=sum(1 << c for c in view.shows),
        cheats=0,  # nobody's cheats are known
        barred=[sum(1 << x for x in b) for b in view.barred],
        bout_attacks=[0] * rules.players,
        closing=view.closing,
    )
    position = Position(
        hands=hands,
        stock=stock,
        trump_card=view.trump_card,
        opener=view.opener,
        known=[sum(1 << c for c in k) for k in view.known],
        shown=view.shown,
        discard=sum(1 << c for c in view.discard),
        place=list(view.places),
        missed=list(view.missed),
        bito_seen=bito_seen,
        bouts=view.bouts,
        bout=bout,
    )
    return State(rules, 0, position=position)


def sample_state(
    view: View, tracker: Tracker, rng: random.Random, lacking: Lacking = None
) -> State:
    """One random deal consistent with the view, as a playable position."""
    hands, stock = sample_hands(tracker, rng, lacking)
    return build_state(view, hands, stock)
