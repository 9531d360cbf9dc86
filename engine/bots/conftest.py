"""As the root conftest.py does for the engine's core: the bots' compiled modules
(engine.build.BOTS) are left out of pytest's doctest collection (they hold none)."""

from engine.build import BOTS

collect_ignore = [f"{module}.py" for module in BOTS]
