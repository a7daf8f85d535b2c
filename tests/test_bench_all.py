"""``make bench`` states the engine's share of the bare pipeline's CPU per action (issue 12)
from the two benchmarks' own output in the same run."""

from __future__ import annotations

from bench.all import engine_vs_bare

ENGINE_OUT = "  old engine     381.1 us per action\n  new engine      25.8 us per action\n"
THROUGHPUT_OUT = "server CPU per action: real 0.208 ms, bare 0.051 ms ->  4.06x the bare pipeline's\n"


def test_the_engine_share_is_read_from_both_benchmarks() -> None:
    line = engine_vs_bare({"bench.engine_work": ENGINE_OUT, "bench.throughput": THROUGHPUT_OUT})
    assert "25.8 us" in line and "51.0 us" in line
    assert "0.51x" in line and "NOT met" in line


def test_a_share_under_a_third_is_met() -> None:
    fast = ENGINE_OUT.replace("25.8", "15.0")
    line = engine_vs_bare({"bench.engine_work": fast, "bench.throughput": THROUGHPUT_OUT})
    assert "0.29x" in line and "NOT met" not in line and ": met" in line


def test_a_missing_benchmark_is_said_not_measured() -> None:
    assert "not measured" in engine_vs_bare({"bench.engine_work": ENGINE_OUT})
