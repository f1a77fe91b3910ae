"""The house rules of docs/architecture.md, read from the source: which room may import
which, no module reaching into another's private names, no import cycle, and the
sizes of modules and functions."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("engine", "bot")
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 60
# The solver's hot loops, kept whole on purpose (docs/solver.md): the Python twins of
# the C loops, the search, and the deadline closure the mypyc build compiles.
HOT_LOOPS = {
    ("engine/solver/closure.py", "fixpoint_py"),
    ("engine/solver/closure.py", "ordering_probe_py"),
    ("engine/solver/phase.py", "can_end_phase_py"),
    ("engine/solver/phase.py", "due_by"),
    ("engine/solver/search.py", "dfs"),
    ("engine/solver/dead.py", "dead_card"),  # the general search's check at every node
}
DRIVERS = {"sqlite3", "aiosqlite", "asyncpg", "psycopg", "psycopg2"}


@dataclass(frozen=True)
class Import:
    path: str  # the importing file, from the repository's root
    module: str  # the module imported, absolute
    names: tuple[str, ...]  # the names taken from it (``from m import a, b``)
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def sources() -> tuple[Path, ...]:
    return tuple(sorted(p for top in PRODUCT for p in (ROOT / top).rglob("*.py")))


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def imports(path: Path) -> Iterator[Import]:
    """Every import in ``path``, at any depth (inside functions too)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(rel(path), alias.name, (), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names = tuple(alias.name for alias in node.names)
            yield Import(rel(path), module, names, node.lineno)


def all_imports() -> list[Import]:
    return [found for path in sources() for found in imports(path)]


def top(module: str) -> str:
    return module.split(".")[0]


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_rules_core_never_imports_the_solver() -> None:
    core = [i for i in all_imports() if i.path.startswith("engine/")]
    core = [i for i in core if not i.path.startswith("engine/solver/")]
    wrong = [i for i in core if within(i.module, "engine.solver")]
    wrong += [i for i in core if i.module == "engine" and "solver" in i.names]
    assert wrong == []


def test_the_engine_is_pure_and_synchronous() -> None:
    banned = {"discord", "asyncio", "bot", "aiohttp"} | DRIVERS
    engine = [i for i in all_imports() if i.path.startswith("engine/")]
    assert [i for i in engine if top(i.module) in banned] == []


def test_only_the_store_talks_to_a_database() -> None:
    outside = [i for i in all_imports() if not i.path.startswith("bot/store/")]
    assert [i for i in outside if top(i.module) in DRIVERS] == []


def test_only_the_operators_room_imports_prometheus() -> None:
    outside = [i for i in all_imports() if not i.path.startswith("bot/ops/")]
    assert [i for i in outside if top(i.module) == "prometheus_client"] == []
    assert any(top(i.module) == "prometheus_client" for i in all_imports())


def test_only_the_discord_adapter_imports_discord() -> None:
    outside = [i for i in all_imports() if not i.path.startswith("bot/discord_bot/")]
    assert [i for i in outside if top(i.module) == "discord"] == []


@pytest.mark.parametrize(
    ("room", "never"),
    [
        (
            "bot/store/",
            ("bot.service", "bot.discord_bot", "bot.terminal", "bot.cli", "bot.web", "bot.ops"),
        ),
        # the backends share the records, errors and row readers of bot/store/, never
        # each other's modules
        ("bot/store/postgres/", ("bot.store.sqlite",)),
        ("bot/store/sqlite/", ("bot.store.postgres",)),
        # the service speaks to the store's contract, never to one backend
        (
            "bot/service/",
            (
                "bot.discord_bot",
                "bot.terminal",
                "bot.cli",
                "bot.store.sqlite",
                "bot.web",
                "bot.ops",
            ),
        ),
        # the operator's room reads the service (and its store through the service), and is
        # told of the Discord adapter's interactions: it imports no front end, nor the store
        ("bot/ops/", ("bot.discord_bot", "bot.web", "bot.terminal", "bot.cli", "bot.store")),
        # the daily's rules that take the solver are the service's (bot/service/daily_rules.py);
        # its numbers and calendar are the rules core's (engine/daily.py: pure, as above)
        # the terminal and Discord front ends get their service from bot/service/opening.py
        # (the entry point names the database): they never import the store, nor its errors
        ("bot/terminal.py", ("bot.discord_bot", "bot.store", "bot.web", "bot.cli")),
        # the third front end: the web board calls the service, never the store (whoever
        # starts it opens the store: bot/cli/web.py, bot/cli/bot.py), and no other front end
        # (its /metrics and /healthz are added by whoever starts it: bot.ops never imported)
        ("bot/web/", ("bot.store", "bot.discord_bot", "bot.terminal", "bot.cli", "bot.ops")),
        # the Discord adapter knows nothing of the web board: bot/cli/bot.py puts them together
        ("bot/discord_bot/", ("bot.web", "bot.cli", "bot.terminal", "bot.store")),
    ],
)
def test_the_lower_rooms_never_import_the_upper_ones(room: str, never: tuple[str, ...]) -> None:
    found = [i for i in all_imports() if i.path.startswith(room)]
    assert [i for i in found if any(within(i.module, n) for n in never)] == []


# The commands of bot/cli/ that copy a database file, the only code above the service that
# imports the store: reel backup (SQLite's online backup) and reel db copy.
STORE_COMMANDS = {"bot/cli/backup.py", "bot/cli/db.py"}


def test_above_the_service_only_the_copying_commands_import_the_store() -> None:
    above = [i for i in all_imports() if not i.path.startswith(("bot/store/", "bot/service/"))]
    assert {i.path for i in above if within(i.module, "bot.store")} == STORE_COMMANDS
    # ... and every other command reaches its database through the service
    commands = {rel(p) for p in sources() if rel(p).startswith("bot/cli/")}
    assert commands > STORE_COMMANDS and "bot/cli/play.py" in commands


def test_bot_holds_its_rooms_and_no_loose_module_but_its_entry_and_settings() -> None:
    # the reel command's modules live in bot/cli/, the daily's rules in engine/ and
    # bot/service/: beside the rooms, only the package, python -m bot, the settings and the
    # terminal game
    loose = {p.name for p in (ROOT / "bot").glob("*.py")}
    assert loose == {"__init__.py", "__main__.py", "config.py", "terminal.py"}


def test_the_front_ends_reach_the_database_only_through_the_service() -> None:
    front = [i for i in all_imports() if i.path.startswith(("bot/discord_bot/", "bot/terminal"))]
    assert [i for i in front if within(i.module, "bot.store")] == []
    # ... and they do reach it: the service opens it for them
    assert any(i.module == "bot.service" and "open_service" in i.names for i in front)


def test_no_module_imports_another_modules_private_names() -> None:
    wrong = [
        i
        for i in all_imports()
        if i.module != "__future__"
        and any(private(name) and not own_submodule(i, name) for name in i.names)
    ]
    assert wrong == []


def own_submodule(found: Import, name: str) -> bool:
    """``from . import _native``: a package's private module, imported in that package."""
    folder = ROOT.joinpath(*found.module.split("."))
    importer = (ROOT / found.path).parent
    return importer == folder and any(folder.glob(f"{name}.py*"))


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_module_reads_a_private_name_of_a_module_it_imported() -> None:
    wrong = []
    for path in sources():
        modules = set()  # names bound to one of our modules (the standard library's
        # own underscored names, such as os._exit, are public API)
        for found in imports(path):
            if not found.names and top(found.module) in PRODUCT:  # import a.b
                modules.add(found.module.split(".")[0])
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.Import):
                ours = [a for a in node.names if top(a.name) in PRODUCT]
                modules |= {a.asname for a in ours if a.asname}
            elif isinstance(node, ast.ImportFrom) and node.level:  # from . import jobs
                modules |= {a.asname or a.name for a in node.names}
        for node in ast.walk(tree(path)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and private(node.attr)
            ):
                wrong.append(f"{rel(path)}:{node.lineno} {node.value.id}.{node.attr}")
    assert wrong == []


