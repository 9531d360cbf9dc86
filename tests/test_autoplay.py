"""Computer players move after a person's step, each move a step of its own."""

from __future__ import annotations

import asyncio
import itertools
import os
from functools import partial
from pathlib import Path

import pytest

from engine import Action, Rules
from engine.actions import DONE, PASS
from service import GameService, Seat, Update
from service.thinking import Thinker
from storage.records import SeatKind
from storage.repos import GameRepo
from tests.autoplay_helpers import GatedThinker, deal_where, has_pair
from tests.service_helpers import (
    Heard,
    held,
    humans,
    new_table,
    next_move,
    open_service,
    play_moves,
)
from tests.thinking_targets import signed

pytestmark = pytest.mark.usefixtures("backend")  # SQLite and PostgreSQL

MASTERS = [
    Seat(SeatKind.BOT, "Мастер 1", level="master"),
    Seat(SeatKind.BOT, "Мастер 2", level="master"),
]
WORDS = (DONE, PASS)


async def start_with(
    service: GameService, rules: Rules, seed: int, seats: list[Seat], chat: int = -1001
) -> int:
    table = await new_table(service, sum(s.kind == SeatKind.HUMAN for s in seats), chat)
    return (await service.create_game(table, rules, seats, seed)).game_id


async def test_a_persons_move_is_published_before_any_bot_thinks_it_over(tmp_path: Path) -> None:
    thinker = GatedThinker()
    heard = Heard()
    db = (await open_service(tmp_path / "a.sqlite3")).db
    service = GameService(db, thinker=thinker, listener=heard)
    published = heard.updates
    rules = Rules(players=3, deck=36)
    seed = deal_where(rules, lambda s: s.attacker == 0)
    game = await start_with(service, rules, seed, [humans(1)[0], *MASTERS])
    opening = held(service, game).state.legal_actions(0)[0]

    update = await service.act(game, Action.from_text(0, opening.text), 0)
    assert update.version == 1 and update.actions == [(opening, False)]
    assert [u.version for u in published] == [0, 1]  # shown before any bot decided
    await asyncio.wait_for(thinker.thinking.wait(), 5)
    assert len(await GameRepo(service.db).actions(game)) == 1

    thinker.gate.set()
    await service.idle()
    later = published[2:]
    assert later, "the bots did not move"
    assert [u.version for u in later] == list(range(2, 2 + len(later)))
    assert all(len(u.actions) == 1 for u in later)
    # Her only moves in between: the words said for her («Бито»/«Пас» with nothing to add).
    assert all(a.seat != 0 or (auto and a.kind in WORDS) for u in later for a, auto in u.actions)
    turn = held(service, game).state.turn()
    assert turn is not None and 0 in turn.seats  # they stopped where the person must act
    await service.db.close()


async def test_a_decision_made_stale_by_a_persons_move_is_made_again(tmp_path: Path) -> None:
    thinker = GatedThinker()
    service = GameService((await open_service(tmp_path / "s.sqlite3")).db, thinker=thinker)
    rules = Rules(players=2, deck=36)
    seed = deal_where(rules, lambda s: s.attacker == 0 and has_pair(s, 0))
    game = await start_with(service, rules, seed, [humans(1)[0], MASTERS[0]])
    state = held(service, game).state
    hand = [c for c in state.view(0).hand if c.suit != state.trump]
    first, second = next((a, b) for a in hand for b in hand if a != b and a.rank == b.rank)

    await service.act(game, Action.from_text(0, f"a {first}"), 0)
    await asyncio.wait_for(thinker.thinking.wait(), 5)  # the bot thinks at version 1
    await service.act(game, Action.from_text(0, f"t {second}"), 1)  # meanwhile the person throws in
    thinker.gate.set()
    await service.idle()

    assert thinker.asked[:2] == [1, 2]  # the answer to version 1 was thrown away
    log = await GameRepo(service.db).actions(game)
    assert [(a.seat, a.action) for a in log[:2]] == [(0, f"a {first}"), (0, f"t {second}")]
    assert log[2].seat == 1  # the bot answered, knowing both cards
    await service.db.close()


async def test_a_thinking_bot_does_not_hold_up_another_game(tmp_path: Path) -> None:
    thinker = GatedThinker()
    service = GameService((await open_service(tmp_path / "o.sqlite3")).db, thinker=thinker)
    rules = Rules(players=2, deck=36)
    slow = await start_with(
        service, rules, deal_where(rules, lambda s: s.attacker == 1), [humans(1)[0], MASTERS[0]]
    )
    await asyncio.wait_for(thinker.thinking.wait(), 5)  # the bot opens: it thinks
    other = await start_with(service, rules, 5, humans(2), chat=-1002)
    moves = 0
    for _ in range(20):  # play_moves would wait for the slow game too: step by hand
        state = held(service, other).state
        seat, text = next_move(state)
        await service.act(other, Action.from_text(seat, text), len(state.history))
        moves += 1
    assert moves == 20 and len(held(service, slow).state.history) == 0
    thinker.gate.set()
    await service.idle()
    assert len(held(service, slow).state.history) >= 1
    await service.db.close()


async def test_computer_moves_come_a_pause_apart_and_a_press_is_never_delayed(
    tmp_path: Path,
) -> None:
    db = (await open_service(tmp_path / "p.sqlite3")).db
    loop = asyncio.get_running_loop()
    times: list[tuple[float, Update]] = []
    heard = Heard(lambda update: times.append((loop.time(), update)))
    service = GameService(db, pause=(0.15, 0.15), listener=heard)
    novice = Seat(SeatKind.BOT, "Новичок 1", level="novice")
    game = await start_with(service, Rules(players=2, deck=36), 3, [humans(1)[0], novice])
    for _ in range(12):
        await service.idle()
        state = held(service, game).state
        if state.is_over:
            break
        seat, text = next_move(state)
        update = await service.act(game, Action.from_text(seat, text), len(state.history))
        assert times[-1][1] is update  # answered before any computer move
    bot_cards = {
        id(u) for _, u in times if u.actions and u.actions[0][0].seat == 1 and u.actions[0][0].cards
    }
    assert len(bot_cards) >= 2
    for (earlier, _), (later, update) in itertools.pairwise(times):
        if id(update) in bot_cards:
            assert later - earlier >= 0.14  # each computer card move waits its pause
    await db.close()


async def test_thinking_bots_think_in_worker_processes(tmp_path: Path) -> None:
    folder = tmp_path / "pids"
    folder.mkdir()
    thinker = Thinker(1, target=partial(signed, str(folder)))
    service = GameService((await open_service(tmp_path / "w.sqlite3")).db, thinker=thinker)
    expert = Seat(SeatKind.BOT, "Опытный 1", level="expert")
    game = await start_with(service, Rules(players=2, deck=36), 4, [humans(1)[0], expert])
    await play_moves(service, game, 4)
    pids = {int(p.name) for p in folder.iterdir()}
    assert pids and os.getpid() not in pids  # every decision in another process
    assert any(a.seat == 1 for a in held(service, game).state.history)
    await service.stop()
    await service.db.close()
