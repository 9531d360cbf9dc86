"""Table settings as one frozen, validated value (RULES §2-4, §7-9)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any


class Mode(StrEnum):
    PODKIDNOY = "podkidnoy"  # throw-in Durak
    PEREVODNOY = "perevodnoy"  # transfer Durak


class ThrowIn(StrEnum):
    ALL = "all"  # everyone but the defender (and the defender's partners)
    NEIGHBORS = "neighbors"  # only the defender's left and right neighbours


class Speed(StrEnum):
    NORMAL = "normal"
    FAST = "fast"


# Seconds for an attack/defence move and for a throw-in move (RULES §8).
MOVE_SECONDS = {Speed.NORMAL: 30, Speed.FAST: 15}
THROW_SECONDS = {Speed.NORMAL: 10, Speed.FAST: 5}

DECK_PLAYERS = {24: (2, 4), 36: (2, 6), 52: (2, 6)}
TEAM_PLAYERS = (4, 6)  # pairs at four, teams of three at six


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
    # Attack cap of 5 until the first bout of the game that ended in «Бито».
    first_bout_cap_5: bool = True

    def __post_init__(self) -> None:
        for name, enum in (("mode", Mode), ("throw_in", ThrowIn), ("speed", Speed)):
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
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rules: {', '.join(sorted(unknown))}")
        return cls(**data)
