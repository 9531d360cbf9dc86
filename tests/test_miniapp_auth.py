"""The Mini App's launch check (``bot.miniapp.authenticate``): only this bot's signature,
only for a while, and only the table the launch was signed for."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from bot.miniapp import MAX_AGE, AuthError, AuthRefusal, authenticate, sign
from bot.miniapp.links import Links
from tests.fakes import TOKEN

NOW = 1_800_000_000
OTHER_BOT = "987654321:" + "B" * 35
TABLE = "Zq3xT_Kk9-0aBcDeFgHiJw"


def launch(**changes: object) -> str:
    fields: dict[str, object] = {"user_id": 7, "first_name": "Аня", "auth_date": NOW - 60}
    fields.update(changes)
    return sign(TOKEN, **fields)  # type: ignore[arg-type]


def refusal(init_data: str, start: str | None = None, now: float = NOW) -> AuthRefusal:
    with pytest.raises(AuthError) as refused:
        authenticate(TOKEN, init_data, start=start, now=now)
    return refused.value.reason


def test_a_launch_signed_by_the_bot_names_the_person_and_the_table() -> None:
    found = authenticate(TOKEN, launch(start_param=TABLE), start=TABLE, now=NOW)
    assert (found.user_id, found.name, found.lang, found.start) == (7, "Аня", "ru", TABLE)
    english = authenticate(TOKEN, launch(language_code="en-GB"), start=TABLE, now=NOW)
    assert (english.lang, english.start) == ("en", TABLE)  # the web_app button's URL names it


def test_a_changed_field_breaks_the_signature() -> None:
    fields = dict(parse_qsl(launch(start_param=TABLE)))
    fields["user"] = fields["user"].replace('"id": 7', '"id": 8')
    assert refusal(urlencode(fields)) is AuthRefusal.FORGED
    fields = dict(parse_qsl(launch()))
    fields["hash"] = "0" * 64
    assert refusal(urlencode(fields)) is AuthRefusal.FORGED
    assert refusal("user=%7B%22id%22%3A7%7D&auth_date=1") is AuthRefusal.FORGED  # no hash


def test_another_bots_launch_is_refused() -> None:
    theirs = sign(OTHER_BOT, user_id=7, first_name="Аня", auth_date=NOW - 60)
    assert refusal(theirs) is AuthRefusal.FORGED


def test_a_launch_expires_after_the_maximum_age() -> None:
    assert authenticate(TOKEN, launch(auth_date=NOW - int(MAX_AGE) + 5), start=None, now=NOW)
    assert refusal(launch(auth_date=NOW - int(MAX_AGE) - 5)) is AuthRefusal.EXPIRED
    assert refusal(launch(auth_date=NOW + 3600)) is AuthRefusal.EXPIRED  # from the future


def test_a_start_parameter_other_than_the_signed_one_is_refused() -> None:
    signed = launch(start_param=TABLE)
    assert refusal(signed, start="another-table-token") is AuthRefusal.TAMPERED
    assert refusal(launch(), start="bad token!") is AuthRefusal.TAMPERED
    assert refusal(launch(start_param="x" * 65)) is AuthRefusal.TAMPERED


def test_a_page_opened_without_telegram_is_refused() -> None:
    assert refusal("") is AuthRefusal.MISSING
    assert refusal("x" * 5000) is AuthRefusal.FORGED


def test_the_buttons_carry_the_table_as_the_launch_reads_it() -> None:
    links = Links("https://durak.example.org/app", "https://t.me/durak_bot/table")
    button = links.hand_button("ru", TABLE)
    assert button.text == "🎴 Открыть стол"
    assert button.app == f"https://durak.example.org/app?startapp={TABLE}"
    shared = links.table_button("en", TABLE)
    assert shared is not None and shared.url == f"https://t.me/durak_bot/table?startapp={TABLE}"
    assert Links("https://durak.example.org/app", None).table_button("ru", TABLE) is None
    signed = launch(start_param=TABLE)  # what Telegram signs for the direct link
    assert authenticate(TOKEN, signed, start=TABLE, now=NOW).start == TABLE