def test_no_import_cycle_between_modules() -> None:
    names = {module_name(p): p for p in sources()}
    graph: dict[str, set[str]] = {name: set() for name in names}
    for path in sources():
        me = module_name(path)
        for found in imports(path):
            targets = [found.module] + [f"{found.module}.{n}" for n in found.names]
            for target in targets:
                if target in names and target != me and not within(me, target):
                    graph[me].add(target)
    cycles = []
    for start in graph:
        seen: set[str] = set()
        stack = [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    cycles.append(" -> ".join([*trail, nxt]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
    assert cycles == []


def test_modules_stay_small() -> None:
    sizes = {rel(p): len(p.read_text(encoding="utf-8").splitlines()) for p in sources()}
    assert {path: n for path, n in sizes.items() if n > MAX_MODULE_LINES} == {}


def test_functions_stay_short() -> None:
    long = {}
    for path in sources():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                size = node.end_lineno - node.lineno + 1
                if size > MAX_FUNCTION_LINES and (rel(path), node.name) not in HOT_LOOPS:
                    long[f"{rel(path)}:{node.name}"] = size
    assert long == {}


def test_the_rules_find_what_they_look_for() -> None:
    # The checks above pass on an empty list too: make sure they see the real imports.
    found = all_imports()
    assert any(i.path.startswith("bot/store/") and top(i.module) == "aiosqlite" for i in found)
    assert any(i.path.startswith("bot/discord_bot/") and top(i.module) == "discord" for i in found)
    assert any(within(i.module, "engine.solver") for i in found if i.path.startswith("bot/"))
    web = [i for i in found if i.path.startswith("bot/web/")]
    assert any(within(i.module, "bot.service") for i in web)
    assert any(top(i.module) == "aiohttp" for i in web)
    assert len(sources()) > 40
