"""The Durak rules engine: typed Python, deterministic, no I/O.

>>> from engine import Rules, State
>>> game = State(Rules(players=2, deck=36), seed=7)
>>> events = game.apply(game.timeout_actions()[0])

The core modules may be compiled with mypyc at install time (see ``setup.py``);
``COMPILED`` says whether they are running compiled (see ``engine.build``).
"""

from . import build  # first: it picks the build the other modules come from
from .actions import Action, IllegalAction, MalformedAction
from .cards import CARDS, Card
from .events import Accused, BoutEnded, Drew, Event, GameOver, Idle, Left, Outcome, Played
from .legal import Turn
from .rules import Mode, Rules, Speed, ThrowIn
from .serialize import SnapshotError
from .state import State, replay
from .view import View, make_view

COMPILED = build.compiled()

__all__ = [
    "CARDS",
    "COMPILED",
    "Accused",
    "Action",
    "BoutEnded",
    "Card",
    "Drew",
    "Event",
    "GameOver",
    "Idle",
    "IllegalAction",
    "Left",
    "MalformedAction",
    "Mode",
    "Outcome",
    "Played",
    "Rules",
    "SnapshotError",
    "Speed",
    "State",
    "ThrowIn",
    "Turn",
    "View",
    "make_view",
    "replay",
]
