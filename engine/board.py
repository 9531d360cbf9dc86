"""The fields of a game in play: what the rule modules (``bout``, ``legal``, ``moves``,
``ending``, ``serialize``, ``view``) read and change. ``State`` adds the deal, the
moves and the questions on top; these modules know only ``Board``, so none of them
imports ``state``.
"""

from __future__ import annotations

from .actions import Action
from .cards import CARDS, Card
from .events import Outcome
from .rules import Rules

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
    """A game's cards, seats, bout and log, as bit masks and lists (see ``state``)."""

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
