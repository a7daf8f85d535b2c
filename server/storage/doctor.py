"""Checks of the Redis a server runs against (``duel doctor``, ``/healthz?detail=1``).

Each check reads Redis's own configuration and says OK, WARN or FAIL, with the reason and
what to change (deploy/README.md explains every setting):

* persistence: ``appendonly yes`` (FAIL without: a restart loses matches); ``appendfsync
  always`` (OK), ``everysec`` (WARN: up to about a second of acknowledged actions can be
  lost on a power cut or an OS crash), ``no`` (FAIL);
* ``no-appendfsync-on-rewrite no`` (WARN otherwise: durability drops during rewrites);
* ``maxmemory-policy noeviction`` (FAIL otherwise: an eviction policy may delete logs);
* the version (6.2 or newer; FAIL below);
* cluster mode (reported: every key of a match shares one hash slot, so either works);
* a password (WARN when Redis accepts clients without one and listens beyond loopback).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Level = Literal["OK", "WARN", "FAIL"]


@dataclass(frozen=True, slots=True)
class Finding:
    level: Level
    what: str
    detail: str

    def line(self) -> str:
        return f"{self.level:<4}  {self.what}: {self.detail}"


def _version(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(".")[:3])
    except ValueError:
        return (0,)


def findings(config: dict[str, str], info: dict[str, Any], *, password_set: bool) -> list[Finding]:
    """The checks, from ``CONFIG GET *`` and ``INFO`` (pure: testable without a Redis)."""
    out: list[Finding] = []
    if config.get("appendonly") != "yes":
        out.append(
            Finding("FAIL", "persistence", "appendonly is off: a Redis restart loses every match; set appendonly yes")
        )
    else:
        fsync = config.get("appendfsync", "")
        if fsync == "always":
            out.append(
                Finding("OK", "persistence", "appendonly yes, appendfsync always: an acknowledged action is on disk")
            )
        elif fsync == "everysec":
            out.append(
                Finding(
                    "WARN",
                    "persistence",
                    "appendfsync everysec: a power cut or OS crash can lose about the "
                    "last second of acknowledged actions (docs/reliability.md)",
                )
            )
        else:
            out.append(
                Finding("FAIL", "persistence", f"appendfsync {fsync or '?'}: the OS decides when data reaches disk")
            )
    if config.get("no-appendfsync-on-rewrite", "no") != "no":
        out.append(
            Finding("WARN", "rewrites", "no-appendfsync-on-rewrite yes: during an AOF rewrite nothing is fsynced")
        )
    policy = config.get("maxmemory-policy", "noeviction")
    if policy != "noeviction":
        out.append(Finding("FAIL", "memory", f"maxmemory-policy {policy} may delete match logs; use noeviction"))
    else:
        out.append(
            Finding("OK", "memory", "maxmemory-policy noeviction (Redis refuses writes when full: watch used_memory)")
        )
    version = str(info.get("redis_version", "0"))
    if _version(version) < (6, 2):
        out.append(Finding("FAIL", "version", f"Redis {version}; 6.2 or newer is needed"))
    else:
        out.append(Finding("OK", "version", f"Redis {version}"))
    cluster = str(info.get("cluster_enabled", "0")) == "1"
    out.append(Finding("OK", "mode", "Redis Cluster" if cluster else "a single Redis (or a primary)"))
    bind = config.get("bind", "")
    local = config.get("port", "6379") == "0" or all(
        b in ("127.0.0.1", "::1", "-::1", "localhost") for b in bind.split()
    )
    if not password_set and not local:
        out.append(
            Finding("WARN", "access", f"no password and listening on {bind or 'every interface'}; set requirepass")
        )
    return out


async def check(client: Any) -> list[Finding]:
    """Run the checks against a live Redis (single or cluster client)."""
    raw = await client.config_get("*")
    config = {str(k): str(v) for k, v in (raw.items() if isinstance(raw, dict) else [])}
    info = await client.info()
    if isinstance(info, dict) and info and all(isinstance(v, dict) for v in info.values()):
        info = next(iter(info.values()))  # a cluster client answers per node
    password_set = bool(config.get("requirepass"))
    return findings(config, info if isinstance(info, dict) else {}, password_set=password_set)


def worst(found: list[Finding]) -> Level:
    levels: list[Level] = [f.level for f in found]
    return "FAIL" if "FAIL" in levels else "WARN" if "WARN" in levels else "OK"
