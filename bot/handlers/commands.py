"""Commands: /start and deep links, help, rules, statistics, closing a table; chat
housekeeping (a group becoming a supergroup, the bot removed or blocked)."""

from __future__ import annotations

import logging
import re
from html import escape

from aiogram import Bot, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberRestricted,
    ChatMemberUpdated,
    Message,
)

from service import GameService
from service.lobbies import Said
from service.lobby_rules import table_rules
from service.rating import RATING_BASE, rating_points
from service.records import Records
from service.tables import Person, TableError, Tables
from storage.repos import Standing, Stats, TableRecord

from ..delivery import Delivery
from ..ephemeral import EphemeralHands
from ..i18n import t
from ..people import person
from ..presenter import Presenter
from ..reach import Reach
from ..rules_text import explained
from .chats import GROUPS, MIGRATED, PRIVATE, said
from .lobby import error_text, seat_taken

log = logging.getLogger(__name__)
MY_STATS_WORDS = {"моя стата", "моя статистика"}
FAR = 6  # lines of an answer after which a running game's table is posted below it
# A table's deep link: its join token (22 characters; 32 hex digits for older tables)
JOIN_PAYLOAD = re.compile(r"join_([A-Za-z0-9_-]{16,43})")


async def start(
    message: Message,
    command: CommandObject,
    tables: Tables,
    records: Records,
    delivery: Delivery,
    reach: Reach,
    bot: Bot,
) -> None:
    """The user opened the private chat: the bot may now send them their cards. With a
    table's deep link (``join_<token>``) they also sit down there."""
    if message.from_user is None:
        return
    who = person(message.from_user)
    await tables.remember(who)
    await records.set_can_message(who.id, True)
    reach.set(who.id, False)
    await hand_again(tables, delivery, who.id)  # one played from the group has it now
    payload = command.args or ""
    if payload.startswith("join_"):
        await join_by_link(message, who, payload, tables, records, delivery, bot)
        return
    await delivery.reply(message, t(who.lang, "help.private"))


async def join_by_link(
    message: Message,
    who: Person,
    payload: str,
    tables: Tables,
    records: Records,
    delivery: Delivery,
    bot: Bot,
) -> None:
    """A seat at the table whose join token the link carries, for a member of its group
    only (the link may have been passed on); every refusal changes nothing."""
    match = JOIN_PAYLOAD.fullmatch(payload)
    table = await tables.by_token(match.group(1)) if match else None
    if table is None:
        await delivery.reply(message, t(who.lang, "answer.bad_link"))
        return
    refusal = await not_a_member(bot, table.chat_id, who.id)
    if refusal is not None:
        chat = await records.chat(table.chat_id)
        title = escape(chat.title if chat else "")
        await delivery.reply(message, t(who.lang, f"answer.{refusal}", title=title))
        return
    chat = await records.chat(table.chat_id)
    title = escape(chat.title if chat else "")

    def joined(seated: TableRecord) -> Said:  # written with the seat (where several run)
        seat = next(i for i, s in enumerate(seated.seats, 1) if s.user_id == who.id)
        seats = seated.settings.seats
        return delivery.said(
            message, t(who.lang, "answer.joined_here", title=title, seat=seat, seats=seats)
        )

    try:
        table = await tables.join(table.id, who, said=joined)
    except TableError as e:
        await delivery.reply(message, escape(error_text(who.lang, e)))  # answers are plain text
        return
    refused = await seat_taken(tables, table)
    if refused is not None:
        await delivery.reply(message, escape(error_text(who.lang, refused)))


async def hand_again(tables: Tables, delivery: Delivery, user_id: int) -> None:
    """The user's hand in their running game is shown (again) in the private chat."""
    table = await tables.table_of(user_id)
    game = tables.game_of(table.id) if table is not None else None
    if game is not None:
        await delivery.hand(game, user_id)


async def not_a_member(bot: Bot, chat_id: int, user_id: int) -> str | None:
    """Why the user may not sit at a table of this group (a text key of ``answer``):
    ``not_member`` (left, removed, or restricted outside it) or ``member_unchecked``
    (Telegram did not say); None for a member."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramAPIError as e:
        log.warning("chat %s: getChatMember for a join failed: %s", chat_id, e)
        return "member_unchecked"
    if isinstance(member, ChatMemberLeft | ChatMemberBanned):
        return "not_member"
    if isinstance(member, ChatMemberRestricted) and not member.is_member:
        return "not_member"
    return None


async def private_help(message: Message, delivery: Delivery) -> None:
    lang = person(message.from_user).lang if message.from_user else "ru"
    await delivery.reply(message, t(lang, "help.private"))


async def group_help(
    message: Message, tables: Tables, delivery: Delivery, group_hands: EphemeralHands
) -> None:
    """/help (or /start) in a group: the commands and words the bot answers there, and
    where the cards are shown (with what its owner can do about it)."""
    lang = await group_lang(message, tables)
    asker = message.from_user.id if message.from_user else message.chat.id
    mode = await group_hands.mode(message.chat.id, asker)
    cards = t(lang, f"help.cards_{mode.value}")
    await delivery.reply(message, t(lang, "help.group") + "\n" + cards)


async def group_lang(message: Message, tables: Tables) -> str:
    """The chat's language for group texts (the asker's before the chat's first table)."""
    asker = person(message.from_user).lang if message.from_user else "ru"
    return await tables.lang(message.chat.id, default=asker)


