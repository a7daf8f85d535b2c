"""The load driver (``duel load``, bench/): it plays real duels against a real server over
real websockets, keeps its own garbage collector quiet while it measures, and leaves
nothing behind."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest
from duel_helpers import run, running_server, url_of

from protocol.codec import pack
from server.clients import load
from server.clients.load import LoadConfig, Stats


def test_the_driver_measures_with_its_collector_off_and_restores_it(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the driver runs its cyclic collector is off (a pause of its own would be counted
    as the server's latency) except for the periodic collection; afterwards the collector is
    on again and nothing is left frozen; no wait of a duel is left pending."""
    monkeypatch.setattr(load, "DRIVER_GC_EVERY_S", 0.3)
    enabled_during: list[bool] = []

    def tick(stats: Stats) -> None:
        enabled_during.append(gc.isenabled())

    async def body() -> Stats:
        async with running_server(redis_url, tmp_path) as server:
            cfg = LoadConfig(url_of(server), duels=2, think_s=0.01, seconds=1.5)
            stats = await load.run(cfg, on_tick=tick, tick_s=0.1)
            left = [t for t in asyncio.all_tasks() if "Event.wait" in repr(t.get_coro())]
            assert not left, left
            return stats

    assert gc.isenabled()
    stats = run(body())
    assert stats.actions > 0 and stats.started >= 2
    # held until the time was up: counted as stopped, not as played to their end
    assert stats.stopped >= 1 and stats.finished + stats.stopped + stats.failed == stats.started
    assert stats.failed == 0 and not stats.errors, stats.errors
    assert 0 < len(stats.latencies) <= stats.actions  # those before the ramp's end are not counted
    assert enabled_during and not any(enabled_during)
    assert stats.driver_collections >= 1
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_the_collector_is_restored_when_the_driver_fails(redis_url: str, tmp_path: Path) -> None:
    """A run that ends in an exception (here: its progress callback raises) still gives the
    collector back as it was."""

    def tick(stats: Stats) -> None:
        raise RuntimeError("the progress display failed")

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            cfg = LoadConfig(url_of(server), duels=1, think_s=0.01, seconds=0.5)
            with pytest.raises(RuntimeError, match="progress display"):
                await load.run(cfg, on_tick=tick, tick_s=0.05)

    run(body())
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_the_driver_reads_what_it_needs_of_each_frame() -> None:
    """The driver decodes a frame into ``load.Frame`` (the seq, the winner, the legal actions,
    the replies' ids and codes) and skips the rest; a duel is over when ``pending`` is nil or
    absent and the view has a winner, a seat or "draw"."""
    legal = [{"do": "attack", "attacker": 7, "target": None}, {"do": "pass"}]
    big = {"you": 0, "winner": None, "players": [{"lp": 8000, "hand": [{"code": 1}] * 40}] * 2}
    f = load.decode_frame(
        pack({"type": "update", "seq": 12, "view": big, "legal": legal, "pending": {"seat": 0}, "facts": [1] * 50})
    )
    assert (f.type, f.seq, f.legal) == ("update", 12, legal)
    assert f.view is not None and f.view.winner is None and not load.over(f)
    for winner in (0, 1, "draw"):
        for end in ({"pending": None}, {}):
            done = load.decode_frame(pack({"type": "update", "seq": 13, "view": {"winner": winner}, **end}))
            assert load.over(done), (winner, end)
    assert not load.over(load.decode_frame(pack({"type": "update", "seq": 14})))  # a frame with no view
    acc = load.decode_frame(pack({"type": "accepted", "client_action_id": "ab-1", "seq": 13}))
    assert (acc.type, acc.client_action_id, acc.seq) == ("accepted", "ab-1", 13)
    rej = load.decode_frame(pack({"type": "rejected", "client_action_id": "ab-2", "code": "action/illegal"}))
    assert (rej.type, rej.code) == ("rejected", "action/illegal")
    seated = load.decode_frame(pack({"type": "seated", "match_id": "M1", "seat": 1, "token": "tk"}))
    assert (seated.match_id, seated.token) == ("M1", "tk")


def test_a_duel_at_full_speed_is_played_to_its_end(redis_url: str, tmp_path: Path) -> None:
    """One duel, no time limit: the driver plays it until the server says it is over (it sees
    the end in the frames it decodes), and counts it finished."""

    async def body() -> Stats:
        async with running_server(redis_url, tmp_path) as server:
            return await asyncio.wait_for(load.run(LoadConfig(url_of(server), duels=1, concurrency=1)), 120)

    stats = run(body())
    assert (stats.started, stats.finished, stats.failed) == (1, 1, 0), stats.errors
    assert not stats.errors and stats.actions > 10


def test_against_a_server_with_its_limits_the_driver_retries_and_ends_on_time(redis_url: str, tmp_path: Path) -> None:
    """A server with the per-address limit of players (here 40 frames/s): the driver sees its
    frames dropped (``rate/limited``), sends them again after a pause, and still stops close
    to ``seconds`` (before the fix every duel waited 30 s for a reply that never came)."""

    async def body() -> tuple[Stats, float]:
        async with running_server(redis_url, tmp_path, address_rate=40) as server:
            t0 = asyncio.get_running_loop().time()
            stats = await load.run(LoadConfig(url_of(server), duels=6, concurrency=6, seconds=2.0))
            return stats, asyncio.get_running_loop().time() - t0

    stats, took = run(body())
    assert stats.errors[load.RATE_LIMITED] > 0, stats.errors
    assert stats.actions > 0  # retried frames went through
    assert took < 2.0 + load.STOP_GRACE_S + 2, took
