"""How the Mini App is opened: a ``web_app`` button by the private hand (the page's URL,
``DURAK_MINIAPP_URL``, naming the table by ``?startapp=``) and a button with the bot's
direct link on the table message in the group (``t.me/<bot>/<app>?startapp=``, which
works in groups, where ``web_app`` buttons do not; ``DURAK_MINIAPP_LINK``). Both carry
the table's join token, which the page sends back with its launch (``auth``)."""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from ..i18n import t


@dataclass(frozen=True)
class Links:
    url: str  # the page's public https URL (…/app)
    link: str | None  # the Mini App's direct link, t.me/<bot>/<app> (None: none)

    def page(self, token: str) -> str:
        return f"{self.url}?startapp={token}"

    def direct(self, token: str) -> str | None:
        return None if self.link is None else f"{self.link}?startapp={token}"

    def hand_button(self, lang: str, token: str) -> InlineKeyboardButton:
        """For the private hand's keyboard."""
        return InlineKeyboardButton(
            text=t(lang, "miniapp.open"), web_app=WebAppInfo(url=self.page(token))
        )

    def under_hand(
        self, markup: InlineKeyboardMarkup | None, lang: str, token: str
    ) -> InlineKeyboardMarkup | None:
        """A private hand's keyboard with the page's ``web_app`` button as its last row
        (a hand without buttons, at the game's end, stays without)."""
        if markup is None:
            return None
        rows = [*markup.inline_keyboard, [self.hand_button(lang, token)]]
        return InlineKeyboardMarkup(inline_keyboard=rows)

    def table_button(self, lang: str, token: str) -> InlineKeyboardButton | None:
        """For the table message's keyboard in the group (None: no short name)."""
        link = self.direct(token)
        return (
            None if link is None else InlineKeyboardButton(text=t(lang, "miniapp.open"), url=link)
        )
