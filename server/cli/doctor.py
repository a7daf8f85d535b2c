"""``duel doctor``: check the Redis a server runs (or would run) against.

    duel doctor                          # the embedded Redis of ./var (as make run uses it)
    duel doctor --redis-url URL          # a deployment's Redis (or redis+cluster://...)

One line per check (OK / WARN / FAIL, with what to change); the exit status is 0 when
nothing failed, 1 when a check failed, 2 when Redis cannot be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from redis.exceptions import RedisError

from server.cli.args import add_redis_options, redis_target


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("doctor", help="check the Redis configuration the server relies on")
    add_redis_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.storage import doctor, redisconn

    async def go(url: str) -> list[doctor.Finding]:
        client = redisconn.connect(url, 2)
        try:
            return await doctor.check(client)
        finally:
            await client.aclose()

    try:
        with redis_target(args) as url:
            found = asyncio.run(go(url))
            where = redisconn.masked(url)
    except (RedisError, OSError) as exc:
        print(f"duel doctor: cannot reach Redis: {exc}", file=sys.stderr)
        return 2
    print(f"Redis at {where}:")
    for f in found:
        print(f"  {f.line()}")
    verdict = doctor.worst(found)
    print(f"verdict: {verdict}")
    return 1 if verdict == "FAIL" else 0
