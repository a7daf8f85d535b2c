"""server.runtime.metrics: the duel's counters and histograms as plain numbers, exposed the way
``prometheus_client`` exposes its own (what a scraper reads)."""

from __future__ import annotations

from server.runtime.metrics import LATENCY_BUCKETS, Metrics


def samples(text: str, name: str) -> dict[str, float]:
    """The lines of ``name`` (its series with labels as written) in an exposition."""
    out = {}
    for line in text.splitlines():
        if line.startswith(name):
            series, value = line.rsplit(" ", 1)
            out[series] = float(value)
    return out


def test_latency_histograms_count_each_observation_in_its_bucket_cumulatively() -> None:
    m = Metrics()
    for seconds in (0.0004, 0.0005, 0.0007, 0.003, 0.2, 7.0):
        m.observe("duel_action_latency_seconds", seconds)
    m.observe_action_latency(0.001)
    text = m.render()
    assert "# TYPE duel_action_latency_seconds histogram" in text
    got = samples(text, "duel_action_latency_seconds")
    bucket = 'duel_action_latency_seconds_bucket{le="%s"}'
    # "le": at most the bound; a value on a bound is in that bucket
    assert got[bucket % "0.0005"] == 2
    assert got[bucket % "0.001"] == 4
    assert got[bucket % "0.005"] == 5
    assert got[bucket % "0.25"] == 6
    assert got[bucket % "2.5"] == 6
    assert got[bucket % "+Inf"] == 7
    assert got["duel_action_latency_seconds_count"] == 7
    assert abs(got["duel_action_latency_seconds_sum"] - 7.2056) < 1e-9
    assert len([k for k in got if "_bucket" in k]) == len(LATENCY_BUCKETS) + 1
    # the other histogram is there, empty
    appends = samples(text, "duel_append_latency_seconds")
    assert appends['duel_append_latency_seconds_bucket{le="+Inf"}'] == 0


def test_counters_by_labels() -> None:
    m = Metrics()
    m.inc("duel_actions_total", outcome="accepted")
    m.inc("duel_actions_total", outcome="accepted")
    m.inc("duel_actions_total", outcome="action/illegal")
    assert m.get("duel_actions_total", outcome="accepted") == 2
    got = samples(m.render(), "duel_actions_total")
    assert got['duel_actions_total{outcome="accepted"}'] == 2
    assert got['duel_actions_total{outcome="action/illegal"}'] == 1
