"""Reading the other players' moves: which hidden cards each of them probably lacks.

«Новичок», and most people, open with their lowest plain rank, beat with the
cheapest card that beats, throw in every plain card that fits and take only
what they cannot beat cheaply. Read that way, a move says its player did not
hold some cards: a 9♣ opened says no plain card below a nine; a «Бито» with
room on the table says no plain card of the ranks on it; a take of one card
says nothing beats it cheaply. And the rules say that nobody held a trump
below the one shown to open the game (the lowest dealt). A card drawn later may be one of them,
so a clue fades with the cards its player has drawn since.

The public history is replayed by counts (hand sizes, the stock, the table)
to know who defended, how much room the table had and who drew what; if the
replay does not end where the view is (a move it does not model: a quit, an
accusation), nothing is read. With «Антимухлёж» a «Бито» says nothing: everyone
says it to close a beaten bout. The sampled deals then give such a card to that hand less often
(``world.sample_hands``); a player who plays otherwise is only misread, never
ruled out.

Not everyone plays like «Новичок», so the clues are trusted per player only as far
as they have predicted that player's own moves: a card played that its player's
clues said it lacked, with no card drawn since, costs the player's clues trust (by
the clue's weight, as a likelihood ratio); every other card played earns a little
back, up to a cap (a card it may have drawn since says nothing). The clues'
strength scales with that trust and fades to uniform sampling for a player whose
moves keep contradicting them; «Новичок»'s own clues are never contradicted, so
against it the reading stays at full strength.

Compiled with the engine (``engine.build.BOTS``).
"""

from __future__ import annotations

import math

from ..actions import BACK, BEAT, DONE, OPEN, PASS, SHOW, TAKE, THROW, TRANSFER, Action
from ..cards import BEAT_MASKS, RANK_MASK, SUIT_MASK, mask_of
from ..deal import HAND_SIZE
from ..ending import DRAW_ORDER
from ..view import View
from .heuristic import EARLY_STOCK, HIGH_TRUMP
from .tracker import Tracker

RULED_OUT = 0.001  # a card the rules say a hand did not hold (below the trump shown)
FIT = math.log(1.15)  # trust earned by a card played that no clue contradicts (log-odds)
CREDIT = math.log(4.0)  # the most trust a player can bank (about ten fitting cards)
UNREAD = 0.01  # a player's clues at less than this strength are not read at all
Weights = tuple[float, ...]  # per card 0-51: how readily a sampled deal puts it in a hand


def below(card: int) -> int:
    """The cards of lower rank than ``card``, of every suit."""
    return (1 << (card & ~3)) - 1


