"""A service process for the crash test: plays moves, says which ones were committed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from engine import Rules
from service import SystemClock
from tests.service_helpers import humans, next_move, open_service, start


async def main(path: str, moves: int) -> None:
    service = await open_service(Path(path), SystemClock())
    game = (await start(service, Rules(players=2, deck=36), 77, humans(2))).game_id
    print("game", game, flush=True)
    for _ in range(moves):
        state = service.games[game].state
        seat, text = next_move(state)
        update = await service.act(game, seat, text, len(state.history))
        print("ack", update.version, flush=True)  # printed only after the commit
    await asyncio.sleep(3600)  # wait to be killed


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
