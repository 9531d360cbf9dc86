"""Which package may import which, counting every import: at the top, under
``TYPE_CHECKING`` and inside functions alike. The Bot API emulator knows no part of the
project, the sandbox only the bot and the emulator; the benchmarks import no tests; nothing
in production imports a stand-in but ``python -m bot --sandbox`` the sandbox; no cycle
among the modules of the stand-ins and the benchmarks. An installed copy imports them
from anywhere."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = (
    "engine",
    "storage",
    "service",
    "bot",
    "cli",
    "locales",
    "bench",
    "tests",
    "telegram_emulator",
    "sandbox",
)
PRODUCTION = ("engine", "storage", "service", "bot", "cli", "locales")
STAND_INS = {"telegram_emulator", "sandbox", "tests", "bench"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` names in an import, relative ones made absolute."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def modules(package: str) -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


def first_party(package: str) -> set[str]:
    """The project's top-level packages that ``package``'s modules import."""
    return {
        name.split(".")[0]
        for path in modules(package).values()
        for name in imports(path)
        if name.split(".")[0] in FIRST_PARTY
    }


def test_the_emulator_imports_nothing_of_the_project() -> None:
    assert first_party("telegram_emulator") == {"telegram_emulator"}


@pytest.mark.parametrize("package", ["telegram_emulator", "sandbox", "bench"])
def test_no_import_cycle_among_the_modules_of(package: str) -> None:
    found = modules(package)
    graph = {
        name: {m for m in imports(path) if m in found and m != name} for name, path in found.items()
    }
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module not in done:
            for other in graph[module]:
                visit(other, (*path, module))
            done.add(module)

    for module in graph:
        visit(module, ())


def test_the_benchmarks_import_no_tests() -> None:
    assert "tests" not in first_party("bench")


def test_the_sandbox_stands_on_the_bot_and_the_emulator_only() -> None:
    assert first_party("sandbox") == {"sandbox", "bot", "telegram_emulator"}


def test_production_imports_no_stand_in_but_the_sandbox_command() -> None:
    for package in PRODUCTION:
        for name, path in modules(package).items():
            used = {m.split(".")[0] for m in imports(path)} & STAND_INS
            assert used <= ({"sandbox"} if name == "bot.__main__" else set()), name


def test_an_installed_copy_imports_stand_ins_and_benchmarks_anywhere(tmp_path: Path) -> None:
    """What ``pip install`` put in place, away from the checkout (no ``.`` on the path)."""
    names = ("sandbox", "sandbox.web", "telegram_emulator", "bench.service_speed", "bench.bot_load")
    code = f"import importlib; [importlib.import_module(n) for n in {names!r}]"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
