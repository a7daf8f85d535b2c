"""A few Prometheus metrics, rendered in the text exposition format (0.0.4).

Kept dependency-free: counters and gauges keyed by label tuples, and one
latency histogram with fixed buckets.
"""

from __future__ import annotations

from collections import defaultdict

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

_HELP = {
    "duel_connections_total": ("counter", "WebSocket connections accepted"),
    "duel_connections_open": ("gauge", "WebSocket connections open now"),
    "duel_frames_in_total": ("counter", "frames received from clients"),
    "duel_frames_out_total": ("counter", "frames queued to clients"),
    "duel_errors_total": ("counter", "error and rejected frames sent, by code"),
    "duel_actions_total": ("counter", "actions handled, by outcome"),
    "duel_appends_total": ("counter", "log appends, by result"),
    "duel_matches_live": ("gauge", "matches held in this process's memory"),
    "duel_slow_clients_dropped_total": ("counter", "clients dropped for a full outgoing queue"),
}


def _labels(labels: tuple[tuple[str, str], ...]) -> str:
    if not labels:
        return ""
    inner = ",".join(f'{k}="{v}"' for k, v in labels)
    return "{" + inner + "}"


class Metrics:
    def __init__(self) -> None:
        self._values: dict[str, dict[tuple[tuple[str, str], ...], float]] = defaultdict(dict)
        self._hist_counts = [0] * len(BUCKETS)
        self._hist_sum = 0.0
        self._hist_n = 0

    def inc(self, name: str, amount: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        series = self._values[name]
        series[key] = series.get(key, 0.0) + amount

    def set(self, name: str, value: float, **labels: str) -> None:
        self._values[name][tuple(sorted(labels.items()))] = value

    def get(self, name: str, **labels: str) -> float:
        return self._values[name].get(tuple(sorted(labels.items())), 0.0)

    def observe_action_latency(self, seconds: float) -> None:
        self._hist_n += 1
        self._hist_sum += seconds
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self._hist_counts[i] += 1

    def render(self) -> str:
        lines: list[str] = []
        for name in sorted(set(_HELP) | set(self._values)):
            kind, text = _HELP.get(name, ("untyped", name))
            lines.append(f"# HELP {name} {text}")
            lines.append(f"# TYPE {name} {kind}")
            series = self._values.get(name) or {(): 0.0}
            for labels, value in sorted(series.items()):
                lines.append(f"{name}{_labels(labels)} {value:g}")
        name = "duel_action_latency_seconds"
        lines.append(f"# HELP {name} time from an action frame to its reply")
        lines.append(f"# TYPE {name} histogram")
        for bound, count in zip(BUCKETS, self._hist_counts, strict=True):
            lines.append(f'{name}_bucket{{le="{bound}"}} {count}')
        lines.append(f'{name}_bucket{{le="+Inf"}} {self._hist_n}')
        lines.append(f"{name}_sum {self._hist_sum:g}")
        lines.append(f"{name}_count {self._hist_n}")
        return "\n".join(lines) + "\n"
