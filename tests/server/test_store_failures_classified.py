"""Which Redis errors are ``server/unavailable`` (``redisconn.store_failure``), with the words a
client and ``/healthz`` are given: each refusal code Redis sends while it cannot take a request
for a while, as redis-py raises it and as it comes back from inside a script; and what stays a
bug (``server/internal``). The same errors from a real Redis: test_server_store_failures.py
(OOM) and tests/faults/test_fault_cluster_failover.py (a failover)."""

from __future__ import annotations

import pytest
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    ClusterError,
    DataError,
    MovedError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.storage.redisconn import REFUSALS, store_failure

SCRIPT_OOM = (
    "ERR Error running script (call to f_e3fdde15d7e04251658661cca47c45ec2564441b): @user_script:1: "
    "@user_script: 1: -OOM command not allowed when used memory > 'maxmemory'."
)


@pytest.mark.parametrize(
    ("exc", "code", "health"),
    [
        (OutOfMemoryError("command not allowed when used memory > 'maxmemory'."), "OOM", "redis: OOM command not"),
        (ResponseError(SCRIPT_OOM), "OOM", "redis: OOM command not allowed when used memory > 'maxmemory'."),
        (ReadOnlyError("You can't write against a read only replica."), "READONLY", "redis: READONLY You can't"),
        (ResponseError("READONLY You can't write against a read only replica."), "READONLY", "redis: READONLY"),
        (ClusterDownError("The cluster is down"), "CLUSTERDOWN", "redis: CLUSTERDOWN The cluster is down"),
        (ClusterError("TTL exhausted."), "CLUSTERDOWN", "redis: CLUSTERDOWN TTL exhausted."),
        (TryAgainError("Multiple keys request during rehashing of slot"), "TRYAGAIN", "redis: TRYAGAIN"),
        (MovedError("3999 127.0.0.1:6381"), "MOVED", "redis: MOVED 3999"),
        (BusyLoadingError("LOADING Redis is loading the dataset in memory"), "LOADING", "redis: LOADING Redis is"),
        (ResponseError("BUSY Redis is busy running a script."), "BUSY", "redis: BUSY Redis is busy"),
        (ResponseError("MISCONF Redis is configured to save RDB snapshots"), "MISCONF", "redis: MISCONF"),
        (RedisConnectionError("Connection refused"), "UNREACHABLE", "redis unreachable: ConnectionError"),
        (ConnectionRefusedError(111, "refused"), "UNREACHABLE", "redis unreachable: ConnectionRefusedError"),
        (RedisTimeoutError("Timeout reading from socket"), "TIMEOUT", "redis unreachable: TimeoutError"),
    ],
)
def test_a_failure_no_request_can_fix_is_unavailable(exc: Exception, code: str, health: str) -> None:
    failure = store_failure(exc)
    assert failure is not None and failure.code == code, failure
    assert failure.health.startswith(health), failure.health
    assert failure.words and "@user_script" not in failure.words  # no internals for clients
    if code in REFUSALS:
        assert failure.words == REFUSALS[code]


@pytest.mark.parametrize(
    "exc",
    [
        ResponseError("ERR wrong number of arguments for 'xadd' command"),
        ResponseError("BUSYKEY Target key name already exists."),  # a bug of ours, not a busy Redis
        NoScriptError("No matching script. Please use EVAL."),
        DataError("Invalid input of type: 'NoneType'"),
        ValueError("entry of 600000 bytes exceeds 524288"),
        KeyError("seq"),
    ],
)
def test_anything_else_is_a_bug(exc: Exception) -> None:
    assert store_failure(exc) is None
