"""The server's metrics, exposed at ``/metrics`` through ``prometheus_client``.

Each server has its own registry (tests run several servers in one process). Besides the
duel metrics (connections, frames, actions by outcome, appends by result, errors by code,
action and append latency, Redis errors by kind, snapshots, matches held), it carries the
process metrics (resident memory, CPU seconds, open files: ``process_*``), Python's GC
counts, and the time the cyclic garbage collector stopped the world
(``duel_gc_pause_seconds``: a histogram, per generation), which is what sets the tail of
the action latency under load.

Call sites use four verbs: ``inc``, ``set``, ``observe``, and ``get`` (for tests).
"""

from __future__ import annotations

import gc
import time
from bisect import bisect_left
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
GC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)

_HELP: dict[str, tuple[str, str]] = {
    "duel_connections_total": ("counter", "WebSocket connections accepted"),
    "duel_connections_open": ("gauge", "WebSocket connections open now"),
    "duel_frames_in_total": ("counter", "frames received from clients"),
    "duel_frames_out_total": ("counter", "frames queued to clients"),
    "duel_errors_total": ("counter", "error and rejected frames sent, by code"),
    "duel_actions_total": ("counter", "actions handled, by outcome"),
    "duel_appends_total": ("counter", "log appends, by result"),
    "duel_redis_errors_total": ("counter", "Redis commands that failed after the client's retries, by kind"),
    "duel_matches_live": ("gauge", "matches held in this process's memory"),
    "duel_slow_clients_dropped_total": ("counter", "clients dropped for a full outgoing queue"),
    "duel_keepalive_timeouts_total": ("counter", "connections closed for a keepalive ping not answered in time"),
    "duel_heartbeats_missed_total": ("counter", "connections closed for silence beyond their ping's silence_ms"),
    "duel_snapshots_loaded_total": ("counter", "matches loaded from a snapshot"),
    "duel_snapshots_ignored_total": ("counter", "snapshots ignored (unreadable, or not agreeing with the log)"),
    "duel_snapshots_failed_total": ("counter", "snapshots that could not be made (the log has every entry)"),
    "duel_log_regressions_total": ("counter", "matches folded again: their log was shorter (Redis lost entries)"),
    "duel_matches_deleted_total": ("counter", "finished matches deleted by retention"),
    "duel_matches_expired_total": ("counter", "waiting matches nobody joined that expired, by why (left, ttl)"),
    "duel_bots_running": ("gauge", "the server's own bot players running in this process"),
    "duel_logs_sealed_total": ("counter", "finished matches' logs sealed (compressed into one segment)"),
    "duel_logs_sealed_bytes_total": ("counter", "bytes of the sealed segments written"),
    "duel_logs_seal_failed_total": ("counter", "seals that failed (the log stays a stream until a sweep seals it)"),
    "duel_logs_sealed_overdue_total": ("counter", "overdue seals a sweep took up (their process stopped, or gave up)"),
    "duel_accounts_registered_total": ("counter", "accounts registered"),
    "duel_logins_total": ("counter", "attempts to log in or register, by outcome (ok, token, wrong, locked ...)"),
    "duel_rating_updates_total": ("counter", "rated matches whose rating update this process applied"),
    "duel_rated_reports_total": ("counter", "ends of rated matches reported to the ladder, by outcome (applied, done)"),
    "duel_rated_forfeits_total": ("counter", "seats of rated matches conceded for a player gone past the grace"),
    "duel_match_changes_total": ("counter", "changes this process made to records of matches of several duels"),
    "duel_matches_finished_total": ("counter", "matches of several duels over, by reason (score, concede, drop, time)"),
}
_HISTOGRAMS = {
    "duel_action_latency_seconds": "time from an action frame to its reply",
    "duel_append_latency_seconds": "time of one log append (the Redis round trip)",
}


class _Buckets:
    """One histogram as plain numbers: the count of each bucket (Prometheus' ``le``: a value
    goes into the first bucket whose bound is at least it) and the sum. An observation is a
    bisection and two additions, 0.25 µs; a ``prometheus_client`` histogram takes a lock and
    searches its buckets in Python, 1.0 µs (two per action)."""

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value

    def cumulative(self) -> list[tuple[str, float]]:
        """(``le``, observations at most that) for each bucket, as a scrape reports them."""
        out: list[tuple[str, float]] = []
        total = 0
        for bound, n in zip((*self.bounds, float("inf")), self.counts, strict=True):
            total += n
            out.append(("+Inf" if bound == float("inf") else str(bound), total))
        return out


