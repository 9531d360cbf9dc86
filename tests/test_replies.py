"""The webhook's reply to an update with a press (``bot.replies``): what rides it."""

from __future__ import annotations

from aiogram.methods import AnswerCallbackQuery, SendMessage

from bot.replies import Reply, body


async def test_the_press_s_first_answer_rides_its_reply_and_a_second_is_dropped() -> None:
    reply = Reply("q1")
    assert not reply.take(SendMessage(chat_id=1, text="hi"))  # a call of its own
    assert not reply.take(AnswerCallbackQuery(callback_query_id="q2"))  # another press's
    first = AnswerCallbackQuery(callback_query_id="q1", text="Вы за столом!")
    assert reply.take(first)
    assert reply.take(AnswerCallbackQuery(callback_query_id="q1", text="later"))  # (dropped)
    assert reply.close() is first
    assert body(first) == {
        "method": "answerCallbackQuery",
        "callback_query_id": "q1",
        "text": "Вы за столом!",
    }
    assert not reply.take(AnswerCallbackQuery(callback_query_id="q1"))  # closed: a call


async def test_a_reply_closed_without_an_answer_carries_none() -> None:
    reply = Reply("q1")
    assert reply.close() is None
    assert not reply.take(AnswerCallbackQuery(callback_query_id="q1"))
