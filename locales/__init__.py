"""The texts of the bot and of the command-line tool, in Fluent files
``locales/<lang>/<area>.ftl``: Russian (the default) and English.

``t(lang, "lobby.title")`` formats the message ``lobby-title`` (dots and underscores
become hyphens); a message with plural forms selects on ``$n`` by CLDR's rules. A
message the language lacks is taken from the Russian files.

>>> t("ru", "cards", n=21), t("ru", "cards", n=22), t("en", "cards", n=1)
('21 карта', '22 карты', '1 card')
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources
from typing import Any

from fluent.runtime import FluentBundle, FluentResource

DEFAULT = "ru"
LANGS = ("ru", "en")


def message_id(key: str) -> str:
    """The Fluent id of a dotted key: ``answer.not_now`` -> ``answer-not-now``."""
    return key.replace(".", "-").replace("_", "-")


@cache
def bundle(lang: str) -> FluentBundle:
    """All of one language's files in one bundle (ids are unique across the files)."""
    found = FluentBundle([lang], use_isolating=False)
    folder = resources.files("locales").joinpath(lang)
    for file in sorted(folder.iterdir(), key=lambda f: f.name):
        if file.name.endswith(".ftl"):
            found.add_resource(FluentResource(file.read_text(encoding="utf-8")))
    return found


def t(lang: str, key: str, **params: Any) -> str:
    """The text ``key`` in ``lang`` (Russian if that language has none) with ``params``.
    A missing text or placeholder raises ``KeyError``."""
    # (each value's type too: 1 and Decimal("1.0") are one key to a dict, not to Fluent)
    return _remembered(lang, key, tuple((k, type(v), v) for k, v in params.items()))


# Formatting is pure, and the bot asks for the same few thousand texts again and again
# (Fluent walks the pattern, and babel parses the locale for every number it shows).
# Every value Fluent takes (str, numbers, dates) can be a key.
@lru_cache(maxsize=8192)
def _remembered(lang: str, key: str, params: tuple[tuple[str, type, Any], ...]) -> str:
    return _format(lang, key, {k: v for k, _, v in params})


def _format(lang: str, key: str, params: dict[str, Any]) -> str:
    ident = message_id(key)
    source = bundle(lang if lang in LANGS else DEFAULT)
    if not source.has_message(ident):
        source = bundle(DEFAULT)
    pattern = source.get_message(ident).value  # KeyError when Russian lacks it too
    if pattern is None:
        raise KeyError(key)
    text, errors = source.format_pattern(pattern, params)
    if errors:
        raise KeyError(f"{key}: {errors[0]}")
    return str(text)
