"""Texts from locales/*.toml: lookup by dotted key, placeholders, plural forms."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

DEFAULT = "ru"
LANGS = ("ru", "en")


def lang_of(code: str | None) -> str:
    """The catalog for a Telegram ``language_code``: English for ``en*``, else Russian."""
    return "en" if code and code.lower().startswith("en") else DEFAULT


@cache
def catalog(lang: str) -> dict[str, Any]:
    text = resources.files("locales").joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def plural_form(lang: str, n: int) -> str:
    if lang != "ru":
        return "one" if n == 1 else "other"
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


def t(lang: str, key: str, **params: Any) -> str:
    """``t("ru", "answer.joined")``; a key naming a plural table takes ``n``."""
    node: Any = catalog(lang)
    for part in key.split("."):
        node = node[part]
    if isinstance(node, dict):
        node = node[plural_form(lang, int(params["n"]))]
    return str(node).format(**params) if params else str(node)


def number(lang: str, x: float, digits: int = 1) -> str:
    """A number as the language writes it: «25,3» in Russian, "25.3" in English."""
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "ru" else text
