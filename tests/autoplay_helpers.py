"""Computer players whose thinking the test controls, and deals that suit the tests."""

from __future__ import annotations

import asyncio

from engine import Action, Rules, State, View
from engine.bots import decide
from service.thinking import Thinker


class GatedThinker(Thinker):
    """Thinks like the real bots, in this process, but only once the gate is open;
    remembers the version each decision was asked at."""

    def __init__(self) -> None:
        super().__init__(1)
        self.gate = asyncio.Event()
        self.asked: list[int] = []
        self.thinking = asyncio.Event()  # set while a decision waits at the gate

    async def decide(self, level: str, view: View, seed: int) -> Action | None:
        self.asked.append(len(view.history))
        self.thinking.set()
        await self.gate.wait()
        self.thinking.clear()
        return decide(level, view, seed)


def deal_where(rules: Rules, fits: object) -> int:
    """The first seed whose deal ``fits`` (a predicate on the new state)."""
    assert callable(fits)
    for seed in range(10_000):
        if fits(State(rules, seed)):
            return seed
    raise AssertionError("no such deal")


def has_pair(state: State, seat: int) -> bool:
    """The seat holds two cards of one rank, neither a trump."""
    ranks = [c.rank for c in state.view(seat).hand if c.suit != state.trump]
    return len(ranks) != len(set(ranks))
