"""``duel doctor`` / ``/healthz?detail=1``: the Redis settings the server relies on are checked."""

from __future__ import annotations

from pathlib import Path

from duel_helpers import run, running_server

from server.storage import doctor, redisconn

GOOD = {
    "appendonly": "yes",
    "appendfsync": "always",
    "no-appendfsync-on-rewrite": "no",
    "maxmemory-policy": "noeviction",
    "bind": "127.0.0.1",
    "port": "6379",
}


def levels(config: dict[str, str], version: str = "7.2.4", password: bool = False) -> dict[str, str]:
    found = doctor.findings(config, {"redis_version": version, "cluster_enabled": "0"}, password_set=password)
    return {f.what: f.level for f in found}


def test_each_setting_that_matters_is_judged() -> None:
    assert set(levels(GOOD).values()) == {"OK"}
    assert levels({**GOOD, "appendonly": "no"})["persistence"] == "FAIL"
    assert levels({**GOOD, "appendfsync": "everysec"})["persistence"] == "WARN"
    assert levels({**GOOD, "appendfsync": "no"})["persistence"] == "FAIL"
    assert levels({**GOOD, "maxmemory-policy": "allkeys-lru"})["memory"] == "FAIL"
    assert levels({**GOOD, "no-appendfsync-on-rewrite": "yes"})["rewrites"] == "WARN"
    assert levels(GOOD, version="6.0.9")["version"] == "FAIL"
    assert levels({**GOOD, "bind": "0.0.0.0"})["access"] == "WARN"
    assert "access" not in levels({**GOOD, "bind": "0.0.0.0"}, password=True)
    assert (
        doctor.worst(doctor.findings({**GOOD, "appendonly": "no"}, {"redis_version": "7.0"}, password_set=True))
        == "FAIL"
    )


def test_the_live_checks_read_the_test_redis_and_health_shows_them(redis_url: str, tmp_path: Path) -> None:
    """The tests' Redis runs appendonly yes with appendfsync everysec: persistence is a WARN."""

    async def body() -> None:
        client = redisconn.connect(redis_url, 2)
        found = {f.what: f for f in await doctor.check(client)}
        await client.aclose()
        assert found["persistence"].level == ("WARN" if "everysec" in found["persistence"].detail else "OK")
        assert found["version"].level == "OK"
        async with running_server(redis_url, tmp_path) as server:
            import asyncio

            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /healthz?detail=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            raw = (await reader.read()).decode()
            writer.close()
            assert raw.startswith("HTTP/1.1 200") and "persistence:" in raw and "verdict:" in raw
            import engine

            assert ("engine: compiled (mypyc)" if engine.NATIVE else "engine: python source") in raw

    run(body())


def test_the_grafana_dashboard_queries_metrics_the_server_exposes() -> None:
    """Every metric the sample dashboard (deploy/grafana-dashboard.json) plots is one a server
    exposes (a renamed metric would leave an empty panel)."""
    import json
    import re

    from server.runtime.metrics import Metrics

    dashboard = json.loads((Path(__file__).resolve().parents[2] / "deploy" / "grafana-dashboard.json").read_text())
    metrics = Metrics()
    for name in (
        "duel_actions_total",
        "duel_errors_total",
        "duel_redis_errors_total",
        "duel_appends_total",
        "duel_slow_clients_dropped_total",
        "duel_connections_refused_total",
        "duel_snapshots_loaded_total",
        "duel_snapshots_ignored_total",
    ):
        metrics.inc(name, **({"outcome": "accepted"} if name == "duel_actions_total" else {}))
    metrics.set("duel_matches_live", 1)
    exposed = set(re.findall(r"^([a-z_]+)", metrics.render(), re.M))
    queried = {
        m
        for p in dashboard["panels"]
        for t in p["targets"]
        for m in re.findall(r"\b((?:duel|process)_[a-z_]+)", t["expr"])
    }
    assert queried and queried <= exposed, queried - exposed
