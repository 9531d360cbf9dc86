"""The Mini App: the table drawn as cards in a page Telegram opens inside the app, live
over a WebSocket, its moves made through the same game service step as a press."""

from .auth import MAX_AGE, AuthError, AuthRefusal, Launch, authenticate, sign
from .server import MiniApp
from .watchers import Watchers

__all__ = [
    "MAX_AGE",
    "AuthError",
    "AuthRefusal",
    "Launch",
    "MiniApp",
    "Watchers",
    "authenticate",
    "sign",
]
