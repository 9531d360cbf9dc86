"""Who is in the sandbox: four people (one of them reads English, the second locale) and
their group, which the bot is in. Nobody has opened the private chat with the bot yet."""

from __future__ import annotations

from telegram_emulator import FakeChat, FakeTelegram

BOT_USERNAME = "durak_sandbox_bot"
APP_NAME = "table"  # the Mini App's short name (its direct link t.me/<bot>/<app>)
GROUP_ID = -1001
GROUP_TITLE = "Друзья"
PEOPLE = ((1, "Аня", "ru"), (2, "Борис", "ru"), (3, "Вера", "ru"), (4, "Emma", "en"))


def populate(tg: FakeTelegram) -> FakeChat:
    """Adds the people and their group to ``tg``; returns the group."""
    people = [tg.add_user(uid, name, lang) for uid, name, lang in PEOPLE]
    return tg.add_group(GROUP_ID, GROUP_TITLE, members=people)
