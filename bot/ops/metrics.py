"""The bot's metrics, for Prometheus: what an operator watches (docs/operations.md).

``Metrics`` holds one registry of its own (a process's; tests make several) with:

- ``reel_interactions_total{command, outcome}``: interactions handled. ``command`` is the
  slash command (``reel move``), the button or menu (``button reel:deal``) or the
  autocomplete (``autocomplete reel move``); ``outcome`` is ``ok`` (answered with what was
  asked), ``refused`` (a private refusal: an illegal move, a stale board, a busy
  database), ``slowed`` (the cooldown), ``stopping`` (the bot stops), ``error`` (an
  unexpected failure);
- ``reel_interaction_first_answer_seconds{kind}`` and ``reel_interaction_seconds{kind}``:
  from the interaction's arrival to its first answer (Discord's 3-second deadline) and to
  the end of its work, by kind (``command``, ``component``, ``autocomplete``);
- ``reel_store_operation_seconds{outcome}`` and ``reel_store_busy_refusals_total``: each
  database operation (a connection's wait included) and those refused as busy;
- ``reel_solver_jobs_in_flight``, ``reel_solver_jobs_queued``,
  ``reel_solver_jobs_failed_total``, ``reel_solver_searches_timed_out_total``,
  ``reel_solver_jobs_hung_total``: the solver's pool, read at each scrape;
- ``reel_cooldown_refusals_total``: actions refused as too fast (Discord and web);
- ``reel_gateway_latency_seconds{shard}``, ``reel_shard_up{shard}``: each shard of this
  process, read at each scrape;
- ``reel_games_in_memory``, ``reel_changes_heard_total{kind}``,
  ``reel_changes_catch_ups_total``, ``reel_changes_outside_writes_total``: the service's
  cache, and the other processes' changes heard (docs/scaling.md) or found on an SQLite
  file (docs/storage.md).

The Discord adapter records interactions (``bot/discord_bot/metering.py``); the rest is
read from the service, its store and the bot when Prometheus asks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ..service import GameService
from ..service.cooldown import Cooldown

LATENCY_BUCKETS: Final = (
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0,
)  # fmt: skip
"""Seconds: fine below Discord's 3-second deadline, coarse above it."""
STORE_BUCKETS: Final = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
)  # fmt: skip
OUTCOMES: Final = ("ok", "refused", "slowed", "stopping", "error")
KINDS: Final = ("command", "component", "autocomplete")


@dataclass(frozen=True, slots=True)
class Shard:
    """One shard of this process as the gateway figures say."""

    shard_id: int
    latency: float | None  # seconds, the last heartbeat's round trip (None: not known yet)
    up: bool  # connected and not closed


class Metrics:
    """One process's metrics (see the module docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.interactions = Counter(
            "reel_interactions", "Interactions handled, by command and outcome",
            ["command", "outcome"], registry=r,
        )  # fmt: skip
        self.first_answer = Histogram(
            "reel_interaction_first_answer_seconds",
            "From an interaction's arrival to its first answer (Discord allows 3 s)",
            ["kind"], buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.whole = Histogram(
            "reel_interaction_seconds", "From an interaction's arrival to the end of its work",
            ["kind"], buckets=LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.store_seconds = Histogram(
            "reel_store_operation_seconds",
            "Database operations, the wait for a connection included, by outcome",
            ["outcome"], buckets=STORE_BUCKETS, registry=r,
        )  # fmt: skip
        self.store_busy = Counter(
            "reel_store_busy_refusals",
            "Database operations refused as busy (a locked row or file, no free connection)",
            registry=r,
        )
        for kind in KINDS:  # every series there from the start, at 0
            self.first_answer.labels(kind)
            self.whole.labels(kind)
        for outcome in ("ok", "busy", "error"):
            self.store_seconds.labels(outcome)

    def interaction(
        self, command: str, kind: str, outcome: str, first: float | None, whole: float
    ) -> None:
        """One interaction done: its command, kind, outcome, and the seconds to its first
        answer (None: none was sent) and to its end."""
        self.interactions.labels(command, outcome).inc()
        if first is not None:
            self.first_answer.labels(kind).observe(first)
        self.whole.labels(kind).observe(whole)

    def store_operation(self, seconds: float, outcome: str) -> None:
        self.store_seconds.labels(outcome).observe(seconds)
        if outcome == "busy":
            self.store_busy.inc()

    def watch_service(self, service: GameService, cooldown: Cooldown | None = None) -> None:
        """Time the service's database operations, and read its figures (and the
        cooldown's, if any) at each scrape."""
        service.store.on_operation(self.store_operation)
        self.registry.register(ServiceFigures(service, cooldown))

    def watch_web(self, figures: Callable[[], Mapping[str, float]]) -> None:
        """Read the web board's figures (``figures()``: bot/web's) at each scrape."""
        self.registry.register(WebFigures(figures))

    def watch_shards(self, shards: Callable[[], Sequence[Shard]]) -> None:
        """Read this process's shards (``shards()``) at each scrape."""
        self.registry.register(ShardFigures(shards))


