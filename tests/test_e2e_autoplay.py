"""End to end: a person's press is answered and shown before the computer players
think; their moves then come one step each, and another table plays on meanwhile."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app import App
from bot.callbacks import LobbyCb, LobbyOp
from engine import Rules
from engine.actions import DONE, PASS
from service import Update
from tests.autoplay_helpers import GatedThinker, deal_where
from tests.e2e_helpers import (
    choose,
    hand_message,
    latest,
    open_table,
    running_bot,
    seat_everyone,
    settle,
)
from tests.fakes import FakeTelegram, FakeUser
from tests.service_helpers import held


async def shown(app: App) -> None:
    """Rendered and sent, without waiting for the computer players."""
    await app.presenter.idle()
    await app.outbox.drain()


async def press_hand(tg: FakeTelegram, app: App, user: FakeUser) -> None:
    """The user presses a sensible button of their hand; the press is answered."""
    message = hand_message(tg, user)
    assert message is not None
    data = choose(tg, message)
    assert data is not None, f"{user.first_name} has nothing to press"
    assert await asyncio.wait_for(await tg.press(user, message, data), 5) is not None
    await shown(app)


async def test_the_press_comes_first_and_the_bots_one_step_each(
    tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, boris, vika = tg.add_user(1, "Аня"), tg.add_user(2, "Борис"), tg.add_user(3, "Вика")
    with_bots = tg.add_group(-100, "С ботами", members=[anna])
    friends = tg.add_group(-200, "Друзья", members=[boris, vika])
    for user in (anna, boris, vika):
        tg.start_private(user)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        thinker = GatedThinker()
        app.service.autoplay.thinker = thinker
        published: list[Update] = []
        on_update = app.presenter.on_update

        async def recording(update: Update) -> None:
            published.append(update)
            await on_update(update)

        monkeypatch.setattr(app.presenter, "on_update", recording)
        rules = Rules(players=3, deck=36)
        app.service.new_seed = lambda: deal_where(rules, lambda s: s.attacker == 0)
        lobby = await open_table(tg, app, with_bots, anna)
        for op, arg in (("bots", "expert"), ("bots", "master"), ("set", "seats")):
            await (await tg.press(anna, lobby, LobbyCb(table=1, op=LobbyOp(op), arg=arg).pack()))
            await settle(app)  # the lobby shows the next button
        await seat_everyone(tg, app, with_bots, [anna])
        for _ in range(2):
            bot = LobbyCb(table=1, op=LobbyOp.BOT).pack()
            await (await tg.press(anna, latest(tg, with_bots), bot))
        await shown(app)
        game = app.service.game_of(1)
        assert game is not None

        await press_hand(tg, app, anna)  # Аня opens; the bots cannot think yet
        await asyncio.wait_for(thinker.thinking.wait(), 5)
        state = held(app.service, game).state
        assert len(state.history) == 1 and state.history[0].seat == 0
        card = state.history[0].cards[0].label()
        assert card in (latest(tg, with_bots).text or "")  # the move is on the table

        app.service.new_seed = lambda: 7
        await open_table(tg, app, friends, boris)
        for user in (boris, vika):  # seat_everyone would wait for the bots
            join = LobbyCb(table=2, op=LobbyOp.JOIN).pack()
            await (await tg.press(user, latest(tg, friends), join))
        await shown(app)
        other = app.service.game_of(2)
        assert other is not None
        for _ in range(6):  # the other table plays while the bots still think
            for user in (boris, vika):
                message = hand_message(tg, user)
                if message is not None and choose(tg, message) is not None:
                    await press_hand(tg, app, user)
        assert len(held(app.service, other).state.history) >= 6
        assert len(held(app.service, game).state.history) == 1

        thinker.gate.set()
        await settle(app)
        ours = [u for u in published if u.game_id == game and u.version > 1]
        assert ours and all(len(u.actions) == 1 for u in ours)  # one move a step
        # Аня's only moves: the words said for her when she had nothing to add.
        assert all(
            a.seat in (1, 2) or (auto and a.kind in (DONE, PASS))
            for u in ours
            for a, auto in u.actions
        )
        assert [u.version for u in ours] == list(range(2, 2 + len(ours)))
    assert tg.unanswered_callbacks() == []
