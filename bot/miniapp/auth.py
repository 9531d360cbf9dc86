"""Who opened the Mini App: the launch's ``initData``, checked with the bot's token.

Telegram signs what it passes to the page (HMAC-SHA256 keyed by ``WebAppData`` and the
token); ``authenticate`` accepts it only with this bot's signature and only for a while
after it was signed (a copied launch does not open the table for ever). The table the
page shows is named by its join token: the direct link's ``startapp`` (then signed, in
``start_param``) or the ``web_app`` button's URL (``?startapp=``, unsigned: a wrong one
names no table); a start parameter that differs from the signed one is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlencode

from aiogram.utils.web_app import safe_parse_webapp_init_data

from ..i18n import lang_of

MAX_AGE = 24 * 3600.0  # seconds a launch's initData opens the page
SKEW = 60.0  # seconds a signature may seem to come from the future (clocks differ)
START = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what a join token (a start parameter) is made of
MAX_INIT_DATA = 4096  # characters: Telegram's are far shorter


class AuthRefusal(StrEnum):
    """Why a launch was refused."""

    MISSING = "missing"  # no initData: the page was opened outside Telegram
    FORGED = "forged"  # not signed with this bot's token (changed, or another bot's)
    EXPIRED = "expired"  # signed longer ago than the maximum age
    NO_USER = "no_user"  # signed, but it names no user
    TAMPERED = "tampered"  # the start parameter is not the signed one, or no join token


class AuthError(Exception):
    def __init__(self, reason: AuthRefusal) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True)
class Launch:
    """A launch that passed: the person, their language, the table's join token."""

    user_id: int
    name: str
    lang: str
    start: str | None
    signed_at: float


def authenticate(
    token: str, init_data: str, *, start: str | None, now: float, max_age: float = MAX_AGE
) -> Launch:
    """The launch ``init_data`` (the raw ``tgWebAppData``) describes, with the start
    parameter the page was given (``start``); raises ``AuthError``."""
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise AuthError(AuthRefusal.MISSING if not init_data else AuthRefusal.FORGED)
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except ValueError:  # (a bad signature, or signed fields that do not parse)
        raise AuthError(AuthRefusal.FORGED) from None
    signed_at = data.auth_date.timestamp()
    if now - signed_at > max_age or signed_at - now > SKEW:
        raise AuthError(AuthRefusal.EXPIRED)
    if data.user is None:
        raise AuthError(AuthRefusal.NO_USER)
    signed = data.start_param or None
    start = start or None
    if signed is not None and start is not None and start != signed:
        raise AuthError(AuthRefusal.TAMPERED)
    chosen = signed or start
    if chosen is not None and not START.match(chosen):
        raise AuthError(AuthRefusal.TAMPERED)
    user = data.user
    name = " ".join(p for p in (user.first_name, user.last_name) if p)
    return Launch(user.id, name, lang_of(user.language_code), chosen, signed_at)


def sign(
    token: str,
    *,
    user_id: int,
    first_name: str,
    auth_date: int,
    start_param: str | None = None,
    language_code: str = "ru",
) -> str:
    """The ``initData`` Telegram would pass for this launch, signed with ``token`` (the
    sandbox opens its page with it; the tests forge and age it)."""
    user = {"id": user_id, "first_name": first_name, "language_code": language_code}
    fields = {"auth_date": str(auth_date), "user": json.dumps(user, ensure_ascii=False)}
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
