"""docs/architecture.md's rule for the picture board: only the front ends import
``bot.pictures``, and only ``bot.pictures`` imports Pillow (the engine stays pure,
the store and the service never draw)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRONT_ENDS = ("bot/discord_bot/", "bot/cli/", "bot/terminal.py")


def imported(path: Path) -> set[str]:
    """The modules ``path`` imports, absolute (relative imports resolved)."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def sources() -> dict[str, set[str]]:
    return {
        p.relative_to(ROOT).as_posix(): imported(p)
        for top in ("engine", "bot")
        for p in sorted((ROOT / top).rglob("*.py"))
    }


def test_only_the_front_ends_import_the_pictures() -> None:
    users = {
        path
        for path, modules in sources().items()
        if not path.startswith("bot/pictures/")
        and any(m == "bot.pictures" or m.startswith("bot.pictures.") for m in modules)
    }
    assert users, "the rule sees no user of bot.pictures: is the scan broken?"
    assert {p for p in users if not p.startswith(FRONT_ENDS)} == set()


def test_only_the_pictures_import_pillow() -> None:
    users = {
        path
        for path, modules in sources().items()
        if any(m == "PIL" or m.startswith("PIL.") for m in modules)
    }
    assert users and all(p.startswith("bot/pictures/") for p in users), users
