"""``bench.engine_work --tiny`` runs (old engine from git, new engine, one short duel): its
figures exist and the two engines played the same duel. No speed is asserted here."""

from __future__ import annotations

import pytest

from bench import engine_work


def test_tiny_engine_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    series = engine_work.run(1, tiny=True)
    out = capsys.readouterr().out
    assert "the two engines played the same duels" in out
    for key in ("old_work_per_action", "new_work_per_action", "new_fold_entries", "new_decode", "work_ratio"):
        assert len(series[key]) == 1 and series[key][0] > 0
