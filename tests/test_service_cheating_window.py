"""The game service's move timers close a bout left open for «Антимухлёж» (RULES §9,
option ``cheating``) when nobody accuses: one throw-in clock, then the bout ends."""

from __future__ import annotations

from pathlib import Path

from engine import Action, Rules
from engine.actions import DONE
from service import FakeClock
from tests.service_helpers import held, humans, next_move, open_service, start


async def test_the_throw_in_clock_ends_a_bout_open_for_accusations(tmp_path: Path) -> None:
    clock = FakeClock()
    service = await open_service(tmp_path / "w.sqlite3", clock)
    rules = Rules(players=2, deck=36, cheating=True)
    game = (await start(service, rules, 12, humans(2))).game_id
    state = held(service, game).state
    for _ in range(200):  # greedy moves until a beat ends a bout, not the last one
        if state.closing and state.stock:
            break
        seat, text = next_move(state)
        await service.act(game, Action.from_text(seat, text), len(state.history))
        state = held(service, game).state
    assert state.closing and state.outcome is None
    bouts, version, turn = state.bouts, len(state.history), state.turn()
    assert turn is not None and turn.kind == "throw" and turn.seats == (state.attacker,)
    assert service.deadline(game) == clock.now() + rules.throw_seconds
    clock.advance(rules.throw_seconds - 1)
    assert await service.fire_due() == 0
    assert held(service, game).state.closing  # still open: anyone may accuse
    clock.advance(1)
    assert await service.fire_due() == 1
    state = held(service, game).state
    assert not state.closing and state.bouts == bouts + 1
    assert state.history[version].kind == DONE and state.auto[version]
    assert state.outcome is None and state.turn() == ("attack", (state.attacker,))
    assert service.deadline(game) == clock.now() + rules.move_seconds
    await service.db.close()
