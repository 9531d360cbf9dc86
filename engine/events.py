"""What ``State.apply`` reports. Every event is public: it never names a hidden card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .actions import Action
from .cards import Card


class Played(NamedTuple):
    action: Action
    auto: bool  # made by a timeout or by a bot standing in for the player


class Idle(NamedTuple):
    """The seat missed two attack/defence moves in a row: hand it to a bot."""

    seat: int


class BoutEnded(NamedTuple):
    taken: bool  # True: the defender took the cards; False: they went to the discard
    defender: int
    cards: tuple[Card, ...]


class Drew(NamedTuple):
    seat: int
    number: int
    trump_card: bool  # the face-up trump card was among them


class Left(NamedTuple):
    """A player ran out of cards with the stock empty: out of the game, a winner."""

    seat: int
    place: int


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the fool(s), or a draw where everyone wins.

    ``places[seat]`` is 1 for the best; players who left at the end of the same
    bout share a place. In team games every player of the losing team is a fool.
    """

    fools: tuple[int, ...]
    places: tuple[int, ...]
    draw: bool = False
    surrendered: int | None = None
    pogony: tuple[int, ...] = ()  # seats that gave the fool «погоны» (option ``pogony``)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s in range(len(self.places)) if s not in self.fools)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fools": list(self.fools),
            "places": list(self.places),
            "draw": self.draw,
            "surrendered": self.surrendered,
            "pogony": list(self.pogony),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            fools=tuple(data["fools"]),
            places=tuple(data["places"]),
            draw=data["draw"],
            surrendered=data["surrendered"],
            pogony=tuple(data.get("pogony", ())),
        )


class Accused(NamedTuple):
    """«Антимухлёж»: ``accuser`` said ``accused`` cheated in this bout. If so
    (``exposed``), the cheater takes the table; if not, the accuser may not accuse
    that player again until the bout ends."""

    accuser: int
    accused: int
    exposed: bool


class GameOver(NamedTuple):
    outcome: Outcome


Event = Played | Idle | BoutEnded | Drew | Left | Accused | GameOver
