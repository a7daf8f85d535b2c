"""``make bench`` states the engine's share of the bare pipeline's CPU per action (issue 12)
from the two benchmarks' own output in the same run."""

from __future__ import annotations

from bench.all import bare_shape, engine_vs_bare

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


SHARE_OUT = (
    "  round 1: engine   26.0 us (before 25.8, after 26.2), bare   61.0 us (50000 actions) -> 0.43x\n"
    "engine share of the bare pipeline's CPU per action: 0.43x (range 0.41-0.47 over 3 rounds)"
    " (target <= 0.33x: NOT met)\n"
)


def test_the_round_by_round_share_comes_first_then_the_two_benchmarks_medians() -> None:
    outputs = {"bench.engine_share": SHARE_OUT, "bench.engine_work": ENGINE_OUT, "bench.throughput": THROUGHPUT_OUT}
    first, second, method = engine_vs_bare(outputs).split("\n")
    assert first.startswith("engine share of the bare pipeline's CPU per action: 0.43x (range 0.41-0.47")
    assert "0.51x" in second and "minutes apart" in second
    assert method.startswith("  method: bench.engine_work's median")


METHOD_OUT = (
    "  method: saturation, 200 duels at once, 8 s windows; 3 rounds A/B interleaved, median (range); one Python "
    "driver for both (CPU/action real 0.400 ms, bare 0.300 ms); bare: 1703 B frames, 180 B entries\n"
)


def test_the_ratio_states_the_bare_pipelines_method_from_its_benchmark() -> None:
    line = engine_vs_bare({"bench.engine_work": ENGINE_OUT, "bench.throughput": THROUGHPUT_OUT + METHOD_OUT})
    method = line.split("\n")[-1]
    assert method.startswith("  method:") and "3 rounds A/B interleaved" in method and "1703 B frames" in method
    assert "(saturation, 200 duels at once, 8 s windows;" in method


def test_a_failed_round_by_round_benchmark_is_said_not_measured() -> None:
    line = engine_vs_bare({"bench.engine_work": ENGINE_OUT, "bench.throughput": THROUGHPUT_OUT})
    assert line.split("\n")[0] == "engine share, round by round: not measured (its benchmark failed)"


def test_the_round_by_round_bare_pipeline_is_made_the_size_the_throughput_run_measured() -> None:
    out = "method: ...; the bare pipeline sends update frames of 1703 bytes and appended entries of 180 bytes (the"
    assert bare_shape({"bench.throughput": out}) == ["--frame-bytes", "1703", "--entry-bytes", "180"]
    assert bare_shape({}) == []
