"""Connecting to Redis: one server, or a Redis Cluster.

``connect(url)`` gives the client the whole server uses. ``redis://``, ``rediss://`` and
``unix://`` URLs name one Redis; ``redis+cluster://host:port,host:port/`` (or ``duel serve
--redis-cluster host:port,...``) names the seed nodes of a cluster, and the client is
redis-py's cluster client, which routes every command and script by its keys' hash slot.
Every key of a match shares its ``{match id}`` hash tag and every lobby key the tag
``{lobby}``, so each script touches one slot (docs/scaling.md).

Either way the client retries a command whose connection broke (every write the server
makes is a script that is safe to run twice, see server.store and server.directory), and
gives up quickly enough to answer ``server/unavailable``. The single-server pool is sized
explicitly and *blocks* when every connection is busy: a burst waits a moment instead of
failing with ``MaxConnectionsError``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

REDIS_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
"""What a Redis command raises while Redis cannot be reached."""

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
