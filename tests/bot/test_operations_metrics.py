"""docs/operations.md's Grafana dashboard and alert rules: valid, and naming only metrics the
bot serves (bot/ops/metrics.py), so a renamed metric can't leave them silently empty."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bot.ops import Metrics, Shard
from bot.ops.metrics import samples
from bot.service import GameService
from bot.service.cooldown import Cooldown
from bot.store import Store
from bot.web import Sessions
from bot.web.app import create_app, figures

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
METRIC = re.compile(r"\breel_[a-z_]+")


def block(heading: str, language: str) -> str:
    """The first ``language`` code block after ``heading`` in docs/operations.md."""
    text = OPERATIONS.read_text(encoding="utf-8")
    after = text[text.index(heading) :]
    start = after.index(f"```{language}\n") + len(language) + 4
    return after[start : after.index("```", start)]


async def served(tmp_path: Path) -> set[str]:
    """Every sample name a bot process's metrics give (one interaction recorded, the web
    board beside it)."""
    metrics = Metrics()
    store = await Store.open(tmp_path / "reel.db")
    service = GameService(store)
    try:
        metrics.watch_service(service, Cooldown())
        metrics.watch_shards(lambda: [Shard(0, 0.05, True)])
        board = create_app(service, Sessions(), None)  # the web board beside it (REEL_WEB_PORT)
        metrics.watch_web(lambda: figures(board))
        metrics.interaction("reel new", "command", "ok", 0.01, 0.02)
        return {name for name, _, _ in samples(metrics.registry)}
    finally:
        await service.close()


async def test_the_dashboard_and_the_alert_rules_name_only_metrics_the_bot_serves(
    tmp_path: Path,
) -> None:
    dashboard = json.loads(block("### A Grafana dashboard", "json"))
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    rules = re.findall(r"^\s+expr: (.+)$", block("### Alert rules", "yaml"), re.MULTILINE)
    assert len(exprs) >= 10 and len(rules) == 5
    named = {name for expr in exprs + rules for name in METRIC.findall(expr)}
    assert named - await served(tmp_path) == set()
    # the three alerts: a p99 over 1 s, busy refusals, a shard down
    assert any("first_answer" in r and "0.99" in r and r.endswith("> 1") for r in rules)
    assert any("reel_store_busy_refusals_total" in r for r in rules)
    assert any("reel_shard_up" in r and r.endswith("== 0") for r in rules)


async def test_the_docs_list_every_metric_the_bot_serves_and_no_other(tmp_path: Path) -> None:
    text = OPERATIONS.read_text(encoding="utf-8")
    start = text.index("| metric | type | what |")
    table = text[start : text.index("Prometheus (`prometheus.yml`)", start)]
    listed = {name.removesuffix("_total") for name in METRIC.findall(table)}
    families = {name.removesuffix("_total") for name in await served(tmp_path)}
    families = {re.sub(r"_(bucket|count|sum|created)$", "", name) for name in families}
    assert listed == families


async def test_a_write_another_process_made_on_the_file_is_counted(tmp_path: Path) -> None:
    metrics = Metrics()
    ours = GameService(await Store.open(tmp_path / "reel.db"))
    theirs = GameService(await Store.open(tmp_path / "reel.db"))
    try:
        metrics.watch_service(ours, Cooldown())
        await ours.get_settings(1)  # read, and remembered
        found = {name: value for name, _, value in samples(metrics.registry)}
        assert found["reel_changes_outside_writes_total"] == 0
        await theirs.update_settings(1, symbols=False)  # the other process commits
        await ours.get_settings(1)  # remembered: a look at the file first finds it
        found = {name: value for name, _, value in samples(metrics.registry)}
        assert found["reel_changes_outside_writes_total"] == 1
    finally:
        await ours.close()
        await theirs.close()
