"""Connecting to Redis: one server, or a Redis Cluster.

``connect(url)`` gives the client the whole server uses. ``redis://``, ``rediss://`` and
``unix://`` URLs name one Redis; ``redis+cluster://host:port,host:port/`` (or ``duel serve
--redis-cluster host:port,...``) names the seed nodes of a cluster, and the client is
redis-py's cluster client, which routes every command and script by its keys' hash slot.
Every key of a match shares its ``{match id}`` hash tag and every lobby key the tag
``{lobby}``, so each script touches one slot (docs/scaling.md).

Either way the client retries a command whose connection broke (every write the server
makes is a script that is safe to run twice, see server.storage.store and server.match.directory), and
gives up quickly enough to answer ``server/unavailable``. The single-server pool is sized
explicitly and *blocks* when every connection is busy: a burst waits a moment instead of
failing with ``MaxConnectionsError``.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import (
    AskError,
    BusyLoadingError,
    ClusterDownError,
    ClusterError,
    MasterDownError,
    MovedError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
"""What a Redis command raises while Redis cannot be reached."""


def raise_if_cancelled() -> None:
    """In a background loop that carries on after a failed Redis command: stop if the task was
    cancelled meanwhile. redis-py answers a cancellation during a command by closing the
    connection, and the caller may then see a connection error instead of the cancellation:
    a loop that logged it and slept again would never end (a server's stop waited forever)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


_jitter = random.Random()


async def sweep_every(
    every: float, sweep: Callable[[], Awaitable[object]], log: Any, name: str, *, first_now: bool = False
) -> None:
    """A process's background sweep: ``sweep()`` every ``every`` seconds (each wait drawn from
    0.75-1.25 of it, so that the processes of a deployment do not sweep in step), at once first
    if ``first_now`` (what a process killed before left). A sweep that fails is logged as
    ``<name>_redis_unavailable`` or ``<name>_failed`` and the next one goes on; a cancellation
    ends the loop, even one redis-py turned into a connection error (``raise_if_cancelled``)."""
    if not first_now:
        await asyncio.sleep(every * (0.75 + 0.5 * _jitter.random()))
    while True:
        try:
            await sweep()
        except asyncio.CancelledError:
            raise
        except REDIS_DOWN:
            raise_if_cancelled()
            log.warning(f"{name}_redis_unavailable")
        except Exception:
            raise_if_cancelled()
            log.exception(f"{name}_failed")
        raise_if_cancelled()
        await asyncio.sleep(every * (0.75 + 0.5 * _jitter.random()))


REFUSALS = {
    "OOM": "out of memory",
    "READONLY": "a read-only replica (a failover is under way)",
    "CLUSTERDOWN": "a cluster that is down",
    "MASTERDOWN": "a replica whose primary is down",
    "TRYAGAIN": "a cluster moving the match's slot",
    "MOVED": "a cluster whose slots moved (a failover is under way)",
    "ASK": "a cluster moving the match's slot",
    "LOADING": "loading its data",
    "BUSY": "busy running a script",
    "NOREPLICAS": "short of replicas",
    "MISCONF": "unable to persist to disk",
}
"""The error codes of a Redis that is up but refuses a command for a while, for reasons no
client request can fix (nothing was done), with what they mean in words."""

_REFUSAL_RE = re.compile(r"(?:^|-)(" + "|".join(REFUSALS) + r")\b")
"""A refusal's code at the start of an error, or inside a script's error (``ERR Error running
script ...: -OOM command not allowed ...``)."""

_CODES: tuple[tuple[type[Exception], str], ...] = (
    (OutOfMemoryError, "OOM"),  # redis-py drops the code from these errors' text
    (ReadOnlyError, "READONLY"),
    (MasterDownError, "MASTERDOWN"),
    (ClusterDownError, "CLUSTERDOWN"),
    (TryAgainError, "TRYAGAIN"),
    (MovedError, "MOVED"),
    (AskError, "ASK"),
    (BusyLoadingError, "LOADING"),
    (ClusterError, "CLUSTERDOWN"),  # the cluster client's redirections ran out (a failover)
    (SlotNotCoveredError, "CLUSTERDOWN"),
)


@dataclass(frozen=True, slots=True)
class StoreFailure:
    """Redis could not do a request and a retry later may succeed: ``server/unavailable``.
    ``code``: the Redis error code (``OOM``, ``READONLY``, ...), or ``UNREACHABLE`` /
    ``TIMEOUT`` when it did not answer; ``detail``: what Redis or the client said."""

    code: str
    detail: str

    @property
    def health(self) -> str:
        """The reason ``/healthz`` gives."""
        if self.code in ("UNREACHABLE", "TIMEOUT"):
            return f"redis unreachable: {self.detail}"
        return f"redis: {self.code} {self.detail}"

    @property
    def words(self) -> str:
        """What a client is told: the state of the store in words, no internals."""
        if self.code == "TIMEOUT":
            return "did not answer in time"
        return "unreachable" if self.code == "UNREACHABLE" else REFUSALS[self.code]


def store_failure(exc: BaseException) -> StoreFailure | None:
    """``exc`` as a failure of the store that no request of the client can fix (Redis down,
    slow, out of memory, read-only, a cluster failing over), else None (a bug: ``server/internal``)."""
    if isinstance(exc, BusyLoadingError):
        return StoreFailure("LOADING", str(exc).removeprefix("LOADING ").strip())
    if isinstance(exc, RedisTimeoutError | TimeoutError):
        return StoreFailure("TIMEOUT", type(exc).__name__)
    if isinstance(exc, RedisConnectionError | OSError):
        return StoreFailure("UNREACHABLE", type(exc).__name__)
    text = str(exc)
    if isinstance(exc, ResponseError) and (found := _REFUSAL_RE.search(text)) is not None:
        return StoreFailure(found.group(1), text[found.end() :].strip())
    for kind, code in _CODES:
        if isinstance(exc, kind):
            return StoreFailure(code, text.strip())
    return None


CLUSTER_SCHEME = "redis+cluster://"

Client = Any
"""A ``redis.asyncio.Redis`` or ``RedisCluster``: both offer the commands the server uses."""


def is_cluster(url: str) -> bool:
    return url.startswith(CLUSTER_SCHEME)


def cluster_url(nodes: str, password: str | None = None) -> str:
    """``host:port,host:port`` (``--redis-cluster``) as a cluster URL."""
    auth = f":{password}@" if password else ""
    return f"{CLUSTER_SCHEME}{auth}{nodes}/"


def _retry() -> dict[str, Any]:
    return {
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
        "retry_on_error": [RedisConnectionError, RedisTimeoutError],
        "socket_timeout": 5,
        "socket_connect_timeout": 2,
    }


def connect(url: str, max_connections: int = 64) -> Client:
    if is_cluster(url):
        parts = urlsplit("redis://" + url[len(CLUSTER_SCHEME) :])
        hosts = parts.netloc.rsplit("@", 1)[-1]
        nodes = []
        for hp in hosts.split(","):
            host, _, port = hp.rpartition(":")
            nodes.append(ClusterNode(host or "127.0.0.1", int(port)))
        return RedisCluster(
            startup_nodes=nodes,
            password=parts.password,
            max_connections=max_connections,
            **_retry(),
        )
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=max_connections, timeout=10, health_check_interval=15, **_retry()
    )
    return aioredis.Redis(connection_pool=pool)


def subscribers(url: str) -> Callable[[], Any]:
    """Where the fan-out subscribes to the doorbells: the same Redis; on a cluster, one seed
    node after another (each call: the next), since a classic PUBLISH on any node reaches the
    subscribers of every node, and a failed node's subscriber must move on."""
    if not is_cluster(url):
        client = connect(url, 4)
        return lambda: client
    parts = urlsplit("redis://" + url[len(CLUSTER_SCHEME) :])
    nodes = [hp.rpartition(":") for hp in parts.netloc.rsplit("@", 1)[-1].split(",")]
    turn = itertools.cycle(nodes)

    def next_node() -> Any:
        host, _, port = next(turn)
        return aioredis.Redis(host=host or "127.0.0.1", port=int(port), password=parts.password, **_retry())

    return next_node


def masked(url: str) -> str:
    """The URL without a password, for logs."""
    if "@" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url
