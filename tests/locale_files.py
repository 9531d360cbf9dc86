"""The Fluent files as the tests read them: each message's id, text and placeholders."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from fluent.syntax import FluentParser, ast, visitor

from locales import LANGS


@dataclass(frozen=True)
class Text:
    file: str
    text: str  # the source of the message's value, every variant
    params: frozenset[str]
    variants: frozenset[str]  # the plural forms it selects on (none for a plain text)


class _Walk(visitor.Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.params: set[str] = set()
        self.variants: set[str] = set()
        self.parts: list[str] = []

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.params.add(node.id.name)

    def visit_Variant(self, node: ast.Variant) -> None:
        if isinstance(node.key, ast.Identifier):  # a plural form; [0] matches zero alone
            self.variants.add(node.key.name)
        self.generic_visit(node)

    def visit_TextElement(self, node: ast.TextElement) -> None:
        self.parts.append(node.value)


def texts(lang: str) -> dict[str, Text]:
    """Every message of ``lang``; a syntax error or an id in two files fails here."""
    assert lang in LANGS
    found: dict[str, Text] = {}
    folder = resources.files("locales").joinpath(lang)
    for file in sorted(folder.iterdir(), key=lambda f: f.name):
        if not file.name.endswith(".ftl"):
            continue
        tree = FluentParser().parse(file.read_text(encoding="utf-8"))
        for entry in tree.body:
            assert not isinstance(entry, ast.Junk), f"{file.name}: {entry.content}"
            if isinstance(entry, ast.Message):
                name = entry.id.name
                assert name not in found, f"{name} is in {found.get(name)} and {file.name}"
                walk = _Walk()
                walk.visit(entry)
                found[name] = Text(
                    file.name,
                    "".join(walk.parts),
                    frozenset(walk.params),
                    frozenset(walk.variants),
                )
    return found
