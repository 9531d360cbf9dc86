"""Commands: /start and deep links, help, rules, closing a table; chat housekeeping."""

from __future__ import annotations

import logging
from html import escape

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import ChatMemberUpdated, Message

from service.tables import TableError, Tables
from storage.repos import ChatRepo, StatsRepo, UserRepo

from ..i18n import t
from ..outbox import Outbox
from ..people import person
from .lobby import error_text, show_lobby, start_game

log = logging.getLogger(__name__)
PRIVATE = F.chat.type == "private"
GROUPS = F.chat.type.in_({"group", "supergroup"})


async def start(message: Message, command: CommandObject, tables: Tables, outbox: Outbox) -> None:
    """The user opened the private chat: the bot may now send them their cards."""
    if message.from_user is None:
        return
    who = person(message.from_user)
    await tables.remember(who)
    async with tables.db.tx() as c:
        await UserRepo.set_can_message(c, who.id, True)
    payload = command.args or ""
    if payload.startswith("join_") and payload[5:].isdigit():
        try:
            table = await tables.join(int(payload[5:]), who)
        except TableError as e:
            await message.answer(error_text(who.lang, e))
            return
        await message.answer(t(who.lang, "answer.joined"))
        if len(table.seats) >= table.settings["seats"]:
            await start_game(tables, table, None)
        else:
            await show_lobby(outbox, tables, table, new=False)
        return
    await message.answer(t(who.lang, "help.private"))


async def private_help(message: Message) -> None:
    lang = person(message.from_user).lang if message.from_user else "ru"
    await message.answer(t(lang, "help.private"))


async def rules(message: Message, tables: Tables) -> None:
    table = await tables.repo.open_in_chat(message.chat.id)
    settings = table.settings if table else None
    await message.answer(rules_text("ru", settings))


async def stop(message: Message, tables: Tables, bot: Bot) -> None:
    if message.from_user is None:
        return
    table = await tables.repo.open_in_chat(message.chat.id)
    if table is None:
        await message.answer(t("ru", "answer.no_table"))
        return
    member = await bot.get_chat_member(message.chat.id, message.from_user.id)
    if message.from_user.id != table.creator_id and member.status not in (
        "creator",
        "administrator",
    ):
        await message.answer(t("ru", "answer.only_creator"))
        return
    await tables.close(table.id)
    log.info("chat %s: table %s closed by %s", message.chat.id, table.id, message.from_user.id)
    await message.answer(t("ru", "lobby.closed"))


async def migrated(message: Message, tables: Tables) -> None:
    """The group became a supergroup: its table and statistics move to the new id."""
    assert message.migrate_to_chat_id is not None
    async with tables.db.tx() as c:
        await ChatRepo.migrate_id(c, message.chat.id, message.migrate_to_chat_id)
    log.info("chat %s migrated to %s", message.chat.id, message.migrate_to_chat_id)


async def membership(update: ChatMemberUpdated, tables: Tables) -> None:
    """The bot was removed from a group: close its table cleanly."""
    if update.new_chat_member.status in ("left", "kicked"):
        table = await tables.repo.open_in_chat(update.chat.id)
        if table is not None:
            await tables.close(table.id)
            log.info("chat %s: bot removed, table %s closed", update.chat.id, table.id)


async def chat_stats(message: Message, tables: Tables) -> None:
    """The chat's best players by rating (the rating's conservative estimate, mu - 3 sigma)."""
    top = await StatsRepo(tables.db).chat_top(message.chat.id)
    if not top:
        await message.answer(t("ru", "stats.empty"))
        return
    lines = [t("ru", "stats.title")]
    for place, s in enumerate(top, 1):
        user = await tables.users.get(s.user_id)
        lines.append(
            t(
                "ru",
                "stats.line",
                place=place,
                name=escape(user.name if user else str(s.user_id)),
                games=t("ru", "games", n=s.games),
                wins=s.wins,
                fools=s.fools,
                rating=round(s.mu - 3 * s.sigma, 1),
            )
        )
    await message.answer("\n".join(lines))


def rules_text(lang: str, settings: dict[str, object] | None) -> str:
    lines = [t(lang, "help.rules")]
    if settings:
        lines += ["", t(lang, f"help.rules_{settings['mode']}")]
    return "\n".join(lines)


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="commands")
    r.message.register(start, PRIVATE, CommandStart())
    r.message.register(private_help, PRIVATE, Command("help"))
    r.message.register(rules, GROUPS, Command("rules"))
    r.message.register(rules, GROUPS, F.text.lower() == "правила")
    r.message.register(stop, GROUPS, Command("stop"))
    r.message.register(chat_stats, GROUPS, Command("stats"))
    r.message.register(chat_stats, GROUPS, F.text.lower().in_({"стата", "статистика"}))
    r.message.register(migrated, F.migrate_to_chat_id)
    r.my_chat_member.register(membership, GROUPS)
    return r