class _GCPauses(Collector):
    """Stop-the-world time of each garbage collection, per generation (process-wide)."""

    def __init__(self) -> None:
        self.generations = [_Buckets(GC_BUCKETS) for _ in range(3)]
        self._start = 0.0
        self.worst = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        took = time.perf_counter() - self._start
        self.worst = max(self.worst, took)
        self.generations[int(info.get("generation", 0))].observe(took)

    def collect(self) -> Any:
        family = HistogramMetricFamily(
            "duel_gc_pause_seconds", "time the cyclic garbage collector stopped the process", labels=["generation"]
        )
        for gen, buckets in enumerate(self.generations):
            family.add_metric([str(gen)], buckets.cumulative(), buckets.sum)
        yield family


class _Histograms(Collector):
    """The duel's latency histograms (``_HISTOGRAMS``), reported when scraped."""

    def __init__(self) -> None:
        self.buckets = {name: _Buckets(LATENCY_BUCKETS) for name in _HISTOGRAMS}

    def collect(self) -> Any:
        for name, buckets in self.buckets.items():
            family = HistogramMetricFamily(name, _HISTOGRAMS[name])
            family.add_metric([], buckets.cumulative(), buckets.sum)
            yield family


GC_PAUSES = _GCPauses()

LabelKey = tuple[str, tuple[tuple[str, str], ...]]
"""A counter's name and its labels (sorted)."""


def _label_key(name: str, labels: dict[str, str]) -> LabelKey:
    return (name, tuple(sorted(labels.items())) if labels else ())


class _Counters(Collector):
    """The duel counters as plain numbers, reported when scraped: a count is one dict update
    (a ``prometheus_client`` counter takes a lock and calls through two objects; several per
    action, ~2.5 % of the server's CPU with 2,000 duels at a human pace)."""

    def __init__(self) -> None:
        self.values: dict[LabelKey, float] = {}

    def collect(self) -> Any:
        families: dict[str, CounterMetricFamily] = {}
        for (name, labels), value in sorted(self.values.items()):
            family = families.get(name)
            if family is None:
                text = _HELP.get(name, ("counter", name))[1]
                family = families[name] = CounterMetricFamily(name, text, labels=[k for k, _ in labels])
            family.add_metric([v for _, v in labels], value)
        yield from families.values()


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self.registry.register(GC_PAUSES)
        self._metrics: dict[str, Any] = {}
        self._children: dict[tuple[Any, ...], Any] = {}
        self._counters = _Counters()
        self.registry.register(self._counters)
        self._histograms = _Histograms()
        self.registry.register(self._histograms)
        self._observe = {name: buckets.observe for name, buckets in self._histograms.buckets.items()}
        for name, (kind, text) in _HELP.items():
            if kind == "gauge" and name not in self._metrics:
                self._metrics[name] = Gauge(name, text, registry=self.registry)

    def _metric(self, name: str, labels: dict[str, str], gauge: bool) -> Any:
        """The child of ``name`` for ``labels`` (remembered: ``labels()`` costs a lock and a
        few dicts, and frames and actions count several metrics each)."""
        key = (name, *labels.items())
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = self._child(name, labels, gauge)
        return child

    def _child(self, name: str, labels: dict[str, str], gauge: bool) -> Any:
        metric = self._metrics.get(name)
        if metric is None:
            kind, text = _HELP.get(name, ("gauge" if gauge else "counter", name))
            cls = Gauge if kind == "gauge" else Counter
            metric = self._metrics[name] = cls(name, text, labelnames=sorted(labels), registry=self.registry)
        return metric.labels(**labels) if labels else metric

    def inc(self, name: str, amount: float = 1.0, **labels: str) -> None:
        kind = _HELP[name][0] if name in _HELP else "gauge" if amount < 0 else "counter"
        if kind == "gauge":
            self._metric(name, labels, gauge=True).inc(amount)
            return
        key = _label_key(name, labels)
        values = self._counters.values
        values[key] = values.get(key, 0.0) + amount

    def set(self, name: str, value: float, **labels: str) -> None:
        self._metric(name, labels, gauge=True).set(value)

    def get(self, name: str, **labels: str) -> float:
        counted = self._counters.values.get(_label_key(name, labels))
        if counted is not None:
            return counted
        metric = self._metrics.get(name)
        if metric is None:
            return 0.0
        target = metric.labels(**labels) if labels else metric
        return float(target._value.get())

    def observe(self, name: str, seconds: float) -> None:
        self._observe[name](seconds)

    def observe_action_latency(self, seconds: float) -> None:
        self.observe("duel_action_latency_seconds", seconds)

    def render(self) -> str:
        return generate_latest(self.registry).decode()