class Replay:
    """The public course of the game by counts, and the clues each seat's moves gave."""

    def __init__(self, view: View) -> None:
        rules = view.rules
        assert view.seat is not None
        self.me = view.seat
        self.n = n = rules.players
        self.teams = rules.teams
        self.trump = view.trump
        self.plain = ~SUIT_MASK[view.trump] & ((1 << 52) - 1)
        self.beats = BEAT_MASKS[rules.spades_by_spades][view.trump]
        self.cap5 = rules.first_bout_cap_5
        self.single = rules.single_card_opening
        self.evenly = rules.last_cards_evenly
        # With «Антимухлёж» everyone says «Бито» to close a beaten bout, thrower or not.
        self.words = not rules.cheating
        self.sizes = [HAND_SIZE] * n
        self.stock = rules.deck - HAND_SIZE * n
        self.drawn = [0] * n
        self.bito = False
        self.opener = self.defender = -1
        self.limit = 0
        self.att: list[int] = []
        self.dfn: list[int] = []
        self.taking = False
        # Per seat: card -> (its cards drawn when the clue was given, the clue's floor).
        self.clues: list[dict[int, tuple[int, float]]] = [{} for _ in range(n)]
        # Per seat: how well its clues predicted the cards it played (a log-likelihood
        # ratio, at most CREDIT; below 0 its clues weigh less, ``strength``).
        self.fit = [0.0] * n

    def clue(self, seat: int, cards: int, floor: float) -> None:
        """``seat`` lacks ``cards`` now; of two clues at one moment the stronger stays."""
        drawn = self.drawn[seat]
        clues = self.clues[seat]
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            old = clues.get(c)
            if old is None or old[0] < drawn or old[1] > floor:
                clues[c] = (drawn, floor)
            cards ^= low

    def check(self, seat: int, cards: tuple[int, ...] | list[int]) -> None:
        """``seat`` plays ``cards``: a card its clues said it lacked, with no card drawn
        since, says that it does not play as read (by the clue's weight, a likelihood
        ratio); a card it may have drawn since says nothing; any other card earns
        its clues a little trust."""
        clues = self.clues[seat]
        worst = 1.0
        for c in cards:
            old = clues.get(c)
            if old is None or old[1] <= RULED_OUT:  # the rules' clue says nothing of style
                continue
            if old[0] < self.drawn[seat]:
                return  # drawn since, perhaps: neither for nor against
            worst = min(worst, old[1])
        if worst < 1.0:
            self.fit[seat] += math.log(worst)
        else:
            self.fit[seat] = min(CREDIT, self.fit[seat] + FIT)

    def strength(self, seat: int) -> float:
        """How far ``seat``'s clues are trusted: 1 while its moves fit them."""
        return math.exp(min(0.0, self.fit[seat]))

    def next_opponent(self, seat: int) -> int:
        n = self.n
        for i in range(1, n):
            s = (seat + i) % n
            if self.teams and i % 2 == 0:
                continue
            if self.sizes[s] or self.stock:
                return s
        return -1

    def cover(self) -> int:
        ranks = 0
        for c in self.att:
            ranks |= RANK_MASK[c >> 2]
        for c in self.dfn:
            if c >= 0:
                ranks |= RANK_MASK[c >> 2]
        return ranks

    def end_bout(self) -> None:
        table = len(self.att) + sum(1 for c in self.dfn if c >= 0)
        if self.taking:
            self.sizes[self.defender] += table
            clues = self.clues[self.defender]
            for c in (*self.att, *self.dfn):
                clues.pop(c, None)  # taken in sight of all: its clue is void
        else:
            self.bito = True
        self.att, self.dfn, self.taking = [], [], False
        if not self.stock:
            return
        order = DRAW_ORDER[self.n][self.opener][self.defender]
        needs = [max(0, HAND_SIZE - self.sizes[s]) for s in order]
        if self.evenly and sum(needs) > self.stock:
            while self.stock:
                for i, s in enumerate(order):
                    if needs[i] and self.stock:
                        needs[i] -= 1
                        self.draw(s, 1)
            return
        for s, need in zip(order, needs, strict=True):
            self.draw(s, min(need, self.stock))

    def draw(self, seat: int, k: int) -> None:
        self.sizes[seat] += k
        self.drawn[seat] += k
        self.stock -= k

    def move(self, a: Action, me: int, doubt: float, auto: bool) -> bool:
        """Apply one public move, noting its clue; False if the replay lost its way."""
        seat, kind, cards = a.seat, a.kind, a.cards
        read = seat != me and not auto  # a timeout's or a stand-in's move tells nothing
        plain = self.plain
        if kind == OPEN:
            if self.att:
                self.end_bout()
            self.opener, self.defender = seat, self.next_opponent(seat)
            if self.defender < 0:
                return False
            cap = 5 if self.cap5 and not self.bito else 6
            self.limit = min(cap, self.sizes[self.defender])
            c = cards[0]
            if read:
                self.check(seat, cards)
                if plain >> c & 1:
                    lacks = below(c) & plain
                    if not self.single and len(cards) < self.limit:
                        lacks |= RANK_MASK[c >> 2] & plain & ~mask_of(cards)
                else:  # a trump opened: no plain card, no lower trump
                    lacks = plain | below(c)
                self.clue(seat, lacks, doubt)
            self.sizes[seat] -= len(cards)
            self.att += cards
            self.dfn += [-1] * len(cards)
        elif kind == THROW:
            c = cards[0]
            if read:
                self.check(seat, cards)
                if plain >> c & 1:
                    self.clue(seat, self.cover() & below(c) & plain, doubt)
            self.sizes[seat] -= 1
            self.att.append(c)
            self.dfn.append(-1)
        elif kind == BEAT:
            t = -1 if a.target is None else int(a.target)
            if seat != self.defender or t not in self.att:
                return False
            c = cards[0]
            if read:  # nothing cheaper beat it: a lower plain card, or for a trump any plain one
                self.check(seat, cards)
                cheaper = below(c) & plain if plain >> c & 1 else plain | below(c)
                self.clue(seat, self.beats[t] & cheaper, doubt)
            self.sizes[seat] -= 1
            self.dfn[self.att.index(t)] = c
        elif kind in (TRANSFER, SHOW):
            if seat != self.defender:
                return False
            if kind == TRANSFER:
                if read:
                    self.check(seat, cards)
                self.sizes[seat] -= 1
                self.att.append(cards[0])
                self.dfn.append(-1)
            self.defender = self.next_opponent(seat)
            if self.defender < 0:
                return False
            self.limit = min(5 if self.cap5 and not self.bito else 6, self.sizes[self.defender])
        elif kind == TAKE:
            if seat != self.defender:
                return False
            unbeaten = [c for c, d in zip(self.att, self.dfn, strict=True) if d < 0]
            if read and len(unbeaten) == 1:
                self.clue(seat, self.beats[unbeaten[0]] & self.cheap(unbeaten[0]), doubt)
            self.taking = True
        elif kind in (DONE, PASS):
            if read and self.words and len(self.att) < self.limit:  # room, and no throw
                self.clue(seat, self.cover() & plain, doubt)
        elif kind != BACK:
            return False  # a quit or an accusation: not modelled
        return True

    def cheap(self, card: int) -> int:
        """What a «Новичок» defender would beat ``card`` with rather than take it:
        anything, but a plain card only below a high trump while the stock is long."""
        if self.stock > EARLY_STOCK and self.plain >> card & 1:
            return self.plain | (SUIT_MASK[self.trump] & ((1 << (4 * HIGH_TRUMP)) - 1))
        return (1 << 52) - 1


