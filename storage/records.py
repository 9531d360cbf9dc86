"""The records the repositories read and write: small frozen dataclasses that cross
into the service and the bot (no database code here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any

OptionValue = bool | str | None  # an optional rule's value, as ``engine.Rules`` holds it


class SeatKind(StrEnum):
    """Who sits in a seat (stored as its value in the seats' JSON)."""

    HUMAN = "human"
    BOT = "bot"


class TableStatus(StrEnum):
    """A table's life: its lobby, a game being played, closed (stored as its value)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    CLOSED = "closed"


class GameStatus(StrEnum):
    """A game's row: still being played, or over (played out or abandoned)."""

    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True)
class Seat:
    """A place at a table: a person's or a computer player's."""

    kind: SeatKind
    name: str
    user_id: int | None = None  # a person's Telegram id
    level: str | None = None  # a bot's strength

    @property
    def human(self) -> bool:
        return self.kind == SeatKind.HUMAN

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "name": self.name,
            "user_id": self.user_id,
            "level": self.level,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(SeatKind(data["kind"]), data["name"], data.get("user_id"), data.get("level"))


@dataclass(frozen=True)
class TableSettings:
    """A table's settings: the table (mode, deck, seats, ...), the bots' strength and
    the rules: a preset (a key of ``engine.presets.PRESETS``) with ``options``, only
    those switched away from the preset's value (see ``service.lobby_rules``).
    ``own``: the creator's own mode, deck, seats or pairs where the preset had to
    change them; choosing another preset brings back what it allows of them."""

    mode: str = "podkidnoy"
    deck: int = 36
    seats: int = 2
    throw_in: str = "all"
    pairs: bool = False
    speed: str = "normal"
    bots: str = "novice"  # the strength of every bot at the table
    preset: str = "classic"
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    own: Mapping[str, int | str | bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "options": dict(self.options), "own": dict(self.own)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSettings:
        """Settings as stored; a key this version does not know is dropped, a missing
        one takes its default (rows written before it existed)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class Chat:
    id: int
    title: str
    lang: str
    settings: TableSettings  # the chat's last table's: the next table starts with them


@dataclass(frozen=True)
class User:
    id: int
    name: str
    username: str | None
    lang: str
    can_message: bool


@dataclass(frozen=True)
class Series:
    """A table's series of games (see ``service.series``): who plays it, the last
    fool, each player's «погоны» and wins, a player named by a key (``u<user id>``,
    ``b<n>`` for the table's n-th bot). ``players`` is None in a series stored before
    it was kept: that one goes on whoever plays."""

    players: tuple[str, ...] | None = None  # ``u<id>`` and ``b<n>:<level>``, sorted
    fool: str | None = None  # None: none yet, or a draw or a team's loss
    pogony: Mapping[str, int] = field(default_factory=dict)  # awards received
    wins: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        players = None if self.players is None else list(self.players)
        return {
            "players": players,
            "fool": self.fool,
            "pogony": dict(self.pogony),
            "wins": dict(self.wins),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Series:
        """A series as stored; a missing key takes its default (``{}``: no series yet)."""
        players = data.get("players")
        return cls(
            None if players is None else tuple(players),
            data.get("fool"),
            dict(data.get("pogony", {})),
            dict(data.get("wins", {})),
        )


@dataclass(frozen=True)
class TableRecord:
    id: int
    chat_id: int
    creator_id: int
    settings: TableSettings
    seats: list[Seat]
    status: TableStatus
    lobby_message_id: int | None
    table_message_id: int | None
    series: Series = field(default_factory=Series)
    lobby_is_summary: bool = False  # the lobby message is a game's summary, not a lobby
    join_token: str = field(default="", repr=False)  # the deep link's secret (see Tables.open)
    settings_version: int = 0  # how many times the settings changed (see TableRepo.update)


@dataclass(frozen=True)
class GameRecord:
    id: int
    table_id: int
    rules: dict[str, Any]
    seats: list[Seat]
    seed: int
    status: GameStatus
    version: int
    snapshot: dict[str, Any]
    deadline: float | None
    deadline_for: str | None
    outcome: dict[str, Any] | None
    last_fool: int | None = None  # the series this game started from (engine State)
    pogony_ranks: list[int] | None = None
    time_added: float | None = None  # seconds an outage added to the deadline (this step)


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
