"""The schema's migrations (``NNNN_name.sql``), and the few that need more than SQL:
``BACKFILLS[n]`` runs in migration n's transaction after its statements."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from ..records import SeatKind
from ..tx import Tx

log = logging.getLogger(__name__)


async def _seated_people(tx: Tx) -> None:
    """0007: the seated people of the open tables (the seats are JSON; the oldest table
    keeps a person that an older bot let sit at two)."""
    rows = await tx.fetch_all("SELECT id, seats FROM tables WHERE status != 'closed' ORDER BY id")
    for table_id, seats in rows:
        for seat in json.loads(seats):
            user_id = seat.get("user_id")
            if seat.get("kind") == SeatKind.HUMAN and user_id is not None:
                added = await tx.execute(
                    "INSERT INTO table_seats (table_id, user_id) VALUES (?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (table_id, user_id),
                )
                if not added:
                    log.warning("user %s is seated at two tables; table %s", user_id, table_id)


BACKFILLS: dict[int, Callable[[Tx], Awaitable[None]]] = {7: _seated_people}
