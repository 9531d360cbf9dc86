"""What the bot asks to be shown, as small typed records (``Post``): a message to send
or edit, a lobby to draw, a closed table's messages, a hand to show again, the bot's
new status in a group. One process shows them at once; one of several writes each as a
row of ``outgoing`` for the process that shows the games (``bot.delivery.shared``), as
JSON with the kind's name (the rows of an older bot keep reading)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from service.lobbies import Shown

from ..keyboard import Keyboard


@dataclass(frozen=True)
class Send:
    """A new message: into ``thread_id``'s topic of a forum, as a reply to ``reply_to``."""

    chat_id: int
    text: str
    markup: str | None = None  # a keyboard as JSON (``Keyboard.json``)
    thread_id: int | None = None
    reply_to: int | None = None


@dataclass(frozen=True)
class Edit:
    """An edit of a message (``text`` None: of its keyboard only)."""

    chat_id: int
    message_id: int
    text: str | None = None
    markup: str | None = None


@dataclass(frozen=True)
class Lobby:
    """The table's lobby message as the table is when it is drawn: posted anew
    (``new``) or edited, on one of its rules ``page``s or the main one. ``full``: the
    change took the last seat, so a start follows: drawn a moment later, and only while
    ``message_id``, the lobby message as the change read it, is still the table's."""

    chat_id: int
    table_id: int
    page: str | None = None
    new: bool = False
    full: bool = False
    message_id: int | None = None


@dataclass(frozen=True)
class Closed:
    """A closed table's messages say so (``why``: the text key, ``title``: the group's;
    ``game_id``: the game it was playing)."""

    chat_id: int
    table_id: int
    why: str
    title: str = ""
    game_id: int | None = None


@dataclass(frozen=True)
class Hand:
    """Show the user's hand in the game again (a page or a target choice changed)."""

    user_id: int
    game_id: int


@dataclass(frozen=True)
class Admin:
    """The bot was made (or unmade) an administrator of the group."""

    chat_id: int
    admin: bool


Post = Send | Edit | Lobby | Closed | Hand | Admin

# A row's kind and its field names as the rows have always been written.
KINDS: dict[str, type[Post]] = {
    "send": Send, "edit": Edit, "lobby": Lobby, "closed": Closed, "hand": Hand, "admin": Admin,
}  # fmt: skip
NAMES = {kind: name for name, kind in KINDS.items()}
RENAMED = {(Closed, "why"): "closed", (Hand, "user_id"): "chat_id"}


def to_json(post: Post) -> str:
    body: dict[str, Any] = {"kind": NAMES[type(post)]}
    for name, value in asdict(post).items():
        if value not in (None, False):
            body[RENAMED.get((type(post), name), name)] = value
    return json.dumps(body)


def from_json(text: str) -> Post:
    """The row's post; raises ``ValueError`` (or ``KeyError``, ``TypeError``) for a body
    this bot does not know."""
    body: dict[str, Any] = json.loads(text)
    kind = KINDS[body["kind"]]
    values = {}
    for f in fields(kind):
        name = RENAMED.get((kind, f.name), f.name)
        if name in body:
            values[f.name] = body[name]
    return kind(**values)


def markup_json(markup: Keyboard | None) -> str | None:
    return None if markup is None else json.dumps(markup.json(), ensure_ascii=False)


def keyboard(markup: str | None) -> Keyboard | None:
    return None if markup is None else Keyboard.from_json(json.loads(markup))


def posts_of(shown: Shown) -> list[Post]:
    """What a lobby change must show, in order (``Tables``' ``Shown``)."""
    posts: list[Post] = []
    if shown.summary is not None:  # a game started from a result: «Ещё партию» goes
        posts.append(Edit(shown.chat_id, shown.summary))
    elif shown.closed is not None:
        posts.append(
            Closed(shown.chat_id, shown.table_id, shown.closed, shown.title, shown.game_id)
        )
    else:
        posts.append(
            Lobby(shown.chat_id, shown.table_id, shown.page, shown.new, shown.full, shown.lobby)
        )
    if (said := shown.said) is not None:
        posts.append(Send(said.chat_id, said.text, None, said.thread_id, said.reply_to))
    return posts