def lacking(view: View, tracker: Tracker, doubt: float) -> tuple[Weights | None, ...] | None:
    """Per seat, each card's weight for being dealt to that hand in a sampled deal (1:
    no clue; ``doubt`` for a card its owner's moves say it lacks, fading as it draws),
    None for a seat without clues; None for all when the history cannot be replayed."""
    return reading(view, tracker, doubt)[0]


def reading(
    view: View, tracker: Tracker, doubt: float
) -> tuple[tuple[Weights | None, ...] | None, tuple[float, ...]]:
    """``lacking``'s weights, and per seat how far its moves fitted «Новичок»'s
    style (``Replay.strength``; 1 for every seat when nothing is read)."""
    me = view.seat
    assert me is not None
    fits = (1.0,) * view.rules.players
    if doubt >= 1.0:
        return None, fits
    replay = Replay(view)
    if view.shown is not None:  # the lowest trump dealt: none below in a hand
        for s in range(replay.n):
            replay.clue(s, below(view.shown) & SUIT_MASK[view.trump], RULED_OUT)
    for a, auto in zip(view.history, view.auto, strict=True):
        if not replay.move(a, me, doubt, auto):
            return None, fits
    if replay.att and not view.table:
        replay.end_bout()  # the last bout is over: the next has not opened yet
    if (
        replay.sizes != list(view.hand_sizes)
        or replay.stock != view.stock_size
        or len(replay.att) != len(view.table)
    ):
        return None, fits
    fits = tuple(replay.strength(s) for s in range(replay.n))
    return tuple(weights(replay, tracker, s) for s in range(replay.n)), fits


def weights(replay: Replay, tracker: Tracker, seat: int) -> Weights | None:
    """The weights of ``seat``'s hidden cards by its clues. A card it lacked when it
    had drawn d cards fewer is in its hand now only if it was among those d draws:
    about d / (d + the hidden stock) against slots / unseen for any hidden card. The
    clues drawn from its style weigh as far as it is trusted (``Replay.strength``);
    the rules' clue always weighs in full."""
    slots = tracker.slots[seat]
    clues = replay.clues[seat]
    if not slots or not clues:
        return None
    trust = replay.strength(seat)
    stock, unseen = tracker.stock_hidden, tracker.unseen
    base = slots / unseen
    out = [1.0] * 52
    found = False
    for card, (drawn, floor) in clues.items():
        if not tracker.hidden >> card & 1:
            continue
        d = replay.drawn[seat] - drawn
        chance = d / (d + stock) if d else 0.0
        w = min(1.0, max(floor, chance / base))
        if floor > RULED_OUT and trust < 1.0:
            if trust < UNREAD:
                continue
            w = 1.0 - trust * (1.0 - w)
        if w < 1.0:
            out[card] = w
            found = True
    return tuple(out) if found else None