class WebFigures(Collector):
    """The web board's figures (a plain callable its starter hands over), when asked."""

    NAMES: Final = {
        "sockets_open": ("gauge", "reel_web_sockets_open", "Web board sockets open"),
        "socket_opens_refused": (
            "counter", "reel_web_socket_opens_refused", "Socket opens refused as too many",
        ),
        "sign_ins_refused": (
            "counter", "reel_web_sign_ins_refused", "Activity sign-ins refused, any reason",
        ),
    }  # fmt: skip

    def __init__(self, figures: Callable[[], Mapping[str, float]]) -> None:
        self._figures = figures

    def collect(self) -> Iterator[Metric]:
        found = self._figures()
        for key, (kind, name, text) in self.NAMES.items():
            if key in found:
                yield (gauge if kind == "gauge" else counter)(name, text, found[key])


class ServiceFigures(Collector):
    """The service's figures, read when Prometheus asks."""

    def __init__(self, service: GameService, cooldown: Cooldown | None) -> None:
        self._service = service
        self._cooldown = cooldown

    def collect(self) -> Iterator[Metric]:
        service, pool = self._service, self._service.solver
        yield gauge("reel_games_in_memory", "Current games kept in memory", len(service.games))
        yield gauge("reel_solver_jobs_in_flight", "Solver jobs running or waiting", pool.in_flight)
        yield gauge("reel_solver_jobs_queued", "Solver jobs waiting for a worker", pool.queued)
        yield gauge("reel_solver_workers", "Solver worker processes", pool.workers)
        yield counter("reel_solver_jobs_failed", "Solver jobs the pool failed", pool.failed)
        yield counter(
            "reel_solver_searches_timed_out",
            "Hint searches that ran out of their budget or their deadline undecided",
            pool.timed_out,
        )
        yield counter(
            "reel_solver_jobs_hung", "Solver jobs given up that ran on: their workers stopped",
            pool.hung,
        )  # fmt: skip
        refused = 0 if self._cooldown is None else self._cooldown.refused
        yield counter("reel_cooldown_refusals", "Actions refused as too fast", refused)
        heard = CounterMetricFamily(
            "reel_changes_heard", "Changes heard from other processes", labels=["kind"]
        )
        heard.add_metric(["game"], service.remote.games_heard)
        heard.add_metric(["race"], service.remote.races_heard)
        yield heard
        yield counter(
            "reel_changes_catch_ups",
            "Catch-ups after the connection the changes come by was lost",
            service.remote.catch_ups,
        )
        yield counter(
            "reel_changes_outside_writes",
            "Looks at the SQLite file that found another process's write",
            service.remote.outside_writes,
        )


class ShardFigures(Collector):
    """This process's shards, read when Prometheus asks."""

    def __init__(self, shards: Callable[[], Sequence[Shard]]) -> None:
        self._shards = shards

    def collect(self) -> Iterator[Metric]:
        latency = GaugeMetricFamily(
            "reel_gateway_latency_seconds", "Gateway heartbeat round trip", labels=["shard"]
        )
        up = GaugeMetricFamily(
            "reel_shard_up", "1 when the shard is connected, else 0", labels=["shard"]
        )
        for shard in self._shards():
            if shard.latency is not None:
                latency.add_metric([str(shard.shard_id)], shard.latency)
            up.add_metric([str(shard.shard_id)], 1.0 if shard.up else 0.0)
        yield latency
        yield up


def gauge(name: str, text: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, text, value=value)


def counter(name: str, text: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, text, value=value)


def samples(registry: CollectorRegistry) -> Iterable[tuple[str, dict[str, str], float]]:
    """Every sample (name, labels, value) the registry gives now (for tests and tools)."""
    for metric in registry.collect():
        for sample in metric.samples:
            yield sample.name, sample.labels, sample.value
