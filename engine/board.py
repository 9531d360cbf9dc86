"""The fields of a game in play, which the rule modules (``bout``, ``legal``, ``moves``,
``ending``, ``serialize``, ``view``) read and change. They know only ``Board``, so
none of them imports ``state``, whose ``State`` adds the deal, the moves and its
methods.

Hands, the table and the discard are bit masks of cards (see ``cards``), so
the hot path of ``legal_actions`` and ``apply`` is integer arithmetic. Seats
are bit masks too (``out``, ``partners``, ``said``, ``throwers``).
"""

from __future__ import annotations

from .actions import Action
from .cards import BEAT_MASKS, CARDS, DECK_LOW_RANK, RANK_MASK, Card
from .events import Outcome
from .position import Bout, Position
from .rules import Rules, ThrowOrder

# Every attribute of a Board (its ``__slots__``; compiled, a Board has no ``__slots__``).
FIELDS = (
    "att",
    "attacker",
    "auto",
    "barred",
    "beats",
    "bito_seen",
    "bout_attacks",
    "bouts",
    "cap",
    "cheating",
    "cheats",
    "closing",
    "cover",
    "defender",
    "dfn",
    "discard",
    "free_order",
    "hands",
    "history",
    "known",
    "last_fool",
    "limit",
    "missed",
    "n",
    "opener",
    "out",
    "outcome",
    "partners",
    "place",
    "pogony_awards",
    "pogony_ranks",
    "rules",
    "said",
    "seed",
    "shown",
    "shows",
    "spoke",
    "stock",
    "taking",
    "throwers",
    "token",
    "transfers",
    "trump",
    "trump_card",
    "unbeaten",
)


class Board:
    """A game's cards, seats, bout and log, as bit masks and lists."""

    __slots__ = FIELDS
    rules: Rules
    seed: int
    n: int
    partners: tuple[int, ...]  # per seat: its team as a mask of seats (itself included)
    transfers: bool  # perevodnoy
    free_order: bool  # throw_in_order is free: no one waits for anyone to throw in
    last_fool: int | None  # the last game's fool this game opens against (series_opener)
    hands: list[int]  # one mask per seat
    stock: list[int]  # drawn from the end; stock[0] is the face-up trump card
    trump_card: Card
    trump: int
    beats: tuple[int, ...]  # per card: the mask of cards that beat it
    discard: int
    known: list[int]  # per seat: cards shown to be in that hand (intersect with hands)
    shown: Card | None  # the lowest trump shown at the opening
    place: list[int]  # 0 while in the game
    out: int  # the seats with a place, as a mask: all of them once the game is over
    missed: list[int]
    bito_seen: bool  # a bout has ended in «Бито»: the cap is 6 from now on
    bouts: int  # bouts ended so far
    history: list[Action]
    auto: list[bool]
    outcome: Outcome | None
    opener: int
    attacker: int
    defender: int
    cap: int
    limit: int  # min(cap, defender's hand when they became defender)
    att: list[int]
    dfn: list[int]  # the card on each attack card, -1 while unbeaten
    unbeaten: int
    cover: int  # the ranks on the table, as a mask of all their cards
    taking: bool
    said: int  # seats (bits) that said «Бито»/«Пас» since the last new card
    throwers: int  # seats (bits) that may throw in against the defender
    spoke: bool  # the attacker has thrown in or said «Бито»/«Пас» (attacker_first)
    token: int  # circle: the right to throw in goes clockwise from this seat
    shows: int  # trumps shown for a transfer in this bout (transfer_by_trump_show)
    cheating: bool  # option ``cheating``: cheats and «Антимухлёж» are played
    cheats: int  # SECRET: the seats that cheated in this bout (never in a view)
    # cheating: the defender's beat ended the bout, which stays open for «Антимухлёж»
    # until the others say «Бито» or the throw-in clock runs out (RULES §9).
    closing: bool
    barred: list[int]  # per seat: whom it may not accuse again in this bout
    # «Погоны» (option ``pogony``): per seat the rank its pogony are made of, the
    # cards each seat attacked with in this bout, and (giver, receiver) pairs so far.
    pogony_ranks: tuple[int, ...]
    bout_attacks: list[int]
    pogony_awards: list[tuple[int, int]]

    def __init__(self, rules: Rules, seed: int, p: Position) -> None:
        """The fields of ``p``, its lists copied. Without a bout in ``p`` the bout's fields
        are those of none (``State`` then starts the first one). Setting every field
        here lets the compiled rule modules read them without checking that they are set."""
        n = rules.players
        if len(p.hands) != n:
            raise ValueError(f"{n} players need {n} hands, got {len(p.hands)}")
        self.rules = rules
        self.seed = seed
        self.n = n
        teams = [sum(1 << s for s in range(t, n, 2)) for t in (0, 1)]
        self.partners = tuple(teams[s % 2] if rules.teams else 1 << s for s in range(n))
        self.transfers = rules.transfer
        self.free_order = rules.throw_in_order is ThrowOrder.FREE
        self.cheating = rules.cheating
        self.hands = p.hands[:]
        self.stock = p.stock[:]
        self.trump_card = CARDS[p.trump_card]
        self.trump = rules.trump_suit(p.trump_card)
        self.beats = BEAT_MASKS[rules.spades_by_spades][self.trump]
        self.discard = p.discard
        self.known = [0] * n if p.known is None else p.known[:]
        self.shown = p.shown
        self.place = [0] * n if p.place is None else p.place[:]
        self.out = sum(1 << s for s, rank in enumerate(self.place) if rank)
        self.missed = [0] * n if p.missed is None else p.missed[:]
        self.bito_seen = p.bito_seen
        self.bouts = p.bouts
        self.last_fool = p.last_fool
        low = DECK_LOW_RANK[rules.deck]
        self.pogony_ranks = (low,) * n if p.pogony_ranks is None else tuple(p.pogony_ranks)
        self.pogony_awards = list(p.pogony_awards)
        self.history = list(p.history)
        self.auto = list(p.auto)
        self.outcome = p.outcome
        b = _no_bout(p.opener, n) if p.bout is None else p.bout
        self.opener, self.attacker, self.defender = p.opener, b.attacker, b.defender
        self.cap, self.limit = b.cap, b.limit
        self.att, self.dfn = b.att[:], b.dfn[:]
        self.unbeaten = self.dfn.count(-1)
        cover = 0
        for c in self.att + self.dfn:
            if c >= 0:
                cover |= RANK_MASK[c >> 2]
        self.cover = cover
        self.taking, self.said, self.throwers = b.taking, b.said, b.throwers
        self.spoke, self.token, self.shows = b.spoke, b.token, b.shows
        self.cheats = b.cheats
        self.closing = b.closing
        self.barred = b.barred[:]
        self.bout_attacks = b.bout_attacks[:]

    # ------------------------------------------------------------ questions

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        return [
            (CARDS[a], CARDS[d] if d >= 0 else None)
            for a, d in zip(self.att, self.dfn, strict=True)
        ]


def _no_bout(opener: int, n: int) -> Bout:
    """The bout's fields before the first bout starts."""
    return Bout(
        attacker=opener,
        defender=opener,
        cap=0,
        limit=0,
        att=[],
        dfn=[],
        taking=False,
        said=0,
        throwers=0,
        spoke=False,
        token=0,
        shows=0,
        cheats=0,
        barred=[0] * n,
        bout_attacks=[0] * n,
    )
