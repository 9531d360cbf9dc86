"""Every update is handled on the event loop: aiogram runs a filter or handler that is
not a coroutine in a thread (``asyncio.to_thread``) at each check, as it did a dozen
times for a text said in a group (``bot.handlers.chats``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from tests.e2e_helpers import latest, open_table, running_bot, settle
from tests.fakes import FakeTelegram


async def test_texts_commands_and_presses_take_no_thread(
    tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[Callable[..., Any]] = []
    real = asyncio.to_thread

    async def to_thread(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        threads.append(func)
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", to_thread)
    anna, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
    group = tg.add_group(-100, "Друзья", members=[anna, boris])
    tg.start_private(anna)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        for text in ("всем привет", "кто играет?", "Правила"):  # chatter, then a word it knows
            await tg.send_text(boris, group, text)
        await tg.wait_for_message(group, lambda m: "Правила" in (m.text or ""))
        await tg.send_text(anna, anna, "моя стата")
        await tg.wait_for_message(anna, lambda m: "ни одной партии" in (m.text or ""))
        await open_table(tg, app, group, anna)
        await (await tg.press(anna, latest(tg, group), LobbyCb(table=1, op=LobbyOp.JOIN).pack()))
        for forged in ("c:1:7S::00000000", "z:1"):  # a card of no hand; data of no kind
            await (await tg.press(anna, latest(tg, group), forged, forge=True))
        tg.block(anna)  # (a member update of a private chat)
        await settle(app)
    assert threads == []
    assert tg.internal_errors == []
