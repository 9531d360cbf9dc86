"""After an outage of the database: the group is told that its game's move got back the
time the outage took (``service.outage`` moves the deadline; the hands show it)."""

from __future__ import annotations

from service.outage import TimeAdded
from service.records import Records

from .delivery import Delivery
from .i18n import t


class TimeNotices:
    def __init__(self, records: Records, delivery: Delivery) -> None:
        self.records, self.delivery = records, delivery

    async def __call__(self, added: TimeAdded) -> None:
        chat = await self.records.chat(added.chat_id)
        lang = chat.lang if chat else "ru"
        outage = t(lang, "seconds", n=max(1, round(added.outage)))
        left = t(lang, "seconds", n=max(1, round(added.left)))
        await self.delivery.send(
            added.chat_id, t(lang, "outage.time_added", outage=outage, left=left)
        )
