"""Build hygiene: what CI installs is pinned where it matters, and CI runs the README's
test command, doctests included."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
REQUIREMENT = re.compile(r"^([A-Za-z0-9_.-]+)(.*)$")


def numbers(text: str) -> tuple[int, ...]:
    """The release numbers of a version: "6.170.27.post1" and "6.170.27rc1" -> (6, 170, 27)."""
    release = re.match(r"\d+(\.\d+)*", text)
    assert release, text
    return tuple(int(part) for part in release.group().split("."))


def requirements(lines: list[str]) -> dict[str, dict[str, str]]:
    """name -> {operator: version} of a requirement list of pyproject.toml."""
    found = {}
    for line in lines:
        match = REQUIREMENT.match(line.replace(" ", ""))
        assert match, line
        found[match.group(1)] = {
            op: v for op, v in re.findall(r"(==|>=|<)([0-9.]+)", match.group(2))
        }
    return found


def test_runtime_dependencies_are_bounded_around_the_installed_versions() -> None:
    for name, bounds in requirements(PROJECT["project"]["dependencies"]).items():
        assert set(bounds) == {">=", "<"}, (name, bounds)  # before: no upper bound
        low, high, installed = numbers(bounds[">="]), numbers(bounds["<"]), version(name)
        # the lower bound was tested when set; a newer release CI installs must pass too
        assert low <= numbers(installed) < high, f"{name}: tests run with {installed}"
        assert len(high) == 1 and high[0] == low[0] + 1, f"{name}: the next major version"


def test_the_linters_are_pinned_exactly_and_the_test_tools_bounded() -> None:
    test = requirements(PROJECT["project"]["optional-dependencies"]["test"])
    for name in ("ruff", "mypy"):
        assert test[name] == {"==": version(name)}  # before: ruff>=0.6, mypy>=1.11
    for name in ("pytest", "pytest-asyncio", "hypothesis"):  # hypothesis: several releases a week
        low, high, installed = numbers(test[name][">="]), numbers(test[name]["<"]), version(name)
        assert low <= numbers(installed) < high, f"{name}: tests run with {installed}"


def test_ci_runs_the_readmes_test_command_with_the_doctests() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if line.endswith(".venv/bin/pytest"))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci
    pytest_options = PROJECT["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in pytest_options["addopts"].split()  # before: tests only
    assert {"tests", "engine", "storage", "service", "bot"} <= set(pytest_options["testpaths"])
    assert ">>> " in (ROOT / "engine" / "__init__.py").read_text(encoding="utf-8")
