"""State kept by the fake Telegram server: users, chats, messages, calls, limits.

Every ``to_api`` method returns the JSON shape of the Bot API object (``User``,
``Chat``, ``Message``, ``ChatMember``...), checked against aiogram's models in
``tests/test_fake_telegram.py``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

TOKEN = "123456:" + "A" * 35  # a well-formed token (aiogram checks the form) for a server
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup"
    " are exactly the same as a current content and reply markup of the message"
)


class ApiError(Exception):
    """An error answer: ``{"ok": false, "error_code": code, "description": ...}``."""

    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def envelope(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(text: str) -> ApiError:
    return ApiError(400, f"Bad Request: {text}")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


def now() -> int:
    return int(time.time())


@dataclass(eq=False)
class FakeUser:
    """A Telegram account. ``started``: pressed Start; ``blocked``: blocked the bot."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "ru"
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass(eq=False)
class FakeChat:
    """A private chat (``id`` == the user's id), a group or a supergroup.

    ``members`` maps user ids to a ChatMember status (creator, administrator,
    member, left, kicked); ``bot_status`` is the bot's own status in the chat.
    """

    id: int
    type: str
    title: str | None = None
    user: FakeUser | None = None
    username: str | None = None
    members: dict[int, str] = field(default_factory=dict)
    bot_status: str = "member"
    migrated_to: int | None = None
    all_messages: list[FakeMessage] = field(default_factory=list)
    next_message_id: int = 1

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.user is not None:
            data.update(
                {
                    k: v
                    for k, v in self.user.to_api().items()
                    if k in ("first_name", "last_name", "username")
                }
            )
        else:
            data["title"] = self.title
            if self.username:
                data["username"] = self.username
        if self.type == "group":
            data["all_members_are_administrators"] = False
        return data

    def to_full_api(self) -> dict[str, Any]:
        """``ChatFullInfo`` as returned by ``getChat``."""
        data = self.to_api()
        data.pop("all_members_are_administrators", None)
        data.update(
            accent_color_id=0,
            max_reaction_count=11,
            accepted_gift_types={
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        )
        return data

    def message(self, message_id: int) -> FakeMessage | None:
        for message in reversed(self.all_messages):
            if message.message_id == message_id:
                return None if message.deleted else message
        return None


#: A chat as the test names it: the chat, a user (their private chat) or an id.
ChatRef = FakeChat | FakeUser | int


@dataclass(eq=False)
class FakeMessage:
    """A message as the fake keeps it; ``history`` holds earlier (text, markup) versions."""

    chat: FakeChat
    message_id: int
    from_user: FakeUser
    text: str | None = None
    reply_markup: dict[str, Any] | None = None
    date: int = field(default_factory=now)
    edit_date: int | None = None
    deleted: bool = False
    parse_mode: str | None = None
    raw_text: str | None = None
    entities: list[dict[str, Any]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    reply_to: FakeMessage | None = None
    history: list[tuple[str | None, dict[str, Any] | None]] = field(default_factory=list)

    def to_api(self, *, with_reply: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "from": self.from_user.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.text is not None:
            data["text"] = self.text
        if self.entities:
            data["entities"] = self.entities
        if self.reply_markup is not None:
            data["reply_markup"] = self.reply_markup
        if self.reply_to is not None and with_reply:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        data.update(self.extra)
        return data

    @property
    def keyboard(self) -> list[list[tuple[str, str | None]]]:
        """Inline buttons as rows of (text, callback_data); url buttons give ``None``."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [[(b.get("text", ""), b.get("callback_data")) for b in row] for row in rows]

    def button_data(self) -> list[str]:
        return [data for row in self.keyboard for _, data in row if data is not None]

    def __repr__(self) -> str:
        return f"FakeMessage(chat={self.chat.id}, id={self.message_id}, text={self.text!r})"


@dataclass
class Call:
    """One request the bot made: method, decoded params, time and the answer."""

    method: str
    params: dict[str, Any]
    time: float
    status: int = 200
    response: dict[str, Any] = field(default_factory=dict)
    faulted: bool = False  # answered with an injected fault (``inject_fault``)
    replied: bool = False  # given in a webhook's answer, not requested (``carry_out``)

    @property
    def chat_id(self) -> int | str | None:
        value = self.params.get("chat_id")
        return value if value is None or isinstance(value, str) else int(value)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def description(self) -> str | None:
        return self.response.get("description")


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot sent in ``answerCallbackQuery``."""

    text: str | None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None


class PressHandle:
    """A pressed button. ``await handle`` waits (5 s) for the bot's answer."""

    def __init__(self, query_id: str, user: FakeUser, message: FakeMessage, data: str):
        self.query_id = query_id
        self.user = user
        self.message = message
        self.data = data
        self.pressed_at = time.monotonic()
        self.update_id = 0
        self._future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()

    @property
    def answered(self) -> bool:
        return self._future.done()

    @property
    def answer(self) -> CallbackAnswer | None:
        return self._future.result() if self._future.done() else None

    def _resolve(self, answer: CallbackAnswer) -> None:
        if not self._future.done():
            self._future.set_result(answer)

    async def wait_answer(self, timeout: float = 5.0) -> CallbackAnswer:
        try:
            return await asyncio.wait_for(asyncio.shield(self._future), timeout)
        except TimeoutError:
            raise AssertionError(
                f"callback {self.data!r} by {self.user.id} not answered in {timeout}s"
            ) from None

    def __await__(self) -> Generator[Any, None, CallbackAnswer]:
        return self.wait_answer().__await__()


@dataclass
class RateLimits:
    """Telegram's documented limits; a call over any of them gets a 429.

    Each limit is (calls, seconds) over a sliding window; ``total`` None: no global
    limit. ``chat_burst`` above 1 makes the per-chat limit a token bucket instead:
    ``chat_burst`` calls at once after a quiet spell, then ``calls`` per ``seconds``.
    """

    per_chat: tuple[int, float] = (1, 1.0)
    per_group: tuple[int, float] = (20, 60.0)
    total: tuple[int, float] | None = (30, 1.0)
    methods_prefixes: tuple[str, ...] = ("send", "editMessage", "copyMessage", "forwardMessage")
    chat_burst: int = 1

    def applies_to(self, method: str) -> bool:
        return method.startswith(self.methods_prefixes) and method != "sendChatAction"


class RateLimiter:
    """Sliding windows of successful sends: per chat, per group, in total (and a token
    bucket per chat when ``chat_burst`` > 1)."""

    def __init__(self, limits: RateLimits):
        self.limits = limits
        self._chat: dict[int, deque[float]] = {}
        self._bucket: dict[int, float] = {}  # chat -> the bucket's theoretical arrival time
        self._group: dict[int, deque[float]] = {}
        self._total: deque[float] = deque()

    @staticmethod
    def _wait(window: deque[float], limit: tuple[int, float], moment: float) -> float:
        count, period = limit
        while window and window[0] <= moment - period:
            window.popleft()
        if len(window) < count:
            return 0.0
        return window[len(window) - count] + period - moment

    def _interval(self) -> float:
        count, period = self.limits.per_chat
        return period / count

    def _chat_wait(self, chat: FakeChat, moment: float) -> float:
        if self.limits.chat_burst <= 1:
            return self._wait(self._chat.setdefault(chat.id, deque()), self.limits.per_chat, moment)
        tolerance = (self.limits.chat_burst - 1) * self._interval()
        return max(0.0, self._bucket.get(chat.id, 0.0) - tolerance - moment)

    def retry_after(self, chat: FakeChat, moment: float) -> float:
        waits = [self._chat_wait(chat, moment)]
        if self.limits.total is not None:
            waits.append(self._wait(self._total, self.limits.total, moment))
        if chat.is_group:
            group = self._group.setdefault(chat.id, deque())
            waits.append(self._wait(group, self.limits.per_group, moment))
        return max(waits)

    def record(self, chat: FakeChat, moment: float) -> None:
        if self.limits.total is not None:
            self._total.append(moment)
        if self.limits.chat_burst <= 1:
            self._chat.setdefault(chat.id, deque()).append(moment)
        else:
            bucket = self._bucket.get(chat.id, 0.0)
            self._bucket[chat.id] = max(bucket, moment) + self._interval()
        if chat.is_group:
            self._group.setdefault(chat.id, deque()).append(moment)


# --- text and markup helpers -------------------------------------------------

_HTML_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span",
    "tg-spoiler", "a", "code", "pre", "blockquote", "tg-emoji",
}  # fmt: skip


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_TAGS:
            raise bad_request(f'can\'t parse entities: Unsupported start tag "{tag}"')
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            raise bad_request(f'can\'t parse entities: Unexpected end tag "{tag}"')
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(text: str, parse_mode: str | None) -> str:
    """The text Telegram stores: HTML markup is parsed (and checked), others kept as is."""
    if (parse_mode or "").upper() != "HTML":
        return text
    parser = _HtmlText()
    parser.feed(text)
    parser.close()
    if parser.stack:
        raise bad_request(
            "can't parse entities: Can't find end tag corresponding to start tag "
            f'"{parser.stack[-1]}"'
        )
    return "".join(parser.parts)


def check_text(text: str | None) -> str:
    if not text or not text.strip():
        raise bad_request("message text is empty")
    if len(text) > 4096:
        raise bad_request("message is too long")
    return text


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")


def command_entities(text: str) -> list[dict[str, Any]]:
    """``bot_command`` entities with UTF-16 offsets, as Telegram marks them."""
    return [
        {
            "type": "bot_command",
            "offset": utf16_len(text[: match.start()]),
            "length": utf16_len(match.group()),
        }
        for match in _COMMAND.finditer(text)
    ]


STYLES = ("danger", "success", "primary")  # Bot API 9.4's button styles


def normalize_markup(markup: Any, *, styles: bool = True) -> dict[str, Any] | None:
    """Decode and check an inline keyboard (JSON string or dict); ``None`` stays ``None``.
    ``styles``: the server knows button styles (else it drops them, as before 9.4)."""
    if markup is None or markup == "":
        return None
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            raise bad_request("can't parse reply keyboard markup JSON object") from None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup  # reply keyboards etc. are stored verbatim
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays'
        )
    for row in rows:
        for button in row:
            if not isinstance(button, dict) or not button.get("text"):
                raise bad_request("text buttons are unallowed in the inline keyboard")
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode()) <= 64:
                raise bad_request("BUTTON_DATA_INVALID")
            if styles and button.get("style", STYLES[0]) not in STYLES:
                raise bad_request("BUTTON_STYLE_INVALID")
    kept = [[{k: v for k, v in b.items() if styles or k != "style"} for b in row] for row in rows]
    return {"inline_keyboard": kept}


_ids = itertools.count(1)


def unique_id() -> int:
    return next(_ids)
