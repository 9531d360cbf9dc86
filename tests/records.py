"""Records as the storage reads them, built for tests that draw them (the renderers)."""

from __future__ import annotations

from service import Seat, TableSettings
from storage.records import TableRecord, TableStatus


def lobby_record(
    table_id: int, settings: TableSettings | None = None, seats: list[Seat] | None = None
) -> TableRecord:
    """Table ``table_id`` of the group -100 as its lobby shows it: ``settings`` (the
    defaults if None) and ``seats`` taken (none if None), opened by user 1."""
    return TableRecord(
        id=table_id,
        chat_id=-100,
        creator_id=1,
        settings=settings or TableSettings(),
        seats=seats or [],
        status=TableStatus.LOBBY,
        lobby_message_id=None,
        table_message_id=None,
    )
