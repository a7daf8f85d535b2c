"""The worker processes searching bots think in, shared by every bot of a process.

A search takes its whole time budget of CPU; run in a server's event loop it would stall every
player of the process for that long. :func:`run` sends the search to a process pool instead
and awaits it, so the loop goes on serving while bots think. The pool is one per process
(:func:`configure` sets its size before first use; default :data:`DEFAULT_WORKERS`), made on
first use and shared by all the process's bots: their decisions queue in the order they are
asked, so many bot duels share the workers' CPU fairly (each decision takes its budget, none
jumps the queue). Workers are spawned, not forked (a fork of a running event loop and its
sockets is unsafe); each imports the engine once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor

from server.clients.search.monte_carlo import SearchRequest, SearchResult, search

DEFAULT_WORKERS = max(1, min(4, (os.cpu_count() or 2) - 1))
"""Worker processes when not configured: a core is left to the server itself."""

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_workers = DEFAULT_WORKERS


def configure(workers: int) -> None:
    """The number of worker processes of the pool made next (a running pool is kept)."""
    global _workers
    _workers = max(1, workers)


def executor() -> ProcessPoolExecutor:
    """The process's pool, made on first use."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=_workers, mp_context=multiprocessing.get_context("spawn"))
        return _pool


async def run(req: SearchRequest) -> SearchResult:
    """``search(req)`` in a worker process; the event loop is free meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(executor(), search, req)


def shutdown() -> None:
    """Stop the workers (a new pool is made if a search is asked for again)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