async def keep_table_in_view(
    message: Message, text: str, tables: Tables, presenter: Presenter
) -> None:
    """After an answer long enough to push a running game's table message off a phone's
    screen (``text``), the table is posted again below it (the old one goes)."""
    if text.count("\n") + 1 < FAR:
        return
    table = await tables.in_chat(message.chat.id)
    game = tables.game_of(table.id) if table is not None else None
    if game is not None:
        presenter.table_below(game)


async def rules(message: Message, tables: Tables, delivery: Delivery, presenter: Presenter) -> None:
    """/rules: the rules of the chat's table (of its running game), or the main ones."""
    lang = await group_lang(message, tables)
    table = await tables.in_chat(message.chat.id)
    if table is None:
        await delivery.reply(message, t(lang, "help.rules"))
        return
    game = tables.game_of(table.id)
    settings = table.settings
    live = tables.games.live(game) if game is not None else None
    game_rules = live.state.rules if live is not None else None
    text = explained(lang, game_rules or table_rules(settings), settings)
    await delivery.reply(message, text)
    await keep_table_in_view(message, text, tables, presenter)


async def stop(
    message: Message,
    tables: Tables,
    records: Records,
    delivery: Delivery,
    bot: Bot,
    group_hands: EphemeralHands,
) -> None:
    """/stop: the table's creator or a group admin closes the chat's table."""
    if message.from_user is None:
        return
    lang = await group_lang(message, tables)
    table = await tables.in_chat(message.chat.id)
    if table is None:
        await delivery.reply(message, t(lang, "answer.no_table"))
        return
    allowed = await may_stop(message, message.from_user.id, table, bot)
    if allowed is None:
        await delivery.reply(message, t(lang, "answer.stop_unchecked"))
        return
    if not allowed:
        creator = await records.user(table.creator_id)
        name = escape(creator.name if creator else "?")
        await delivery.reply(message, t(lang, "answer.stop_who", name=name))
        return
    game = tables.game_of(table.id)
    said = delivery.said(message, t(lang, "lobby.closed"))  # (written with the closing)
    await tables.close(table.id, why="closed.stopped", title=message.chat.title or "", said=said)
    if game is not None:
        group_hands.finish(game)  # its hands in the group go too
    log.info("chat %s: table %s closed by %s", message.chat.id, table.id, message.from_user.id)


async def may_stop(message: Message, user_id: int, table: TableRecord, bot: Bot) -> bool | None:
    """Whether the user may close the table: its creator, or an admin of the group (also
    one writing anonymously, as the group). None: Telegram could not say."""
    if user_id == table.creator_id:
        return True
    if message.sender_chat is not None and message.sender_chat.id == message.chat.id:
        return True  # an anonymous admin
    try:
        member = await bot.get_chat_member(message.chat.id, user_id)
    except TelegramAPIError as e:
        log.warning("chat %s: getChatMember for /stop failed: %s", message.chat.id, e)
        return None
    return member.status in ("creator", "administrator")


async def migrated(message: Message, records: Records, service: GameService) -> None:
    """The group became a supergroup: its table, games and statistics move to the new id."""
    old, new = message.chat.id, message.migrate_to_chat_id
    assert new is not None
    await records.chat_moved(old, new)
    service.chat_moved(old, new)
    log.info("chat %s migrated to %s", old, new)


async def membership(
    update: ChatMemberUpdated, tables: Tables, records: Records, delivery: Delivery
) -> None:
    """The bot was removed from a group: close its table cleanly. Made or unmade an
    administrator: it may (or may no longer) show hands there when it likes."""
    status = update.new_chat_member.status
    await delivery.bot_status(update.chat.id, status == "administrator")
    if update.new_chat_member.status in ("left", "kicked"):
        table = await tables.in_chat(update.chat.id)
        if table is not None:
            await tables.close(table.id, why="closed.removed", title=update.chat.title or "")
            log.info("chat %s: bot removed, table %s closed", update.chat.id, table.id)


async def blocked(update: ChatMemberUpdated, records: Records, reach: Reach) -> None:
    """A user blocked the bot (or unblocked it): their hand is not sent until they return."""
    can = update.new_chat_member.status not in ("left", "kicked")
    await records.set_can_message(update.chat.id, can)
    reach.set(update.chat.id, not can)
    log.info("user %s %s the bot", update.chat.id, "unblocked" if can else "blocked")


