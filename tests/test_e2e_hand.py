"""End to end, the hand keyboard's key: a hand that a move left as it was is not edited
and its buttons still count; a press from a keyboard the player no longer has is
refused and changes nothing; a game id that names no game is answered as such."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.app import App
from bot.callbacks import CardCb, MoveCb
from bot.card_labels import card_label
from bot.outbox import Limits, Outbox
from bot.session import JsonSession
from engine import Action, Rules, State
from engine.actions import BEAT, OPEN, THROW
from service import LiveGame
from tests.e2e_helpers import (
    hand_key,
    hand_of,
    open_table,
    running_bot,
    seat_everyone,
    settle,
    three_friends,
    three_seated,
    two_friends,
    user_at,
)
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.helpers import turn_of
from tests.service_helpers import held

STALE = "Кнопка устарела: игра уже ушла дальше."


def quiet_opening(state: State) -> tuple[Action, Action, int] | None:
    """A single-card opening after which the third seat has nothing to throw in (its
    hand has nothing to show of it), and a beat of that card."""
    attacker, defender = state.attacker, state.defender
    third = next(s for s in range(state.n) if s not in (attacker, defender))
    for opening in state.legal_actions(attacker):
        if opening.kind != OPEN or len(opening.cards) > 1:
            continue
        opened = state.copy()
        opened.apply(opening)
        beats = [a for a in opened.legal_actions(defender) if a.kind == BEAT]
        if beats and not any(a.kind == THROW for a in opened.legal_actions(third)):
            return opening, beats[0], third
    return None


SEED = next(s for s in range(500) if quiet_opening(State(Rules(players=3), s)))


def card_data(message: FakeMessage, card: str) -> str:
    return next(d for d in message.button_data() if d[:2] == "c:" and CardCb.unpack(d).card == card)


async def test_a_hand_the_move_left_as_it_was_is_not_edited_and_still_counts(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    users, group = three_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        live = await three_seated(tg, app, group, users, SEED)
        found = quiet_opening(live.state)
        assert found is not None
        opening, beat, third = found
        attacker, defender, quiet = (
            user_at(live, s, users) for s in (opening.seat, beat.seat, third)
        )
        before = hand_of(tg, attacker)
        other = next(c for c in live.state.view(opening.seat).hand if c != opening.cards[0])
        old_tap = card_data(before, str(other))  # it would open; now, a throw-in or nothing
        quiet_hand = hand_of(tg, quiet)
        quiet_key, quiet_text = hand_key(quiet_hand), quiet_hand.text
        edits = tg.count("editMessageText", quiet)

        hand = hand_of(tg, attacker)
        answer = await (await tg.press(attacker, hand, card_data(hand, str(opening.cards[0]))))
        assert answer.text is None
        await settle(app)
        assert live.state.history[-1] == opening
        assert tg.count("editMessageText", quiet) == edits  # a move, and no edit
        assert (hand_key(quiet_hand), quiet_hand.text) == (quiet_key, quiet_text)

        # The quiet hand's keyboard is the newest one: its «⋯» opens, a move later.
        answer = await (await tg.press(quiet, quiet_hand, button_text="⋯"))
        assert answer.text is None
        await settle(app)
        assert "Сдаться" in [t for row in quiet_hand.keyboard for t, _ in row]

        # The attacker's keyboard from before the opening is not: a press on it is
        # refused (its card would now be a throw-in) and changes nothing; nor is the
        # defender's from before the beat, with «Беру» on it.
        theirs = hand_of(tg, defender)
        before_beat = hand_key(theirs)
        answer = await (await tg.press(defender, theirs, card_data(theirs, str(beat.cards[0]))))
        assert answer.text is None
        await settle(app)
        length = len(live.state.history)
        answer = await (await tg.press(attacker, before, old_tap, forge=True))
        assert answer.text == STALE and len(live.state.history) == length
        take = MoveCb(game=1, a="take", k=before_beat).pack()
        answer = await (await tg.press(defender, theirs, take, forge=True))
        assert answer.text == STALE and len(live.state.history) == length
    assert tg.unanswered_callbacks() == []


async def test_a_press_for_a_game_that_does_not_exist_says_so(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        hand = hand_of(tg, anna)
        before = held(app.service, 1).state.to_dict()
        for game in (2, 10**12):
            data = MoveCb(game=game, a="take", k=hand_key(hand)).pack()
            answer = await (await tg.press(anna, hand, data, forge=True))
            assert answer.text == "Такой партии нет — возможно, она уже закончилась."
        assert held(app.service, 1).state.to_dict() == before
    assert tg.unanswered_callbacks() == []


def pair_opening(state: State) -> Action | None:
    """A single-card opening whose rank the attacker holds again (to throw in later)."""
    hand = state.view(state.attacker).hand
    for a in state.legal_actions(state.attacker):
        single = a.kind == OPEN and len(a.cards) == 1
        if single and any(c != a.cards[0] and c.rank == a.cards[0].rank for c in hand):
            return a
    return None


PAIR_SEED = next(s for s in range(500) if pair_opening(State(Rules(), s)))


def notices(tg: FakeTelegram, user: FakeUser, *, deleted: bool = True) -> list[FakeMessage]:
    found = tg.messages(user, include_deleted=deleted)
    return [m for m in found if (m.text or "").startswith("⏰")]


async def noticed_game(
    tg: FakeTelegram, app: App, group: FakeChat, users: list[FakeUser]
) -> tuple[LiveGame, FakeUser, FakeUser]:
    """A game of ``users`` on the pair deal, whose turn notices come after 0.3 s; and who
    attacks and who defends in it."""
    app.presenter.nudges.delay = 0.3
    app.service.new_seed = lambda: PAIR_SEED
    await open_table(tg, app, group, users[0])
    await seat_everyone(tg, app, group, users)
    live = held(app.service, 1)
    attacker, defender = (
        user_at(live, s, users) for s in (live.state.attacker, live.state.defender)
    )
    return live, attacker, defender


async def lead_the_pair(tg: FakeTelegram, live: LiveGame, attacker: FakeUser) -> Any:
    """The attacker opens with the first card of the pair deal; its press's answer."""
    opening = pair_opening(live.state)
    assert opening is not None
    hand = hand_of(tg, attacker)
    return await (await tg.press(attacker, hand, card_data(hand, str(opening.cards[0]))))


