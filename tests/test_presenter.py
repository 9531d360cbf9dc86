"""The presenter's scheduling: one worker per game, the newest state shown."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.presenter import Presenter
from engine import Rules, State
from service import Update


def presenter_with(show: Any) -> Presenter:
    presenter = Presenter(db=None, service=SimpleNamespace(games={}), outbox=None)  # type: ignore[arg-type]
    presenter.show = show  # type: ignore[method-assign]
    return presenter


def news(game_id: int, version: int) -> Update:
    return Update(game_id, version, [], State(Rules(), 0))


async def test_a_slow_game_does_not_hold_up_the_others() -> None:
    gate, shown = asyncio.Event(), []

    async def show(game_id: int, user_id: int | None = None) -> None:
        if game_id == 1:
            await gate.wait()  # e.g. a new message waiting for its slot
        shown.append(game_id)

    presenter = presenter_with(show)
    presenter.start()
    await presenter.on_update(news(1, 1))
    await presenter.on_update(news(2, 1))
    await asyncio.sleep(0.05)
    assert shown == [2]
    gate.set()
    await presenter.idle()
    assert shown == [2, 1]
    await presenter.stop()


async def test_news_that_arrives_while_showing_is_shown_once_more() -> None:
    gate, shown = asyncio.Event(), []

    async def show(game_id: int, user_id: int | None = None) -> None:
        shown.append(game_id)
        await gate.wait()

    presenter = presenter_with(show)
    presenter.start()
    await presenter.on_update(news(1, 1))
    await asyncio.sleep(0.01)
    for version in (2, 3, 4):  # three moves while the first render is still going
        await presenter.on_update(news(1, version))
    gate.set()
    await presenter.idle()
    assert shown == [1, 1]  # the newest state once, not every version in between
    await presenter.stop()


async def test_news_before_the_start_is_shown_at_the_start() -> None:
    shown: list[int] = []

    async def show(game_id: int, user_id: int | None = None) -> None:
        shown.append(game_id)

    presenter = presenter_with(show)
    await presenter.on_update(news(5, 1))  # e.g. a game restored before start()
    await asyncio.sleep(0.01)
    assert shown == []
    presenter.start()
    await presenter.idle()
    assert shown == [5]
    await presenter.stop()
