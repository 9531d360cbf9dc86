"""Table settings as one frozen, validated value (RULES §2-4, §7-9)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from .cards import NO_TRUMP


class Mode(StrEnum):
    PODKIDNOY = "podkidnoy"  # throw-in Durak
    PEREVODNOY = "perevodnoy"  # transfer Durak


class ThrowIn(StrEnum):
    ALL = "all"  # everyone but the defender (and the defender's partners)
    NEIGHBORS = "neighbors"  # only the defender's left and right neighbours


class Opener(StrEnum):
    """Who opens the first bout when nobody holds a trump (RULES §3)."""

    LOWEST = "lowest"  # the lowest card, ties by suit order ♠ ♣ ♦ ♥
    RANDOM = "random"  # a random player (DURAKA.NET)


class ThrowOrder(StrEnum):
    """Who may throw in first (RULES §4 Throw-in)."""

    FREE = "free"  # anyone eligible, first come first served
    ATTACKER_FIRST = "attacker_first"  # the others wait for the attacker's card or word
    CIRCLE = "circle"  # one thrower at a time, round the table


class SeriesOpener(StrEnum):
    """Who opens the first bout of the second and later games of a table (RULES §3)."""

    LOWEST_TRUMP = "lowest_trump"  # as in the first game
    UNDER_FOOL = "under_fool"  # the last game's fool is attacked by their right neighbour


class Speed(StrEnum):
    NORMAL = "normal"
    FAST = "fast"


# Seconds for an attack/defence move and for a throw-in move (RULES §8).
MOVE_SECONDS = {Speed.NORMAL: 30, Speed.FAST: 15}
THROW_SECONDS = {Speed.NORMAL: 10, Speed.FAST: 5}

DECK_PLAYERS = {24: (2, 4), 36: (2, 6), 52: (2, 6)}
TEAM_PLAYERS = (4, 6)  # pairs at four, teams of three at six
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")  # in the order of the card bits


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Everything that is fixed for one game.

    ``teams`` seats two teams at alternating seats: pairs (0+2 against 1+3)
    at four players, teams of three (0+2+4 against 1+3+5) at six.
    """

    players: int = 2
    deck: int = 36
    mode: Mode = Mode.PODKIDNOY
    throw_in: ThrowIn = ThrowIn.ALL
    teams: bool = False
    speed: Speed = Speed.NORMAL
    # Optional rules of RULES §9 and the options of §3-5; docs/rules.md has the details.
    first_bout_cap_5: bool = True  # at most 5 attack cards until a bout ends in «Бито»
    single_card_opening: bool = False  # a bout opens with exactly one card
    no_trump_opener: Opener = Opener.LOWEST
    first_bout_no_transfer: bool = False
    transfer_by_trump_show: bool = False  # transfer by showing a trump of the attack's rank
    throw_in_order: ThrowOrder = ThrowOrder.FREE
    series_opener: SeriesOpener = SeriesOpener.LOWEST_TRUMP
    no_throw_in_after_take: bool = False
    simple: bool = False  # «простой дурак»: no throw-in at all
    fixed_trump: str | None = None  # a suit name from SUIT_NAMES: always that trump
    no_trump: bool = False  # «бескозырный»
    spades_by_spades: bool = False  # «вини винями»: a spade is beaten by a higher spade only
    ace_does_not_hold_stock: bool = False  # a turned-up ace goes back into the stock
    redeal_five_of_suit: bool = False  # five cards of one suit in a hand: deal again
    last_cards_evenly: bool = False  # a short stock is dealt one card at a time
    pogony: bool = False  # «погоны»: leaving with two low cards on the fool
    cheating: bool = False  # «мухлёж» for the defender and «Антимухлёж» for everyone

    def __post_init__(self) -> None:
        enums = (("mode", Mode), ("throw_in", ThrowIn), ("speed", Speed))
        options = (
            ("no_trump_opener", Opener),
            ("throw_in_order", ThrowOrder),
            ("series_opener", SeriesOpener),
        )
        for name, enum in (*enums, *options):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, enum(value))
            except ValueError:
                choices = ", ".join(e.value for e in enum)
                raise ValueError(f"{name} must be one of {choices}, not {value!r}") from None
        if self.deck not in DECK_PLAYERS:
            raise ValueError(f"the deck has 24, 36 or 52 cards, not {self.deck}")
        low, high = DECK_PLAYERS[self.deck]
        if not low <= self.players <= high:
            raise ValueError(
                f"a {self.deck}-card deck is for {low} to {high} players, not {self.players}"
            )
        if self.teams and self.players not in TEAM_PLAYERS:
            raise ValueError(
                f"teams need 4 players (pairs) or 6 (teams of three), not {self.players}"
            )
        if self.fixed_trump is not None and self.fixed_trump not in SUIT_NAMES:
            names = ", ".join(SUIT_NAMES)
            raise ValueError(f"fixed_trump is one of {names}, not {self.fixed_trump!r}")
        if self.no_trump and self.fixed_trump is not None:
            raise ValueError("a game without trumps cannot have a fixed trump suit")
        if self.simple and self.no_throw_in_after_take:
            raise ValueError("the simple game has no throw-in at all, after a take or not")
        if self.simple and self.throw_in_order is not ThrowOrder.FREE:
            raise ValueError("the simple game has no throw-in, so no order of throwing in")
        if self.transfer_by_trump_show and not self.transfer:
            raise ValueError("transfer by showing a trump needs perevodnoy")

    def trump_suit(self, trump_card: int) -> int:
        """The trump suit (0-3 for ♠ ♣ ♦ ♥) or ``NO_TRUMP`` when the game has none."""
        if self.no_trump:
            return NO_TRUMP
        if self.fixed_trump is not None:
            return SUIT_NAMES.index(self.fixed_trump)
        return trump_card & 3

    @property
    def transfer(self) -> bool:
        return self.mode is Mode.PEREVODNOY

    @property
    def move_seconds(self) -> int:
        return MOVE_SECONDS[self.speed]

    @property
    def throw_seconds(self) -> int:
        return THROW_SECONDS[self.speed]

    def team(self, seat: int) -> int:
        """Team id of a seat; without teams every seat is its own team."""
        return seat % 2 if self.teams else seat

    def to_dict(self) -> dict[str, Any]:
        # Every field is a scalar: no deep copy needed (``asdict`` makes one, at every move).
        return {
            f.name: (str(v) if isinstance(v := getattr(self, f.name), StrEnum) else v)
            for f in fields(self)
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rules: {', '.join(sorted(unknown))}")
        return cls(**data)
