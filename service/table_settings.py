"""The creator's settings of a table's lobby: seats, deck, mode, options, the bots'
strength; each change written only on the settings and seats it was decided on."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import Rules
from engine.bots import NAMES as BOT_NAMES
from engine.presets import PRESETS
from engine.rules import DECK_PLAYERS, Mode
from storage.repos import (
    ChatRepo,
    Seat,
    SeatKind,
    TableRecord,
    TableRepo,
    TableSettings,
    TableStatus,
)

from .lobbies import Shown
from .lobby_rules import (
    OPTIONS,
    TRANSFER_ONLY,
    changed,
    page_of,
    rules_problem,
    table_rules,
    with_option,
    with_preset,
)
from .table_base import Person, TableBase, TableError, TableRefusal, locked

# A setting's values, in the order its button cycles them.
CYCLES: dict[str, tuple[str | int | bool, ...]] = {
    "mode": ("podkidnoy", "perevodnoy"),
    "deck": (24, 36, 52),
    "throw_in": ("all", "neighbors"),
    "pairs": (False, True),
    "speed": ("normal", "fast"),
}
BOT_LEVELS = tuple(BOT_NAMES)  # novice, expert, master
MAX_SEATS = max(high for _, high in DECK_PLAYERS.values())


def bot_seat(level: str, number: int) -> Seat:
    """A bot seat named by its strength and number: «Мастер 2»."""
    return Seat(SeatKind.BOT, f"{BOT_NAMES[level]} {number}", level=level)


def settings_problem(settings: TableSettings, players: int | None = None) -> TableError | None:
    """Why these settings cannot be played (by ``players``; the seats by default), or None."""
    deck, seats = settings.deck, settings.seats if players is None else players
    low, high = DECK_PLAYERS[deck]
    if not low <= seats <= high:
        return TableError(
            TableRefusal.BAD_SETTINGS, reason="deck_players", deck=deck, low=low, high=high
        )
    if settings.pairs and seats not in (4, 6):
        return TableError(TableRefusal.BAD_SETTINGS, reason="pairs_players")
    problem = rules_problem(settings, players)
    if problem is not None:
        return TableError(TableRefusal.BAD_SETTINGS, reason=problem[0], **problem[1])
    return None


def rules_for(settings: TableSettings, players: int) -> Rules:
    return table_rules(settings, players)


class TableSettingsOps(TableBase):
    @locked
    async def set_bots(self, table_id: int, person: Person, level: str) -> TableRecord:
        """Choose the strength of the table's bots: the seated ones and those added later."""
        table = await self._as_creator(table_id, person)
        if level not in BOT_LEVELS:
            raise TableError(TableRefusal.NOT_NOW)
        settings = replace(table.settings, bots=level)
        seats, number = [], 0
        for seat in table.seats:
            if not seat.human:
                number += 1
                seat = bot_seat(level, number)
            seats.append(seat)
        shown = Shown(table.id, table.chat_id)
        async with self.db.tx() as c:
            written = await TableRepo.update(
                c,
                table.id,
                settings=settings,
                seats=seats,
                expect_seats=table.seats,
                expect_settings=table.settings_version,
            )
            if written:
                await ChatRepo.set_settings(c, table.chat_id, settings)
                await self._written(c, shown)
        if not written:
            raise await self._moved(table)
        return await self._committed(await self.get(table.id), shown)

    @locked
    async def set_preset(
        self, table_id: int, person: Person, key: str
    ) -> tuple[TableRecord, list[str]]:
        """Choose a preset: its options, and the players, deck and mode it fixes. Also
        says which of the table's mode, deck, seats and pairs changed with it."""
        table = await self._as_creator(table_id, person)
        if key not in PRESETS:
            raise TableError(TableRefusal.NOT_NOW)
        settings = with_preset(table.settings, key, len(table.seats))
        saved = await self._save_settings(table, settings, page="rules")
        return saved, changed(table.settings, saved.settings)

    @locked
    async def set_option(self, table_id: int, person: Person, option: str) -> TableRecord:
        """Move one optional rule to its next value."""
        table = await self._as_creator(table_id, person)
        if option not in OPTIONS:
            raise TableError(TableRefusal.NOT_NOW)
        settings = table.settings
        if option in TRANSFER_ONLY and settings.mode != Mode.PEREVODNOY:
            raise TableError(TableRefusal.BAD_SETTINGS, reason="transfer_only")
        return await self._save_settings(table, with_option(settings, option), page_of(option))

    @locked
    async def change(self, table_id: int, person: Person, field: str, step: int = 1) -> TableRecord:
        """Move one setting to its next value (``seats`` by ``step``)."""
        table = await self._as_creator(table_id, person)
        settings = table.settings
        if field == "seats":
            value: Any = settings.seats + step
            if value < max(2, len(table.seats)):
                raise TableError(TableRefusal.NEED_TWO if value < 2 else TableRefusal.SEATS_TAKEN)
        elif field in CYCLES:
            values = CYCLES[field]
            value = values[(values.index(getattr(settings, field)) + 1) % len(values)]
        else:
            raise TableError(TableRefusal.NOT_NOW)
        own = {k: v for k, v in settings.own.items() if k != field}  # the creator's choice now
        return await self._save_settings(table, replace(settings, own=own, **{field: value}))

    @locked
    async def next_seats(self, table_id: int, person: Person) -> TableRecord:
        """One more seat, or back to the fewest once no more can be played (the seated
        players keep theirs); counts these settings cannot play are skipped."""
        table = await self._as_creator(table_id, person)
        settings, low = table.settings, max(2, len(table.seats))
        counts = [*range(settings.seats + 1, MAX_SEATS + 1), *range(low, settings.seats)]
        for seats in counts:
            if settings_problem(replace(settings, seats=seats)) is None:
                own = {k: v for k, v in settings.own.items() if k != "seats"}
                return await self._save_settings(table, replace(settings, seats=seats, own=own))
        raise settings_problem(replace(settings, seats=settings.seats + 1)) or TableError(
            TableRefusal.NOT_NOW
        )

    async def _save_settings(
        self, table: TableRecord, settings: TableSettings, page: str | None = None
    ) -> TableRecord:
        """Store playable settings with the table and as the chat's default; the lobby
        shows them on ``page``."""
        problem = settings_problem(settings)
        if problem is not None:
            raise problem
        shown = Shown(table.id, table.chat_id, page=page)
        async with self.db.tx() as c:
            written = await TableRepo.update(
                c,
                table.id,
                settings=settings,
                expect_seats=table.seats,
                expect_status=TableStatus.LOBBY,
                expect_settings=table.settings_version,
            )
            if written:
                await ChatRepo.set_settings(c, table.chat_id, settings)
                await self._written(c, shown)
        if not written:
            raise await self._moved(table)
        return await self._committed(await self.get(table.id), shown)
