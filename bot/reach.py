"""Who can be written to privately: one owner of the users whose private chat refuses
the bot. The outbox marks a user whose private chat answered 403 (they blocked the
bot), the presenter one who never started it (their game is read), and /start (or
the my_chat_member update) unmarks them; their hands are not sent privately while
marked, and they play from the group."""

from __future__ import annotations

from service.records import Records


class Reach:
    def __init__(self, records: Records) -> None:
        self._records = records
        self._blocked: set[int] = set()

    def blocked(self, user_id: int) -> bool:
        return user_id in self._blocked

    def set(self, user_id: int, blocked: bool) -> None:
        """Mark (or unmark) the user as not reachable privately."""
        if blocked:
            self._blocked.add(user_id)
        else:
            self._blocked.discard(user_id)

    async def refused(self, user_id: int) -> None:
        """A private message to the user was refused (403): marked, and stored."""
        self._blocked.add(user_id)
        await self._records.set_can_message(user_id, False)
