"""``duel load`` as an operator runs it: against a real ``duel serve`` process, a summary table,
one JSON line for scripts, and a note when the generator itself was the busy one."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from proc_helpers import ServeProcess

from server.cli import load as cli_load
from server.cli import main
from server.clients.load import LOAD_TEST_LIMITS


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path_factory.mktemp("serve"), "--redis-url", redis_url, *LOAD_TEST_LIMITS) as srv:
        yield srv


def _load(url: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, object], str, str]:
    code = main(["load", "--url", url, "--duels", "3", "--concurrency", "3", "--quiet", *extra])
    out, err = capsys.readouterr()
    summary = json.loads(out.strip().splitlines()[-1])
    return code, summary, out, err


def test_duel_load_plays_its_duels_and_reports_them(server: ServeProcess, capsys: pytest.CaptureFixture[str]) -> None:
    code, summary, out, err = _load(server.url, capsys)
    assert code == 0, err
    assert summary["duels_started"] == summary["duels_finished"] == 3
    assert summary["duels_failed"] == 0 and summary["errors"] == {}
    assert isinstance(summary["actions"], int) and summary["actions"] > 0
    assert isinstance(summary["p50_ms"], float) and 0 < summary["p50_ms"] <= summary["p99_ms"]
    cpu = summary["driver_cpu_percent"]
    assert isinstance(cpu, float) and 0 < cpu < 400
    assert re.search(rf"^load generator CPU +{cpu} % of a core$", out, re.M), out
    assert "note: the load generator" not in err  # three duels do not keep it busy


def test_duel_load_says_when_the_generator_was_the_busy_one(
    server: ServeProcess, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_load, "DRIVER_BUSY_PERCENT", 0.0)
    code, summary, _, err = _load(server.url, capsys)
    assert code == 0
    assert f"note: the load generator used {summary['driver_cpu_percent']} % of a core" in err


def test_duel_load_at_a_human_pace_reports_duels_held_and_memory_per_duel(
    server: ServeProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    """Duels held until the time is up are said to be still playing, not finished; the server's
    memory per duel is what the duels added to it (RSS before the load subtracted)."""
    assert server.proc is not None
    pid = str(server.proc.pid)
    code, summary, out, _ = _load(server.url, capsys, "--think", "0.05", "--seconds", "1", "--server-pid", pid)
    assert code == 0
    held = summary["duels_stopped"]
    assert isinstance(held, int) and held >= 1
    assert summary["duels_started"] == summary["duels_finished"] + held + summary["duels_failed"]
    assert f"({held} still playing when time was up)" in out
    before, after, per_duel = (
        summary[k] for k in ("server_rss_kib_before", "server_rss_kib", "server_rss_kib_per_duel")
    )
    assert isinstance(before, int) and isinstance(after, int) and isinstance(per_duel, float)
    assert per_duel == round((after - before) / 3, 1)
    assert f"{per_duel} KiB per duel held, above {before} KiB before" in out


def test_duel_load_with_no_server_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["load", "--url", "ws://127.0.0.1:9", "--duels", "1", "--quiet"])
    _, err = capsys.readouterr()
    assert code == 1
    assert err.startswith("duel load: cannot reach a duel server at ws://127.0.0.1:9")
    assert len(err.strip().splitlines()) == 1


def test_duel_load_against_a_server_with_its_limits_says_how_to_start_one_for_load(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server started as for players (here 40 frames/s per address) drops most of one
    address's frames: the tool says so when it starts, and the note names the limits and how to
    lift them, both with ``duel serve`` and with ``make run`` (what an operator trying the tool on
    ``make run``'s server has)."""
    with ServeProcess(tmp_path_factory.mktemp("limited"), "--redis-url", redis_url, "--address-rate", "40") as srv:
        _, summary, _, err = _load(srv.url, capsys, "--seconds", "2")
    errors = summary["errors"]
    assert isinstance(errors, dict) and errors.get("rate/limited", 0) > 0, summary
    limits = " ".join(LOAD_TEST_LIMITS)
    assert f"note: the server dropped {errors['rate/limited']} frames for its rate limits" in err
    # said once, as soon as the first frame was dropped, before the summary's note
    early = "duel load: the server is dropping frames for its rate limits"
    assert err.count(early) == 1 and err.index(early) < err.index("note: the server dropped")
    assert f"`duel serve {limits}`" in err
    assert f'`make run ARGS="{limits}"`' in err
