"""What the presenter keeps of a game it shows (``Shown``), and two facts it reads off
the table and off Telegram's echo of a keyboard."""

from __future__ import annotations

from dataclasses import dataclass, field

from service import LiveGame, TableSettings
from service.records import Records
from storage.repos import TableRecord

from .render_hand import Drawn, retimed

Who = int | None  # a hand's user, or None for the group's table message


Memo = tuple[tuple[object, ...], int | None, Drawn]  # drawn from, seconds left, the hand


@dataclass(eq=False)
class Slot:
    """One message of a game the presenter shows (the table message or a hand), and
    what it shows."""

    id: int | None = None  # None: not sent yet (or on its way: ``sending``)
    sending: bool = False  # a new one is on its way
    missed: bool = False  # news came while it was on its way: shown again once there
    drawn: str | None = None  # a hand: the key of what it was last handed to show
    delivered: str | None = None  # ... as Telegram confirmed
    # a hand as last drawn, with all it was drawn from (the outbox, the handlers and the
    # presenter ask for the same hand several times per move), and the seconds left it
    # showed (its key does not depend on them)
    memo: Memo | None = None

    def recall(self, inputs: tuple[object, ...]) -> Drawn | None:
        """The hand as last drawn, if drawn from the same ``inputs`` (with whatever
        seconds left: the same key)."""
        memo = self.memo
        return memo[2] if memo is not None and memo[0] == inputs else None

    def recall_timed(
        self, inputs: tuple[object, ...], lang: str, seconds: int | None
    ) -> Drawn | None:
        """The same, showing ``seconds`` left (its text redone when they differ)."""
        known = self.recall(inputs)
        if known is None or self.memo is None or self.memo[1] == seconds:
            return known
        again = retimed(lang, known, seconds)
        if again is not None:
            self.memo = (inputs, seconds, again)
        return again


@dataclass(eq=False)
class Shown:
    """What the presenter keeps of a game it shows; forgotten with the game."""

    table_id: int
    chat_id: int  # the group's
    lang: str  # of the group's texts
    langs: dict[int, str] = field(default_factory=dict)  # user -> the hand's language
    settings: TableSettings = field(default_factory=TableSettings)
    token: str = ""  # the table's join token (the Mini App's link names it)
    seated: set[int] = field(default_factory=set)  # users still at the table
    slots: dict[Who, Slot] = field(default_factory=dict)  # the table message's (None), hands'

    def slot(self, who: Who) -> Slot:
        """The table message's (``who`` None) or ``who``'s hand's."""
        found = self.slots.get(who)
        if found is None:
            found = self.slots[who] = Slot()
        return found


async def read_shown(
    records: Records, game_id: int, live: LiveGame, table: TableRecord, *, messages: bool
) -> tuple[Shown, list[int]]:
    """What rendering a game needs from the database: the hands' languages, who is
    still seated and, with ``messages`` (a game this process shows), the group's language
    and the messages' ids. Also returns the players the bot cannot write to privately."""
    chat = await records.chat(table.chat_id) if messages else None
    game = Shown(live.table_id, live.chat_id, chat.lang if chat else "ru")
    game.seated = {uid for s in table.seats if (uid := s.user_id) is not None}
    group_only = []
    if messages:
        game.slot(None).id = table.table_message_id
    for uid in [s.user_id for s in live.seats if s.human]:
        if uid is None:
            continue
        user = await records.user(uid)
        game.langs[uid] = user.lang if user else "ru"
        if messages:
            if user is not None and not user.can_message:
                group_only.append(uid)
            game.slot(uid).id = await records.hand_message(game_id, uid)
    return game, group_only


def added_seconds(live: LiveGame) -> int | None:
    """The seconds an outage added to the current move, as the table and hand say them."""
    added = live.time_added
    return None if added is None else max(1, round(added))


def summed_up(table: TableRecord) -> bool:
    """Whether the table's last game has its summary: a lobby message that is a result,
    sent after the game's table message (a chat's message ids grow)."""
    lobby, shown = table.lobby_message_id, table.table_message_id
    return table.lobby_is_summary and lobby is not None and shown is not None and lobby > shown
