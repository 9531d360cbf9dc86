"""What one seat knows about where every card is (RULES §11).

Built from the seat's view only. A card is either in one's own hand, in the
discard, on the table, known to be in another hand (taken from the table, the
lowest trump shown at the opening, the face-up trump card once someone holds
it, the trump card's holder after a whole-deck deal), the face-up trump card
at the bottom of the stock, or hidden: in some other hand or in the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import SUIT_MASK, cards_of, deck_mask, mask_of
from ..view import View


@dataclass(frozen=True)
class Tracker:
    seat: int
    hand: int  # one's own cards
    known: tuple[int, ...]  # per seat: the cards publicly known to be in that hand
    gone: int  # discard and table: visible, out of every hand
    hidden: int  # cards whose place this seat does not know
    slots: tuple[int, ...]  # per seat: how many hidden cards its hand holds (0 for oneself)
    stock_hidden: int  # hidden cards in the stock (the face-up trump card not counted)
    trump_card: int
    trump: int  # the trump suit (NO_TRUMP without trumps)
    trump_in_stock: bool  # the face-up trump card still lies under the stock

    @classmethod
    def from_view(cls, view: View) -> Tracker:
        if view.seat is None:
            raise ValueError("a spectator has no hand to play")
        seat = view.seat
        hand = mask_of(view.hand)
        known = tuple(hand if s == seat else mask_of(k) for s, k in enumerate(view.known))
        gone = mask_of(view.discard)
        for a, d in view.table:
            gone |= 1 << a
            if d is not None:
                gone |= 1 << d
        trump_in_stock = view.stock_size > 0
        hidden = deck_mask(view.rules.deck) & ~gone
        for k in known:
            hidden &= ~k
        if trump_in_stock:
            hidden &= ~(1 << view.trump_card)
        slots = tuple(
            0 if s == seat else size - known[s].bit_count()
            for s, size in enumerate(view.hand_sizes)
        )
        stock_hidden = view.stock_size - 1 if trump_in_stock else 0
        # In a real deal the counts match; a scripted test deal may leave cards out.
        if min(slots) < 0 or hidden.bit_count() < sum(slots) + stock_hidden:
            raise ValueError("the view's card counts do not add up")
        return cls(
            seat=seat,
            hand=hand,
            known=known,
            gone=gone,
            hidden=hidden,
            slots=slots,
            stock_hidden=stock_hidden,
            trump_card=int(view.trump_card),
            trump=view.trump,
            trump_in_stock=trump_in_stock,
        )

    @property
    def unseen(self) -> int:
        """How many hidden cards lie in other hands or the stock."""
        return sum(self.slots) + self.stock_hidden

    @property
    def certain(self) -> bool:
        """True when the hidden cards can lie in one way only (e.g. two players, empty
        stock: the opponent holds exactly the cards one cannot see)."""
        if self.stock_hidden > 1:
            return False  # the order of the draw is unknown
        places = sum(1 for n in (*self.slots, self.stock_hidden) if n)
        return places <= 1 and self.hidden.bit_count() == self.unseen

    def possible(self, seat: int) -> int:
        """Every card ``seat`` may hold as far as this seat knows."""
        return self.known[seat] | (self.hidden if self.slots[seat] else 0)

    def hidden_trumps(self) -> int:
        """How many trumps are somewhere this seat cannot see."""
        return (self.hidden & SUIT_MASK[self.trump]).bit_count()

    def describe(self) -> str:
        """A short text for debugging: the known cards of each seat and the hidden count."""
        parts = [f"{s}: {' '.join(map(str, cards_of(k)))}" for s, k in enumerate(self.known)]
        return "; ".join(parts) + f"; hidden {self.hidden.bit_count()}"
