"""The records the repositories read and write: small frozen dataclasses that cross
into the service and the bot (no database code here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Seat:
    """A place at a table: a person's or a computer player's."""

    kind: str  # "human" or "bot"
    name: str
    user_id: int | None = None  # a person's Telegram id
    level: str | None = None  # a bot's strength

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "user_id": self.user_id, "level": self.level}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(data["kind"], data["name"], data.get("user_id"), data.get("level"))


@dataclass(frozen=True)
class Chat:
    id: int
    title: str
    lang: str
    settings: dict[str, Any]


@dataclass(frozen=True)
class User:
    id: int
    name: str
    username: str | None
    lang: str
    can_message: bool


@dataclass(frozen=True)
class TableRecord:
    id: int
    chat_id: int
    creator_id: int
    settings: dict[str, Any]
    seats: list[Seat]
    status: str  # lobby, playing, closed
    lobby_message_id: int | None
    table_message_id: int | None
    series: dict[str, Any] = field(default_factory=dict)  # see service.series
    lobby_is_summary: bool = False  # the lobby message is a game's summary, not a lobby
    join_token: str = field(default="", repr=False)  # the deep link's secret (see Tables.open)


@dataclass(frozen=True)
class GameRecord:
    id: int
    table_id: int
    rules: dict[str, Any]
    seats: list[Seat]
    seed: int
    status: str  # playing, over
    version: int
    snapshot: dict[str, Any]
    deadline: float | None
    deadline_for: str | None
    outcome: dict[str, Any] | None
    last_fool: int | None = None  # the series this game started from (engine State)
    pogony_ranks: list[int] | None = None


@dataclass(frozen=True)
class ActionRecord:
    seq: int
    seat: int
    action: str
    auto: bool
    at: float


@dataclass(frozen=True)
class Stats:
    chat_id: int
    user_id: int
    games: int
    wins: int
    fools: int
    draws: int
    surrenders: int
    pogony: int  # «погоны» received
    mu: float
    sigma: float
    pogony_given: int = 0


@dataclass(frozen=True)
class Standing:
    """A user's statistics in one chat, with the chat's title and their place in its
    rating table (by the conservative estimate mu - 3 sigma, as in ``chat_top``)."""

    stats: Stats
    title: str
    place: int
    players: int