async def test_a_waiting_turn_is_notified_once_and_the_notice_goes_when_they_move(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        live, attacker, defender = await noticed_game(tg, app, group, [anna, boris])
        assert notices(tg, attacker) == []  # not at once
        await tg.wait_for(lambda: notices(tg, attacker), what="the attacker's notice")
        await asyncio.sleep(0.8)  # more waiting: still one notice, the defender none
        [notice] = notices(tg, attacker)
        assert (notice.text or "").startswith("⏰ Ваш ход — ходите, ")
        assert notices(tg, defender) == []

        assert (await lead_the_pair(tg, live, attacker)).text is None
        await settle(app)
        assert notice.deleted and notices(tg, attacker, deleted=False) == []
        await tg.wait_for(lambda: notices(tg, defender), what="the defender's notice")
        [theirs] = notices(tg, defender)
        assert (theirs.text or "").startswith("⏰ Ваш ход — отбивайтесь, ")

        # «Беру»: the attacker may throw in more now, and is not notified of that.
        hand = hand_of(tg, defender)
        assert (await (await tg.press(defender, hand, button_text="Беру"))).text is None
        await settle(app)
        assert theirs.deleted and turn_of(live.state).kind == "throw"
        await asyncio.sleep(0.8)
        assert len(notices(tg, attacker)) == 1  # only the first one, deleted
    assert tg.unanswered_callbacks() == []


async def test_a_player_who_just_moved_is_notified_later(tg: FakeTelegram, tmp_path: Path) -> None:
    """Whoever made a move of their own in the last 30 s is watching their hand: their
    next turn's notice waits three times as long (0.9 s here, not 0.3 s)."""
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        live, attacker, defender = await noticed_game(tg, app, group, [anna, boris])
        await tg.wait_for(lambda: notices(tg, attacker), what="the attacker's notice")
        await lead_the_pair(tg, live, attacker)
        await tg.wait_for(lambda: notices(tg, defender), what="the defender's notice")
        shown = tg.calls_to("editMessageText", defender, status=200)[-1].time
        sent = [c.time for c in tg.calls_to("sendMessage", defender) if c.status == 200]
        assert sent[-1] - shown < 0.6  # he has not moved yet: 0.3 s
        hand = hand_of(tg, defender)
        assert (await (await tg.press(defender, hand, button_text="Беру"))).text is None
        await settle(app)
        hand = hand_of(tg, attacker)
        assert (await (await tg.press(attacker, hand, button_text="Пас"))).text is None
        await settle(app)  # he took: she attacks again, having just moved
        turn = live.state.turn()
        assert turn is not None and turn.kind == "attack"
        shown = tg.calls_to("editMessageText", attacker, status=200)[-1].time
        await tg.wait_for(lambda: len(notices(tg, attacker)) == 2, what="her second notice")
        sent = [c.time for c in tg.calls_to("sendMessage", attacker) if c.status == 200]
        assert sent[-1] - shown >= 0.85
    assert tg.unanswered_callbacks() == []


async def test_the_wait_for_a_notice_starts_when_the_hand_shows_the_turn(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    """A hand held up in the outbox (here by a 429) is not followed at once by its notice."""
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        live, attacker, defender = await noticed_game(tg, app, group, [anna, boris])
        tg.inject_429(retry_after=1, chat=defender, methods=["editMessageText"])
        await lead_the_pair(tg, live, attacker)
        await tg.wait_for(lambda: notices(tg, defender), what="the defender's notice")
        shown = [c.time for c in tg.calls_to("editMessageText", defender, status=200)]
        sent = [c.time for c in tg.calls_to("sendMessage", defender) if c.status == 200]
        assert shown and sent[-1] - shown[-1] >= 0.25  # the notice's 0.3 s after it
    assert tg.unanswered_callbacks() == []


async def test_a_notice_shown_at_shutdown_is_taken_back(tg: FakeTelegram, tmp_path: Path) -> None:
    """The next process knows nothing of it: it would stay in the chat forever."""
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        _, attacker, _ = await noticed_game(tg, app, group, [anna, boris])
        await tg.wait_for(lambda: notices(tg, attacker), what="the attacker's notice")
    # running_bot stopped the app here
    [notice] = notices(tg, attacker)
    assert notice.deleted


async def test_a_notice_taken_back_as_it_arrives_is_deleted_once(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    """The move comes in after Telegram answered the notice's sendMessage, before the
    answer's callback runs (seen 6 times in 7,000 moves at 1,000 tables): one deletion,
    not a second one that Telegram refuses."""
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        _, attacker, _ = await noticed_game(tg, app, group, [anna, boris])
        nudges = app.presenter.nudges
        on_time = nudges._sent

        def moved_meanwhile(game_id: int, user: int, nudge: Any) -> None:
            nudges.forget(game_id)  # as a move would, deleting the notice
            on_time(game_id, user, nudge)

        nudges._sent = moved_meanwhile  # type: ignore[method-assign]  # a move meanwhile
        await tg.wait_for(lambda: notices(tg, attacker), what="the attacker's notice")
        [notice] = notices(tg, attacker)
        await tg.wait_for(lambda: notice.deleted, what="the notice's deletion")
        await settle(app)
        await app.outbox.drain()
        assert [c.status for c in tg.calls_to("deleteMessage", attacker)] == [200]


def mark_page_cards(message: FakeMessage) -> dict[str, str | None]:
    """The cards of «Несколько карт» as labelled, with their styles."""
    rows = message.reply_markup["inline_keyboard"] if message.reply_markup else []
    pressed = [b for row in rows for b in row if b["callback_data"].startswith("p:1:mark:")]
    return {b["text"]: b.get("style") for b in pressed}


async def test_several_cards_of_one_rank_open_with_one_extra_tap_each(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        app.service.new_seed = lambda: PAIR_SEED
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        live = held(app.service, 1)
        single = pair_opening(live.state)
        assert single is not None
        pair = [c for c in live.state.view(single.seat).hand if c.rank == single.cards[0].rank]
        attacker = anna if live.seats[single.seat].user_id == anna.id else boris
        hand = hand_of(tg, attacker)

        async def press(data: str | None = None, text: str | None = None) -> str | None:
            answer = await (await tg.press(attacker, hand, data, button_text=text))
            await settle(app)
            return answer.text

        assert await press(text="Несколько карт") is None
        for n, card in enumerate(pair[:2], 1):  # one tap marks each card: its label
            mark = next(d for d in hand.button_data() if d.startswith(f"p:1:mark:{card}:"))
            assert await press(mark) is None  # says so, not its colour alone
            marks = {t: s for t, s in mark_page_cards(hand).items() if t.startswith("✓")}
            assert len(marks) == n and marks["✓" + card_label(card, "ru")] == "primary"
        assert await press(text="Ходить (2)") is None  # 4 taps for 2 cards
        assert live.state.history[-1].kind == OPEN
        assert sorted(live.state.history[-1].cards) == sorted(pair[:2])
    assert tg.unanswered_callbacks() == []


async def test_where_the_server_drops_button_styles_playable_cards_are_marked(
    tg: FakeTelegram,
    tmp_path: Path,
) -> None:
    tg.button_styles = False  # a Bot API server before 9.4
    anna, boris, group = two_friends(tg)
    async with running_bot(tg, tmp_path / "db.sqlite3") as app:
        await open_table(tg, app, group, anna)
        await seat_everyone(tg, app, group, [anna, boris])
        live = held(app.service, 1)
        attacker = anna if live.seats[live.state.attacker].user_id == anna.id else boris
        hand = hand_of(tg, attacker)

        def cards() -> list[str]:
            return [t for row in hand.keyboard for t, d in row if (d or "")[:2] == "c:"]

        # The first hand came back without its styles: it is drawn again, marked.
        await tg.wait_for(lambda: all(t.startswith("✓") for t in cards()), what="«✓»")
        assert len(cards()) == 6 and not app.presenter.styled  # any card may open
    assert tg.unanswered_callbacks() == []


async def test_a_deletion_waits_for_the_chats_other_calls(tg: FakeTelegram) -> None:
    anna = tg.add_user(1, "Аня", started=True)
    bot = tg.make_bot(JsonSession)
    outbox = Outbox(bot, Limits(per_chat=0.1, chat_burst=1))
    notice, hand = await outbox.send(anna.id, "⏰ Ваш ход"), await outbox.send(anna.id, "рука")
    assert notice is not None and hand is not None
    gone = outbox.delete(anna.id, notice.message_id)  # queued first...
    edited = outbox.edit(anna.id, hand.message_id, "рука после хода")
    await asyncio.gather(gone, edited)
    calls = [c.method for c in tg.calls_to(chat=anna) if c.method != "sendMessage"]
    assert calls == ["editMessageText", "deleteMessage"]  # ...made after the hand's edit
    assert [m.text for m in tg.messages(anna)] == ["рука после хода"]
    await outbox.close()
    await bot.session.close()
