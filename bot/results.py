"""A finished game's result in the group, with «Ещё партию»: it is the table's next
lobby message, and only the newest one keeps the button."""

from __future__ import annotations

import logging

from service import LiveGame
from service.records import Records
from service.series import pogony_pairs, series_score

from . import render
from .outbox import Outbox
from .shown import Shown, summed_up

log = logging.getLogger(__name__)


class Results:
    def __init__(self, records: Records, outbox: Outbox) -> None:
        self.records, self.outbox = records, outbox
        # table -> its latest result sent by this process: only that one keeps «Ещё
        # партию» (an older one whose table posted a lobby since may still have it)
        self._latest: dict[int, int] = {}

    async def post(self, game_id: int, game: Shown, live: LiveGame) -> None:
        """Send the result, queued after the table's last edit (so it comes after it),
        and note it as the table's lobby message."""
        outcome = live.state.outcome
        assert outcome is not None
        pogony = pogony_pairs(outcome, live.state.pogony_awards)
        names = render.seat_names(game.lang, live.seats)
        table = await self.records.table(game.table_id)  # its series counts this game
        if table is not None and summed_up(table):
            return  # by the process that showed the games before this one took over
        score = series_score(table.series, live.seats) if table else []
        text = render.outcome_text(game.lang, outcome, names, pogony, score)
        sent = await self.outbox.send(game.chat_id, text, render.again(game.lang, game.table_id))
        await self.records.set_lobby_message(
            game.table_id, sent.message_id if sent else None, summary=True
        )
        older = {self._latest.pop(game.table_id, None)}
        if table is not None and table.lobby_is_summary:
            older.add(table.lobby_message_id)
        if sent is not None:
            self._latest[game.table_id] = sent.message_id
            older.discard(sent.message_id)
        for message_id in older - {None}:  # only the newest result keeps «Ещё партию»
            assert message_id is not None
            self.outbox.edit(game.chat_id, message_id, None)
        log.info("table %s: game %s over, fools %s", game.table_id, game_id, outcome.fools)
