"""The game service: loads a game, applies a move through the engine, commits it,
and only then reports what happened. Also the move timers and the ratings."""

from storage.repos import Seat, TableSettings

from .clock import Clock, FakeClock, SystemClock
from .follow import Keeping
from .games import GameService, Refusal, Refused
from .live import LiveGame
from .news import Listener, Update
from .registry import Games, LiveGames
from .timers import Timers

__all__ = [
    "Clock",
    "FakeClock",
    "GameService",
    "Games",
    "Keeping",
    "Listener",
    "LiveGame",
    "LiveGames",
    "Refusal",
    "Refused",
    "Seat",
    "SystemClock",
    "TableSettings",
    "Timers",
    "Update",
]
