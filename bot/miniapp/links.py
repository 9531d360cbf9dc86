"""How the Mini App is opened: a ``web_app`` button by the private hand (the page's URL,
``DURAK_MINIAPP_URL``, naming the table by ``?startapp=``) and a button with the bot's
direct link on the table message in the group (``t.me/<bot>/<app>?startapp=``, which
works in groups, where ``web_app`` buttons do not; ``DURAK_MINIAPP_LINK``). Both carry
the table's join token, which the page sends back with its launch (``auth``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import t
from ..keyboard import Button, Keyboard


@dataclass(frozen=True)
class Links:
    url: str  # the page's public https URL (…/app)
    link: str | None  # the Mini App's direct link, t.me/<bot>/<app> (None: none)

    def page(self, token: str) -> str:
        return f"{self.url}?startapp={token}"

    def direct(self, token: str) -> str | None:
        return None if self.link is None else f"{self.link}?startapp={token}"

    def hand_button(self, lang: str, token: str) -> Button:
        """For the private hand's keyboard."""
        return Button(t(lang, "miniapp.open"), app=self.page(token))

    def under_hand(self, markup: Keyboard | None, lang: str, token: str) -> Keyboard | None:
        """A private hand's keyboard with the page's ``web_app`` button as its last row
        (a hand without buttons, at the game's end, stays without)."""
        if markup is None:
            return None
        return Keyboard([*markup.rows, [self.hand_button(lang, token)]])

    def table_button(self, lang: str, token: str) -> Button | None:
        """For the table message's keyboard in the group (None: no short name)."""
        link = self.direct(token)
        return None if link is None else Button(t(lang, "miniapp.open"), url=link)
