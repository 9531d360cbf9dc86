"""A service process for the crash tests: plays moves, says which ones were committed.

``python -m tests.crash_child PATH MOVES``: two people play MOVES moves.
``python -m tests.crash_child PATH bots``: a person and a bot whose moves wait an
hour; the person moves once.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from engine import Action, Rules
from service import GameService, Seat, SystemClock
from storage.records import SeatKind
from tests.service_helpers import held, humans, next_move, open_service, start

BOT = Seat(SeatKind.BOT, "Новичок 1", level="novice")
BOT_SEED = 2  # a deal in which the person (seat 0) opens


async def main(path: str, moves: str) -> None:
    service = await open_service(Path(path), SystemClock())
    if moves == "bots":
        service = GameService(service.db, pause=(3600.0, 3600.0))
        game = await start(service, Rules(players=2, deck=36), BOT_SEED, [*humans(1), BOT])
        state = held(service, game.game_id).state
        assert state.attacker == 0
        update = await service.act(
            game.game_id, Action.from_text(0, state.legal_actions(0)[0].text), 0
        )
        print("ack", update.version, flush=True)
        await asyncio.sleep(3600)
    game_id = (await start(service, Rules(players=2, deck=36), 77, humans(2))).game_id
    print("game", game_id, flush=True)
    for _ in range(int(moves)):
        state = held(service, game_id).state
        seat, text = next_move(state)
        update = await service.act(game_id, Action.from_text(seat, text), len(state.history))
        print("ack", update.version, flush=True)  # printed only after the commit
    await asyncio.sleep(3600)  # wait to be killed


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
