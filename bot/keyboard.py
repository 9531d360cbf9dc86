"""A message's inline keyboard as the bot draws it: plain immutable records that the
outbox's calls (``bot.outgoing``) carry as they are and write out as the Bot API's
JSON. aiogram's models of the same took 130-160 µs to build for a hand's two dozen
buttons and 30 µs to write out, at every move; these take a tenth of that."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

KINDS = frozenset({"text", "callback_data", "style", "url", "web_app"})  # what a Button holds


class Button(NamedTuple):
    text: str
    data: str | None = None  # the callback data a press sends
    style: str | None = None  # Bot API 9.4: "success", "primary", "danger"
    url: str | None = None  # a link to open
    app: str | None = None  # a Mini App's page to open (a ``web_app`` button)

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text}
        if self.data is not None:
            out["callback_data"] = self.data
        if self.style is not None:
            out["style"] = self.style
        if self.url is not None:
            out["url"] = self.url
        if self.app is not None:
            out["web_app"] = {"url": self.app}
        return out

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Button:
        """Raises ``ValueError`` for a kind of button the bot does not draw."""
        if not value.keys() <= KINDS:
            raise ValueError(f"not a button the bot draws: {sorted(value.keys() - KINDS)}")
        app = value.get("web_app")
        return cls(
            value["text"], value.get("callback_data"), value.get("style"), value.get("url"),
            app["url"] if app else None,
        )  # fmt: skip


def styled(markup: object) -> bool:
    """Whether a keyboard as the Bot API's JSON has a styled button."""
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    return isinstance(rows, list) and any(
        isinstance(b, dict) and "style" in b for row in rows if isinstance(row, list) for b in row
    )


class Keyboard:
    """Rows of buttons. Not a pydantic model: aiogram's methods carry it as it is (a
    method's dump writes it as JSON, ``json``)."""

    __slots__ = ("rows",)

    def __init__(self, rows: Iterable[Iterable[Button]]) -> None:
        self.rows: tuple[tuple[Button, ...], ...] = tuple(tuple(row) for row in rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Keyboard) and self.rows == other.rows

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Keyboard({self.rows!r})"

    @property
    def styled(self) -> bool:
        return any(b.style for row in self.rows for b in row)

    def json(self) -> dict[str, Any]:
        """As the Bot API's ``InlineKeyboardMarkup``."""
        return {"inline_keyboard": [[b.json() for b in row] for row in self.rows]}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Keyboard:
        return cls([Button.from_json(b) for b in row] for row in value["inline_keyboard"])

    @classmethod
    def __get_pydantic_core_schema__(cls, _: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """In a model: this very object, dumped as the Bot API's JSON."""
        dump = core_schema.plain_serializer_function_ser_schema(cls.json)
        return core_schema.is_instance_schema(cls, serialization=dump)
