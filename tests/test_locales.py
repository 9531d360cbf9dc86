"""The Fluent files: both languages say the same things, plurals follow CLDR, and
``t()`` finds every text, falling back to Russian."""

from __future__ import annotations

import ast
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from locales import _remembered, message_id, t
from tests.locale_files import texts

PLURALS = {"ru": {"one", "few", "many"}, "en": {"one", "other"}}


def test_every_text_exists_in_both_languages_with_the_same_placeholders() -> None:
    ru, en = texts("ru"), texts("en")
    assert set(ru) == set(en)
    assert {k: v.params for k, v in ru.items()} == {k: v.params for k, v in en.items()}
    assert {k: v.file for k, v in ru.items()} == {k: v.file for k, v in en.items()}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_plural_texts_have_every_form_of_their_language(lang: str) -> None:
    plural = {k: v.variants for k, v in texts(lang).items() if "one" in v.variants}
    assert plural  # cards, seconds, games, seats, ...
    for key, variants in plural.items():
        assert variants >= PLURALS[lang], key


@pytest.mark.parametrize(
    ("n", "ru", "en"),
    [
        (1, "1 карта", "1 card"),
        (2, "2 карты", "2 cards"),
        (5, "5 карт", "5 cards"),
        (11, "11 карт", "11 cards"),
        (12, "12 карт", "12 cards"),
        (21, "21 карта", "21 cards"),
        (24, "24 карты", "24 cards"),
        (111, "111 карт", "111 cards"),
    ],
)
def test_plural_forms_follow_cldr(n: int, ru: str, en: str) -> None:
    assert (t("ru", "cards", n=n), t("en", "cards", n=n)) == (ru, en)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_text_formats_with_its_placeholders(lang: str) -> None:
    for key, text in texts(lang).items():
        params = {p: 3 if p == "n" else f"<{p}>" for p in text.params}
        out = t(lang, key, **params)
        assert out.strip() and "{" not in out, key
        for p in text.params - {"n"}:
            assert f"<{p}>" in out or text.variants, (key, p)


def test_a_language_without_files_reads_russian() -> None:
    assert t("de", "lobby.join") == t("ru", "lobby.join") != t("en", "lobby.join")


def test_a_missing_text_or_placeholder_is_an_error() -> None:
    with pytest.raises(KeyError):
        t("ru", "lobby.no_such_text")
    with pytest.raises(KeyError):
        t("ru", "answer.preset")  # needs name=
    assert message_id("answer.not_now") == "answer-not-now"


def test_texts_are_remembered_as_formatted_afresh() -> None:
    _remembered.cache_clear()
    first = [t("ru", "cards", n=n) for n in (21, 21, 22)]
    assert first == ["21 карта", "21 карта", "22 карты"]
    assert _remembered.cache_info().hits == 1  # the second 21 was not formatted again
    assert t("en", "cards", n=1) == "1 card"
    assert t("en", "cards", n=Decimal("1.0")) == "1 cards"  # equal to 1, plural to Fluent


def test_the_engine_imports_only_the_standard_library() -> None:
    """The texts' reader (Fluent) belongs to the front ends, so no engine module needs
    it: ``engine/`` imports nothing but the standard library and itself."""
    root = Path(__file__).parent.parent / "engine"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            for top in tops:
                assert top == "engine" or top in sys.stdlib_module_names, (path, top)