async def chat_stats(
    message: Message, tables: Tables, records: Records, delivery: Delivery, presenter: Presenter
) -> None:
    """The chat's best players by rating (the rating's conservative estimate, mu - 3 sigma)."""
    lang = await group_lang(message, tables)
    top = await records.chat_top(message.chat.id)
    if not top:
        await delivery.reply(message, t(lang, "stats.empty"))
        return
    lines = [t(lang, "stats.title")]
    for place, s in enumerate(top, 1):
        user = await records.user(s.user_id)
        name = escape(user.name if user else str(s.user_id))
        counts, rating = _counts(lang, s), str(rating_points(s))
        lines.append(t(lang, "stats.line", place=place, name=name, counts=counts, rating=rating))
    lines += ["", _rating_scale(lang)]
    await delivery.reply(message, "\n".join(lines))
    await keep_table_in_view(message, "\n".join(lines), tables, presenter)


async def my_stats(message: Message, records: Records, delivery: Delivery) -> None:
    """In the private chat: the user's results in every chat, with their place there."""
    if message.from_user is None:
        return
    lang = person(message.from_user).lang
    standings = await records.standings(message.from_user.id)
    if not standings:
        await delivery.reply(message, t(lang, "me.none"))
        return
    lines = [t(lang, "me.title")]
    lines += [_standing_line(lang, s) for s in standings]
    if len(standings) > 1:
        lines.append(t(lang, "me.total", counts=_counts(lang, *(s.stats for s in standings))))
    lines += ["", _rating_scale(lang)]
    await delivery.reply(message, "\n".join(lines))


async def my_chat_stats(
    message: Message, tables: Tables, records: Records, delivery: Delivery
) -> None:
    """In a group: the user's results in this chat."""
    if message.from_user is None:
        return
    lang = await group_lang(message, tables)
    s = await records.stats(message.chat.id, message.from_user.id)
    if s is None:
        await delivery.reply(message, t(lang, "stats.none"), quote=True)
        return
    mine = t(lang, "stats.mine", counts=_counts(lang, s), rating=str(rating_points(s)))
    await delivery.reply(message, quote=True, text=f"{mine}\n{_rating_scale(lang)}")


def _counts(lang: str, *stats: Stats) -> str:
    """The summed results in the words every statistics text uses: «12 партий, 5 побед,
    в дураках 4 раза, 1 ничья» («ни разу в дураках», no draws when there were none),
    and the «погоны» for players who had any."""

    def total(key: str) -> int:
        return sum(getattr(s, key) for s in stats)

    words = [
        t(lang, "games", n=total("games")),
        t(lang, "me.wins", n=total("wins")),
        t(lang, "me.fools", n=total("fools")),
    ]
    if draws := total("draws"):
        words.append(t(lang, "me.draws", n=draws))
    given, received = total("pogony_given"), total("pogony")
    if given or received:
        words.append(t(lang, "stats.pogony", given=given, received=received))
    return ", ".join(words)


def _rating_scale(lang: str) -> str:
    """What a rating's number means: where a newcomer starts, and what moves it."""
    return t(lang, "stats.rating", base=str(RATING_BASE))  # as ratings are: «1138»


def _standing_line(lang: str, s: Standing) -> str:
    place = ""
    if s.players > 1:
        place = t(lang, "me.place", place=s.place, players=s.players)
    return t(
        lang,
        "me.chat",
        title=escape(s.title or t(lang, "me.untitled")),
        counts=_counts(lang, s.stats),
        rating=str(rating_points(s.stats)),
        place=place,
    )


def router() -> Router:
    """A fresh router with this module's handlers (one per dispatcher)."""
    r = Router(name="commands")
    r.message.register(start, PRIVATE, CommandStart())
    r.message.register(private_help, PRIVATE, Command("help"))
    r.message.register(group_help, GROUPS, Command("help", "start"))
    r.message.register(rules, GROUPS, Command("rules"))
    r.message.register(rules, GROUPS, said("правила"))
    r.message.register(stop, GROUPS, Command("stop"))
    r.message.register(chat_stats, GROUPS, Command("stats"))
    r.message.register(chat_stats, GROUPS, said("стата", "статистика"))
    r.message.register(my_stats, PRIVATE, Command("me", "mystats"))
    r.message.register(my_stats, PRIVATE, said(*MY_STATS_WORDS))
    r.message.register(my_chat_stats, GROUPS, said(*MY_STATS_WORDS))
    r.message.register(my_chat_stats, GROUPS, Command("me", "mystats"))
    r.message.register(migrated, MIGRATED)
    r.my_chat_member.register(membership, GROUPS)
    r.my_chat_member.register(blocked, PRIVATE)
    return r
